// SessionStore on better-sqlite3 (Node). The package never imports better-sqlite3: the caller
// passes its Database class (and a file name) or an already open database.
//
// better-sqlite3 is synchronous, and so is every store operation on it: each runs inside one
// synchronous SQLite transaction (BEGIN IMMEDIATE for writes, a deferred one for reads), so no
// lock is ever held across an `await` (a transaction's async callback runs outside, see
// SessionStoreBase#transaction). A busy file (another process writing) is waited for with a
// short busy timeout and then asynchronous retries, never a frozen thread; past the store's
// `busyTimeoutMs` the call fails with the retryable code `store-busy`.
// Stores opened from the Database class on one file in one process share one connection.

import { SessionStoreBase } from './base.js';
import { AsyncMutex } from './sequencing.js';
import { storeError } from './nodes.js';
import { SQL, schemaSteps, SCHEMA_VERSION, sessionParams, sessionRow } from './schema.js';

/** @typedef {import('./store-core.js').SessionRow} SessionRow */
/** @typedef {import('./store-core.js').NodeRow} NodeRow */

/**
 * The part of a better-sqlite3 Database the store uses (the package never imports it).
 * @typedef {{
 *   prepare(sql: string): { all(...params: unknown[]): any[], get(...params: unknown[]): any, run(...params: unknown[]): unknown },
 *   exec(sql: string): unknown,
 *   pragma(sql: string, options?: { simple?: boolean }): unknown,
 *   close(): unknown,
 *   inTransaction: boolean,
 *   transaction?: unknown,
 * }} SqliteDatabaseLike
 */
/** @typedef {SqliteDatabaseLike} SqliteDatabase */
/**
 * @typedef {object} SqliteStoreOptions
 * @property {number} [busyTimeoutMs] How long a call retries a file another connection keeps locked before `store-busy` (default 5000 ms).
 */

/** How long one SQLite call may block the thread waiting for another connection's lock. */
export const SQLITE_BUSY_WAIT_MS = 20;
/** How long a store call keeps retrying a busy file (asynchronously) before `store-busy`. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** @param {unknown} error */
function isBusy(error) {
  const code = /** @type {{ code?: unknown } | null | undefined} */ (error)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'));
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class SqliteDriver {
  mutex = new AsyncMutex();
  /** Stores using this driver (shared connections are closed by the last one). */
  users = 0;
  /** @type {string | null} the registry key when the connection is shared */
  key = null;

  /** @param {SqliteDatabase} db @param {boolean} ownsDb @param {number} busyTimeoutMs */
  constructor(db, ownsDb, busyTimeoutMs) {
    this.db = db;
    this.ownsDb = ownsDb;
    this.busyTimeoutMs = busyTimeoutMs;
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

  /**
   * Runs `body` in one synchronous transaction; a busy file is retried after a pause (the
   * event loop runs meanwhile) until busyTimeoutMs, then `store-busy`.
   * @template T @param {'BEGIN' | 'BEGIN IMMEDIATE'} begin @param {() => T} body @returns {T | Promise<T>}
   */
  #inTransaction(begin, body) {
    const once = () => {
      if (this.db.inTransaction) {
        // The app's own transaction is open on this connection: run inside it, as it asked.
        return this.#sync(body);
      }
      this.db.exec(begin);
      try {
        const result = this.#sync(body);
        this.db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    };
    try {
      return once();
    } catch (error) {
      if (!isBusy(error)) throw error;
      return this.#retryBusy(once, Date.now());
    }
  }

  /** @template T @param {() => T} body @returns {T} */
  #sync(body) {
    const result = body();
    if (result && typeof (/** @type {{ then?: unknown }} */ (result).then) === 'function') {
      throw storeError('internal', 'sqlite store: an operation did not run synchronously');
    }
    return result;
  }

  /** @template T @param {() => T} once @param {number} started @returns {Promise<T>} */
  async #retryBusy(once, started) {
    for (let pause = 2; ; pause = Math.min(pause * 2, 100)) {
      const left = this.busyTimeoutMs - (Date.now() - started);
      if (left <= 0) {
        throw storeError('store-busy', `the session database is locked by another connection (waited ${Date.now() - started} ms); try again`, {
          retryable: true,
        });
      }
      await sleep(Math.min(pause, left));
      try {
        return once();
      } catch (error) {
        if (!isBusy(error)) throw error;
      }
    }
  }

  init() {
    const version = Number(this.#inTransaction('BEGIN', () => this.db.pragma('user_version', { simple: true })));
    if (version > SCHEMA_VERSION) {
      throw storeError('unsupported-schema', `session database has schema ${version}; this version reads up to ${SCHEMA_VERSION}`);
    }
    if (version === SCHEMA_VERSION) return undefined;
    return this.#inTransaction('BEGIN IMMEDIATE', () => {
      // Another process may have migrated the file since the check above.
      const now = Number(this.db.pragma('user_version', { simple: true }));
      if (now >= SCHEMA_VERSION) return;
      for (const statement of schemaSteps(now)) this.db.exec(statement);
      this.db.exec(SQL.setUserVersion);
    });
  }

  // (A promise of a promise is a promise: the casts only say so to the checker.)
  /** @template T @param {() => T | Promise<T>} body @returns {T | Promise<T>} */
  read(body) {
    return /** @type {T | Promise<T>} */ (this.#inTransaction('BEGIN', body));
  }

  /** @template T @param {() => T | Promise<T>} body @returns {T | Promise<T>} */
  write(body) {
    return /** @type {T | Promise<T>} */ (this.#inTransaction('BEGIN IMMEDIATE', body));
  }

  /** @param {string} id */
  getSession(id) {
    const r = this.stmt(SQL.selectSession).get(id);
    return r ? sessionRow(r) : null;
  }

  /** @param {string} appKey */
  getSessionByAppKey(appKey) {
    const r = this.stmt(SQL.selectSessionByAppKey).get(appKey);
    return r ? sessionRow(r) : null;
  }

  listSessions() {
    return this.stmt(SQL.selectSessions).all().map(sessionRow);
  }

  /** @param {string} baseSessionId */
  listForks(baseSessionId) {
    return this.stmt(SQL.selectForks).all(baseSessionId).map(sessionRow);
  }

  /** @param {string} sessionId */
  getNodeJsons(sessionId) {
    return this.stmt(SQL.selectNodes).all(sessionId).map((r) => r.json);
  }

  /** @param {string} sessionId @param {number} seq @returns {import('./visible-rows.js').SeqRow[]} */
  getNodeRowsAfter(sessionId, seq) {
    return this.stmt(SQL.selectNodeRowsAfter).all(sessionId, seq).map((r) => ({ seq: Number(r.seq), id: r.id, parentId: r.parent_id, json: r.json }));
  }

  /** Moves when another connection (another store's, another process's) committed to the file. */
  changeToken() {
    return Number(this.db.pragma('data_version', { simple: true }));
  }

  /** @param {string} sessionId @param {string} id @returns {NodeRow | null} */
  getNode(sessionId, id) {
    const r = this.stmt(SQL.selectNode).get(sessionId, id);
    return r ? { id: r.id, parentId: r.parent_id, kind: r.kind, json: r.json } : null;
  }

  /** @param {SessionRow} row */
  insertSession(row) {
    this.stmt(SQL.insertSession).run(...sessionParams(row));
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

  /** @param {string} sessionId @param {string | null} title @param {string | null} appKey @param {number} updatedAt */
  updateInfo(sessionId, title, appKey, updatedAt) {
    this.stmt(SQL.updateInfo).run(title, appKey, updatedAt, sessionId);
  }

  /** @param {string} sessionId @param {string} id @param {string} json */
  updateNodeJson(sessionId, id, json) {
    this.stmt(SQL.updateNodeJson).run(json, sessionId, id);
  }

  /** @param {string} sessionId */
  deleteSession(sessionId) {
    this.stmt(SQL.deleteNodes).run(sessionId);
    this.stmt(SQL.deleteSession).run(sessionId);
  }

  release() {
    if (--this.users > 0) return;
    if (this.key !== null && SHARED.get(this.key) === this) SHARED.delete(this.key);
    if (this.ownsDb) this.db.close();
  }
}

/** Connections opened by stores, by the file's absolute path: one per file per process. */
/** @type {Map<string, SqliteDriver>} */
const SHARED = new Map();

/** The absolute path SQLite resolved for the main database ('' for memory and temp files). */
function mainFile(/** @type {SqliteDatabase} */ db) {
  const list = /** @type {Array<{ name: string, file: string }>} */ (db.pragma('database_list'));
  return list.find((entry) => entry.name === 'main')?.file ?? '';
}

/** Whether the file's schema is newer than this version's (a read; a busy file reads as not newer). */
function hasNewerSchema(/** @type {SqliteDatabase} */ db) {
  try {
    return Number(db.pragma('user_version', { simple: true })) > SCHEMA_VERSION;
  } catch (error) {
    if (!isBusy(error)) throw error;
    return false;
  }
}

/**
 * @param {SqliteDatabase} db @param {number} busyTimeoutMs
 */
function configure(db, busyTimeoutMs) {
  // A short blocking wait; longer waits are asynchronous retries (SqliteDriver#retryBusy).
  db.pragma(`busy_timeout = ${SQLITE_BUSY_WAIT_MS}`);
  // A file from a newer version is refused (SqliteDriver#init) before anything changes it: the
  // switch to WAL rewrites a rollback-journal file's header.
  if (!hasNewerSchema(db)) {
    try {
      db.pragma('journal_mode = WAL');
    } catch (error) {
      if (!isBusy(error)) throw error;
      // Another process is switching the file to WAL right now: it will be WAL.
    }
  }
  db.pragma('foreign_keys = ON');
  return busyTimeoutMs;
}

/**
 * SessionStore on a better-sqlite3 database file, in WAL mode.
 *
 *   import Database from 'better-sqlite3';
 *   const store = new SqliteStore(Database, 'sessions.sqlite'); // opens (and later closes) the file
 *   const store2 = new SqliteStore(new Database('sessions.sqlite')); // uses an open database
 *
 * Stores opened from the class on one file share one connection (closed by the last close()).
 * A store on an open database sets that connection's busy_timeout to a short wait.
 */
/**
 * better-sqlite3 throws a plain TypeError for a file in a missing folder (and SqliteError for one it
 * may not create or that is no database): `store-open-failed`, naming the file and the cause.
 * @param {new (filename: string) => SqliteDatabase} Database @param {string} filename
 */
function openDatabase(Database, filename) {
  try {
    return new Database(filename);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    throw storeError('store-open-failed', `SqliteStore: cannot open ${JSON.stringify(filename)}: ${why}`, { filename, cause });
  }
}

export class SqliteStore extends SessionStoreBase {
  #driver;

  /**
   * @param {SqliteDatabase | (new (filename: string) => SqliteDatabase)} databaseOrClass
   *   an open better-sqlite3 Database, or the Database class itself
   * @param {string | SqliteStoreOptions} [filenameOrOptions] the file to open when a class is given
   * @param {SqliteStoreOptions} [options] how long a call retries a busy file (default 5000 ms)
   */
  constructor(databaseOrClass, filenameOrOptions, options) {
    const opts = (typeof filenameOrOptions === 'object' && filenameOrOptions !== null ? filenameOrOptions : options) ?? {};
    const busyTimeoutMs = opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    if (!Number.isFinite(busyTimeoutMs) || busyTimeoutMs < 0) {
      throw storeError('invalid-argument', 'SqliteStore: busyTimeoutMs must be a non-negative number');
    }
    let driver;
    if (typeof databaseOrClass === 'function') {
      const filename = filenameOrOptions;
      if (typeof filename !== 'string' || filename === '') {
        throw storeError('invalid-argument', 'SqliteStore: a file name is needed when the Database class is given');
      }
      const db = openDatabase(databaseOrClass, filename);
      const key = mainFile(db);
      const shared = key ? SHARED.get(key) : undefined;
      if (shared) {
        db.close(); // opening takes no lock; the process keeps the connection it already has
        driver = shared;
      } else {
        driver = new SqliteDriver(db, true, configure(db, busyTimeoutMs));
        if (key) {
          driver.key = key;
          SHARED.set(key, driver);
        }
      }
    } else if (databaseOrClass && typeof databaseOrClass.prepare === 'function') {
      driver = new SqliteDriver(databaseOrClass, false, configure(databaseOrClass, busyTimeoutMs));
    } else {
      throw storeError('invalid-argument', 'SqliteStore: pass a better-sqlite3 Database or the Database class and a file name');
    }
    driver.users++;
    super(driver);
    this.#driver = driver;
  }

  /** The underlying database (for the app's own reads; its writes bypass the store's rules). */
  get database() {
    return this.#driver.db;
  }

  /**
   * Closes the store; the connection closes with the last store using it, if a store opened it.
   * With nothing running, the connection is closed before close() returns.
   */
  close() {
    return super.close();
  }
}
