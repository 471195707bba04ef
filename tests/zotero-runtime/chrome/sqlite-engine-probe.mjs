// Firefox's own Sqlite.sys.mjs with nothing of the project's in between: no zotero-db-rules.mjs, no
// DBConnection. The probe of chrome/zotero-db-connection.mjs cannot check the db.js rules (row
// proxies, NULL inlining, parameter checks, the first-word rule, the transaction gate): that
// connection and the Node fake share them, so they agree by construction. What the engine does by
// itself can be checked, and zotero-runtime.test.mjs holds each rule against it: a rule must be what
// makes the connection differ from the engine, and what the connection passes through (row values,
// bind types, transactions) must be what the engine gives.
// Imported in Firefox's parent process through a resource:// URL, like zotero-db-connection.mjs.

const message = (error) => String(error && error.message !== undefined ? error.message : error);

async function outcome(promise) {
  try {
    const value = await promise;
    return { value };
  } catch (error) {
    return { error: message(error) };
  }
}

/** Runs the probe on a fresh database at `path` through Sqlite.openConnection. */
export async function probeSqliteEngine(path) {
  const { Sqlite } = ChromeUtils.importESModule('resource://gre/modules/Sqlite.sys.mjs');
  const conn = await Sqlite.openConnection({ path });
  const out = {};
  try {
    await conn.execute('CREATE TABLE probe (id INTEGER PRIMARY KEY, n INTEGER, t TEXT)');
    out.nonSelectResult = Array.isArray(await conn.execute('INSERT INTO probe (n, t) VALUES (?, ?)', [0, ''])) ? 'rows' : 'other';
    await conn.execute('INSERT INTO probe (n, t) VALUES (?, ?)', [5, 'x']);
    await conn.execute('INSERT INTO probe (n, t) VALUES (?, ?)', [null, null]);

    const rows = await conn.execute('SELECT id, n, t FROM probe ORDER BY id');
    const row = rows[0];
    // A bare mozIStorageRow: values only through its methods; column names are no properties.
    out.rowValues = rows.map((r) => [r.getResultByName('id'), r.getResultByName('n'), r.getResultByName('t')]);
    out.rowKeys = Object.keys(row);
    out.columnAsProperty = String(row.n);
    out.unknownColumnThrows = (await outcome((async () => row.getResultByName('nope'))())).error !== undefined;
    out.thenOfRow = typeof row.then;

    const count = async (sql, params) => (await conn.execute(sql, params))[0].getResultByIndex(0);
    out.nullBinding = {
      equalsNull: await count('SELECT COUNT(*) FROM probe WHERE t = ?', [null]),
      isNull: await count('SELECT COUNT(*) FROM probe WHERE t IS NULL'),
    };
    const typeOf = async (value) => {
      const result = await outcome(conn.execute('SELECT typeof(?)', [value]));
      return result.error !== undefined ? 'error' : result.value[0].getResultByIndex(0);
    };
    out.bindTypes = { integer: await typeOf(1), fraction: await typeOf(1.5), text: await typeOf('x') };
    out.booleanBinds = await typeOf(true);
    out.undefinedBinds = await typeOf(undefined);
    const rowsOf = async (sql) => (Array.isArray(await conn.execute(sql)) ? 'rows' : 'other');
    out.firstWord = { leadingSpace: await rowsOf(' SELECT 1'), newline: await rowsOf('SELECT\n1'), with: await rowsOf('WITH x AS (SELECT 1 AS a) SELECT a FROM x') };

    // Sqlite.sys.mjs's own transactions: queued, and rolled back when the callback rejects.
    const order = [];
    let release;
    const gate = new Promise((resolve) => (release = resolve));
    const first = conn.executeTransaction(async () => {
      order.push('first:start');
      await gate;
      await conn.execute('INSERT INTO probe (n) VALUES (100)');
      order.push('first:end');
    });
    const second = conn.executeTransaction(async () => {
      order.push('second');
    });
    await Promise.resolve();
    release();
    await Promise.all([first, second]);
    out.transactionOrder = order;
    const failed = await outcome(conn.executeTransaction(async () => {
      await conn.execute('INSERT INTO probe (n) VALUES (101)');
      throw new Error('boom');
    }));
    out.failedTransaction = { error: failed.error, rolledBack: (await count('SELECT COUNT(*) FROM probe WHERE n = 101')) === 0 };
  } finally {
    await conn.close();
  }
  return out;
}
