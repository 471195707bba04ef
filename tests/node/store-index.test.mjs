// The store-held index of an open session (SessionStoreBase#withSessionIndex) and the controller
// planning through it: its answers equal those of a fresh load() (and of the runner path) on every
// store, after the store's own writes, other connections' writes, forks, in-place updates and deletes.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compaction, MemoryStore, MODEL, SMALL_MODEL, linearSession, userMessage, assistantMessage, validSummary } from './runner-fixtures.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';

const { SqliteStore, ZoteroDBStore, CompactionController } = compaction;
const { syntheticSession } = await import('../fixtures/session-generator.mjs');

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-store-index-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `s${++files}.sqlite`);

const BACKENDS = [
  { name: 'MemoryStore', open: () => new MemoryStore() },
  { name: 'SqliteStore', open: () => new SqliteStore(Database, freshFile()) },
  { name: 'ZoteroDBStore', open: () => new ZoteroDBStore(new ZoteroDBConnectionShim(Database, freshFile()), { closeConnection: true }) },
];

/** What the index answers now, through withSessionIndex. */
const viaIndex = (store, id, model = MODEL) =>
  store.withSessionIndex(id, (view) => {
    assert.ok(view, 'the index holds the session');
    return {
      leafId: view.leafId,
      branchRevision: view.branchRevision,
      projection: view.project(),
      session: { ...view.toSession() },
      plan: view.plan(model, { mode: 'auto' }),
      preflight: view.plan(model, { mode: 'preflight', draft: 'one more question about the sources' }),
    };
  });

/** The same answers from a fresh load(). */
async function viaLoad(store, id, model = MODEL) {
  const session = await store.load(id);
  return {
    leafId: session.leafId,
    branchRevision: session.branchRevision,
    projection: compaction.project(session),
    session,
    plan: compaction.plan(session, model, { mode: 'auto' }),
    preflight: compaction.plan(session, model, { mode: 'preflight', draft: 'one more question about the sources' }),
  };
}

/** Runs `fn` with Date.now frozen: sessions made in it share their createdAt. */
async function inOneMillisecond(fn) {
  const realNow = Date.now;
  Date.now = () => 1_700_000_000_000;
  try {
    return await fn();
  } finally {
    Date.now = realNow;
  }
}

async function assertCurrent(store, id, model = MODEL) {
  assert.deepStrictEqual(await viaIndex(store, id, model), await viaLoad(store, id, model));
}

const pendingTool = (id, parentId) => ({
  id,
  parentId,
  role: 'assistant',
  parts: [{ type: 'tool-zoteroSearch', toolCallId: `call-${id}`, state: 'input-available', input: { q: 'sleep' } }],
});

const cjkTurn = (n, parentId) => [
  userMessage(`CU${n}`, parentId, `这篇论文的方法部分讨论了睡眠与记忆的关系吗？第${n}个问题：请总结关键发现。`),
  assistantMessage(`CA${n}`, `CU${n}`, `是的。研究者比较了两组被试（${n}），结果显示睡眠剥夺会降低记忆巩固；日本語の要約もあります。`),
];

for (const backend of BACKENDS) {
  describe(`${backend.name}: store-held index`, () => {
    it('answers as load() does, after its own appends, leaf moves, updates and a checkpoint', async () => {
      const store = backend.open();
      const { sessionId: id } = await store.importSession(syntheticSession({ messages: 40, branches: true, checkpoints: 1, seed: 3 }));
      await assertCurrent(store, id);
      const head = await store.appendMessage(id, userMessage('N1', undefined, 'a new question'));
      await assertCurrent(store, id);
      await store.appendMessage(id, pendingTool('N2', head.node.id));
      await assertCurrent(store, id);
      // The tool result arrives: an in-place update of a node the index holds.
      await store.updateMessageParts(id, 'N2', [{ type: 'tool-zoteroSearch', toolCallId: 'call-N2', state: 'output-available', input: { q: 'sleep' }, output: { items: 3 } }]);
      await assertCurrent(store, id);
      await store.moveLeaf(id, 'N1');
      await assertCurrent(store, id);
      await store.edit(id, head.node.parentId, userMessage('N1b', undefined, 'the question, edited'));
      await assertCurrent(store, id);
      for (const turn of cjkTurn(1, 'N1b')) await store.appendMessage(id, turn);
      await assertCurrent(store, id, SMALL_MODEL);
      await store.close();
    });

    it('several rows between two uses: a chain under the leaf, a branch elsewhere, a leaf moved into them', async () => {
      const store = backend.open();
      const { sessionId: id } = await store.importSession(linearSession(3));
      await assertCurrent(store, id);
      await store.appendMessage(id, userMessage('C1', 'A3', 'one'));
      await store.appendMessage(id, assistantMessage('C2', 'C1', 'two'));
      await store.appendMessage(id, userMessage('C3', 'C2', 'three'));
      await assertCurrent(store, id); // down a chain of new rows
      await store.appendMessage(id, userMessage('B1', 'A1', 'a branch'));
      await store.appendMessage(id, assistantMessage('B2', 'B1', 'on it'));
      await assertCurrent(store, id); // new rows under an old node, not the leaf
      await store.appendMessage(id, userMessage('D1', 'B2', 'deeper'));
      await store.appendMessage(id, assistantMessage('D2', 'D1', 'deeper still'));
      await store.moveLeaf(id, 'D1');
      await assertCurrent(store, id); // the leaf is a new row above the newest
      await store.close();
    });

    it('a fork sees its inherited chain, and an update of an inherited node', async () => {
      const store = backend.open();
      const { sessionId: id } = await store.importSession(linearSession(4));
      await store.appendMessage(id, pendingTool('T1', 'A4'));
      const fork = await store.fork(id, 'T1');
      await store.appendMessage(fork.sessionId, userMessage('F1', 'T1', 'on the fork'));
      await assertCurrent(store, fork.sessionId);
      await assertCurrent(store, id);
      await store.updateMessageParts(id, 'T1', [{ type: 'tool-zoteroSearch', toolCallId: 'call-T1', state: 'output-available', input: { q: 'sleep' }, output: 'done' }]);
      await assertCurrent(store, fork.sessionId);
      await assertCurrent(store, id);
      // A fork of the fork, through two levels of inheritance.
      const deeper = await store.fork(fork.sessionId, 'F1');
      await assertCurrent(store, deeper.sessionId);
      await store.close();
    });

    it('a fork holding its own node under an id its base also has: an update of the base node leaves the fork\'s', async () => {
      // Found by the store model test (invariant 6): the fork's own m6 was replaced with the base's m6.
      const store = backend.open();
      const { sessionId: base } = await store.importSession(linearSession(2)); // U1 A1 U2 A2
      const fork = await store.fork(base, 'A1');
      // The fork's own U2 and A2, with the parents the base's have.
      await store.appendMessage(fork.sessionId, userMessage('U2', 'A1', 'the fork\'s own U2'));
      await store.appendMessage(fork.sessionId, assistantMessage('A2', 'U2', 'the fork\'s own A2'));
      await assertCurrent(store, fork.sessionId);
      await store.updateMessageParts(base, 'A2', [{ type: 'text', text: 'the base\'s A2, updated' }]);
      await assertCurrent(store, fork.sessionId);
      await assertCurrent(store, base);
      await store.close();
    });

    it('a deleted session frees its index and is not answered', async () => {
      const store = backend.open();
      const { sessionId: id } = await store.importSession(linearSession(3));
      await assertCurrent(store, id);
      await store.deleteSession(id);
      await assert.rejects(store.withSessionIndex(id, () => 1), { code: 'unknown-session' });
      // Recreated under the same id with other content: answered from the new rows.
      await store.importSession(linearSession(2), { sessionId: id });
      await assertCurrent(store, id);
      await store.close();
    });

    it('a session without a leaf, or a node the index does not hold, gives no view (load() decides)', async () => {
      const store = backend.open();
      const empty = await store.createSession();
      assert.equal(await store.withSessionIndex(empty.sessionId, (view) => view), null);
      const deep = linearSession(2);
      let nested = { leaf: true };
      for (let i = 0; i < 70; i++) nested = { nested };
      deep.nodes[1].metadata = nested;
      const { sessionId: id } = await store.importSession(deep);
      assert.equal(await store.withSessionIndex(id, (view) => view), null);
      await store.close();
    });

    it('hands out fresh objects every time', async () => {
      const store = backend.open();
      const { sessionId: id } = await store.importSession(linearSession(3));
      const [a, b] = [await viaIndex(store, id), await viaIndex(store, id)];
      assert.deepStrictEqual(a, b);
      assert.notEqual(a.projection.messages[0], b.projection.messages[0]);
      assert.notEqual(a.session.nodes[0], b.session.nodes[0]);
      a.session.nodes[0].parts[0].text = 'changed by the caller';
      a.projection.messages[1].parts[0].text = 'changed by the caller';
      await assertCurrent(store, id);
      await store.close();
    });
  });
}

describe('SqliteStore: writes through other connections', () => {
  it('another connection (another process) appending, updating in place, moving the leaf and deleting', async () => {
    const file = freshFile();
    const store = new SqliteStore(Database, file);
    const other = new SqliteStore(new Database(file)); // its own connection, as another process has
    const { sessionId: id } = await store.importSession(linearSession(4));
    await assertCurrent(store, id);
    await other.appendMessage(id, pendingTool('P1', 'A4'));
    await assertCurrent(store, id);
    // Same length, same head move as an append would show: only the change token tells.
    await other.updateMessageParts(id, 'P1', [{ type: 'tool-zoteroSearch', toolCallId: 'call-P1', state: 'output-available', input: { q: 'sleep' }, output: 'x' }]);
    await assertCurrent(store, id);
    await other.transaction(id, async (tx) => {
      await tx.appendNode(userMessage('P2', 'P1', 'appended in a transaction, leaf not moved'));
    });
    await assertCurrent(store, id);
    await other.moveLeaf(id, 'A2');
    await assertCurrent(store, id);
    await other.deleteSession(id);
    await assert.rejects(store.withSessionIndex(id, () => 1), { code: 'unknown-session' });
    await other.importSession(linearSession(4), { sessionId: id });
    await assertCurrent(store, id);
    await other.close();
    await store.close();
  });

  it('another connection deleting and recreating the session with the same head in the same millisecond', async () => {
    const file = freshFile();
    const store = new SqliteStore(Database, file);
    const other = new SqliteStore(new Database(file));
    await inOneMillisecond(async () => { // the same createdAt for both sessions
      const { sessionId: id } = await store.importSession(linearSession(4));
      await assertCurrent(store, id);
      await other.deleteSession(id);
      const recreated = linearSession(4);
      recreated.nodes[7] = assistantMessage('A4', 'U4', 'another answer, same id, same head');
      await other.importSession(recreated, { sessionId: id });
      await assertCurrent(store, id);
    });
    await other.close();
    await store.close();
  });

  it('stores opened from the class on one file share the connection and its indexes', async () => {
    const file = freshFile();
    const a = new SqliteStore(Database, file);
    const b = new SqliteStore(Database, file);
    const { sessionId: id } = await a.importSession(linearSession(3));
    await assertCurrent(a, id);
    await b.appendMessage(id, pendingTool('S1', 'A3'));
    await b.updateMessageParts(id, 'S1', [{ type: 'tool-zoteroSearch', toolCallId: 'call-S1', state: 'output-error', input: { q: 'x' }, errorText: 'offline' }]);
    await assertCurrent(a, id);
    await b.close();
    await assertCurrent(a, id);
    await a.close();
  });

  it('two stores wrapping one Database instance see each other\'s in-place updates and deletes', async () => {
    // data_version does not move for a connection's own writes: the stores must share their notes.
    const db = new Database(freshFile());
    const a = new SqliteStore(db);
    const b = new SqliteStore(db);
    const { sessionId: id } = await a.importSession(linearSession(3));
    await b.appendMessage(id, pendingTool('S1', 'A3'));
    await assertCurrent(a, id);
    await b.updateMessageParts(id, 'S1', [{ type: 'tool-zoteroSearch', toolCallId: 'call-S1', state: 'output-available', input: { q: 'x' }, output: 'found' }]);
    await assertCurrent(a, id);
    await inOneMillisecond(async () => {
      const { sessionId: other } = await a.importSession(linearSession(3));
      await assertCurrent(a, other);
      await b.deleteSession(other);
      const recreated = linearSession(3);
      recreated.nodes[5] = assistantMessage('A3', 'U3', 'another answer, same id, same head');
      await b.importSession(recreated, { sessionId: other });
      await assertCurrent(a, other);
    });
    await b.close();
    await a.close();
    db.close();
  });

  it('ZoteroDBStore: another connection writing between the change token and the session row', async () => {
    // Zotero's reads run outside one read transaction: a write may land in the middle of a catch-up.
    const file = freshFile();
    const connection = new ZoteroDBConnectionShim(Database, file);
    const store = new ZoteroDBStore(connection, { closeConnection: true });
    const other = new SqliteStore(Database, file);
    const { sessionId: id } = await store.importSession(linearSession(3));
    await store.appendMessage(id, pendingTool('S1', 'A3'));
    await assertCurrent(store, id);
    let armed = true;
    const query = connection.queryAsync.bind(connection);
    connection.queryAsync = async (sql, params) => {
      if (armed && /FROM sessions WHERE id = \?/.test(sql)) {
        armed = false;
        await other.updateMessageParts(id, 'S1', [{ type: 'tool-zoteroSearch', toolCallId: 'call-S1', state: 'output-available', input: { q: 'x' }, output: 'written meanwhile' }]);
      }
      return query(sql, params);
    };
    const seen = await store.withSessionIndex(id, (view) => view && view.project().messages.at(-1).parts[0].output);
    assert.equal(armed, false, 'the write landed during the catch-up');
    assert.equal(seen, 'written meanwhile');
    await assertCurrent(store, id);
    await other.close();
    await store.close();
  });

  it('close() frees the indexes; at most a few are held per connection', async () => {
    const store = new MemoryStore();
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push((await store.importSession(linearSession(2))).sessionId);
    for (const id of ids) await assertCurrent(store, id);
    for (const id of ids.reverse()) await assertCurrent(store, id); // evicted ones are rebuilt
    await store.releaseSessionIndex(ids[0]);
    await assertCurrent(store, ids[0]);
    await store.close();
    await assert.rejects(store.withSessionIndex(ids[0], () => 1), { code: 'store-closed' });
  });
});

// ---- A large session's first use: its index is built in slices (issue 42) --------------------------

/** Counts the callbacks of a setTimeout(0) chain until stopped: each one ran between two slices of work. */
function timerChain() {
  const chain = { ticks: 0, running: true };
  const tick = () => {
    chain.ticks++;
    if (chain.running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  return chain;
}

/** Over SLICED_FROM_CHARS (256 KiB) of node text, with branches and a checkpoint. */
const largeSession = () => syntheticSession({ messages: 120, branches: true, checkpoints: 1, seed: 11 });

describe('a large session: its store-held index is built in slices', () => {
  for (const backend of BACKENDS) {
    it(`${backend.name}: timers run during its first use, and it answers as load() does, then after writes`, async () => {
      const store = backend.open();
      const { sessionId: id } = await store.importSession(largeSession());
      const chain = timerChain();
      const first = await viaIndex(store, id);
      chain.running = false;
      assert.ok(chain.ticks >= 1, 'the event loop ran while the index was built');
      assert.deepStrictEqual(first, await viaLoad(store, id));
      // The index built in slices is the one held: later uses catch it up.
      const head = await store.appendMessage(id, userMessage('L1', undefined, 'one more question'));
      await assertCurrent(store, id);
      await store.appendMessage(id, pendingTool('L2', head.node.id));
      await store.updateMessageParts(id, 'L2', [{ type: 'tool-zoteroSearch', toolCallId: 'call-L2', state: 'output-available', input: { q: 'sleep' }, output: 'found' }]);
      await assertCurrent(store, id);
      await store.close();
    });
  }

  it('a small session is built in one piece, as before', async () => {
    const store = new MemoryStore();
    const { sessionId: id } = await store.importSession(linearSession(3));
    const chain = timerChain();
    await assertCurrent(store, id);
    chain.running = false;
    assert.equal(chain.ticks, 0);
    await store.close();
  });

  it('SqliteStore: the rows are read in pages with timers between them; a fork in one read', async () => {
    const db = new Database(freshFile());
    const pages = [];
    // Node text read before each page: the pauses begin once it passes 256 KiB (SLICED_FROM_CHARS).
    const charsBefore = [];
    const ticksAt = []; // the timer chain's ticks when each page is read
    /** @type {{ ticks: number, running: boolean } | null} */
    let chain = null;
    let chars = 0;
    const prepare = db.prepare.bind(db);
    db.prepare = (sql) => {
      const statement = prepare(sql);
      if (!/ LIMIT \?$/.test(sql)) return statement;
      const all = statement.all.bind(statement);
      statement.all = (...params) => {
        const rows = all(...params);
        pages.push(rows.length);
        charsBefore.push(chars);
        ticksAt.push(chain?.ticks ?? 0);
        for (const r of rows) chars += r.json.length;
        return rows;
      };
      return statement;
    };
    const store = new SqliteStore(db);
    // Over 4 KiB of text a message: the first page (64 rows) passes 256 KiB, so every later page waits for a timer.
    const session = largeSession();
    for (const node of session.nodes) if (Array.isArray(node.parts)) node.parts.push({ type: 'text', text: 'padding '.repeat(600) });
    const { sessionId: id } = await store.importSession(session);
    chain = timerChain();
    const first = await viaIndex(store, id);
    chain.running = false;
    const rows = (await store.load(id)).nodes.length;
    assert.ok(pages.length >= 2, `several pages (${pages.join(', ')})`);
    assert.equal(pages.reduce((a, b) => a + b, 0), rows, 'every row read once');
    // How many pages a session needs depends on how fast they are read (about 8 ms each).
    const paused = charsBefore.map((c, k) => k).filter((k) => k > 0 && charsBefore[k] >= 256 * 1024);
    assert.ok(paused.length >= 1, `a page read after the first 256 KiB (${charsBefore.join(', ')})`);
    for (const k of paused) assert.ok(ticksAt[k] > ticksAt[k - 1], `a timer ran before page ${k + 1} (ticks ${ticksAt.join(', ')})`);
    assert.deepStrictEqual(first, await viaLoad(store, id));
    // A fork of it: its base's rows come with its own, in one read.
    const head = await store.appendMessage(id, userMessage('P1', undefined, 'a question to fork at'));
    const fork = await store.fork(id, head.node.id);
    await store.appendMessage(fork.sessionId, assistantMessage('P2', 'P1', 'on the fork'));
    const before = pages.length;
    await assertCurrent(store, fork.sessionId);
    assert.equal(pages.length, before, 'no page read for a fork');
    await store.close();
    db.close();
  });

  it('ZoteroDBStore: the index and a transaction\'s load read the rows in pages', async () => {
    const connection = new ZoteroDBConnectionShim(Database, freshFile());
    const pages = [];
    const query = connection.queryAsync.bind(connection);
    connection.queryAsync = async (sql, params) => {
      const rows = await query(sql, params);
      if (/ LIMIT \?$/.test(sql)) pages.push(rows.length);
      return rows;
    };
    const store = new ZoteroDBStore(connection, { closeConnection: true });
    const session = largeSession();
    for (const node of session.nodes) if (Array.isArray(node.parts)) node.parts.push({ type: 'text', text: 'padding '.repeat(600) });
    const { sessionId: id } = await store.importSession(session);
    const rows = (await store.load(id)).nodes.length;
    assert.deepStrictEqual(await viaIndex(store, id), await viaLoad(store, id));
    assert.ok(pages.length >= 2 && pages.reduce((a, b) => a + b, 0) === rows, `the index's rows in pages (${pages.join(', ')}), each once`);
    pages.length = 0;
    const loaded = await store.transaction(id, async (tx) => (await tx.load()).nodes.length);
    assert.equal(loaded, rows);
    assert.ok(pages.length >= 2 && pages.reduce((a, b) => a + b, 0) === rows, `the transaction's rows in pages (${pages.join(', ')}), each once`);
    await store.close();
  });

  it('SqliteStore: another connection writing while it is built', async () => {
    const file = freshFile();
    const store = new SqliteStore(Database, file);
    const other = new SqliteStore(new Database(file)); // its own connection, as another process has
    const { sessionId: id } = await store.importSession(largeSession());
    const leaf = (await store.load(id)).leafId;
    await store.close();
    const reopened = new SqliteStore(Database, file);
    const seen = reopened.withSessionIndex(id, (view) => view && view.project().messages.at(-1).id);
    // The first pause of the build: the rows are read, the index not yet held.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await other.appendMessage(id, userMessage('W1', leaf, 'written by another process meanwhile'));
    assert.equal(await seen, 'W1');
    await assertCurrent(reopened, id);
    await other.appendMessage(id, pendingTool('W2', 'W1'));
    await other.updateMessageParts(id, 'W2', [{ type: 'tool-zoteroSearch', toolCallId: 'call-W2', state: 'output-available', input: { q: 'x' }, output: 'y' }]);
    await assertCurrent(reopened, id);
    await other.close();
    await reopened.close();
  });
});

// ---- The controller on the index path against the runner path ------------------------------------

/** The same store seen as an app's own store: load and transaction only (the runner path). */
const runnerPath = (store) => ({ load: (id) => store.load(id), transaction: (id, fn) => store.transaction(id, fn) });

/** A store that counts its loads (the index path must not load). */
function counting(store) {
  const counts = { load: 0 };
  const wrapped = {
    load: (id) => (counts.load++, store.load(id)),
    transaction: (id, fn) => store.transaction(id, fn),
    withSessionIndex: (id, use) => store.withSessionIndex(id, use),
  };
  return { wrapped, counts };
}

/** A summarizer that records its requests and fails, so neither path writes and outcomes compare. */
function recordingSummarizer() {
  const requests = [];
  return { requests, summarize: async (request) => (requests.push(request), Promise.reject(new Error('no summaries in this test'))) };
}

/** `session.nodes` of an index-path outcome is lazy: read it so both sides compare as data. */
const materialized = (result) => JSON.parse(JSON.stringify(result));

async function bothPaths(store, id, model, act, normalize = (result) => result) {
  const { wrapped, counts } = counting(store);
  const fastSum = recordingSummarizer();
  const oldSum = recordingSummarizer();
  const fast = new CompactionController({ store: wrapped, sessionId: id, model, summarize: fastSum.summarize });
  const old = new CompactionController({ store: runnerPath(store), sessionId: id, model, summarize: oldSum.summarize });
  const fastResult = normalize(materialized(await act(fast)));
  const oldResult = normalize(materialized(await act(old)));
  assert.deepStrictEqual(fastResult, oldResult);
  // Each request has its own random delimiter token.
  const tokensOut = (requests) => JSON.parse(JSON.stringify(requests).replace(/[0-9a-f]{32}/g, 'TOKEN'));
  assert.deepStrictEqual(tokensOut(fastSum.requests), tokensOut(oldSum.requests));
  return { result: fastResult, loads: counts.load, summarized: fastSum.requests.length };
}

const SESSIONS = {
  'a linear session': () => linearSession(4),
  'a synthetic session with branches and checkpoints': () => syntheticSession({ messages: 60, branches: true, checkpoints: 2, seed: 5 }),
  'a session ending in a pending tool call': () => {
    const s = linearSession(4);
    s.nodes.push(userMessage('U5', 'A4', 'search my library'), pendingTool('A5', 'U5'));
    return { ...s, leafId: 'A5' };
  },
  'a CJK session': () => {
    const nodes = [];
    let parent = null;
    for (let n = 1; n <= 12; n++) {
      nodes.push(...cjkTurn(n, parent));
      parent = `CA${n}`;
    }
    return { nodes, leafId: parent, branchRevision: 24 };
  },
};

describe('CompactionController through the store-held index', () => {
  for (const [name, make] of Object.entries(SESSIONS)) {
    for (const model of [MODEL, SMALL_MODEL]) {
      it(`${name}, ${model.id}: submit and afterTurn equal the runner path`, async () => {
        const store = new MemoryStore();
        const { sessionId: id } = await store.importSession(make());
        const draft = userMessage('D1', undefined, 'and what about the second paper? 第二篇论文呢？');
        const sent = await bothPaths(store, id, model, (c) => c.submit(draft));
        if (sent.result.status === 'send') {
          assert.equal(sent.loads, 0, 'a send that fits neither loads nor calls the runner');
          assert.equal(sent.summarized, 0);
        }
        const turned = await bothPaths(store, id, model, (c) => c.afterTurn());
        if (turned.result.status === 'noop') assert.equal(turned.loads, 0);
        // A text draft gets a random id: compared without it.
        const withoutDraftId = (result) => {
          if (result.messages) result.messages.at(-1).id = 'draft';
          if (result.responseParentId?.startsWith('draft_')) result.responseParentId = 'draft';
          return result;
        };
        await bothPaths(store, id, model, (c) => c.submit('a draft given as text'), withoutDraftId);
        await store.close();
      });
    }
  }

  it('a fork and a draft already stored: equal to the runner path, no load', async () => {
    const store = new MemoryStore();
    const { sessionId: id } = await store.importSession(linearSession(4));
    const fork = await store.fork(id, 'A2');
    const draft = userMessage('FD', 'A2', 'asked on the fork');
    await store.appendMessage(fork.sessionId, draft);
    const leaf = await bothPaths(store, fork.sessionId, MODEL, (c) => c.submit(draft));
    assert.equal(leaf.result.status, 'send');
    assert.equal(leaf.result.stored, true);
    assert.equal(leaf.loads, 0);
    const elsewhere = await bothPaths(store, fork.sessionId, MODEL, (c) => c.submit(userMessage('U1', null, 'again')));
    assert.equal(elsewhere.result.reason, 'draft-already-stored');
    assert.equal(elsewhere.loads, 0);
    await store.close();
  });

  it('a send that needs a compaction calls the runner, with the counts of the plan made on the index', async () => {
    const store = new MemoryStore();
    const { sessionId: id } = await store.importSession(linearSession(8));
    const statuses = [];
    const controller = new CompactionController({
      store, sessionId: id, model: SMALL_MODEL, summarize: async () => validSummary(), onStatus: (s) => statuses.push(s),
    });
    const draft = userMessage('D2', undefined, 'next question');
    const planned = compaction.plan(await store.load(id), SMALL_MODEL, { mode: 'preflight', draft });
    assert.equal(planned.action, 'compact');
    const result = await controller.submit(draft);
    assert.equal(result.status, 'send');
    assert.equal(result.outcome.status, 'committed');
    const compacting = statuses.find((s) => s.status === 'compacting');
    assert.equal(compacting.foldedMessages, planned.summarizeIds.length);
    assert.equal(compacting.tokensBefore, planned.tokensBefore);
    // The checkpoint the runner committed is in the index's next answer.
    await assertCurrent(store, id, SMALL_MODEL);
    const again = await controller.submit(userMessage('D3', undefined, 'short'));
    assert.deepStrictEqual(materialized(again.messages.slice(0, -1)), compaction.project(await store.load(id)).messages);
    await store.close();
  });

  it('a send that compacts first: the same request, checkpoint and messages as the runner path, and no load at all', async () => {
    // Twin stores (commits write): one controller on the index path, one on the runner path.
    for (const make of [() => linearSession(8), SESSIONS['a CJK session']]) {
      const fastStore = new MemoryStore();
      const oldStore = new MemoryStore();
      const { sessionId: id } = await fastStore.importSession(make());
      await oldStore.importSession(make(), { sessionId: id });
      const { wrapped, counts } = counting(fastStore);
      const requests = { fast: [], old: [] };
      const summarizer = (side) => async (request) => (requests[side].push(request), validSummary());
      const fast = new CompactionController({ store: wrapped, sessionId: id, model: SMALL_MODEL, summarize: summarizer('fast') });
      const old = new CompactionController({ store: runnerPath(oldStore), sessionId: id, model: SMALL_MODEL, summarize: summarizer('old') });
      const draft = userMessage('D9', undefined, 'the next question, 下一个问题');
      const results = { fast: materialized(await fast.submit(draft)), old: materialized(await old.submit(draft)) };
      assert.equal(results.fast.outcome.status, 'committed');
      assert.equal(counts.load, 0, 'planned, summarized and re-estimated on the index; only the transaction reads');
      // Checkpoint ids, times and request delimiters are random: compared without them.
      const checkpointId = { fast: results.fast.outcome.checkpoint.id, old: results.old.outcome.checkpoint.id };
      const neutral = (side, value) =>
        JSON.parse(JSON.stringify(value).replaceAll(checkpointId[side], 'CHECKPOINT').replace(/[0-9a-f]{32}/g, 'TOKEN').replace(/"createdAt":\d+/g, '"createdAt":0'));
      assert.deepStrictEqual(neutral('fast', requests.fast), neutral('old', requests.old));
      assert.deepStrictEqual(neutral('fast', results.fast), neutral('old', results.old));
      assert.equal(results.fast.status, 'send');
      await fastStore.close();
      await oldStore.close();
    }
  });

  it('an outcome session from the index path is the session as planned on, even after later writes', async () => {
    const store = new MemoryStore();
    const { sessionId: id } = await store.importSession(linearSession(3));
    const before = await store.load(id);
    const controller = new CompactionController({ store, sessionId: id, model: MODEL, summarize: async () => validSummary() });
    const outcome = await controller.afterTurn();
    assert.equal(outcome.status, 'noop');
    // The leaf updated in place, and the index caught up, before the outcome's nodes are first read.
    await store.updateMessageParts(id, 'A3', [{ type: 'text', text: 'the answer, rewritten' }]);
    await store.appendMessage(id, pendingTool('L1', 'A3'));
    await store.withSessionIndex(id, (view) => assert.equal(view.size, before.nodes.length + 1));
    assert.deepStrictEqual(outcome.session, before);
    await store.close();
  });
});

// Issue 23, item 6: a session deleted and imported again under the same id by another connection,
// in the same millisecond, with the same head and the same last row, but another question before it.
describe('a session recreated elsewhere with the same head and last row', () => {
  const openers = [
    ['SqliteStore', (file) => new SqliteStore(Database, file)],
    ['ZoteroDBStore', (file) => new ZoteroDBStore(new ZoteroDBConnectionShim(Database, file), { closeConnection: true })],
  ];
  for (const [name, open] of openers) {
    it(`${name}: the held index and submit answer from the new session`, async () => {
      const file = freshFile();
      const store = open(file);
      const other = new SqliteStore(new Database(file)); // its own connection, as another process has
      await inOneMillisecond(async () => { // the same createdAt for both sessions
        const { sessionId: id } = await store.importSession(linearSession(4));
        await assertCurrent(store, id);
        await other.deleteSession(id);
        const recreated = linearSession(4);
        recreated.nodes[6] = userMessage('U4', 'A3', 'another question, asked in the recreated session');
        await other.importSession(recreated, { sessionId: id });
        await assertCurrent(store, id);
        const controller = new CompactionController({ store, sessionId: id, model: MODEL, summarize: () => validSummary() });
        const result = await controller.submit('and one more question');
        assert.equal(result.status, 'send');
        const sent = JSON.stringify(result.messages);
        assert.ok(sent.includes('another question, asked in the recreated session'), 'the new question is sent');
        assert.ok(!sent.includes('question 4: '), 'the old question is not');
      });
      await other.close();
      await store.close();
    });
  }

  it('MemoryStore: recreated through the store itself', async () => {
    const store = new MemoryStore();
    await inOneMillisecond(async () => {
      const { sessionId: id } = await store.importSession(linearSession(4));
      await assertCurrent(store, id);
      await store.deleteSession(id);
      const recreated = linearSession(4);
      recreated.nodes[6] = userMessage('U4', 'A3', 'another question, asked in the recreated session');
      await store.importSession(recreated, { sessionId: id });
      await assertCurrent(store, id);
    });
  });
});
