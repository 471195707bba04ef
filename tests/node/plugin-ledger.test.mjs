// Issue 41, item 3: a plugin's own tool output feeds the ledger and the cited pages. Its tool results
// carry numeric item ids and zotero:// links, never Zotero's JSON; the app's `resolveItem` turns the
// ids of the folded range into keys, through compact() and CompactionController alike.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, MODEL, storeWith, scriptedSummarizer, userMessage, assistantMessage } from './runner-fixtures.mjs';

const { compact, CompactionController, lookupLedger } = compaction;

const pad = (n) => Array.from({ length: n }, (_, i) => `filler${i}`).join(' ');

/** A tool call of the plugin with its output (`output-available`). */
function toolMessage(id, parentId, tool, output, text) {
  return {
    id, parentId, role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: `tool-${tool}`, toolCallId: `call-${id}`, state: 'output-available', input: { query: 'dogs' }, output },
      { type: 'text', text },
    ],
  };
}

/**
 * Two folded turns whose tool outputs hold only `itemId: 123` and an open-pdf link, then two turns kept
 * verbatim whose tool output names `itemId: 999` (outside the folded range: never resolved).
 */
function pluginSession() {
  const nodes = [
    userMessage('U1', null, `Find papers on the protein needs of working dogs. ${pad(300)}`),
    toolMessage('A1', 'U1', 'search_library', { results: [{ itemId: 123, title: 'Protein needs of working dogs' }] }, `One paper. ${pad(300)}`),
    userMessage('U2', 'A1', `Quote its key passage. ${pad(300)}`),
    toolMessage('A2', 'U2', 'get_quotes',
      '> "Working dogs need a third more protein than pets." ([p. 7](zotero://open-pdf/library/items/ABCD2345?page=7))',
      `Quoted. ${pad(300)}`),
    userMessage('U3', 'A2', `Now the newest study. ${pad(150)}`),
    toolMessage('A3', 'U3', 'search_library', { results: [{ itemId: 999, title: 'Newest study' }] }, `Found it. ${pad(150)}`),
    userMessage('U4', 'A3', `Compare them. ${pad(150)}`),
    assistantMessage('A4', 'U4', `They agree. ${pad(150)}`),
  ];
  return { nodes, leafId: 'A4', branchRevision: 8 };
}

/** A resolver that records its calls and knows item 123. */
function recordingResolver(answer = (id) => (id === 123 ? { libraryID: 1, key: 'WXYZ2345' } : null)) {
  const calls = [];
  return { calls, resolveItem: (id) => { calls.push(id); return answer(id); } };
}

/** The checks every run with a resolver for 123 makes on its committed checkpoint. */
function assertResolvedCheckpoint(checkpoint, plan) {
  assert.ok(plan.summarizeIds.includes('A2') && !plan.summarizeIds.includes('A3'), `folded ${plan.summarizeIds}`);
  const paper = lookupLedger(checkpoint.ledger, { key: 'WXYZ2345' });
  assert.equal(paper.length, 1, JSON.stringify(checkpoint.ledger));
  assert.equal(paper[0].kind, 'item');
  assert.equal(paper[0].libraryID, 1);
  assert.equal(paper[0].label, 'Protein needs of working dogs');
  assert.equal(lookupLedger(checkpoint.ledger, { key: 'ABCD2345' }).length, 1, JSON.stringify(checkpoint.ledger));
  const page = checkpoint.citedPages.find((c) => c.key === 'ABCD2345');
  assert.ok(page, JSON.stringify(checkpoint.citedPages));
  assert.equal(page.locator, 'p. 7');
  assert.match(page.text, /Working dogs need a third more protein/);
}

test('compact(): itemId 123 resolved and an open-pdf link give two ledger entries and the cited page 7', async () => {
  const { store, sessionId } = await storeWith(pluginSession());
  const { summarize, calls: requests } = scriptedSummarizer();
  const { calls, resolveItem } = recordingResolver();
  const outcome = await compact({ store, sessionId, model: MODEL, mode: 'manual', summarize, resolveItem });
  assert.equal(outcome.status, 'committed', outcome.message);
  assertResolvedCheckpoint(outcome.checkpoint.checkpoint, outcome.plan);
  assert.deepEqual(calls, [123], 'asked once, only for the folded range (never 999)');
  // The summarizer saw the resolved key too, and no id is left to resolve.
  assert.equal(lookupLedger(requests[0].request.ledger, { key: 'WXYZ2345' }).length, 1);
  assert.deepEqual(requests[0].request.itemIds, []);
  // The stored checkpoint is the one answered.
  const stored = (await store.load(sessionId)).nodes.find((n) => n.id === outcome.checkpoint.id);
  assert.deepEqual(stored.checkpoint.ledger, outcome.checkpoint.checkpoint.ledger);
});

test('CompactionController: the resolver given once feeds every compaction it runs', async () => {
  const { store, sessionId } = await storeWith(pluginSession());
  const { summarize } = scriptedSummarizer();
  const { calls, resolveItem } = recordingResolver(async (id) => (id === 123 ? { libraryID: 1, key: 'WXYZ2345' } : null));
  const controller = new CompactionController({ store, sessionId, model: MODEL, summarize, resolveItem });
  const outcome = await controller.compact();
  assert.equal(outcome.status, 'committed', outcome.message);
  assertResolvedCheckpoint(outcome.checkpoint.checkpoint, outcome.plan);
  assert.deepEqual(calls, [123]);
});

test('a resolver that throws, rejects or answers nonsense leaves its ids unresolved and the compaction commits', async () => {
  const answers = [
    () => { throw new Error('database closed'); },
    () => Promise.reject(new Error('no such item')),
    () => ({ libraryID: 'one', key: 'WXYZ2345' }),
    () => ({ libraryID: 1, key: 'not-a-key' }),
    () => 'WXYZ2345',
  ];
  for (const answer of answers) {
    const { store, sessionId } = await storeWith(pluginSession());
    const { summarize } = scriptedSummarizer();
    const outcome = await compact({ store, sessionId, model: MODEL, summarize, resolveItem: answer });
    assert.equal(outcome.status, 'committed', outcome.message);
    const { ledger, citedPages } = outcome.checkpoint.checkpoint;
    assert.equal(lookupLedger(ledger, { key: 'WXYZ2345' }).length, 0);
    assert.equal(lookupLedger(ledger, { key: 'ABCD2345' }).length, 1, 'the link is recognised without the resolver');
    assert.ok(citedPages.some((c) => c.key === 'ABCD2345' && c.locator === 'p. 7'));
  }
});

test('without a resolver the links still feed the ledger and the cited pages', async () => {
  const { store, sessionId } = await storeWith(pluginSession());
  const { summarize, calls } = scriptedSummarizer();
  const outcome = await compact({ store, sessionId, model: MODEL, summarize });
  assert.equal(outcome.status, 'committed', outcome.message);
  const { ledger, citedPages } = outcome.checkpoint.checkpoint;
  assert.deepEqual(lookupLedger(ledger, { key: 'ABCD2345' }).map((e) => e.kind), ['attachment']);
  assert.ok(citedPages.some((c) => c.key === 'ABCD2345' && c.locator === 'p. 7'));
  assert.deepEqual(calls[0].request.itemIds, [123], 'the ids an app could resolve are listed');
});

test('resolveItem must be a function: invalid-options', async () => {
  const { store, sessionId } = await storeWith(pluginSession());
  const { summarize } = scriptedSummarizer();
  await assert.rejects(compact({ store, sessionId, model: MODEL, summarize, resolveItem: 'WXYZ2345' }), (e) => e.code === 'invalid-options');
  assert.throws(() => new CompactionController({ store, sessionId, model: MODEL, summarize, resolveItem: 42 }), (e) => e.code === 'invalid-options');
  // Absent (undefined or null) is no resolver.
  assert.equal((await compact({ store, sessionId, model: MODEL, summarize, resolveItem: null })).status, 'committed');
});
