// The bad-input catalogue (issue 9), JS half: bad input through the packed package's public API.
// Each case gets a JS Error with a stable `code`, or the documented safe result; nothing crashes,
// hangs or mutates its input. The native half is tests/bad_input.rs. Summarizer and store failures
// are covered by runner.test.mjs and controller.test.mjs (README's "Bad input" table points there).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as compaction from 'bibgenie-compaction';

await compaction.init();

const MODEL = Object.freeze({ contextWindow: 8192 });
/** The core's error codes for refused input (src/error.rs, docs/reliability.md); `internal` is a bug, not one. */
const ERROR_CODES = new Set(['invalid-session', 'invalid-node', 'invalid-model', 'invalid-plan', 'invalid-options',
  'invalid-message', 'invalid-summary', 'invalid-request', 'invalid-ledger', 'summary-over-budget', 'not-found',
  'missing-leaf', 'missing-parent', 'cycle', 'duplicate-id', 'dangling-boundary', 'read-only']);

const user = (id, parentId, text) => ({ id, parentId, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id, parentId, text, metadata) => ({
  id,
  parentId,
  role: 'assistant',
  parts: [{ type: 'text', text }],
  ...(metadata ? { metadata } : {}),
});

/** U1 A1 ... Un An. */
function linear(turns = 3) {
  const nodes = [];
  let parent = null;
  for (let t = 1; t <= turns; t++) {
    nodes.push(user(`U${t}`, parent, `question ${t} about membranes`));
    nodes.push(assistant(`A${t}`, `U${t}`, `answer ${t} with two papers`));
    parent = `A${t}`;
  }
  return { nodes, leafId: parent, branchRevision: 2 * turns };
}

/** Freezes every object inside `value`, so any write to an input would throw. */
function deepFreeze(value) {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const hasCode = (code) => (error) => {
  assert.ok(error instanceof Error, `an Error, got ${error}`);
  assert.equal(error.code, code, error.message);
  return true;
};

/** Every stateless export that reads a whole session, called on `session`. */
const sessionReaders = {
  readBranch: (s) => compaction.readBranch(s),
  project: (s) => compaction.project(s),
  history: (s) => compaction.history(s),
  retryTarget: (s) => compaction.retryTarget(s),
  editTarget: (s) => compaction.editTarget(s),
  canFork: (s) => compaction.canFork(s, 'A1'),
  estimate: (s) => compaction.estimate(s, MODEL),
  plan: (s) => compaction.plan(s, MODEL, { mode: 'auto' }),
  checkCommit: (s) => compaction.checkCommit(s, compaction.plan(linear(), MODEL, { mode: 'manual' })),
  'SessionIndex.from': (s) => compaction.SessionIndex.from(s),
};

test('a session that is not an object: invalid-session from every export', () => {
  const cyclic = { nodes: [], leafId: null, branchRevision: 0 };
  cyclic.self = cyclic;
  const bad = [undefined, null, 42, 'session', [], true, () => 1, Symbol('s'), 10n, cyclic, { nodes: [], leafId: null, branchRevision: 1n }];
  for (const [name, call] of Object.entries(sessionReaders)) {
    for (const session of bad) {
      assert.throws(() => call(session), hasCode('invalid-session'), `${name}(${String(session?.toString?.() ?? session)})`);
    }
  }
});

test('missing, empty and duplicate ids: readOnly with problems; project throws the problem code', () => {
  const cases = [
    [{ parentId: 'A1', role: 'user', parts: [] }, 'invalid-node', /id is missing/],
    [{ id: '', parentId: 'A1', role: 'user', parts: [] }, 'invalid-node', /id is empty/],
    [user('A1', 'U1', 'a second A1'), 'duplicate-id', /A1 appears more than once/],
  ];
  for (const [extra, code, message] of cases) {
    const session = deepFreeze({ nodes: [user('U1', null, 'q'), assistant('A1', 'U1', 'a'), extra], leafId: 'A1', branchRevision: 2 });
    const branch = compaction.readBranch(session);
    assert.equal(branch.readOnly, true);
    assert.equal(branch.problems[0].code, code);
    assert.match(branch.problems[0].message, message);
    assert.throws(() => compaction.project(session), hasCode(code));
    const p = compaction.plan(session, MODEL, { mode: 'manual' });
    assert.deepEqual([p.action, p.reason], ['none', 'read-only']);
  }
});

test('parent cycles, missing parents and a leaf that is not in the session', () => {
  const cases = [
    [{ nodes: [user('U1', 'A1', 'q'), assistant('A1', 'U1', 'a')], leafId: 'A1', branchRevision: 0 }, 'cycle'],
    [{ nodes: [user('U1', null, 'q'), assistant('A1', 'gone', 'a')], leafId: 'A1', branchRevision: 0 }, 'missing-parent'],
    [{ nodes: [user('U1', null, 'q')], leafId: 'ghost', branchRevision: 0 }, 'missing-leaf'],
    [{ nodes: [user('U1', null, 'q')], leafId: null, branchRevision: 0 }, 'missing-leaf'],
  ];
  for (const [session, code] of cases) {
    deepFreeze(session);
    const branch = compaction.readBranch(session);
    assert.equal(branch.readOnly, true);
    assert.deepEqual(branch.problems.map((p) => p.code), [code]);
    for (const call of [compaction.project, (s) => compaction.estimate(s, MODEL), compaction.retryTarget, compaction.editTarget]) {
      assert.throws(() => call(session), hasCode(code));
    }
    assert.deepEqual(compaction.checkCommit(session, compaction.plan(linear(), MODEL, { mode: 'manual' })), { ok: false, reason: 'read-only' });
  }
  const index = compaction.SessionIndex.from(linear());
  assert.throws(() => index.setLeaf('ghost', 9), hasCode('not-found'));
});

test('wrong types in node and part fields: invalid-node naming the field; estimateMessage: invalid-message', () => {
  const tool = { type: 'tool-search', toolCallId: 'c1', state: 'output-available', input: {}, output: [] };
  const nodeCases = [
    [{ ...assistant('A9', 'A1', 'x'), parentId: 5 }, /parentId must be a string or null/],
    [{ ...assistant('A9', 'A1', 'x'), role: 7 }, /role must be a string/],
    [{ ...assistant('A9', 'A1', 'x'), role: 'tool' }, /is not user, assistant or system/],
    [{ ...assistant('A9', 'A1', 'x'), parts: 'text' }, /parts must be an array/],
    [{ ...assistant('A9', 'A1', 'x'), createdAt: true }, /createdAt must be a number/],
    [{ ...assistant('A9', 'A1', 'x'), parts: [{ type: 'text', text: 42 }] }, /parts\[0\]: text must be a string/],
    [{ ...assistant('A9', 'A1', 'x'), parts: [{ type: 7 }] }, /parts\[0\]: type must be a string/],
    [{ ...assistant('A9', 'A1', 'x'), parts: [{ ...tool, state: null }] }, /state must be a string/],
    [{ ...assistant('A9', 'A1', 'x'), parts: [{ ...tool, toolCallId: 1 }] }, /toolCallId must be a string/],
    [{ ...assistant('A9', 'A1', 'x'), parts: [{ ...tool, approval: { id: 'a', approved: 'yes' } }] }, /approval.approved must be a boolean/],
    [{ ...assistant('A9', 'A1', 'x'), parts: [{ type: 'file', mediaType: 'image/png', url: 3 }] }, /url must be a string/],
  ];
  for (const [node, message] of nodeCases) {
    const session = deepFreeze({ nodes: [user('U1', null, 'q'), assistant('A1', 'U1', 'a'), node], leafId: 'A9', branchRevision: 3 });
    const branch = compaction.readBranch(session);
    assert.deepEqual(branch.problems.map((p) => p.code), ['invalid-node']);
    assert.equal(branch.problems[0].nodeId, 'A9');
    assert.match(branch.problems[0].message, message);
    assert.throws(() => compaction.project(session), hasCode('invalid-node'));
    // estimateMessage reads a message, not a node: it ignores parentId (and a role that is not user,
    // assistant or system is still wrong there).
    if (typeof node.parentId === 'string') {
      assert.throws(() => compaction.estimateMessage(node), hasCode('invalid-message'));
    }
    const index = compaction.SessionIndex.from(linear());
    assert.throws(() => index.append(typeof node.parentId === 'string' ? { ...node, parentId: 'A3' } : node), hasCode('invalid-node'));
  }
  for (const [name, call] of Object.entries({
    estimate: (o) => compaction.estimate(linear(), MODEL, o),
    plan: (o) => compaction.plan(linear(), MODEL, o),
  })) {
    for (const options of [{ mode: 'sometimes' }, { mode: 'preflight', draft: 42 }, { mode: 'auto', overhead: { tokens: -1 } }, { mode: 'auto', overhead: 'big' }]) {
      if (name === 'estimate' && options.mode === 'sometimes') continue;
      assert.throws(() => call(options), hasCode('invalid-options'), `${name} ${JSON.stringify(options)}`);
    }
  }
});

test('unknown part types are kept verbatim and counted', () => {
  const future = { id: 'A9', parentId: 'A1', role: 'assistant', parts: [{ type: 'hologram', payload: 'x '.repeat(500) }] };
  const session = deepFreeze({ nodes: [user('U1', null, 'q'), assistant('A1', 'U1', 'a'), future], leafId: 'A9', branchRevision: 3 });
  assert.deepEqual(compaction.readBranch(session).problems, []);
  assert.deepEqual(compaction.project(session).messages.at(-1), future);
  assert.ok(compaction.estimateMessage(future) > 100);
});

test('a lone UTF-16 surrogate in a text part is read as U+FFFD; the input keeps it', () => {
  const text = 'before \uD800 middle \uDC00 after \uD83D\uDE00';
  const session = deepFreeze({ nodes: [user('U1', null, text)], leafId: 'U1', branchRevision: 0 });
  // project hands back the caller's own message object (README, API overview), so the text is as given.
  assert.equal(compaction.project(session).messages[0], session.nodes[0]);
  assert.equal(session.nodes[0].parts[0].text, text, 'the caller object is untouched');
  assert.ok(compaction.estimateMessage(session.nodes[0]) > 0);
  assert.equal(compaction.estimate(session, MODEL).source, 'estimate');
  assert.equal(compaction.serialize([session.nodes[0]]).includes('\uFFFD'), true);
});

test('a 100 MB string: estimated (or a coded error), never a crash or hang', () => {
  let big = 'a'.repeat(100 * 1024 * 1024);
  // Only the call is inside the try: an assertion's own AssertionError (code ERR_ASSERTION) must
  // not pass as the package's coded error.
  let outcome;
  try {
    outcome = { tokens: compaction.estimateMessage({ role: 'user', parts: [{ type: 'text', text: big }] }) };
  } catch (error) {
    outcome = { error };
  } finally {
    big = null;
  }
  if ('tokens' in outcome) {
    assert.ok(Number.isFinite(outcome.tokens) && outcome.tokens > 1_000_000, `${outcome.tokens}`);
  } else {
    assert.ok(outcome.error instanceof Error, `an Error, got ${outcome.error}`);
    assert.ok(ERROR_CODES.has(outcome.error.code), `a code of the catalogue (docs/reliability.md), got ${outcome.error.code}: ${outcome.error.message}`);
  }
});

test('nesting 100,000 levels deep in a tool output: a coded Error, never a crash or hang', () => {
  let deep = { leaf: true };
  for (let i = 0; i < 100_000; i++) deep = { inner: deep };
  const node = { id: 'A1', parentId: 'U1', role: 'assistant', parts: [{ type: 'tool-read', toolCallId: 'c', state: 'output-available', input: {}, output: deep }] };
  const session = { nodes: [user('U1', null, 'q'), node], leafId: 'A1', branchRevision: 0 };
  // JSON.stringify itself may throw a RangeError inside the binding; serde_json stops at 128 levels.
  assert.throws(() => compaction.project(session), hasCode('invalid-session'));
  assert.throws(() => compaction.plan(session, MODEL, { mode: 'auto' }), hasCode('invalid-session'));
  assert.throws(() => compaction.estimateMessage(node), hasCode('invalid-message'));
  assert.throws(() => compaction.SessionIndex.from(session), hasCode('invalid-session'));
  // The package still works afterwards.
  assert.equal(compaction.project(linear()).messages.length, 6);
});

test('NaN, negative, huge and all-zero usage is never a baseline', () => {
  const defects = [
    { inputTokens: NaN, outputTokens: 10 },
    { inputTokens: Infinity, outputTokens: 10 },
    { inputTokens: -100, outputTokens: 10 },
    { inputTokens: 1e300, outputTokens: 10 },
    { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    { inputTokens: '900', outputTokens: 10 },
    { inputTokens: 900, outputTokens: 10, outputTokenDetails: { reasoningTokens: -5 } },
  ];
  for (const usage of defects) {
    const session = deepFreeze({ nodes: [user('U1', null, 'q'), assistant('A1', 'U1', 'a', { usage })], leafId: 'A1', branchRevision: 2 });
    const e = compaction.estimate(session, MODEL);
    assert.deepEqual([e.source, e.baselineMessageId], ['estimate', null], JSON.stringify(usage));
  }
  const valid = { nodes: [user('U1', null, 'q'), assistant('A1', 'U1', 'a', { usage: { inputTokens: 900, outputTokens: 10 } })], leafId: 'A1', branchRevision: 2 };
  assert.equal(compaction.estimate(valid, MODEL).source, 'usage');
});

test('contextWindow 0, negative, NaN, Infinity, a string, or missing: invalid-model', () => {
  const bad = [
    { contextWindow: 0 },
    { contextWindow: -8192 },
    { contextWindow: NaN },
    { contextWindow: Infinity },
    { contextWindow: 8192.5 },
    { contextWindow: '8192' },
    {},
    { contextWindow: 8192, maxOutputTokens: 0 },
    { contextWindow: 8192, maxOutputTokens: NaN, id: 3 },
    null,
    undefined,
    8192,
  ];
  for (const model of bad) {
    for (const call of [
      () => compaction.capacity(model),
      () => compaction.estimate(linear(), model),
      () => compaction.plan(linear(), model, { mode: 'auto' }),
    ]) {
      assert.throws(call, hasCode('invalid-model'), JSON.stringify(model));
    }
  }
  // A window smaller than maxOutputTokens is accepted: the window bounds the reserve (documented).
  const c = compaction.capacity({ contextWindow: 4096, maxOutputTokens: 64000 });
  assert.ok(c.reservedTokens <= 1024 && c.safeInputLimit >= 3072 && c.summaryMaxOutputTokens <= c.reservedTokens, JSON.stringify(c));
});

test('a checkpoint whose boundary is off its branch: dangling-boundary, read-only, nothing planned', () => {
  const { nodes } = linear(3);
  const checkpoint = {
    id: 'C1',
    parentId: 'A3',
    checkpoint: {
      summary: '## Research Goal\n-',
      firstKeptMessageId: 'U9',
      previousCheckpointId: null,
      mode: 'manual',
      tokensBefore: 100,
      tokensAfter: 50,
      ledger: { entries: [] },
      basis: { leafId: 'A3', branchRevision: 6 },
    },
  };
  const session = deepFreeze({ nodes: [...nodes, user('U9', 'A1', 'another branch'), checkpoint], leafId: 'C1', branchRevision: 8 });
  const branch = compaction.readBranch(session);
  assert.deepEqual(branch.problems.map((p) => [p.code, p.nodeId]), [['dangling-boundary', 'C1']]);
  assert.throws(() => compaction.project(session), hasCode('dangling-boundary'));
  for (const mode of ['manual', 'auto', 'preflight']) {
    const p = compaction.plan(session, MODEL, { mode, draft: 'next' });
    assert.deepEqual([p.action, p.reason], ['none', 'read-only']);
  }
  assert.deepEqual(compaction.checkCommit(session, compaction.plan(linear(), MODEL, { mode: 'manual' })), { ok: false, reason: 'read-only' });
});

test('stores: every refusal carries its code, and a refused call writes nothing', async () => {
  const store = new compaction.MemoryStore();
  await store.importSession(linear(1), { sessionId: 's', appKey: 'ITEM' });
  await store.fork('s', 'A1', { sessionId: 'f' });
  const before = JSON.stringify(await store.load('s'));
  const cases = [
    ['invalid-argument', () => store.load('')],
    ['invalid-argument', () => store.appendMessage('s', user('x', undefined, 'x'), { expectedRevision: 1.5 })],
    ['invalid-node', () => store.appendMessage('s', { role: 'user', parts: [] })],
    ['invalid-node', () => store.importMessages([{ id: 'm1', role: 'user', parts: [], parentId: 'other' }])],
    ['invalid-session', () => store.importSession({ nodes: 'nope' })],
    ['duplicate-id', () => store.appendMessage('s', user('U1', 'A1', 'again'))],
    ['missing-parent', () => store.appendMessage('s', user('x', 'nowhere', 'x'))],
    ['unknown-session', () => store.load('nope')],
    ['unknown-node', () => store.moveLeaf('s', 'nope')],
    ['session-exists', () => store.createSession({ sessionId: 's' })],
    ['not-updatable', () => store.updateMessageParts('s', 'U1', [])],
    ['invalid-revision', () => store.transaction('s', (tx) => tx.setLeaf('U1', 2))],
    ['missing-leaf', () => store.transaction('s', (tx) => tx.setLeaf('nope', 3))],
    ['session-moved', () => store.appendMessage('s', user('x', undefined, 'x'), { expectedLeafId: 'U1' })],
    ['app-key-exists', () => store.createSession({ appKey: 'ITEM' })],
    ['has-forks', () => store.deleteSession('s')],
  ];
  for (const [code, call] of cases) await assert.rejects(call(), hasCode(code), code);
  assert.equal(JSON.stringify(await store.load('s')), before, 'no refused call changed the session');
  await store.close();
  await assert.rejects(store.load('s'), hasCode('store-closed'));
});

test('extractiveSummary: a request that is not one is invalid-request; it reads what it summarizes, whatever else the request carries', () => {
  const session = linear(6);
  const plan = compaction.plan(session, MODEL, { mode: 'manual' });
  const request = compaction.summaryRequest(session, plan, MODEL);
  const summary = compaction.extractiveSummary(request);
  const bad = [null, 'request', 12, [request], {}, { ...request, system: 5 }, { ...request, prompt: null }, { ...request, history: 7 },
    { ...request, ledger: 'none' }, { ...request, maxOutputTokens: -1 }, { ...request, previousSummary: 3 },
    { ...request, get history() { throw new Error('a getter that throws'); } }];
  for (const [at, value] of bad.entries()) {
    assert.throws(() => compaction.extractiveSummary(value), (error) => error.code === 'invalid-request', `case ${at}`);
  }
  // The prompt holds the history again and the registers are carried by code: neither changes the summary.
  assert.equal(compaction.extractiveSummary({ ...request, prompt: 'another prompt', userWords: [], citedPages: [], recallHandles: [] }), summary);
  assert.equal(compaction.extractiveSummary(deepFreeze(JSON.parse(JSON.stringify(request)))), summary);
});

test('lookupLedger: a bad ledger is invalid-ledger, a bad query invalid-options; the ledger is not changed', () => {
  const ledger = deepFreeze({
    entries: [
      { kind: 'item', key: 'ABCD2345', label: 'Canine nutrition review', detail: 'journalArticle' },
      { kind: 'collection', key: 'COLL2345', label: 'Reviews' },
    ],
  });
  assert.deepEqual(compaction.lookupLedger(ledger, { text: 'canine' }).map((e) => e.key), ['ABCD2345']);
  assert.deepEqual(compaction.lookupLedger(ledger, { kind: 'collection' }).map((e) => e.key), ['COLL2345']);
  assert.deepEqual(compaction.lookupLedger(ledger, { key: 'NOPE2345' }), []);
  for (const bad of ['none', { entries: [{ kind: 'planet', key: 'X' }] }, undefined]) {
    assert.throws(() => compaction.lookupLedger(bad, {}), hasCode('invalid-ledger'), JSON.stringify(bad));
  }
  for (const bad of [null, 'x', { kind: 'planet' }, { limit: -1 }, { key: 7 }, { title: 'x' }]) {
    assert.throws(() => compaction.lookupLedger(ledger, bad), hasCode('invalid-options'), JSON.stringify(bad));
  }
});

test('a summary over its budget: compact fails with summary-over-budget and writes nothing', async () => {
  const store = new compaction.MemoryStore();
  const session = linear(6);
  await store.importSession(session, { sessionId: 's1' });
  const before = JSON.stringify(await store.load('s1'));
  const sections = ['Research Goal', 'User Requirements and Constraints', 'Research Progress', 'Findings and Evidence',
    'Key Zotero Resources', 'Decisions', 'Next Steps', 'Critical Context'];
  const huge = sections.map((s) => `## ${s}\n${'- (user) word '.repeat(2000)}`).join('\n');
  const outcome = await compaction.compact({ store, sessionId: 's1', model: MODEL, mode: 'manual', summarize: async () => huge });
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.reason, 'summary-over-budget');
  assert.equal(outcome.error.code, 'summary-over-budget');
  assert.equal(JSON.stringify(await store.load('s1')), before);
});

// `not-loaded` (any call before the load) and `wasm-load-failed` need a module that was never
// initialized: tests/node/pack-consumer-loader.test.mjs runs them in a fresh process.
test('the chat turn: a message that is not a UIMessage, or a draft already in the session, gets a code and writes nothing', async () => {
  const store = new compaction.MemoryStore();
  await store.importSession(linear(2), { sessionId: 'turn' });
  const before = JSON.stringify(await store.load('turn'));
  const controller = new compaction.CompactionController({ store, sessionId: 'turn', model: MODEL, summarize: async () => 'unused' });
  const transport = new compaction.CompactionChatTransport({ controller, streamResponse: () => assert.fail('not streamed') });
  const send = (messages) => transport.sendMessages({ trigger: 'submit-message', chatId: 'turn', messageId: undefined, messages, abortSignal: undefined });
  for (const messages of [[], [{ id: 'x' }], [{ id: 'x', role: 'system', parts: [] }], 'not an array']) {
    await assert.rejects(send(messages), hasCode('invalid-messages'), JSON.stringify(messages));
  }
  const stored = (await store.load('turn')).nodes.find((n) => n.id === 'U1');
  const result = await controller.submit(stored);
  assert.deepEqual([result.status, result.reason], ['failed', 'draft-already-stored']);
  await assert.rejects(send([stored]), hasCode('draft-already-stored'));
  assert.throws(() => new compaction.CompactionChatTransport({ controller}), hasCode('invalid-options'));
  assert.equal(JSON.stringify(await store.load('turn')), before);
});

// Issue 23, item 5: JSON (and so the wasm boundary) turns NaN and ±Infinity into null, which read as
// "absent"; every count the API takes is refused with the catalogue's code where it enters.
const BAD_COUNTS = [NaN, Infinity, -Infinity, -1, 1.5];

test('a model count that is NaN, ±Infinity, negative or fractional is invalid-model, through wasm and the glue', async () => {
  const store = new compaction.MemoryStore();
  await store.importSession(linear(3), { sessionId: 'counts' });
  const before = JSON.stringify(await store.load('counts'));
  const message = user('m1', null, 'a message');
  for (const field of ['maxOutputTokens', 'imageTokens']) {
    for (const value of BAD_COUNTS) {
      const model = { contextWindow: 16384, [field]: value };
      const label = `${field}: ${value}`;
      const index = compaction.SessionIndex.from(linear());
      for (const call of [
        () => compaction.capacity(model),
        () => compaction.estimate(linear(), model),
        () => compaction.plan(linear(), model, { mode: 'manual' }),
        () => compaction.estimateMessage(message, model),
        () => index.estimate(model),
        () => index.plan(model, { mode: 'preflight', draft: 'q' }),
        () => new compaction.CompactionController({ store, sessionId: 'counts', model, summarize: () => 'unused' }),
        () => new compaction.CompactionController({ store, sessionId: 'counts', model: MODEL, summarize: () => 'unused' }).setModel(model),
      ]) {
        assert.throws(call, hasCode('invalid-model'), label);
      }
      await assert.rejects(compaction.compact({ store, sessionId: 'counts', model, mode: 'manual', summarize: () => 'unused' }), hasCode('invalid-model'), label);
      index.free();
    }
  }
  assert.equal(JSON.stringify(await store.load('counts')), before, 'nothing written');
});

test('overhead.tokens that is NaN, ±Infinity, negative or fractional is invalid-options, and no controller sends with it', async () => {
  const store = new compaction.MemoryStore();
  await store.importSession(linear(3), { sessionId: 'overhead' });
  const before = JSON.stringify(await store.load('overhead'));
  const model = { contextWindow: 16384 };
  for (const value of BAD_COUNTS) {
    const overhead = { tokens: value };
    const index = compaction.SessionIndex.from(linear());
    for (const call of [
      () => compaction.estimate(linear(), model, { overhead }),
      () => compaction.plan(linear(), model, { mode: 'preflight', draft: 'q', overhead }),
      () => index.estimate(model, { overhead }),
      () => index.plan(model, { mode: 'auto', overhead }),
      () => compaction.cacheBreakpoints(linear(), model, { overhead }),
      () => index.cacheBreakpoints(model, { overhead }),
      () => new compaction.CompactionController({ store, sessionId: 'overhead', model, overhead, summarize: () => 'unused' }),
    ]) {
      assert.throws(call, hasCode('invalid-options'), `tokens: ${value}`);
    }
    await assert.rejects(compaction.compact({ store, sessionId: 'overhead', model, overhead, mode: 'auto', summarize: () => 'unused' }), hasCode('invalid-options'));
    // The same count given to one call (as the chat transport does) instead of to the controller.
    const controller = new compaction.CompactionController({ store, sessionId: 'overhead', model, summarize: () => 'unused' });
    await assert.rejects(controller.submit('q', { overhead }), hasCode('invalid-options'), `submit, tokens: ${value}`);
    assert.throws(() => controller.afterTurn({ overhead }), hasCode('invalid-options'), `afterTurn, tokens: ${value}`);
    index.free();
  }
  // Infinity was 'now' while 1e9 was 'too-large': a huge finite count is still a count.
  assert.equal(compaction.plan(linear(), model, { mode: 'preflight', draft: 'q', overhead: { tokens: 1e9 } }).send, 'too-large');
  assert.equal(JSON.stringify(await store.load('overhead')), before, 'nothing written');
});

test('lookupLedger limit, serialize limits and checkpointNode maxOutputTokens: NaN, ±Infinity, negative or fractional is invalid-options', () => {
  const ledger = { entries: [{ kind: 'item', key: 'ABCD2345' }, { kind: 'item', key: 'EFGH2345' }] };
  const p = compaction.plan(linear(3), MODEL, { mode: 'manual' });
  assert.equal(p.action, 'compact');
  const summary = ['Research Goal', 'User Requirements and Constraints', 'Research Progress', 'Findings and Evidence',
    'Key Zotero Resources', 'Decisions', 'Next Steps', 'Critical Context'].map((s) => `## ${s}\n- (user) x`).join('\n');
  for (const value of BAD_COUNTS) {
    assert.throws(() => compaction.lookupLedger(ledger, { limit: value }), hasCode('invalid-options'), `limit: ${value}`);
    for (const field of ['maxToolResultChars', 'maxToolInputChars']) {
      assert.throws(() => compaction.serialize([user('u', null, 'x')], { [field]: value }), hasCode('invalid-options'), `${field}: ${value}`);
    }
    assert.throws(() => compaction.checkpointNode(p, summary, ledger, value), hasCode('invalid-options'), `maxOutputTokens: ${value}`);
    assert.throws(() => compaction.checkpointNode({ ...p, ledgerBudget: value }, summary, ledger), hasCode('invalid-plan'), `ledgerBudget: ${value}`);
  }
  assert.equal(compaction.lookupLedger(ledger, { limit: 1 }).length, 1);
});

test('a malformed part (a text part without text) is invalid-node wherever the message enters: appendMessage, submit, plan, the chat transport (issue 43.5)', async () => {
  const { MemoryStore, CompactionController, CompactionChatTransport, extractiveSummary } = compaction;
  const store = new MemoryStore();
  const { sessionId } = await store.createSession();
  const bad = { id: 'u1', role: 'user', parts: [{ type: 'text' }] };
  await assert.rejects(store.appendMessage(sessionId, bad), (error) => error.code === 'invalid-node' && /parts\[0\]: text is missing/.test(error.message));
  assert.throws(() => compaction.plan({ nodes: [], leafId: null, branchRevision: 0 }, MODEL, { mode: 'preflight', draft: bad }), hasCode('invalid-node'));
  const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: async (request) => extractiveSummary(request) });
  const result = await controller.submit(bad);
  assert.equal(result.status, 'failed');
  assert.equal(result.reason, 'invalid-node', result.message);
  assert.match(result.message, /parts\[0\]: text is missing/);
  let asked = 0;
  const transport = new CompactionChatTransport({ controller, streamResponse: async () => { asked++; throw new Error('not reached'); } });
  await assert.rejects(
    transport.sendMessages({ trigger: 'submit-message', chatId: sessionId, messageId: undefined, messages: [bad], abortSignal: undefined }),
    (error) => error.code === 'invalid-node' && /text is missing/.test(error.message),
  );
  assert.equal(asked, 0, 'the model was not asked');
  assert.deepEqual((await store.load(sessionId)).nodes, [], 'nothing stored');
  // The list itself is still invalid-messages: no newest UIMessage.
  await assert.rejects(transport.sendMessages({ trigger: 'submit-message', chatId: sessionId, messageId: undefined, messages: [], abortSignal: undefined }), (error) => error.code === 'invalid-messages');
});
