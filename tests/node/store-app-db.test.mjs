// The store in the app's own database (issue 41, item 4): under a table prefix beside the app's
// table `chats(id, title)`, and the app's row and the store's writes in one transaction
// (`store.withinTransaction`), on ZoteroDBStore through the Zotero.DBConnection shim (db.js's rules:
// a nested executeTransaction waits until its timeout), SqliteStore and MemoryStore.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

import { glue } from './glue-modules.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';

const { MemoryStore, SqliteStore, ZoteroDBStore, SESSION_SCHEMA_STATEMENTS, sessionSchemaStatements } = glue;
await glue.init();

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-app-db-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let fileCounter = 0;
const freshFile = () => join(dir, `app-${++fileCounter}.sqlite`);
const PREFIX = 'myplugin_';

const user = (id, text = `question ${id}`) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id, text = `answer ${id}`) => ({ id, role: 'assistant', parts: [{ type: 'text', text }] });

/** The app's database: its own table, then the store under the prefix (created on first use). */
async function zoteroApp(file = freshFile(), options = {}) {
  const connection = new ZoteroDBConnectionShim(Database, file, options);
  await connection.queryAsync('CREATE TABLE IF NOT EXISTS chats (id TEXT PRIMARY KEY, title TEXT)');
  const store = new ZoteroDBStore(connection, { tablePrefix: PREFIX });
  const chats = async () => (await connection.queryAsync('SELECT id, title FROM chats ORDER BY id')).map((r) => [r.id, r.title]);
  return { connection, store, file, chats, insertChat: (id, title) => connection.queryAsync('INSERT INTO chats (id, title) VALUES (?, ?)', [id, title]) };
}

function schemaOf(file) {
  const db = new Database(file, { readonly: true });
  const objects = db.prepare("SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%' ORDER BY name").all();
  const userVersion = db.pragma('user_version', { simple: true });
  db.close();
  return { objects, userVersion };
}

/** The session as load() gives it, and as the store-held index shows it. */
async function views(store, sessionId) {
  const loaded = await store.load(sessionId);
  const indexed = await store.withSessionIndex(sessionId, (view) => view && {
    nodes: view.toSession().nodes, leafId: view.toSession().leafId, branchRevision: view.toSession().branchRevision,
    projected: view.project().messages.map((m) => m.id),
  });
  return { loaded, indexed };
}

describe('ZoteroDBStore in the app database (tablePrefix)', () => {
  it('creates every table and index under the prefix, none bare, and leaves PRAGMA user_version alone', async () => {
    const app = await zoteroApp();
    await app.store.createSession({ sessionId: 's1' });
    const { objects, userVersion } = schemaOf(app.file);
    const names = objects.map((o) => o.name);
    assert.ok(names.includes('chats'));
    assert.ok(!names.includes('sessions') && !names.includes('nodes'), names.join(', '));
    for (const name of names.filter((n) => n !== 'chats')) assert.ok(name.startsWith(PREFIX), `${name} is not under the prefix`);
    assert.deepEqual(
      objects.filter((o) => o.type === 'table').map((o) => o.name),
      ['chats', 'myplugin_nodes', 'myplugin_schema_version', 'myplugin_sessions'],
    );
    assert.equal(objects.filter((o) => o.type === 'index').length, 4);
    // The file's user_version is the app's (or Zotero's): the version is the prefix's own row.
    assert.equal(userVersion, 0);
    assert.equal(Number(await app.connection.valueQueryAsync('SELECT version FROM myplugin_schema_version')), glue.SESSION_SCHEMA_VERSION);
    await app.store.close();
    await app.connection.closeDatabase();
  });

  it("an app transaction that inserts its row and appends a message commits both; one deleting both commits both", async () => {
    const app = await zoteroApp();
    await app.store.createSession({ sessionId: 'c1', appKey: 'chat:c1' });
    const result = await app.store.withinTransaction(async (tx) => {
      await app.insertChat('c1', 'Reading list');
      const head = await tx.appendMessage('c1', user('u1'));
      assert.equal(app.connection.inTransaction(), true); // one transaction holds both
      return head.branchRevision;
    });
    assert.equal(result, 1);
    assert.deepEqual(await app.chats(), [['c1', 'Reading list']]);
    assert.deepEqual((await app.store.load('c1')).nodes.map((n) => n.id), ['u1']);

    // Deleting a conversation: the app's row and the session go together.
    await app.store.withinTransaction(async (tx) => {
      await app.connection.queryAsync('DELETE FROM chats WHERE id = ?', ['c1']);
      assert.deepEqual((await tx.deleteSession('c1')).deleted, ['c1']);
    });
    assert.deepEqual(await app.chats(), []);
    assert.deepEqual(await app.store.listSessions(), []);
    await app.store.close();
    await app.connection.closeDatabase();
  });

  it('one that throws after both writes rolls back both, and the store then shows the session as before (no stale index)', async () => {
    const app = await zoteroApp();
    await app.store.createSession({ sessionId: 's1' });
    await app.store.appendMessage('s1', user('u1'));
    await app.store.appendMessage('s1', assistant('a1'));
    const before = await views(app.store, 's1'); // the store now holds an index of s1
    assert.ok(before.indexed, 'the store holds an index of the session');
    const failure = new Error('the app failed after writing');
    await assert.rejects(
      app.store.withinTransaction(async (tx) => {
        await app.insertChat('c1', 'Doomed');
        await tx.appendMessage('s1', user('u2'));
        await tx.appendMessage('s1', assistant('a2'));
        await tx.updateMessageParts('s1', 'a2', [{ type: 'text', text: 'edited in place' }]);
        await tx.setSessionInfo('s1', { title: 'renamed' });
        // tx reads its own writes.
        assert.deepEqual((await tx.load('s1')).nodes.map((n) => n.id), ['u1', 'a1', 'u2', 'a2']);
        throw failure;
      }),
      (error) => error === failure, // the app's own error, as it threw it
    );
    assert.deepEqual(await app.chats(), []);
    const now = await views(app.store, 's1');
    assert.deepEqual(now, before);
    assert.equal((await app.store.getSessionInfo('s1')).title, null);
    // The ids of the rolled-back writes are free again, and the index follows the new rows.
    const head = await app.store.appendMessage('s1', user('u2', 'another question'), { expectedLeafId: 'a1', expectedRevision: 2 });
    assert.equal(head.branchRevision, 3);
    const after = await views(app.store, 's1');
    assert.deepEqual(after.indexed.nodes, after.loaded.nodes);
    assert.equal(after.loaded.nodes.at(-1).parts[0].text, 'another question');
    assert.deepEqual(after.indexed.projected, ['u1', 'a1', 'u2']);
    await app.store.close();
    await app.connection.closeDatabase();
  });

  it('reopening the database with the same prefix finds the sessions; another prefix on the same connection is another set', async () => {
    const app = await zoteroApp();
    await app.store.createSession({ sessionId: 's1', title: 'kept' });
    await app.store.appendMessage('s1', user('u1'));
    await app.store.close();
    await app.connection.closeDatabase();

    const again = await zoteroApp(app.file);
    assert.deepEqual((await again.store.listSessions({ details: true })).map((s) => [s.sessionId, s.title]), [['s1', 'kept']]);
    assert.deepEqual((await again.store.load('s1')).nodes.map((n) => n.id), ['u1']);
    // Another plugin's prefix on the same connection: its own tables, the same ids kept apart,
    // also in the store-held indexes.
    const other = new ZoteroDBStore(again.connection, { tablePrefix: 'other_' });
    assert.deepEqual(await other.listSessions(), []);
    await other.createSession({ sessionId: 's1' });
    await other.appendMessage('s1', user('x1'));
    assert.deepEqual((await views(again.store, 's1')).indexed.projected, ['u1']);
    assert.deepEqual((await views(other, 's1')).indexed.projected, ['x1']);
    await again.store.appendMessage('s1', assistant('a1'));
    assert.deepEqual((await views(other, 's1')).indexed.projected, ['x1']);
    assert.deepEqual((await views(again.store, 's1')).indexed.projected, ['u1', 'a1']);
    // Without a prefix, the bare tables (as before this option): nothing of the prefixed ones.
    const bare = new ZoteroDBStore(again.connection);
    assert.deepEqual(await bare.listSessions(), []);
    assert.equal(Number(await again.connection.valueQueryAsync('PRAGMA user_version')), glue.SESSION_SCHEMA_VERSION);
    for (const store of [other, bare, again.store]) await store.close();
    await again.connection.closeDatabase();
  });

  it('an invalid prefix is refused with invalid-options before anything touches the database', async () => {
    const connection = new ZoteroDBConnectionShim(Database, freshFile());
    for (const tablePrefix of ['1plugin_', 'my-plugin_', 'my plugin', 'a;DROP TABLE chats;', 'x'.repeat(33), 'sqlite_', 'SQLite_x', 42, null, {}]) {
      assert.throws(() => new ZoteroDBStore(connection, { tablePrefix }), (e) => e.code === 'invalid-options' && /tablePrefix/.test(e.message), String(tablePrefix));
      assert.throws(() => new SqliteStore(new Database(':memory:'), { tablePrefix }), (e) => e.code === 'invalid-options', String(tablePrefix));
      assert.throws(() => sessionSchemaStatements(tablePrefix), (e) => e.code === 'invalid-options', String(tablePrefix));
    }
    assert.deepEqual(connection.log, []);
    // The longest and the shortest accepted.
    for (const tablePrefix of ['x'.repeat(32), '_', 'P']) new ZoteroDBStore(connection, { tablePrefix });
    await connection.closeDatabase();
  });

  it('sessionSchemaStatements gives the prefixed statements; SESSION_SCHEMA_STATEMENTS stays the unprefixed ones', () => {
    assert.deepEqual(sessionSchemaStatements(), [...SESSION_SCHEMA_STATEMENTS]);
    assert.deepEqual(sessionSchemaStatements(''), [...SESSION_SCHEMA_STATEMENTS]);
    const prefixed = sessionSchemaStatements(PREFIX);
    assert.ok(prefixed.some((s) => s.startsWith('CREATE TABLE IF NOT EXISTS myplugin_schema_version ')));
    for (const statement of prefixed) {
      assert.doesNotMatch(statement, /\b(?:ON|EXISTS|REFERENCES) (?!myplugin_)\w+ ?\(/, statement);
    }
    // Run by hand (e.g. in the app's own schema upgrade), the store then finds its tables ready.
    const db = new Database(':memory:');
    for (const statement of prefixed) db.exec(statement);
    db.close();
  });

  it('tx works only during the callback; a nested executeTransaction is the app error it is, and nothing is written', async () => {
    const app = await zoteroApp(freshFile(), { waitTimeout: 100 });
    await app.store.createSession({ sessionId: 's1' });
    let kept;
    await app.store.withinTransaction(async (tx) => {
      kept = tx;
    });
    await assert.rejects(kept.appendMessage('s1', user('late')), { code: 'transaction-closed' });
    assert.equal(typeof kept.transaction, 'undefined'); // tx opens no transaction of its own
    assert.equal(typeof kept.close, 'undefined');

    await assert.rejects(
      app.store.withinTransaction(async (tx) => {
        await tx.appendMessage('s1', user('u1'));
        await app.connection.executeTransaction(async () => app.insertChat('c1', 'nested'));
      }),
      (error) => error.name === 'TimeoutError' && error.code === undefined,
    );
    assert.deepEqual(await app.chats(), []);
    assert.deepEqual((await app.store.load('s1')).nodes, []);

    // A store refusal inside is the app's to handle: the transaction goes on and commits.
    await app.store.withinTransaction(async (tx) => {
      await tx.appendMessage('s1', user('u1'));
      await assert.rejects(tx.appendMessage('s1', user('u2'), { expectedRevision: 0 }), { code: 'session-moved' });
      await app.insertChat('c1', 'kept');
    });
    assert.deepEqual(await app.chats(), [['c1', 'kept']]);
    assert.deepEqual((await app.store.load('s1')).nodes.map((n) => n.id), ['u1']);
    await app.store.close();
    await app.connection.closeDatabase();
  });

  it('other store calls wait for the transaction and then see its committed writes', async () => {
    const app = await zoteroApp();
    await app.store.createSession({ sessionId: 's1' });
    let release;
    const held = new Promise((r) => (release = r));
    const order = [];
    const within = app.store.withinTransaction(async (tx) => {
      await tx.appendMessage('s1', user('u1'));
      await held;
      order.push('within');
    });
    const load = app.store.load('s1').then((s) => {
      order.push('load');
      return s;
    });
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(order, []);
    release();
    await within;
    assert.deepEqual((await load).nodes.map((n) => n.id), ['u1']);
    assert.deepEqual(order, ['within', 'load']);
    await app.store.close();
    await app.connection.closeDatabase();
  });
});

describe('SqliteStore shares the schema code (tablePrefix, withinTransaction)', () => {
  it('creates prefixed tables only, commits and rolls back with the app', async () => {
    const file = freshFile();
    const db = new Database(file);
    db.exec('CREATE TABLE chats (id TEXT PRIMARY KEY, title TEXT)');
    const store = new SqliteStore(db, { tablePrefix: PREFIX });
    await store.createSession({ sessionId: 's1' });
    await store.withinTransaction(async (tx) => {
      db.prepare('INSERT INTO chats (id, title) VALUES (?, ?)').run('c1', 'kept');
      await tx.appendMessage('s1', user('u1'));
    });
    const before = await views(store, 's1');
    await assert.rejects(store.withinTransaction(async (tx) => {
      db.prepare('INSERT INTO chats (id, title) VALUES (?, ?)').run('c2', 'lost');
      await tx.appendMessage('s1', assistant('a1'));
      throw new Error('app failed');
    }), /app failed/);
    assert.deepEqual(db.prepare('SELECT id FROM chats').all().map((r) => r.id), ['c1']);
    assert.deepEqual(await views(store, 's1'), before);
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all().map((r) => r.name);
    assert.deepEqual(names, ['chats', 'myplugin_nodes', 'myplugin_schema_version', 'myplugin_sessions']);
    await store.close();
    db.close();
    // Reopened from the class with the same prefix.
    const reopened = new SqliteStore(Database, file, { tablePrefix: PREFIX });
    assert.deepEqual((await reopened.load('s1')).nodes.map((n) => n.id), ['u1']);
    await reopened.close();
  });
});

describe('MemoryStore withinTransaction', () => {
  it('undoes every write of a callback that throws', async () => {
    const store = new MemoryStore();
    await store.createSession({ sessionId: 's1' });
    await store.appendMessage('s1', user('u1'));
    const before = await views(store, 's1');
    await assert.rejects(store.withinTransaction(async (tx) => {
      await tx.appendMessage('s1', assistant('a1'));
      await tx.createSession({ sessionId: 's2' });
      throw new Error('app failed');
    }), /app failed/);
    assert.deepEqual(await views(store, 's1'), before);
    assert.deepEqual(await store.listSessions(), ['s1']);
    assert.equal(await store.withinTransaction(async (tx) => (await tx.appendMessage('s1', assistant('a1'))).leafId), 'a1');
  });
});
