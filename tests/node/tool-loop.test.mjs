// Issue 38: the step guard of a tool loop. The transport's prepareStep (given to streamResponse as
// `prepareStep` and inside `cacheCallOptions`, composed with the app's own) keeps every step within the
// model's safe input limit, showing the oldest tool outputs of the turn as handles, or ends the turn
// with `step-too-large`; the store holds every output verbatim. What the mock model receives is
// estimated with the package's estimator; on ai 5, 6 and 7.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction } from './runner-fixtures.mjs';
import { sdks } from './ai-sdks.mjs';
import {
  MODEL_8K, MODEL_32K, SYSTEM, perSentence, pageText, pageTokens, chatMessage, tick, settle, estimateModelMessages, overheadTokens, loopKit,
} from './tool-loop-fixtures.mjs';

const { capacity, estimate } = compaction;

for (const sdk of sdks) {
  const { setup, send, readAll, answerOf, outputsOf, countedTools } = loopKit(sdk);
  const { convertToModelMessages } = sdk.ai;

  describe(`the step guard of a tool loop (${sdk.name})`, () => {
    for (const [model, steps] of [[MODEL_8K, 6], [MODEL_32K, 16]]) {
      for (const own of [false, true]) {
        it(`${steps} tool steps of 2,000-4,000 tokens on ${model.contextWindow / 1024}k${own ? ', with the app\'s own prepareStep and Anthropic\'s cache marks' : ''}: no step over the safe limit, an answer, every output stored verbatim`, async (ctx) => {
          const t = await setup({ model, steps, own, pages: (n) => pageText(n, pageTokens(n)), ...(own ? { promptCache: { provider: 'anthropic' } } : {}) });
          const limit = capacity(model).safeInputLimit;
          const { last, error } = await readAll(await send(t.transport, chatMessage('u-1', 'Read the pages of the PDF and tell me what they report.')));
          await settle(t.controller);
          assert.equal(error, undefined, String(error));
          assert.equal(t.received.length, steps + 1, 'every step reached the model');
          for (const [i, r] of t.received.entries()) assert.ok(r.tokens <= limit, `request ${i + 1}: ${r.tokens} estimated tokens over the safe limit ${limit}`);
          const stored = await answerOf(t.store, t.sessionId);
          assert.equal(stored.id, last.id);
          assert.match(stored.parts.at(-1).text, new RegExp(`Read ${steps} pages`));
          const outputs = outputsOf(stored);
          assert.equal(outputs.length, steps);
          for (const [i, p] of outputs.entries()) assert.equal(p.output, pageText(i + 1, pageTokens(i + 1)), `page ${i + 1} stored verbatim`);
          // The last request showed the oldest pages as handles, the newest in full.
          const final = t.received.at(-1).prompt;
          assert.match(final, /tool output of readPage \(call call-1\) is stored/);
          assert.ok(final.includes(`PAGE-${steps}-START`), 'the newest page is shown');
          const stored_ = outputs.reduce((sum, p) => sum + estimateModelMessages([{ role: 'tool', content: [{ type: 'text', text: p.output }] }], model)[0], 0);
          ctx.diagnostic(`largest request ${Math.max(...t.received.map((r) => r.tokens))} of ${limit}; ${stored_} tokens of pages stored`);
          // The marks of each later step survive the guard (the step's newest message is marked).
          if (own) for (const r of t.received.slice(1)) assert.match(r.prompt, /cacheControl/);
          if (own) assert.deepEqual(t.ownSteps, Array.from({ length: steps + 1 }, (_, i) => i), 'the app\'s prepareStep ran at every step');
        });
      }
    }

    it('a single tool output larger than the window: shown as a handle, the model answers, the output is stored verbatim', async () => {
      const big = pageText(1, 12_000);
      const t = await setup({ model: MODEL_8K, steps: 1, pages: () => big });
      const limit = capacity(MODEL_8K).safeInputLimit;
      const { error } = await readAll(await send(t.transport, chatMessage('u-1', 'Read page 1.')));
      await settle(t.controller);
      assert.equal(error, undefined, String(error));
      for (const r of t.received) assert.ok(r.tokens <= limit, `${r.tokens} > ${limit}`);
      assert.match(t.received[1].prompt, /tool output of readPage \(call call-1\) is stored; \d+ tokens/);
      const stored = await answerOf(t.store, t.sessionId);
      assert.equal(outputsOf(stored)[0].output, big);
      assert.equal(stored.metadata.aborted, undefined);
    });

    it('a step that cannot fit even with every output as a handle is not sent: step-too-large, the answer so far stored as Stop stores it', async () => {
      // Each tool call's own input is 1,500 tokens: by step 5 the calls alone pass the 8k limit.
      const t = await setup({ model: MODEL_8K, steps: 8, bigInput: Math.ceil(1_500 / perSentence), pages: (n) => pageText(n, pageTokens(n)) });
      const limit = capacity(MODEL_8K).safeInputLimit;
      const { error } = await readAll(await send(t.transport, chatMessage('u-1', 'Read every page.')));
      await settle(t.controller);
      for (const r of t.received) assert.ok(r.tokens <= limit, `${r.tokens} > ${limit}`);
      assert.ok(t.received.length < 9, 'the loop was cut');
      assert.match(String(error?.message), /^step-too-large: /);
      const refusal = t.errors.find((e) => e?.code === 'step-too-large');
      assert.ok(refusal, `the app's onError got the coded error: ${t.errors.map(String)}`);
      assert.ok(refusal.tokens > refusal.limit && refusal.limit === limit);
      const stored = await answerOf(t.store, t.sessionId);
      assert.equal(stored.role, 'assistant');
      assert.equal(stored.metadata.aborted, true);
      assert.equal(stored.metadata.refusal, 'step-too-large');
      assert.equal(stored.metadata.finishReason, undefined, 'no stream error');
      const outputs = outputsOf(stored);
      assert.equal(outputs.length, t.received.length);
      for (const [i, p] of outputs.entries()) assert.equal(p.output, pageText(i + 1, pageTokens(i + 1)));
    });
  });

}

describe('the step estimate prices files and images as the stored parts are priced', () => {
  const { estimateMessage } = compaction;
  // A 64x32 PNG header: the estimator reads the size, not the base64 text.
  const png = Buffer.alloc(2_000);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 64, 0, 0, 0, 32]).copy(png);
  const url = `data:image/png;base64,${png.toString('base64')}`;
  const stored = estimateMessage({ id: 'm', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', url }] });
  it('bytes, base64 text and a data URL price as the stored file part; a link as a remote file', () => {
    for (const image of [new Uint8Array(png), png.toString('base64'), url]) {
      assert.equal(estimateModelMessages([{ role: 'user', content: [{ type: 'image', image, mediaType: 'image/png' }] }])[0], stored);
    }
    assert.ok(stored < 1_000, `${stored}: priced by its size, not its 2,700 base64 characters`);
    const remote = estimateMessage({ id: 'm', role: 'user', parts: [{ type: 'file', mediaType: 'application/pdf', url: 'https://example.org/a.pdf' }] });
    assert.equal(estimateModelMessages([{ role: 'user', content: [{ type: 'file', data: new URL('https://example.org/a.pdf'), mediaType: 'application/pdf' }] }])[0], remote);
  });
});
