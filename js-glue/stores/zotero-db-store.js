// SessionStore on a Zotero.DBConnection, e.g. `new Zotero.DBConnection('bibgenie-compaction')`:
// its own database file, so Zotero's main database and its backups are not bloated.
//
// Pitfalls of Zotero's DB API that shape this file:
// - queryAsync returns rows only when the statement's first word is SELECT (or PRAGMA) with
//   nothing before it; every SELECT in schema.js starts exactly with "SELECT ".
// - Rows are proxies answering column names only (no spread, no Object.keys).
// - Boolean and undefined parameters throw: params() converts them to 0/1 and null.
// - At most 999 bound parameters per statement: no statement here binds more than 7.
// - executeTransaction waits for a running transaction, so a nested call deadlocks (Zotero
//   gives up after a timeout). Every store method opens at most one transaction and never
//   calls another store method inside it; transaction callbacks must use `tx`, not the store.
// - Statements run on the connection while a transaction is open become part of it: all
//   store calls go through the store's mutex, and reads wait for a running store transaction.

import { MAX_BOUND_PARAMETERS, SCHEMA_STATEMENTS, SCHEMA_VERSION, SQL } from './schema.js';
import { SessionStoreBase, storeError } from './base.js';

/** @typedef {import('./base.js').SessionRow} SessionRow */
/** @typedef {import('./base.js').NodeRow} NodeRow */

/**
 * The part of Zotero.DBConnection this store uses.
 * @typedef {{
 *   queryAsync(sql: string, params?: unknown[]): Promise<any[] | undefined>,
 *   valueQueryAsync(sql: string, params?: unknown[]): Promise<unknown>,
 *   executeTransaction<T>(fn: () => Promise<T>): Promise<T>,
 * }} ZoteroDBConnection
 */

/**
 * Zotero-safe parameters: no booleans, no undefined, no more than 999.
 * @param {unknown[]} values
 */
function params(values) {
  if (values.length > MAX_BOUND_PARAMETERS) {
    throw storeError('invalid-argument', `a statement may bind at most ${MAX_BOUND_PARAMETERS} parameters`);
  }
  return values.map((v) => (v === undefined ? null : typeof v === 'boolean' ? (v ? 1 : 0) : v));
}

/** @param {any} r @returns {SessionRow} */
function sessionRow(r) {
  return {
    id: r.id,
    leafId: r.leaf_id,
    branchRevision: Number(r.branch_revision),
    baseSessionId: r.base_session_id,
    baseNodeId: r.base_node_id,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
  };
}

class ZoteroDriver {
  /** @param {ZoteroDBConnection} db */
  constructor(db) {
    this.db = db;
  }

  /** @param {string} sql @param {unknown[]} [values] */
  async rows(sql, values = []) {
    const rows = await this.db.queryAsync(sql, params(values));
    if (!Array.isArray(rows)) throw new Error(`expected rows from a SELECT [QUERY: ${sql}]`);
    return rows;
  }

  /** @param {string} sql @param {unknown[]} [values] */
  async run(sql, values = []) {
    await this.db.queryAsync(sql, values.length ? params(values) : undefined);
  }

  async init() {
    const version = Number(await this.db.valueQueryAsync(SQL.userVersion));
    if (version > SCHEMA_VERSION) {
      throw storeError('unsupported-schema', `session database has schema ${version}; this version reads up to ${SCHEMA_VERSION}`);
    }
    if (version === SCHEMA_VERSION) return;
    await this.db.executeTransaction(async () => {
      for (const statement of SCHEMA_STATEMENTS) await this.run(statement);
      await this.run(SQL.setUserVersion);
    });
  }

  /** @param {string} id */
  async getSession(id) {
    const rows = await this.rows(SQL.selectSession, [id]);
    return rows.length ? sessionRow(rows[0]) : null;
  }

  async listSessionIds() {
    return (await this.rows(SQL.selectSessionIds)).map((r) => String(r.id));
  }

  /** @param {string} sessionId */
  async getNodeJsons(sessionId) {
    return (await this.rows(SQL.selectNodes, [sessionId])).map((r) => String(r.json));
  }

  /** @param {string} sessionId @param {string} id @returns {Promise<NodeRow | null>} */
  async getNode(sessionId, id) {
    const rows = await this.rows(SQL.selectNode, [sessionId, id]);
    if (!rows.length) return null;
    const r = rows[0];
    return { id: r.id, parentId: r.parent_id, kind: r.kind, json: r.json };
  }

  /** @param {SessionRow} row */
  async insertSession(row) {
    await this.run(SQL.insertSession, [
      row.id, row.leafId, row.branchRevision, row.baseSessionId, row.baseNodeId, row.createdAt, row.updatedAt,
    ]);
  }

  /** @param {string} sessionId @param {NodeRow} row @param {number} createdAt */
  async insertNode(sessionId, row, createdAt) {
    const maxSeq = Number(await this.db.valueQueryAsync(SQL.selectMaxSeq, params([sessionId])));
    await this.run(SQL.insertNode, [sessionId, row.id, row.parentId, row.kind, row.json, createdAt, maxSeq + 1]);
  }

  /** @param {string} sessionId @param {string | null} leafId @param {number} branchRevision @param {number} updatedAt */
  async updateHead(sessionId, leafId, branchRevision, updatedAt) {
    await this.run(SQL.updateHead, [leafId, branchRevision, updatedAt, sessionId]);
  }

  /** @param {string} sessionId @param {string} id @param {string} json */
  async updateNodeJson(sessionId, id, json) {
    await this.run(SQL.updateNodeJson, [json, sessionId, id]);
  }

  /**
   * @template T
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  runInTransaction(fn) {
    return this.db.executeTransaction(() => fn());
  }
}

/**
 * SessionStore on a Zotero.DBConnection (or anything with its queryAsync / valueQueryAsync /
 * executeTransaction semantics). The schema is created on first use.
 *
 *   const store = new ZoteroDBStore(new Zotero.DBConnection('bibgenie-compaction'));
 *   // on plugin shutdown: await connection.closeDatabase();
 */
export class ZoteroDBStore extends SessionStoreBase {
  #db;

  /** @param {ZoteroDBConnection} db */
  constructor(db) {
    if (!db || typeof db.queryAsync !== 'function' || typeof db.executeTransaction !== 'function') {
      throw storeError('invalid-argument', 'ZoteroDBStore: pass a Zotero.DBConnection');
    }
    super(new ZoteroDriver(db));
    this.#db = db;
  }

  /** The connection this store writes to. */
  get connection() {
    return this.#db;
  }
}
