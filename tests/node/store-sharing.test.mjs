// Stores shared by two windows, two stores or two connections in one process (issue 18):
// a fork's compaction against an update of a shared node, no SQLite transaction across an
// await, busy files answered with store-busy without freezing the thread, one connection per
// file, the schema migration from version 1, and the same rules on ZoteroDBStore.
// The multi-process side is store-processes.test.mjs.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';

import { compaction, MemoryStore, linearSession, validSummary, MODEL, deferred } from './runner-fixtures.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';

const { compact, SqliteStore, ZoteroDBStore, SESSION_SCHEMA_VERSION } = compaction;

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-sharing-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let fileCounter = 0;
const freshFile = () => join(dir, `sessions-${++fileCounter}.sqlite`);
/**
 * A linear session whose messages carry 5,000 numbers each in their metadata (2 million in all): far
 * longer to parse than one slice of a load on any machine.
 * @param {number} turns
 */
function numericSession(turns) {
  const session = linearSession(turns);
  for (const [k, node] of session.nodes.entries()) node.metadata = { samples: Array.from({ length: 5000 }, (_, i) => (k * 7919 + i * 104729) % 1000003 / 7) };
  return session;
}

/** Counts the turns a setTimeout(0) chain gets until stop(): how often the thread was let go. */
function ticker() {
  let ticks = 0;
  let running = true;
  const tick = () => {
    ticks++;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  return { stop: () => ((running = false), ticks) };
}

const user = (id, text = `question ${id}`) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id, text = `answer ${id}`) => ({ id, role: 'assistant', parts: [{ type: 'text', text }] });
const checkpointNode = (id, parentId, revision) => ({
  id,
  parentId,
  checkpoint: {
    summary: validSummary(id), firstKeptMessageId: null, previousCheckpointId: null, mode: 'manual',
    tokensBefore: 100, tokensAfter: 10, ledger: { entries: [] }, basis: { leafId: parentId, branchRevision: revision },
  },
});

const backends = [
  { name: 'MemoryStore', open: () => new MemoryStore() },
  { name: 'SqliteStore', open: () => new SqliteStore(Database, freshFile()) },
  { name: 'ZoteroDBStore', open: () => new ZoteroDBStore(new ZoteroDBConnectionShim(Database, freshFile()), { closeConnection: true }) },
];

for (const backend of backends) {
  describe(`${backend.name}: a fork's compaction and the base session`, () => {
    it('refuses the commit of a summary planned before a shared node changed, then commits the fresh one', async () => {
      const store = backend.open();
      await store.importSession(linearSession(4), { sessionId: 'S' });
      await store.fork('S', 'A4', { sessionId: 'F' });
      await store.appendMessage('F', user('U5', `question 5: ${'more '.repeat(60)}`));
      await store.appendMessage('F', assistant('A5', `answer 5: ${'detail '.repeat(120)}`));
      const prompts = [];
      const correct = async () => {
        await store.updateMessageParts('S', 'A4', [{ type: 'text', text: 'corrected answer 4' }]);
      };
      const summarize = async (request) => {
        prompts.push(request.prompt);
        if (prompts.length === 1) await correct(); // the base window edits while the summary is being written
        return validSummary(`try${prompts.length}`);
      };
      const first = await compact({ store, sessionId: 'F', model: MODEL, mode: 'manual', summarize });
      assert.equal(first.status, 'stale', JSON.stringify(first.error ?? first.reason));
      assert.equal(first.reason, 'revision-changed');
      assert.ok(prompts[0].includes('answer 4:'), 'the refused summary was made from the old A4');
      assert.equal((await store.load('F')).nodes.filter((n) => n.checkpoint).length, 0, 'nothing committed');
      const second = await compact({ store, sessionId: 'F', model: MODEL, mode: 'manual', summarize });
      assert.equal(second.status, 'committed');
      assert.ok(!prompts[1].includes('answer 4:') && prompts[1].includes('corrected answer 4'), 'the committed summary saw the corrected A4');
      await store.close();
    });

    it('lets the thread go while tx.load reads a long session, and the commit writes after it', async () => {
      const store = backend.open();
      await store.importSession(numericSession(200), { sessionId: 'L' });
      const ticks = await store.transaction('L', async (tx) => {
        const t = ticker();
        const s = await tx.load().finally(t.stop);
        assert.equal(s.nodes.length, 400);
        await tx.appendNode(checkpointNode('c1', 'A200', s.branchRevision));
        await tx.setLeaf('c1', s.branchRevision + 1);
        return t.stop();
      });
      assert.ok(ticks > 0, `timers ran while the session was read: ${ticks}`);
      const after = await store.load('L');
      assert.deepEqual([after.nodes.length, after.leafId, after.branchRevision], [401, 'c1', 401]);
      await store.close();
    });
  });
}

describe('SqliteStore: no transaction across an await', () => {
  it('runs a transaction callback with no SQLite transaction open; a write from another connection meanwhile re-runs it', async () => {
    const file = freshFile();
    const store = new SqliteStore(Database, file);
    await store.importSession(linearSession(1), { sessionId: 's' });
    const other = new SqliteStore(new Database(file, { timeout: 0 })); // another connection, as another process has
    const runs = [];
    const outcome = await store.transaction('s', async (tx) => {
      const s = await tx.load();
      runs.push(s.leafId);
      assert.equal(store.database.inTransaction, false, 'no transaction is open while fn runs');
      if (runs.length === 1) await other.appendMessage('s', user('U2')); // would be SQLITE_BUSY under BEGIN IMMEDIATE ... await
      if (s.leafId !== 'A1') return 'stale';
      await tx.appendNode(checkpointNode('c1', 'A1', s.branchRevision));
      await tx.setLeaf('c1', s.branchRevision + 1);
      return 'committed';
    });
    assert.deepEqual(runs, ['A1', 'U2'], 'the first run\'s writes were dropped and fn saw the new state');
    assert.equal(outcome, 'stale');
    const s = await store.load('s');
    assert.deepEqual([s.nodes.map((n) => n.id), s.leafId], [['U1', 'A1', 'U2'], 'U2']);
    await other.close();
    other.database.close();
    await store.close();
  });

  it('reads a long session in slices inside fn; a write from another connection between slices runs fn again, though it wrote nothing', async () => {
    const file = freshFile();
    const store = new SqliteStore(Database, file);
    await store.importSession(linearSession(200, 1000), { sessionId: 's' }); // about 4 MB of node text
    const other = new SqliteStore(new Database(file));
    const loads = [];
    let runs = 0;
    const count = await store.transaction('s', async (tx) => {
      const ticks = ticker();
      // The first run: another process appends while the session is being read.
      if (++runs === 1) setTimeout(() => other.appendMessage('s', user('X1')), 0);
      try {
        const s = await tx.load();
        loads.push({ ticks: ticks.stop(), last: s.nodes[s.nodes.length - 1].id });
        return s.nodes.length;
      } finally {
        ticks.stop();
      }
    });
    assert.deepEqual([runs, loads.length], [2, 1], 'the torn read ended the first run before it finished');
    assert.ok(loads[0].ticks > 0, `timers ran while the session was read: ${loads[0].ticks}`);
    assert.equal(loads[0].last, 'X1', 'the second run read the session with the other connection\'s node');
    assert.equal(count, 401);
    await other.close();
    other.database.close();
    await store.close();
  });

  it('gives up with store-conflict (retryable) when the session keeps changing under every attempt', async () => {
    const file = freshFile();
    const store = new SqliteStore(Database, file);
    await store.importSession(linearSession(1), { sessionId: 's' });
    const other = new SqliteStore(new Database(file));
    let runs = 0;
    await assert.rejects(
      store.transaction('s', async (tx) => {
        const s = await tx.load();
        runs++;
        await other.appendMessage('s', user(`X${runs}`));
        await tx.appendNode(checkpointNode(`c${runs}`, s.leafId, s.branchRevision));
      }),
      (error) => error.code === 'store-conflict' && error.retryable === true,
    );
    assert.equal(runs, 4);
    assert.equal((await store.load('s')).nodes.filter((n) => n.checkpoint).length, 0, 'no attempt wrote anything');
    await other.close();
    other.database.close();
    await store.close();
  });

  it('waits for a locked file asynchronously, then answers store-busy; never a raw SQLITE_BUSY', async () => {
    const file = freshFile();
    const store = new SqliteStore(Database, file, { busyTimeoutMs: 300 });
    await store.importSession(linearSession(1), { sessionId: 's' });
    const holder = new Database(file);
    holder.exec('BEGIN IMMEDIATE'); // another process mid-write, for longer than the store waits
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      await assert.rejects(store.appendMessage('s', user('U2')), (error) => {
        assert.equal(error.code, 'store-busy');
        assert.equal(error.retryable, true);
        return true;
      });
      assert.ok(ticks > 0, 'timers ran while the store waited: the thread was not blocked');
      // The lock goes away while a store is retrying (the default 5 s): the call succeeds.
      const patient = new SqliteStore(new Database(file));
      setTimeout(() => holder.exec('COMMIT'), 50);
      const head = await patient.appendMessage('s', user('U2'));
      assert.equal(head.leafId, 'U2');
      await patient.close();
      patient.database.close();
    } finally {
      clearInterval(ticker);
      if (holder.inTransaction) holder.exec('ROLLBACK');
      holder.close();
    }
    await store.close();
  });

  it('shares one connection between the stores of one file in one process', async () => {
    const file = freshFile();
    const a = new SqliteStore(Database, file);
    const b = new SqliteStore(Database, relative(process.cwd(), file)); // the same file by another path
    assert.equal(a.database, b.database, 'one connection');
    await a.importSession(linearSession(1), { sessionId: 's' });
    // A slow transaction on one store and an append on the other: the append waits its turn, no busy error.
    const gate = deferred();
    const slow = a.transaction('s', async (tx) => {
      const s = await tx.load();
      await gate.promise;
      await tx.appendNode(checkpointNode('c1', s.leafId, s.branchRevision));
      await tx.setLeaf('c1', s.branchRevision + 1);
    });
    const append = b.appendMessage('s', user('U2'));
    setTimeout(() => gate.resolve(), 20);
    await slow;
    assert.equal((await append).node.parentId, 'c1', 'the append came after the commit');
    await a.close();
    assert.equal(b.database.open, true, 'still used by the other store');
    assert.equal((await b.load('s')).leafId, 'U2');
    const database = b.database;
    await b.close();
    assert.equal(database.open, false, 'closed with the last store');
    const c = new SqliteStore(Database, file); // a new connection after both closed
    assert.notEqual(c.database, database);
    assert.equal((await c.load('s')).leafId, 'U2');
    await c.close();
  });
});

/** The version 1 schema, as files written before session metadata have it. */
const SCHEMA_V1 = [
  'CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, leaf_id TEXT, branch_revision INTEGER NOT NULL DEFAULT 0, base_session_id TEXT, base_node_id TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)',
  "CREATE TABLE IF NOT EXISTS nodes (session_id TEXT NOT NULL REFERENCES sessions(id), id TEXT NOT NULL, parent_id TEXT, kind TEXT NOT NULL CHECK (kind IN ('message', 'checkpoint')), json TEXT NOT NULL, created_at INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (session_id, id))",
  'CREATE UNIQUE INDEX IF NOT EXISTS nodes_by_seq ON nodes (session_id, seq)',
  'CREATE INDEX IF NOT EXISTS nodes_by_parent ON nodes (session_id, parent_id)',
];

/** A file as version 1 wrote it: session `old` (u1, a1) forked into `old-fork`. */
function writeV1File() {
  const file = freshFile();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  for (const statement of SCHEMA_V1) db.exec(statement);
  db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?)').run('old', 'a1', 2, null, null, 1000, 2000);
  db.prepare('INSERT INTO sessions VALUES (?, ?, ?, ?, ?, ?, ?)').run('old-fork', 'a1', 0, 'old', 'a1', 3000, 3000);
  const insert = db.prepare('INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?, ?)');
  insert.run('old', 'u1', null, 'message', JSON.stringify({ ...user('u1'), parentId: null }), 1000, 1);
  insert.run('old', 'a1', 'u1', 'message', JSON.stringify({ ...assistant('a1'), parentId: 'u1' }), 2000, 2);
  db.pragma('user_version = 1');
  db.close();
  return file;
}

const openers = [
  ['SqliteStore', (file) => new SqliteStore(Database, file)],
  ['ZoteroDBStore', (file) => new ZoteroDBStore(new ZoteroDBConnectionShim(Database, file), { closeConnection: true })],
];
for (const [name, open] of openers) {
  describe(`${name}: a file written by schema version 1`, () => {
    it('opens, migrates to the current version and keeps every session', async () => {
      const file = writeV1File();
      const store = open(file);
      assert.deepEqual(await store.load('old'), {
        nodes: [{ ...user('u1'), parentId: null }, { ...assistant('a1'), parentId: 'u1' }], leafId: 'a1', branchRevision: 2,
      });
      assert.deepEqual((await store.load('old-fork')).nodes.map((n) => n.id), ['u1', 'a1']);
      const info = await store.getSessionInfo('old');
      assert.deepEqual([info.title, info.appKey, info.createdAt, info.updatedAt], [null, null, 1000, 2000]);
      assert.deepEqual(await store.listSessions(), ['old-fork', 'old']);
      await store.setSessionInfo('old', { title: 'migrated', appKey: 'ITEM' });
      assert.equal((await store.getOrCreateSession({ appKey: 'ITEM' })).sessionId, 'old');
      await store.updateMessageParts('old', 'a1', [{ type: 'text', text: 'fixed' }]);
      assert.equal((await store.load('old-fork')).branchRevision, 1, 'forks written by version 1 are found too');
      await store.close();
      const db = new Database(file);
      assert.equal(db.pragma('user_version', { simple: true }), SESSION_SCHEMA_VERSION);
      assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
      db.close();
    });

    it('refuses a file from a newer version with unsupported-schema, untouched', async () => {
      const file = writeV1File();
      const db = new Database(file);
      db.pragma(`user_version = ${SESSION_SCHEMA_VERSION + 1}`);
      db.close();
      const store = open(file);
      await assert.rejects(store.load('old'), { code: 'unsupported-schema' });
      await store.close();
      const after = new Database(file);
      assert.equal(after.pragma('user_version', { simple: true }), SESSION_SCHEMA_VERSION + 1);
      assert.equal(after.prepare('SELECT COUNT(*) AS n FROM nodes').get().n, 2);
      after.close();
    });
  });
}

describe('ZoteroDBStore: executeTransaction is never held across an await', () => {
  it('runs a transaction callback outside executeTransaction, so the plugin\'s other writes go on meanwhile', async () => {
    const connection = new ZoteroDBConnectionShim(Database, freshFile());
    const store = new ZoteroDBStore(connection);
    await store.importSession(linearSession(1), { sessionId: 's' });
    await connection.queryAsync('CREATE TABLE plugin_notes (note TEXT)');
    const result = await store.transaction('s', async (tx) => {
      const s = await tx.load();
      assert.equal(connection.inTransaction(), false, 'no Zotero transaction while fn runs');
      // Another part of the plugin writes in its own transaction (would wait 30 s, then time out, before).
      await connection.executeTransaction(async () => connection.queryAsync("INSERT INTO plugin_notes VALUES ('x')"));
      await tx.appendNode(checkpointNode('c1', s.leafId, s.branchRevision));
      await tx.setLeaf('c1', s.branchRevision + 1);
      return 'committed';
    });
    assert.equal(result, 'committed');
    assert.equal((await store.load('s')).leafId, 'c1');
    await store.close();
    await connection.closeDatabase();
  });

  it('answers store-busy when another transaction holds the connection past Zotero\'s wait timeout', async () => {
    const connection = new ZoteroDBConnectionShim(Database, freshFile(), { waitTimeout: 100 });
    const store = new ZoteroDBStore(connection, { closeConnection: true });
    await store.importSession(linearSession(1), { sessionId: 's' });
    const gate = deferred();
    const holding = connection.executeTransaction(() => gate.promise); // e.g. a slow await inside the plugin's own transaction
    await assert.rejects(store.appendMessage('s', user('U2')), (error) => error.code === 'store-busy' && error.retryable === true);
    gate.resolve();
    await holding;
    assert.equal((await store.appendMessage('s', user('U2'))).leafId, 'U2', 'works again once the transaction ended');
    await store.close();
  });
});

describe('ZoteroDBStore: stores on one connection', () => {
  it('share one queue, and the connection closes with the last of them', async () => {
    const connection = new ZoteroDBConnectionShim(Database, freshFile());
    let closes = 0;
    const close = connection.closeDatabase.bind(connection);
    connection.closeDatabase = async () => {
      closes++;
      return close();
    };
    const a = new ZoteroDBStore(connection, { closeConnection: true });
    const b = new ZoteroDBStore(connection);
    await a.importSession(linearSession(1), { sessionId: 's' });
    const gate = deferred();
    const slow = a.transaction('s', async (tx) => {
      const s = await tx.load();
      await gate.promise;
      await tx.appendNode(checkpointNode('c1', s.leafId, s.branchRevision));
      await tx.setLeaf('c1', s.branchRevision + 1);
    });
    const read = b.load('s'); // waits its turn: never reads in the middle of a's write
    setTimeout(() => gate.resolve(), 20);
    await slow;
    assert.equal((await read).leafId, 'c1');
    await a.close();
    assert.equal(closes, 0, 'still used by the other store');
    assert.equal((await b.load('s')).leafId, 'c1');
    await b.close();
    assert.equal(closes, 1, 'closed with the last store, as the first one asked');
  });
});

// Issue 23, item 6: a file from a newer version is refused before anything changes it: opening it
// switched a rollback-journal file to WAL first (its header bytes changed).
describe('a file from a newer schema stays byte-identical', () => {
  for (const [name, open] of openers) {
    it(`${name}: unsupported-schema, and the file is untouched (no WAL switch, no migration)`, async () => {
      const file = freshFile();
      const db = new Database(file);
      assert.equal(db.pragma('journal_mode', { simple: true }), 'delete');
      for (const statement of compaction.SESSION_SCHEMA_STATEMENTS) db.exec(statement);
      db.prepare('INSERT INTO sessions (id, leaf_id, branch_revision, created_at, updated_at) VALUES (?, ?, ?, ?, ?)').run('future', null, 0, 1, 1);
      db.pragma(`user_version = ${SESSION_SCHEMA_VERSION + 1}`);
      db.close();
      const bytes = readFileSync(file);
      const store = open(file);
      await assert.rejects(store.load('future'), { code: 'unsupported-schema' });
      await assert.rejects(store.createSession({ sessionId: 'new' }), { code: 'unsupported-schema' });
      await store.close();
      assert.ok(readFileSync(file).equals(bytes), 'the file is byte-identical');
      assert.equal(existsSync(`${file}-wal`), false, 'no WAL file was made');
      const after = new Database(file, { readonly: true });
      assert.equal(after.pragma('journal_mode', { simple: true }), 'delete');
      after.close();
    });
  }
});
