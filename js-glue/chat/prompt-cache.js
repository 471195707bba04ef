// Cache breakpoints on what is sent. `cacheBreakpoints` (the wasm core) says after which messages of
// the request (the projection, then the draft) a mark belongs; these helpers put the marks on the
// ModelMessage[] the app gets from `convertToModelMessages`, in each provider's own option, since a
// UIMessage cannot carry a message-level mark. Implicit caches (OpenAI, DeepSeek, Google) need no
// mark; OpenAI takes a `promptCacheKey` per call instead (`promptCacheCallOptions`).

import { codedError } from '../util/coded-error.js';

/** Providers whose marks these helpers write; the others cache implicitly. */
const MARKED = {
  anthropic: (/** @type {{ ttl?: '5m' | '1h' }} */ options) => ({ cacheControl: { type: 'ephemeral', ...(options.ttl ? { ttl: options.ttl } : {}) } }),
  bedrock: () => ({ cachePoint: { type: 'default' } }),
  openrouter: () => ({ cacheControl: { type: 'ephemeral' } }),
};
const IMPLICIT = new Set(['openai', 'deepseek', 'google', 'implicit']);

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
 * @param {any[]} modelMessages what convertToModelMessages made of `messages`
 * @param {{ provider: string, breakpoints: Array<{ index: number }> | { breakpoints: Array<{ index: number }> }, messages: any[], ttl?: '5m' | '1h' }} options
 *   `messages`: the UIMessages the breakpoints' indices count (the projection, then the draft); `ttl`: Anthropic's cache lifetime
 * @returns {any[]}
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
    const at = Number.isInteger(index) ? ends[index] : undefined;
    if (at === undefined || at < 0) continue;
    const message = out[at];
    const own = message.providerOptions ?? {};
    out[at] = { ...message, providerOptions: { ...own, [provider]: { ...(own[provider] ?? {}), ...mark(options) } } };
  }
  return out;
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
 * @param {string} provider @param {string} sessionId
 * @returns {{ providerOptions?: Record<string, Record<string, unknown>> }}
 */
export function promptCacheCallOptions(provider, sessionId) {
  checkProvider(provider);
  return provider === 'openai' ? { providerOptions: { openai: { promptCacheKey: sessionCacheKey(sessionId) } } } : {};
}
