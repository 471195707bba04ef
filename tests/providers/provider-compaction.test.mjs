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
  SDKS, providerPackages, recordingFetch, textAnswer, rawAnswer, jsonAnswer, anthropicCompactionStream, responsesCompactionStream,
} from './wire-fixtures.mjs';

await compaction.init();
const { CompactionController, CompactionChatTransport, MemoryStore, extractiveSummary, readBranch, estimate, estimateMessage, createAiSdkSummarizer } = compaction;

/** A window the AI SDK's usage sum after a provider compaction (60,997 input tokens) is far over. */
const MODEL = Object.freeze({ id: 'claude-opus-4-6', contextWindow: 64_000, maxOutputTokens: 4_096 });
const PROVIDER_SUMMARY = '<summary>The researcher compares protein digestibility trials in dogs; KEY1003 p. 4 is the key feeding trial.</summary>';
const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const question = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/**
 * A chat through the transport: `send(text, answers)` runs one turn as useChat would; `chat.model`
 * is the model the next turn asks (an app's model switch). `summarizer` defaults to the extractive one.
 */
function chatThrough(sdk, model, providerOptions, summarizer = extractiveSummary) {
  const { streamText, convertToModelMessages, readUIMessageStream } = sdk.ai;
  const store = new MemoryStore();
  const sessionId = 'provider-compaction';
  const summaries = [];
  const controller = new CompactionController({
    store, sessionId, model: MODEL,
    summarize: (request, signal) => { summaries.push(request); return summarizer(request, signal); },
  });
  const chat = { model };
  const transport = new CompactionChatTransport({
    controller,
    streamResponse: async ({ messages, abortSignal }) => streamText({ model: chat.model, abortSignal, providerOptions, messages: await convertToModelMessages(messages) }),
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
  return Object.assign(chat, { store, sessionId, controller, summaries, send, open: () => store.createSession({ sessionId }) });
}

for (const sdk of SDKS) {
  const packages = await providerPackages(sdk.major);

  // Bedrock's Anthropic Messages endpoint shares the format from @ai-sdk/amazon-bedrock 5 (ai 7) on.
  const hosts = [['Anthropic', (fetch) => packages.anthropic.createAnthropic({ apiKey: 'k', fetch })('claude-opus-4-6')]];
  if (sdk.major === 7) {
    const { createAmazonBedrockAnthropic } = await import('bedrock7/anthropic');
    hosts.push(['Bedrock (Anthropic Messages)', (fetch) => createAmazonBedrockAnthropic({ region: 'us-east-1', apiKey: 'k', fetch })('us.anthropic.claude-opus-4-6-v1:0')]);
  }
  for (const [host, makeModel] of hosts) describe(`${host}: Anthropic's threshold compaction with ${sdk.name}`, () => {
    it('is the boundary: the next turn does not compact, sends no package summary before the block, and a later package compaction folds it only as the previous summary', async () => {
      const { fetch, requests, answers } = recordingFetch();
      const model = makeModel(fetch);
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

// The provider as the summarizer (on-demand compaction, @ai-sdk/anthropic 4 and @ai-sdk/openai 4: ai 7).
const ai7 = SDKS.find((sdk) => sdk.major === 7);
const packages7 = await providerPackages(7);
const anthropicAnswer = (content) => jsonAnswer({
  id: 'msg_s', type: 'message', role: 'assistant', model: 'claude-opus-4-6', content, stop_reason: 'compaction', stop_sequence: null,
  usage: { input_tokens: 5_000, output_tokens: 300 },
});
const responsesAnswer = (output) => jsonAnswer({
  id: 'resp_s', object: 'response', created_at: 1_700_000_000, model: 'gpt-5', status: 'completed', output, incomplete_details: null, service_tier: null,
  usage: { input_tokens: 5_000, input_tokens_details: { cached_tokens: 0 }, output_tokens: 200, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 5_200 },
});

describe('the provider as the summarizer (ai@7)', () => {
  it("Anthropic's on-demand block is adopted as a checkpoint, resent signed, and read as text by another provider", async () => {
    const { fetch, requests, answers } = recordingFetch();
    const anthropic = packages7.anthropic.createAnthropic({ apiKey: 'k', fetch })('claude-opus-4-6');
    const summarize = createAiSdkSummarizer({ model: anthropic, generateText: ai7.ai.generateText, providerCompaction: 'anthropic' });
    const chat = chatThrough(ai7, anthropic, undefined, summarize);
    await chat.open();
    const send = (text, script) => chat.send(requests, answers, text, script);
    for (let t = 0; t < 4; t++) await send(`Question ${t}: ${words(150, 'detail')}`, [textAnswer(`Answer ${t}: ${words(150, 'noted')}`)]);
    answers.splice(0, answers.length, anthropicAnswer([{ type: 'compaction', content: PROVIDER_SUMMARY, signature: 'sig-1' }]));
    const leaf = readBranch(await chat.store.load(chat.sessionId)).nodes.at(-1).id;
    const compacted = await chat.controller.compact('manual');
    assert.equal(compacted.status, 'committed', `${compacted.status} ${compacted.reason}`);
    const asked = requests.at(-1).body;
    assert.deepEqual(asked.compaction, { type: 'summarize', instructions: chat.summaries[0].system }, 'the summary request asks for the on-demand compaction');
    assert.equal(asked.tools, undefined, 'a summary request has no tools');
    const checkpoint = readBranch(await chat.store.load(chat.sessionId)).nodes.at(-1);
    assert.equal(checkpoint.parentId, leaf, 'committed under the leaf it read');
    assert.equal(checkpoint.checkpoint.providerPart.providerMetadata.anthropic.signature, 'sig-1');
    assert.match(checkpoint.checkpoint.summary, /digestibility/, 'the readable summary is the block\'s text');

    const [next] = await send('Which trial used extruded diets?', [textAnswer('The second.')]);
    const block = next.body.messages[0];
    assert.equal(block.role, 'assistant');
    assert.deepEqual([block.content[0].type, block.content[0].content, block.content[0].signature], ['compaction', PROVIDER_SUMMARY, 'sig-1'], 'the signed block is resent first');
    // A switch to another provider: the block is plain text there.
    chat.model = packages7.openai.createOpenAI({ apiKey: 'k', fetch }).responses('gpt-5');
    const [switched] = await send('Now with another model: what is left?', [textAnswer('Two papers.')]);
    assert.ok(JSON.stringify(switched.body.input).includes('KEY1003 p. 4'), 'the block\'s text reaches the other provider');
  });

  it("OpenAI's compaction item is adopted beside a readable summary, resent to OpenAI, and never sent as text elsewhere", async () => {
    const { fetch, requests, answers } = recordingFetch();
    const openai = packages7.openai.createOpenAI({ apiKey: 'k', fetch }).responses('gpt-5');
    const summarize = createAiSdkSummarizer({ model: openai, generateText: ai7.ai.generateText, providerCompaction: 'openai' });
    const chat = chatThrough(ai7, openai, undefined, summarize);
    await chat.open();
    const send = (text, script) => chat.send(requests, answers, text, script);
    for (let t = 0; t < 4; t++) await send(`Question ${t} on KEY1003: ${words(150, 'detail')}`, [textAnswer(`Answer ${t}: ${words(150, 'noted')}`)]);
    const encrypted = `gAAAAB${'Qm9yZGVyQ29sbGll'.repeat(500)}`;
    answers.splice(0, answers.length, responsesAnswer([{ type: 'compaction', id: 'cmp_s', encrypted_content: encrypted }]));
    const compacted = await chat.controller.compact('manual');
    assert.equal(compacted.status, 'committed', `${compacted.status} ${compacted.reason}`);
    assert.ok(JSON.stringify(requests.at(-1).body.input).includes('compaction_trigger'), 'the summary request triggers the compaction');
    const checkpoint = readBranch(await chat.store.load(chat.sessionId)).nodes.at(-1).checkpoint;
    assert.equal(checkpoint.providerPart.providerMetadata.openai.itemId, 'cmp_s');
    assert.match(checkpoint.summary, /## /, 'a readable summary beside the item');

    const [next] = await send('Go on.', [textAnswer('Going on.')]);
    assert.ok(JSON.stringify(next.body.input).includes('cmp_s'), 'the item is resent to OpenAI');
    chat.model = packages7.anthropic.createAnthropic({ apiKey: 'k', fetch })('claude-opus-4-6');
    const [switched] = await send('And with Claude?', [textAnswer('Yes.')]);
    const body = JSON.stringify(switched.body);
    assert.ok(!body.includes(encrypted.slice(0, 40)), 'the ciphertext was sent as text to another provider');
    assert.ok(body.includes('[Research checkpoint]'), 'the readable summary reaches the other provider');
  });
});
