// Rule `summarized-in-slices`: `extractiveSummaryInSlices` is extractiveSummary's text, made in
// slices with the event loop running between them (a round's request on a 1M-token window is
// megabytes of history); it stops at its signal and refuses what extractiveSummary refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, storeWith, createAbortSignalLike, userMessage, assistantMessage } from './runner-fixtures.mjs';

const { extractiveSummary, extractiveSummaryInSlices, serialize, CompactionController } = compaction;

/** A request whose history is about `megabytes` MB: turns in three languages with rules, decisions, tasks and ideas. */
function longRequest(megabytes) {
  const user = [
    'We must only use randomized trials published after 2015 (rule %).',
    'Chúng ta quyết định dùng mô hình hiệu ứng ngẫu nhiên cho phần %.',
    '请在周五之前完成第%章的表格。',
  ];
  const answer = 'I suspect the dropout in arm % is driven by side effects. Still to do: extract the table on page %. The pooled estimate is 0.8%. ';
  const messages = [];
  for (let t = 0; JSON.stringify(messages).length < megabytes * 1e6; t++) {
    messages.push(userMessage(`U${t}`, null, user[t % 3].replaceAll('%', String(t))));
    messages.push(assistantMessage(`A${t}`, null, answer.replaceAll('%', String(t)).repeat(6)));
  }
  return { system: '', prompt: '', maxOutputTokens: 4000, ledger: { entries: [] }, history: serialize(messages) };
}

test('the same text as extractiveSummary, with the event loop running between the slices', async () => {
  const request = longRequest(3);
  const whole = extractiveSummary(request);
  let ticks = 0;
  let pending = true;
  const tick = () => {
    ticks++;
    if (pending) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const sliced = await extractiveSummaryInSlices(request);
  pending = false;
  assert.equal(sliced, whole);
  // About 3 MB: over 100 ms in one piece on this machine, so slices of 8 ms let timers run.
  assert.ok(ticks >= 2, `timers ran ${ticks} times while it summarized`);
  // A small request and one with a previous summary give the same text too.
  for (const small of [longRequest(0.01), { ...longRequest(0.2), previousSummary: whole }]) {
    assert.equal(await extractiveSummaryInSlices(small), extractiveSummary(small));
  }
});

test('stops at its signal with the signal\'s reason, and refuses a request as extractiveSummary does', async () => {
  const request = longRequest(3);
  const abort = createAbortSignalLike();
  const reason = new Error('the user closed the chat');
  setTimeout(() => abort.abort(reason), 0);
  await assert.rejects(extractiveSummaryInSlices(request, abort.signal), (error) => error === reason);
  // Already aborted: no slice runs after the first pause.
  await assert.rejects(extractiveSummaryInSlices(request, { aborted: true, addEventListener() {} }), (error) => error?.name === 'AbortError');

  for (const bad of [null, 'history', { history: 'x' }, { ...longRequest(0.01), maxOutputTokens: -1 }]) {
    let thrown;
    try {
      extractiveSummary(bad);
    } catch (error) {
      thrown = error;
    }
    assert.equal(thrown?.code, 'invalid-request', `extractiveSummary(${JSON.stringify(bad)?.slice(0, 40)})`);
    await assert.rejects(extractiveSummaryInSlices(bad), (error) => error.code === 'invalid-request' && error.message === thrown.message);
  }
});

test('the controller compacts with it as its summarize: the committed summary is extractiveSummary\'s', async () => {
  const nodes = [];
  let parent = null;
  for (let t = 0; t < 40; t++) {
    nodes.push(userMessage(`U${t}`, parent, `Only trials after 2015, please (turn ${t}). ${'Background. '.repeat(30)}`));
    nodes.push(assistantMessage(`A${t}`, `U${t}`, `Decision: we pool arm ${t} with a random-effects model. ${'Detail. '.repeat(60)}`));
    parent = `A${t}`;
  }
  const { store, sessionId } = await storeWith({ nodes, leafId: parent, branchRevision: 80 });
  const requests = [];
  const summarize = (request, signal) => {
    requests.push(request);
    return extractiveSummaryInSlices(request, signal);
  };
  const controller = new CompactionController({ store, sessionId, model: { id: 'test-8k', contextWindow: 8192 }, summarize });
  const outcome = await controller.compact('manual');
  assert.equal(outcome.status, 'committed', outcome.message);
  assert.ok(requests.length >= 1);
  assert.equal(outcome.checkpoint.checkpoint.summary, extractiveSummary(requests.at(-1)));
});
