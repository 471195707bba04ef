// AI SDK adapters. `ai` is a peer dependency and never imported here: the app passes its own
// `generateText` (v5, v6 or v7), so the package bundles no SDK and works with the app's version.

import { codedError as adapterError } from '../util/coded-error.js';
import { compactionOptions, readCompaction } from './provider-compaction.js';
import { abortReason } from '../util/abort-signal.js';

// `ai` types as `import('../ai-types.js')`: the build emits the declarations without the peer installed, and
// tsc keeps an unresolved `@import` out of them.
/** @import { AbortSignalLike, SummaryRequest } from '../bibgenie_compaction.js' */
/**
 * The part of a SummaryRequest the AI SDK summarizer reads.
 * @typedef {Pick<SummaryRequest, 'system' | 'prompt' | 'maxOutputTokens'>} SummaryRequestLike
 */
/**
 * What createAiSdkSummarizer returns; it fits `compact`'s and the controller's `summarize`.
 * @typedef {(request: SummaryRequestLike, signal?: AbortSignalLike) => Promise<string | { summary: string, providerPart: Record<string, unknown> }>} AiSdkSummarize
 */
/**
 * The options createAiSdkSummarizer passes to generateText (plus `callOptions`).
 * @typedef {{ model: import('../ai-types.js').LanguageModel, system: string, prompt: string, maxOutputTokens?: number, abortSignal?: AbortSignal, [setting: string]: unknown }} AiSdkSummaryCall
 */
/**
 * What createAbortController returns: an AbortController, maybe of another window.
 * @typedef {{ readonly signal: AbortSignalLike, abort(reason?: unknown): void }} AbortControllerLike
 */
/**
 * createAiSdkSummarizer's options.
 * @typedef {object} AiSdkSummarizerOptions
 * @property {import('../ai-types.js').LanguageModel} model
 * @property {(options: AiSdkSummaryCall) => PromiseLike<{ text: string }>} generateText `generateText` from 'ai' (v5, v6 or v7).
 * @property {Record<string, unknown>} [callOptions]
 * @property {() => AbortControllerLike} [createAbortController] Where there is no global AbortController
 *   (Zotero's plugin sandbox), e.g. `() => new (Zotero.getMainWindow().AbortController)()`: the provider request gets a real signal.
 * @property {'anthropic' | 'openai'} [providerCompaction] the provider summarizes with its own on-demand
 *   compaction (Anthropic's signed block, OpenAI's encrypted item), which the checkpoint keeps beside a
 *   readable summary (docs/provider-compaction.md); the summarizer then resolves `{ summary, providerPart }`
 */
/**
 * Usage counts as recorded: every count present, null when the provider did not report it.
 * @typedef {object} RecordedUsage
 * @property {number | null} inputTokens
 * @property {number | null} outputTokens
 * @property {number | null} totalTokens
 * @property {number | null} reasoningTokens
 * @property {number | null} cachedInputTokens
 * @property {{ noCacheTokens: number | null, cacheReadTokens: number | null, cacheWriteTokens: number | null }} [inputTokenDetails]
 *   v6's details; under v5 filled from the provider's providerMetadata (Anthropic, Bedrock, DeepSeek) and cachedInputTokens.
 * @property {{ textTokens: number | null, reasoningTokens: number | null }} [outputTokenDetails]
 */

/** What an aborted summary request rejects with when its signal gives no reason. */
const SUMMARY_ABORTED = 'The summary request was aborted.';

/** Call options that would give the summary request tools or a different prompt. */
const FORBIDDEN_CALL_OPTIONS = ['tools', 'toolChoice', 'activeTools', 'stopWhen', 'prepareStep', 'messages', 'prompt', 'system'];

/**
 * A real AbortController for fetch: the app's factory (Zotero's plugin sandbox has no
 * AbortController; its main window does), else the global one, else none.
 * @param {(() => { signal: unknown, abort(reason?: unknown): void }) | undefined} createAbortController
 */
function newAbortController(createAbortController) {
  if (typeof createAbortController === 'function') {
    // e.g. `new (Zotero.getMainWindow().AbortController)()` with no main window open: the summary is
    // still made (and cancel still ends it through the race below), only the provider request runs on.
    try {
      return createAbortController();
    } catch {
      // fall through to the global, if the runtime has one
    }
  }
  const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
  return typeof g.AbortController === 'function' ? new g.AbortController() : null;
}

/**
 * What to give generateText as `abortSignal`, plus a promise that rejects when the caller's
 * signal aborts (so summarize settles even if a provider ignores the signal).
 * @param {AbortSignalLike | undefined} signal
 * @param {(() => { signal: unknown, abort(reason?: unknown): void }) | undefined} createAbortController
 */
function bridgeSignal(signal, createAbortController) {
  if (!signal) return { abortSignal: undefined, aborted: null, dispose() {} };
  const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
  /** @type {any} */
  let abortSignal;
  /** @type {(() => void) | null} */
  let forward = null;
  if (typeof g.AbortSignal === 'function' && signal instanceof g.AbortSignal) {
    abortSignal = signal;
  } else {
    // A signal-like from Zotero's sandbox: mirror it into a real AbortSignal for fetch.
    const controller = newAbortController(createAbortController);
    if (controller) {
      forward = () => controller.abort(abortReason(signal, SUMMARY_ABORTED));
      abortSignal = controller.signal;
    }
  }
  /** @type {() => void} */
  let onAbort = () => {};
  const aborted = new Promise((_, reject) => {
    onAbort = () => {
      if (forward) forward();
      reject(abortReason(signal, SUMMARY_ABORTED));
    };
  });
  aborted.catch(() => {}); // observed by the race below; never an unhandled rejection
  signal.addEventListener('abort', onAbort);
  return {
    abortSignal,
    aborted,
    dispose() {
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/**
 * A `summarize` callback for compact() that asks a model through AI SDK `generateText`:
 * the request's system and prompt, its maxOutputTokens, the caller's abort signal, and no
 * tools. `callOptions` may add settings such as `temperature`, `maxRetries` or
 * `providerOptions` (tools and prompts are not accepted).
 *
 * In Zotero's plugin sandbox (no AbortController) pass `createAbortController`, e.g.
 * `() => new (Zotero.getMainWindow().AbortController)()`: the provider request then gets a real
 * abortSignal, tied to the runner's signal, and a cancel stops it.
 *
 *   import { generateText } from 'ai';
 *   const summarize = createAiSdkSummarizer({ model: openai('gpt-4.1-mini'), generateText });
 *
 * @param {AiSdkSummarizerOptions} options
 * @returns {AiSdkSummarize}
 */
export function createAiSdkSummarizer({ model, generateText, callOptions = {}, createAbortController, providerCompaction }) {
  if (typeof generateText !== 'function') {
    throw adapterError('invalid-argument', "createAiSdkSummarizer: pass generateText from 'ai'");
  }
  if (createAbortController !== undefined && typeof createAbortController !== 'function') {
    throw adapterError('invalid-argument', 'createAiSdkSummarizer: createAbortController must be a function returning an AbortController');
  }
  if (model === undefined || model === null) throw adapterError('invalid-argument', 'createAiSdkSummarizer: pass a model');
  const forbidden = FORBIDDEN_CALL_OPTIONS.filter((key) => callOptions[key] !== undefined).concat(cacheMarks(callOptions.providerOptions));
  if (forbidden.length) {
    throw adapterError('invalid-argument', `createAiSdkSummarizer: callOptions may not set ${forbidden.join(', ')}`);
  }
  if (providerCompaction !== undefined && providerCompaction !== 'anthropic' && providerCompaction !== 'openai') {
    throw adapterError('invalid-argument', "createAiSdkSummarizer: providerCompaction is 'anthropic' or 'openai'");
  }
  return async function summarize(request, signal) {
    if (!request || typeof request.system !== 'string' || typeof request.prompt !== 'string') {
      throw adapterError('invalid-argument', 'summarize: the request needs string system and prompt');
    }
    if (signal && signal.aborted) throw abortReason(signal, SUMMARY_ABORTED);
    const bridge = bridgeSignal(signal, createAbortController);
    try {
      const call = generateText({
        ...callOptions,
        ...(providerCompaction ? { providerOptions: compactionOptions(providerCompaction, request, callOptions.providerOptions) } : {}),
        model,
        system: request.system,
        prompt: request.prompt,
        ...(Number.isFinite(request.maxOutputTokens) ? { maxOutputTokens: request.maxOutputTokens } : {}),
        ...(bridge.abortSignal ? { abortSignal: bridge.abortSignal } : {}),
      });
      const result = await (bridge.aborted ? Promise.race([call, bridge.aborted]) : call);
      if (providerCompaction) return /** @type {any} */ (await readCompaction(providerCompaction, result, request, signal));
      if (!result || typeof result.text !== 'string') {
        throw adapterError('invalid-summary', 'summarize: generateText returned no text');
      }
      return result.text;
    } finally {
      bridge.dispose();
    }
  };
}

/**
 * Cache marks in the summary request's providerOptions: its prefix is unique, so a cache write there
 * is never read, and it must not share (and so evict) the session's cache key.
 * @param {unknown} providerOptions
 */
function cacheMarks(providerOptions) {
  const marks = [];
  for (const [provider, options] of Object.entries(objectOr(providerOptions))) {
    for (const key of ['cacheControl', 'cache_control', 'cachePoint', 'promptCacheKey']) {
      if (objectOr(options)[key] !== undefined) marks.push(`providerOptions.${provider}.${key}`);
    }
  }
  return marks;
}

/** Fields of a v5 LanguageModelUsage; v6 keeps them and adds the *Details objects. */
const USAGE_FIELDS = ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens'];

/** @param {unknown} value */
function countOrNull(value) {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * The usage as plain JSON in which every count is present: a number, or null when the
 * provider did not report it. The AI SDK deep-merges metadata chunks and skips undefined
 * values, so a field missing from the last step would otherwise keep an earlier step's value.
 * `raw` (the provider's own shape) is dropped.
 * @param {Record<string, unknown>} usage
 */
function usageSnapshot(usage) {
  /** @type {Record<string, unknown>} */
  const out = {};
  for (const field of USAGE_FIELDS) out[field] = countOrNull(usage[field]);
  for (const [key, value] of Object.entries(usage)) {
    if (key === 'raw' || USAGE_FIELDS.includes(key)) continue;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      /** @type {Record<string, number | null>} */
      const details = {};
      for (const [k, v] of Object.entries(value)) details[k] = countOrNull(v);
      out[key] = details;
    } else {
      out[key] = countOrNull(value);
    }
  }
  return out;
}

/** @param {unknown} value @returns {Record<string, any>} */
function objectOr(value) {
  return value !== null && typeof value === 'object' ? /** @type {any} */ (value) : {};
}

/**
 * v6's `inputTokenDetails` for a v5 usage, from what the provider put in `providerMetadata`:
 * Anthropic and Bedrock report the cache write only there, and leave both the write and the read
 * (`cachedInputTokens`) out of `inputTokens`; OpenAI, OpenAI-compatible providers, Google and
 * OpenRouter count the read (`cachedInputTokens`) within `inputTokens` and write implicitly;
 * DeepSeek reports its hits as `promptCacheHitTokens`. Counts not reported are null, so a later
 * step's metadata replaces an earlier step's in the SDK's merge.
 * @param {Record<string, unknown>} usage @param {unknown} providerMetadata
 */
function v5InputDetails(usage, providerMetadata) {
  const input = countOrNull(usage.inputTokens);
  const metadata = objectOr(providerMetadata);
  let read = countOrNull(usage.cachedInputTokens);
  let write = null;
  let excludesCache = false;
  if (metadata.anthropic) {
    write = countOrNull(objectOr(metadata.anthropic).cacheCreationInputTokens);
    excludesCache = true;
  } else if (metadata.bedrock) {
    write = countOrNull(objectOr(objectOr(metadata.bedrock).usage).cacheWriteInputTokens);
    excludesCache = true;
  } else if (metadata.deepseek) {
    read = countOrNull(objectOr(metadata.deepseek).promptCacheHitTokens) ?? read;
  }
  if (excludesCache) {
    // The report says what was read and written; an absent count there is none.
    return { noCacheTokens: input, cacheReadTokens: read ?? 0, cacheWriteTokens: write ?? 0 };
  }
  const noCache = input !== null && read !== null ? Math.max(0, input - read) : null;
  return { noCacheTokens: noCache, cacheReadTokens: read, cacheWriteTokens: write };
}

/**
 * A `messageMetadata` callback for `toUIMessageStream` / `toUIMessageStreamResponse`: on each
 * 'finish-step' part it records that step's usage as `{ usage }`, so the assistant message
 * ends with the LAST step's usage in `message.metadata.usage`, where estimate() looks for it.
 * The 'finish' part carries only `totalUsage` (billing across steps, not context
 * occupancy), so nothing is recorded there. Under AI SDK 5 the provider's cache read and write
 * counts (in `providerMetadata` for Anthropic and Bedrock) are kept as v6's
 * `inputTokenDetails: { noCacheTokens, cacheReadTokens, cacheWriteTokens }`, so one reader serves
 * every version (docs/prompt-cache.md).
 *
 *   result.toUIMessageStreamResponse({ messageMetadata: usageMetadata });
 *
 * @param {{ part: { type: string, usage?: object, providerMetadata?: object } }} options
 * @returns {{ usage: RecordedUsage } | undefined}
 */
export function usageMetadata({ part }) {
  if (!part || part.type !== 'finish-step' || !part.usage || typeof part.usage !== 'object') return undefined;
  const given = /** @type {Record<string, unknown>} */ (part.usage);
  const usage = usageSnapshot(given);
  if (!('inputTokenDetails' in given)) usage.inputTokenDetails = v5InputDetails(given, part.providerMetadata);
  Object.assign(usage, afterProviderCompaction(part.providerMetadata));
  return { usage: /** @type {RecordedUsage} */ (/** @type {unknown} */ (usage)) };
}

/**
 * When the provider compacted within the request (Anthropic reports one usage per iteration, the
 * compaction's first, in `providerMetadata.anthropic.iterations`), the AI SDK's usage is the sum of
 * the iterations: the compaction read the whole old context. What the provider holds afterwards is
 * the final iteration's request and output (its docs: "the final iteration's token counts reflect the
 * effective context size after compaction"), so that is the usage recorded (docs/provider-compaction.md).
 * @param {unknown} providerMetadata
 * @returns {Record<string, unknown>}
 */
function afterProviderCompaction(providerMetadata) {
  for (const metadata of Object.values(objectOr(providerMetadata))) {
    const iterations = objectOr(metadata).iterations;
    if (!Array.isArray(iterations) || !iterations.some((/** @type {unknown} */ it) => objectOr(it).type === 'compaction')) continue;
    const last = objectOr([...iterations].reverse().find((/** @type {unknown} */ it) => ['message', 'compaction'].includes(objectOr(it).type)));
    const noCache = countOrNull(last.inputTokens);
    const output = countOrNull(last.outputTokens);
    if (noCache === null || output === null) continue;
    const read = countOrNull(last.cacheReadInputTokens) ?? 0;
    const write = countOrNull(last.cacheCreationInputTokens) ?? 0;
    return {
      inputTokens: noCache + read + write,
      outputTokens: output,
      totalTokens: noCache + read + write + output,
      cachedInputTokens: read,
      inputTokenDetails: { noCacheTokens: noCache, cacheReadTokens: read, cacheWriteTokens: write },
    };
  }
  return {};
}

/**
 * Combines the app's own messageMetadata callback with usageMetadata (usage wins on conflict).
 * @template {{ part: { type: string, usage?: object } }} O
 * @param {(options: O) => Record<string, unknown> | undefined | null} own
 * @returns {(options: O) => Record<string, unknown> | undefined}
 */
export function withUsageMetadata(own) {
  return (options) => {
    const mine = own(options) ?? undefined;
    const usage = usageMetadata(options);
    if (mine === undefined) return usage;
    return usage === undefined ? mine : { ...mine, ...usage };
  };
}

/**
 * The transport's metadata for one response: `metadata`'s, plus `usageStep` with each usage, the
 * 1-based step of the message it belongs to (the steps are delimited by its 'step-start' parts), so
 * the estimate counts what that step's request did not hold: its tool outputs and every later step
 * (rule `usage-covers-step`: a loop cut after step 3 of 6 keeps step 3's usage). `before`: the steps
 * the message already has (a continuation's stored message). `hiddenAt(stepNumber)`: the tokens the
 * step guard left out of that step's request (0-based, as prepareStep counts), recorded as
 * `usageFolded` (the usage does not cover them either).
 * @template {{ part: { type: string } }} O
 * @param {(options: O) => Record<string, unknown> | undefined} metadata @param {number} before
 * @param {(stepNumber: number) => number} [hiddenAt]
 * @returns {(options: O) => Record<string, unknown> | undefined}
 */
export function stepUsageMetadata(metadata, before, hiddenAt) {
  let finished = 0;
  return (options) => {
    const recorded = metadata(options);
    if (options?.part?.type !== 'finish-step') return recorded;
    finished += 1;
    if (recorded?.usage === undefined) return recorded;
    if (/** @type {any} */ (recorded.usage)?.inputTokens === null) {
      // A step cut by an error reports no input: the previous step's usage (and its step) stays.
      const { usage, ...rest } = recorded;
      return Object.keys(rest).length > 0 ? rest : undefined;
    }
    // null, not absent: the SDK's merge of metadata chunks would keep an earlier step's count.
    const folded = hiddenAt ? hiddenAt(finished - 1) : 0;
    return { ...recorded, usageStep: before + finished, usageFolded: folded > 0 ? folded : null };
  };
}
