// Cache breakpoints on what is sent. `cacheBreakpoints` (the wasm core) says after which messages of
// the request (the projection, then the draft) a mark belongs; these helpers put the marks on the
// ModelMessage[] the app gets from `convertToModelMessages`, in each provider's own option, since a
// UIMessage cannot carry a message-level mark. Implicit caches (OpenAI, DeepSeek, Google) need no
// mark; OpenAI takes a `promptCacheKey` per call instead (`promptCacheCallOptions`).

import { codedError } from '../util/coded-error.js';

/**
 * Providers with explicit marks (anthropic, bedrock, openrouter) and implicit caches (the rest).
 * @typedef {'anthropic' | 'bedrock' | 'openrouter' | 'openai' | 'deepseek' | 'google' | 'implicit'} CacheProvider
 */
/**
 * A ModelMessage as far as the marks need it.
 * @typedef {{ role: string, providerOptions?: Record<string, Record<string, unknown>> }} MarkableModelMessage
 */
/**
 * streamText's `prepareStep` that marks each later step's last message (at most 4 marks in all).
 * @typedef {<M extends MarkableModelMessage>(step: { stepNumber: number, messages: M[] }) => { messages: M[] } | undefined} CacheStepMarks
 */
/**
 * streamText options for the session's cache: OpenAI's promptCacheKey, nothing for the others.
 * @typedef {object} PromptCacheCallOptions
 * @property {{ openai: { promptCacheKey: string } }} [providerOptions]
 * @property {CacheStepMarks} [prepareStep] The transport's: a mark on the last message of each later step of a multi-step turn (`cacheStepMarks`).
 */

/** Providers whose marks these helpers write; the others cache implicitly. */
const MARKED = {
  anthropic: (/** @type {{ ttl?: '5m' | '1h' }} */ options) => ({ cacheControl: { type: 'ephemeral', ...(options.ttl ? { ttl: options.ttl } : {}) } }),
  bedrock: () => ({ cachePoint: { type: 'default' } }),
  openrouter: () => ({ cacheControl: { type: 'ephemeral' } }),
};
const IMPLICIT = new Set(['openai', 'deepseek', 'google', 'implicit']);
/** The most marks one request may carry: Anthropic's limit (Bedrock's and OpenRouter's too), system and tools included. */
const MAX_MARKS = 4;

/** `target` with the provider's option merged into its `providerOptions` (a copy). @param {any} target @param {string} provider @param {object} option */
function withOption(target, provider, option) {
  const own = target.providerOptions ?? {};
  return { ...target, providerOptions: { ...own, [provider]: { ...(own[provider] ?? {}), ...option } } };
}

/**
 * The message marked where the provider reads the mark. Anthropic applies a message's mark to its
 * last part, Bedrock appends a cache point after the message; OpenRouter copies a user or tool
 * message's mark onto every part (ai 5: 3 marks became 6, over Anthropic's 4), so there the mark
 * goes on the last part alone.
 * @param {any} message @param {string} provider @param {object} option
 */
function marked(message, provider, option) {
  const partLevel = provider === 'openrouter' && (message.role === 'user' || message.role === 'tool');
  if (!partLevel || !Array.isArray(message.content) || message.content.length === 0) return withOption(message, provider, option);
  const content = [...message.content];
  content[content.length - 1] = withOption(content[content.length - 1], provider, option);
  return { ...message, content };
}

/**
 * Where the provider can take a mark meant for `messages[at]`: there, or for OpenRouter the nearest
 * user or system message at or before it. OpenRouter writes an assistant or tool message's content
 * as a string and reads a mark only on a content block, so a mark on one would be lost (issue 43.5):
 * it goes on the last block of the user message the turn or step started from, which caches the
 * prefix up to there. -1 when there is none.
 * @param {any[]} messages @param {number} at @param {string} provider
 */
function markAt(messages, at, provider) {
  if (provider !== 'openrouter') return at;
  for (let j = at; j >= 0; j--) if (messages[j]?.role === 'user' || messages[j]?.role === 'system') return j;
  return -1;
}

/** The option keys a mark sets, by provider. */
const MARK_KEYS = { anthropic: ['cacheControl', 'cache_control'], bedrock: ['cachePoint'], openrouter: ['cacheControl', 'cache_control'] };

/** Whether `target` (a message or a part) carries the provider's mark itself. @param {any} target @param {string} provider */
function carriesMark(target, provider) {
  const own = target?.providerOptions?.[provider];
  return Boolean(own) && MARK_KEYS[/** @type {keyof typeof MARK_KEYS} */ (provider)].some((key) => own[key] != null);
}

/** Whether the message or one of its parts carries the provider's mark. @param {any} message @param {string} provider */
function isMarked(message, provider) {
  return carriesMark(message, provider) || (Array.isArray(message?.content) && message.content.some((/** @type {any} */ part) => carriesMark(part, provider)));
}

/** `target` without the provider's mark keys (a copy when it had one). @param {any} target @param {string} provider */
function withoutOption(target, provider) {
  if (!carriesMark(target, provider)) return target;
  const own = { ...target.providerOptions[provider] };
  for (const key of MARK_KEYS[/** @type {keyof typeof MARK_KEYS} */ (provider)]) delete own[key];
  return { ...target, providerOptions: { ...target.providerOptions, [provider]: own } };
}

/** The message with no mark of the provider, on it or its parts. @param {any} message @param {string} provider */
function unmarked(message, provider) {
  const bare = withoutOption(message, provider);
  return Array.isArray(bare.content) ? { ...bare, content: bare.content.map((/** @type {any} */ part) => withoutOption(part, provider)) } : bare;
}

/** @param {unknown} provider */
function checkProvider(provider) {
  if (typeof provider !== 'string' || !(provider in MARKED || IMPLICIT.has(provider))) {
    throw codedError('invalid-options', `prompt cache: provider must be one of ${[...Object.keys(MARKED), ...IMPLICIT].join(', ')}`);
  }
}

/**
 * For each UIMessage of the request, the index of the last ModelMessage made from it (-1 when it made
 * none). `convertToModelMessages` turns a user or system message into one message of its role and an
 * assistant message into assistant and tool messages; two assistant messages in a row share one
 * group, whose end both then map to.
 * @param {any[]} modelMessages @param {any[]} uiMessages
 */
function messageEnds(modelMessages, uiMessages) {
  const ends = [];
  let next = 0;
  let last = -1;
  for (const message of uiMessages) {
    if (message?.role === 'assistant') {
      while (next < modelMessages.length && (modelMessages[next]?.role === 'assistant' || modelMessages[next]?.role === 'tool')) last = next++;
    } else {
      while (next < modelMessages.length && modelMessages[next]?.role !== message?.role) next++;
      if (next < modelMessages.length) last = next++;
    }
    ends.push(last);
  }
  return ends;
}

/**
 * The ModelMessages with cache marks at the breakpoints: a new array, marked messages copied with
 * the provider's option merged into their `providerOptions`; the input is not changed. For an
 * implicit cache (openai, deepseek, google) the messages come back as they are.
 *
 *   const { breakpoints } = cacheBreakpoints(session, model, { draft, cache: cacheProfile('anthropic-5m') });
 *   messages: applyCacheBreakpoints(await convertToModelMessages(uiMessages), { provider: 'anthropic', breakpoints, messages: uiMessages })
 *
 * @template {MarkableModelMessage} M
 * @param {M[]} modelMessages what convertToModelMessages made of `messages`
 * @param {{ provider: CacheProvider, breakpoints: Array<{ index: number }> | { breakpoints: Array<{ index: number }> }, messages: unknown[], ttl?: '5m' | '1h' }} options
 *   `messages`: the UIMessages the breakpoints' indices count (the projection, then the draft); `ttl`: Anthropic's cache lifetime
 * @returns {M[]} the ModelMessages with the provider's cache marks at the breakpoints (a new array; input unchanged)
 */
export function applyCacheBreakpoints(modelMessages, options) {
  if (!Array.isArray(modelMessages)) throw codedError('invalid-options', 'applyCacheBreakpoints: modelMessages must be the array convertToModelMessages made');
  if (!options || typeof options !== 'object') throw codedError('invalid-options', 'applyCacheBreakpoints: options must be { provider, breakpoints, messages }');
  checkProvider(options.provider);
  const marks = Array.isArray(options.breakpoints) ? options.breakpoints : options.breakpoints?.breakpoints;
  if (!Array.isArray(marks)) throw codedError('invalid-options', 'applyCacheBreakpoints: breakpoints must be what cacheBreakpoints returned');
  if (!Array.isArray(options.messages)) throw codedError('invalid-options', 'applyCacheBreakpoints: messages must be the UIMessages that were converted');
  const mark = MARKED[/** @type {keyof typeof MARKED} */ (options.provider)];
  if (!mark) return [...modelMessages];
  const ends = messageEnds(modelMessages, options.messages);
  const out = [...modelMessages];
  const provider = options.provider;
  for (const { index } of marks) {
    const end = Number.isInteger(index) ? ends[index] : undefined;
    const at = end === undefined || end < 0 ? -1 : markAt(out, end, provider);
    if (at < 0) continue;
    out[at] = marked(out[at], provider, mark(options));
  }
  return out;
}

/**
 * streamText's `prepareStep` for the steps of a multi-step turn (tool calls answered within it):
 * from step 1 on, a mark on the request's last message, so each step reads the prefix the step
 * before it wrote instead of sending every earlier tool result uncached. The turn's own marks stay;
 * at the limit the mark nearest the end gives way (the provider finds its prefix from the new mark,
 * a few blocks later). Nothing for an implicit cache.
 * @param {CacheProvider} provider @param {{ ttl?: '5m' | '1h' }} [options]
 * @returns {CacheStepMarks | undefined}
 */
export function cacheStepMarks(provider, options = {}) {
  checkProvider(provider);
  const mark = MARKED[/** @type {keyof typeof MARKED} */ (provider)];
  if (!mark) return undefined;
  /** @type {CacheStepMarks} */
  const marks = ({ stepNumber, messages }) => {
    if (!(stepNumber > 0) || !Array.isArray(messages) || messages.length === 0) return undefined;
    const out = [...messages];
    const last = markAt(out, out.length - 1, provider);
    if (last < 0) return undefined;
    let count = out.filter((message) => isMarked(message, provider)).length - (isMarked(out[last], provider) ? 1 : 0);
    for (let at = last - 1; count >= MAX_MARKS && at >= 0; at--) {
      if (isMarked(out[at], provider)) {
        out[at] = unmarked(out[at], provider);
        count--;
      }
    }
    out[last] = marked(out[last], provider, mark(options));
    return { messages: out };
  };
  return marks;
}

/**
 * The session's prompt-cache key for providers that route by one (OpenAI's `promptCacheKey`): one
 * per session, never given to the summary request (its prefix is unique, a write there is never read).
 * @param {string} sessionId
 */
export function sessionCacheKey(sessionId) {
  if (typeof sessionId !== 'string' || sessionId === '') throw codedError('invalid-options', 'sessionCacheKey: sessionId must be a non-empty string');
  return `bibgenie:${sessionId}`;
}

/**
 * Call options for the chat request: `{ providerOptions: { openai: { promptCacheKey } } }` for
 * OpenAI, nothing for the others (their marks are on the messages).
 * @param {CacheProvider} provider @param {string} sessionId
 * @returns {PromptCacheCallOptions}
 */
export function promptCacheCallOptions(provider, sessionId) {
  checkProvider(provider);
  return provider === 'openai' ? { providerOptions: { openai: { promptCacheKey: sessionCacheKey(sessionId) } } } : {};
}
