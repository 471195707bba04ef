// The async runner `compact(options)` against the packed package, with the in-memory store and
// scripted summarizers: every outcome, and that cancelled or failed runs write nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  compaction,
  MODEL,
  SMALL_MODEL,
  linearSession,
  storeWith,
  snapshot,
  checkpointsOf,
  validSummary,
  scriptedSummarizer,
  gatedSummarizer,
  neverSettles,
  minimalSignal,
  createAbortSignalLike,
  wrapTransactions,
  userMessage,
  assistantMessage,
} from './runner-fixtures.mjs';

const { compact } = compaction;

test('committed: the checkpoint is appended, becomes the leaf and bumps the revision', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize, calls } = scriptedSummarizer();
  const outcome = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize });

  assert.equal(outcome.status, 'committed');
  assert.equal(outcome.reason, outcome.plan.reason);
  const node = outcome.checkpoint;
  assert.match(node.id, /^ckpt_[0-9a-f]{24}$/);
  assert.equal(node.parentId, 'A4');
  assert.equal(typeof node.createdAt, 'number');
  assert.equal(node.checkpoint.summary, validSummary());
  assert.equal(node.checkpoint.mode, 'manual');
  assert.deepEqual(node.checkpoint.basis, { leafId: 'A4', branchRevision: 8 });
  assert.equal(node.checkpoint.firstKeptMessageId, outcome.plan.firstKeptMessageId);

  assert.equal(outcome.session.leafId, node.id);
  assert.equal(outcome.session.branchRevision, 9);
  assert.deepEqual(outcome.session, await store.load(sessionId), 'the outcome carries the durable session');
  assert.equal(checkpointsOf(outcome.session).length, 1);

  assert.equal(calls.length, 1);
  const { request, signal } = calls[0];
  for (const field of ['system', 'prompt']) assert.equal(typeof request[field], 'string');
  assert.ok(request.maxOutputTokens > 0);
  assert.ok(Array.isArray(request.ledger.entries));
  assert.equal(signal.aborted, false, 'without a caller signal the summarizer gets one that never aborts');
  assert.equal(typeof signal.addEventListener, 'function');

  const projection = compaction.project(outcome.session);
  assert.equal(projection.messages[0].id, node.id, 'the projection starts with the summary');
});

test('a summarizer may answer synchronously with a string', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const outcome = await compact({ store, sessionId, model: MODEL, summarize: () => validSummary('sync') });
  assert.equal(outcome.status, 'committed');
  assert.equal(outcome.checkpoint.checkpoint.mode, 'manual', 'mode defaults to manual');
});

test('stale: a message appended while summarizing; the fresh branch is returned and nothing is written', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize } = scriptedSummarizer(async () => {
    await store.appendMessage(sessionId, userMessage('U5', 'A4', 'one more question'));
    return validSummary('old');
  });
  const outcome = await compact({ store, sessionId, model: MODEL, summarize });

  assert.equal(outcome.status, 'stale');
  assert.equal(outcome.reason, 'leaf-moved');
  assert.equal(outcome.session.leafId, 'U5');
  assert.equal(outcome.session.branchRevision, 9);
  assert.equal(checkpointsOf(outcome.session).length, 0, 'the old summary was discarded');
  assert.equal(JSON.stringify(outcome.session), await snapshot(store, sessionId), 'the store holds exactly the fresh branch');
  assert.equal(outcome.checkpoint, undefined);
});

test('stale: a retry while summarizing', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize } = scriptedSummarizer(async () => {
    const target = compaction.retryTarget(await store.load(sessionId));
    await store.retry(sessionId, target.parentId, assistantMessage('A4b', target.parentId, 'a retried answer'));
    return validSummary();
  });
  const outcome = await compact({ store, sessionId, model: MODEL, summarize });
  assert.equal(outcome.status, 'stale');
  assert.equal(outcome.reason, 'leaf-moved');
  assert.equal(outcome.session.leafId, 'A4b');
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 0);
});

test('stale: an edit while summarizing', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize } = scriptedSummarizer(async () => {
    const target = compaction.editTarget(await store.load(sessionId));
    await store.edit(sessionId, target.parentId, userMessage('U4b', target.parentId, 'the question, edited'));
    return validSummary();
  });
  const outcome = await compact({ store, sessionId, model: MODEL, summarize });
  assert.equal(outcome.status, 'stale');
  assert.equal(outcome.session.leafId, 'U4b');
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 0);
});

test('stale: the leaf updated in place while summarizing changes the revision', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize } = scriptedSummarizer(async () => {
    await store.updateMessageParts(sessionId, 'A4', [{ type: 'text', text: 'answer 4, revised' }]);
    return validSummary();
  });
  const outcome = await compact({ store, sessionId, model: MODEL, summarize });
  assert.equal(outcome.status, 'stale');
  assert.equal(outcome.reason, 'revision-changed');
  assert.equal(outcome.session.branchRevision, 9);
});

test('cancelled: a summarizer that never settles, aborted through an AbortSignal-like object', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const controller = createAbortSignalLike();
  const { summarize, calls } = scriptedSummarizer(neverSettles);
  const running = compact({ store, sessionId, model: MODEL, summarize, signal: controller.signal });
  while (calls.length === 0) await new Promise((r) => setImmediate(r));
  assert.equal(calls[0].signal, controller.signal, 'the summarizer gets the caller signal');
  controller.abort();
  const outcome = await running;
  assert.equal(outcome.status, 'cancelled');
  assert.equal(await snapshot(store, sessionId), before);
});

test('cancelled: a minimal signal (aborted + addEventListener only) works without AbortController', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const { signal, abort } = minimalSignal();
  const gated = gatedSummarizer();
  const running = compact({ store, sessionId, model: MODEL, summarize: gated.summarize, signal });
  await gated.started;
  abort();
  gated.release(); // the summary arrives after the cancellation: it is not committed
  const outcome = await running;
  assert.equal(outcome.status, 'cancelled');
  assert.equal(await snapshot(store, sessionId), before);
});

test('cancelled: a signal aborted before the start writes nothing and never summarizes', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const controller = new AbortController();
  controller.abort();
  const { summarize, calls } = scriptedSummarizer();
  const outcome = await compact({ store, sessionId, model: MODEL, summarize, signal: controller.signal });
  assert.equal(outcome.status, 'cancelled');
  assert.equal(calls.length, 0);
});

test('cancelled during the commit: the store rolls the transaction back', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const controller = createAbortSignalLike();
  const wrapped = wrapTransactions(store, (tx) => ({
    load: () => tx.load(),
    appendNode: async (node) => {
      await tx.appendNode(node);
      controller.abort(); // the user cancels while the node is being written
    },
    setLeaf: (id, revision) => tx.setLeaf(id, revision),
  }));
  const outcome = await compact({ store: wrapped, sessionId, model: MODEL, summarize: () => validSummary(), signal: controller.signal });
  assert.equal(outcome.status, 'cancelled');
  assert.equal(await snapshot(store, sessionId), before);
});

test('failed: a summarizer that throws writes nothing', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const boom = new Error('provider unavailable');
  for (const summarize of [
    async () => {
      throw boom;
    },
    () => {
      throw boom;
    },
  ]) {
    const outcome = await compact({ store, sessionId, model: MODEL, summarize });
    assert.equal(outcome.status, 'failed');
    assert.equal(outcome.reason, 'summarizer-failed');
    assert.equal(outcome.error, boom);
    assert.match(outcome.message, /provider unavailable/);
  }
  assert.equal(await snapshot(store, sessionId), before);
});

test('failed: a summary that is not a string is rejected', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  for (const answer of [42, { text: validSummary() }, undefined, null]) {
    const outcome = await compact({ store, sessionId, model: MODEL, summarize: async () => answer });
    assert.equal(outcome.status, 'failed', JSON.stringify(answer));
    assert.equal(outcome.reason, 'invalid-summary');
    assert.equal(outcome.error.code, 'invalid-summary');
  }
  assert.equal(await snapshot(store, sessionId), before);
});

test('a summary in prose or with sections missing is kept under the eight sections (summaryRepair kept)', async () => {
  const prose = 'The researcher compares two soil-carbon studies (Smith 2020, Doe 2021) and prefers field data.\nNext they want the sampling depths side by side.';
  const missing = validSummary('partial').replace('## Decisions', '## Choices');
  for (const [answer, problem] of [[prose, /missing the section "Research Goal"/], [missing, /missing the section "Decisions"/]]) {
    const { store, sessionId } = await storeWith(linearSession(4));
    const outcome = await compact({ store, sessionId, model: MODEL, summarize: async () => answer });
    assert.equal(outcome.status, 'committed', outcome.message);
    assert.equal(outcome.summaryRepair.kind, 'kept');
    assert.match(outcome.summaryRepair.problem, problem);
    const summary = outcome.checkpoint.checkpoint.summary;
    for (const line of answer.split('\n').filter((l) => !l.startsWith('## '))) assert.ok(summary.includes(line), `kept: ${line}`);
    compaction.validateSummary(summary);
    assert.deepEqual(outcome.session, await store.load(sessionId));
  }
  // A valid summary is committed as written, with no summaryRepair.
  const { store, sessionId } = await storeWith(linearSession(4));
  const outcome = await compact({ store, sessionId, model: MODEL, summarize: async () => validSummary() });
  assert.equal(outcome.status, 'committed');
  assert.equal('summaryRepair' in outcome, false);
  assert.equal(outcome.checkpoint.checkpoint.summary, validSummary());
});

test('nothing usable back (empty, blank, headings only): the embedded extractive summary of the request (summaryRepair embedded)', async () => {
  // Some of the headings and nothing under them (all eight, empty, is a valid summary).
  const headingsOnly = '## Research Goal\n\n**Decisions**\n## Critical Context\n';
  for (const answer of ['', '   \n\t', headingsOnly]) {
    const { store, sessionId } = await storeWith(linearSession(4));
    let asked;
    const outcome = await compact({
      store, sessionId, model: MODEL,
      summarize: async (request) => {
        asked = structuredClone(request);
        request.history = 'changed by the summarizer'; // the fallback reads the request as it was
        return answer;
      },
    });
    assert.equal(outcome.status, 'committed', outcome.message);
    assert.equal(outcome.summaryRepair.kind, 'embedded', JSON.stringify(answer));
    assert.match(outcome.summaryRepair.problem, answer.trim() ? /missing the section "User Requirements and Constraints"/ : /summary is empty/);
    assert.equal(outcome.checkpoint.checkpoint.summary, compaction.extractiveSummary(asked));
  }
});

test('a repaired summary is held to the summary budget like a valid one: within it commits, over it nothing is written', async () => {
  const within = await storeWith(linearSession(4));
  const kept = await compact({ ...within, model: MODEL, summarize: async () => 'prose '.repeat(200).trim() });
  assert.equal(kept.status, 'committed', kept.message);
  assert.equal(kept.summaryRepair.kind, 'kept');
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const outcome = await compact({ store, sessionId, model: MODEL, summarize: async () => 'prose '.repeat(50_000) });
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.reason, 'summary-over-budget');
  assert.equal(await snapshot(store, sessionId), before);
});

test('failed: a transaction that throws midway writes nothing', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const wrapped = wrapTransactions(store, (tx) => ({
    load: () => tx.load(),
    appendNode: (node) => tx.appendNode(node),
    setLeaf: async () => {
      throw new Error('disk full');
    },
  }));
  const outcome = await compact({ store: wrapped, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.reason, 'store-failed');
  assert.match(outcome.message, /disk full/);
  assert.equal(await snapshot(store, sessionId), before);
});

test('failed: store.load rejects', async () => {
  const store = {
    load: async () => {
      throw new Error('no such session');
    },
    transaction: async () => assert.fail('never reached'),
  };
  const outcome = await compact({ store, sessionId: 'x', model: MODEL, summarize: () => validSummary() });
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.reason, 'store-failed');
});

test('noop: nothing to do ends before summarizing', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize, calls } = scriptedSummarizer();
  const first = await compact({ store, sessionId, model: MODEL, summarize });
  assert.equal(first.status, 'committed');
  const again = await compact({ store, sessionId, model: MODEL, summarize });
  assert.equal(again.status, 'noop');
  assert.equal(again.reason, 'leaf-is-checkpoint');
  const auto = await compact({ store, sessionId, model: MODEL, mode: 'auto', summarize });
  assert.equal(auto.status, 'noop');
  assert.equal(calls.length, 1);
  assert.deepEqual(again.session, first.session);
});

test('too-large: a preflight draft that cannot fit even after compacting', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const before = await snapshot(store, sessionId);
  const { summarize, calls } = scriptedSummarizer();
  const draft = 'lorem ipsum '.repeat(3000);
  const outcome = await compact({ store, sessionId, model: SMALL_MODEL, mode: 'preflight', draft, summarize });
  assert.equal(outcome.status, 'too-large');
  assert.equal(outcome.plan.send, 'too-large');
  assert.equal(calls.length, 0);
  assert.equal(await snapshot(store, sessionId), before);
});

test('preflight over the limit compacts with the draft kept out of the summary', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const { summarize, calls } = scriptedSummarizer();
  const draft = userMessage('D1', null, 'DRAFT-MARKER what did we find about attention?');
  const outcome = await compact({ store, sessionId, model: SMALL_MODEL, mode: 'preflight', draft, summarize });
  assert.equal(outcome.status, 'committed');
  assert.equal(outcome.plan.send, 'after-compaction');
  assert.ok(!calls[0].request.prompt.includes('DRAFT-MARKER'));
  assert.ok(!outcome.session.nodes.some((n) => n.id === 'D1'), 'the draft is not written');
});

test('invalid options reject with a code; nothing is called', async () => {
  const { store, sessionId } = await storeWith(linearSession(2));
  const summarize = () => assert.fail('not called');
  const cases = [
    [undefined, 'invalid-options'],
    [{ store: {}, sessionId, model: MODEL, summarize }, 'invalid-options'],
    [{ store, sessionId: '', model: MODEL, summarize }, 'invalid-options'],
    [{ store, sessionId, model: { contextWindow: 10 }, summarize }, 'invalid-model'],
    [{ store, sessionId, model: MODEL, summarize: 'no' }, 'invalid-options'],
    [{ store, sessionId, model: MODEL, summarize, mode: 'sometimes' }, 'invalid-options'],
    [{ store, sessionId, model: MODEL, summarize, signal: { aborted: false } }, 'invalid-options'],
    [{ store, sessionId, model: MODEL, summarize, mode: 'preflight', draft: 12 }, 'invalid-options'],
  ];
  for (const [options, code] of cases) {
    await assert.rejects(compact(options), (error) => error instanceof Error && error.code === code, JSON.stringify(options));
  }
});

test('the options object is not mutated', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const draft = userMessage('D1', null, 'draft');
  const options = { store, sessionId, model: { ...MODEL }, mode: 'preflight', draft, summarize: () => validSummary() };
  const before = JSON.stringify(options);
  await compact(options);
  assert.equal(JSON.stringify(options), before);
});

test('the committed checkpoint is the outcome\'s: changing it leaves the stored node as written, and changing the provider part the summarizer gave changes neither', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const providerPart = { type: 'text', text: 'The provider\'s summary.', providerMetadata: { anthropic: { type: 'compaction' } } };
  const outcome = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize: async () => ({ summary: validSummary(), providerPart }) });
  assert.equal(outcome.status, 'committed', outcome.message);
  const storedNode = async () => JSON.stringify((await store.load(sessionId)).nodes.find((n) => n.id === outcome.checkpoint.id));
  const before = await storedNode();
  assert.ok(before.includes('The provider'), before.slice(0, 200));
  outcome.checkpoint.checkpoint.summary = 'changed by the app';
  outcome.session.nodes.at(-1).checkpoint.ledger = null;
  providerPart.text = 'changed by the summarizer';
  assert.equal(await storedNode(), before);
  assert.equal(outcome.checkpoint.checkpoint.providerPart.text, 'The provider\'s summary.', 'the outcome keeps the part as it was given');
});

test('re-entrant calls from the callbacks do not throw "recursive use of an object"', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const other = await storeWith(linearSession(4));
  const index = compaction.SessionIndex.from(await store.load(sessionId));
  const { summarize } = scriptedSummarizer(async (request) => {
    // Every kind of export, while `compact` awaits the summarizer.
    const session = await store.load(sessionId);
    compaction.project(session);
    compaction.readBranch(session);
    index.project();
    index.append(userMessage('X1', 'A4', 'index only'));
    const nested = await compact({ store: other.store, sessionId: other.sessionId, model: MODEL, summarize: () => validSummary('nested') });
    assert.equal(nested.status, 'committed');
    return validSummary(request.maxOutputTokens > 0 ? 'outer' : 'x');
  });
  const reentrantStore = {
    load: (id) => store.load(id),
    transaction: (id, fn) =>
      store.transaction(id, async (tx) => {
        compaction.project(await tx.load()); // wasm called again from inside the callback
        return fn(tx);
      }),
  };
  const outcome = await compact({ store: reentrantStore, sessionId, model: MODEL, summarize });
  assert.equal(outcome.status, 'committed');
  index.free();
});

test('two runs at once on one basis: one commits, the other is stale, one checkpoint', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const first = gatedSummarizer(validSummary('first'));
  const second = gatedSummarizer(validSummary('second'));
  const a = compact({ store, sessionId, model: MODEL, summarize: first.summarize });
  const b = compact({ store, sessionId, model: MODEL, summarize: second.summarize });
  await Promise.all([first.started, second.started]);
  first.release();
  second.release();
  const outcomes = await Promise.all([a, b]);
  assert.deepEqual(outcomes.map((o) => o.status).sort(), ['committed', 'stale']);
  const stored = await store.load(sessionId);
  assert.equal(checkpointsOf(stored).length, 1);
  assert.deepEqual(outcomes.find((o) => o.status === 'stale').session, stored);
});

test('checkCommit and checkpointNode: the commit checks as plain exports', () => {
  const session = linearSession(4);
  const frozen = JSON.stringify(session);
  const plan = compaction.plan(session, MODEL, { mode: 'manual' });
  assert.equal(plan.action, 'compact');
  assert.deepEqual(compaction.checkCommit(session, plan), { ok: true });
  const moved = { ...session, nodes: [...session.nodes, userMessage('U5', 'A4', 'more')], leafId: 'U5', branchRevision: 9 };
  assert.deepEqual(compaction.checkCommit(moved, plan), { ok: false, reason: 'leaf-moved' });
  assert.deepEqual(compaction.checkCommit({ ...session, branchRevision: 10 }, plan), { ok: false, reason: 'revision-changed' });

  const node = compaction.checkpointNode(plan, validSummary(), { entries: [] });
  assert.match(node.id, /^ckpt_[0-9a-f]{24}$/);
  assert.equal(node.parentId, plan.basis.leafId);
  assert.deepEqual(node.checkpoint.basis, plan.basis);
  assert.notEqual(compaction.checkpointNode(plan, validSummary()).id, node.id, 'ids are random; the ledger may be omitted');
  assert.deepEqual(compaction.checkCommit({ ...session, nodes: [...session.nodes, node], leafId: node.id, branchRevision: 9 }, plan), {
    ok: false,
    reason: 'leaf-moved',
  });

  const code = (c) => (error) => error instanceof Error && error.code === c;
  assert.throws(() => compaction.checkpointNode(plan, ''), code('invalid-summary'));
  assert.throws(() => compaction.checkpointNode(plan, 42), code('invalid-summary'));
  assert.throws(() => compaction.checkpointNode(plan, validSummary().replace('## Decisions', '')), code('invalid-summary'));
  assert.throws(() => compaction.checkpointNode({ ...plan, action: 'none' }, validSummary()), code('invalid-plan'));
  assert.throws(() => compaction.checkpointNode(plan, validSummary(), { entries: 'x' }), code('invalid-ledger'));
  assert.throws(() => compaction.checkCommit(session, { nope: true }), code('invalid-plan'));
  assert.throws(() => compaction.checkCommit({ nodes: 1 }, plan), code('invalid-session'));
  assert.equal(JSON.stringify(session), frozen, 'inputs are not mutated');
});

// ---- the runner in the glue (js-glue/runner.js): what it keeps of the Rust runner it replaced ----

test('a store whose transaction does not hand back fn\'s result still reports the outcome', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const quiet = { load: (id) => store.load(id), transaction: async (id, fn) => { await store.transaction(id, fn); } };
  const outcome = await compact({ store: quiet, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.equal(outcome.status, 'committed');
  assert.deepEqual(outcome.session, await store.load(sessionId));
});

test('a transaction that resolves without running fn is internal; fn called after it settled is refused', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  let kept;
  const lazy = { load: (id) => store.load(id), transaction: async (id, fn) => { kept = fn; return 'done'; } };
  const outcome = await compact({ store: lazy, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.reason, 'internal');
  assert.match(outcome.message, /without running fn/);
  assert.equal(outcome.error.code, 'internal');
  await store.transaction(sessionId, (tx) =>
    assert.rejects(kept(tx), (error) => error.code === 'internal' && /after the transaction settled/.test(error.message)));
  assert.equal(await snapshot(store, sessionId), before);
});

test('store methods that throw synchronously, and a transaction whose load is malformed, fail and write nothing', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const throwing = (name) => () => {
    throw new Error(`${name} broke`);
  };
  const loadThrows = await compact({ store: { load: throwing('load'), transaction: () => assert.fail('never') }, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.deepEqual([loadThrows.status, loadThrows.reason, loadThrows.message], ['failed', 'store-failed', 'store.load failed: load broke']);
  const txThrows = await compact({ store: { load: (id) => store.load(id), transaction: throwing('transaction') }, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.deepEqual([txThrows.status, txThrows.reason, txThrows.message], ['failed', 'store-failed', 'store.transaction failed: transaction broke']);
  const stringThrown = await compact({ store: { load: () => Promise.reject('offline'), transaction: () => assert.fail('never') }, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.equal(stringThrown.message, 'store.load failed: offline');
  const malformed = wrapTransactions(store, (tx) => ({ ...tx, load: async () => ({ nodes: 1 }), appendNode: () => assert.fail('never') }));
  const bad = await compact({ store: malformed, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.deepEqual([bad.status, bad.reason, bad.error.code], ['failed', 'invalid-session', 'invalid-session']);
  const badLoad = await compact({ store: { load: async () => ({ nodes: 'x' }), transaction: () => assert.fail('never') }, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.equal(badLoad.reason, 'invalid-session');
  assert.equal(await snapshot(store, sessionId), before);
});

test('committed: the session is the nodes read in the transaction plus the checkpoint; store and outcome get their own copies', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  let read;
  let appended;
  const spying = wrapTransactions(store, (tx) => ({
    load: async () => (read = await tx.load()),
    appendNode: (node) => tx.appendNode((appended = node)),
    setLeaf: (id, revision) => tx.setLeaf(id, revision),
  }));
  const outcome = await compact({ store: spying, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.equal(outcome.status, 'committed');
  assert.equal(outcome.session.nodes.length, read.nodes.length + 1);
  read.nodes.forEach((node, i) => assert.equal(outcome.session.nodes[i], node, 'the nodes of tx.load(), not copies'));
  assert.equal(outcome.session.nodes.at(-1), outcome.checkpoint);
  assert.notEqual(appended, outcome.checkpoint);
  assert.deepEqual(appended, outcome.checkpoint);
  assert.deepEqual(Object.keys(outcome), ['status', 'reason', 'plan', 'session', 'checkpoint']);
});

test('committed on a session whose nodes are not an array but JSON as one (toJSON)', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const viaToJson = wrapTransactions(store, (tx) => ({
    ...tx,
    load: async () => {
      const fresh = await tx.load();
      const nodes = fresh.nodes;
      return { ...fresh, nodes: { toJSON: () => nodes } };
    },
  }));
  const outcome = await compact({ store: viaToJson, sessionId, model: MODEL, summarize: () => validSummary() });
  assert.equal(outcome.status, 'committed');
  assert.ok(Array.isArray(outcome.session.nodes));
  assert.deepEqual(outcome.session, await store.load(sessionId));
});

test('what the summarizer does to its request and what the caller does to the options meanwhile change nothing', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const options = { store, sessionId, model: { ...MODEL }, mode: 'manual', summarize: null };
  options.summarize = (request) => {
    request.ledger.entries.push({ bogus: true });
    request.maxOutputTokens = 'many';
    return validSummary();
  };
  const running = compact(options);
  // Read when compact was called: a later change of the model or mode is not seen.
  options.model.contextWindow = 10;
  options.mode = 'sometimes';
  const outcome = await running;
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.deepEqual(outcome.checkpoint.checkpoint.ledger, { entries: [] });
  assert.equal(outcome.checkpoint.checkpoint.mode, 'manual');
});

test('every abort listener the runner adds it removes again, where the signal can', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const live = new Set();
  let added = 0;
  const signal = {
    aborted: false,
    addEventListener(type, listener) {
      assert.equal(type, 'abort');
      live.add(listener);
      added += 1;
    },
    removeEventListener(type, listener) {
      assert.equal(type, 'abort');
      live.delete(listener);
    },
  };
  const outcome = await compact({ store, sessionId, model: MODEL, summarize: async () => validSummary(), signal });
  assert.equal(outcome.status, 'committed');
  assert.equal(added, 2, 'one for store.load, one for the summarizer');
  assert.equal(live.size, 0);
  // A signal whose `aborted` getter throws never fired; one whose addEventListener throws is still awaited.
  const unreadable = { get aborted() { throw new Error('no'); }, addEventListener() { throw new Error('no'); } };
  const again = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize: () => validSummary('2'), signal: unreadable });
  assert.equal(again.status, 'noop');
});

test('the runner needs no AbortController, console, queueMicrotask or structuredClone (a plugin sandbox)', async () => {
  const names = ['AbortController', 'console', 'queueMicrotask', 'structuredClone'];
  const saved = names.map((name) => Object.getOwnPropertyDescriptor(globalThis, name));
  const { store, sessionId } = await storeWith(linearSession(4));
  const other = await storeWith(linearSession(4));
  const { signal, abort } = minimalSignal();
  let outcomes;
  try {
    for (const name of names) delete globalThis[name];
    const committed = await compact({ store, sessionId, model: MODEL, summarize: () => validSummary() });
    const gated = gatedSummarizer();
    const running = compact({ store: other.store, sessionId: other.sessionId, model: MODEL, summarize: gated.summarize, signal });
    await gated.started;
    abort();
    outcomes = [committed, await running];
  } finally {
    names.forEach((name, i) => saved[i] && Object.defineProperty(globalThis, name, saved[i]));
  }
  assert.deepEqual(outcomes.map((o) => o.status), ['committed', 'cancelled']);
});

test('checkpointNode applies the summary budget when given the request\'s maxOutputTokens', () => {
  const session = linearSession(4);
  const plan = compaction.plan(session, MODEL, { mode: 'manual' });
  const long = validSummary('x'.repeat(4000));
  assert.equal(compaction.checkpointNode(plan, long, { entries: [] }).checkpoint.summary, long, 'no budget given: not checked');
  assert.throws(() => compaction.checkpointNode(plan, long, { entries: [] }, 100), (e) => e.code === 'summary-over-budget');
  // The budget rule comes first: a summary over it is refused whatever else it lacks.
  assert.throws(() => compaction.checkpointNode(plan, 'y'.repeat(20000), { entries: [] }, 100), (e) => e.code === 'summary-over-budget');
  assert.equal(compaction.checkpointNode(plan, validSummary(), undefined, 100).parentId, plan.basis.leafId);
  for (const bad of [-1, 1.5, 'many', {}]) {
    assert.throws(() => compaction.checkpointNode(plan, validSummary(), undefined, bad), (e) => e.code === 'invalid-options', String(bad));
  }
});

// Issue 23, item 3: the projected ledger's budget comes from the model, never from how short the
// summary is. A manual compaction on 128k of a turn with Zotero items, an attachment, annotations,
// collections, tags, a PDF page, an EPUB CFI and a data part, summarized in a few lines.
test('the projected ledger: a concise summary on a 128k model shows every Zotero locator of the compacted turn', async () => {
  const { readFileSync } = await import('node:fs');
  const fixture = (name) => JSON.parse(readFileSync(new URL(`../fixtures/zotero/${name}.json`, import.meta.url), 'utf8'));
  const reader = fixture('reader-locations');
  const tool = (name, call, output) => ({ type: `tool-${name}`, toolCallId: call, state: 'output-available', input: {}, output });
  const a1 = {
    id: 'A1', parentId: 'U1', role: 'assistant', parts: [
      tool('zoteroSearch', 'c1', fixture('search-results')),
      tool('getAnnotations', 'c2', fixture('annotations')),
      tool('getChildren', 'c3', fixture('children')),
      tool('listCollections', 'c4', fixture('collections')),
      tool('listTags', 'c5', fixture('tags')),
      tool('readPdfPages', 'c6', reader.pdfPageRead),
      { type: 'data-readerLocation', id: 'd1', data: reader.epubLocation },
      { type: 'data-zoteroItem', id: 'd2', data: fixture('item-tojson') },
      { type: 'text', text: 'Six items, their annotations and the reader positions.' },
    ],
  };
  const session = { nodes: [userMessage('U1', null, 'Find the dog longevity studies.'), a1, userMessage('U2', 'A1', 'Summarize them.'), assistantMessage('A2', 'U2', 'Done.')], leafId: 'A2', branchRevision: 4 };
  const { store, sessionId } = await storeWith(session);
  const concise = validSummary('dogs');
  const outcome = await compact({ store, sessionId, model: { contextWindow: 128_000 }, mode: 'manual', summarize: () => concise });
  assert.equal(outcome.status, 'committed', JSON.stringify(outcome));
  const checkpoint = outcome.session.nodes.find((n) => n.checkpoint).checkpoint;
  assert.ok(checkpoint.ledger.entries.length >= 20, `${checkpoint.ledger.entries.length} entries`);
  const text = compaction.project(outcome.session).messages[0].parts[0].text;
  assert.doesNotMatch(text, /more entries are kept/);
  for (const entry of checkpoint.ledger.entries) assert.ok(text.includes(entry.key), `${entry.kind} ${entry.key} is projected`);
  assert.equal(checkpoint.ledgerBudget, 2056, 'the budget stored on the checkpoint');
});

test('the registers reach the checkpoint through the runner whatever the summarizer writes (issue 34)', async () => {
  // A summarizer that also empties the request's registers: the runner keeps what the request carried.
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize, calls } = scriptedSummarizer((request) => {
    request.userWords.length = 0;
    request.citedPages.length = 0;
    return validSummary();
  });
  const outcome = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize });
  assert.equal(outcome.status, 'committed');
  const { checkpoint } = outcome.checkpoint;
  const summarized = outcome.plan.summarizeIds.filter((id) => id.startsWith('U'));
  assert.ok(summarized.length > 0 && calls.length === 1);
  assert.deepEqual(checkpoint.userWords.map((w) => w.id), summarized, 'every summarized user message, in order');
  assert.equal(checkpoint.userWordsBudget, outcome.plan.userWordsBudget);
  assert.ok(checkpoint.userWordsBudget > 0 && checkpoint.citedPagesBudget > 0);
  const text = compaction.project(outcome.session).messages[0].parts[0].text;
  assert.ok(text.includes("The user's own words") && text.includes('question 1: ask0'), text);
  assert.ok(compaction.estimate(outcome.session, MODEL).tokens <= outcome.plan.tokensAfterEstimate, 'the plan counted the registers');
});
