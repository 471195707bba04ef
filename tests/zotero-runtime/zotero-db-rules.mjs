// The JavaScript-level behaviour of Zotero's Zotero.DBConnection (chrome/content/zotero/xpcom/db.js),
// written from reading that file (AGPL: behaviour only, no code copied), shared by the two
// connections the tests use: the real one on Firefox's Sqlite.sys.mjs (chrome/zotero-db-connection.mjs,
// imported in Firefox through a resource:// URL) and the Node fake on better-sqlite3
// (tests/node/zotero-shim.mjs). Only the engine underneath differs.
//
// - parseQueryAndParams: a scalar is wrapped in an array; booleans and undefined throw; the count
//   must match the placeholders (`?` each, `?N` once per distinct N); a null is written into the
//   SQL (`= ?` -> ` IS NULL` in a SELECT, `=NULL` otherwise; `(?` / `, ?` -> NULL, which throws in a
//   SELECT). The kind of query for that is everything before the first blank or `(`.
// - queryAsync returns rows only when the statement's first word (everything up to the first
//   space, leading non-letters included) is `select` or `pragma`; otherwise undefined.
// - Rows are proxies over mozIStorageRow: a property read is getResultByName (unknown name ->
//   "DB column 'x' not found", so spreading or JSON.stringify of a row throws on the row's own
//   method names), `'x' in row` is whether the value is truthy, `then` reads undefined.
// - executeTransaction waits for a running transaction for at most waitTimeout ms (30 s unless
//   given), then throws an Error named TimeoutError; a nested call therefore times out and the
//   outer transaction, whose callback now rejects, rolls back.
// - MAX_BOUND_PARAMETERS is 999, advisory: nothing in db.js enforces it (SQLite's own limit is 32,766).

export const MAX_BOUND_PARAMETERS = 999;
export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;

/** The first word as queryAsync names it: /^[^a-z]*[^ ]+/i, lower-cased. */
export function statementOperation(sql) {
  const m = sql.match(/^[^a-z]*[^ ]+/i);
  return m ? m[0].toLowerCase() : '';
}

/** The first word as parseQueryAndParams names it (for NULL inlining): up to a blank or `(`. */
function queryMethod(sql) {
  return sql.match(/^[^\s(]*/)[0].toLowerCase();
}

/** Returns [sql, params] as db.js would bind them. */
export function parseQueryAndParams(sql, params) {
  if (!Array.isArray(params)) {
    const wrap = typeof params === 'string' || typeof params === 'number' || typeof params === 'object';
    params = wrap ? [params] : [];
  } else {
    params = [...params];
  }
  if (!params.length) {
    if (/\?/.test(sql)) throw new Error(`Parameters not provided for query containing placeholders [QUERY: ${sql}]`);
    return [sql, []];
  }
  const placeholders = sql.match(/\?\d*/g);
  if (!placeholders) throw new Error(`Parameters provided for query without placeholders [QUERY: ${sql}]`);
  const expected = placeholders.filter((p) => p === '?').length + new Set(placeholders.filter((p) => p !== '?')).size;
  if (params.length !== expected) {
    throw new Error(`Incorrect number of parameters provided for query (${params.length}, expecting ${expected}) [QUERY: ${sql}]`);
  }
  const method = queryMethod(sql);
  const placeholder = /\s*[=,(]\s*\?/g;
  const bound = [];
  for (let i = 0; i < params.length; i++) {
    const value = params[i];
    const match = placeholder.exec(sql);
    if (typeof value === 'boolean') throw new Error(`Invalid boolean parameter ${i} '${value}' [QUERY: ${sql}]`);
    if (value === undefined) throw new Error(`Parameter ${i} is undefined [QUERY: ${sql}]`);
    if (value !== null) {
      bound.push(value);
      continue;
    }
    if (!match) throw new Error(`Null parameter provided for a query without placeholders [QUERY: ${sql}]`);
    let replacement;
    if (!match[0].includes('=')) {
      if (method === 'select') throw new Error(`NULL cannot be used for parenthesized placeholders in SELECT queries [QUERY: ${sql}]`);
      replacement = match[0].replace('?', 'NULL');
    } else {
      replacement = method === 'select' ? ' IS NULL' : '=NULL';
    }
    sql = sql.slice(0, match.index) + replacement + sql.slice(match.index + match[0].length);
    // The search goes on from the end of the replacement, in the edited text.
    placeholder.lastIndex = match.index + replacement.length;
  }
  return [sql, bound];
}

const rowHandler = {
  get(target, name) {
    if (name === 'then') return undefined;
    try {
      return target.getResultByName(name);
    } catch {
      throw new Error(`DB column '${String(name)}' not found`);
    }
  },
  has(target, name) {
    try {
      return !!target.getResultByName(name);
    } catch {
      return false;
    }
  },
};

/** A row as queryAsync returns it. @param {{ getResultByName(name: string): unknown }} storageRow */
export function rowProxy(storageRow) {
  return new Proxy(storageRow, rowHandler);
}

/** The rejection of a wait that took too long (Bluebird's TimeoutError in Zotero). */
export function timeoutError(ms) {
  const error = new Error(`operation timed out after ${ms} ms waiting for a running DB transaction`);
  error.name = 'TimeoutError';
  return error;
}

/**
 * One transaction at a time: a caller waits for the running one, at most `waitTimeout` ms per
 * wait, then runs `begin` (which runs the callback in a transaction of the engine).
 */
export class TransactionGate {
  #running = null;

  get active() {
    return this.#running !== null;
  }

  /**
   * @template T
   * @param {() => Promise<T>} run
   * @param {number} waitTimeout
   * @param {{ setTimeout: Function, clearTimeout: Function }} timers
   * @returns {Promise<T>}
   */
  async run(run, waitTimeout, timers) {
    while (this.#running) {
      const running = this.#running;
      let timer;
      const timedOut = new Promise((resolve) => {
        timer = timers.setTimeout(() => resolve(true), waitTimeout);
      });
      const late = await Promise.race([running.then(() => false), timedOut]);
      timers.clearTimeout(timer);
      if (late) throw timeoutError(waitTimeout);
    }
    let done;
    this.#running = new Promise((resolve) => {
      done = resolve;
    });
    try {
      return await run();
    } finally {
      this.#running = null;
      done();
    }
  }
}
