// The background check never compacts under a turn in flight (issue 32, 6): two windows on one
// store and session, each with its controller and transport, the cache profile's lifetime short
// and the clock moved past it. Window A's answer schedules the background check; while window B's
// answer streams, A's timer fires and must leave the session alone; once B's answer is stored, the
// next check may compact.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, linearSession, storeWith, scriptedSummarizer, validSummary, deferred } from './runner-fixtures.mjs';

const { CompactionController, CompactionChatTransport, cacheProfile } = compaction;
const ai = await import('ai');
const { MockLanguageModelV2, convertArrayToReadableStream } = await import('ai/test');

const MODEL = Object.freeze({ id: 'guard-2k', contextWindow: 2048, maxOutputTokens: 256 });
const question = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

test('a background check whose timer fires while another window streams does not compact until that answer is stored', async () => {
  const { store, sessionId } = await storeWith(linearSession(1, 20));
  // A short-lived cache, and a clock far past it: every background check sees it cold.
  const profile = { ...cacheProfile('anthropic-5m'), lifetimeMs: 30 };
  let clock = Date.now();
  const now = () => clock;
  const { summarize, calls } = scriptedSummarizer(() => validSummary());
  const gate = deferred();
  let streaming = false;
  const model = new MockLanguageModelV2({
    doStream: async ({ prompt }) => {
      const held = JSON.stringify(prompt.at(-1)).includes('window B');
      return {
        stream: new ReadableStream({
          async start(controller) {
            controller.enqueue({ type: 'stream-start', warnings: [] });
            controller.enqueue({ type: 'text-start', id: 't' });
            if (held) {
              streaming = true;
              await gate.promise;
            }
            controller.enqueue({ type: 'text-delta', id: 't', delta: `answer: ${words(60, 'found')}` });
            controller.enqueue({ type: 'text-end', id: 't' });
            controller.enqueue({ type: 'finish', finishReason: 'stop', usage: { inputTokens: Math.ceil(JSON.stringify(prompt).length / 4), outputTokens: 80, totalTokens: 0 } });
            controller.close();
          },
        }),
      };
    },
  });
  const windowOf = () => {
    const controller = new CompactionController({ store, sessionId, model: MODEL, summarize, cache: profile, now, backgroundCompaction: true });
    const transport = new CompactionChatTransport({
      controller,
      streamResponse: async ({ messages, abortSignal }) => ai.streamText({ model, messages: ai.convertToModelMessages(messages), abortSignal }),
    });
    return { controller, transport };
  };
  const a = windowOf();
  const b = windowOf();
  const read = async (stream) => {
    for await (const _ of ai.readUIMessageStream({ stream }));
  };
  const checkpoints = async () => (await store.load(sessionId)).nodes.filter((n) => 'checkpoint' in n).length;

  await read(await a.transport.sendMessages({ trigger: 'submit-message', chatId: 'a', messages: [question('qa', `window A: ${words(20, 'ask')}`)] }));
  while (a.controller.busy) await new Promise((r) => setTimeout(r, 1));
  // Filled to between three quarters of the automatic threshold and the threshold: only a cold
  // cache makes the background check compact.
  const { autoCompactAt } = compaction.capacity(MODEL);
  for (let i = 0; compaction.estimate(await store.load(sessionId), MODEL).tokens < 0.85 * autoCompactAt; i++) {
    await store.appendMessage(sessionId, question(`pad-q${i}`, words(15, 'more')));
    await store.appendMessage(sessionId, { id: `pad-a${i}`, role: 'assistant', parts: [{ type: 'text', text: words(15, 'noted') }] });
  }
  assert.ok(compaction.estimate(await store.load(sessionId), MODEL).tokens < autoCompactAt, 'under the automatic threshold');
  const before = await checkpoints();
  const summariesBefore = calls.length;
  // Window B sends; its answer is held mid-stream.
  const streamB = await b.transport.sendMessages({ trigger: 'submit-message', chatId: 'b', messages: [question('qb', `window B: ${words(20, 'ask')}`)] });
  const readingB = read(streamB);
  while (!streaming) await new Promise((r) => setTimeout(r, 1));
  clock += 60 * 60_000; // an hour later: the cache is cold for every check
  await new Promise((r) => setTimeout(r, 1_300)); // A's background timer (lifetime + 1 s) has fired
  while (a.controller.busy) await new Promise((r) => setTimeout(r, 1));
  assert.equal(calls.length, summariesBefore, 'no summary was made while B streamed');
  assert.equal(await checkpoints(), before, 'no checkpoint was committed while B streamed');
  gate.resolve();
  await readingB;
  while (a.controller.busy || b.controller.busy) await new Promise((r) => setTimeout(r, 1));
  const session = await store.load(sessionId);
  assert.equal(session.nodes.find((n) => n.parentId === 'qb')?.role, 'assistant', "B's answer is stored under its question");
  // Once B's answer is stored, the after-turn check finds the cache cold and compacts: the guard,
  // not the plan, held the timer back, and the checkpoint comes after B's answer.
  const answerB = session.nodes.find((n) => n.parentId === 'qb');
  const made = session.nodes.filter((n) => 'checkpoint' in n).slice(before);
  assert.equal(made.length, 1, 'one compaction, after the answer');
  assert.equal(made[0].parentId, answerB.id);
  a.controller.cancel();
  b.controller.cancel();
});
