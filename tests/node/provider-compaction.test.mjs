// Issue 39 through the controller alone (ChatTurn, an app that calls Anthropic itself): after the
// provider compacted within a request, the usage recorded is what the provider then holds, the next
// turn does not compact again, and its messages open with the provider's block (no package summary
// before it). The wire tests (tests/providers/provider-compaction.test.mjs) do the same through the
// transport with the real provider packages.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, validSummary } from './runner-fixtures.mjs';

const { ChatTurn, CompactionController, MemoryStore, estimate, history } = compaction;

const MODEL = Object.freeze({ id: 'claude-opus-4-6', contextWindow: 64_000, maxOutputTokens: 4_096 });
const BLOCK = { type: 'text', text: '<summary>Dogs, digestibility, KEY1003 p. 4.</summary>', providerMetadata: { anthropic: { type: 'compaction' } } };
/** The AI SDK's usage after Anthropic compacted: the sum of both iterations. */
const SUMMED = { inputTokens: 60_997, outputTokens: 340 };
const ITERATIONS = { anthropic: { iterations: [{ type: 'compaction', inputTokens: 60_385, outputTokens: 300 }, { type: 'message', inputTokens: 612, outputTokens: 40 }] } };

describe('a provider compaction through the controller alone (ChatTurn)', () => {
  it('records the final iteration as the usage, does not compact again, and sends the block first', async () => {
    const store = new MemoryStore();
    const { sessionId } = await store.createSession({});
    const summaries = [];
    const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: async () => { summaries.push(1); return validSummary('turn'); } });
    const first = await ChatTurn.begin(controller, 'Which trials measure digestibility?');
    await first.finish({ text: 'Three of them.', usage: { inputTokens: 1_200, outputTokens: 20 } });
    const second = await ChatTurn.begin(controller, 'Compare their methods.');
    await second.finish({ parts: [BLOCK, { type: 'text', text: 'Continuing: the diets differ.' }], usage: SUMMED, providerMetadata: ITERATIONS });

    const stored = history(await store.load(sessionId)).at(-1);
    assert.deepEqual([stored.metadata.usage.inputTokens, stored.metadata.usage.outputTokens], [612, 40]);
    const now = estimate(await store.load(sessionId), MODEL);
    assert.ok(now.tokens >= 652 && now.tokens <= 700, `estimate ${now.tokens}`);

    const third = await ChatTurn.begin(controller, 'Which one used extruded diets?');
    assert.equal(summaries.length, 0, 'compacted again right after the provider');
    assert.equal(third.messages[0].id, stored.id, 'the request opens with the block\'s message');
    assert.ok(!JSON.stringify(third.messages).includes('[Research checkpoint]'));
    await third.finish({ text: 'The second.', usage: { inputTokens: 700, outputTokens: 10 } });
  });

  it('refuses a summarizer\'s { summary, providerPart } whose part is no provider compaction, and stores nothing', async () => {
    const store = new MemoryStore();
    const { sessionId } = await store.createSession({});
    const parts = [{ type: 'text', text: 'plain' }, { type: 'custom', kind: 'openai.reasoning' }, null];
    for (const providerPart of parts) {
      const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: async () => ({ summary: validSummary('turn'), providerPart }) });
      if (providerPart === parts[0]) {
        for (let t = 0; t < 3; t++) {
          const turn = await ChatTurn.begin(controller, `Question ${t}`);
          await turn.finish({ text: `Answer ${t}` });
        }
      }
      while (controller.busy) await new Promise((resolve) => setTimeout(resolve, 1)); // the turns' after-turn checks
      const before = (await store.load(sessionId)).nodes.length;
      const outcome = await controller.compact('manual');
      assert.equal(outcome.status, 'failed', JSON.stringify(outcome));
      assert.equal(outcome.reason, 'invalid-summary');
      assert.equal((await store.load(sessionId)).nodes.length, before, 'nothing stored');
    }
  });
});
