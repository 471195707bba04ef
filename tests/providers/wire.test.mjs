// The chat turn on the wire (issue 32, 4-5): CompactionChatTransport with the real provider
// packages (Anthropic 5-minute and 1-hour, Bedrock, OpenRouter, OpenAI Responses and Chat, Google),
// each at the major that goes with ai 5, 6 and 7, through a fetch that records every HTTP request
// body and answers in the provider's own stream format. For the providers that cache only what is
// marked, every request body is read: a first turn under a large system prompt is marked (the
// system and tools count toward the minimum prefix), each step of a tool loop marks its newest
// block, no request carries more than 4 marks, the prefix a request marked is sent unchanged by the
// next one, and the summary is marked after a compaction. Implicit caches get no marks (OpenAI the
// session's prompt_cache_key). Whatever parts a provider's stream stores, the store's index holds
// the session and a manual compaction compacts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import * as compaction from 'bibgenie-compaction';
import {
  SDKS, providerPackages, recordingFetch, textAnswer, toolAnswer, countMarks, withoutMarks, markedMessages, blocksThrough, prose,
} from './wire-fixtures.mjs';

await compaction.init();
const { CompactionController, CompactionChatTransport, MemoryStore, extractiveSummary, readBranch } = compaction;

const MODEL = Object.freeze({ id: 'wire-16k', contextWindow: 16_000, maxOutputTokens: 1_024 });
/** Anthropic's most marks per request, system and tools included (Bedrock's and OpenRouter's too). */
const MAX_MARKS = 4;
/** How far back Anthropic looks for an earlier cached prefix from a mark, in content blocks. */
const LOOKBACK_BLOCKS = 20;

const CASES = [
  { name: 'Anthropic 5m', marks: true, promptCache: { provider: 'anthropic' }, make: (p, fetch) => p.anthropic.createAnthropic({ apiKey: 'k', fetch })('claude-sonnet-4-5') },
  { name: 'Anthropic 1h', marks: true, promptCache: { provider: 'anthropic', ttl: '1h' }, make: (p, fetch) => p.anthropic.createAnthropic({ apiKey: 'k', fetch })('claude-sonnet-4-5') },
  {
    name: 'Bedrock', marks: true, promptCache: { provider: 'bedrock' },
    make: (p, fetch) => p.bedrock.createAmazonBedrock({ region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 's', fetch })('us.anthropic.claude-sonnet-4-5-20250929-v1:0'),
  },
  { name: 'OpenRouter', marks: true, promptCache: { provider: 'openrouter' }, make: (p, fetch) => p.openrouter.createOpenRouter({ apiKey: 'k', fetch }).chat('anthropic/claude-sonnet-4.5') },
  { name: 'OpenAI Responses', marks: false, promptCache: { provider: 'openai' }, make: (p, fetch) => p.openai.createOpenAI({ apiKey: 'k', fetch }).responses('gpt-4.1') },
  { name: 'OpenAI Chat', marks: false, promptCache: { provider: 'openai' }, make: (p, fetch) => p.openai.createOpenAI({ apiKey: 'k', fetch }).chat('gpt-4.1') },
  { name: 'Google', marks: false, promptCache: { provider: 'google' }, make: (p, fetch) => p.google.createGoogleGenerativeAI({ apiKey: 'k', fetch })('gemini-2.5-flash') },
];

const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const question = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

for (const sdk of SDKS) {
  const packages = await providerPackages(sdk.major);
  const { streamText, convertToModelMessages, stepCountIs, tool, jsonSchema, readUIMessageStream } = sdk.ai;

  for (const spec of CASES) {
    describe(`${spec.name} with ${sdk.name} on the wire`, () => {
      it(spec.marks ? 'marks what the provider caches, within its limit, stable from request to request' : 'sends no marks, the session\'s key where the provider takes one', async () => {
        const { fetch, requests, answers } = recordingFetch();
        const model = spec.make(packages, fetch);
        const store = new MemoryStore();
        const sessionId = 'wire';
        await store.createSession({ sessionId: sessionId });
        const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: (request) => extractiveSummary(request) });
        // A tool answered within the turn (execute): the turn takes two steps, the second sending its result.
        const tools = {
          zoteroSearch: tool({
            description: 'Search the Zotero library; returns items with keys and abstracts',
            inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
            execute: async ({ q }) => ({ query: q, items: Array.from({ length: 12 }, (_, i) => ({ key: `KEY${1000 + i}`, title: `Paper ${i}`, abstract: words(40, 'finding') })) }),
          }),
        };
        const system = prose(2_050);
        const transport = new CompactionChatTransport({
          controller, system, tools, promptCache: spec.promptCache,
          streamResponse: async ({ messages, abortSignal, applyCacheBreakpoints, cacheCallOptions }) =>
            streamText({ model, system, tools, abortSignal, stopWhen: stepCountIs(3), ...cacheCallOptions,
              messages: applyCacheBreakpoints(await convertToModelMessages(messages)) }),
        });
        const turns = [];
        const send = async (text, script) => {
          answers.splice(0, answers.length, ...script);
          const from = requests.length;
          const history = readBranch(await store.load(sessionId)).nodes.filter((node) => !('checkpoint' in node));
          const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages: [...history, question(`q${turns.length + 1}`, text)], abortSignal: undefined });
          for await (const _ of readUIMessageStream({ stream })); // as useChat reads it
          while (controller.busy) await new Promise((r) => setTimeout(r, 1));
          turns.push(requests.slice(from));
          // Whatever the provider's stream stored, the store's index holds the session.
          assert.equal(await store.withSessionIndex(sessionId, (view) => view !== null), true, `turn ${turns.length}: the index holds the session`);
        };

        await send('Which papers in my library measure protein digestibility in dogs?', [textAnswer('Three of them do.')]);
        await send('Search for the feeding trials [search].', [toolAnswer('call_1', { q: 'feeding trial' }), textAnswer('Twelve items; KEY1003 is the trial.')]);
        for (let t = 0; t < 3; t++) await send(`Follow-up ${t}: ${words(120, 'detail')}`, [textAnswer(`Answer ${t}: ${words(150, 'noted')}`)]);
        const compacted = await controller.compact('manual');
        assert.equal(compacted.status, 'committed', `a manual compaction compacts (${compacted.status} ${compacted.reason})`);
        await send('And after the summary, what is left to read?', [textAnswer('Two papers.')]);
        await send('Thanks, one more check.', [textAnswer('Done.')]);

        const all = turns.flat();
        // The parts the provider's stream stored (ai 7 with Anthropic: a `custom` part in every answer).
        const partTypes = new Set((await store.load(sessionId)).nodes.flatMap((node) => node.parts ?? []).map((part) => part.type));
        if (sdk.major === 7 && spec.promptCache.provider === 'anthropic') assert.ok(partTypes.has('custom'), `the custom part is stored: ${[...partTypes]}`);
        assert.equal(turns[1].length, 2, 'the tool turn made two requests (steps)');
        if (!spec.marks) {
          for (const { body } of all) assert.equal(countMarks(body), 0, 'an implicit cache gets no marks');
          if (spec.promptCache.provider === 'openai') {
            for (const { body } of all) assert.equal(body.prompt_cache_key, `bibgenie:${sessionId}`, 'OpenAI routes by the session\'s key');
          }
          return;
        }
        all.forEach(({ body }, i) => assert.ok(countMarks(body) <= MAX_MARKS, `request ${i + 1}: ${countMarks(body)} marks, over ${MAX_MARKS}`));
        // OpenRouter reads a mark only on a content block: never on a message whose content is a string (issue 43.5).
        if (spec.promptCache.provider === 'openrouter') {
          all.forEach(({ body }, i) => body.messages.forEach((message, at) => {
            const own = Object.entries(message).some(([key, v]) => key !== 'content' && countMarks({ [key]: v }) > 0);
            assert.ok(!own, `request ${i + 1}, messages[${at}] (${message.role}, content ${typeof message.content}): the mark is on the message, not on a content block: ${JSON.stringify(message).slice(0, 300)}`);
          }));
        }
        // The first turn: the messages alone are far under 1,024 tokens, system and tools are not.
        assert.ok(markedMessages(turns[0][0].body).length >= 1, 'the first turn is marked: its prefix counts the system prompt and tools');
        // Each later step of a tool loop marks its newest block.
        const step = turns[1][1].body;
        if (spec.promptCache.provider === 'openrouter') {
          // Its last message is the tool result, a string there: the newest mark is on the step's user message.
          const lastUser = step.messages.findLastIndex((m) => m.role === 'user');
          assert.deepEqual(markedMessages(step).at(-1), lastUser, 'the second step marks its newest content block');
        } else {
          assert.deepEqual(markedMessages(step).at(-1), step.messages.length - 1, 'the second step marks its last message');
        }
        // After the compaction the summary message (the first) is marked.
        const afterSummary = turns[5][0].body;
        const summaryAt = afterSummary.messages.findIndex((m) => m.role !== 'system'); // OpenRouter sends the system prompt as a message
        assert.ok(markedMessages(afterSummary).includes(summaryAt), `the summary is marked after a compaction: ${markedMessages(afterSummary)}`);
        // From one request to the next (no compaction between): the prefix up to the newest mark is
        // sent unchanged, and a mark of the next request lies within the provider's lookback of it.
        const pairs = [];
        for (let i = 0; i + 1 < all.length; i++) if (i + 1 !== turns.slice(0, 5).flat().length) pairs.push([all[i].body, all[i + 1].body, i + 1]);
        for (const [before, after, n] of pairs) {
          const end = markedMessages(before).at(-1);
          assert.ok(end !== undefined, `request ${n} is marked`);
          assert.deepEqual(withoutMarks(after.messages.slice(0, end + 1)), withoutMarks(before.messages.slice(0, end + 1)), `request ${n + 1} resends request ${n}'s cached prefix unchanged`);
          assert.deepEqual(withoutMarks(after.system ?? null), withoutMarks(before.system ?? null), `request ${n + 1}: the same system prompt`);
          const reach = blocksThrough(before, end);
          assert.ok(markedMessages(after).some((i) => i >= end && blocksThrough(after, i) - reach <= LOOKBACK_BLOCKS),
            `request ${n + 1} has a mark within ${LOOKBACK_BLOCKS} blocks after request ${n}'s (${markedMessages(after)}; ${end})`);
        }
      });
    });
  }
}
