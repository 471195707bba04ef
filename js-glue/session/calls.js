// The package's pure session calls: each reads the session it is given into a SessionIndex held for
// that one call (node by node, as `SessionIndex.from` reads; the session's own errors when it cannot)
// and answers from it, so a stateless call and a held index are one path. Node by node, no text of
// the whole session is made: at 10,000 messages the cold call costs about two thirds of one through
// the session's whole text, and the wasm memory does not grow by that text. Nodes handed back are the
// caller's own objects. For repeated calls on one session, hold it: `SessionIndex.from(session)`.
import { onSession } from './session-read.js';

/**
 * @import { BranchReadResult, CacheBreakpointOptions, CacheBreakpoints, CommitCheck, EditTarget, Estimate, EstimateOptions, ForkCheck, ModelProfile, Plan, PlanOptions, Projection, RetryTarget, Session, SessionNode, SummaryRequest, SummaryRequestOptions } from '../bibgenie_compaction.js'
 */

/** The model projection: the summary message, then the caller's message objects. @param {Session} session @returns {Projection} */
export function project(session) {
  return onSession(session, (index) => index.project());
}

/** The active branch, root first: the caller's node objects. @param {Session} session @returns {SessionNode[]} */
export function history(session) {
  return onSession(session, (index) => index.history());
}

/** The active branch with its integrity problems; `nodes` are the caller's node objects. @param {Session} session @returns {BranchReadResult} */
export function readBranch(session) {
  return onSession(session, (index) => index.readBranch());
}

/**
 * The tokens the model would be sent for the session's projection (with `draft` and `overhead`).
 * @param {Session} session @param {ModelProfile} model @param {EstimateOptions} [options] @returns {Estimate}
 */
export function estimate(session, model, options) {
  return onSession(session, (index) => index.estimate(model, options));
}

/**
 * Whether to compact now (`mode`: manual, auto after a turn, preflight before a send), and where.
 * @param {Session} session @param {ModelProfile} model @param {PlanOptions} options @returns {Plan}
 */
export function plan(session, model, options) {
  return onSession(session, (index) => index.plan(model, options));
}

/**
 * Where the request (the projection's messages, then the draft) should carry cache marks.
 * @param {Session} session @param {ModelProfile} model @param {CacheBreakpointOptions} [options] @returns {CacheBreakpoints}
 */
export function cacheBreakpoints(session, model, options) {
  return onSession(session, (index) => index.cacheBreakpoints(model, options));
}

/**
 * What the summarizer is asked for a compacting `plan` made on this session; `options.items`: the
 * app's numeric item ids resolved.
 * @param {Session} session @param {Plan} plan @param {ModelProfile} model @param {SummaryRequestOptions} [options] @returns {SummaryRequest}
 */
export function summaryRequest(session, plan, model, options) {
  return onSession(session, (index) => index.summaryRequest(plan, model, options));
}

/**
 * `{ ok: true }` when a summary made on `plan` may be committed onto `freshSession` (read inside the
 * store's transaction), otherwise `{ ok: false, reason }`.
 * @param {Session} freshSession @param {Plan} plan @returns {CommitCheck}
 */
export function checkCommit(freshSession, plan) {
  return onSession(freshSession, (index) => index.checkCommit(plan));
}

/** The newest conversational assistant message and its parent (a retry answers under it), or null. @param {Session} session @returns {RetryTarget | null} */
export function retryTarget(session) {
  return onSession(session, (index) => index.retryTarget());
}

/** The newest real user message and its parent (an edit is its sibling), or null. @param {Session} session @returns {EditTarget | null} */
export function editTarget(session) {
  return onSession(session, (index) => index.editTarget());
}

/** Whether a fork may start at `nodeId`: only stable assistant messages. @param {Session} session @param {string} nodeId @returns {ForkCheck} */
export function canFork(session, nodeId) {
  return onSession(session, (index) => index.canFork(nodeId));
}
