// The prompt cache through the packed package, on ai 5, 6 and 7 with the SDK's mock models:
// usageMetadata keeps each provider's cache reads and writes (issue 23 item 4), an implausible usage
// is not a baseline, cache marks on what is sent (issue 26 part 1), the summary request is never
// marked, and the controller compacts a cold cache from three quarters of the threshold (part 2).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, linearSession, storeWith, scriptedSummarizer, validSummary } from './runner-fixtures.mjs';

const {
  CompactionController, CompactionChatTransport, applyCacheBreakpoints, cacheBreakpoints, cacheProfile, capacity, createAiSdkSummarizer,
  estimate, promptCacheCallOptions, usageMetadata,
} = compaction;

async function importOptional(spec) {
  try {
    return await import(spec);
  } catch {
    return null;
  }
}

const ai5 = { name: 'ai@5', ai: await import('ai'), test: await import('ai/test'), Mock: 'MockLanguageModelV2', v: 2 };
const sdks = [ai5];
for (const [name, spec, Mock] of [['ai@6', 'ai6', 'MockLanguageModelV3'], ['ai@7', 'ai7', 'MockLanguageModelV4']]) {
  const ai = await importOptional(spec);
  if (ai) sdks.push({ name, ai, test: await import(`${spec}/test`), Mock, v: 3 });
}

/**
 * Each provider's usage as its AI SDK 5 provider reports it (read from the providers' own
 * conversions): the v2 `usage` and `providerMetadata` of the finish part, and the context the
 * request really held (input + cache read + cache write).
 */
const V5_PROVIDERS = {
  // @ai-sdk/anthropic 2.x: inputTokens = input_tokens (no cache), cachedInputTokens = cache_read_input_tokens,
  // the write only in providerMetadata.anthropic.cacheCreationInputTokens.
  anthropic: {
    usage: { inputTokens: 12, outputTokens: 300, totalTokens: 312, cachedInputTokens: undefined },
    providerMetadata: { anthropic: { cacheCreationInputTokens: 40_000, usage: { input_tokens: 12, cache_creation_input_tokens: 40_000 } } },
    context: 40_012, read: 0, write: 40_000,
  },
  'anthropic (read)': {
    usage: { inputTokens: 20, outputTokens: 300, totalTokens: 320, cachedInputTokens: 39_000 },
    providerMetadata: { anthropic: { cacheCreationInputTokens: 1_000 } },
    context: 40_020, read: 39_000, write: 1_000,
  },
  // @ai-sdk/amazon-bedrock 3.x: cacheReadInputTokens as cachedInputTokens, the write in providerMetadata.bedrock.usage.
  bedrock: {
    usage: { inputTokens: 15, outputTokens: 200, totalTokens: 215, cachedInputTokens: 30_000 },
    providerMetadata: { bedrock: { usage: { cacheWriteInputTokens: 5_000 } } },
    context: 35_015, read: 30_000, write: 5_000,
  },
  // @ai-sdk/openai 2.x: prompt_tokens counts the cached ones (prompt_tokens_details.cached_tokens).
  openai: {
    usage: { inputTokens: 36_000, outputTokens: 250, totalTokens: 36_250, cachedInputTokens: 34_000, reasoningTokens: 0 },
    providerMetadata: { openai: { acceptedPredictionTokens: 0, rejectedPredictionTokens: 0 } },
    context: 36_000, read: 34_000, write: 0,
  },
  // @ai-sdk/openai-compatible 1.x (e.g. a local gateway): as OpenAI, metadata under the provider's name.
  'openai-compatible': {
    usage: { inputTokens: 36_000, outputTokens: 250, totalTokens: 36_250, cachedInputTokens: 20_000 },
    providerMetadata: { gateway: {} },
    context: 36_000, read: 20_000, write: 0,
  },
  // @ai-sdk/google 2.x: promptTokenCount includes cachedContentTokenCount.
  google: {
    usage: { inputTokens: 36_000, outputTokens: 250, totalTokens: 36_250, cachedInputTokens: 30_000 },
    providerMetadata: { google: { usageMetadata: { promptTokenCount: 36_000, cachedContentTokenCount: 30_000 } } },
    context: 36_000, read: 30_000, write: 0,
  },
  // @ai-sdk/deepseek 1.x: hits and misses in providerMetadata.deepseek.
  deepseek: {
    usage: { inputTokens: 36_000, outputTokens: 250, totalTokens: 36_250 },
    providerMetadata: { deepseek: { promptCacheHitTokens: 32_000, promptCacheMissTokens: 4_000 } },
    context: 36_000, read: 32_000, write: 0,
  },
};

/** A mock model answering once with this finish usage and provider metadata. */
function answering(sdk, usage, providerMetadata) {
  const finishReason = sdk.v === 2 ? 'stop' : { unified: 'stop', raw: 'stop' };
  return new sdk.test[sdk.Mock]({
    doStream: async () => ({
      stream: sdk.test.convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Found 3 items.' },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason, usage, ...(providerMetadata ? { providerMetadata } : {}) },
      ]),
    }),
  });
}

/** The assistant message streamText makes with usageMetadata. */
async function answeredMessage(sdk, model) {
  const result = sdk.ai.streamText({ model, prompt: 'find papers' });
  let last;
  for await (const message of sdk.ai.readUIMessageStream({ stream: result.toUIMessageStream({ messageMetadata: usageMetadata }) })) last = message;
  return last;
}

/** A session of ~`tokens` estimated tokens answered by `answer` (a UIMessage with metadata.usage). */
function sessionAnsweredBy(answer, turns = 8, words = 1_500) {
  const session = linearSession(turns, words);
  const leaf = session.nodes[session.nodes.length - 1];
  session.nodes[session.nodes.length - 1] = { ...leaf, metadata: answer.metadata };
  return session;
}

const BIG = { contextWindow: 200_000 };

describe('usageMetadata keeps each provider\'s cache reads and writes (ai@5 providerMetadata)', () => {
  for (const [provider, shape] of Object.entries(V5_PROVIDERS)) {
    it(`${provider}: inputTokenDetails and an estimate from the whole context`, async () => {
      const message = await answeredMessage(ai5, answering(ai5, shape.usage, shape.providerMetadata));
      const details = message.metadata.usage.inputTokenDetails;
      assert.equal(details.cacheReadTokens, shape.read, JSON.stringify(details));
      assert.equal(details.cacheWriteTokens ?? 0, shape.write);
      assert.equal(details.noCacheTokens + details.cacheReadTokens + (details.cacheWriteTokens ?? 0), shape.context);
      assert.deepEqual(JSON.parse(JSON.stringify(message.metadata)), message.metadata, 'plain JSON');
      const e = estimate(sessionAnsweredBy(message), BIG);
      assert.equal(e.source, 'usage');
      assert.equal(e.baselineTokens, shape.context + shape.usage.outputTokens);
    });
  }

  for (const sdk of sdks.filter((s) => s.v === 3)) {
    it(`${sdk.name}: inputTokenDetails as the SDK reports them`, async () => {
      const usage = {
        inputTokens: { total: 40_012, noCache: 12, cacheRead: 0, cacheWrite: 40_000 },
        outputTokens: { total: 300, text: 300, reasoning: undefined },
      };
      const message = await answeredMessage(sdk, answering(sdk, usage));
      const u = message.metadata.usage;
      assert.equal(u.inputTokens, 40_012);
      assert.deepEqual(u.inputTokenDetails, { noCacheTokens: 12, cacheReadTokens: 0, cacheWriteTokens: 40_000 });
      assert.equal(estimate(sessionAnsweredBy(message), BIG).baselineTokens, 40_312);
    });
  }
});

describe('a usage report that cannot be the request\'s occupancy is not a baseline', () => {
  it('the issue\'s case: Anthropic on ai@5 stored without the write reports 312 tokens for ~100k', () => {
    const answer = { metadata: { usage: { inputTokens: 12, outputTokens: 300, totalTokens: 312, reasoningTokens: null, cachedInputTokens: null } } };
    const session = sessionAnsweredBy(answer, 12, 3_000);
    const e = estimate(session, BIG);
    assert.equal(e.source, 'estimate', JSON.stringify(e));
    assert.ok(e.tokens > 100_000, JSON.stringify(e));
  });
});

describe('applyCacheBreakpoints on what convertToModelMessages makes', () => {
  for (const sdk of sdks) {
    it(`${sdk.name}: Anthropic, Bedrock and OpenRouter marks at the summary, the previous request and the newest message`, async () => {
      const words = (n) => 'word '.repeat(n);
      const summary = { id: 'C1', role: 'user', parts: [{ type: 'text', text: words(1_500) }], metadata: { checkpoint: true } };
      const tool = { type: 'tool-searchLibrary', toolCallId: 'call-1', state: 'output-available', input: { q: 'x' }, output: { items: [] } };
      const ui = [
        summary,
        { id: 'U2', role: 'user', parts: [{ type: 'text', text: words(200) }] },
        { id: 'A2', role: 'assistant', parts: [{ type: 'step-start' }, tool, { type: 'step-start' }, { type: 'text', text: 'found' }] },
        { id: 'U3', role: 'user', parts: [{ type: 'text', text: 'next' }] },
      ];
      const modelMessages = await sdk.ai.convertToModelMessages(ui);
      const breakpoints = [{ index: 0 }, { index: 2 }, { index: 3 }];
      for (const [provider, key, value] of [
        ['anthropic', 'cacheControl', { type: 'ephemeral' }],
        ['bedrock', 'cachePoint', { type: 'default' }],
        ['openrouter', 'cacheControl', { type: 'ephemeral' }],
      ]) {
        const before = JSON.stringify(modelMessages);
        const marked = applyCacheBreakpoints(modelMessages, { provider, breakpoints, messages: ui });
        assert.equal(JSON.stringify(modelMessages), before, 'the input is not changed');
        // On the message, or (OpenRouter's user and tool messages) on its last part alone.
        const markOf = (m) => m.providerOptions?.[provider]?.[key] ?? (Array.isArray(m.content) ? m.content.at(-1)?.providerOptions?.[provider]?.[key] : undefined);
        const at = marked.flatMap((m, i) => (markOf(m) ? [i] : []));
        const partMarks = marked.flatMap((m) => (Array.isArray(m.content) ? m.content.filter((p) => p.providerOptions?.[provider]?.[key]) : []));
        assert.equal(partMarks.length + marked.filter((m) => m.providerOptions?.[provider]?.[key]).length, 3, `${provider}: one mark per breakpoint`);
        // summary = 0; A2 = assistant (tool call), tool (result), assistant (text): its end is 3; U3 = 4.
        // OpenRouter sends an assistant or tool message's content as a string and reads marks only on
        // content blocks (issue 43.5): A2's mark goes on U2, the user message its turn started from.
        const expected = provider === 'openrouter' ? [0, 1, modelMessages.length - 1] : [0, modelMessages.length - 2, modelMessages.length - 1];
        assert.deepEqual(at, expected, `${provider}: ${JSON.stringify(marked.map((m) => m.role))}`);
        if (provider === 'openrouter') assert.deepEqual(at.map((i) => marked[i].role), ['user', 'user', 'user']);
        else assert.equal(marked[modelMessages.length - 2].role, 'assistant');
        assert.deepEqual(markOf(marked[0]), value);
      }
      // Implicit caches get no marks; OpenAI gets the session's key as a call option.
      for (const provider of ['openai', 'deepseek', 'google']) {
        assert.deepEqual(applyCacheBreakpoints(modelMessages, { provider, breakpoints, messages: ui }), modelMessages);
      }
      assert.deepEqual(promptCacheCallOptions('openai', 's1'), { providerOptions: { openai: { promptCacheKey: 'bibgenie:s1' } } });
      assert.deepEqual(promptCacheCallOptions('anthropic', 's1'), {});
      assert.throws(() => applyCacheBreakpoints(modelMessages, { provider: 'acme', breakpoints, messages: ui }), { code: 'invalid-options' });
    });
  }
});

describe('the summary request is never marked cacheable', () => {
  it('createAiSdkSummarizer refuses cache marks and keys in callOptions', () => {
    const generateText = async () => ({ text: 'x' });
    for (const providerOptions of [
      { anthropic: { cacheControl: { type: 'ephemeral' } } },
      { openai: { promptCacheKey: 'bibgenie:s1' } },
      { bedrock: { cachePoint: { type: 'default' } } },
    ]) {
      assert.throws(() => createAiSdkSummarizer({ model: {}, generateText, callOptions: { providerOptions } }), { code: 'invalid-argument' });
    }
    assert.doesNotThrow(() => createAiSdkSummarizer({ model: {}, generateText, callOptions: { providerOptions: { anthropic: { sendReasoning: false } } } }));
  });
});

describe('project gives byte-identical summary text over a checkpoint\'s life', () => {
  it('the summary message is the same text before and after later turns, and on every call', async () => {
    const { store, sessionId } = await storeWith(linearSession(6, 60));
    const { summarize } = scriptedSummarizer(() => validSummary('stable'));
    const controller = new CompactionController({ store, sessionId, model: { contextWindow: 8192 }, summarize });
    const outcome = await controller.compact('manual');
    assert.equal(outcome.status, 'committed');
    const first = JSON.stringify(compaction.project(await store.load(sessionId)).messages[0]);
    assert.equal(JSON.stringify(compaction.project(await store.load(sessionId)).messages[0]), first);
    for (let turn = 7; turn < 10; turn++) {
      await store.appendMessage(sessionId, { id: `U${turn}`, role: 'user', parts: [{ type: 'text', text: `q ${turn}` }] });
      await store.appendMessage(sessionId, { id: `A${turn}`, role: 'assistant', parts: [{ type: 'text', text: `a ${turn}` }] });
      assert.equal(JSON.stringify(compaction.project(await store.load(sessionId)).messages[0]), first, `turn ${turn}`);
    }
  });
});

/** A stored session between 3/4 and 9/10 of the threshold of `model`, answered at `at` with a cache read. */
function warmSession(model, at) {
  const threshold = capacity(model).autoCompactAt;
  for (let words = 100; words < 2_000; words += 20) {
    const session = linearSession(6, words);
    const tokens = estimate(session, model).tokens;
    if (tokens >= threshold * 0.8 && tokens < threshold * 0.9) {
      const leaf = session.nodes[session.nodes.length - 1];
      const usage = { inputTokens: tokens, outputTokens: 10, inputTokenDetails: { noCacheTokens: 50, cacheReadTokens: tokens - 50, cacheWriteTokens: 0 } };
      session.nodes[session.nodes.length - 1] = { ...leaf, createdAt: at, metadata: { usage } };
      return session;
    }
  }
  throw new Error('no session in range');
}

describe('the controller compacts a cold cache from three quarters of the threshold', () => {
  const model = { contextWindow: 32_000 };
  const T0 = 1_800_000_000_000;
  const profile = cacheProfile('anthropic-5m');

  it('warm: nothing; cold: cache-cold, with the cost on the outcome\'s plan; no profile: today', async () => {
    let now = T0 + 60_000;
    const { store, sessionId } = await storeWith(warmSession(model, T0));
    const { summarize, calls } = scriptedSummarizer(() => validSummary());
    const controller = new CompactionController({ store, sessionId, model, summarize, cache: profile, now: () => now });
    const warm = await controller.afterTurn();
    assert.equal(warm.status, 'noop');
    assert.equal(warm.plan.cache.state, 'warm');
    now = T0 + 6 * 60_000;
    const cold = await controller.afterTurn();
    assert.equal(cold.status, 'committed', JSON.stringify(cold.plan));
    assert.equal(cold.reason, 'cache-cold');
    assert.equal(cold.plan.cost.cachedPrefixInvalidated, 0);
    assert.ok(cold.plan.cost.nextRequestWith < cold.plan.cost.nextRequestWithout);
    assert.equal(calls.length, 1);

    const plain = await storeWith(warmSession(model, T0));
    const today = new CompactionController({ store: plain.store, sessionId: plain.sessionId, model, summarize });
    const outcome = await today.afterTurn();
    assert.equal(outcome.reason, 'under-threshold');
  });

  it('in the background once the lifetime has passed with no new message', async () => {
    const g = globalThis;
    const realSetTimeout = g.setTimeout;
    const timers = [];
    g.setTimeout = (fn, ms) => {
      timers.push({ fn, ms });
      return { unref() {} };
    };
    try {
      let now = T0 + 1_000;
      const { store, sessionId } = await storeWith(warmSession(model, T0));
      const { summarize } = scriptedSummarizer(() => validSummary());
      const statuses = [];
      const controller = new CompactionController({
        store, sessionId, model, summarize, cache: profile, now: () => now, backgroundCompaction: true, onStatus: (s) => statuses.push(s),
      });
      assert.equal((await controller.afterTurn()).status, 'noop');
      assert.equal(timers.length, 1);
      assert.equal(timers[0].ms, profile.lifetimeMs + 1_000);
      now = T0 + profile.lifetimeMs + 2_000;
      timers[0].fn();
      const done = statuses.find((s) => s.status === 'idle' && s.outcome) ?? (await new Promise((resolve) => {
        controller.onStatus = (s) => s.status === 'idle' && resolve(s);
      }));
      assert.equal(done.outcome.reason, 'cache-cold');
      assert.equal(checkpointCount(await store.load(sessionId)), 1);
    } finally {
      g.setTimeout = realSetTimeout;
    }
  });
});

const checkpointCount = (session) => session.nodes.filter((n) => 'checkpoint' in n).length;

describe('CompactionChatTransport with promptCache', () => {
  for (const sdk of sdks) {
    it(`${sdk.name}: the model request carries Anthropic marks at the breakpoints`, async () => {
      const session = linearSession(3, 400);
      const leaf = session.nodes[session.nodes.length - 1];
      session.nodes[session.nodes.length - 1] = { ...leaf, metadata: { usage: { inputTokens: 3_000, outputTokens: 800 } } };
      const { store, sessionId } = await storeWith(session);
      const { summarize } = scriptedSummarizer(() => validSummary());
      const controller = new CompactionController({ store, sessionId, model: BIG, summarize });
      const usage = sdk.v === 2 ? { inputTokens: 10, outputTokens: 5, totalTokens: 15 } : { inputTokens: { total: 10 }, outputTokens: { total: 5 } };
      const model = answering(sdk, usage);
      let seen;
      const transport = new CompactionChatTransport({
        controller, promptCache: { provider: 'anthropic', cache: { ...cacheProfile('anthropic-5m'), minPrefixTokens: 500 } },
        streamResponse: async (request) => {
          seen = request;
          return sdk.ai.streamText({ model, messages: request.applyCacheBreakpoints(await sdk.ai.convertToModelMessages(request.messages)) });
        },
      });
      const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'c', messages: [{ id: 'U4', role: 'user', parts: [{ type: 'text', text: 'more?' }] }] });
      for await (const _ of stream); // eslint-disable-line no-unused-vars
      assert.deepEqual(seen.cacheBreakpoints.map((b) => [b.reason, b.messageId]), [['previous-request', 'U3'], ['newest', 'U4']]);
      const prompt = model.doStreamCalls[0].prompt;
      const marked = prompt.flatMap((m, i) => (m.providerOptions?.anthropic?.cacheControl ? [i] : []));
      assert.deepEqual(marked, [4, 6], JSON.stringify(prompt.map((m) => m.role)));
    });
  }
});

describe('cacheStepMarks: the newest block of each later step, within the limit', () => {
  const { cacheStepMarks } = compaction;
  const text = (role, t) => ({ role, content: [{ type: 'text', text: t }] });
  const marksOf = (messages, provider, key) =>
    messages.flatMap((m, i) => (m.providerOptions?.[provider]?.[key] || m.content.some((p) => p.providerOptions?.[provider]?.[key]) ? [i] : []));
  for (const [provider, key] of [['anthropic', 'cacheControl'], ['bedrock', 'cachePoint'], ['openrouter', 'cacheControl']]) {
    it(`${provider}: step 0 is left alone, a later step marks its last message, and at 4 the mark nearest the end gives way`, () => {
      const prepare = cacheStepMarks(provider, { ttl: '1h' });
      const ui = Array.from({ length: 4 }, (_, i) => text(i % 2 ? 'assistant' : 'user', `m${i}`));
      const turn = applyCacheBreakpoints(ui, { provider, breakpoints: [{ index: 0 }, { index: 2 }, { index: 3 }], messages: ui });
      assert.equal(prepare({ stepNumber: 0, messages: turn }), undefined);
      const step1 = [...turn, text('assistant', 'call'), { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c', toolName: 't', output: { type: 'text', value: 'r' } }] }];
      const marked1 = prepare({ stepNumber: 1, messages: step1 }).messages;
      // OpenRouter: marks only on user (and system) messages, whose content are blocks there; an
      // assistant's or a tool result's mark goes on the user message before it (issue 43.5).
      const openrouter = provider === 'openrouter';
      assert.deepEqual(marksOf(marked1, provider, key), openrouter ? [0, 2] : [0, 2, 3, 5]);
      assert.equal(JSON.stringify(step1.slice(0, 4)), JSON.stringify(turn), 'the input is not changed');
      // A fifth mark would be over the limit: the one nearest the end (message 3) gives way.
      const full = [...marked1, text('assistant', 'again'), text('user', 'more')];
      const marked2 = prepare({ stepNumber: 2, messages: full }).messages;
      assert.deepEqual(marksOf(marked2, provider, key), openrouter ? [0, 2, 7] : [0, 2, 3, 7]);
      const crowded = applyCacheBreakpoints(ui, { provider, breakpoints: [0, 1, 2, 3].map((index) => ({ index })), messages: ui });
      const marked3 = prepare({ stepNumber: 1, messages: [...crowded, text('user', 'x')] }).messages;
      assert.deepEqual(marksOf(marked3, provider, key), openrouter ? [0, 2, 4] : [0, 1, 2, 4]);
      if (openrouter) for (const m of [...marked1, ...marked2, ...marked3]) if (m.role === 'assistant' || m.role === 'tool') assert.deepEqual(marksOf([m], provider, key), [], 'no mark on a message OpenRouter writes as a string');
      if (provider === 'anthropic') assert.equal(marked3[4].providerOptions.anthropic.cacheControl.ttl, '1h');
    });
  }
  it('gives nothing for an implicit cache, and refuses an unknown provider', () => {
    for (const provider of ['openai', 'deepseek', 'google']) assert.equal(cacheStepMarks(provider), undefined);
    assert.throws(() => cacheStepMarks('acme'), { code: 'invalid-options' });
  });
});
