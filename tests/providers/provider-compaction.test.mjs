// The providers' own compaction on the wire (issue 39), with the real provider packages through
// CompactionChatTransport: Anthropic's threshold compaction (`compact_20260112`, ai 5, 6 and 7) and
// OpenAI Responses' encrypted compaction item (ai 7, the first @ai-sdk/openai that stores it). The
// provider's block is the boundary: the next turn neither compacts again on the iterations' usage sum
// nor sends the package's summary before the block; a later package compaction folds a readable
// block only as the previous summary and never sends an encrypted item's ciphertext as text.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as compaction from 'bibgenie-compaction';
import {
  SDKS, providerPackages, recordingFetch, textAnswer, rawAnswer, anthropicCompactionStream, responsesCompactionStream,
} from './wire-fixtures.mjs';

await compaction.init();
const { CompactionController, CompactionChatTransport, MemoryStore, extractiveSummary, readBranch, estimate, estimateMessage } = compaction;

/** A window the AI SDK's usage sum after a provider compaction (60,997 input tokens) is far over. */
const MODEL = Object.freeze({ id: 'claude-opus-4-6', contextWindow: 64_000, maxOutputTokens: 4_096 });
const PROVIDER_SUMMARY = '<summary>The researcher compares protein digestibility trials in dogs; KEY1003 p. 4 is the key feeding trial.</summary>';
const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const question = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** A chat through the transport: `send(text, answers)` runs one turn as useChat would. */
function chatThrough(sdk, model, providerOptions) {
  const { streamText, convertToModelMessages, readUIMessageStream } = sdk.ai;
  const store = new MemoryStore();
  const sessionId = 'provider-compaction';
  const summaries = [];
  const controller = new CompactionController({
    store, sessionId, model: MODEL,
    summarize: (request) => { summaries.push(request); return extractiveSummary(request); },
  });
  const transport = new CompactionChatTransport({
    controller,
    streamResponse: async ({ messages, abortSignal }) => streamText({ model, abortSignal, providerOptions, messages: await convertToModelMessages(messages) }),
  });
  let turns = 0;
  const send = async (requests, answers, text, script) => {
    answers.splice(0, answers.length, ...script);
    const from = requests.length;
    const history = readBranch(await store.load(sessionId)).nodes.filter((node) => !('checkpoint' in node));
    turns += 1;
    const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages: [...history, question(`q${turns}`, text)], abortSignal: undefined });
    for await (const _ of readUIMessageStream({ stream })); // as useChat reads it
    while (controller.busy) await new Promise((r) => setTimeout(r, 1));
    return requests.slice(from);
  };
  return { store, sessionId, controller, summaries, send, open: () => store.createSession({ sessionId }) };
}

for (const sdk of SDKS) {
  const packages = await providerPackages(sdk.major);

  describe(`Anthropic's threshold compaction with ${sdk.name}`, () => {
    it('is the boundary: the next turn does not compact, sends no package summary before the block, and a later package compaction folds it only as the previous summary', async () => {
      const { fetch, requests, answers } = recordingFetch();
      const model = packages.anthropic.createAnthropic({ apiKey: 'k', fetch })('claude-opus-4-6');
      const chat = chatThrough(sdk, model, { anthropic: { contextManagement: { edits: [{ type: 'compact_20260112' }] } } });
      await chat.open();
      const send = (text, script) => chat.send(requests, answers, text, script);
      await send('Which papers in my library measure protein digestibility in dogs?', [textAnswer('Three of them do.')]);
      await send(`Compare their methods: ${words(200, 'method')}`, [rawAnswer(anthropicCompactionStream({
        summary: PROVIDER_SUMMARY, answer: 'Continuing from the summary: the trials differ in diet.', compactionInput: 60_385, input: 612, output: 40,
      }))]);

      // What the provider holds now: the final iteration's 612 + 40 tokens, not the 60,997 the AI SDK sums.
      const after = estimate(await chat.store.load(chat.sessionId), MODEL);
      assert.equal(after.source, 'usage');
      assert.ok(after.tokens >= 652 && after.tokens <= 652 + 64, `estimate ${after.tokens} after the provider compacted to 652`);

      const [next] = await send('And which one used extruded diets?', [textAnswer('The second.')]);
      assert.equal(chat.summaries.length, 0, 'the package compacted again right after the provider');
      const first = next.body.messages[0];
      assert.equal(first.role, 'assistant', `the request opens with the block's message: ${JSON.stringify(first).slice(0, 200)}`);
      assert.equal(first.content[0].type, 'compaction');
      assert.equal(first.content[0].content, PROVIDER_SUMMARY, 'the block is resent as the provider requires');
      assert.ok(!JSON.stringify(next.body).includes('[Research checkpoint]'), 'no package summary in the request');

      // The package compacts later (manual): the block is its previous summary, never paraphrased history.
      for (let t = 0; t < 3; t++) await send(`Follow-up ${t}: ${words(150, 'detail')}`, [textAnswer(`Answer ${t}: ${words(150, 'noted')}`)]);
      const compacted = await chat.controller.compact('manual');
      assert.equal(compacted.status, 'committed', `${compacted.status} ${compacted.reason}`);
      assert.equal(chat.summaries.length, 1);
      assert.equal(chat.summaries[0].previousSummary, PROVIDER_SUMMARY);
      assert.ok(!chat.summaries[0].history.includes(PROVIDER_SUMMARY), 'the block is in the history too');
      const [later] = await send('Thanks, one more check.', [textAnswer('Done.')]);
      const body = JSON.stringify(later.body);
      assert.ok(body.includes('[Research checkpoint]'), 'the package summary is sent');
      assert.ok(!later.body.messages.some((m) => Array.isArray(m.content) && m.content.some((c) => c.type === 'compaction')), 'a block after the package summary');
    });
  });

  if (sdk.major < 7) continue; // @ai-sdk/openai stores the compaction item from its major 4 (ai 7) on
  describe(`OpenAI Responses' encrypted compaction item with ${sdk.name}`, () => {
    it('is estimated by its bound, resent as the provider requires, and never reaches a summarizer or a request as text', async () => {
      const { fetch, requests, answers } = recordingFetch();
      const model = packages.openai.createOpenAI({ apiKey: 'k', fetch }).responses('gpt-5');
      const chat = chatThrough(sdk, model, { openai: { contextManagement: [{ type: 'compaction', compactThreshold: 50_000 }] } });
      await chat.open();
      const send = (text, script) => chat.send(requests, answers, text, script);
      const encrypted = `gAAAAB${'Zk9QR2xUcXNW3E4K'.repeat(2_625)}`; // 42,006 characters of base64
      await send('Summarize where my digestibility review stands.', [rawAnswer(responsesCompactionStream({ encrypted, answer: 'Here is where we are.', input: 3_000, output: 50 }))]);
      const stored = readBranch(await chat.store.load(chat.sessionId)).nodes.at(-1);
      assert.ok(stored.parts.some((p) => p.type === 'custom' && p.kind === 'openai.compaction'), 'the item is stored');
      const cost = estimateMessage(stored, MODEL);
      assert.ok(cost <= Math.ceil(encrypted.length / 4) + 64, `a ${encrypted.length}-character item estimated at ${cost} tokens`);

      const [next] = await send('Go on with the second trial.', [textAnswer('The second trial fed extruded diets.')]);
      assert.ok(JSON.stringify(next.body.input).includes('cmp_1'), 'the item is resent');
      for (let t = 0; t < 3; t++) await send(`Follow-up ${t}: ${words(150, 'detail')}`, [textAnswer(`Answer ${t}: ${words(150, 'noted')}`)]);
      const compacted = await chat.controller.compact('manual');
      assert.equal(compacted.status, 'committed', `${compacted.status} ${compacted.reason}`);
      const request = chat.summaries[0];
      assert.ok(!request.prompt.includes(encrypted.slice(0, 64)), 'the ciphertext reached the summarizer');
      assert.ok(request.history.includes('Summarize where my digestibility review stands'), 'the summarizer reads the readable history instead');
      const [later] = await send('Thanks.', [textAnswer('Done.')]);
      assert.ok(!JSON.stringify(later.body).includes(encrypted.slice(0, 64)), 'the ciphertext was sent as text');
    });
  });
}
