// Issue 38, recall (a first cut): after compactions, a folded tool output and a user's words are read
// back by the handle the projection or the step guard shows, paged within a budget; a search finds a
// sentence planted in the first turn; nothing from another branch is returned. And the AI SDK tool:
// a model that sees a handle in a guarded step reads the page back in full (ai 5, 6, 7).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, storeWith, scriptedSummarizer, validSummary } from './runner-fixtures.mjs';
import { sdks } from './ai-sdks.mjs';
import { MODEL_8K, pageText, chatMessage, settle, loopKit } from './tool-loop-fixtures.mjs';

const { CompactionController, createRecall, recallTool, estimate, estimateMessage } = compaction;
const PLANTED = 'The ceramic sample of batch K-17 cracked at 412 degrees.';
const OTHER_BRANCH = 'A sentence only the edited branch holds: zirconia Q-99.';

/** Twelve turns, each reading a 2,000-token page; turn 1 holds the planted sentence. */
function longSession() {
  const nodes = [];
  let parent = null;
  for (let t = 1; t <= 12; t++) {
    nodes.push({ id: `U${t}`, parentId: parent, role: 'user', parts: [{ type: 'text', text: t === 1 ? `Start here. ${PLANTED}` : `Question ${t}` }] });
    nodes.push({ id: `A${t}`, parentId: `U${t}`, role: 'assistant', parts: [
      { type: 'step-start' },
      { type: 'tool-readPage', toolCallId: `page-${t}`, state: 'output-available', input: { page: t }, output: pageText(t, 2_000) },
      { type: 'step-start' }, { type: 'text', text: `Page ${t} read.` },
    ] });
    parent = `A${t}`;
  }
  return { nodes, leafId: parent, branchRevision: 24 };
}

describe('recall over a compacted session', () => {
  it('reads back folded tool outputs and user words by handle, pages within the budget, finds a planted sentence, never another branch', async (ctx) => {
    const { store, sessionId } = await storeWith(longSession());
    const controller = new CompactionController({ store, sessionId, model: MODEL_8K, summarize: scriptedSummarizer(() => validSummary()).summarize });
    assert.equal((await controller.compact('manual')).status, 'committed');
    // Another branch: an edit of U12 under A11, then back on the original branch (its leaf U12).
    await store.edit(sessionId, 'A11', { id: 'U12-edit', role: 'user', parts: [{ type: 'text', text: OTHER_BRANCH }] });
    await store.retry(sessionId, 'U12');
    const session = await store.load(sessionId);
    assert.ok(session.nodes.some((n) => 'checkpoint' in n));
    const recall = createRecall(controller);

    const page1 = await recall.read({ handle: 'page-1', maxTokens: 500 });
    assert.ok(page1.tokens <= 500 && page1.tokens > 300, `${page1.tokens}`);
    assert.ok(pageText(1, 2_000).startsWith(page1.text));
    // Paged to the end, verbatim.
    let text = page1.text;
    for (let next = page1.nextOffset; next !== null;) {
      const page = await recall.read({ handle: 'page-1', offset: next, maxTokens: 8_000 });
      text += page.text;
      next = page.nextOffset;
    }
    assert.equal(text, pageText(1, 2_000));
    assert.equal((await recall.read({ handle: 'U1' })).text, `Start here. ${PLANTED}`);

    const found = await recall.search({ query: 'batch k-17 cracked' });
    assert.deepEqual(found.results.map((r) => r.handle), ['U1']);
    assert.ok(found.results[0].snippet.includes(PLANTED));
    assert.ok(estimateMessage({ id: 's', role: 'user', parts: [{ type: 'text', text: JSON.stringify(found) }] }) < 1_100);
    // Bounded: a phrase in every page returns what fits, newest first, and says there is more.
    const many = await recall.search({ query: 'salt rejection', maxTokens: 300 });
    assert.equal(many.more, true);
    assert.equal(many.results[0]?.handle, 'page-11', 'newest first (the retry put the leaf back on U12)');

    assert.deepEqual((await recall.search({ query: 'zirconia Q-99' })).results, [], 'the other branch is not searched');
    await assert.rejects(recall.read({ handle: 'U12-edit' }), { code: 'recall-not-found' });
    await assert.rejects(recall.read({ handle: '' }), { code: 'invalid-argument' });
    // What the tool's definition costs in every request (the docs say about 260).
    const asTool = recallTool(sdks[0].ai, recall);
    const definition = estimate({ nodes: [], leafId: null, branchRevision: 0 }, MODEL_8K, { overhead: { tools: { recall: { description: asTool.description, inputSchema: asTool.inputSchema.jsonSchema } } } }).tokens;
    ctx.diagnostic(`the recall tool's definition: ${definition} estimated tokens`);
    assert.ok(definition > 100 && definition < 280, `${definition}`);
  });
});

for (const sdk of sdks) {
  describe(`the recall tool in a guarded tool loop (${sdk.name})`, () => {
    it('a page the guard showed as a handle is read back through the tool, from the step\'s own messages', async () => {
      const { setup, send, readAll } = loopKit(sdk);
      // Page 1 is larger than the window: the next step shows it as a handle; the model then recalls it.
      const big = pageText(1, 12_000);
      const recalled = [];
      const t = await setup({
        model: MODEL_8K, steps: 1, pages: () => big,
        extraTools: (controller) => {
          const recall = createRecall(controller);
          const inner = recallTool(sdk.ai, recall);
          return { recall: { ...inner, execute: async (input, options) => { const out = await inner.execute(input, options); recalled.push(out); return out; } } };
        },
        recallAt: { 2: { handle: 'call-1', maxTokens: 1_000 } },
      });
      const { error } = await readAll(await send(t.transport, chatMessage('u-1', 'Read page 1.')));
      await settle(t.controller);
      assert.equal(error, undefined, String(error));
      assert.equal(recalled.length, 1);
      assert.ok(big.startsWith(recalled[0].text) && recalled[0].text.length > 1_000, JSON.stringify(recalled[0]).slice(0, 200));
      assert.ok(recalled[0].tokens <= 1_000);
      assert.equal(recalled[0].nextOffset, recalled[0].text.length);
    });
  });
}
