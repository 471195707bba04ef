// SessionStore on better-sqlite3 (Node). The package never imports better-sqlite3: the caller
// passes its Database class (and a file name) or an already open database.
//
// better-sqlite3 is synchronous while a store transaction awaits an async callback, so the
// transaction is held open across awaits: BEGIN IMMEDIATE, await fn, COMMIT, or ROLLBACK when
// fn throws. The store's mutex keeps other store calls out of an open transaction; give the
// store its own connection, because any other statement run on the same connection while a
// transaction is open would become part of it.

import { SessionStoreBase, storeError } from './base.js';
import { SCHEMA_STATEMENTS, SCHEMA_VERSION, SQL } from './schema.js';

/** @typedef {import('./base.js').SessionRow} SessionRow */
/** @typedef {import('./base.js').NodeRow} NodeRow */

/**
 * The part of a better-sqlite3 Database this store uses.
 * @typedef {{
 *   prepare(sql: string): { all(...params: unknown[]): any[], get(...params: unknown[]): any, run(...params: unknown[]): unknown },
 *   exec(sql: string): unknown,
 *   pragma(sql: string, options?: { simple?: boolean }): unknown,
 *   close(): unknown,
 *   inTransaction: boolean,
 * }} SqliteDatabase
 */

/** @param {any} r @returns {SessionRow} */
function sessionRow(r) {
  return {
    id: r.id,
    leafId: r.leaf_id,
    branchRevision: r.branch_revision,
    baseSessionId: r.base_session_id,
    baseNodeId: r.base_node_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

class SqliteDriver {
  /** @param {SqliteDatabase} db */
  constructor(db) {
    this.db = db;
    /** @type {Map<string, ReturnType<SqliteDatabase['prepare']>>} */
    this.statements = new Map();
  }

  /** @param {string} sql */
  stmt(sql) {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  init() {
    const version = Number(this.db.pragma('user_version', { simple: true }));
    if (version > SCHEMA_VERSION) {
      throw storeError('unsupported-schema', `session database has schema ${version}; this version reads up to ${SCHEMA_VERSION}`);
    }
    if (version === SCHEMA_VERSION) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const statement of SCHEMA_STATEMENTS) this.db.exec(statement);
      this.db.exec(SQL.setUserVersion);
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** @param {string} id */
  getSession(id) {
    const r = this.stmt(SQL.selectSession).get(id);
    return r ? sessionRow(r) : null;
  }

  listSessionIds() {
    return this.stmt(SQL.selectSessionIds).all().map((r) => r.id);
  }

  /** @param {string} sessionId */
  getNodeJsons(sessionId) {
    return this.stmt(SQL.selectNodes).all(sessionId).map((r) => r.json);
  }

  /** @param {string} sessionId @param {string} id @returns {NodeRow | null} */
  getNode(sessionId, id) {
    const r = this.stmt(SQL.selectNode).get(sessionId, id);
    return r ? { id: r.id, parentId: r.parent_id, kind: r.kind, json: r.json } : null;
  }

  /** @param {SessionRow} row */
  insertSession(row) {
    this.stmt(SQL.insertSession).run(
      row.id, row.leafId, row.branchRevision, row.baseSessionId, row.baseNodeId, row.createdAt, row.updatedAt,
    );
  }

  /** @param {string} sessionId @param {NodeRow} row @param {number} createdAt */
  insertNode(sessionId, row, createdAt) {
    const seq = this.stmt(SQL.selectMaxSeq).get(sessionId).max_seq + 1;
    this.stmt(SQL.insertNode).run(sessionId, row.id, row.parentId, row.kind, row.json, createdAt, seq);
  }

  /** @param {string} sessionId @param {string | null} leafId @param {number} branchRevision @param {number} updatedAt */
  updateHead(sessionId, leafId, branchRevision, updatedAt) {
    this.stmt(SQL.updateHead).run(leafId, branchRevision, updatedAt, sessionId);
  }

  /** @param {string} sessionId @param {string} id @param {string} json */
  updateNodeJson(sessionId, id, json) {
    this.stmt(SQL.updateNodeJson).run(json, sessionId, id);
  }

  /**
   * @template T
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  async runInTransaction(fn) {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await fn();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }
}

/**
 * SessionStore on a better-sqlite3 database file, in WAL mode.
 *
 *   import Database from 'better-sqlite3';
 *   const store = new SqliteStore(Database, 'sessions.sqlite'); // opens (and later closes) the file
 *   const store2 = new SqliteStore(new Database('sessions.sqlite')); // uses an open database
 */
export class SqliteStore extends SessionStoreBase {
  #db;
  #ownsDb;

  /**
   * @param {SqliteDatabase | (new (filename: string) => SqliteDatabase)} databaseOrClass
   *   an open better-sqlite3 Database, or the Database class itself
   * @param {string} [filename] the file to open when a class is given
   */
  constructor(databaseOrClass, filename) {
    let db;
    if (typeof databaseOrClass === 'function') {
      if (typeof filename !== 'string' || filename === '') {
        throw storeError('invalid-argument', 'SqliteStore: a file name is needed when the Database class is given');
      }
      db = new databaseOrClass(filename);
    } else if (databaseOrClass && typeof databaseOrClass.prepare === 'function') {
      db = databaseOrClass;
    } else {
      throw storeError('invalid-argument', 'SqliteStore: pass a better-sqlite3 Database or the Database class and a file name');
    }
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    super(new SqliteDriver(db));
    this.#db = db;
    this.#ownsDb = typeof databaseOrClass === 'function';
  }

  /** The underlying database (for the app's own reads; do not write through it mid-transaction). */
  get database() {
    return this.#db;
  }

  /** Closes the database if this store opened it. */
  close() {
    if (this.#ownsDb) this.#db.close();
  }
}
