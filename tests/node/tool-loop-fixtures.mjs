// Shared by tool-loop.test.mjs and cut-loop.test.mjs (issue 38): a transport over a fresh session
// whose mock model reads PDF pages with a tool, one step at a time, records each request with its
// estimate (the package's estimator on what the model received) and reports that as its usage.
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compaction, storeWith, scriptedSummarizer, validSummary } from './runner-fixtures.mjs';
import { resolveInstalled } from './consumer-env.mjs';

const { CompactionController, CompactionChatTransport, estimateMessage } = compaction;
const guardModule = pathToFileURL(join(dirname(resolveInstalled('bibgenie-compaction')), 'chat/model-estimate.js')).href;
export const { estimateModelMessages, overheadTokens } = await import(guardModule);

export const MODEL_8K = Object.freeze({ id: 'test-8k', contextWindow: 8192 });
export const MODEL_32K = Object.freeze({ id: 'test-32k', contextWindow: 32_768 });
export const SYSTEM = 'You are a research assistant in the user\'s Zotero library. Read the pages you need.';
export const SENTENCE = 'The membrane samples kept their salt rejection above ninety percent after forty cycles. ';
export const perSentence = estimateMessage({ id: 'x', role: 'user', parts: [{ type: 'text', text: SENTENCE.repeat(100) }] }) / 100;
/** Page `n` of a PDF: about `tokens` estimated tokens, starting with its own marker. */
export const pageText = (n, tokens) => `PAGE-${n}-START ` + SENTENCE.repeat(Math.ceil(tokens / perSentence));
/** 2,000 to 4,000 tokens a page, as the loop read them. */
export const pageTokens = (n) => 2_000 + ((n - 1) % 3) * 1_000;

export const chatMessage = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
export const tick = (ms = 10) => new Promise((r) => setTimeout(r, ms));
export const settle = async (controller) => {
  await tick(5);
  while (controller.busy) await tick(2);
};

/** The loop's model, transport and readers on one AI SDK (`sdks` of ai-sdks.mjs). */
export function loopKit(sdk) {
  const Mock = sdk.test[sdk.Mock];
  const { tool, jsonSchema, stepCountIs, streamText, convertToModelMessages, readUIMessageStream } = sdk.ai;
  const toolsFor = (pages) => ({
    readPage: tool({
      description: 'Reads one page of the open PDF as text',
      inputSchema: jsonSchema({ type: 'object', properties: { page: { type: 'number' } }, required: ['page'] }),
      execute: async ({ page }) => pages(page),
    }),
  });
  /** The tools as the transport counts them (no functions). */
  const countedTools = (tools) => Object.fromEntries(Object.entries(tools).map(([name, t]) => [name, { description: t.description, inputSchema: t.inputSchema.jsonSchema }]));

  /**
   * A model that reads pages 1..`steps` one step at a time, then answers; each request is recorded
   * with its estimate (the prompt's messages, the tools) and reported back as its usage.
   * `at[step]`: 'hold' (text, then waits for the abort), 'cut' (text, then a stream error).
   */
  function loopModel({ model, tools, steps, at = {}, bigInput = 0, recallAt = {} }) {
    const received = [];
    const toolTokens = overheadTokens({ tools: countedTools(tools) }, model);
    const llm = new Mock({
      doStream: async ({ prompt, abortSignal }) => {
        const tokens = estimateModelMessages(prompt, model).reduce((a, b) => a + b, toolTokens);
        const call = received.length + 1;
        received.push({ tokens, prompt: JSON.stringify(prompt) });
        const how = at[call];
        const answer = `Read ${steps} pages.`;
        const input = JSON.stringify({ page: call, ...(bigInput ? { why: SENTENCE.repeat(bigInput) } : {}) });
        // The output counted as the estimator prices it, as the input is: a faithful provider's usage.
        const output = estimateModelMessages([{ role: 'assistant', content: call <= steps
          ? [{ type: 'tool-call', toolCallId: `call-${call}`, toolName: 'readPage', input: JSON.parse(input) }]
          : [{ type: 'text', text: answer }] }], model)[0];
        const usage = sdk.usage(tokens, output);
        const text = (t) => [{ type: 'text-start', id: `t${call}` }, { type: 'text-delta', id: `t${call}`, delta: t }];
        if (how === 'hold') {
          return { stream: new ReadableStream({
            start(c) {
              c.enqueue({ type: 'stream-start', warnings: [] });
              for (const chunk of text('Reading further, the pages show')) c.enqueue(chunk);
              abortSignal?.addEventListener('abort', () => c.error(abortSignal.reason));
            },
          }) };
        }
        if (how === 'cut') {
          return { stream: sdk.test.convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] }, ...text('Half an answer'), { type: 'error', error: new Error('the connection dropped') },
          ]) };
        }
        if (recallAt[call]) {
          return { stream: sdk.test.convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] },
            { type: 'tool-call', toolCallId: `recall-${call}`, toolName: 'recall', input: JSON.stringify(recallAt[call]) },
            { type: 'finish', finishReason: sdk.finishReason('tool-calls'), usage },
          ]) };
        }
        const chunks = call <= steps
          ? [{ type: 'tool-call', toolCallId: `call-${call}`, toolName: 'readPage', input }]
          : [...text(answer), { type: 'text-end', id: `t${call}` }];
        return { stream: sdk.test.convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] }, ...chunks,
          { type: 'finish', finishReason: sdk.finishReason(call <= steps ? 'tool-calls' : 'stop'), usage },
        ]) };
      },
    });
    return { llm, received };
  }

  /** A session, its controller and a transport whose app passes the request's prepareStep (or its own composed by the transport). */
  async function setup({ model, pages, steps, at, own, guarded = true, question, bigInput, promptCache, extraTools, recallAt }) {
    const { store, sessionId } = await storeWith({ nodes: [], leafId: null, branchRevision: 0 });
    const { summarize, calls } = scriptedSummarizer(() => validSummary());
    const controller = new CompactionController({ store, sessionId, model, summarize });
    const tools = { ...toolsFor(pages), ...(extraTools ? extraTools(controller) : {}) };
    const { llm, received } = loopModel({ model, tools, steps, at, bigInput, recallAt });
    const ownSteps = [];
    const errors = [];
    const transport = new CompactionChatTransport({
      controller, system: SYSTEM, tools, ...(promptCache ? { promptCache } : {}),
      ...(own ? { prepareStep: async ({ stepNumber }) => { ownSteps.push(stepNumber); return { activeTools: ['readPage'] }; } } : {}),
      onError: (error) => {
        errors.push(error);
        return `${error?.code ?? 'error'}: ${error?.message}`;
      },
      streamResponse: async ({ messages, abortSignal, system, tools: sent, cacheCallOptions, applyCacheBreakpoints }) =>
        streamText({
          model: llm, system, tools: sent, abortSignal, stopWhen: stepCountIs(40),
          ...(guarded ? cacheCallOptions : {}), // as the README's app spreads it: the guard comes with it
          messages: applyCacheBreakpoints(await convertToModelMessages(messages)),
          onError: () => {}, // the SDK's own console log of a refused step
        }),
    });
    return { store, sessionId, controller, transport, received, ownSteps, errors, summarizerCalls: calls, tools, question };
  }

  const send = (transport, message, abortSignal) =>
    transport.sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages: [message], abortSignal });
  async function readAll(stream) {
    let last;
    let error;
    for await (const message of readUIMessageStream({ stream, onError: (e) => (error = e) })) last = message;
    return { last, error };
  }
  /** The newest assistant message of the branch (the automatic compaction may have put a checkpoint after it). */
  const answerOf = async (store, sessionId) => {
    const session = await store.load(sessionId);
    const byId = new Map(session.nodes.map((n) => [n.id, n]));
    for (let node = byId.get(session.leafId); node; node = byId.get(node.parentId)) if (node.role === 'assistant') return node;
    return undefined;
  };
  const outputsOf = (message) => message.parts.filter((p) => p.type === 'tool-readPage' && p.state === 'output-available');

  return { loopModel, setup, send, readAll, answerOf, outputsOf, countedTools };
}
