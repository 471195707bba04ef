// SessionStore on a Zotero.DBConnection, e.g. `new Zotero.DBConnection('bibgenie-compaction')`:
// its own database file, so Zotero's main database and its backups are not bloated.
//
// Pitfalls of Zotero's DB API that shape this file:
// - queryAsync returns rows only when the statement's first word is SELECT (or PRAGMA) with
//   nothing before it; every SELECT in schema.js starts exactly with "SELECT ".
// - Rows are proxies answering column names only (no spread, no Object.keys).
// - Boolean and undefined parameters throw: params() converts them to 0/1 and null.
// - At most 999 bound parameters per statement: no statement here binds more than 7.
// - executeTransaction is asynchronous and queues: a call waits while another transaction on
//   the connection runs, and gives up after its waitTimeout (30 s) with a TimeoutError. So a
//   transaction held across a slow await (a summarizer) stalls every other writer of the
//   connection for that long. The store never does that: each operation's executeTransaction
//   holds only its own statements, and store.transaction's callback runs outside it (its
//   writes are buffered and applied with a re-check, see SessionStoreBase#transaction).
//   A TimeoutError (another part of the plugin holding a transaction) becomes `store-busy`.
// - A nested executeTransaction deadlocks until that timeout: no store method calls another, and
//   the app writes together with the store through store.withinTransaction (the store opens the
//   transaction, the app's statements and `tx` run inside it), never the other way round.
// - The app's own tables may share the database: every name here is under the tablePrefix option.
// - Statements run on the connection while a transaction is open become part of it: all
//   store calls go through the store's mutex, and reads wait for a running store write.

import { MAX_BOUND_PARAMETERS, SCHEMA_VERSION, schemaSteps, sessionParams, sessionRow, sqlFor, tablePrefixOption } from './schema.js';
import { SessionStoreBase } from './base.js';
import { AsyncMutex } from './sequencing.js';
import { storeError } from './nodes.js';

/** @typedef {import('./store-core.js').SessionRow} SessionRow */
/** @typedef {import('./store-core.js').NodeRow} NodeRow */

/**
 * The part of Zotero.DBConnection the store uses.
 * @typedef {{
 *   queryAsync(sql: string, params?: unknown[]): Promise<any[] | undefined>,
 *   valueQueryAsync(sql: string, params?: unknown[]): Promise<unknown>,
 *   executeTransaction<T>(fn: () => Promise<T>): Promise<T>,
 *   closeDatabase?(permanent?: boolean): Promise<unknown>,
 * }} ZoteroDBConnectionLike
 */
/** @typedef {ZoteroDBConnectionLike} ZoteroDBConnection */
/**
 * @typedef {object} ZoteroDBStoreOptions
 * @property {boolean} [closeConnection] close() also closes the connection (with the last store on it).
 * @property {string} [tablePrefix] Written before every table and index name (e.g. 'myplugin_'), so the
 *   store can live in a database that holds the app's own tables; letters, digits and _, at most 32
 *   characters, not starting with a digit or `sqlite_` (else `invalid-options`). Default '': the
 *   tables `sessions` and `nodes`, as before.
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

/** @param {unknown} error */
function isTimeout(error) {
  return /** @type {{ name?: unknown } | null | undefined} */ (error)?.name === 'TimeoutError';
}

/**
 * What the stores on one connection share, whatever their table prefix: one queue of store calls
 * (statements issued while a transaction is open join it, so no store call may run inside another's),
 * and the count of stores, so the last to close may close the connection.
 * @typedef {{ mutex: AsyncMutex, users: number, closeConnection: boolean, drivers: Map<string, ZoteroDriver> }} SharedConnection
 */

class ZoteroDriver {
  /** Stores using this driver (this connection and prefix). */
  users = 0;

  /** @param {ZoteroDBConnection} db @param {SharedConnection} shared @param {string} prefix */
  constructor(db, shared, prefix) {
    this.db = db;
    this.shared = shared;
    this.mutex = shared.mutex;
    this.prefix = prefix;
    this.sql = sqlFor(prefix);
  }

  /** @template T @param {() => T | Promise<T>} body */
  read(body) {
    return body();
  }

  /** @template T @param {() => T | Promise<T>} body @returns {Promise<T>} */
  async write(body) {
    try {
      return await this.db.executeTransaction(async () => body());
    } catch (error) {
      if (!isTimeout(error)) throw error;
      throw busy(error);
    }
  }

  /**
   * One executeTransaction around an async body (withinTransaction): the app's statements and the
   * store's commit or roll back together. A TimeoutError from inside the body is the app's (e.g. a
   * nested executeTransaction) and is passed on as it is.
   * @template T @param {() => Promise<T>} body @returns {Promise<T>}
   */
  async writeAsync(body) {
    let started = false;
    try {
      return await this.db.executeTransaction(async () => {
        started = true;
        return body();
      });
    } catch (error) {
      if (started || !isTimeout(error)) throw error;
      throw busy(error);
    }
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

  /** The schema version: 0 for a database without the store's tables under this prefix. */
  async version() {
    const sql = this.sql;
    if (sql.versionTableExists && !Number(await this.db.valueQueryAsync(sql.versionTableExists))) return 0;
    return Number(await this.db.valueQueryAsync(sql.userVersion)); // valueQueryAsync: false for no row
  }

  async init() {
    const version = await this.version();
    if (version > SCHEMA_VERSION) {
      throw storeError('unsupported-schema', `session database has schema ${version}; this version reads up to ${SCHEMA_VERSION}`);
    }
    if (version === SCHEMA_VERSION) return;
    await this.write(async () => {
      const now = await this.version();
      if (now >= SCHEMA_VERSION) return;
      for (const statement of schemaSteps(now, this.prefix)) await this.run(statement);
      await this.run(this.sql.setUserVersion);
    });
  }

  /** @param {string} id */
  async getSession(id) {
    const rows = await this.rows(this.sql.selectSession, [id]);
    return rows.length ? sessionRow(rows[0]) : null;
  }

  /** @param {string} appKey */
  async getSessionByAppKey(appKey) {
    const rows = await this.rows(this.sql.selectSessionByAppKey, [appKey]);
    return rows.length ? sessionRow(rows[0]) : null;
  }

  async listSessions() {
    return (await this.rows(this.sql.selectSessions)).map(sessionRow);
  }

  /** @param {string} baseSessionId */
  async listForks(baseSessionId) {
    return (await this.rows(this.sql.selectForks, [baseSessionId])).map(sessionRow);
  }

  /** @param {string} sessionId */
  async getNodeJsons(sessionId) {
    return (await this.rows(this.sql.selectNodes, [sessionId])).map((r) => String(r.json));
  }

  /** @param {string} sessionId @param {number} seq */
  async getNodeRowsAfter(sessionId, seq) {
    const rows = await this.rows(this.sql.selectNodeRowsAfter, [sessionId, seq]);
    return rows.map((r) => ({ seq: Number(r.seq), id: String(r.id), parentId: r.parent_id ?? null, json: String(r.json) }));
  }

  /**
   * At most `limit` of them: the rows of a large session are read in pages (turning 10,000 rows
   * into strings held Zotero's thread for 42-52 ms in one piece).
   * @param {string} sessionId @param {number} seq @param {number} limit
   */
  async getNodeRowsPage(sessionId, seq, limit) {
    const rows = await this.rows(this.sql.selectNodeRowsPage, [sessionId, seq, limit]);
    return rows.map((r) => ({ seq: Number(r.seq), id: String(r.id), parentId: r.parent_id ?? null, json: String(r.json) }));
  }

  /** Moves when another connection committed to the file. */
  async changeToken() {
    return Number(await this.db.valueQueryAsync(this.sql.dataVersion));
  }

  /** The seq of the session's last own row (0 for none). @param {string} sessionId */
  async lastSeq(sessionId) {
    return Number(await this.db.valueQueryAsync(this.sql.selectMaxSeq, params([sessionId])));
  }

  /** @param {string} sessionId @param {string} id @returns {Promise<NodeRow | null>} */
  async getNode(sessionId, id) {
    const rows = await this.rows(this.sql.selectNode, [sessionId, id]);
    if (!rows.length) return null;
    const r = rows[0];
    return { id: r.id, parentId: r.parent_id, kind: r.kind, json: r.json };
  }

  /** @param {SessionRow} row */
  async insertSession(row) {
    await this.run(this.sql.insertSession, sessionParams(row));
  }

  /** @param {string} sessionId @param {NodeRow} row @param {number} createdAt */
  async insertNode(sessionId, row, createdAt) {
    const maxSeq = Number(await this.db.valueQueryAsync(this.sql.selectMaxSeq, params([sessionId])));
    await this.run(this.sql.insertNode, [sessionId, row.id, row.parentId, row.kind, row.json, createdAt, maxSeq + 1]);
  }

  /** @param {string} sessionId @param {string | null} leafId @param {number} branchRevision @param {number} updatedAt */
  async updateHead(sessionId, leafId, branchRevision, updatedAt) {
    await this.run(this.sql.updateHead, [leafId, branchRevision, updatedAt, sessionId]);
  }

  /** @param {string} sessionId @param {string} id @param {string} json */
  async updateNodeJson(sessionId, id, json) {
    await this.run(this.sql.updateNodeJson, [json, sessionId, id]);
  }

  /** @param {string} sessionId @param {string | null} title @param {string | null} appKey @param {number} updatedAt */
  async updateInfo(sessionId, title, appKey, updatedAt) {
    await this.run(this.sql.updateInfo, [title, appKey, updatedAt, sessionId]);
  }

  /** @param {string} sessionId */
  async deleteSession(sessionId) {
    await this.run(this.sql.deleteNodes, [sessionId]);
    await this.run(this.sql.deleteSession, [sessionId]);
  }

  async release() {
    this.users--;
    if (--this.shared.users > 0) return;
    CONNECTIONS.delete(this.db);
    if (this.shared.closeConnection && typeof this.db.closeDatabase === 'function') await this.db.closeDatabase();
  }
}

/**
 * One driver per connection and table prefix, one queue of store calls per connection: two stores
 * on one connection never read inside each other's open transaction.
 * @type {WeakMap<ZoteroDBConnection, SharedConnection>}
 */
const CONNECTIONS = new WeakMap();

/** @param {unknown} error */
function busy(error) {
  return storeError('store-busy', `the session database is held by another transaction: ${/** @type {any} */ (error).message}`, {
    retryable: true,
  });
}

/**
 * SessionStore on a Zotero.DBConnection (or anything with its queryAsync / valueQueryAsync /
 * executeTransaction semantics). The schema is created on first use.
 *
 *   const store = new ZoteroDBStore(new Zotero.DBConnection(`${addonRef}-sessions`), { closeConnection: true });
 *   // on plugin shutdown: await store.close(); (closes the connection too, as asked)
 */
export class ZoteroDBStore extends SessionStoreBase {
  #db;

  /**
   * @param {ZoteroDBConnection} db
   * @param {ZoteroDBStoreOptions} [options]
   */
  constructor(db, options = {}) {
    if (!db || typeof db.queryAsync !== 'function' || typeof db.executeTransaction !== 'function') {
      throw storeError('invalid-argument', 'ZoteroDBStore: pass a Zotero.DBConnection');
    }
    if (typeof options !== 'object' || options === null) throw storeError('invalid-options', 'ZoteroDBStore: options must be an object');
    const prefix = tablePrefixOption('ZoteroDBStore', options.tablePrefix);
    let shared = CONNECTIONS.get(db);
    if (!shared) {
      shared = { mutex: new AsyncMutex(), users: 0, closeConnection: false, drivers: new Map() };
      CONNECTIONS.set(db, shared);
    }
    let driver = shared.drivers.get(prefix);
    if (!driver || driver.users === 0) {
      driver = new ZoteroDriver(db, shared, prefix);
      shared.drivers.set(prefix, driver);
    }
    driver.users++;
    shared.users++;
    if (options.closeConnection === true) shared.closeConnection = true;
    super(driver);
    this.#db = db;
  }

  /** The connection this store writes to. */
  get connection() {
    return this.#db;
  }
}
