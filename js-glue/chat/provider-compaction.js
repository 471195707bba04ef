// The providers' own on-demand compaction as a summarizer (issue 39; docs/provider-compaction.md):
// what createAiSdkSummarizer's `providerCompaction` adds to the summary request, and how it reads
// the provider's block or item out of generateText's result. The checkpoint keeps that part beside
// the readable summary; the projection sends it first, as the provider requires.
import { extractiveSummaryInSlices } from '../compaction/extractive-slices.js';
import { codedError } from '../util/coded-error.js';

/** @typedef {'anthropic' | 'openai'} CompactingProvider */
/** @import { AbortSignalLike } from '../bibgenie_compaction.js' */

/**
 * The provider options asking for the compaction: Anthropic's `compaction: { type: 'summarize' }`
 * (beta `compact-2026-09-04`, @ai-sdk/anthropic 4) with the request's system prompt as its
 * instructions; OpenAI's `compactionTrigger` (a `compaction_trigger` input item, @ai-sdk/openai 4).
 * Merged into the app's own provider options (`base`).
 * @param {CompactingProvider} provider @param {{ system: string }} request @param {unknown} base
 */
export function compactionOptions(provider, request, base) {
  const given = base !== null && typeof base === 'object' ? /** @type {Record<string, any>} */ (base) : {};
  const own = given[provider] !== null && typeof given[provider] === 'object' ? given[provider] : {};
  const asked = provider === 'anthropic' ? { compaction: { type: 'summarize', instructions: request.system } } : { compactionTrigger: true };
  return { ...given, [provider]: { ...own, ...asked } };
}

/**
 * `{ summary, providerPart }` from generateText's result: Anthropic's block is readable (its text is
 * the summary); OpenAI's item is not, so the readable summary is the package's own extractive one,
 * made in slices (a round on a 1M-token window is megabytes of history).
 * @param {CompactingProvider} provider @param {any} result @param {any} request @param {AbortSignalLike} [signal]
 * @returns {Promise<{ summary: string, providerPart: Record<string, unknown> }>}
 */
export async function readCompaction(provider, result, request, signal) {
  /** @type {any[]} */
  const content = Array.isArray(result?.content) ? result.content : [];
  if (provider === 'anthropic') {
    const block = content.find((p) => p?.type === 'text' && p.providerMetadata?.anthropic?.type === 'compaction' && typeof p.text === 'string');
    if (block) return { summary: block.text, providerPart: { type: 'text', text: block.text, state: 'done', providerMetadata: block.providerMetadata } };
  } else {
    const item = content.find((p) => p?.type === 'custom' && p.kind === 'openai.compaction');
    if (item) return { summary: await extractiveSummaryInSlices(request, signal), providerPart: { type: 'custom', kind: item.kind, providerMetadata: item.providerMetadata } };
  }
  throw codedError('invalid-summary', `summarize: the ${provider} response holds no compaction ${provider === 'anthropic' ? 'block' : 'item'} (does the model and its AI SDK provider package support on-demand compaction?)`);
}
