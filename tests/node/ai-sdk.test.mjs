// The AI SDK adapters against the SDK itself (v5, and v6 / v7 installed as `ai6` / `ai7`), driven by
// the SDK's own mock models from 'ai/test'.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';

import { glue } from './glue-modules.mjs';

const { createAiSdkSummarizer, usageMetadata, withUsageMetadata, createAbortSignalLike } = glue;

const sdks = [
  {
    name: 'ai@5',
    ai: await import('ai'),
    test: await import('ai/test'),
    Mock: 'MockLanguageModelV2',
    finishReason: (reason) => reason,
    usage: ({ input, output, reasoning, cached }) => ({
      inputTokens: input,
      outputTokens: output,
      totalTokens: input + output,
      ...(reasoning !== undefined ? { reasoningTokens: reasoning } : {}),
      ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
    }),
  },
];
// v6 and v7 share the v3 provider shapes (finish reason and usage objects).
const v3Shapes = {
  finishReason: (reason) => ({ unified: reason, raw: reason }),
  usage: ({ input, output, reasoning, cached }) => ({
    inputTokens: { total: input, noCache: cached === undefined ? input : input - cached, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: output, text: reasoning === undefined ? output : output - reasoning, reasoning },
  }),
};
// Required by tests/package.json: an import error fails the file rather than dropping a suite.
sdks.push({ name: 'ai@6', ai: await import('ai6'), test: await import('ai6/test'), Mock: 'MockLanguageModelV3', ...v3Shapes });
sdks.push({ name: 'ai@7', ai: await import('ai7'), test: await import('ai7/test'), Mock: 'MockLanguageModelV4', ...v3Shapes });

const request = {
  system: 'You write research checkpoints.',
  prompt: '<history nonce="n1">user: find papers on tone sandhi</history nonce="n1">',
  maxOutputTokens: 1234,
};

for (const sdk of sdks) {
  const Mock = sdk.test[sdk.Mock];
  const textResult = (text) => ({
    content: [{ type: 'text', text }],
    finishReason: sdk.finishReason('stop'),
    usage: sdk.usage({ input: 100, output: 20 }),
    warnings: [],
  });

  describe(`createAiSdkSummarizer with ${sdk.name}`, () => {
    it('sends system, prompt and maxOutputTokens with no tools and returns the text', async () => {
      const model = new Mock({ doGenerate: async () => textResult('## Research Goal\nTone sandhi.') });
      const summarize = createAiSdkSummarizer({ model, generateText: sdk.ai.generateText });
      const text = await summarize(request, createAbortSignalLike());
      assert.equal(text, '## Research Goal\nTone sandhi.');
      assert.equal(model.doGenerateCalls.length, 1);
      const call = model.doGenerateCalls[0];
      assert.deepEqual(call.prompt[0], { role: 'system', content: request.system });
      assert.equal(call.prompt[1].role, 'user');
      assert.deepEqual(call.prompt[1].content.map((p) => p.text), [request.prompt]);
      assert.equal(call.prompt.length, 2);
      assert.equal(call.maxOutputTokens, 1234);
      assert.ok(call.tools === undefined || call.tools.length === 0, 'no tools are offered');
    });

    it('passes extra call options but refuses tools', async () => {
      const model = new Mock({ doGenerate: async () => textResult('ok') });
      const summarize = createAiSdkSummarizer({ model, generateText: sdk.ai.generateText, callOptions: { temperature: 0.2 } });
      await summarize(request);
      assert.equal(model.doGenerateCalls[0].temperature, 0.2);
      assert.throws(
        () => createAiSdkSummarizer({ model, generateText: sdk.ai.generateText, callOptions: { tools: {} } }),
        { code: 'invalid-argument' },
      );
    });

    it('forwards a sandbox signal-like to the model and rejects when it aborts', async () => {
      let seenSignal;
      const started = new Promise((resolve) => {
        seenSignal = resolve;
      });
      const model = new Mock({
        doGenerate: ({ abortSignal }) => {
          seenSignal(abortSignal);
          return new Promise((_, reject) => abortSignal.addEventListener('abort', () => reject(abortSignal.reason)));
        },
      });
      const summarize = createAiSdkSummarizer({ model, generateText: sdk.ai.generateText, callOptions: { maxRetries: 0 } });
      const signal = createAbortSignalLike();
      const running = summarize(request, signal);
      const seen = await started;
      assert.equal(seen.aborted, false);
      signal.abort(new Error('user cancelled'));
      await assert.rejects(running, /user cancelled/);
      assert.equal(seen.aborted, true, 'the model saw the abort');
    });

    it("in a sandbox without AbortController, cancels the provider request through the app's factory", async () => {
      // Zotero's plugin sandbox: no global AbortController; the app hands in its main window's.
      const RealAbortController = globalThis.AbortController;
      const made = [];
      const createAbortController = () => {
        const controller = new RealAbortController();
        made.push(controller);
        return controller;
      };
      let seenSignal;
      const started = new Promise((resolve) => {
        seenSignal = resolve;
      });
      const model = new Mock({
        doGenerate: ({ abortSignal }) => {
          seenSignal(abortSignal);
          return new Promise((_, reject) => abortSignal?.addEventListener('abort', () => reject(abortSignal.reason)));
        },
      });
      const summarize = createAiSdkSummarizer({ model, generateText: sdk.ai.generateText, callOptions: { maxRetries: 0 }, createAbortController });
      const signal = createAbortSignalLike();
      globalThis.AbortController = undefined;
      let running;
      try {
        running = summarize(request, signal);
      } finally {
        globalThis.AbortController = RealAbortController;
      }
      const seen = await started;
      assert.equal(made.length, 1, 'one controller per request, from the factory');
      assert.ok(seen, 'the model got an abortSignal');
      assert.equal(seen.aborted, false);
      signal.abort(new Error('user cancelled the compaction'));
      await assert.rejects(running, /user cancelled the compaction/);
      assert.equal(seen.aborted, true, 'the provider request saw the abort');
      assert.equal(made[0].signal.aborted, true);
      assert.throws(() => createAiSdkSummarizer({ model, generateText: sdk.ai.generateText, createAbortController: {} }), { code: 'invalid-argument' });
    });

    it('settles on abort even when the provider ignores the signal', async () => {
      const model = new Mock({ doGenerate: () => new Promise(() => {}) });
      const summarize = createAiSdkSummarizer({ model, generateText: sdk.ai.generateText });
      const controller = new AbortController();
      const running = summarize(request, controller.signal);
      controller.abort(new Error('stop now'));
      await assert.rejects(running, /stop now/);
    });

    it('does not call the model when the signal is already aborted', async () => {
      const model = new Mock({ doGenerate: async () => textResult('never') });
      const summarize = createAiSdkSummarizer({ model, generateText: sdk.ai.generateText });
      const signal = createAbortSignalLike();
      signal.abort();
      await assert.rejects(summarize(request, signal), { name: 'AbortError' });
      assert.equal(model.doGenerateCalls.length, 0);
    });
  });

  describe(`usageMetadata with ${sdk.name}`, () => {
    /** Two steps: a tool call, then the answer. Step 2 reports no reasoning or cache counts. */
    function twoStepModel() {
      const steps = [
        [
          { type: 'stream-start', warnings: [] },
          { type: 'tool-call', toolCallId: 'call-1', toolName: 'searchLibrary', input: '{"q":"tone sandhi"}' },
          { type: 'finish', finishReason: sdk.finishReason('tool-calls'), usage: sdk.usage({ input: 100, output: 20, reasoning: 5, cached: 40 }) },
        ],
        [
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: 'Found 3 items.' },
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: sdk.finishReason('stop'), usage: sdk.usage({ input: 300, output: 30 }) },
        ],
      ];
      let call = 0;
      return new Mock({
        doStream: async () => ({ stream: sdk.test.convertArrayToReadableStream(steps[call++]) }),
      });
    }

    async function finalMessage(messageMetadata) {
      const { streamText, tool, jsonSchema, stepCountIs, readUIMessageStream } = sdk.ai;
      const result = streamText({
        model: twoStepModel(),
        prompt: 'find papers',
        tools: {
          searchLibrary: tool({
            description: 'search the Zotero library',
            inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } } }),
            execute: async () => ({ items: [{ key: 'ABCD2345', title: 'Tone sandhi' }] }),
          }),
        },
        stopWhen: stepCountIs(2),
      });
      let last;
      for await (const message of readUIMessageStream({ stream: result.toUIMessageStream({ messageMetadata }) })) last = message;
      return { message: last, totalUsage: await result.totalUsage };
    }

    it("records the last step's usage, not the total, with absent counts as null", async () => {
      const { message, totalUsage } = await finalMessage(usageMetadata);
      const usage = message.metadata.usage;
      assert.equal(usage.inputTokens, 300);
      assert.equal(usage.outputTokens, 30);
      assert.equal(usage.totalTokens, 330);
      assert.equal(totalUsage.inputTokens, 400, 'the billing total differs and is not what was recorded');
      // Step 1 reported reasoning and cached tokens; they must not leak into step 2's usage
      // through the SDK's deep merge of metadata chunks.
      assert.equal(usage.reasoningTokens, null);
      assert.equal(usage.cachedInputTokens, null);
      if (usage.outputTokenDetails) assert.equal(usage.outputTokenDetails.reasoningTokens, null);
      if (usage.inputTokenDetails) assert.equal(usage.inputTokenDetails.cacheReadTokens, null);
      assert.equal(Object.hasOwn(usage, 'raw'), false);
      // Plain JSON: survives persistence unchanged.
      assert.deepEqual(JSON.parse(JSON.stringify(message.metadata)), message.metadata);
    });

    it('combines with the app\'s own metadata', async () => {
      const { message } = await finalMessage(withUsageMetadata(({ part }) => (part.type === 'start' ? { model: 'mock' } : undefined)));
      assert.equal(message.metadata.model, 'mock');
      assert.equal(message.metadata.usage.inputTokens, 300);
    });
  });
}

describe('usageMetadata on its own', () => {
  it('ignores every part but finish-step', () => {
    assert.equal(usageMetadata({ part: { type: 'finish', totalUsage: { inputTokens: 1 } } }), undefined);
    assert.equal(usageMetadata({ part: { type: 'start' } }), undefined);
    assert.deepEqual(usageMetadata({ part: { type: 'finish-step', usage: { inputTokens: 7, outputTokens: Number.NaN } } }), {
      usage: {
        inputTokens: 7, outputTokens: null, totalTokens: null, reasoningTokens: null, cachedInputTokens: null,
        // v5 gets v6's details (none reported here): null, so a later step's replace an earlier step's.
        inputTokenDetails: { noCacheTokens: null, cacheReadTokens: null, cacheWriteTokens: null },
      },
    });
  });
});

describe('createAbortSignalLike', () => {
  it('behaves like an AbortSignal for the runner and the SDK bridge', () => {
    const signal = createAbortSignalLike();
    const calls = [];
    const listener = (event) => calls.push(['listener', event.type, event.target === signal]);
    signal.addEventListener('abort', listener);
    signal.addEventListener('abort', listener); // added once, like EventTarget
    const removed = () => calls.push(['removed']);
    signal.addEventListener('abort', removed);
    signal.removeEventListener('abort', removed);
    signal.onabort = () => calls.push(['onabort']);
    assert.equal(signal.signal, signal);
    assert.equal(signal.aborted, false);
    signal.throwIfAborted();
    const reason = new Error('why');
    signal.abort(reason);
    signal.abort(new Error('second abort is ignored'));
    assert.equal(signal.aborted, true);
    assert.equal(signal.reason, reason);
    assert.deepEqual(calls, [['onabort'], ['listener', 'abort', true]]);
    assert.throws(() => signal.throwIfAborted(), /why/);
  });
});
