// The Node fake of Zotero.DBConnection (zotero-shim.mjs) against what the real one does in
// Firefox: the probe tests/zotero-runtime/zotero-runtime.test.mjs runs on Sqlite.sys.mjs runs
// here on the fake, and both must match MOZSTORAGE_FACTS. Then the mistakes those facts catch,
// each failing on the fake as it would in Zotero.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';
import { MOZSTORAGE_FACTS, probeConnection } from '../zotero-runtime/connection-probe.mjs';

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-zotero-shim-'));
let files = 0;
const open = (options) => new ZoteroDBConnectionShim(Database, join(dir, `db${++files}.sqlite`), options);

describe('the Node fake of Zotero.DBConnection', () => {
  it('answers the connection probe exactly as Sqlite.sys.mjs in Firefox does', async () => {
    const db = open();
    const probe = await probeConnection(db, { nestedWaitTimeout: 50 });
    await db.closeDatabase();
    for (const [fact, expected] of Object.entries(MOZSTORAGE_FACTS)) assert.deepEqual(probe[fact], expected, `fact ${fact}`);
    assert.deepEqual(Object.keys(probe).sort(), Object.keys(MOZSTORAGE_FACTS).sort());
  });

  it('fails where Zotero fails: spreading a row, `in` for a NULL or 0 column, a BigInt written', async () => {
    const db = open();
    await db.queryAsync('CREATE TABLE sessions (id TEXT, leaf_id TEXT, branch_revision INTEGER)');
    await db.queryAsync('INSERT INTO sessions VALUES (?, ?, ?)', ['s', null, 0]);
    const [row] = await db.queryAsync('SELECT id, leaf_id, branch_revision FROM sessions');
    assert.throws(() => ({ ...row }), /DB column 'getResultByName' not found/, 'a driver that copies rows with spread');
    assert.throws(() => JSON.stringify(row), /DB column 'toJSON' not found/);
    assert.equal('leaf_id' in row, false, "'in' cannot tell a NULL column from a missing one");
    assert.equal('branch_revision' in row, false, "'in' is false for 0");
    assert.equal(row.leaf_id, null);
    await db.queryAsync('UPDATE sessions SET branch_revision = ?', [5n]);
    assert.equal(await db.valueQueryAsync('SELECT branch_revision FROM sessions'), null, 'a BigInt revision is lost as NULL');
    await db.closeDatabase();
  });

  it('a nested executeTransaction times out after waitTimeout and rolls the outer one back', async () => {
    const db = open({ waitTimeout: 40 });
    await db.queryAsync('CREATE TABLE t (a INTEGER)');
    const started = Date.now();
    await assert.rejects(
      db.executeTransaction(async () => {
        await db.queryAsync('INSERT INTO t VALUES (1)');
        await db.executeTransaction(async () => {});
      }),
      { name: 'TimeoutError' },
    );
    assert.ok(Date.now() - started >= 35, 'it waited');
    assert.equal(await db.valueQueryAsync('SELECT COUNT(*) FROM t'), 0);
    assert.equal(db.inTransaction(), false);
    await db.closeDatabase();
  });
});
