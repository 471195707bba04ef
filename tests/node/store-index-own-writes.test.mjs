// SqliteStore takes its own committed writes into its held indexes as it writes them, so that a use
// after them reads nothing but the change token and the connection's change count (issue 42: a
// send through the store as fast as pi's). These tests watch the statements the store runs on its
// connection, and check that the index answers as a fresh load() does after the store's writes, a
// write that rolled back, the app's own statements on the connection, another connection's write
// and a fork.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compaction, MODEL, linearSession, userMessage, assistantMessage } from './runner-fixtures.mjs';

const { SqliteStore } = compaction;

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-own-writes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `s${++files}.sqlite`);

/**
 * An open Database whose statements say what they run (`log`), and that can be made to fail one
 * statement (`failNext(pattern)`: the next statement or exec whose SQL matches throws, as a full
 * disk would).
 */
function watchedDatabase(file) {
  const db = new Database(file);
  const log = [];
  let failing = null;
  const check = (sql) => {
    log.push(sql);
    if (failing && failing.test(sql)) {
      failing = null;
      throw Object.assign(new Error(`injected failure: ${sql}`), { code: 'SQLITE_FULL' });
    }
  };
  const prepare = db.prepare.bind(db);
  db.prepare = (sql) => {
    const statement = prepare(sql);
    return {
      get: (...args) => (check(sql), statement.get(...args)),
      all: (...args) => (check(sql), statement.all(...args)),
      run: (...args) => (check(sql), statement.run(...args)),
    };
  };
  const exec = db.exec.bind(db);
  db.exec = (sql) => (check(sql), exec(sql));
  return { db, log, failNext: (pattern) => (failing = pattern) };
}

/** What the index answers, and the SQL the use ran. */
async function viaIndex(store, log, id) {
  const from = log.length;
  const answer = await store.withSessionIndex(id, (view) => {
    assert.ok(view, 'the index holds the session');
    return {
      leafId: view.leafId,
      branchRevision: view.branchRevision,
      projection: view.project(),
      session: { ...view.toSession() },
      preflight: view.plan(MODEL, { mode: 'preflight', draft: 'one more question about the sources' }),
    };
  });
  return { answer, ran: log.slice(from) };
}

async function viaLoad(store, id) {
  const session = await store.load(id);
  return {
    leafId: session.leafId,
    branchRevision: session.branchRevision,
    projection: compaction.project(session),
    session,
    preflight: compaction.plan(session, MODEL, { mode: 'preflight', draft: 'one more question about the sources' }),
  };
}

/** The index answers as load() does; returns the SQL the use ran. */
async function assertCurrent(store, log, id) {
  const { answer, ran } = await viaIndex(store, log, id);
  assert.deepStrictEqual(answer, await viaLoad(store, id));
  return ran;
}

/** A use that read nothing but the change token and count: no transaction, no session row, no node rows. */
function assertReadNothing(ran) {
  assert.equal(ran.length, 2, `two statements, got: ${ran.join(' | ')}`);
  assert.match(ran[0], /data_version/);
  assert.match(ran[1], /total_changes/);
}

/** A use that caught up in a read (the session row read again). */
function assertCaughtUp(ran) {
  assert.ok(ran.includes('BEGIN'), `a read transaction, got: ${ran.join(' | ')}`);
  assert.ok(ran.some((sql) => /FROM sessions WHERE id/.test(sql)), 'the session row read');
}

const pendingTool = (id, parentId) => ({
  id,
  parentId,
  role: 'assistant',
  parts: [{ type: 'tool-zoteroSearch', toolCallId: `call-${id}`, state: 'input-available', input: { q: 'sleep' } }],
});
const toolDone = (id) => [{ type: 'tool-zoteroSearch', toolCallId: `call-${id}`, state: 'output-available', input: { q: 'sleep' }, output: 'two items' }];

const turn = (n, parentId) => [
  userMessage(`U${n}`, parentId, `question ${n}: which pages report the effect size?`),
  assistantMessage(`A${n}`, `U${n}`, `answer ${n}: pages 12 and 14 (Table 3).`),
];

describe('SqliteStore: its own writes taken into the held index as they commit', () => {
  it('a use after the store\'s appends, a leaf move, a retry and an edit reads nothing and answers as load()', async () => {
    const { db, log } = watchedDatabase(freshFile());
    const store = new SqliteStore(db);
    const { sessionId: id } = await store.importSession(linearSession(4));
    assertCaughtUp(await assertCurrent(store, log, id)); // the first use builds the index
    assertReadNothing(await assertCurrent(store, log, id));
    let parent = 'A4';
    for (let n = 5; n <= 7; n++) {
      for (const node of turn(n, parent)) await store.appendMessage(id, node);
      parent = `A${n}`;
      assertReadNothing(await assertCurrent(store, log, id));
    }
    await store.moveLeaf(id, 'A5');
    assertReadNothing(await assertCurrent(store, log, id));
    await store.retry(id, 'U6', { id: 'A6b', role: 'assistant', parts: [{ type: 'text', text: 'answer 6, again' }] });
    assertReadNothing(await assertCurrent(store, log, id));
    await store.edit(id, 'A5', { id: 'U6e', role: 'user', parts: [{ type: 'text', text: 'question 6, said differently' }] });
    assertReadNothing(await assertCurrent(store, log, id));
    await store.retry(id, 'U6'); // back to an answer already there: the leaf moves
    assertReadNothing(await assertCurrent(store, log, id));
    await store.close();
  });

  it('a write that rolled back (a statement or the commit failed) is not in the index', async () => {
    const { db, log, failNext } = watchedDatabase(freshFile());
    const store = new SqliteStore(db);
    const { sessionId: id } = await store.importSession(linearSession(3));
    await assertCurrent(store, log, id);
    // The row is inserted, then moving the head fails: the transaction rolls back.
    failNext(/^UPDATE sessions SET leaf_id/);
    await assert.rejects(store.appendMessage(id, userMessage('U4', 'A3', 'rolled back')), { code: 'SQLITE_FULL' });
    await assertCurrent(store, log, id);
    assert.equal((await store.load(id)).nodes.length, 6);
    // Every statement ran, then the commit failed.
    failNext(/^COMMIT$/);
    await assert.rejects(store.appendMessage(id, userMessage('U4', 'A3', 'rolled back at the commit')), { code: 'SQLITE_FULL' });
    await assertCurrent(store, log, id);
    // The same ids written for good afterwards are in it once, with the text that stayed.
    for (const node of turn(4, 'A3')) await store.appendMessage(id, node);
    await assertCurrent(store, log, id);
    const texts = await store.withSessionIndex(id, (view) => view.toSession().nodes.filter((node) => node.id === 'U4').map((node) => node.parts[0].text));
    assert.deepStrictEqual(texts, ['question 4: which pages report the effect size?']);
    assertReadNothing(await assertCurrent(store, log, id));
    await store.close();
  });

  it('the app\'s own statements on the connection are seen (the connection\'s change count moved)', async () => {
    const { db, log } = watchedDatabase(freshFile());
    const store = new SqliteStore(db);
    const { sessionId: id } = await store.importSession(linearSession(4));
    await assertCurrent(store, log, id);
    // Not through the store: no note of it, and SQLite's data_version does not move for its own connection.
    store.database.prepare('UPDATE sessions SET leaf_id = ?, branch_revision = branch_revision + 1 WHERE id = ?').run('A2', id);
    const ran = await assertCurrent(store, log, id);
    assertCaughtUp(ran);
    assert.equal((await viaIndex(store, log, id)).answer.leafId, 'A2');
    assertReadNothing(await assertCurrent(store, log, id));
    await store.close();
  });

  it('a use inside the app\'s own transaction, which then rolled back: what it read is not kept', async () => {
    const { db, log } = watchedDatabase(freshFile());
    const store = new SqliteStore(db);
    const { sessionId: id } = await store.importSession(linearSession(2));
    await assertCurrent(store, log, id);
    // The store writes inside the app's transaction, as it asked; the index reads the write there.
    db.exec('BEGIN');
    await store.appendMessage(id, userMessage('T1', 'A2', 'inside the app transaction'));
    await assertCurrent(store, log, id);
    assert.equal((await viaIndex(store, log, id)).answer.leafId, 'T1');
    db.exec('ROLLBACK');
    // Neither the leaf nor the node stays (a catch-up alone would move the leaf back and keep the node).
    await assertCurrent(store, log, id);
    assert.equal((await viaIndex(store, log, id)).answer.leafId, 'A2');
    assertReadNothing((await viaIndex(store, log, id)).ran);
    // The same id written for good afterwards, taken in as written.
    await store.appendMessage(id, userMessage('T1', 'A2', 'after the rollback'));
    assertReadNothing(await assertCurrent(store, log, id));
    // Committed by the app: the index read inside it is rebuilt once, then current.
    db.exec('BEGIN');
    await store.appendMessage(id, assistantMessage('T2', 'T1', 'inside a transaction that commits'));
    await assertCurrent(store, log, id);
    db.exec('COMMIT');
    assertCaughtUp(await assertCurrent(store, log, id));
    assertReadNothing(await assertCurrent(store, log, id));
    await store.close();
  });

  it('another connection\'s write is seen, before and after the store\'s own', async () => {
    const file = freshFile();
    const { db, log } = watchedDatabase(file);
    const store = new SqliteStore(db);
    const other = new SqliteStore(new Database(file)); // its own connection, as another process has
    const { sessionId: id } = await store.importSession(linearSession(3));
    await assertCurrent(store, log, id);
    for (const node of turn(4, 'A3')) await other.appendMessage(id, node);
    assertCaughtUp(await assertCurrent(store, log, id));
    // Another connection commits, then this store writes on top: its write is not taken in alone.
    await other.appendMessage(id, userMessage('U5', 'A4', 'from the other connection'));
    await store.appendMessage(id, assistantMessage('A5', 'U5', 'answered here'));
    assertCaughtUp(await assertCurrent(store, log, id));
    await store.appendMessage(id, userMessage('U6', 'A5', 'and here again'));
    await store.appendMessage(id, pendingTool('P6', 'U6'));
    assertReadNothing(await assertCurrent(store, log, id));
    await other.updateMessageParts(id, 'P6', toolDone('P6'));
    assertCaughtUp(await assertCurrent(store, log, id));
    await other.close();
    await store.close();
  });

  it('a fork and its base held at once: a write to the base leaves the fork to its catch-up', async () => {
    const { db, log } = watchedDatabase(freshFile());
    const store = new SqliteStore(db);
    const { sessionId: base } = await store.importSession(linearSession(4));
    await store.appendMessage(base, pendingTool('P5', 'A4'));
    const { sessionId: fork } = await store.fork(base, 'P5');
    await assertCurrent(store, log, base);
    await assertCurrent(store, log, fork);
    // An append to the fork is the fork's alone; the base's index stays current without a read.
    await store.appendMessage(fork, assistantMessage('F1', 'P5', 'on the fork'));
    assertReadNothing(await assertCurrent(store, log, fork));
    assertReadNothing(await assertCurrent(store, log, base));
    // An in-place update of a node the fork inherits from its base.
    await store.updateMessageParts(base, 'P5', toolDone('P5'));
    assertCaughtUp(await assertCurrent(store, log, fork));
    assertCaughtUp(await assertCurrent(store, log, base));
    await store.appendMessage(base, userMessage('U6', 'P5', 'on the base'));
    assertReadNothing(await assertCurrent(store, log, base));
    assertCaughtUp(await assertCurrent(store, log, fork));
    await store.close();
  });
});
