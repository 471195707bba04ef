// Plugin code: loaded from the test plugin's chrome:// package into its Zotero-style scope, after
// the IIFE bundle of bibgenie-compaction/slim (global BibgenieCompaction). Uses only what a
// plugin has there: the bundle, Zotero.DBConnection, fetch, setTimeout. Every method takes and
// returns JSON text, so nothing but strings crosses the sandbox boundary.
/* global BibgenieCompaction, Zotero */

var bibgenieChecks = (() => {
  const C = BibgenieCompaction;
  const MODEL = { id: 'demo-32k', contextWindow: 32768, maxOutputTokens: 4096 };
  const user = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
  const assistant = (id, text) => ({ id, role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text }] });
  const toolPart = (state) => ({
    type: 'tool-zoteroSearch',
    toolCallId: 'call_runtime_1',
    state,
    input: { q: 'dense retrieval', limit: 3 },
    ...(state === 'output-available' ? { output: [{ key: 'KEY4ABCD', title: 'Dense passage retrieval' }] } : {}),
  });
  const errorOf = (error) => ({ code: error && error.code, name: error && error.name, message: String(error && error.message) });

  async function load(wasmURL) {
    try {
      await C.loadCompaction({ wasmURL });
      return JSON.stringify({ ok: true, version: C.version() });
    } catch (error) {
      return JSON.stringify({ ok: false, error: errorOf(error) });
    }
  }

  /**
   * wasm-bindgen's initSync with the deprecated positional argument: its warning path used a
   * bare console, a ReferenceError in this scope.
   */
  async function deprecatedInitSync(wasmURL) {
    try {
      const bytes = await (await fetch(wasmURL)).arrayBuffer();
      C.initSync(bytes);
      return JSON.stringify({ ok: true, version: C.version() });
    } catch (error) {
      return JSON.stringify({ ok: false, error: errorOf(error) });
    }
  }

  /** Runs an async step; a throw becomes { error } so the remaining steps still report. */
  async function step(results, name, fn) {
    try {
      results[name] = await fn();
    } catch (error) {
      results[name] = { error: errorOf(error), stack: String(error && error.stack) };
    }
  }

  const compactOptions = (store, sessionId) => ({
    store, sessionId, model: MODEL, mode: 'manual', summarize: (request) => C.extractiveSummary(request),
  });

  /** The crash-safety test's checks, on the file as the reopened connection reads it. */
  async function fileChecks(db, store, sessionIds) {
    const failures = [];
    const fail = (text) => failures.push(text);
    let nodesChecked = 0;
    let checkpointsChecked = 0;
    const integrity = await db.valueQueryAsync('PRAGMA integrity_check');
    if (integrity !== 'ok') fail(`integrity_check: ${integrity}`);
    const dangling = await db.queryAsync('PRAGMA foreign_key_check');
    if (dangling.length) fail(`foreign_key_check: ${dangling.length} rows`);
    for (const sessionId of sessionIds) {
      const head = (await db.queryAsync('SELECT leaf_id, branch_revision, base_session_id FROM sessions WHERE id = ?', [sessionId]))[0];
      if (!head) {
        fail(`${sessionId}: no session row`);
        continue;
      }
      const session = await store.load(sessionId);
      const visible = new Map(session.nodes.map((n) => [n.id, n]));
      const rows = await db.queryAsync('SELECT id, parent_id, kind, json FROM nodes WHERE session_id = ? ORDER BY seq', [sessionId]);
      const earlier = new Set(session.nodes.filter((n) => !rows.some((r) => r.id === n.id)).map((n) => n.id)); // inherited
      for (const row of rows) {
        nodesChecked++;
        const node = JSON.parse(row.json);
        if (node.id !== row.id) fail(`${sessionId}/${row.id}: json id ${node.id}`);
        if (node.parentId !== row.parent_id) fail(`${sessionId}/${row.id}: json parentId ${node.parentId} vs ${row.parent_id}`);
        if (row.kind !== (node.checkpoint ? 'checkpoint' : 'message')) fail(`${sessionId}/${row.id}: kind ${row.kind}`);
        if (node.parentId !== null && !earlier.has(node.parentId)) fail(`${sessionId}/${row.id}: parent ${node.parentId} not before it`);
        if (node.checkpoint) {
          checkpointsChecked++;
          const c = node.checkpoint;
          if (c.basis.leafId !== node.parentId) fail(`${sessionId}/${row.id}: basis ${c.basis.leafId} is not its parent`);
          if (!(c.basis.branchRevision < head.branch_revision)) fail(`${sessionId}/${row.id}: basis revision not before now`);
          C.validateSummary(c.summary);
          if (c.firstKeptMessageId !== null && !earlier.has(c.firstKeptMessageId)) fail(`${sessionId}/${row.id}: boundary missing`);
          if (c.previousCheckpointId !== null && !visible.get(c.previousCheckpointId)?.checkpoint) fail(`${sessionId}/${row.id}: previous checkpoint missing`);
        }
        earlier.add(row.id);
      }
      if (head.leaf_id !== null && !visible.has(head.leaf_id)) fail(`${sessionId}: leaf ${head.leaf_id} is not a node`);
      if (head.branch_revision !== session.branchRevision) fail(`${sessionId}: revision column ${head.branch_revision} vs load ${session.branchRevision}`);
      const branch = C.readBranch(session);
      if (branch.problems.length) fail(`${sessionId}: readBranch problems ${JSON.stringify(branch.problems)}`);
      C.project(session);
    }
    return { failures, nodesChecked, checkpointsChecked };
  }

  /** The whole store scenario on a Zotero.DBConnection. */
  async function store(inputJson) {
    const input = JSON.parse(inputJson);
    const r = {};
    let db = new Zotero.DBConnection(input.dbName);
    let s = new C.ZoteroDBStore(db);

    await step(r, 'create', async () => {
      const created = await s.createSession({ sessionId: 'chat' });
      const first = await s.appendMessage('chat', user('c-u1', 'Find papers on dense retrieval'));
      const second = await s.appendMessage('chat', assistant('c-a1', 'Three papers, listed below.'));
      const loaded = await s.load('chat');
      return {
        created: [created.leafId, created.branchRevision],
        heads: [[first.leafId, first.branchRevision], [second.leafId, second.branchRevision]],
        loaded: loaded.nodes.map((n) => [n.id, n.parentId]),
      };
    });

    await step(r, 'compact', async () => {
      await s.importSession(input.research, { sessionId: 'research' });
      const before = await s.load('research');
      const outcome = await C.compact(compactOptions(s, 'research'));
      const after = await s.load('research');
      const checkpoint = after.nodes.find((n) => n.id === after.leafId);
      return {
        status: outcome.status,
        revisions: [before.branchRevision, after.branchRevision],
        leafIsCheckpoint: !!(checkpoint && checkpoint.checkpoint),
        basisLeaf: checkpoint && checkpoint.checkpoint ? checkpoint.checkpoint.basis.leafId === before.leafId : false,
        nodes: [before.nodes.length, after.nodes.length],
      };
    });

    await step(r, 'recompact', async () => {
      const before = await s.load('research');
      const outcome = await C.compact(compactOptions(s, 'research'));
      const after = await s.load('research');
      return { status: outcome.status, unchanged: JSON.stringify(before) === JSON.stringify(after) };
    });

    await step(r, 'toolResult', async () => {
      await s.appendMessage('research', user('r-u-tool', 'Search my library for dense retrieval.'));
      const call = { id: 'r-a-tool', role: 'assistant', parts: [{ type: 'step-start' }, toolPart('input-available')] };
      const waiting = await s.appendMessage('research', call);
      const done = await s.updateMessageParts('research', 'r-a-tool', [{ type: 'step-start' }, toolPart('output-available'), { type: 'text', text: 'Found it (KEY4ABCD).' }]);
      const stored = (await s.load('research')).nodes.find((n) => n.id === 'r-a-tool');
      return { revisions: [waiting.branchRevision, done.branchRevision], state: stored.parts[1].state, parts: stored.parts.length };
    });

    await step(r, 'retry', async () => {
      const target = C.retryTarget(await s.load('research'));
      const head = await s.retry('research', target.parentId, assistant('r-a-retry', 'Another answer.'));
      const node = (await s.load('research')).nodes.find((n) => n.id === 'r-a-retry');
      return { target: target.assistantId, parentIsTargetParent: node.parentId === target.parentId, leaf: head.leafId };
    });

    await step(r, 'edit', async () => {
      const target = C.editTarget(await s.load('research'));
      const head = await s.edit('research', target.parentId, user('r-u-edit', 'Edited question.'));
      const node = (await s.load('research')).nodes.find((n) => n.id === 'r-u-edit');
      return { target: target.userId, siblingOfEdited: node.parentId === target.parentId, leaf: head.leafId };
    });

    await step(r, 'fork', async () => {
      const source = await s.load('research');
      const point = [...source.nodes].reverse().find((n) => n.role === 'assistant' && C.canFork(source, n.id).ok);
      const head = await s.fork('research', point.id, { sessionId: 'research-fork' });
      const fork = await s.load('research-fork');
      const byId = new Map(source.nodes.map((n) => [n.id, n]));
      const chain = [];
      for (let id = point.id; id !== null; id = byId.get(id).parentId) chain.unshift(id);
      const after = await s.load('research');
      return {
        head: [head.leafId === point.id, head.branchRevision],
        forkIsChain: JSON.stringify(fork.nodes.map((n) => n.id)) === JSON.stringify(chain),
        sourceUnchanged: JSON.stringify(after) === JSON.stringify(source),
        problems: C.readBranch(fork).problems.length,
      };
    });

    await step(r, 'failedTransaction', async () => {
      const before = await s.load('chat');
      let thrown = null;
      try {
        await s.transaction('chat', async (tx) => {
          await tx.appendNode({ ...user('c-doomed', 'never stored'), parentId: before.leafId });
          await tx.setLeaf('c-doomed', before.branchRevision + 1);
          throw new Error('boom');
        });
      } catch (error) {
        thrown = String(error.message);
      }
      const after = await s.load('chat');
      return { thrown, unchanged: JSON.stringify(after) === JSON.stringify(before) };
    });

    // Issue 23 item 6: an id mozStorage's UTF-8 cannot keep exactly is refused at once, with a code.
    await step(r, 'loneSurrogate', async () => {
      const before = await s.load('chat');
      const codeOf = async (call) => {
        try {
          await call();
          return 'accepted';
        } catch (error) {
          return String(error.code);
        }
      };
      const codes = [
        await codeOf(() => s.createSession({ sessionId: 'pane-\ud83d' })),
        await codeOf(() => s.appendMessage('chat', { ...user('c-\udc00', 'lone'), parentId: before.leafId })),
      ];
      const sessions = await s.listSessions();
      return { codes, created: sessions.some((id) => id.startsWith('pane-')), unchanged: JSON.stringify(await s.load('chat')) === JSON.stringify(before) };
    });

    await step(r, 'concurrentAppends', async () => {
      const before = await s.load('chat');
      const heads = await Promise.all(Array.from({ length: 8 }, (_, i) => s.appendMessage('chat', user(`c-par${i}`, `parallel ${i}`))));
      const after = await s.load('chat');
      const revisions = heads.map((h) => h.branchRevision).sort((a, b) => a - b);
      return {
        revisions: revisions.map((v) => v - before.branchRevision),
        stored: heads.every((h) => after.nodes.some((n) => n.id === h.leafId)),
        chain: C.readBranch(after).problems.length === 0 && after.nodes.length === before.nodes.length + 8,
        finalRevision: after.branchRevision - before.branchRevision,
      };
    });

    await step(r, 'import', async () => {
      const head = await s.importSession(input.synthetic, { sessionId: 'big' });
      const loaded = await s.load('big');
      return {
        nodes: loaded.nodes.length,
        same: JSON.stringify(loaded.nodes) === JSON.stringify(input.synthetic.nodes),
        leaf: head.leafId === input.synthetic.leafId,
        problems: C.readBranch(loaded).problems.length,
      };
    });

    // The controller and the AI SDK adapter in a scope without AbortController: a provider that
    // never answers and ignores the signal is cancelled through the signal-like object.
    await step(r, 'controller', async () => {
      await s.importSession(input.research, { sessionId: 'research-ctl' });
      const statuses = [];
      let providerCalls = 0;
      const generateText = () => {
        providerCalls++;
        return new Promise(() => {});
      };
      const summarize = C.createAiSdkSummarizer({ model: { modelId: 'never-answers' }, generateText });
      const controller = new C.CompactionController({
        store: s, sessionId: 'research-ctl', model: MODEL, summarize, onStatus: (state) => statuses.push(state.status),
      });
      const running = controller.compact('manual');
      for (let i = 0; i < 2000 && providerCalls === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      const gated = controller.can('compact');
      const cancelled = controller.state.status === 'compacting' && controller.state.cancel();
      const outcome = await running;
      const unchanged = (await s.load('research-ctl')).nodes.length === input.research.nodes.length;
      const second = new C.CompactionController({
        store: s, sessionId: 'research-ctl', model: MODEL, summarize: (request) => C.extractiveSummary(request),
      });
      const committed = await second.compact('manual');
      // The store-held index on the real connection (PRAGMA data_version through it) answers as load().
      const loaded = await s.load('research-ctl');
      const indexed = await s.withSessionIndex('research-ctl', (view) =>
        view !== null && view.branchRevision === loaded.branchRevision && JSON.stringify(view.toSession().nodes) === JSON.stringify(loaded.nodes));
      return {
        providerCalled: providerCalls > 0, gated, cancelled, outcome: outcome.status, unchanged,
        statuses: [...new Set(statuses)], committed: committed.status, indexed,
      };
    });

    await step(r, 'reopen', async () => {
      const ids = await s.listSessions();
      const before = {};
      for (const id of ids) before[id] = JSON.stringify(await s.load(id));
      await db.closeDatabase();
      db = new Zotero.DBConnection(input.dbName);
      s = new C.ZoteroDBStore(db);
      const reopenedIds = await s.listSessions();
      let same = true;
      for (const id of ids) same = same && JSON.stringify(await s.load(id)) === before[id];
      return { sessions: [...reopenedIds].sort(), same };
    });

    await step(r, 'fileChecks', async () => fileChecks(db, s, await s.listSessions()));

    // The store beside the app's own table under a prefix, the app's row and the store's writes in
    // one transaction (issue 41): real db.js rules and Sqlite.sys.mjs underneath.
    await step(r, 'appTable', async () => {
      const p = new C.ZoteroDBStore(db, { tablePrefix: 'myplugin_' });
      await db.queryAsync('CREATE TABLE IF NOT EXISTS chats (id TEXT PRIMARY KEY, title TEXT)');
      await p.createSession({ sessionId: 'chat' }); // the unprefixed tables have a 'chat' too
      await p.withinTransaction(async (tx) => {
        await db.queryAsync('INSERT INTO chats (id, title) VALUES (?, ?)', ['c1', 'kept']);
        await tx.appendMessage('chat', user('p-u1', 'Kept with its row'));
      });
      const before = JSON.stringify(await p.load('chat'));
      let thrown = null;
      try {
        await p.withinTransaction(async (tx) => {
          await db.queryAsync('INSERT INTO chats (id, title) VALUES (?, ?)', ['c2', 'lost']);
          await tx.appendMessage('chat', assistant('p-a1', 'Lost with its row'));
          throw new Error('app failed');
        });
      } catch (error) {
        thrown = error.message;
      }
      const chats = (await db.queryAsync('SELECT id FROM chats ORDER BY id')).map((row) => row.id);
      // (Sqlite.sys.mjs refuses a LIKE without bindings: filtered here instead.)
      const tables = (await db.queryAsync("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"))
        .map((row) => row.name).filter((name) => name.startsWith('myplugin_'));
      const unchanged = JSON.stringify(await p.load('chat')) === before;
      const apart = !(await s.load('chat')).nodes.some((n) => n.id.startsWith('p-'));
      await p.close();
      return { chats, thrown, unchanged, tables, nodes: JSON.parse(before).nodes.map((n) => n.id), apart };
    });
    await db.closeDatabase();
    return JSON.stringify(r);
  }

  /** A short pass for the second package: the wasm answers, and a store round-trips a message. */
  async function quick(inputJson) {
    const input = JSON.parse(inputJson);
    const r = {};
    const db = new Zotero.DBConnection(`${input.dbName}-quick`);
    const s = new C.ZoteroDBStore(db);
    await step(r, 'roundTrip', async () => {
      await s.createSession({ sessionId: 'q' });
      await s.appendMessage('q', user('q-u1', 'Hello from the .xpi'));
      const loaded = await s.load('q');
      return { nodes: loaded.nodes.map((n) => n.id), projected: C.project(loaded).messages.length };
    });
    await db.closeDatabase();
    return JSON.stringify(r);
  }

  return { load, unload: () => C.unloadCompaction(), deprecatedInitSync, store, quick };
})();
