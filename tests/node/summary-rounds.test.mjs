// Rule `fold-fits-the-summarizer` through `compact` and the controller: a fold one summary request
// cannot hold (an imported chat, a switch to a smaller model) is summarized round by round, each
// request within the model's safe input limit, saying where the next starts (`continuesAt`) and
// folded into the round before; the event loop runs between rounds; only the last round's
// checkpoint is committed, once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, MODEL, storeWith, snapshot, checkpointsOf, validSummary, scriptedSummarizer, createAbortSignalLike, userMessage, assistantMessage } from './runner-fixtures.mjs';

const { compact, capacity, estimateMessage, CompactionController, extractiveSummary } = compaction;

/** A chat far longer than what one request on an 8k model holds: turns of uneven length, three languages. */
function longChat(turns) {
  const asks = ['Which trials report dropout by arm?', 'Có bao nhiêu người tham gia bỏ cuộc ở mỗi nhóm?', '每组的脱落人数是多少？'];
  const nodes = [];
  let parent = null;
  for (let t = 0; t < turns; t++) {
    nodes.push(userMessage(`U${t}`, parent, `${asks[t % 3]} (turn ${t})`));
    nodes.push(assistantMessage(`A${t}`, `U${t}`, 'The dropout table lists each arm with its reasons. '.repeat(4 + ((t * 5) % 9))));
    parent = `A${t}`;
  }
  return { nodes, leafId: parent, branchRevision: 2 * turns };
}

const sent = (request) => estimateMessage({ id: 'r', role: 'user', parts: [{ type: 'text', text: `${request.system}\n${request.prompt}` }] }, MODEL);

test('a fold one request cannot hold is summarized in rounds, each within the safe limit, into one checkpoint', async () => {
  const { store, sessionId } = await storeWith(longChat(90));
  const { summarize, calls } = scriptedSummarizer((request, signal, n) => validSummary(`round ${n}`));
  const outcome = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize });
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.ok(calls.length >= 3, `rounds: ${calls.length}`);
  const limit = capacity(MODEL).safeInputLimit;
  for (const [n, { request }] of calls.entries()) {
    assert.ok(sent(request) <= limit, `round ${n} sends ${sent(request)} tokens, over ${limit}`);
    assert.equal(request.continuesAt === undefined, n === calls.length - 1, `round ${n}: only the last ends the fold`);
    if (n > 0) assert.equal(request.previousSummary, validSummary(`round ${n - 1}`), `round ${n} folds into round ${n - 1}'s summary`);
  }
  // Every folded message in one round's history.
  const histories = calls.map((c) => c.request.history).join('\n');
  for (const id of outcome.plan.summarizeIds) assert.equal(histories.split(`| id ${id} ---`).length, 2, id);
  const committed = checkpointsOf(await store.load(sessionId));
  assert.equal(committed.length, 1, 'the rounds before the last are never committed');
  assert.equal(committed[0].checkpoint.summary, validSummary(`round ${calls.length - 1}`));
  // What code carries is every round's: the first turn's words are still there.
  assert.ok(committed[0].checkpoint.userWords.some((w) => w.text.includes('(turn 0)')), 'the first round\'s user words');
});

test('the event loop runs between rounds', async () => {
  const { store, sessionId } = await storeWith(longChat(90));
  let ticks = 0;
  let running = true;
  const tick = () => { ticks += 1; if (running) setTimeout(tick, 0); };
  setTimeout(tick, 0);
  // A summarizer that answers at once: without the pause nothing but microtasks would run between rounds.
  const { summarize, calls } = scriptedSummarizer(() => { calls.at(-1).ticks = ticks; return validSummary(); });
  const outcome = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize });
  running = false;
  assert.equal(outcome.status, 'committed');
  for (let n = 1; n < calls.length; n++) assert.ok(calls[n].ticks > calls[n - 1].ticks, `a timer ran before round ${n}: ${calls.map((c) => c.ticks)}`);
});

/** A 200k model, and a chat of `turns` turns whose answers are long: a large fold on it (600 KB at 300 turns). */
const WIDE = { id: 'wide', contextWindow: 200_000, maxOutputTokens: 8_000 };
function wideChat(turns) {
  const chat = longChat(turns);
  for (const node of chat.nodes) if (node.role === 'assistant') node.parts[0].text = 'Each arm lists its dropouts with the reasons given at follow-up. '.repeat(30);
  return chat;
}

/**
 * `events` of the store's reads ('read') and of the timers that ran between them ('tick', one for
 * a run of them), until `stop()`.
 */
function readsAndTicks(store) {
  const events = [];
  const read = store.withSessionIndex.bind(store);
  store.withSessionIndex = (id, use) => read(id, (index) => { events.push('read'); return use(index); });
  let running = true;
  const tick = () => { if (events.length && events.at(-1) !== 'tick') events.push('tick'); if (running) setTimeout(tick, 0); };
  setTimeout(tick, 0);
  return { events, stop: () => { running = false; } };
}

test('a large fold: the event loop runs after the plan, between the parts of its first request, before that request is summarized, and after the commit', async () => {
  // One round on a 200k model, of about 600 KB: the plan's read does not build it too, and the summarizer does not read it in the same task.
  const model = WIDE;
  const chat = wideChat(300);
  const { store, sessionId } = await storeWith(chat);
  const { events, stop } = readsAndTicks(store);
  const transaction = store.transaction.bind(store);
  store.transaction = async (id, fn) => { const done = await transaction(id, fn); events.push('committed'); return done; };
  const { summarize, calls } = scriptedSummarizer(() => { events.push('summarize'); return validSummary(); });
  const outcome = await compact({ store, sessionId, model, mode: 'manual', summarize });
  events.push('resolved');
  stop();
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.equal(calls.length, 1, 'one round');
  // The store's index takes the checkpoint in a read of its own, and the caller's next step (the
  // controller's estimate of the send) runs in neither the commit's task nor that read's.
  assert.deepEqual(events.slice(events.indexOf('committed')), ['committed', 'tick', 'read', 'tick', 'resolved']);
  assert.ok(outcome.plan.tokensBefore >= 65_536 && JSON.stringify(calls[0].request).length >= 262_144, `${outcome.plan.tokensBefore} tokens`);
  // The plan; the request's history (about 600 KB: in steps), ledger and registers; the request; the
  // summarizer: each in a task of its own.
  const upToSummary = events.slice(0, events.indexOf('summarize') + 1);
  const reads = upToSummary.filter((e) => e === 'read').length;
  assert.ok(reads >= 6, upToSummary.join(' '));
  assert.deepEqual(upToSummary, [...Array.from({ length: reads }, () => ['read', 'tick']).flat(), 'summarize']);
});

test('every round of a large fold, however short its request, is summarized in a task of its own and its checkpoint built in another; the commit in a third', async () => {
  const model = WIDE;
  const chat = wideChat(700);
  const { store, sessionId } = await storeWith(chat);
  const events = [];
  const transaction = store.transaction.bind(store);
  store.transaction = (id, fn) => { events.push('transaction'); return transaction(id, fn); };
  let running = true;
  const tick = () => { if (events.length && events.at(-1) !== 'tick') events.push('tick'); if (running) setTimeout(tick, 0); };
  setTimeout(tick, 0);
  // checkpointNode stamps createdAt with Date.now: the moment a round's checkpoint is built.
  const now = Date.now;
  Date.now = () => { events.push('checkpoint'); return now(); };
  let outcome;
  const { summarize, calls } = scriptedSummarizer(() => { events.push('summarize'); return validSummary(); });
  try {
    outcome = await compact({ store, sessionId, model, mode: 'manual', summarize });
  } finally {
    Date.now = now;
    running = false;
  }
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.ok(calls.length >= 2, `rounds: ${calls.length}`);
  const last = calls.at(-1).request;
  assert.ok(last.prompt.length < 262_144, `the last round's request is short: ${last.prompt.length}`);
  for (let at = events.indexOf('summarize'); at >= 0; at = events.indexOf('summarize', at + 1)) {
    assert.deepEqual(events.slice(at, at + 3), ['summarize', 'tick', 'checkpoint'], `round at event ${at}`);
  }
  // The last round's checkpoint carries the whole fold's registers: the commit's check and writes run after it in a task of their own.
  const lastCheckpoint = events.lastIndexOf('checkpoint', events.indexOf('transaction'));
  assert.deepEqual(events.slice(lastCheckpoint, lastCheckpoint + 3), ['checkpoint', 'tick', 'transaction']);
});

test('a large fold whose item ids the app resolves: the request with them is built in parts too, the event loop running between them', async () => {
  const model = WIDE;
  const chat = wideChat(300);
  // Every tenth answer is a library search that names its result by the app's numeric id.
  for (const [k, node] of chat.nodes.entries()) {
    if (node.role === 'assistant' && k % 20 === 1) {
      node.parts.unshift({ type: 'tool-search_library', toolCallId: `call-${node.id}`, state: 'output-available', input: { query: 'dropout' }, output: { results: [{ itemId: 100 + k, title: `Trial ${k}` }] } });
    }
  }
  const { store, sessionId } = await storeWith(chat);
  const { events, stop } = readsAndTicks(store);
  // A Zotero key (eight of 23456789ABCDEFGHIJKMNPQRSTUVWXYZ) made of the id's digits.
  const keyOf = (itemID) => `ITEM${[...String(itemID).padStart(4, '0')].map((d) => '23456789AB'[Number(d)]).join('')}`;
  const resolveItem = (itemID) => { events.push('resolve'); return { libraryID: 1, key: keyOf(itemID) }; };
  const { summarize, calls } = scriptedSummarizer(() => { events.push('summarize'); return validSummary(); });
  const outcome = await compact({ store, sessionId, model, mode: 'manual', summarize, resolveItem });
  stop();
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.equal(calls.length, 1, 'one round');
  assert.ok(calls[0].request.ledger.entries.some((e) => e.key === keyOf(101)), 'the resolved keys are in the request');
  // After the app answered: the request's history in steps, its ledger, cited pages, registers and
  // the request, each in a read of its own with the loop running between them, then the summary.
  const afterResolve = events.slice(events.lastIndexOf('resolve') + 1, events.indexOf('summarize') + 1);
  const reads = afterResolve.filter((e) => e === 'read').length;
  assert.ok(reads >= 6, afterResolve.join(' '));
  assert.deepEqual(afterResolve, [...Array.from({ length: reads }, () => ['tick', 'read']).flat(), 'tick', 'summarize']);
});

test('a large fold\'s request built in parts: an empty summary falls back to the embedded summary of the request as it was before the summarizer changed it', async () => {
  const { store, sessionId } = await storeWith(wideChat(300));
  let asked;
  const outcome = await compact({
    store, sessionId, model: WIDE, mode: 'manual',
    summarize: async (request) => {
      asked = JSON.parse(JSON.stringify(request));
      request.history = 'changed by the summarizer';
      request.ledger.entries = [];
      return '';
    },
  });
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.equal(outcome.summaryRepair.kind, 'embedded');
  assert.ok(asked.history.length >= 262_144, `a large request: ${asked.history.length}`);
  assert.equal(outcome.checkpoint.checkpoint.summary, extractiveSummary(asked));
});

test('a session that moves between the parts of a request ends the run stale before any summarizer call', async () => {
  const chat = wideChat(300);
  const { store, sessionId } = await storeWith(chat);
  let reads = 0;
  const read = store.withSessionIndex.bind(store);
  // The plan's read, the first part's; before the third read a message arrives.
  store.withSessionIndex = async (id, use) => {
    reads += 1;
    if (reads === 3) await store.appendMessage(sessionId, userMessage('U-late', chat.leafId, 'One more question meanwhile.'));
    return read(id, use);
  };
  const { summarize, calls } = scriptedSummarizer(() => validSummary());
  const outcome = await compact({ store, sessionId, model: WIDE, mode: 'manual', summarize });
  assert.equal(outcome.status, 'stale', outcome.message);
  assert.equal(calls.length, 0, 'no summary is paid for after the session moved');
  assert.ok(reads >= 4, `${reads} reads`);
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 0);
});

test('a store whose index is new at every read: the parts begun on one index do not go on on the next, and the request is asked for whole', async () => {
  const model = WIDE;
  const chat = wideChat(300);
  const { store, sessionId } = await storeWith(chat);
  let reads = 0;
  // The contract's store with an index of its own made fresh for each read (nothing kept between reads).
  const own = {
    load: (id) => store.load(id),
    transaction: (id, fn) => store.transaction(id, fn),
    withSessionIndex: async (id, use) => {
      reads += 1;
      const index = compaction.SessionIndex.from(await store.load(id));
      try { return use(index); } finally { index.free(); }
    },
  };
  const { summarize, calls } = scriptedSummarizer(() => validSummary());
  const outcome = await compact({ store: own, sessionId, model, mode: 'manual', summarize });
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.equal(calls.length, 1, 'one round');
  // The plan's read, the first part's, one that finds nothing to go on with, the request's, the commit's and the one after it.
  assert.ok(reads >= 4 && reads <= 7, `${reads} reads`);
});

test('a store without a held index is loaded once for the rounds, not once per round', async () => {
  const { store, sessionId } = await storeWith(longChat(90));
  let loads = 0;
  // The contract's store alone: load and transaction, as a plugin's own store has.
  const own = {
    load: (id) => { loads += 1; return store.load(id); },
    transaction: (id, fn) => store.transaction(id, fn),
  };
  const { summarize, calls } = scriptedSummarizer((request, signal, n) => validSummary(`round ${n}`));
  const outcome = await compact({ store: own, sessionId, model: MODEL, mode: 'manual', summarize });
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.ok(calls.length >= 3, `rounds: ${calls.length}`);
  assert.ok(loads <= 2, `${loads} loads for ${calls.length} rounds`);
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 1);
});

test('cancelled between rounds: no further summarizer call, nothing written', async () => {
  const { store, sessionId } = await storeWith(longChat(90));
  const before = await snapshot(store, sessionId);
  const abort = createAbortSignalLike();
  const { summarize, calls } = scriptedSummarizer(() => { abort.abort(); return validSummary(); });
  const outcome = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize, signal: abort.signal });
  assert.equal(outcome.status, 'cancelled');
  assert.equal(calls.length, 1);
  assert.equal(await snapshot(store, sessionId), before);
});

test('a session that moves between rounds ends the run stale before the next summarizer call', async () => {
  const { store, sessionId } = await storeWith(longChat(90));
  const { summarize, calls } = scriptedSummarizer(async () => {
    await store.appendMessage(sessionId, userMessage('U-late', 'A89', 'One more question meanwhile.'));
    return validSummary();
  });
  const outcome = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize });
  assert.equal(outcome.status, 'stale');
  assert.equal(calls.length, 1, 'no summary is paid for after the session moved');
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 0);
});

test('a later round without its previous checkpoint, or past the fold, is refused with invalid-options', async () => {
  const { store, sessionId } = await storeWith(longChat(90));
  await store.withSessionIndex(sessionId, (index) => {
    const plan = index.plan(MODEL, { mode: 'manual' });
    const first = index.summaryRequest(plan, MODEL);
    assert.equal(typeof first.continuesAt, 'number');
    assert.throws(() => index.summaryRequest(plan, MODEL, { round: { from: first.continuesAt } }), { code: 'invalid-options' });
    assert.throws(() => index.summaryRequest(plan, MODEL, { round: { from: 'one', previous: null } }), { code: 'invalid-options' });
    const previous = compaction.checkpointNode(plan, validSummary(), first.ledger, first.maxOutputTokens).checkpoint;
    assert.throws(() => index.summaryRequest(plan, MODEL, { round: { from: plan.summarizeIds.length, previous } }), { code: 'invalid-options' });
    assert.equal(index.summaryRequest(plan, MODEL, { round: { from: first.continuesAt, previous } }).previousSummary, validSummary());
  });
});

test('a controller send of an imported chat on a smaller model compacts in rounds with the embedded summarizer, then sends', async () => {
  const { store, sessionId } = await storeWith(longChat(120));
  let calls = 0;
  const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: (request) => { calls += 1; return extractiveSummary(request); } });
  const result = await controller.submit(userMessage('U-new', 'A119', 'And the overall dropout?'));
  assert.equal(result.status, 'send', result.message);
  assert.equal(result.outcome?.status, 'committed');
  assert.ok(calls >= 2, `rounds: ${calls}`);
  assert.equal(checkpointsOf(await store.load(sessionId)).length, 1);
});
