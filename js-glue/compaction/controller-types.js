// The types of the controller (written once here; the build emits their declarations): its state,
// what submit answers and takes, and its options.
export {};

/**
 * @import { UIMessage } from '../ai-types.js'
 * @import { CacheBreakpointOptions, CacheBreakpoints, CacheProfile, CompactionMode, Draft, ModelProfile, Overhead, Plan, SessionStore, Summarize, SummaryRequest } from '../bibgenie_compaction.js'
 * @import { AbortSignalLikeController } from '../util/abort-signal.js'
 * @import { CompactOutcome } from './runner.js'
 * @import { ResolveItem } from './resolve-items.js'
 */
/**
 * The controller's state: `idle` (with the last outcome), `compacting` (with `cancel` and, for a status
 * line, the counts of the plan being carried out) or `failed`.
 * @typedef {{ status: 'idle', outcome?: CompactOutcome }
 *   | { status: 'compacting', mode: CompactionMode, cancel: () => boolean, foldedMessages?: number, tokensBefore?: number, tokensAfterEstimate?: number }
 *   | { status: 'failed', mode: CompactionMode, reason: string, message: string, outcome: CompactOutcome }} CompactionState
 */
/**
 * `send`: the projection followed by the draft, ready for the model; only when the request fits (after a
 * preflight compaction it is estimated again; `too-large` with reason `too-large-after-compaction` when it
 * still does not fit). `stored` when the draft was already the session's leaf (persisted before
 * submit): then the projection ends with it and it is not appended again. A draft whose id is
 * elsewhere in the session is refused: `failed` with reason `draft-already-stored`. Otherwise the
 * draft comes back untouched; `cancelled`/`failed` also when the compaction the submit waited for
 * (manual, after-turn or its own) was cancelled or failed.
 *
 * `responseParentId`: where the response goes (append it with this `parentId`): the draft's id, or,
 * when the draft was stored before the send and a preflight compacted, the checkpoint appended after
 * it (so the checkpoint stays on the branch). A continuation (the draft is the stored assistant
 * message) updates that message in place instead. `cacheBreakpoints`: the cache marks of what is
 * sent, when the submit asked for them, from the read that made `messages`.
 *
 * A send that fits is planned in one read of the session (the store-held index of the package's
 * stores: no load, no runner call). Its `outcome` is the runner's `noop` (same plan), whose
 * `session.nodes` is parsed when first read on a store's index (`leafId` and `branchRevision` are
 * plain fields). On the package's stores `messages` are the store's: each message, its `parts` array
 * and its parts are new objects on every send; what the parts hold (tool inputs and outputs,
 * provider metadata) and the message's `metadata` are shared between sends and frozen (replace
 * them, never change them in place).
 * @typedef {{ status: 'send', messages: UIMessage[], draft: Draft, outcome: CompactOutcome, stored?: true, responseParentId: string, cacheBreakpoints?: CacheBreakpoints['breakpoints'] }
 *   | { status: 'too-large' | 'cancelled' | 'failed', reason: string, message?: string, draft: Draft, outcome?: CompactOutcome }} SubmitResult
 */
/** @typedef {'retry' | 'edit' | 'fork' | 'switch-model' | 'compact' | 'edit-draft' | 'submit'} ControllerAction */
/**
 * @typedef {object} SubmitOptions
 * @property {Overhead} [overhead] What this request carries besides the session (`{ system, tools }` or `{ tokens }`): replaces the controller's for this send.
 * @property {CacheBreakpointOptions} [cacheBreakpoints] Asks for the cache marks of what is sent (the options of `cacheBreakpoints`): `SubmitResult.cacheBreakpoints`.
 */
/**
 * @typedef {object} CompactionControllerOptions
 * @property {SessionStore} store
 * @property {string} sessionId
 * @property {ModelProfile} model
 * @property {Summarize} summarize
 * @property {Overhead} [overhead] What each model request carries besides the session (system prompt, tools).
 * @property {(state: CompactionState) => void} [onStatus]
 * @property {CacheProfile} [cache] The provider's prompt cache: plans report `cache` and `cost`, and a cold cache compacts from 3/4 of the threshold.
 * @property {() => number} [now] The clock (default `Date.now`): the cache state, and the `createdAt` the transport stamps on a response.
 * @property {boolean} [backgroundCompaction] With `cache`: run the automatic check again once the cache's lifetime has passed with no new message.
 * @property {ResolveItem} [resolveItem] The app's numeric item ids (`itemId`, `itemID`, `contextItemId` in what a compaction folds) to `{ libraryID, key }`, for the ledger and the cited pages; a throw leaves that id unresolved.
 */
/**
 * What a planning read found (the controller's, not public): the outcome that ends the run (for a
 * send that fits, with the projection's messages and the cache marks asked for), or the plan and
 * request to compact with.
 * @typedef {{ outcome: CompactOutcome, plan?: Plan, messages?: UIMessage[], breakpoints?: unknown[] } | { outcome?: undefined, plan: Plan, request?: SummaryRequest }} Planned
 */
/**
 * A compaction run of the controller (not public): shared with the other controllers of the session.
 * @typedef {{ mode: CompactionMode, owner: object, abort: AbortSignalLikeController, promise: Promise<CompactOutcome>, announced: boolean, plan?: Plan, messages?: UIMessage[], breakpoints?: unknown[], prepared: Planned | null }} Run
 */
