// A Zotero.DBConnection for tests: db.js's JavaScript behaviour as the project reads it
// (zotero-db-rules.mjs, shared with the Node fake, so those rules are no independent check; see
// connection-probe.mjs) over Firefox's own Sqlite.sys.mjs, the module Zotero's connection wraps.
// Rows are the real mozIStorageRow objects behind the proxy, parameters are bound by mozStorage.
// Imported in Firefox's parent process through a resource:// URL (importESModule refuses file:).
import {
  DEFAULT_WAIT_TIMEOUT_MS, MAX_BOUND_PARAMETERS, TransactionGate, parseQueryAndParams, rowProxy, statementOperation,
} from '../zotero-db-rules.mjs';

const { Sqlite } = ChromeUtils.importESModule('resource://gre/modules/Sqlite.sys.mjs');
const timers = ChromeUtils.importESModule('resource://gre/modules/Timer.sys.mjs');

export class DBConnection {
  MAX_BOUND_PARAMETERS = MAX_BOUND_PARAMETERS;
  closed = false;
  #path;
  #waitTimeout;
  /** @type {Promise<any> | null} */
  #connection = null;
  #gate = new TransactionGate();

  /**
   * @param {string} path the database file (Zotero takes a name in its data directory)
   * @param {{ waitTimeout?: number }} [options] how long executeTransaction waits for a running one
   */
  constructor(path, options = {}) {
    if (!path) throw new Error('DB path not provided');
    this.#path = path;
    this.#waitTimeout = options.waitTimeout ?? DEFAULT_WAIT_TIMEOUT_MS;
  }

  /** Opened on first use, like db.js. */
  #conn() {
    if (this.closed) return Promise.reject(new Error('Database closed'));
    this.#connection ??= Sqlite.openConnection({ path: this.#path });
    return this.#connection;
  }

  async queryAsync(sql, params) {
    const conn = await this.#conn();
    const [text, values] = parseQueryAndParams(sql, params);
    const rows = await conn.executeCached(text, values);
    const op = statementOperation(text);
    if (op === 'select' || op === 'pragma') return rows.map(rowProxy);
    return undefined;
  }

  async valueQueryAsync(sql, params) {
    const conn = await this.#conn();
    const [text, values] = parseQueryAndParams(sql, params);
    const rows = await conn.executeCached(text, values);
    return rows.length ? rows[0].getResultByIndex(0) : false;
  }

  async rowQueryAsync(sql, params) {
    const rows = await this.queryAsync(sql, params);
    return rows.length ? rows[0] : false;
  }

  async columnQueryAsync(sql, params) {
    const conn = await this.#conn();
    const [text, values] = parseQueryAndParams(sql, params);
    return (await conn.executeCached(text, values)).map((row) => row.getResultByIndex(0));
  }

  /** @template T @param {() => Promise<T>} fn @param {{ waitTimeout?: number }} [options] */
  async executeTransaction(fn, options = {}) {
    const conn = await this.#conn();
    return this.#gate.run(() => conn.executeTransaction(fn), options.waitTimeout ?? this.#waitTimeout, timers);
  }

  inTransaction() {
    return this.#gate.active;
  }

  async tableExists(table) {
    return !!(await this.valueQueryAsync("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND tbl_name=?", [table]));
  }

  async closeDatabase() {
    if (!this.#connection || this.closed) return;
    this.closed = true;
    await (await this.#connection).close();
  }
}
