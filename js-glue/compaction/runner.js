// The async compaction runner over JS callbacks: `compact(options) -> Promise<CompactOutcome>`.
// It is the only code that awaits JS, so it lives here; every step that reads or decides is a wasm
// call on a SessionIndex (the store's held one, or the session loaded read once into one):
// `planOn` plans and builds the summary request; `settleSummary` repairs an invalid summary (or
// falls back to the extractive one); checkpointNode applies the summary's budget and validates it;
// checkCommit decides the commit: on the store's held index, read just before `store.transaction`
// and valid when the transaction's session has the head it checked, else on the session read
// inside the transaction. The controller runs the same steps (`readOptions`,
// `readPlanned` with its own planning, `summarizeAndCommit`).
//
// Rejects only for unusable options (`invalid-options`, `invalid-model`); everything that goes
// wrong later resolves as an outcome, and `cancelled`/`failed` wrote nothing. Works in Zotero's
// plugin sandbox: no AbortController, console, queueMicrotask or structuredClone.
import { SessionIndex, checkpointNode } from '../bibgenie_compaction.js';
import { codedError, messageOf } from '../util/coded-error.js';
import { readSession } from '../session/session-read.js';
import { checkCommit } from '../session/calls.js';
import { requestParts } from '../session/session-index.js';
import { pause } from '../util/pause.js';
import { attempt, callMethod, get, isObject, plainCopy } from '../util/caller-calls.js';
import { isAborted, neverAbortingSignal, raced } from '../util/abort-signal.js';
import { resolveItems } from './resolve-items.js';
import { readOptions } from './run-options.js';

/** Requests whose prompt has this many characters are summarized with a pause before and after (about 10 ms of work each). */
const PAUSE_FROM_CHARS = 1 << 18;
/** Folds from this many estimated tokens (about PAUSE_FROM_CHARS of text) get their first request in a read of its own. */
const OWN_READ_FROM_TOKENS = 1 << 16;
/** Most reads a round's request is built in, in parts, before it is built whole (a round's history, ledger and cited pages in steps of about 256 KB each: a 200k window's about ten, a 1M window's about forty-five). */
const MAX_REQUEST_PARTS = 256;

/**
 * @import { AbortSignalLike, CacheProfile, CheckpointNode, CommitCheck, CommitRefusal, CompactionMode, Draft, ErrorCode, ModelProfile, Overhead, Plan, PlanOptions, PlanReason, ResolvedItem, Session, SessionStore, Summarize, SummaryRepair, SummaryRequest, SummaryRequestOptions, SummaryRound } from '../bibgenie_compaction.js'
 * @import { InternalSessionIndexClass } from '../wasm-internals.js'
 * @import { SessionIndex as HeldIndex } from '../session/session-index.js'
 * @import { Run } from './run-options.js'
 * @import { ResolveItem } from './resolve-items.js'
 */
/**
 * @typedef {object} CompactOptions
 * @property {SessionStore} store
 * @property {string} sessionId
 * @property {ModelProfile} model
 * @property {CompactionMode} [mode] Default 'manual'.
 * @property {Draft} [draft] The message about to be sent (preflight): kept verbatim, never summarized.
 * @property {Overhead} [overhead] What the request carries besides the session.
 * @property {CacheProfile} [cache] The provider's prompt cache and the time in ms (plan options `cache` and `now`).
 * @property {number} [now]
 * @property {Summarize} summarize
 * @property {AbortSignalLike} [signal]
 * @property {ResolveItem} [resolveItem] The app's numeric item ids (`itemId`, `itemID`, `contextItemId` in the folded messages) to `{ libraryID, key }`, for the ledger and the cited pages.
 */
/** @typedef {'committed' | 'noop' | 'stale' | 'cancelled' | 'failed' | 'too-large'} CompactStatus */
/**
 * The result of `compact`, by status. Only `committed` wrote anything: the checkpoint was appended
 * and is the leaf, `session` the durable session now; `summaryRepair` says that the summarizer's
 * text was invalid (`problem`) and what was committed instead: that text under the eight sections
 * (`kept`), or, when nothing usable came back, the embedded extractive summary (`embedded`).
 * `noop`: nothing to do; `too-large`: the draft cannot fit even after compacting (`session` is the
 * one planned on). `stale`: the session moved while summarizing; the summary was discarded and
 * `session` is the fresh one. `cancelled`: through the signal (`error`: what was thrown meanwhile,
 * if anything). `failed`: `reason` 'store-failed', 'summarizer-failed' or an error code
 * ('invalid-summary' for a summary that is not a string, 'summary-over-budget', ...).
 * @typedef {{ status: 'committed', reason: PlanReason, plan: Plan, session: Session, checkpoint: CheckpointNode, summaryRepair?: SummaryRepair }
 *   | { status: 'noop' | 'too-large', reason: PlanReason, plan: Plan, session: Session }
 *   | { status: 'stale', reason: CommitRefusal, plan: Plan, session: Session }
 *   | { status: 'cancelled', reason: 'aborted', error?: unknown }
 *   | { status: 'failed', reason: 'store-failed' | 'summarizer-failed' | ErrorCode | (string & {}), message: string, error?: unknown }} CompactOutcome
 */
/**
 * @typedef {{ outcome: CompactOutcome } | { outcome?: undefined, plan: Plan, request?: SummaryRequest }} Prepared
 * @typedef {{ verdict: CommitCheck, leafId: string, branchRevision: number }} HeldCheck
 * The request as it was before a summarizer could change it: its JSON text with an empty history and
 * prompt, and its history (what an invalid summary's embedded one reads).
 * @typedef {{ fields: string, history: string }} TakenRequest
 */

const STORE_FAILED = 'store-failed';
const UNKNOWN_SESSION = 'unknown-session';
const SUMMARIZER_FAILED = 'summarizer-failed';
const ABORTED = 'aborted';

/**
 * Runs one compaction: load, plan, summarize, then the version-conditional commit inside
 * `store.transaction`. Rejects only for unusable options (`invalid-options`, `invalid-model`);
 * everything later resolves as an outcome, and `cancelled`/`failed` wrote nothing.
 * @param {CompactOptions} options `{ store, sessionId, model, mode?, draft?, overhead?, summarize, signal? }`
 * @returns {Promise<CompactOutcome>}
 */
export async function compact(options) {
  const run = readOptions(options);
  const prepared = await readPlanned(run, (index) => planOn(index, run.model, run.planOptions));
  return prepared.outcome ?? summarizeAndCommit(run, prepared);
}

/**
 * The plan on `index` and, unless the fold is large, its first summary request; or the outcome
 * that ends the run (`noop`, `too-large`, or `failed` for a core error).
 * @param {HeldIndex} index @param {ModelProfile} model @param {PlanOptions} planOptions @returns {Prepared}
 */
export function planOn(index, model, planOptions) {
  try {
    const plan = index.plan(model, planOptions);
    if (plan.send === 'too-large') return { outcome: outcome('too-large', plan.reason, { plan, session: index.toSession() }) };
    if (plan.action !== 'compact') return { outcome: outcome('noop', plan.reason, { plan, session: index.toSession() }) };
    // A large fold's request is built in a read of its own, after a pause (summarizeAndCommit).
    return plan.tokensBefore >= OWN_READ_FROM_TOKENS ? { plan } : { plan, request: index.summaryRequest(plan, model) };
  } catch (error) {
    return { outcome: failed(error) };
  }
}

/**
 * `prepare(index)` in one read of the session (the store's held index, else one load), raced
 * against the run's signal; the outcome that ends the run when the read fails or is cancelled.
 * @template {object} P
 * @param {Run} run @param {(index: HeldIndex) => P} prepare @param {{ index: HeldIndex | null }} [kept] readSession's
 * @returns {Promise<P | { outcome: CompactOutcome }>}
 */
export async function readPlanned(run, prepare, kept) {
  const read = await readSession(run.store, run.sessionId, prepare, { wait: (promise) => raced(run.signal, promise), kept });
  if ('stopped' in read) return { outcome: cancelled() };
  if ('failed' in read) return { outcome: failedThrown(STORE_FAILED, `store.${read.failed} failed`, read.error) };
  if ('invalid' in read) return { outcome: failed(read.invalid) };
  return /** @type {P} */ ('value' in read ? read.value : { outcome: failed(codedError('internal', 'no session was read')) });
}

/**
 * Summarizes with the request, then builds and commits the checkpoint: the steps after planning,
 * also for a caller that planned in its own read (the controller). A fold one request cannot hold
 * (rule `fold-fits-the-summarizer`: the request says where the next round starts, `continuesAt`) is
 * summarized round by round, each round into the checkpoint built from the one before (never
 * committed); only the last round's checkpoint is committed. A request the plan's read did not
 * build (a large fold's, a later round's) is built in a read of its own after a pause, so the page
 * or Zotero's window runs between the plan and each round. A store without a held index is loaded
 * once for the rounds (once per round read the whole session each time): whether that session moved
 * is then checked at the commit only.
 * @param {Run} run @param {{ plan: Plan, request?: SummaryRequest }} prepared @returns {Promise<CompactOutcome>}
 */
export async function summarizeAndCommit(run, prepared) {
  /** @type {{ index: HeldIndex | null }} */
  const kept = { index: null };
  try {
    return await summarizeInRounds(run, prepared, kept);
  } finally {
    kept.index?.free();
  }
}

/** @param {Run} run @param {{ plan: Plan, request?: SummaryRequest }} prepared @param {{ index: HeldIndex | null }} kept */
async function summarizeInRounds(run, { plan, request: planned }, kept) {
  /** @type {SummaryRound | undefined} */
  let round;
  /** @type {{ request: SummaryRequest, taken?: TakenRequest } | undefined} */
  let built = planned && { request: planned };
  for (;;) {
    if (!built) {
      const next = await requestInParts(run, plan, round, undefined, kept);
      if (next.outcome) return next.outcome;
      built = next;
    }
    const made = await summarizeRound(run, plan, built, round, kept);
    if (made.outcome) return made.outcome;
    const from = made.continuesAt;
    if (from === undefined) {
      const large = plan.tokensBefore >= OWN_READ_FROM_TOKENS;
      // The checkpoint took its task; the commit's check and writes take one of their own. After
      // it, a store whose index catches up at its next read takes the checkpoint in another, and
      // the caller's next read (the controller's estimate of the send) in a third.
      if (large) await pause();
      if (isAborted(run.signal)) return cancelled();
      const committed = await commit(run, plan, made.node, made.repair);
      if (large) {
        await pause();
        if (committed.status === 'committed') await readSession(run.store, run.sessionId, () => null, { load: false });
        await pause();
      }
      return committed;
    }
    round = { from, previous: made.node.checkpoint };
    built = undefined;
  }
}

/**
 * A round's request (with the app's `items` when given) in parts: its history in steps, its ledger,
 * its cited pages, its other registers, the request, each in a read after a pause, then taken in
 * one more, with its text as taken. Parts that cannot go on (the session changed, an index new at this
 * read) are not taken, and the request is then built whole; or the outcome that ends the run.
 * @param {Run} run @param {Plan} plan @param {SummaryRound | undefined} round @param {Record<number, ResolvedItem> | undefined} items
 * @param {{ index: HeldIndex | null }} kept
 * @returns {Promise<{ request: SummaryRequest, taken?: TakenRequest, outcome?: undefined } | { outcome: CompactOutcome }>}
 */
async function requestInParts(run, plan, round, items, kept) {
  const options = round || items ? { ...(items ? { items } : {}), ...(round ? { round } : {}) } : undefined;
  for (let step = 0, number = 0, more = true; ; step++) {
    await pause();
    if (isAborted(run.signal)) return { outcome: cancelled() };
    if (more && step < MAX_REQUEST_PARTS) {
      const part = await readPlanned(run, (index) => prepareRoundOn(index, run, plan, options, number), kept);
      if (part.outcome) return { outcome: part.outcome };
      ({ number, more } = part);
      continue;
    }
    // The last step (roundRequestOn) answers with the request or an outcome.
    return readPlanned(run, (index) => roundRequestOn(index, run, plan, options, number), kept);
  }
}

/**
 * One round: the request with the app's item ids resolved, the summary, the checkpoint node it
 * makes (the summary repaired when invalid) and where the next round starts, or the outcome that
 * ends the run.
 * @param {Run} run @param {Plan} plan @param {{ request: SummaryRequest, taken?: TakenRequest }} planned the request, and its text when taken in parts
 * @param {SummaryRound | undefined} round @param {{ index: HeldIndex | null }} kept
 * @returns {Promise<{ node: CheckpointNode, repair?: SummaryRepair, continuesAt?: number, outcome?: undefined } | { outcome: CompactOutcome }>}
 */
async function summarizeRound(run, plan, planned, round, kept) {
  const resolved = await withResolvedItems(run, plan, planned, round, kept);
  if (resolved.outcome) return { outcome: resolved.outcome };
  const request = resolved.request;
  // A large request took its slice to build, and a summarizer that answers in the same task (the
  // embedded one) takes another to read it: the page runs between them, and before the checkpoint.
  // Every round of a large fold too: a late round's checkpoint carries the whole fold's ledger and
  // registers, however short its own request.
  const large = plan.tokensBefore >= OWN_READ_FROM_TOKENS || (typeof request.prompt === 'string' && request.prompt.length >= PAUSE_FROM_CHARS);
  // The summarizer gets the request object; what the checkpoint carries is kept apart from it
  // (the ledger and the registers built by code: a summarizer cannot change them).
  // The request too: an invalid summary falls back to the extractive summary of it: as it was taken,
  // else its other fields copied (its history and prompt are strings, which nothing can change).
  const taken = resolved.taken ?? { fields: JSON.stringify({ ...request, history: '', prompt: '' }), history: request.history };
  const ledger = JSON.stringify(request.ledger);
  const carried = JSON.stringify({ userWords: request.userWords ?? [], citedPages: request.citedPages ?? [], recallHandles: request.recallHandles ?? [] });
  const budget = request.maxOutputTokens;
  if (large) await pause();

  const summarized = await summarizeWith(run, request);
  if (summarized.outcome) return { outcome: summarized.outcome };
  if (large) await pause();
  try {
    // A model writing prose must not block every send: its text is repaired, not refused.
    const settled = /** @type {InternalSessionIndexClass} */ (/** @type {unknown} */ (SessionIndex)).settleSummary(summarized.summary, taken.fields, taken.history);
    const node = checkpointNode(plan, settled.summary, JSON.parse(ledger), budget, JSON.parse(carried));
    // Not in the generated Checkpoint type (ts-rs cannot name a UIMessage part): checked by isProviderSummary.
    if (summarized.providerPart) /** @type {any} */ (node.checkpoint).providerPart = plainCopy(summarized.providerPart);
    const continuesAt = request.continuesAt ?? undefined;
    return { node, ...(settled.repair ? { repair: settled.repair } : {}), continuesAt };
  } catch (error) {
    return { outcome: failed(error) };
  }
}

/**
 * The next part of a round's request (a step of its history, its ledger, its registers, the
 * request), kept on `index` under `number` for `roundRequestOn`, and whether a part is left; or the
 * outcome that ends the run (`stale`, as there). The first part (`number` 0) is begun with the plan
 * and the request's options (the round, the items), after the stale check; the later ones go on
 * without them crossing again (a late round's checkpoint is half a megabyte). A core error is left
 * to `roundRequestOn` to report.
 * @param {HeldIndex} index @param {Run} run @param {Plan} plan @param {SummaryRequestOptions | undefined} options @param {number} number
 * @returns {{ number: number, more: boolean, outcome?: undefined } | { outcome: CompactOutcome }}
 */
function prepareRoundOn(index, run, plan, options, number) {
  try {
    // Checked once: a session that moves afterwards drops the parts, so none goes on.
    if (number !== 0) return { number, more: requestParts.next(index, number) };
    const verdict = /** @type {CommitCheck} */ (index.checkCommit(plan));
    if (!verdict.ok) return { outcome: outcome('stale', verdict.reason, { plan, session: index.toSession() }) };
    return { number: requestParts.begin(index, plan, run.model, options), more: true };
  } catch {
    // The same error again from summaryRequest, which reports it.
    return { number: 0, more: false };
  }
}

/**
 * The request of a round on `index`: the one built in parts under `number` (the session unchanged
 * since their stale check), else built whole; or the outcome that ends the run: `stale` as soon as
 * the session moved (no more summarizer calls for it), `failed` for a core error.
 * @param {HeldIndex} index @param {Run} run @param {Plan} plan @param {SummaryRequestOptions | undefined} options @param {number} number
 * @returns {{ request: SummaryRequest, taken?: TakenRequest, outcome?: undefined } | { outcome: CompactOutcome }}
 */
function roundRequestOn(index, run, plan, options, number) {
  try {
    // Its long strings apart from the JSON of the rest (3 MB each on a 1M window, where parsing one
    // text holding both took the thread 25 ms and more), and kept: the request as it was before a
    // summarizer could change it.
    const parts = number !== 0 ? requestParts.take(index, number) : undefined;
    if (parts !== undefined) {
      const [fields, history, prompt] = parts;
      const request = JSON.parse(fields);
      request.history = history;
      request.prompt = prompt;
      return { request, taken: { fields, history } };
    }
    const verdict = /** @type {CommitCheck} */ (index.checkCommit(plan));
    if (!verdict.ok) return { outcome: outcome('stale', verdict.reason, { plan, session: index.toSession() }) };
    return { request: index.summaryRequest(plan, run.model, options) };
  } catch (error) {
    return { outcome: failed(error) };
  }
}

/**
 * The request again with the app's answers for the numeric item ids it lists (`resolveItem`), built
 * in parts as the request was; the request as planned when there is nothing to ask, nothing was
 * resolved or the build fails (the commit check still decides whether the session moved); the
 * outcome when the run is cancelled meanwhile or the session moved.
 * @param {Run} run @param {Plan} plan @param {{ request: SummaryRequest, taken?: TakenRequest }} planned @param {SummaryRound | undefined} round @param {{ index: HeldIndex | null }} kept
 * @returns {Promise<{ request: SummaryRequest, taken?: TakenRequest, outcome?: undefined } | { outcome: CompactOutcome }>}
 */
async function withResolvedItems(run, plan, planned, round, kept) {
  const ids = planned.request.itemIds ?? [];
  if (run.resolveItem === null || ids.length === 0) return planned;
  const items = await resolveItems(run.resolveItem, ids, (promise) => raced(run.signal, promise));
  if (Object.keys(items).length === 0 || isAborted(run.signal)) return planned;
  const again = await requestInParts(run, plan, round, items, kept);
  return again.outcome?.status === 'failed' ? planned : again;
}

/**
 * `{ summary, providerPart? }`, or `{ outcome }` (cancelled or failed). A summarizer resolves with the
 * summary's text, or (a provider's own compaction, `createAiSdkSummarizer`'s `providerCompaction`) with
 * `{ summary, providerPart }`: the readable text and the provider's block or item the checkpoint keeps.
 * @param {Run} run @param {SummaryRequest} request
 * @returns {Promise<{ summary: string, providerPart?: object, outcome?: undefined } | { outcome: CompactOutcome }>}
 */
async function summarizeWith(run, request) {
  // Cancelled before the request is made: no paid model call for a summary nobody will commit.
  if (isAborted(run.signal)) return { outcome: cancelled() };
  let result;
  try {
    const value = run.summarize.call(undefined, request, run.signal ?? neverAbortingSignal());
    result = await attempt(() => raced(run.signal, Promise.resolve(value)));
  } catch (error) {
    result = { thrown: true, error };
  }
  if (result.thrown) {
    if (isAborted(run.signal)) return { outcome: cancelledWith(result.error) };
    return { outcome: failedThrown(SUMMARIZER_FAILED, 'summarize failed', result.error) };
  }
  // Not thrown: what raced resolved with.
  const read = /** @type {{ value: unknown } | { stopped: true }} */ (result.value);
  if ('stopped' in read) return { outcome: cancelled() };
  const summary = read.value;
  if (isProviderSummary(summary)) return { summary: summary.summary, providerPart: summary.providerPart };
  if (typeof summary !== 'string') {
    return { outcome: failed(codedError('invalid-summary', `summarize resolved with ${typeOf(summary)}, not a string or { summary, providerPart }`)) };
  }
  return { summary };
}

/**
 * `{ summary, providerPart }` whose part is a provider's compaction as the AI SDK stores it: a text
 * part whose providerMetadata says `type: 'compaction'` (Anthropic), or a custom part of kind
 * `<provider>.compaction` (OpenAI). docs/provider-compaction.md.
 * @param {unknown} value
 * @returns {value is { summary: string, providerPart: Record<string, any> }}
 */
function isProviderSummary(value) {
  /** @type {any} */
  const given = value;
  const part = given?.providerPart;
  if (typeof given?.summary !== 'string' || !part || typeof part !== 'object') return false;
  if (part.type === 'custom') return typeof part.kind === 'string' && part.kind.endsWith('.compaction');
  const metadata = part.providerMetadata;
  return part.type === 'text' && typeof part.text === 'string' && Boolean(metadata) && typeof metadata === 'object'
    && Object.values(metadata).some((/** @type {any} */ m) => m?.type === 'compaction');
}

/**
 * The version-conditional commit inside `store.transaction`.
 * @param {Run} run @param {Plan} plan @param {CheckpointNode} node @param {SummaryRepair} [repair]
 * @returns {Promise<CompactOutcome>}
 */
async function commit(run, plan, node, repair) {
  const checked = await checkOnIndex(run, plan);
  /** @type {CompactOutcome | null} */
  let outcomeOfFn = null;
  let settled = false;
  const transactionFn = async (/** @type {object} */ tx) => {
    // Called after the transaction settled: that store's transaction is already over.
    if (settled) throw codedError('internal', 'compact: the transaction callback was called after the transaction settled');
    const result = await commitIn(run, plan, node, tx, checked, repair);
    // Kept here too: a store that does not hand back fn's result still reports it.
    outcomeOfFn = result;
    return result;
  };
  const done = await attempt(() => callMethod(run.store, 'transaction', [run.sessionId, transactionFn]));
  settled = true;
  if (done.thrown) {
    // A rejected transaction wrote nothing (the store rolled it back).
    if (isAborted(run.signal)) return cancelledWith(done.error);
    return failedThrown(STORE_FAILED, 'store.transaction failed', done.error);
  }
  return outcomeOfFn ?? failed(codedError('internal', 'store.transaction resolved without running fn'));
}

/**
 * The commit check on the store's held index (no session crosses into wasm), with the head it was
 * made on; null when the store has none or it cannot answer (the check then reads the session).
 * Not raced against the signal: the transaction's callback checks it first.
 * @param {Run} run @param {Plan} plan @returns {Promise<HeldCheck | null>}
 */
async function checkOnIndex(run, plan) {
  const read = await readSession(run.store, run.sessionId,
    (index) => ({ verdict: index.checkCommit(plan), leafId: /** @type {string} */ (index.leafId), branchRevision: index.branchRevision }),
    { load: false });
  return 'value' in read ? read.value : null;
}

/**
 * Runs inside the store's transaction. A throw rejects `fn`, which rolls the transaction back.
 * The held index's verdict stands when the transaction's session has the head it was made on: every
 * change to a branch (a leaf move, an update in place) raises the revision.
 * @param {Run} run @param {Plan} plan @param {CheckpointNode} node @param {object} tx @param {HeldCheck | null} checked
 * @param {SummaryRepair} [repair] @returns {Promise<CompactOutcome>}
 */
async function commitIn(run, plan, node, tx, checked, repair) {
  if (isAborted(run.signal)) return cancelled();
  const fresh = await callMethod(tx, 'load', []);
  let verdict;
  try {
    const head = /** @type {any} */ (fresh);
    const sameHead = checked !== null && isObject(fresh) && head.leafId === checked.leafId && head.branchRevision === checked.branchRevision;
    verdict = sameHead ? checked.verdict : checkCommit(fresh, plan);
  } catch (error) {
    return failed(error);
  }
  if (!verdict.ok) return outcome('stale', verdict.reason, { plan, session: fresh });
  // checkCommit found the revision the plan was made on.
  const revision = plan.basis.branchRevision + 1;
  await callMethod(tx, 'appendNode', [plainCopy(node)]);
  await callMethod(tx, 'setLeaf', [node.id, revision]);
  // Cancelled while writing: reject so the store rolls the writes back.
  if (isAborted(run.signal)) throw codedError('internal', 'compaction cancelled during the commit');
  // Not a real array (JSON-equivalent only, e.g. through toJSON): the nodes as checkCommit read them.
  const nodes = Array.isArray(fresh.nodes) ? fresh.nodes : JSON.parse(JSON.stringify(fresh)).nodes;
  // The node checkpointNode made is the run's alone (its provider part a copy), and the store has a
  // copy of its own: the outcome's, not copied again (a late fold's is half a megabyte).
  const session = { nodes: nodes.concat([node]), leafId: node.id, branchRevision: revision };
  return outcome('committed', plan.reason, repair ? { plan, session, checkpoint: node, summaryRepair: repair } : { plan, session, checkpoint: node });
}

// ---- outcomes ---------------------------------------------------------------------------------

/**
 * @param {CompactOutcome['status']} status @param {string} reason @param {object} fields
 * @returns {CompactOutcome}
 */
function outcome(status, reason, fields) {
  return /** @type {CompactOutcome} */ ({ status, reason, ...fields });
}

function cancelled() {
  return outcome('cancelled', ABORTED, {});
}

/** @param {unknown} error */
function cancelledWith(error) {
  return outcome('cancelled', ABORTED, { error });
}

/** A core error (a coded `Error` from wasm or from here) as a failed outcome. @param {any} error */
function failed(error) {
  const reason = typeof error?.code === 'string' ? error.code : 'internal';
  return outcome('failed', reason, { message: messageOf(error), error });
}

/** @param {string} reason @param {string} context @param {unknown} error */
function failedThrown(reason, context, error) {
  // A missing session is the app's mistake to name (`unknown-session`), not a failing store.
  const code = reason === STORE_FAILED && isObject(error) ? get(error, 'code') : undefined;
  return outcome('failed', code === UNKNOWN_SESSION ? UNKNOWN_SESSION : reason, { message: `${context}: ${messageOf(error)}`, error });
}


/** @param {unknown} value */
function typeOf(value) {
  return value === null ? 'null' : typeof value;
}
