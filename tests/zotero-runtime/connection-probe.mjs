// The same probe of a Zotero.DBConnection's observable behaviour, run against the stage-7
// connection (chrome/zotero-db-connection.mjs on Firefox's Sqlite.sys.mjs, zotero-runtime.test.mjs)
// and against the Node fake (tests/node/zotero-shim.test.mjs); both compare it with MOZSTORAGE_FACTS.
// Only the connection's public API is used, so the module runs unchanged in Node and in Firefox.
//
// What that comparison proves, precisely. Neither connection is Zotero's: both are the project's,
// and both take db.js's JavaScript rules from one module (zotero-db-rules.mjs, written from reading
// db.js). So the facts those rules make agree by construction and prove nothing about Zotero:
// spread, stringify, inOperator, unknownColumn, thenIsUndefined (the row proxy), booleanParameter,
// undefinedParameter, nullInlined (parameter parsing), firstWord, nonSelectResult (the first-word
// rule), transactionOrder and nested (the transaction gate). Independent of that module, measured
// from mozStorage in Firefox and reproduced by the fake's own engine code: rowValues, rowKeys,
// bigintStoredAs, bindTypes, thousandParameters, sqliteParameterLimit, valueQueryNoRow,
// failedTransaction. The rules are held against Firefox's own Sqlite.sys.mjs with nothing of the
// project's in between by chrome/sqlite-engine-probe.mjs (zotero-runtime.test.mjs): each rule must be
// what makes the connection differ from the engine, and what passes through must be the engine's.

/**
 * What the probe returns on Firefox ESR 153 (mozStorage under Sqlite.sys.mjs, observed
 * 2026-12-01). The row keys are the own enumerable names of a mozIStorageRow wrapper.
 */
export const MOZSTORAGE_FACTS = {
  nonSelectResult: 'undefined',
  rowValues: [[1, 0, ''], [2, 5, 'x'], [3, null, null]],
  rowKeys: null, // MOZSTORAGE_ROW_KEYS
  // Spreading reads each own key through the proxy; JSON.stringify first asks for toJSON.
  spread: "DB column 'getResultByName' not found",
  stringify: "DB column 'toJSON' not found",
  inOperator: [
    { id: true, n: false, t: false, missing: false },
    { id: true, n: true, t: true, missing: false },
    { id: true, n: false, t: false, missing: false },
  ],
  unknownColumn: "DB column 'nope' not found",
  thenIsUndefined: true,
  bigintStoredAs: 'null',
  bindTypes: { integer: 'integer', fraction: 'real', text: 'text' },
  booleanParameter: 'Invalid boolean parameter 0',
  undefinedParameter: 'Parameter 1 is undefined',
  thousandParameters: 1000,
  sqliteParameterLimit: { at32766: true, above: 'too many SQL variables' },
  firstWord: { leadingSpace: 'undefined', newline: 'undefined', with: 'undefined', lowerSelect: 'rows', pragma: 'rows' },
  nullInlined: { selectEquals: 3, insertParenthesized: 'NULL' },
  valueQueryNoRow: false,
  transactionOrder: ['first:start', 'first:end', 'second'],
  failedTransaction: { error: 'boom', rolledBack: true },
  nested: { name: 'TimeoutError', outerRolledBack: true },
};

/** The own enumerable keys of a real mozIStorageRow, in this order (Firefox ESR 153). */
export const MOZSTORAGE_ROW_KEYS = Object.freeze([
  'getResultByName', 'QueryInterface', 'numEntries', 'getTypeOfIndex', 'getInt32', 'getInt64', 'getDouble',
  'getUTF8String', 'getString', 'getBlob', 'getBlobAsString', 'getBlobAsUTF8String', 'getIsNull',
  'getResultByIndex', 'VALUE_TYPE_NULL', 'VALUE_TYPE_INTEGER', 'VALUE_TYPE_FLOAT', 'VALUE_TYPE_TEXT', 'VALUE_TYPE_BLOB',
]);
MOZSTORAGE_FACTS.rowKeys = [...MOZSTORAGE_ROW_KEYS];

const message = (error) => String(error && error.message !== undefined ? error.message : error);

function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: message(error) };
  }
}

async function attemptAsync(promise) {
  try {
    return { value: await promise };
  } catch (error) {
    return { error: message(error), name: error && error.name };
  }
}

/** The first line of an error message up to its " [QUERY" suffix. */
const short = (text) => String(text).split(' [QUERY')[0];

/**
 * Runs every probe on a fresh, empty database.
 * @param {any} db a Zotero.DBConnection
 * @param {{ nestedWaitTimeout: number }} options
 */
export async function probeConnection(db, { nestedWaitTimeout }) {
  const out = {};
  await db.queryAsync('CREATE TABLE probe (id INTEGER PRIMARY KEY, n INTEGER, t TEXT)');
  out.nonSelectResult = typeof (await db.queryAsync('INSERT INTO probe (n, t) VALUES (?, ?)', [0, '']));
  await db.queryAsync('INSERT INTO probe (n, t) VALUES (?, ?)', [5, 'x']);
  await db.queryAsync('INSERT INTO probe (n, t) VALUES (?, ?)', [null, null]);

  const rows = await db.queryAsync('SELECT id, n, t FROM probe ORDER BY id');
  out.rowValues = rows.map((r) => [r.id, r.n, r.t]);
  out.rowKeys = Object.keys(rows[0]);
  out.spread = attempt(() => ({ ...rows[0] })).error ?? 'no error';
  out.stringify = attempt(() => JSON.stringify(rows[0])).error ?? 'no error';
  out.inOperator = rows.map((r) => ({ id: 'id' in r, n: 'n' in r, t: 't' in r, missing: 'missing' in r }));
  out.unknownColumn = attempt(() => rows[0].nope).error ?? 'no error';
  out.thenIsUndefined = rows[0].then === undefined;

  await db.queryAsync('INSERT INTO probe (id, n) VALUES (?, ?)', [10, 10n]);
  out.bigintStoredAs = String(await db.valueQueryAsync('SELECT quote(n) FROM probe WHERE id = ?', [10])).toLowerCase();
  const types = (await db.queryAsync('SELECT typeof(?) AS a, typeof(?) AS b, typeof(?) AS c', [1, 1.5, 'x']))[0];
  out.bindTypes = { integer: types.a, fraction: types.b, text: types.c };
  out.booleanParameter = short((await attemptAsync(db.queryAsync('SELECT ?', [true]))).error).split(" '")[0];
  out.undefinedParameter = short((await attemptAsync(db.queryAsync('SELECT ?, ?', [1, undefined]))).error);

  const ids = (count) => Array.from({ length: count }, (_, i) => i + 1);
  const list = (count) => ids(count).map(() => '?').join(',');
  out.thousandParameters = await db.valueQueryAsync(`SELECT COUNT(*) FROM (SELECT 1 WHERE 1 IN (${list(1000)}))`, ids(1000)) * 1000;
  const at = await attemptAsync(db.valueQueryAsync(`SELECT 1 WHERE 1 IN (${list(32766)})`, ids(32766)));
  const above = await attemptAsync(db.valueQueryAsync(`SELECT 1 WHERE 1 IN (${list(32767)})`, ids(32767)));
  out.sqliteParameterLimit = {
    at32766: at.value === 1,
    above: /too many SQL variables/i.test(above.error ?? '') ? 'too many SQL variables' : String(above.error ?? 'no error'),
  };

  const kind = (result) => (Array.isArray(result) ? 'rows' : typeof result);
  out.firstWord = {
    leadingSpace: kind(await db.queryAsync(' SELECT 1')),
    newline: kind(await db.queryAsync('SELECT\n1')),
    with: kind(await db.queryAsync('WITH x AS (SELECT 1 AS a) SELECT a FROM x')),
    lowerSelect: kind(await db.queryAsync('select 1')),
    pragma: kind(await db.queryAsync('PRAGMA user_version')),
  };

  await db.queryAsync('INSERT INTO probe (id, n, t) VALUES (?, ?, ?)', [20, 7, null]);
  out.nullInlined = {
    selectEquals: (await db.queryAsync('SELECT COUNT(*) AS c FROM probe WHERE t = ?', [null]))[0].c,
    insertParenthesized: String(await db.valueQueryAsync('SELECT quote(t) FROM probe WHERE id = ?', [20])),
  };
  out.valueQueryNoRow = await db.valueQueryAsync('SELECT n FROM probe WHERE id = ?', [999]);

  // Queueing: a second transaction starts after the first one ends.
  const order = [];
  let release;
  const gate = new Promise((resolve) => {
    release = resolve;
  });
  const first = db.executeTransaction(async () => {
    order.push('first:start');
    await gate;
    await db.queryAsync('INSERT INTO probe (n) VALUES (100)');
    order.push('first:end');
  });
  const second = db.executeTransaction(async () => {
    order.push('second');
  });
  await Promise.resolve();
  await new Promise((resolve) => resolve());
  release();
  await Promise.all([first, second]);
  out.transactionOrder = order;

  const failed = await attemptAsync(db.executeTransaction(async () => {
    await db.queryAsync('INSERT INTO probe (n) VALUES (101)');
    throw new Error('boom');
  }));
  out.failedTransaction = {
    error: failed.error,
    rolledBack: (await db.valueQueryAsync('SELECT COUNT(*) FROM probe WHERE n = 101')) === 0,
  };

  // A transaction opened inside a running one waits for itself, times out, and the outer rolls back.
  const nested = await attemptAsync(db.executeTransaction(async () => {
    await db.queryAsync('INSERT INTO probe (n) VALUES (102)');
    await db.executeTransaction(async () => {}, { waitTimeout: nestedWaitTimeout });
  }));
  out.nested = {
    name: nested.name ?? 'no error',
    outerRolledBack: (await db.valueQueryAsync('SELECT COUNT(*) FROM probe WHERE n = 102')) === 0,
  };
  return out;
}
