// project, history, readBranch, estimate and plan as the package exports them. The wasm answers
// with positions, and the arrays are built here from the caller's own node objects (no copy of
// every node through JSON on the way out). Calls go through a hidden index held for the same node
// objects (session-index.js), so a repeated call sends only what is new; a session it cannot hold
// is read from its text as before, with the same errors. The input is not mutated; arrays are new.
import {
  cacheBreakpoints as cacheBreakpointsText, estimate as estimateText, historyPositions, plan as planText, projectPositions,
  readBranchPositions,
} from '../bibgenie_compaction.js';
import { branchFrom, heldIndexFor, projectionFrom } from './session-index.js';

/** @import { CacheBreakpointOptions, EstimateOptions, ModelProfile, PlanOptions, Session } from '../bibgenie_compaction.js' */

/** The model projection: the summary message, then the caller's message objects (same errors as before). @param {Session} session */
export function project(session) {
  const index = heldIndexFor(session);
  if (index) return index.project();
  return projectionFrom(projectPositions(session), session.nodes);
}

/** The active branch, root first: the caller's node objects. @param {Session} session */
export function history(session) {
  const index = heldIndexFor(session);
  if (index) return index.history();
  const positions = historyPositions(session);
  const nodes = session.nodes;
  return positions.map((i) => nodes[i]);
}

/** The active branch with its integrity problems; `nodes` are the caller's node objects. @param {Session} session */
export function readBranch(session) {
  const index = heldIndexFor(session);
  if (index) return index.readBranch();
  return branchFrom(readBranchPositions(session), session.nodes);
}

/**
 * `estimate(session, model, options?)`; errors about the model or options are the same either way.
 * @param {Session} session @param {ModelProfile} model @param {EstimateOptions} [options]
 */
export function estimate(session, model, options) {
  const index = heldIndexFor(session);
  return index ? index.estimate(model, options) : estimateText(session, model, options);
}

/**
 * `plan(session, model, options)`.
 * @param {Session} session @param {ModelProfile} model @param {PlanOptions} options
 */
export function plan(session, model, options) {
  const index = heldIndexFor(session);
  return index ? index.plan(model, options) : planText(session, model, options);
}

/**
 * `cacheBreakpoints(session, model, options?)`: where the request's cache marks go.
 * @param {Session} session @param {ModelProfile} model @param {CacheBreakpointOptions} [options]
 */
export function cacheBreakpoints(session, model, options) {
  const index = heldIndexFor(session);
  return index ? index.cacheBreakpoints(model, options) : cacheBreakpointsText(session, model, options);
}

export { SessionIndex } from './session-index.js';
