// Issue 38 for apps without the AI SDK: `ChatTurn.guard(parts)` checks each request of the app's own
// tool loop before it is sent. On 8k, six page reads of 2,000 to 4,000 tokens: every guarded request
// stays under the safe input limit (unguarded, they pass it), the oldest outputs come back as recall
// handles the recall tool reads during the turn, and `finish` stores every output verbatim. A
// request that cannot fit even so (a tool call's own input larger than the window) is refused with
// `step-too-large`, and `stop` stores what there is.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, storeWith, validSummary } from './runner-fixtures.mjs';
import { MODEL_8K, pageText, pageTokens } from './tool-loop-fixtures.mjs';

const { ChatTurn, CompactionController, createRecall, estimate, capacity, history } = compaction;
const LIMIT = capacity(MODEL_8K).safeInputLimit;

/** The request's estimate: the turn's messages, then the answer so far as one assistant message. */
function requestTokens(turn, parts) {
  const messages = [...turn.messages, { id: 'answer', role: 'assistant', parts }];
  const nodes = messages.map((m, i) => ({ ...m, parentId: i ? messages[i - 1].id : null }));
  return estimate({ nodes, leafId: 'answer', branchRevision: 0 }, MODEL_8K).tokens;
}

const readPart = (n, output) => ({ type: 'tool-readPage', toolCallId: `call-${n}`, state: 'output-available', input: { page: n }, output });

async function begin() {
  const { store, sessionId } = await storeWith({ nodes: [], leafId: null, branchRevision: 0 });
  const controller = new CompactionController({ store, sessionId, model: MODEL_8K, summarize: async () => validSummary('g') });
  return { store, sessionId, controller, turn: await ChatTurn.begin(controller, 'Read pages 1 to 6 and compare them.') };
}

describe('ChatTurn.guard: the step guard for an app\'s own tool loop', () => {
  it('keeps every request under the safe limit with recall handles, and stores every output verbatim', async (ctx) => {
    const { store, sessionId, controller, turn } = await begin();
    const recall = createRecall(controller);
    const parts = [];
    let over = 0;
    const folded = new Set();
    for (let n = 1; n <= 6; n++) {
      const guarded = await turn.guard(parts);
      const sent = requestTokens(turn, guarded.parts);
      const unguarded = requestTokens(turn, parts);
      ctx.diagnostic(`request ${n}: ${sent} tokens sent (unguarded ${unguarded}), limit ${LIMIT}, handles ${guarded.folded.join(' ')}`);
      assert.ok(sent <= LIMIT, `request ${n}: ${sent} over ${LIMIT}`);
      if (unguarded > LIMIT) over += 1;
      assert.equal(guarded.folded.length === 0, unguarded <= LIMIT, 'outputs are folded only when the request would not fit');
      for (const id of guarded.folded) {
        folded.add(id);
        const handlePart = guarded.parts.find((p) => p.toolCallId === id);
        assert.match(handlePart.output, new RegExp(`call ${id}\\) is stored`));
        // The model reads it back while the turn runs (it is not stored yet).
        const page = await recall.read({ handle: id, maxTokens: 8_000 });
        assert.equal(page.text, JSON.stringify(parts.find((p) => p.toolCallId === id).output).slice(0, page.text.length));
      }
      parts.push(readPart(n, { text: pageText(n, pageTokens(n)) }));
    }
    assert.ok(over >= 2, `the loop passes the limit unguarded (${over} requests)`);
    assert.ok(folded.has('call-1'), 'the oldest output is folded first');
    const stored = await turn.finish({ parts: [...parts, { type: 'text', text: 'Compared.' }] });
    assert.deepEqual(stored.parts.filter((p) => p.toolCallId).map((p) => p.output), parts.map((p) => p.output), 'stored verbatim');
    assert.deepEqual(history(await store.load(sessionId)).at(-1).parts.filter((p) => p.toolCallId).map((p) => p.output.text), parts.map((p) => p.output.text));
    // After the turn, the handle reads the stored output.
    assert.equal((await recall.read({ handle: 'call-1', maxTokens: 8_000 })).text, JSON.stringify(parts[0].output).slice(0, (await recall.read({ handle: 'call-1', maxTokens: 8_000 })).text.length));
    await assert.rejects(turn.guard(parts), { code: 'turn-ended' });
  });

  it('refuses a request that cannot fit (step-too-large); stop stores what there is', async () => {
    const { store, sessionId, turn } = await begin();
    const parts = [{ type: 'tool-writeNote', toolCallId: 'call-big', state: 'input-available', input: { text: pageText(1, 9_000) } }];
    await assert.rejects(turn.guard(parts), (error) => error.code === 'step-too-large' && error.tokens > error.limit && error.limit === LIMIT);
    await assert.rejects(turn.guard('not parts'), { code: 'invalid-options' });
    const stored = await turn.stop({ parts });
    assert.equal(stored.metadata.aborted, true);
    assert.equal(history(await store.load(sessionId)).at(-1).id, stored.id);
  });
});
