// Test helper: a Zotero.DBConnection fake over better-sqlite3 for the Node tests. The JavaScript
// behaviour of db.js (parameter rules, which statements return rows, the row proxy, transaction
// queueing with its wait timeout) is the one module the real-runtime test uses too
// (tests/zotero-runtime/zotero-db-rules.mjs); this file only makes better-sqlite3 look like
// mozStorage underneath, as tests/zotero-runtime measured it in Firefox (MOZSTORAGE_FACTS):
// - a row is a mozIStorageRow look-alike: its own enumerable keys are mozIStorageRow's 19 method
//   and constant names, so spreading it or JSON.stringify throws ("DB column '...' not found");
//   `'col' in row` is false for NULL, 0 and '';
// - a BigInt parameter is stored as NULL; an integer number binds as INTEGER, a fraction as REAL
//   (better-sqlite3 alone binds every number as REAL);
// - db.js's 999 is advisory: up to SQLite's 32,766 parameters bind;
// - a nested executeTransaction waits (30 s unless waitTimeout says otherwise), throws an Error
//   named TimeoutError, and the outer transaction rolls back.
// tests/node/zotero-shim.test.mjs runs the same probe on this fake and compares it with those facts.

import {
  DEFAULT_WAIT_TIMEOUT_MS, MAX_BOUND_PARAMETERS, TransactionGate, parseQueryAndParams, rowProxy, statementOperation,
} from '../zotero-runtime/zotero-db-rules.mjs';
import { MOZSTORAGE_ROW_KEYS } from '../zotero-runtime/connection-probe.mjs';

const VALUE_TYPES = { VALUE_TYPE_NULL: 0, VALUE_TYPE_INTEGER: 1, VALUE_TYPE_FLOAT: 2, VALUE_TYPE_TEXT: 3, VALUE_TYPE_BLOB: 4 };

/** A mozIStorageRow look-alike: the same own keys, values by column name or index. */
function storageRow(columns, values) {
  const byName = (name) => {
    const i = columns.indexOf(name);
    if (i < 0) throw new Error(`NS_ERROR_NOT_AVAILABLE: no column ${String(name)}`);
    return values[i];
  };
  const byIndex = (i) => {
    if (!(i >= 0 && i < values.length)) throw new Error(`NS_ERROR_ILLEGAL_VALUE: no column ${i}`);
    return values[i];
  };
  const members = {
    getResultByName: byName,
    getResultByIndex: byIndex,
    numEntries: values.length,
    getIsNull: (i) => byIndex(i) === null,
    ...VALUE_TYPES,
  };
  const row = {};
  for (const key of MOZSTORAGE_ROW_KEYS) {
    row[key] = key in members ? members[key] : () => {
      throw new Error(`mozIStorageRow.${key} is not provided by the Node fake`);
    };
  }
  return row;
}

/** What mozStorage stores for a JS value bound by Sqlite.sys.mjs. */
function mozStorageBinding(value) {
  if (typeof value === 'bigint') return null;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
  return value;
}

export class ZoteroDBConnectionShim {
  MAX_BOUND_PARAMETERS = MAX_BOUND_PARAMETERS;
  closed = false;
  #db;
  #waitTimeout;
  #gate = new TransactionGate();
  /** Every statement seen, for tests that inspect the SQL the store issues. */
  log = [];

  /**
   * @param {new (filename: string) => any} Database better-sqlite3's class
   * @param {string} filename
   * @param {{ waitTimeout?: number }} [options] how long executeTransaction waits for a running one
   */
  constructor(Database, filename, options = {}) {
    this.#db = new Database(filename);
    this.#waitTimeout = options.waitTimeout ?? DEFAULT_WAIT_TIMEOUT_MS;
  }

  /** Runs a statement; returns storage rows (none for a statement that returns no data). */
  #execute(sql, params) {
    if (this.closed) throw new Error('Database closed');
    const [text, values] = parseQueryAndParams(sql, params);
    this.log.push(text);
    const statement = this.#db.prepare(text);
    const bound = values.map(mozStorageBinding);
    if (!statement.reader) {
      statement.run(...bound);
      return [];
    }
    const columns = statement.columns().map((c) => c.name);
    return statement.raw(true).all(...bound).map((values) => storageRow(columns, values));
  }

  async queryAsync(sql, params) {
    const rows = this.#execute(sql, params);
    const op = statementOperation(sql);
    if (op === 'select' || op === 'pragma') return rows.map(rowProxy);
    return undefined;
  }

  async valueQueryAsync(sql, params) {
    const rows = this.#execute(sql, params);
    return rows.length ? rows[0].getResultByIndex(0) : false;
  }

  async rowQueryAsync(sql, params) {
    const rows = await this.queryAsync(sql, params);
    return rows.length ? rows[0] : false;
  }

  async columnQueryAsync(sql, params) {
    return this.#execute(sql, params).map((row) => row.getResultByIndex(0));
  }

  inTransaction() {
    return this.#gate.active;
  }

  /** @template T @param {() => Promise<T>} fn @param {{ waitTimeout?: number }} [options] */
  async executeTransaction(fn, options = {}) {
    return this.#gate.run(async () => {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn();
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    }, options.waitTimeout ?? this.#waitTimeout, { setTimeout, clearTimeout });
  }

  async tableExists(table) {
    return !!(await this.valueQueryAsync("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND tbl_name=?", [table]));
  }

  async closeDatabase() {
    if (this.closed) return;
    this.closed = true;
    this.#db.close();
  }
}
