// The draft of a send, as the controller's submit reads it: the message to send, where it already
// is in the session, and the result when the send is interrupted.
import { randomHex } from '../util/random-id.js';
import { codedError } from '../util/coded-error.js';
import { checkOverheadCounts } from './counts.js';

/**
 * @import { UIMessage } from '../ai-types.js'
 * @import { CacheBreakpointOptions, Draft, Overhead } from '../bibgenie_compaction.js'
 * @import { CompactOutcome } from './runner.js'
 * @import { SubmitResult } from './controller-types.js'
 * @import { SessionIndex } from '../session/session-index.js'
 */

/**
 * The draft as the message to send: a UIMessage is used as given (same object, not copied or
 * changed); text becomes a user message with one text part and a 24-hex-digit id.
 * @param {Draft} draft @returns {UIMessage}
 */
export function draftMessage(draft) {
  if (typeof draft === 'string') return { id: 'draft_' + randomHex(12), role: 'user', parts: [{ type: 'text', text: draft }] };
  return /** @type {UIMessage} */ (draft); // an id-less draft message is sent as the app gave it
}

/** The id of a draft given as a UIMessage, else undefined. @param {unknown} draft */
export function draftIdOf(draft) {
  const id = draft && typeof draft === 'object' ? /** @type {any} */ (draft).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Where a draft's id is in the session: `leaf` (persisted before submit, sent from the store),
 * `elsewhere` (refused), or false (new).
 * @param {SessionIndex} index @param {string | undefined} id @returns {'leaf' | 'elsewhere' | false}
 */
export function storedIn(index, id) {
  if (id === undefined) return false;
  return index.leafId === id ? 'leaf' : index.has(id) ? 'elsewhere' : false;
}

/**
 * A submit whose compaction (its own, or the one it waited for) was cancelled or failed: nothing is
 * sent, the draft comes back as given.
 * @template {Draft} D
 * @param {CompactOutcome} outcome a `cancelled` or `failed` outcome
 * @param {D} draft
 * @returns {SubmitResult & { draft: D }}
 */
export function interruptedSubmit(outcome, draft) {
  const o = /** @type {any} */ (outcome);
  if (o.status === 'cancelled') return { status: 'cancelled', reason: o.reason, draft, outcome };
  return { status: 'failed', reason: o.reason, message: o.message ?? o.reason, draft, outcome };
}

/**
 * A call's options (`{ overhead, cacheBreakpoints }`), checked; the overhead falls back to the controller's.
 * @param {unknown} options @param {Overhead | undefined} fallback
 * @returns {{ overhead: Overhead | undefined, cacheBreakpoints: CacheBreakpointOptions | undefined }}
 */
export function callOptions(options, fallback) {
  if (options === undefined || options === null) return { overhead: fallback, cacheBreakpoints: undefined };
  if (typeof options !== 'object') throw codedError('invalid-options', 'the options must be an object ({ overhead, cacheBreakpoints })');
  const { overhead, cacheBreakpoints } = /** @type {any} */ (options);
  if (overhead !== undefined) checkOverheadCounts(overhead, 'overhead option');
  if (cacheBreakpoints !== undefined && (cacheBreakpoints === null || typeof cacheBreakpoints !== 'object')) {
    throw codedError('invalid-options', 'cacheBreakpoints must be the options of cacheBreakpoints ({ cache?, overhead? })');
  }
  return { overhead: overhead ?? fallback, cacheBreakpoints };
}
