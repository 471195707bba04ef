// Test helper: a Zotero.DBConnection look-alike over better-sqlite3, with the semantics of
// Zotero's chrome/content/zotero/xpcom/db.js that matter to ZoteroDBStore (written from
// reading that file, not copied):
// - queryAsync returns rows (column-name proxies) only when the first word, taken the way
//   Zotero takes it (everything up to the first space, leading non-letters included), is
//   "select" or "pragma"; any other statement resolves to undefined.
// - params: a scalar is wrapped in an array; booleans and undefined throw; the number of
//   values must match the placeholders; null is written into the SQL as NULL (IS NULL after
//   "=" in a SELECT; a NULL in a parenthesized SELECT placeholder throws); more than 999
//   bound parameters throw (MAX_BOUND_PARAMETERS).
// - valueQueryAsync returns the first column of the first row, or false.
// - executeTransaction(fn) waits for a running transaction, up to waitTimeout (then a
//   TimeoutError, as Zotero's `.timeout(waitTimeout)`). A call from inside a running
//   transaction would wait for itself: Zotero times out after 30 s, the shim throws at once.
// - One connection: statements issued outside executeTransaction while a transaction is
//   open run inside it, as with Zotero's single Sqlite.jsm connection.

import { AsyncLocalStorage } from 'node:async_hooks';

const MAX_BOUND_PARAMETERS = 999;

/** Zotero's own way of naming the statement: /^[^a-z]*[^ ]+/i, lower-cased. */
function operation(sql) {
  const m = sql.match(/^[^a-z]*[^ ]+/i);
  return m ? m[0].toLowerCase() : '';
}

/** A row that answers column names only, like Zotero's proxy over mozIStorageRow. */
function rowProxy(data) {
  return new Proxy(data, {
    get(target, name) {
      if (name === 'then' || typeof name === 'symbol') return undefined;
      if (!Object.prototype.hasOwnProperty.call(target, name)) throw new Error(`DB column '${name}' not found`);
      return target[name];
    },
    has(target, name) {
      return Object.prototype.hasOwnProperty.call(target, name);
    },
    ownKeys() {
      return [];
    },
    getOwnPropertyDescriptor() {
      return undefined;
    },
  });
}

/** Zotero's parameter rules; returns the SQL and the values to bind. */
function parseQueryAndParams(sql, params) {
  if (!Array.isArray(params)) {
    params = typeof params === 'string' || typeof params === 'number' || typeof params === 'object' ? [params] : [];
  } else {
    params = [...params];
  }
  const placeholders = sql.match(/\?\d*/g) ?? [];
  if (!params.length) {
    if (placeholders.length) throw new Error(`Parameters not provided for query containing placeholders [QUERY: ${sql}]`);
    return [sql, []];
  }
  if (params.length > MAX_BOUND_PARAMETERS) {
    throw new Error(`too many SQL variables (${params.length} > ${MAX_BOUND_PARAMETERS}) [QUERY: ${sql}]`);
  }
  const numbered = new Set(placeholders.filter((p) => p !== '?'));
  const expected = placeholders.filter((p) => p === '?').length + numbered.size;
  if (params.length !== expected) {
    throw new Error(`Incorrect number of parameters provided for query (${params.length}, expecting ${expected}) [QUERY: ${sql}]`);
  }
  const isSelect = operation(sql) === 'select';
  // Walk the placeholders left to right; a null is inlined into the SQL text.
  let out = '';
  let rest = sql;
  const values = [];
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    if (typeof value === 'boolean') throw new Error(`Invalid boolean parameter ${i} '${value}' [QUERY: ${sql}]`);
    if (value === undefined) throw new Error(`Parameter ${i} is undefined [QUERY: ${sql}]`);
    const m = /\s*([=,(])\s*\?/.exec(rest);
    if (value !== null) {
      values.push(value);
      if (m) {
        out += rest.slice(0, m.index + m[0].length);
        rest = rest.slice(m.index + m[0].length);
      }
      continue;
    }
    if (!m) throw new Error(`Null parameter provided for a query without placeholders [QUERY: ${sql}]`);
    let replacement;
    if (m[1] !== '=') {
      if (isSelect) throw new Error(`NULL cannot be used for parenthesized placeholders in SELECT queries [QUERY: ${sql}]`);
      replacement = m[0].replace('?', 'NULL');
    } else {
      replacement = isSelect ? ' IS NULL' : '=NULL';
    }
    out += rest.slice(0, m.index) + replacement;
    rest = rest.slice(m.index + m[0].length);
  }
  return [out + rest, values];
}

export class ZoteroDBConnectionShim {
  MAX_BOUND_PARAMETERS = MAX_BOUND_PARAMETERS;
  #db;
  #als = new AsyncLocalStorage();
  #transaction = null; // promise of the running transaction
  /** Every statement seen, for tests that inspect the SQL the store issues. */
  log = [];

  /**
   * @param {new (filename: string) => any} Database better-sqlite3's class
   * @param {string} filename
   * @param {{ waitTimeout?: number }} [options] Zotero's waitTimeout: how long executeTransaction
   *   waits for a running transaction before it rejects with a TimeoutError (Zotero: 30 s)
   */
  constructor(Database, filename, options = {}) {
    this.#db = new Database(filename);
    this.#waitTimeout = options.waitTimeout ?? 30_000;
  }

  #waitTimeout;

  /** Waits for the running transaction, or rejects like Zotero's `.timeout(waitTimeout)`. */
  #waitForTransaction() {
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(Object.assign(new Error('operation timed out'), { name: 'TimeoutError' })), this.#waitTimeout);
    });
    return Promise.race([this.#transaction.catch(() => {}), timeout]).finally(() => clearTimeout(timer));
  }

  #execute(sql, params) {
    const [text, values] = parseQueryAndParams(sql, params);
    this.log.push(text);
    const statement = this.#db.prepare(text);
    if (statement.reader) return statement.all(...values);
    statement.run(...values);
    return [];
  }

  async queryAsync(sql, params) {
    const rows = this.#execute(sql, params);
    const op = operation(sql);
    if (op === 'select' || op === 'pragma') return rows.map(rowProxy);
    return undefined;
  }

  async valueQueryAsync(sql, params) {
    const rows = this.#execute(sql, params);
    if (!rows.length) return false;
    return Object.values(rows[0])[0];
  }

  async columnQueryAsync(sql, params) {
    return this.#execute(sql, params).map((row) => Object.values(row)[0]);
  }

  inTransaction() {
    return this.#transaction !== null;
  }

  async executeTransaction(fn) {
    if (this.#als.getStore()) {
      throw new Error('executeTransaction called inside a running transaction: Zotero would wait for itself (deadlock until timeout)');
    }
    while (this.#transaction) await this.#waitForTransaction();
    let done;
    this.#transaction = new Promise((resolve) => {
      done = resolve;
    });
    try {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        const result = await this.#als.run(true, () => fn());
        this.#db.exec('COMMIT');
        return result;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.#transaction = null;
      done();
    }
  }

  async tableExists(table) {
    return !!(await this.valueQueryAsync("SELECT COUNT(*) FROM sqlite_master WHERE type='table' AND tbl_name=?", [table]));
  }

  async closeDatabase() {
    this.#db.close();
  }
}
