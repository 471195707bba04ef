// Issue 38: the usage a cut tool loop leaves covers what it stored. Stop or a stream error in step 4 of
// 6 keeps step 3's usage, whose request held neither step 3's page nor step 4; the next turn's
// estimate is at least what is then sent, and it compacts when that is over the threshold. Through
// the transport with the SDK's mock models on ai 5, 6 and 7.
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

  describe(`the usage a cut tool loop leaves covers what it stored (${sdk.name})`, () => {
    for (const how of ['hold', 'cut']) {
      for (const guarded of [false, true]) {
        it(`${how === 'hold' ? 'Stop' : 'a stream error'} in step 4 of 6 on 8k${guarded ? ' (guarded steps)' : ' (an app without the guard)'}: the next estimate is at least what is sent, and the next turn compacts`, async (ctx) => {
          const t = await setup({ model: MODEL_8K, steps: 6, at: { 4: how }, guarded, pages: (n) => pageText(n, pageTokens(n)) });
          const abort = new AbortController();
          const stream = await send(t.transport, chatMessage('u-1', 'Read the pages and summarize them.'), abort.signal);
          if (how === 'hold') {
            const reader = stream.getReader();
            while (t.received.length < 4) await reader.read();
            await tick(20);
            abort.abort();
            await reader.cancel();
          } else {
            await readAll(stream);
          }
          await settle(t.controller);
          const cut = await answerOf(t.store, t.sessionId);
          assert.equal(cut.role, 'assistant');
          assert.ok(cut.metadata.aborted === true || cut.metadata.finishReason === 'error', JSON.stringify(cut.metadata));
          assert.equal(outputsOf(cut).length, 3);
          assert.equal(cut.metadata.usageStep, 3, 'the usage is step 3\'s');
          // The session as the cut turn left it (the automatic compaction it triggers may have followed).
          const stored = await t.store.load(t.sessionId);
          const session = { ...stored, nodes: stored.nodes.filter((n) => !('checkpoint' in n)), leafId: cut.id };
          // What the next turn would send without a compaction: that branch and the question, estimated as the guard does.
          const question = chatMessage('u-2', 'And what did page 3 say about fouling?');
          const branch = session.nodes.map(({ parentId, createdAt, ...m }) => m);
          const wouldSend = estimateModelMessages(await convertToModelMessages([...branch, question]), MODEL_8K).reduce((a, b) => a + b, 0)
            + overheadTokens({ system: SYSTEM, tools: countedTools(t.tools) }, MODEL_8K);
          const estimated = estimate(session, MODEL_8K, { draft: question, overhead: { system: SYSTEM, tools: countedTools(t.tools) } });
          assert.equal(estimated.source, 'usage');
          ctx.diagnostic(`estimated ${estimated.tokens} (usage ${estimated.baselineTokens} + ${estimated.estimatedTokens}), would send ${wouldSend}, threshold ${capacity(MODEL_8K).autoCompactAt}`);
          assert.ok(estimated.tokens >= wouldSend, `estimated ${estimated.tokens}, would send ${wouldSend}`);
          assert.ok(wouldSend > capacity(MODEL_8K).autoCompactAt, 'the cut loop left more than the threshold');
          // The next turn compacts before it is sent, and what it sends fits.
          const before = t.received.length;
          const { error } = await readAll(await send(t.transport, question));
          await settle(t.controller);
          assert.equal(error, undefined, String(error));
          assert.equal(t.summarizerCalls.length >= 1, true, 'a compaction ran');
          const after = await t.store.load(t.sessionId);
          assert.ok(after.nodes.some((n) => 'checkpoint' in n), 'a checkpoint was written');
          assert.ok(t.received[before].tokens <= capacity(MODEL_8K).safeInputLimit, `sent ${t.received[before].tokens}`);
        });
      }
    }
  });
}
