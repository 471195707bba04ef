// Issue 41's adoption, as the maintainer of a Zotero chat plugin without the AI SDK would make it:
// examples/without-ai-sdk/research-chat.mjs (its own OpenAI-style messages, model calls with fetch,
// numeric item ids resolved by the app, zotero:// links in tool output, a summary model that writes
// prose, the store under a table prefix beside the app's own table, display-only markers) runs 30
// turns with compactions against a fake OpenAI-compatible endpoint. The README's "Without the AI
// SDK" blocks are that example's regions, as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';
import { consumerDir, repoRoot } from './consumer-env.mjs';
import { region } from './quoted-region.mjs';

const compaction = await import('bibgenie-compaction');
await compaction.init();
const { capacity, history } = compaction;

// The example imports `bibgenie-compaction`: run it from the consumer folder, where that resolves.
const exampleDir = join(consumerDir, 'examples-without-ai-sdk');
mkdirSync(exampleDir, { recursive: true });
copyFileSync(join(repoRoot, 'examples/without-ai-sdk/research-chat.mjs'), join(exampleDir, 'research-chat.mjs'));
const { ResearchChat, toChatMessages, toUIMessage } = await import(pathToFileURL(join(exampleDir, 'research-chat.mjs')).href);

const MODEL = { id: 'local-8k', contextWindow: 8192 };
const MARKER_TEXT = 'Now answering with';
/** The app's items: numeric ids, which only the app can turn into a library and a key. */
const ITEMS = new Map([
  [101, { libraryID: 1, key: 'QWER2345' }], [102, { libraryID: 1, key: 'ASDF6789' }], [103, { libraryID: 1, key: 'ZXCV2345' }],
  [104, { libraryID: 1, key: 'TYUI6789' }], [105, { libraryID: 1, key: 'GHJK2345' }],
]);
const TOPICS = ['attendance in rural schools', 'teacher turnover', 'meal programmes', 'exam results by district', 'parental income'];

function words(n, seed) {
  const pool = ['the', 'cohort', 'survey', 'district', 'effect', 'sample', 'schools', 'evidence', 'measured', 'children', 'rate', 'study', 'reported', 'method', 'data'];
  return Array.from({ length: n }, (_, i) => pool[(i * 7 + seed) % pool.length]).join(' ');
}

/**
 * An OpenAI-compatible endpoint: a request with tools and a user message last gets a tool call,
 * one after a tool result an answer; a request without tools (the summary) gets plain prose.
 */
function fakeEndpoint() {
  const requests = [];
  const promptTokens = []; // what the endpoint counts each request as: a character count over 4
  let n = 0;
  const fetch = async (url, init) => {
    assert.equal(url, 'http://localhost:8080/v1/chat/completions');
    const body = JSON.parse(init.body);
    requests.push(body);
    n++;
    const last = body.messages[body.messages.length - 1];
    let message;
    if (!body.tools) {
      message = { role: 'assistant', content: `So far the researcher has been comparing ${TOPICS.join(', ')}. `
        + 'They asked for evidence with pages and the assistant read several items through the item tool. '
        + `${words(60, n)}. The next step is to write the comparison.` };
    } else if (last.role === 'user') {
      const itemId = Number(/item (\d+)/.exec(last.content)?.[1] ?? 101);
      message = { role: 'assistant', content: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'zotero_item', arguments: JSON.stringify({ itemId }) } }] };
    } else {
      message = { role: 'assistant', content: `Answer ${n}: ${words(260, n)}.` };
    }
    const prompt = Math.ceil(init.body.length / 4);
    promptTokens.push(prompt);
    return new Response(JSON.stringify({ choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: prompt, completion_tokens: 300 } }), { status: 200 });
  };
  return { fetch, requests, promptTokens };
}

/** The app's item tool: numeric ids, and a zotero:// link with the page for the odd ones. */
async function zoteroItem({ itemId }) {
  const item = ITEMS.get(itemId);
  const page = (itemId % 20) + 3;
  return {
    itemId, title: `A study of ${TOPICS[itemId % TOPICS.length]}`,
    quote: `Attendance rose by ${itemId % 9} points after the programme.`, page,
    ...(itemId % 2 === 1 ? { link: `zotero://open-pdf/library/items/${item.key}?page=${page}` } : {}),
  };
}

test('the messages convert both ways: the app\'s tool calls and results become tool parts and back', () => {
  const app = [
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'zotero_item', arguments: '{"itemId":101}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: '{"itemId":101,"quote":"q"}' },
    { role: 'assistant', content: 'It says q.' },
  ];
  const ui = toUIMessage('a1', app);
  assert.deepEqual(ui, {
    id: 'a1', role: 'assistant', parts: [
      { type: 'tool-zotero_item', toolCallId: 'c1', state: 'output-available', input: { itemId: 101 }, output: { itemId: 101, quote: 'q' } },
      { type: 'text', text: 'It says q.' },
    ],
  });
  assert.deepEqual(toChatMessages(ui), app);
  assert.deepEqual(toChatMessages({ id: 'u', role: 'user', parts: [{ type: 'text', text: 'hi' }] }), [{ role: 'user', content: 'hi' }]);
});

test('a plugin without the AI SDK runs 30 turns with compactions: nothing blocked, keys resolved, markers shown and never sent, every request fits', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bibgenie-no-sdk-'));
  try {
    const db = new ZoteroDBConnectionShim(Database, join(dir, 'zotero.sqlite'));
    const endpoint = fakeEndpoint();
    const resolved = [];
    const chat = new ResearchChat({
      db, fetch: endpoint.fetch, endpoint: 'http://localhost:8080/v1', model: MODEL.id, contextWindow: MODEL.contextWindow,
      resolveItem: (itemID) => { resolved.push(itemID); return ITEMS.get(itemID) ?? null; },
      tools: { zotero_item: zoteroItem },
    });
    const sessionId = await chat.open(4242, 'Rural attendance');
    const idle = async () => {
      for (let i = 0; i < 500 && chat.controller.busy; i++) await new Promise((r) => setTimeout(r, 10));
    };
    for (let turn = 0; turn < 30; turn++) {
      if (turn === 10 || turn === 20) {
        await idle(); // the model picker waits for a compaction to end (setModel: busy)
        await chat.switchModel(turn === 10 ? 'local-8k-b' : MODEL.id, MODEL.contextWindow);
      }
      const itemId = 101 + (turn % 5);
      const answer = await chat.ask(`Turn ${turn}: what does item ${itemId} say about ${TOPICS[turn % 5]}? ${words(25, turn)}`);
      assert.match(answer, /^Answer \d+/, `turn ${turn} answered`);
    }
    await idle(); // a compaction the last turn started

    const session = await chat.store.load(sessionId);
    const checkpoints = session.nodes.filter((node) => 'checkpoint' in node);
    assert.ok(checkpoints.length >= 2, `compacted at least twice (${checkpoints.length})`);

    // The summary model wrote prose: every checkpoint kept it (repaired under the headings), none blocked.
    for (const node of checkpoints) assert.match(node.checkpoint.summary, /So far the researcher has been comparing/);

    // The ledger and the cited pages of the newest checkpoint hold the keys the app resolved.
    const newest = checkpoints[checkpoints.length - 1].checkpoint;
    const ledgerText = JSON.stringify(newest.ledger);
    for (const { key } of ITEMS.values()) assert.ok(ledgerText.includes(key), `the ledger holds ${key}`);
    assert.ok(resolved.length > 0 && resolved.every((id) => ITEMS.has(id)), 'the resolver was asked for the app\'s ids');
    // Cited pages: the open-pdf links' pages (odd ids), and the quotes of the ids only the app resolves (even ids).
    const cited = new Set(checkpoints.flatMap((node) => node.checkpoint.citedPages ?? []).map((c) => `${c.key} ${c.locator}`));
    for (const [itemId, { key }] of ITEMS) {
      const page = (itemId % 20) + 3;
      if (itemId % 2 === 1) assert.ok(cited.has(`${key} p. ${page}`), `the cited pages hold ${key} p. ${page}: ${[...cited].join(', ')}`);
    }
    for (const itemId of [102, 104]) {
      const { key } = ITEMS.get(itemId);
      assert.ok(cited.has(`${key} p. ${(itemId % 20) + 3}`), `a quote the tool gave by numeric id is a cited page of ${key}: ${[...cited].join(', ')}`);
    }

    // Markers: in the history, never in a request.
    const shown = await chat.messages();
    assert.equal(shown.filter((m) => m.role === 'marker' && m.kind === 'model-switch' && m.content.startsWith(MARKER_TEXT)).length, 2, 'both model switches are shown');
    assert.equal(history(session).filter((node) => node.displayOnly?.kind === 'model-switch').length, 2);
    const lastSwitch = endpoint.requests.findIndex((r) => r.model === 'local-8k-b');
    assert.ok(lastSwitch > 0, 'the switched model was asked');
    for (const request of endpoint.requests) assert.ok(!JSON.stringify(request).includes(MARKER_TEXT), 'no request carries a marker');

    // Every request fits the safe limit, as the endpoint counts it (the prompt_tokens it reports, from
    // which the package's next estimate starts).
    const { safeInputLimit } = capacity(MODEL);
    const largest = Math.max(...endpoint.promptTokens);
    assert.ok(largest <= safeInputLimit, `a request of ${largest} tokens over the safe limit ${safeInputLimit}`);
    assert.ok(largest > safeInputLimit / 2, `the requests came near the window (${largest} of ${safeInputLimit})`);
    t.diagnostic(`${endpoint.requests.length} requests, the largest ${largest} of ${safeInputLimit} tokens; ${checkpoints.length} checkpoints; ${resolved.length} ids resolved`);

    // The store shares the plugin's database under its prefix, beside the app's own table.
    const tables = (await db.columnQueryAsync("SELECT name FROM sqlite_master WHERE type = 'table'")).map(String);
    assert.ok(tables.includes('chats'));
    assert.ok(tables.some((t) => t.startsWith('researchchat_')));
    assert.ok(!tables.includes('sessions') && !tables.includes('nodes'), `no unprefixed tables: ${tables}`);
    assert.equal(await db.valueQueryAsync('SELECT sessionId FROM chats WHERE itemID = 4242'), sessionId);
    await chat.store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the README\'s "Without the AI SDK" blocks are the example\'s regions, as they are', () => {
  const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Without the AI SDK'), readme.indexOf('## In a Zotero plugin'));
  assert.ok(section.startsWith('## Without the AI SDK'), 'the README has the section');
  const quotes = [...section.matchAll(/^```js example:([^\s#]+)#(\S+)\n([\s\S]*?)^```$/gm)];
  assert.deepEqual(quotes.map((q) => q[2]), ['open', 'turn']);
  const source = readFileSync(join(repoRoot, 'examples/without-ai-sdk/research-chat.mjs'), 'utf8');
  for (const [, file, name, quoted] of quotes) {
    assert.equal(file, 'examples/without-ai-sdk/research-chat.mjs');
    assert.equal(quoted, region(source, name), `README.md quotes ${name}`);
  }
});
