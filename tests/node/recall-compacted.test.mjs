// Issue 38's Done-when for recall: a session compacted many times (automatic compactions, the
// embedded extractive summarizer) on 8k; then every folded tool result (page text) and user message
// reads back verbatim through recall by what the projection shows (the handle its recall note lists,
// the [number] of the user's words, a Zotero key with its page for an older page read), a text search
// finds sentences planted in the first turn, and nothing from another branch is ever returned.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, storeWith } from './runner-fixtures.mjs';
import { MODEL_8K, pageText } from './tool-loop-fixtures.mjs';

const { CompactionController, createRecall, extractiveSummary, project, history, estimateMessage } = compaction;
const PLANTED_USER = 'Remember that the ceramic sample of batch K-17 cracked at 412 degrees.';
const PLANTED_PAGE = 'Table 3 shows the zeolite layer failing first under chloride load.';
const OTHER = 'Only the edited branch holds this: zirconia Q-99 survived the furnace.';
const ALPHABET = '23456789ABCDEFGHIJKLMNPQRSTUVWXYZ';
/** The attachment key of turn t: a valid Zotero key, one per turn. */
const keyOf = (t) => `PDF${ALPHABET[Math.floor(t / ALPHABET.length) % ALPHABET.length]}${ALPHABET[t % ALPHABET.length]}XYZ`;

/** The whole text a handle reads back, page after page within 600 tokens each. */
async function readAll(recall, handle) {
  const first = await recall.read({ handle, maxTokens: 600 });
  assert.ok(first.tokens <= 600, `${handle}: ${first.tokens} tokens in a 600-token page`);
  let text = first.text;
  for (let next = first.nextOffset; next !== null;) {
    const page = await recall.read({ handle, offset: next, maxTokens: 600 });
    assert.ok(page.tokens <= 600 && page.offset === next);
    text += page.text;
    next = page.nextOffset;
  }
  return text;
}

async function grow(compactions) {
  const { store, sessionId } = await storeWith({ nodes: [], leafId: null, branchRevision: 0 });
  const controller = new CompactionController({ store, sessionId, model: MODEL_8K, summarize: async (request) => extractiveSummary(request) });
  const outputs = new Map(); // call id -> { key, page, output }
  const users = []; // the user's texts, in order
  let committed = 0;
  for (let t = 1; committed < compactions; t++) {
    assert.ok(t < 200, `only ${committed} compactions after ${t} turns`);
    const key = keyOf(t);
    const page = 10 + t;
    const question = t === 1 ? `Start with the first paper. ${PLANTED_USER}` : `Now page ${page} of the paper ${key}, please (turn ${t}).`;
    users.push(question);
    await store.appendMessage(sessionId, { id: `U${t}`, role: 'user', parts: [{ type: 'text', text: question }] });
    const output = { attachmentKey: key, pageIndex: page - 1, pageLabel: String(page), text: `${t === 1 ? `${PLANTED_PAGE} ` : ''}${pageText(t, 900)}` };
    outputs.set(`call-${t}`, { key, page, output });
    await store.appendMessage(sessionId, { id: `A${t}`, role: 'assistant', parts: [
      { type: 'step-start' },
      { type: 'tool-readPdfPage', toolCallId: `call-${t}`, state: 'output-available', input: { attachmentKey: key, pageIndex: page - 1 }, output },
      { type: 'step-start' },
      { type: 'text', text: `On p. ${page} of ${key} the membrane kept its salt rejection (turn ${t}).` },
    ] });
    const outcome = await controller.afterTurn();
    if (outcome?.status === 'committed') committed += 1;
  }
  return { store, sessionId, controller, outputs, users };
}

describe('recall after many compactions (issue 38)', () => {
  it('reads back every folded page text and user message by what the projection shows; finds planted sentences; never another branch', async (ctx) => {
    const { store, sessionId, controller, outputs, users } = await grow(5);
    // Another branch: an edit of turn 3's question, with a page read of its own; then back.
    const leaf = (await store.load(sessionId)).leafId;
    await store.edit(sessionId, 'A2', { id: 'U3-edit', role: 'user', parts: [{ type: 'text', text: OTHER }] });
    await store.appendMessage(sessionId, { id: 'A3-edit', role: 'assistant', parts: [
      { type: 'tool-readPdfPage', toolCallId: 'call-other', state: 'output-available', input: { attachmentKey: 'OTHERKEY', pageLabel: '5' }, output: { text: OTHER } },
    ] });
    await store.moveLeaf(sessionId, leaf);

    const session = await store.load(sessionId);
    const branch = history(session);
    const checkpoints = branch.filter((n) => 'checkpoint' in n);
    assert.ok(checkpoints.length >= 5, `${checkpoints.length} checkpoints`);
    const checkpoint = checkpoints.at(-1).checkpoint;
    const projection = project(session);
    const summary = projection.messages[0].parts[0].text;
    assert.equal(projection.messages[0].metadata?.checkpoint, true);
    // The plan counted what the projection shows (the recall note included).
    const shown = estimateMessage(projection.messages[0], MODEL_8K) + projection.messages.slice(1).reduce((a, m) => a + estimateMessage(m, MODEL_8K), 0);
    assert.ok(shown <= checkpoint.tokensAfter, `projection ${shown} over the checkpoint's tokensAfter ${checkpoint.tokensAfter}`);

    // What the note lists: "<tool> <call id>", newest first.
    const note = /newest first: ([^;)]*)/.exec(summary);
    assert.ok(note, `no recall handles in the summary message:\n${summary}`);
    const listed = note[1].split(', ');
    const keptFrom = branch.findIndex((n) => n.id === checkpoint.firstKeptMessageId);
    const folded = branch.slice(0, keptFrom).flatMap((n) => (n.parts ?? []).filter((p) => p.toolCallId)).map((p) => p.toolCallId);
    assert.ok(folded.length >= 10, `${folded.length} folded page reads`);
    assert.equal(listed[0], `readPdfPage ${folded.at(-1)}`, 'the newest folded output first');

    const recall = createRecall(controller);
    let byHandle = 0;
    let byKey = 0;
    for (const id of folded) {
      const { key, page, output } = outputs.get(id);
      const handle = listed.find((h) => h.endsWith(` ${id}`));
      if (handle) {
        byHandle += 1;
        assert.equal(await readAll(recall, handle), JSON.stringify(output), `${handle} read back verbatim`);
        continue;
      }
      // An older page read: its key is in the ledger the summary message projects or carries, and
      // looking up the key at its page names the handle.
      assert.ok(checkpoint.ledger.entries.some((e) => e.key === key || e.parentKey === key || e.key.startsWith(`${key}#`)), `${key} in the ledger`);
      const found = await recall.lookup({ key, page, maxTokens: 600 });
      // The page read first (newest first, it follows the answer's text in its message), then the turn's words naming it.
      const turn = id.slice('call-'.length);
      assert.equal(found.results[0]?.handle, id, `${key} p. ${page}: ${JSON.stringify(found.results.map((r) => r.handle))} more: ${found.more}`);
      assert.ok(found.results.every((r) => [id, `A${turn}`, `U${turn}`].includes(r.handle)), JSON.stringify(found.results.map((r) => r.handle)));
      assert.ok(found.ledger.some((e) => e.parentKey === key) && found.citedPages.every((c) => c.key === key));
      assert.equal(await readAll(recall, found.results[0].handle), JSON.stringify(output));
      byKey += 1;
    }
    ctx.diagnostic(`${checkpoints.length} compactions; ${folded.length} folded page reads: ${byHandle} by the handle the summary lists, ${byKey} by key and page`);
    assert.ok(byHandle >= 1 && byHandle + byKey === folded.length);

    // Every folded user message by its [number] in the user's words (shown or counted as left out).
    assert.ok(summary.includes('- [1] '), 'the user words are numbered');
    assert.equal(checkpoint.userWords.length, branch.slice(0, keptFrom).filter((n) => n.role === 'user').length);
    for (let n = 1; n <= checkpoint.userWords.length; n++) {
      assert.equal((await recall.read({ handle: `[${n}]` })).text, users[n - 1], `[${n}]`);
    }

    // A search finds what was planted in the first turn: the user's words and the page's text.
    const planted = await recall.search({ query: 'batch K-17 cracked' });
    assert.deepEqual(planted.results.map((r) => r.handle), ['U1']);
    const inPage = await recall.search({ query: 'zeolite layer failing' });
    assert.deepEqual(inPage.results.map((r) => r.handle), ['call-1']);
    // Paged: a phrase of every page, 300 tokens at a time, newest first, each handle once.
    const seen = [];
    for (let offset = 0, pages = 0; offset !== null && pages < 40; pages++) {
      const answer = await recall.search({ query: 'salt rejection', maxTokens: 300, offset });
      assert.ok(estimateMessage({ id: 's', role: 'user', parts: [{ type: 'text', text: JSON.stringify(answer) }] }) < 450);
      seen.push(...answer.results.map((r) => r.handle));
      offset = answer.nextOffset;
    }
    assert.equal(new Set(seen).size, seen.length, 'no match twice across pages');
    assert.ok(seen.includes('call-1') && seen.includes('A1'));

    // Nothing from the other branch.
    assert.deepEqual((await recall.search({ query: 'zirconia Q-99' })).results, []);
    const other = await recall.lookup({ key: 'OTHERKEY' });
    assert.deepEqual([other.results, other.ledger, other.citedPages], [[], [], []]);
    await assert.rejects(recall.read({ handle: 'call-other' }), { code: 'recall-not-found' });
    await assert.rejects(recall.read({ handle: 'U3-edit' }), { code: 'recall-not-found' });
    await assert.rejects(recall.lookup({ key: 'not a key!' }), { code: 'invalid-argument' });
  });
});
