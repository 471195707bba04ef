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
import { schemaSteps, SCHEMA_VERSION, sessionParams, sessionRow, sqlFor, tablePrefixOption } from './schema.js';
import { takeOwnWrites } from './own-writes.js';

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
 * @property {string} [tablePrefix] Written before every table and index name, as for ZoteroDBStore (default '': no prefix).
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

/**
 * One queue of store calls per connection, whatever the stores' prefixes: a withinTransaction keeps
 * the connection's transaction open across awaits, and a call of another store on that connection
 * would otherwise run inside it.
 * @type {WeakMap<SqliteDatabase, AsyncMutex>}
 */
const MUTEXES = new WeakMap();

class SqliteDriver {
  /** True inside a transaction this driver began (and will commit or roll back) itself. */
  #own = false;
  /** Stores using this driver (shared connections are closed by the last one). */
  users = 0;
  /** @type {string | null} the registry key when the connection is shared */
  key = null;

  /** @param {SqliteDatabase} db @param {boolean} ownsDb @param {number} busyTimeoutMs @param {string} prefix */
  constructor(db, ownsDb, busyTimeoutMs, prefix) {
    this.db = db;
    this.ownsDb = ownsDb;
    this.busyTimeoutMs = busyTimeoutMs;
    this.prefix = prefix;
    this.sql = sqlFor(prefix);
    let mutex = MUTEXES.get(db);
    if (!mutex) MUTEXES.set(db, (mutex = new AsyncMutex()));
    this.mutex = mutex;
    /** @type {Map<string, ReturnType<SqliteDatabase['prepare']>>} */
    this.statements = new Map();
    /** What the running write transaction wrote (./own-writes.js); null outside one. */
    /** @type {import('./own-writes.js').OwnWrite[] | null} */
    this.journal = null;
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
   * event loop runs meanwhile) until busyTimeoutMs, then `store-busy`. A write transaction's
   * writes are taken into the held indexes once it committed (`takeOwnWrites`); inside the app's
   * own transaction they are not (it may still roll back): the next use catches up then.
   * @template T @param {'BEGIN' | 'BEGIN IMMEDIATE'} begin @param {() => T} body @param {boolean} [journaled] a store write (not the schema's)
   * @returns {T | Promise<T>}
   */
  #inTransaction(begin, body, journaled = false) {
    const once = () => {
      if (this.db.inTransaction) {
        // The app's own transaction is open on this connection: run inside it, as it asked.
        return this.#sync(body);
      }
      this.db.exec(begin);
      this.#own = true;
      /** @type {T | undefined} */
      let result;
      /** @type {import('./own-writes.js').QuietState | null} */
      let before = null;
      /** @type {unknown} */
      let changesAfter = null;
      /** @type {import('./own-writes.js').OwnWrite[] | null} */
      let journal = null;
      try {
        before = journaled ? this.#state() : null; // the latest commit: a write transaction starts there
        this.journal = before ? [] : null;
        result = this.#sync(body);
        changesAfter = before ? this.ownChanges() : null;
        this.db.exec('COMMIT');
        journal = this.journal;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      } finally {
        this.journal = null;
        this.#own = false;
      }
      if (before && journal) takeOwnWrites(this, journal, before, changesAfter);
      return /** @type {T} */ (result);
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

  /**
   * One write transaction around an async body (withinTransaction): BEGIN IMMEDIATE (a busy file
   * retried as for every call), the body with its awaits, then COMMIT, or ROLLBACK when it throws.
   * Inside a transaction the app opened on this connection itself, the body runs in it.
   * @template T @param {() => Promise<T>} body @returns {Promise<T>}
   */
  async writeAsync(body) {
    if (this.db.inTransaction) return body();
    const begin = () => {
      this.db.exec('BEGIN IMMEDIATE');
    };
    try {
      begin();
    } catch (error) {
      if (!isBusy(error)) throw error;
      await this.#retryBusy(begin, Date.now());
    }
    try {
      const result = await body();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  init() {
    const version = Number(this.#inTransaction('BEGIN', () => schemaVersion(this.db, this.sql)));
    if (version > SCHEMA_VERSION) {
      throw storeError('unsupported-schema', `session database has schema ${version}; this version reads up to ${SCHEMA_VERSION}`);
    }
    if (version === SCHEMA_VERSION) return undefined;
    return this.#inTransaction('BEGIN IMMEDIATE', () => {
      // Another process may have migrated the file since the check above.
      const now = schemaVersion(this.db, this.sql);
      if (now >= SCHEMA_VERSION) return;
      for (const statement of schemaSteps(now, this.prefix)) this.db.exec(statement);
      this.db.exec(this.sql.setUserVersion);
    });
  }

  // (A promise of a promise is a promise: the casts only say so to the checker.)
  /** @template T @param {() => T | Promise<T>} body @returns {T | Promise<T>} */
  read(body) {
    return /** @type {T | Promise<T>} */ (this.#inTransaction('BEGIN', body));
  }

  /** @template T @param {() => T | Promise<T>} body @returns {T | Promise<T>} */
  write(body) {
    return /** @type {T | Promise<T>} */ (this.#inTransaction('BEGIN IMMEDIATE', body, true));
  }

  /** @param {string} id */
  getSession(id) {
    const r = this.stmt(this.sql.selectSession).get(id);
    return r ? sessionRow(r) : null;
  }

  /** @param {string} appKey */
  getSessionByAppKey(appKey) {
    const r = this.stmt(this.sql.selectSessionByAppKey).get(appKey);
    return r ? sessionRow(r) : null;
  }

  listSessions() {
    return this.stmt(this.sql.selectSessions).all().map(sessionRow);
  }

  /** @param {string} baseSessionId */
  listForks(baseSessionId) {
    return this.stmt(this.sql.selectForks).all(baseSessionId).map(sessionRow);
  }

  /** @param {string} sessionId */
  getNodeJsons(sessionId) {
    return this.stmt(this.sql.selectNodes).all(sessionId).map((r) => r.json);
  }

  /** @param {string} sessionId @param {number} seq @returns {import('./visible-rows.js').SeqRow[]} */
  getNodeRowsAfter(sessionId, seq) {
    return this.stmt(this.sql.selectNodeRowsAfter).all(sessionId, seq).map((r) => ({ seq: Number(r.seq), id: r.id, parentId: r.parent_id, json: r.json }));
  }

  /** At most `limit` of them (better-sqlite3 reads synchronously: a large session is read in pages). @param {string} sessionId @param {number} seq @param {number} limit */
  getNodeRowsPage(sessionId, seq, limit) {
    return this.stmt(this.sql.selectNodeRowsPage).all(sessionId, seq, limit).map((r) => ({ seq: Number(r.seq), id: r.id, parentId: r.parent_id, json: r.json }));
  }

  /** Moves when another connection (another store's, another process's) committed to the file. */
  changeToken() {
    // A held statement: db.pragma() prepares one on each call, twice per use of a held index.
    return Number(this.stmt(this.sql.dataVersion).get().data_version);
  }

  /** The seq of the session's last own row (0 for none). @param {string} sessionId */
  lastSeq(sessionId) {
    return Number(this.stmt(this.sql.selectMaxSeq).get(sessionId).max_seq);
  }

  /**
   * Rows this connection has changed since it opened (the store's writes, the app's, rolled-back
   * ones); undefined outside a transaction this driver began (inside the app's, or a
   * withinTransaction's, what is read may still roll back, which the count would not show).
   */
  ownChanges() {
    return this.#own ? Number(this.stmt(this.sql.totalChanges).get().changes) : undefined;
  }

  /** True inside the app's own transaction on the connection: what is read there may still roll back. */
  uncommitted() {
    return this.db.inTransaction && !this.#own;
  }

  /**
   * The change token and own-change count, outside a transaction; null inside
   * the app's open transaction (what it wrote may still roll back).
   * @returns {import('./own-writes.js').QuietState | null}
   */
  quietState() {
    return this.db.inTransaction ? null : this.#state();
  }

  /** @returns {import('./own-writes.js').QuietState} */
  #state() {
    // Two plain statements: cheaper than one over the pragma_data_version() table.
    return { token: this.changeToken(), changes: Number(this.stmt(this.sql.totalChanges).get().changes) };
  }

  /** @param {string} sessionId @param {string} id @returns {NodeRow | null} */
  getNode(sessionId, id) {
    const r = this.stmt(this.sql.selectNode).get(sessionId, id);
    return r ? { id: r.id, parentId: r.parent_id, kind: r.kind, json: r.json } : null;
  }

  /** @param {SessionRow} row */
  insertSession(row) {
    this.stmt(this.sql.insertSession).run(...sessionParams(row));
    this.journal?.push({ session: row.id, other: true });
  }

  /** @param {string} sessionId @param {NodeRow} row @param {number} createdAt */
  insertNode(sessionId, row, createdAt) {
    const seq = this.stmt(this.sql.selectMaxSeq).get(sessionId).max_seq + 1;
    this.stmt(this.sql.insertNode).run(sessionId, row.id, row.parentId, row.kind, row.json, createdAt, seq);
    this.journal?.push({ session: sessionId, seq: Number(seq), id: row.id, parentId: row.parentId, json: row.json });
  }

  /** @param {string} sessionId @param {string | null} leafId @param {number} branchRevision @param {number} updatedAt */
  updateHead(sessionId, leafId, branchRevision, updatedAt) {
    this.stmt(this.sql.updateHead).run(leafId, branchRevision, updatedAt, sessionId);
    this.journal?.push({ session: sessionId, leafId, branchRevision });
  }

  /** @param {string} sessionId @param {string | null} title @param {string | null} appKey @param {number} updatedAt */
  updateInfo(sessionId, title, appKey, updatedAt) {
    this.stmt(this.sql.updateInfo).run(title, appKey, updatedAt, sessionId);
  }

  /** @param {string} sessionId @param {string} id @param {string} json */
  updateNodeJson(sessionId, id, json) {
    this.stmt(this.sql.updateNodeJson).run(json, sessionId, id);
    this.journal?.push({ session: sessionId, other: true });
  }

  /** @param {string} sessionId */
  deleteSession(sessionId) {
    this.stmt(this.sql.deleteNodes).run(sessionId);
    this.stmt(this.sql.deleteSession).run(sessionId);
    this.journal?.push({ session: sessionId, other: true });
  }

  release() {
    if (--this.users > 0) return;
    if (this.key !== null && SHARED.get(this.key) === this) SHARED.delete(this.key);
    if (this.ownsDb) this.db.close();
  }
}

/**
 * The schema version under the driver's prefix: PRAGMA user_version, or the prefix's row (0 while
 * its table is missing).
 * @param {SqliteDatabase} db @param {import('./schema.js').SessionSql} sql
 */
function schemaVersion(db, sql) {
  if (sql.versionTableExists && !Number(db.prepare(sql.versionTableExists).get().n)) return 0;
  const row = db.prepare(sql.userVersion).get();
  return row ? Number(Object.values(row)[0]) : 0;
}

/** Connections opened by stores, by the file's absolute path and the table prefix: one per file and prefix per process. */
/** @type {Map<string, SqliteDriver>} */
const SHARED = new Map();

/** The absolute path SQLite resolved for the main database ('' for memory and temp files). */
function mainFile(/** @type {SqliteDatabase} */ db) {
  const list = /** @type {Array<{ name: string, file: string }>} */ (db.pragma('database_list'));
  return list.find((entry) => entry.name === 'main')?.file ?? '';
}

/** Whether the file's schema is newer than this version's (a read; a busy file reads as not newer). */
function hasNewerSchema(/** @type {SqliteDatabase} */ db, /** @type {string} */ prefix) {
  try {
    return schemaVersion(db, sqlFor(prefix)) > SCHEMA_VERSION;
  } catch (error) {
    if (!isBusy(error)) throw error;
    return false;
  }
}

/**
 * @param {SqliteDatabase} db @param {number} busyTimeoutMs @param {string} prefix
 */
function configure(db, busyTimeoutMs, prefix) {
  // A short blocking wait; longer waits are asynchronous retries (SqliteDriver#retryBusy).
  db.pragma(`busy_timeout = ${SQLITE_BUSY_WAIT_MS}`);
  // A file from a newer version is refused (SqliteDriver#init) before anything changes it: the
  // switch to WAL rewrites a rollback-journal file's header.
  if (!hasNewerSchema(db, prefix)) {
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
    const prefix = tablePrefixOption('SqliteStore', opts.tablePrefix);
    let driver;
    if (typeof databaseOrClass === 'function') {
      const filename = filenameOrOptions;
      if (typeof filename !== 'string' || filename === '') {
        throw storeError('invalid-argument', 'SqliteStore: a file name is needed when the Database class is given');
      }
      const db = openDatabase(databaseOrClass, filename);
      const file = mainFile(db);
      const key = file && `${prefix}\n${file}`;
      const shared = key ? SHARED.get(key) : undefined;
      if (shared) {
        db.close(); // opening takes no lock; the process keeps the connection it already has
        driver = shared;
      } else {
        driver = new SqliteDriver(db, true, configure(db, busyTimeoutMs, prefix), prefix);
        if (key) {
          driver.key = key;
          SHARED.set(key, driver);
        }
      }
    } else if (databaseOrClass && typeof databaseOrClass.prepare === 'function') {
      driver = new SqliteDriver(databaseOrClass, false, configure(databaseOrClass, busyTimeoutMs, prefix), prefix);
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
