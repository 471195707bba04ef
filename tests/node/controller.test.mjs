// CompactionController against the packed package: single flight, gating of session operations,
// preflight sends, background automatic checks, and that failures never send or write.
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
  wrapTransactions,
  userMessage,
} from './runner-fixtures.mjs';

const { CompactionController } = compaction;

/** A controller plus the statuses it reported, in order. */
function controllerFor(store, sessionId, summarize, model = MODEL) {
  const statuses = [];
  const controller = new CompactionController({ store, sessionId, model, summarize, onStatus: (s) => statuses.push(s) });
  return { controller, statuses };
}

/** Whether `promise` settled by the time already-queued work ran (no timers involved). */
async function isSettled(promise) {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
  return settled;
}

/** An assistant turn waiting for the user's approval of a tool call. */
const pendingApproval = (id, parentId) => ({
  id,
  parentId,
  role: 'assistant',
  parts: [
    { type: 'step-start' },
    {
      type: 'tool-zoteroAddNote',
      toolCallId: `call-${id}`,
      state: 'approval-requested',
      input: { parentItem: 'ABCD2345', note: 'summary of the paper' },
      approval: { id: `approval-${id}` },
    },
  ],
});

test('compact(manual): compacting with a cancel handle, then idle with the outcome', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize } = scriptedSummarizer();
  const { controller, statuses } = controllerFor(store, sessionId, summarize);
  assert.equal(controller.state.status, 'idle');
  const outcome = await controller.compact();
  assert.equal(outcome.status, 'committed');
  assert.deepEqual(statuses.map((s) => s.status), ['compacting', 'idle']);
  assert.equal(statuses[0].mode, 'manual');
  assert.equal(typeof statuses[0].cancel, 'function');
  assert.equal(statuses[1].outcome, outcome);
  assert.equal(controller.state.status, 'idle');
  assert.deepEqual(outcome.session, await store.load(sessionId));
});

test("can('retry') and the other session operations are false while compacting; the draft stays editable", async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const gated = gatedSummarizer();
  const { controller } = controllerFor(store, sessionId, gated.summarize);
  for (const action of ['retry', 'edit', 'fork', 'switch-model', 'compact', 'edit-draft', 'submit']) assert.equal(controller.can(action), true);
  const running = controller.compact();
  await gated.started;
  assert.equal(controller.state.status, 'compacting');
  for (const action of ['retry', 'edit', 'fork', 'switch-model', 'compact']) assert.equal(controller.can(action), false, action);
  assert.equal(controller.can('edit-draft'), true);
  assert.equal(controller.can('submit'), true);
  assert.throws(() => controller.setModel(SMALL_MODEL), (e) => e.code === 'busy');
  assert.throws(() => controller.can('delete-everything'), (e) => e.code === 'invalid-options');
  gated.release();
  await running;
  assert.equal(controller.can('retry'), true);
  controller.setModel(SMALL_MODEL);
  assert.equal(controller.model, SMALL_MODEL);
});

test('submit during a running compaction waits for it, then sends the new projection plus the draft', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const gated = gatedSummarizer();
  const { controller } = controllerFor(store, sessionId, gated.summarize);
  const compacting = controller.compact();
  await gated.started;
  const draft = userMessage('D1', null, 'and what about BERT?');
  const frozen = structuredClone(draft);
  const sending = controller.submit(draft);
  assert.equal(await isSettled(sending), false, 'submit waits while the compaction runs');
  gated.release();
  const outcome = await compacting;
  const result = await sending;
  assert.equal(result.status, 'send');
  assert.equal(result.messages[0].id, outcome.checkpoint.id, 'the summary comes first');
  assert.equal(result.messages.at(-1), draft, 'the draft is sent as given');
  assert.deepEqual(draft, frozen, 'and not changed');
  assert.deepEqual(result.messages.slice(0, -1), compaction.project(await store.load(sessionId)).messages);
  assert.equal(gated.calls.length, 1, 'the draft fits after the compaction: no second summary');
});

test('submit that fits sends at once: no compaction, no status change', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const { summarize, calls } = scriptedSummarizer();
  const { controller, statuses } = controllerFor(store, sessionId, summarize);
  const result = await controller.submit('a short question');
  assert.equal(result.status, 'send');
  assert.equal(result.messages.length, 9);
  assert.deepEqual(result.messages.at(-1).parts, [{ type: 'text', text: 'a short question' }]);
  assert.equal(result.messages.at(-1).role, 'user');
  assert.equal(calls.length, 0);
  assert.deepEqual(statuses, []);
  assert.equal(await snapshot(store, sessionId), before);
});

test('submit over the limit compacts first (preflight), then sends', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const { summarize, calls } = scriptedSummarizer();
  const { controller, statuses } = controllerFor(store, sessionId, summarize, SMALL_MODEL);
  const draft = userMessage('D1', null, 'next question');
  const result = await controller.submit(draft);
  assert.equal(result.status, 'send');
  assert.equal(calls.length, 1);
  assert.equal(result.outcome.status, 'committed');
  assert.equal(result.outcome.plan.send, 'after-compaction');
  assert.deepEqual(statuses.map((s) => [s.status, s.mode]), [['compacting', 'preflight'], ['idle', undefined]]);
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 1);
});

test('submit with a summarizer error: failed, draft intact, nothing written, never sent', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const before = await snapshot(store, sessionId);
  const { controller, statuses } = controllerFor(store, sessionId, async () => {
    throw new Error('rate limited');
  }, SMALL_MODEL);
  const draft = userMessage('D1', null, 'next question');
  const frozen = structuredClone(draft);
  const result = await controller.submit(draft);
  assert.equal(result.status, 'failed');
  assert.equal(result.reason, 'summarizer-failed');
  assert.equal(result.draft, draft);
  assert.deepEqual(draft, frozen);
  assert.equal(result.messages, undefined);
  assert.equal(await snapshot(store, sessionId), before);
  assert.equal(controller.state.status, 'failed');
  assert.equal(statuses.at(-1).reason, 'summarizer-failed');
});

test('submit over the limit with a summarizer writing prose sends: kept; nothing back: embedded; a throw still fails', async () => {
  const prose = 'Người dùng so sánh hai nghiên cứu về carbon trong đất; they want field data only.';
  for (const [answer, kind] of [[prose, 'kept'], ['', 'embedded'], [' \n ', 'embedded']]) {
    const { store, sessionId } = await storeWith(linearSession(8, 10));
    const { controller } = controllerFor(store, sessionId, async () => answer, SMALL_MODEL);
    const result = await controller.submit(userMessage('D1', null, 'next question'));
    assert.equal(result.status, 'send', result.message);
    assert.equal(result.outcome.status, 'committed');
    assert.equal(result.outcome.summaryRepair.kind, kind);
    const [checkpoint] = checkpointsOf(await store.load(sessionId));
    if (kind === 'kept') assert.ok(checkpoint.checkpoint.summary.includes(prose));
    assert.equal(controller.state.status, 'idle');
  }
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const before = await snapshot(store, sessionId);
  const { controller } = controllerFor(store, sessionId, async () => {
    throw new Error('model offline');
  }, SMALL_MODEL);
  const result = await controller.submit(userMessage('D1', null, 'next question'));
  assert.equal(result.status, 'failed');
  assert.equal(result.reason, 'summarizer-failed');
  assert.equal(await snapshot(store, sessionId), before);
});

test('submit cancelled while compacting: cancelled, draft returned, nothing written', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const before = await snapshot(store, sessionId);
  const { summarize, calls } = scriptedSummarizer(neverSettles);
  const { controller, statuses } = controllerFor(store, sessionId, summarize, SMALL_MODEL);
  const draft = 'next question';
  const sending = controller.submit(draft);
  while (calls.length === 0) await new Promise((r) => setImmediate(r));
  assert.equal(statuses.at(-1).status, 'compacting');
  assert.equal(statuses.at(-1).cancel(), true, 'the status carries the cancel handle');
  const result = await sending;
  assert.equal(result.status, 'cancelled');
  assert.equal(result.draft, draft);
  assert.equal(await snapshot(store, sessionId), before);
  assert.equal(controller.state.status, 'idle');
  assert.equal(controller.cancel(), false, 'nothing left to cancel');
});

test('submit of a draft that can never fit: too-large with the draft returned', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const { summarize, calls } = scriptedSummarizer();
  const { controller } = controllerFor(store, sessionId, summarize, SMALL_MODEL);
  const draft = 'lorem ipsum '.repeat(3000);
  const result = await controller.submit(draft);
  assert.equal(result.status, 'too-large');
  assert.equal(result.draft, draft);
  assert.equal(calls.length, 0);
});

test('submit retries a preflight that went stale, and sends on the new branch', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  let appended = false;
  const { summarize, calls } = scriptedSummarizer(async () => {
    if (!appended) {
      appended = true; // a tool result lands while the first summary is made
      // The final text is longer than the streamed one, so the session stays over the limit.
      const finalText = `answer 8 (final): ${Array.from({ length: 30 }, (_, i) => `found${i}`).join(' ')}`;
      await store.updateMessageParts(sessionId, 'A8', [{ type: 'text', text: finalText }]);
    }
    return validSummary();
  });
  const { controller } = controllerFor(store, sessionId, summarize, SMALL_MODEL);
  const result = await controller.submit('next question');
  assert.equal(result.status, 'send');
  assert.equal(calls.length, 2);
  const stored = await store.load(sessionId);
  assert.equal(checkpointsOf(stored).length, 1);
  assert.equal(result.messages[0].id, stored.leafId);
});

test('afterTurn with a pending approval does nothing', async () => {
  const session = linearSession(8, 10);
  session.nodes.push(userMessage('U9', 'A8', 'add a note to that paper'), pendingApproval('A9', 'U9'));
  session.leafId = 'A9';
  const { store, sessionId } = await storeWith(session);
  const before = await snapshot(store, sessionId);
  const { summarize, calls } = scriptedSummarizer();
  const { controller, statuses } = controllerFor(store, sessionId, summarize, SMALL_MODEL);
  const outcome = await controller.afterTurn();
  assert.equal(outcome.status, 'noop');
  assert.equal(outcome.reason, 'workflow-pending');
  assert.equal(calls.length, 0);
  assert.deepEqual(statuses, []);
  assert.equal(await snapshot(store, sessionId), before);
});

test('afterTurn over the threshold compacts in the background; a send in the meantime waits for it', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const gated = gatedSummarizer();
  const { controller } = controllerFor(store, sessionId, gated.summarize, SMALL_MODEL);
  const background = controller.afterTurn(); // returns at once; the caller does not await it
  await gated.started;
  assert.equal(controller.state.status, 'compacting');
  assert.equal(controller.state.mode, 'auto');
  assert.equal(await controller.afterTurn(), null, 'a second check while one runs is skipped');
  const sending = controller.submit('next question');
  assert.equal(await isSettled(sending), false);
  gated.release();
  assert.equal((await background).status, 'committed');
  const result = await sending;
  assert.equal(result.status, 'send');
  assert.equal(gated.calls.length, 1);
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 1);
});

test("afterTurn compacts at the profile's autoCompactRatio, where the default threshold would not; tailShare sets the tail", async () => {
  const model = { contextWindow: 8192, autoCompactRatio: 0.7 };
  const { autoCompactAt } = compaction.capacity(model);
  assert.equal(autoCompactAt, Math.floor(0.7 * 8192));
  const defaultAt = compaction.capacity({ contextWindow: 8192 }).autoCompactAt;
  assert.ok(autoCompactAt < defaultAt);
  // The shortest session at or over the profile's threshold: under the default one.
  let session;
  for (let turns = 1; ; turns++) {
    session = linearSession(turns, 40);
    const { tokens } = compaction.estimate(session, model);
    if (tokens < autoCompactAt) continue;
    assert.ok(tokens < defaultAt, `${tokens} tokens: between ${autoCompactAt} and ${defaultAt}`);
    break;
  }
  const under = await storeWith(session);
  const plain = controllerFor(under.store, under.sessionId, scriptedSummarizer().summarize, { contextWindow: 8192 });
  const noop = await plain.controller.afterTurn();
  assert.equal(noop.status, 'noop');
  assert.equal(noop.reason, 'under-threshold');

  const over = await storeWith(session);
  const { summarize, calls } = scriptedSummarizer();
  const { controller } = controllerFor(over.store, over.sessionId, summarize, model);
  const outcome = await controller.afterTurn();
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.equal(outcome.plan.mode, 'auto');
  assert.equal(calls.length, 1);
  assert.equal(checkpointsOf(await over.store.load(over.sessionId)).length, 1);

  assert.equal(compaction.capacity({ contextWindow: 200_000, tailShare: 0.1 }).tailBudget, 20_000);
  assert.equal(compaction.capacity({ contextWindow: 1_000_000, tailShare: 0.3 }).tailBudget, 300_000, 'no 48,000 ceiling');
});

test('afterTurn under the threshold does nothing', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const { summarize, calls } = scriptedSummarizer();
  const { controller, statuses } = controllerFor(store, sessionId, summarize);
  const outcome = await controller.afterTurn();
  assert.equal(outcome.status, 'noop');
  assert.equal(outcome.reason, 'under-threshold');
  assert.equal(calls.length, 0);
  assert.deepEqual(statuses, []);
});

test('two compact calls at once join: one summary, one checkpoint', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const gated = gatedSummarizer();
  const { controller } = controllerFor(store, sessionId, gated.summarize);
  const first = controller.compact('manual');
  const second = controller.compact('manual');
  await gated.started;
  gated.release();
  const [a, b] = await Promise.all([first, second]);
  assert.equal(a, b);
  assert.equal(a.status, 'committed');
  assert.equal(gated.calls.length, 1);
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 1);
  const third = await controller.compact('manual');
  assert.equal(third.status, 'noop', 'afterwards the leaf is the checkpoint');
});

test('two controllers on one session never give two checkpoints on one basis: the second joins the running compaction', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const one = gatedSummarizer();
  const two = gatedSummarizer();
  const a = controllerFor(store, sessionId, one.summarize).controller;
  const b = controllerFor(store, sessionId, two.summarize).controller;
  const runs = [a.compact(), b.compact()];
  await one.started;
  one.release();
  const outcomes = await Promise.all(runs);
  // One compaction per store and session in the process (issue 24): no paid summary discarded as stale.
  assert.deepEqual(outcomes.map((o) => o.status), ['committed', 'committed']);
  assert.equal(outcomes[1], outcomes[0]);
  assert.equal(two.calls.length, 0, "the second controller's summarizer is never called");
  const bases = checkpointsOf(await store.load(sessionId)).map((n) => JSON.stringify(n.checkpoint.basis));
  assert.equal(bases.length, 1);
});

test('a store whose transaction throws midway: failed, nothing written, status failed', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const broken = wrapTransactions(store, (tx) => ({
    load: () => tx.load(),
    appendNode: (node) => tx.appendNode(node),
    setLeaf: async () => {
      throw new Error('database is locked');
    },
  }));
  const { controller, statuses } = controllerFor(broken, sessionId, () => validSummary());
  const outcome = await controller.compact();
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.reason, 'store-failed');
  assert.equal(await snapshot(store, sessionId), before);
  assert.deepEqual(statuses.map((s) => s.status), ['compacting', 'failed']);
  assert.match(controller.state.message, /database is locked/);
  assert.equal(controller.can('retry'), true, 'a failure does not block the session');
});

test('a failing onStatus callback does not break the controller', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const original = console.error;
  const reported = [];
  console.error = (e) => reported.push(e);
  try {
    const controller = new CompactionController({
      store,
      sessionId,
      model: MODEL,
      summarize: () => validSummary(),
      onStatus: () => {
        throw new Error('ui gone');
      },
    });
    const outcome = await controller.compact();
    assert.equal(outcome.status, 'committed');
    assert.equal(controller.state.status, 'idle');
  } finally {
    console.error = original;
  }
  assert.ok(reported.length > 0);
});

test('constructor and method arguments are validated with codes', async () => {
  const { store, sessionId } = await storeWith(linearSession(2));
  const summarize = () => validSummary();
  assert.throws(() => new CompactionController(), (e) => e.code === 'invalid-options');
  assert.throws(() => new CompactionController({ store: {}, sessionId, model: MODEL, summarize }), (e) => e.code === 'invalid-options');
  assert.throws(() => new CompactionController({ store, sessionId, model: null, summarize }), (e) => e.code === 'invalid-model');
  assert.throws(() => new CompactionController({ store, sessionId, model: MODEL }), (e) => e.code === 'invalid-options');
  const controller = new CompactionController({ store, sessionId, model: MODEL, summarize });
  await assert.rejects(controller.compact('preflight'), (e) => e.code === 'invalid-options');
  await assert.rejects(controller.submit(), (e) => e.code === 'invalid-options');
});

test("works where there is no AbortController or AbortSignal (Zotero's plugin sandbox)", async () => {
  const saved = { AbortController: globalThis.AbortController, AbortSignal: globalThis.AbortSignal };
  delete globalThis.AbortController;
  delete globalThis.AbortSignal;
  try {
    const { store, sessionId } = await storeWith(linearSession(4));
    const before = await snapshot(store, sessionId);
    const { summarize, calls } = scriptedSummarizer(neverSettles);
    const { controller } = controllerFor(store, sessionId, summarize);
    const running = controller.compact();
    while (calls.length === 0) await new Promise((r) => setImmediate(r));
    assert.equal(calls[0].signal.aborted, false);
    assert.equal(controller.cancel(), true);
    assert.equal(calls[0].signal.aborted, true, 'the summarizer sees the cancellation');
    assert.equal((await running).status, 'cancelled');
    assert.equal(await snapshot(store, sessionId), before);
    assert.equal(controller.state.status, 'idle');
  } finally {
    Object.assign(globalThis, saved);
  }
});

// ---- Issue 14: a send that waited on a compaction that failed or was cancelled is never sent ----

/** A summarizer that waits for `fail()` and then rejects; `started` resolves on the first call. */
function failingSummarizer() {
  let started;
  let fail;
  const startedPromise = new Promise((r) => (started = r));
  const gate = new Promise((_, reject) => (fail = () => reject(new Error('provider unavailable'))));
  const { summarize, calls } = scriptedSummarizer(async () => {
    started();
    return gate;
  });
  return { summarize, calls, started: startedPromise, fail };
}

test('if the operation is cancelled, the message is not submitted silently and the draft remains intact (submit waited on a manual compaction)', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const gated = gatedSummarizer();
  const { controller } = controllerFor(store, sessionId, gated.summarize);
  const compacting = controller.compact('manual');
  await gated.started;
  const draft = userMessage('D1', null, 'hello');
  const frozen = structuredClone(draft);
  const sending = controller.submit(draft);
  assert.equal(await isSettled(sending), false, 'the submit waits for the compaction');
  assert.equal(controller.cancel(), true);
  assert.equal((await compacting).status, 'cancelled');
  const result = await sending;
  assert.equal(result.status, 'cancelled');
  assert.equal(result.draft, draft);
  assert.deepEqual(draft, frozen);
  assert.equal(result.messages, undefined, 'nothing to send');
  assert.equal(gated.calls.length, 1, 'no preflight started after the cancel');
  assert.equal(await snapshot(store, sessionId), before);
  const again = await controller.submit(draft);
  assert.equal(again.status, 'send', "the user's next explicit submit tries again");
});

test('if the operation fails, the message is not submitted silently and the draft remains intact (submit waited on a manual compaction)', async () => {
  const { store, sessionId } = await storeWith(linearSession(4));
  const before = await snapshot(store, sessionId);
  const failing = failingSummarizer();
  const { controller } = controllerFor(store, sessionId, failing.summarize);
  const compacting = controller.compact('manual');
  await failing.started;
  const sending = controller.submit('hello');
  assert.equal(await isSettled(sending), false);
  failing.fail();
  assert.equal((await compacting).status, 'failed');
  const result = await sending;
  assert.equal(result.status, 'failed');
  assert.equal(result.reason, 'summarizer-failed');
  assert.equal(result.draft, 'hello');
  assert.equal(result.messages, undefined);
  assert.equal(failing.calls.length, 1);
  assert.equal(await snapshot(store, sessionId), before);
});

test('if the operation is cancelled, the message is not submitted silently (submit waited on an after-turn compaction)', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const gated = gatedSummarizer();
  const { controller } = controllerFor(store, sessionId, gated.summarize, SMALL_MODEL);
  const background = controller.afterTurn();
  await gated.started;
  const sending = controller.submit('next question');
  controller.cancel();
  assert.equal((await background).status, 'cancelled');
  const result = await sending;
  assert.equal(result.status, 'cancelled');
  assert.equal(result.draft, 'next question');
  assert.equal(gated.calls.length, 1, 'the submit did not start its own preflight');
});

test('if the operation fails, the message is not submitted silently (submit waited on another submit whose preflight failed)', async () => {
  const { store, sessionId } = await storeWith(linearSession(8, 10));
  const failing = failingSummarizer();
  const { controller } = controllerFor(store, sessionId, failing.summarize, SMALL_MODEL);
  const first = controller.submit('first question');
  await failing.started;
  const second = controller.submit('second question');
  failing.fail();
  const [a, b] = await Promise.all([first, second]);
  assert.equal(a.status, 'failed');
  assert.equal(b.status, 'failed');
  assert.equal(b.draft, 'second question');
  assert.equal(failing.calls.length, 1, 'the waiting submit did not try again by itself');
});

// ---- Issue 14: a compacted request that still does not fit is not sent ----

test('if the request is still too large after compaction, BibGenie does not send a request that is certain to fail (runner refuses an oversized summary)', async () => {
  const model = { id: 'test-16k', contextWindow: 16384 };
  const { store, sessionId } = await storeWith(linearSession(16, 400));
  const before = await snapshot(store, sessionId);
  const huge = validSummary(Array.from({ length: 60000 }, (_, i) => `word${i}`).join(' '));
  const { summarize, calls } = scriptedSummarizer(async () => huge);
  const { controller } = controllerFor(store, sessionId, summarize, model);
  const result = await controller.submit('next question');
  assert.equal(calls.length, 1, 'a preflight compaction ran');
  assert.equal(result.status, 'failed');
  assert.equal(result.reason, 'summary-over-budget');
  assert.equal(result.draft, 'next question');
  assert.equal(result.messages, undefined);
  assert.equal(await snapshot(store, sessionId), before, 'nothing written');
});

test('if the request is still too large after compaction, BibGenie does not send it: too-large with the draft intact', async () => {
  // The plan promised a fit; the committed session is what decides. Here the transaction's read
  // shows the newest kept message grown (a store whose transactional read disagrees with its plain
  // read, standing in for any state the plan did not see): the controller must not trust
  // `committed`, it estimates the committed session again.
  const { store: memory, sessionId } = await storeWith(linearSession(12, 40));
  const original = await memory.load(sessionId);
  // The smallest draft the preflight compacts for (it would not fit as things stand).
  let words = 100;
  const draftOf = (n) => userMessage('D1', null, Array.from({ length: n }, (_, i) => `w${i}`).join(' '));
  const planFor = (n) => compaction.plan(original, MODEL, { mode: 'preflight', draft: draftOf(n) });
  while (planFor(words).action !== 'compact') {
    assert.notEqual(planFor(words).send, 'too-large', 'some draft makes the preflight compact');
    words += 50;
  }
  const draft = draftOf(words);
  const planned = planFor(words);
  assert.equal(planned.send, 'after-compaction', 'the plan promises a fit');
  assert.ok(!planned.summarizeIds.includes(original.leafId), 'the newest message stays verbatim');
  const grown = (session) => ({
    ...session,
    nodes: session.nodes.map((node) => (node.id === session.leafId
      ? { ...node, parts: [{ type: 'text', text: Array.from({ length: words }, (_, i) => `grown${i}`).join(' ') }] }
      : node)),
  });
  const store = wrapTransactions(memory, (tx) => ({ ...tx, load: async () => grown(await tx.load()) }));
  const { summarize, calls } = scriptedSummarizer();
  const controller = new CompactionController({ store, sessionId, model: MODEL, summarize });
  const result = await controller.submit(draft);
  assert.equal(calls.length, 1);
  assert.equal(result.outcome.status, 'committed');
  assert.equal(compaction.estimate(result.outcome.session, MODEL, { draft }).fits, false, 'the compacted request does not fit');
  assert.equal(result.status, 'too-large');
  assert.equal(result.reason, 'too-large-after-compaction');
  assert.equal(result.draft, draft);
  assert.equal(result.messages, undefined);
});

// ---- Issue 32.3: a cancel before the summary request is made means no request ----

for (const kind of ['MemoryStore (held index)', 'a load-only store']) {
  test(`cancel() right after compact() asks the summarizer for nothing, and writes nothing (${kind})`, async () => {
    const { store, sessionId } = await storeWith(linearSession(6));
    const used = kind.startsWith('Memory') ? store : { load: (id) => store.load(id), transaction: (id, fn) => store.transaction(id, fn) };
    const { summarize, calls } = scriptedSummarizer();
    const { controller, statuses } = controllerFor(used, sessionId, summarize);
    const before = await snapshot(store, sessionId);
    const running = controller.compact();
    assert.equal(controller.cancel(), true);
    const outcome = await running;
    assert.equal(outcome.status, 'cancelled');
    assert.equal(calls.length, 0, 'no summary was requested');
    assert.equal(await snapshot(store, sessionId), before);
    assert.ok(!statuses.some((s) => s.status === 'compacting'), 'nothing was announced as compacting');
  });
}
