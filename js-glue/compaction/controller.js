// CompactionController: one per open session and window (or one per session shared by its windows).
// Runs at most one compaction at a time per session on top of the wasm `compact` runner: the
// running compaction is shared by every controller of the same store and session in the process
// (../session/in-flight.js), so a second window joins or waits for it instead of racing it into `stale`.
// Gates the session operations while it runs, and turns a send into a preflight (compact first
// when the draft would not fit).
//
// With a store that holds an index per open session (`withSessionIndex`, the package's stores),
// every decision is one read of that index (./session-read.js): a submit checks whether the draft
// is stored, plans the preflight and projects what is sent in one read; an after-turn check with
// nothing to do costs the new messages and no runner call or load; the runner runs only when the
// plan says compact, with the plan and summary request of that read. A store with only
// load/transaction (an app's own) goes through the runner.
//
// Works in Zotero's plugin sandbox: no AbortController, no window; the signal is the
// abort-signal-like object of ../util/abort-signal.js.

import * as wasmExports from '../bibgenie_compaction.js';
import { compact } from './runner.js';
import { estimate, plan, project } from '../session/calls.js';
import { createAbortSignalLike } from '../util/abort-signal.js';
import { randomHex } from '../util/random-id.js';
import { codedError as controllerError } from '../util/coded-error.js';
import { checkOverheadCounts } from './counts.js';
import { checkModelProfile } from './model-profile.js';
import { sessionSlot } from '../session/in-flight.js';
import { NOT_HELD, PREPARED, SEND_MARKS, readSession, sendMarks } from '../session/session-read.js';

// The default core: the wasm exports, with the package's project/estimate/plan (they answer with the
// caller's own node objects, exactly as given, and share one hidden index for one session), and the
// runner of the glue.
const wasm = { ...wasmExports, project, estimate, plan, compact };

// The types are controller.d.ts's (and glue.d.ts's); `implements` checks this class against it.
/**
 * @import { UIMessage } from 'ai'
 * @import { CacheProfile, CompactionMode, Draft, ModelProfile, Overhead } from '../bibgenie_compaction.js'
 * @import { CompactOutcome, CompactStore, CompactSummarize } from '../glue.js'
 * @import { CompactionControllerOptions, CompactionCore, CompactionState, SubmitResult } from './controller.js'
 * @import { CompactionController as DeclaredController } from './controller.js'
 */

/** Session operations that must wait while a compaction runs (it would commit onto a moved branch). */
const GATED_ACTIONS = new Set(['retry', 'edit', 'fork', 'switch-model', 'compact']);
/** Always allowed: the draft belongs to the user, and a send waits for the compaction by itself. */
const FREE_ACTIONS = new Set(['edit-draft', 'submit']);

/**
 * A preflight whose compaction went stale (the session moved meanwhile) is planned again on the new
 * state; after this many attempts in a row the send fails instead of looping.
 */
const MAX_PREFLIGHT_ATTEMPTS = 3;

/** The counts of the `compacting` state from a plan. @param {any} plan */
function countsOf(plan) {
  return { foldedMessages: plan.summarizeIds.length, tokensBefore: plan.tokensBefore, tokensAfterEstimate: plan.tokensAfterEstimate };
}

/**
 * The overhead a call gives (`{ overhead }`), else the controller's.
 * @param {unknown} options @param {Overhead | undefined} fallback @returns {Overhead | undefined}
 */
function overheadOption(options, fallback) {
  if (options === undefined || options === null) return fallback;
  if (typeof options !== 'object') throw controllerError('invalid-options', 'the options must be an object ({ overhead })');
  const given = /** @type {any} */ (options).overhead;
  if (given === undefined) return fallback;
  checkOverheadCounts(given, 'overhead option');
  return given;
}

/** @param {unknown} error */
function describe(error) {
  if (error && typeof error === 'object' && 'message' in error) return String(/** @type {any} */ (error).message);
  return String(error);
}

/** A 24-hex-digit id for a draft given as text. */
function draftId() {
  return 'draft_' + randomHex(12);
}

/**
 * The draft as the message to send: a UIMessage is used as given (same object, not copied or
 * changed); text becomes a user message with one text part.
 * @param {Draft} draft @returns {UIMessage}
 */
function draftMessage(draft) {
  if (typeof draft === 'string') return { id: draftId(), role: 'user', parts: [{ type: 'text', text: draft }] };
  return /** @type {UIMessage} */ (draft); // an id-less draft message is sent as the app gave it
}

/** The id of a draft given as a UIMessage, else undefined. @param {unknown} draft */
function draftIdOf(draft) {
  const id = draft && typeof draft === 'object' ? /** @type {any} */ (draft).id : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Where `id` is in the session `view` reads. @param {any} view @param {string} id @returns {'leaf' | 'elsewhere' | false} */
function storedIn(view, id) {
  return view.leafId === id ? 'leaf' : view.has(id) ? 'elsewhere' : false;
}

/** The store as one with only `load` (the load path, also for a store that has an index). @param {any} store */
function loadOnly(store) {
  return { load: (/** @type {string} */ id) => store.load(id) };
}

/**
 * A submit whose compaction (its own, or the one it waited for) was cancelled or failed: nothing is
 * sent, the draft comes back as given.
 * @template {Draft} D
 * @param {CompactOutcome} outcome a `cancelled` or `failed` outcome
 * @param {D} draft
 * @returns {SubmitResult & { draft: D }}
 */
function interruptedSubmit(outcome, draft) {
  const o = /** @type {any} */ (outcome);
  if (o.status === 'cancelled') return { status: 'cancelled', reason: o.reason, draft, outcome };
  return { status: 'failed', reason: o.reason, message: o.message ?? o.reason, draft, outcome };
}

/** @implements {DeclaredController} */
export class CompactionController {
  /** @type {CompactStore} */ #store;
  /** @type {string} */ #sessionId;
  /** @type {ModelProfile} */ #model;
  /** @type {CompactSummarize} */ #summarize;
  /** @type {Overhead | undefined} */ #overhead;
  /** @type {CompactionCore} */ #core;
  /** The session's slot shared with the other controllers and transports of the same store and session. */
  /** @type {{ run: { mode: CompactionMode, owner: object, abort: ReturnType<typeof createAbortSignalLike>, promise: Promise<CompactOutcome>, announced: boolean } | null, turn: object | null }} */
  #slot;
  /** @type {CompactionState} */
  #state = { status: 'idle' };
  /** Whether decisions may be planned on the store's held index (the wasm core and a store that has one). */
  #indexed = false;
  /** The prompt cache: `{ profile, now, background }` of the `cache` options, or null. */
  /** @type {{ profile: CacheProfile, now: () => number, background: boolean } | null} */
  #cache = null;
  /** The pending background check once the cache's lifetime has passed (a timer), and its generation. */
  /** @type {any} a timer handle: a number, or Node's Timeout (with unref) */
  #coldTimer = null;
  #coldGeneration = 0;

  /** @param {CompactionControllerOptions} options `core` replaces the wasm exports (tests, or a second copy of the module). */
  constructor(options) {
    if (!options || typeof options !== 'object') throw controllerError('invalid-options', 'CompactionController: options must be an object');
    const { store, sessionId, model, summarize, overhead, onStatus, core } = options;
    if (!store || typeof store.load !== 'function' || typeof store.transaction !== 'function') {
      throw controllerError('invalid-options', 'CompactionController: store must have load(sessionId) and transaction(sessionId, fn)');
    }
    if (typeof sessionId !== 'string' || sessionId === '') {
      throw controllerError('invalid-options', 'CompactionController: sessionId must be a non-empty string');
    }
    checkModelProfile(model, 'CompactionController');
    checkOverheadCounts(overhead, 'CompactionController');
    if (typeof summarize !== 'function') throw controllerError('invalid-options', 'CompactionController: summarize must be a function');
    if (onStatus !== undefined && typeof onStatus !== 'function') {
      throw controllerError('invalid-options', 'CompactionController: onStatus must be a function');
    }
    this.#store = store;
    this.#sessionId = sessionId;
    this.#model = model;
    this.#summarize = summarize;
    this.#overhead = overhead;
    this.#slot = sessionSlot(store, sessionId);
    this.#core = core ?? /** @type {CompactionCore} */ (/** @type {unknown} */ (wasm));
    // A replaced core is what decides (tests, another copy of the module): never bypassed.
    this.#indexed = core === undefined && typeof (/** @type {any} */ (store).withSessionIndex) === 'function';
    /** Called with the new state whenever it changes (and once more when an announced run ends). */
    this.onStatus = onStatus ?? null;
    this.#takeCacheOptions(options);
  }

  /**
   * `cache` (a CacheProfile: plans report the cache state and cost, and compact a cold cache from
   * three quarters of the threshold), `now` (the clock, default Date.now) and `backgroundCompaction`
   * (run the automatic check again once the cache's lifetime has passed with no new message).
   * @param {any} options
   */
  #takeCacheOptions({ cache, now, backgroundCompaction }) {
    if (cache === undefined) return;
    if (!cache || typeof cache !== 'object') throw controllerError('invalid-options', 'CompactionController: cache must be a CacheProfile (cacheProfile(name) gives defaults)');
    if (now !== undefined && typeof now !== 'function') throw controllerError('invalid-options', 'CompactionController: now must be a function returning ms since the epoch');
    this.#cache = { profile: cache, now: now ?? (() => Date.now()), background: backgroundCompaction === true };
  }

  /**
   * Runs the automatic check again once the cache's lifetime has passed, unless a message came first
   * or another window's turn or compaction is in flight then. @param {Overhead | undefined} overhead the turn's
   */
  #scheduleColdCheck(overhead) {
    const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
    if (!this.#cache?.background || typeof g.setTimeout !== 'function') return;
    this.#cancelColdCheck();
    const generation = this.#coldGeneration;
    const lifetime = Number(this.#cache.profile.lifetimeMs);
    if (!Number.isFinite(lifetime) || lifetime <= 0) return;
    this.#coldTimer = g.setTimeout(() => {
      this.#coldTimer = null;
      if (generation === this.#coldGeneration && !this.#slot.run && this.#slot.turn === null) this.#start('auto', undefined, overhead);
    }, lifetime + 1000);
    this.#coldTimer?.unref?.(); // Node: never keeps the process alive
  }

  #cancelColdCheck() {
    this.#coldGeneration++;
    const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
    if (this.#coldTimer !== null && typeof g.clearTimeout === 'function') g.clearTimeout(this.#coldTimer);
    this.#coldTimer = null;
  }

  /** `idle`, `compacting` (with `cancel`) or `failed` (with the reason); a fresh object each time. */
  get state() {
    return { ...this.#state };
  }

  /** True while a compaction (including the planning before it) runs. */
  get busy() {
    return this.#slot.run !== null;
  }

  /** The clock of the cache state (the `now` option), else `Date.now()`. */
  now() {
    return this.#cache ? this.#cache.now() : Date.now();
  }

  get model() {
    return this.#model;
  }

  /**
   * Uses another model from now on (`can('switch-model')` must be true).
   * @param {ModelProfile} model
   */
  setModel(model) {
    if (this.#slot.run) throw controllerError('busy', 'setModel: a compaction is running; wait for it or cancel it first');
    checkModelProfile(model, 'setModel');
    this.#model = model;
  }

  /**
   * Whether a session operation may start now: `retry`, `edit`, `fork`, `switch-model` and `compact`
   * are false while a compaction runs; `edit-draft` and `submit` are always allowed.
   * @param {'retry' | 'edit' | 'fork' | 'switch-model' | 'compact' | 'edit-draft' | 'submit'} action
   */
  can(action) {
    if (GATED_ACTIONS.has(action)) return this.#slot.run === null;
    if (FREE_ACTIONS.has(action)) return true;
    throw controllerError('invalid-options', `can: unknown action ${JSON.stringify(action)}`);
  }

  /**
   * Compacts now. While another compaction runs this joins it (same promise, same outcome), so
   * two calls never produce two checkpoints on one basis. Never rejects: errors are `failed`.
   * @param {'manual' | 'auto'} [mode]
   * @returns {Promise<CompactOutcome>}
   */
  compact(mode = 'manual') {
    if (mode !== 'manual' && mode !== 'auto') {
      return Promise.reject(controllerError('invalid-options', "compact: mode must be 'manual' or 'auto' (a send uses submit)"));
    }
    if (this.#slot.run) return this.#slot.run.promise;
    return this.#start(mode, undefined).promise;
  }

  /**
   * Cancels the compaction this controller started, if it runs (nothing is written); another
   * window's controller on the same session is left to finish. Returns whether one was cancelled.
   * @param {unknown} [reason]
   */
  cancel(reason) {
    if (this.#cache) this.#cancelColdCheck();
    const run = this.#slot.run;
    if (!run || run.owner !== this) return false;
    run.abort.abort(reason);
    return true;
  }

  /**
   * The automatic check once a response is persisted. Returns at once with a promise the caller
   * need not await (it never rejects); skipped while a compaction runs (resolves null). The runner
   * plans in `auto` mode, which does nothing while a tool call, result or approval is pending or
   * while the projection is under the threshold.
   * @param {{ overhead?: Overhead }} [options] `overhead` replaces the controller's for this check
   * @returns {Promise<CompactOutcome | null>}
   */
  afterTurn(options) {
    if (this.#slot.run) return Promise.resolve(null);
    const overhead = overheadOption(options, this.#overhead);
    const promise = this.#start('auto', undefined, overhead).promise;
    this.#scheduleColdCheck(overhead);
    return promise;
  }

  /**
   * Preflight of a send: waits for a running compaction, then checks that the projection plus the
   * draft fits, compacting first when that makes it fit. Resolves `{ status: 'send', messages }`
   * (the projection followed by the draft), or `too-large` / `cancelled` / `failed` with the draft
   * returned as given. Never rejects for a failed compaction, and never reports `send` after one:
   * when the compaction it waited on (manual, after-turn or its own preflight) was cancelled or
   * failed, the submit ends so too, and only the user's next submit tries again. After its own
   * compaction the new projection is estimated with the draft; `send` only when that fits.
   * @template {Draft} D
   * @param {D} draft the user's message (a UIMessage, or its text)
   * @param {{ overhead?: Overhead }} [options] `overhead` (what this request carries besides the
   *   session: `{ system, tools }` or `{ tokens }`) replaces the controller's for this send
   * @returns {Promise<SubmitResult & { draft: D }>}
   */
  async submit(draft, options) {
    if (draft === undefined || draft === null) throw controllerError('invalid-options', 'submit: draft must be a UIMessage or a string');
    const overhead = overheadOption(options, this.#overhead);
    // The transport's breakpoint options: the cache marks of what is sent come from the same read.
    const marks = options && typeof options === 'object' ? /** @type {any} */ (options)[SEND_MARKS] : undefined;
    if (this.#cache) this.#cancelColdCheck(); // a new message: the next request reads the cache now
    const message = draftMessage(draft);
    // A draft the app already persisted ("save first") is sent once: the stored leaf is used as is.
    // With no compaction running, the same read plans the preflight (handed to the first attempt).
    let { stored, prepared } = await this.#preflightRead(draft, message, overhead, marks);
    if (stored === 'elsewhere') {
      const id = /** @type {any} */ (draft).id;
      return { status: 'failed', reason: 'draft-already-stored', message: `submit: message ${id} is already in the session and is not its leaf; send a new message (or retry)`, draft };
    }
    /** @type {CompactOutcome | undefined} */
    let outcome;
    for (let attempt = 0; attempt < MAX_PREFLIGHT_ATTEMPTS; attempt++) {
      while (this.#slot.run) {
        prepared = null; // planned before this compaction: plan again after it
        const waited = await this.#slot.run.promise;
        if (waited.status === 'cancelled' || waited.status === 'failed') return interruptedSubmit(waited, draft);
      }
      const run = this.#start('preflight', stored ? undefined : draft, overhead, prepared);
      prepared = null;
      outcome = await run.promise;
      // Not loaded is a mistake in the app, not a failed compaction: say so loudly.
      if (outcome.status === 'failed' && outcome.reason === 'not-loaded') throw /** @type {any} */ (outcome).error;
      if (outcome.status === 'committed') return this.#sendIfFits(outcome, draft, message, stored, overhead, marks);
      if (outcome.status === 'noop' && outcome.plan?.send === 'now') return this.#sendNow(outcome, draft, message, stored, run.projected, run.marks);
      switch (outcome.status) {
        case 'stale':
          continue; // the session moved while summarizing: plan again on what is there now
        case 'too-large':
          return { status: 'too-large', reason: outcome.reason, draft, outcome };
        case 'cancelled':
        case 'failed':
          return interruptedSubmit(outcome, draft);
        case 'noop':
          // No compaction needed, yet the plan does not say "send now" (e.g. a read-only session).
          return { status: 'failed', reason: outcome.reason, message: `the draft cannot be sent: ${outcome.reason}`, draft, outcome };
        default: // a status no CompactOutcome has (a replaced core's)
          return { status: 'failed', reason: /** @type {{ reason: string }} */ (outcome).reason, message: /** @type {{ message?: string }} */ (outcome).message ?? /** @type {{ reason: string }} */ (outcome).reason, draft, outcome };
      }
    }
    return {
      status: 'failed',
      reason: 'stale',
      message: `the session changed during each of ${MAX_PREFLIGHT_ATTEMPTS} preflight compactions`,
      draft,
      outcome,
    };
  }

  /**
   * Rule `send-only-when-fits`: after a preflight compaction the plan's figure was a promise; the
   * committed projection plus the draft is estimated again and sent only within the safe limit.
   * @template {Draft} D
   * @param {CompactOutcome} outcome a `committed` outcome
   * @param {D} draft
   * @param {any} message the draft as sent
   * @param {'leaf' | false} stored whether the draft is already the session's leaf
   * @param {Overhead | undefined} overhead
   * @param {object | undefined} marks the transport's breakpoint options
   * @returns {Promise<SubmitResult & { draft: D }>}
   */
  async #sendIfFits(outcome, draft, message, stored, overhead, marks) {
    const options = this.#requestOptions(stored ? undefined : draft, overhead);
    const held = this.#indexed ? await this.#committedOnIndex(outcome, options, stored ? undefined : message, marks) : null;
    let estimated;
    if (held) {
      estimated = held.estimated;
    } else {
      const estimateOf = this.#core.estimate ?? wasm.estimate;
      try {
        estimated = estimateOf(/** @type {any} */ (outcome).session, this.#model, options);
      } catch (error) {
        const reason = /** @type {any} */ (error)?.code ?? 'invalid-session';
        return { status: 'failed', reason, message: describe(error), draft, outcome };
      }
    }
    if (!estimated.fits) {
      return {
        status: 'too-large',
        reason: 'too-large-after-compaction',
        message: `after compacting, the request is estimated at ${estimated.tokens} tokens, over the safe input limit of ${estimated.safeInputLimit}; shorten the draft`,
        draft,
        outcome,
      };
    }
    return this.#sendNow(outcome, draft, message, stored, held?.messages, held?.marks);
  }

  /**
   * The estimate and the projection's messages of the committed session on the store's index, which
   * takes the checkpoint row as an append (no read of the whole session); null when the index cannot
   * answer or the session moved on since the commit (the committed session then decides).
   * @param {CompactOutcome} outcome a `committed` outcome @param {object} options
   * @param {unknown} sent the draft message when it is not stored @param {object | undefined} marks
   * @returns {Promise<{ estimated: any, messages: UIMessage[], marks?: unknown[] } | null>}
   */
  async #committedOnIndex(outcome, options, sent, marks) {
    const committed = /** @type {any} */ (outcome).session;
    return this.#onIndex((view) =>
      view.leafId === committed.leafId && view.branchRevision === committed.branchRevision
        ? { estimated: view.index.estimate(this.#model, options), messages: view.project().messages, marks: this.#marksOn(view, sent, marks) }
        : null);
  }

  /**
   * The cache marks of a send on `view` (the session before the draft is stored, the draft as its
   * newest message), when the transport asked for them; [] when they cannot be placed.
   * @param {any} view @param {unknown} sent @param {object | undefined} marks
   * @returns {unknown[] | undefined}
   */
  #marksOn(view, sent, marks) {
    if (marks === undefined) return undefined;
    try {
      return view.index.cacheBreakpoints(this.#model, sent === undefined ? marks : { ...marks, draft: sent }).breakpoints;
    } catch {
      return [];
    }
  }

  /**
   * @template {Draft} D
   * @param {CompactOutcome} outcome
   * @param {D} draft
   * @param {any} message the draft as sent
   * @param {'leaf' | false} stored whether the draft is already the session's leaf (then it is not appended again)
   * @param {UIMessage[]} [projected] the projection's messages when the index already made them
   * @param {unknown[]} [marks] the cache marks made with them
   * @returns {SubmitResult & { draft: D }}
   */
  #sendNow(outcome, draft, message, stored, projected, marks) {
    try {
      const base = projected ?? this.#core.project(/** @type {any} */ (outcome).session).messages;
      const messages = stored ? [...base] : [...base, message];
      // A new response belongs at the end of the branch the request was planned on: under the
      // draft once it is stored, or, for a draft stored before, under the checkpoint a preflight
      // appended after it (under the draft itself, the checkpoint would leave the branch).
      const responseParentId = stored ? /** @type {any} */ (outcome).session?.leafId ?? message.id : message.id;
      const result = /** @type {SubmitResult & { draft: D }} */ ({ status: 'send', messages, draft, outcome, responseParentId, ...(stored ? { stored: true } : {}) });
      if (projected && marks) sendMarks.set(result, marks);
      return result;
    } catch (error) {
      const reason = /** @type {any} */ (error)?.code ?? 'invalid-session';
      return { status: 'failed', reason, message: describe(error), draft, outcome };
    }
  }

  /**
   * The first read of a submit: where the draft is (`#storedDraft`) and, on the store's index with no
   * compaction running, the preflight planned in the same read (`prepared`, for the first attempt).
   * @param {Draft} draft @param {unknown} message the draft as sent @param {Overhead | undefined} overhead
   * @param {object | undefined} marks the transport's breakpoint options
   * @returns {Promise<{ stored: 'leaf' | 'elsewhere' | false, prepared: any }>}
   */
  async #preflightRead(draft, message, overhead, marks) {
    const id = draftIdOf(draft);
    if (this.#indexed && !this.#slot.run) {
      const found = await this.#onIndex((view) => {
        const stored = id === undefined ? false : storedIn(view, id);
        if (stored === 'elsewhere') return { stored, prepared: null };
        return { stored, prepared: this.#planOn(view, 'preflight', stored ? undefined : draft, overhead, stored ? undefined : message, marks) };
      });
      if (found !== null) return found;
    }
    return { stored: await this.#storedDraft(id), prepared: null };
  }

  /**
   * Where a UIMessage draft's id already is: `leaf` (persisted before submit, sent from the store),
   * `elsewhere` (refused), or false (new). A store that cannot load leaves it to the runner.
   * @param {string | undefined} id the draft's id
   * @returns {Promise<'leaf' | 'elsewhere' | false>}
   */
  async #storedDraft(id) {
    if (id === undefined) return false;
    const where = (/** @type {any} */ view) => storedIn(view, id);
    // No answer from the index (no view, the store failing): as a failed load below.
    let read = await readSession(this.#indexed ? this.#store : loadOnly(this.#store), this.#sessionId, where);
    if ('failed' in read && read.failed === 'withSessionIndex') read = await readSession(loadOnly(this.#store), this.#sessionId, where);
    return 'value' in read ? /** @type {'leaf' | 'elsewhere' | false} */ (read.value) : false;
  }

  /**
   * @param {CompactionMode} mode
   * @param {Draft | undefined} draft
   * @param {Overhead} [overhead]
   * @param {any} [prepared] the plan already made on the store's index for this run (`#planOn`)
   */
  #start(mode, draft, overhead = this.#overhead, prepared = null) {
    const abort = createAbortSignalLike();
    /** @type {{ mode: CompactionMode, owner: object, abort: typeof abort, promise: Promise<CompactOutcome>, announced: boolean, session: unknown, plan?: any, projected?: UIMessage[], marks?: unknown[], prepared: any }} */
    const run = { mode, abort, owner: this, promise: /** @type {any} */ (null), announced: false, session: undefined, prepared };
    const store = this.#store;
    // The runner reads the session through load(); kept for the counts of the `compacting` state.
    const watchedStore = {
      load: (/** @type {string} */ id) => Promise.resolve(store.load(id)).then((session) => ((run.session = session), session)),
      transaction: /** @type {CompactStore['transaction']} */ ((id, fn) => store.transaction(id, fn)),
      // The runner plans and builds the summary request on the store's held index, as submit does.
      ...(this.#indexed
        ? { withSessionIndex: (/** @type {string} */ id, /** @type {any} */ use) => /** @type {any} */ (store).withSessionIndex(id, use) }
        : {}),
    };
    /** @type {CompactSummarize} */
    const summarize = (request, signal) => {
      // Announced only once a summary is really being made: a send that fits never shows "Compacting".
      if (this.#slot.run === run && !run.announced) {
        run.announced = true;
        this.#setState({
          status: 'compacting',
          mode,
          cancel: () => (this.#slot.run === run ? this.cancel() : false),
          ...(run.plan ? countsOf(run.plan) : this.#compactingCounts(run.session, mode, draft, overhead)),
        });
      }
      return this.#summarize(request, signal);
    };
    const options = {
      store: watchedStore,
      sessionId: this.#sessionId,
      model: this.#model,
      mode,
      summarize,
      signal: abort.signal,
      ...this.#requestOptions(draft, overhead),
    };
    this.#slot.run = run;
    run.promise = Promise.resolve()
      .then(() => this.#execute(run, options))
      .catch((error) => /** @type {CompactOutcome} */ ({
        status: 'failed',
        reason: /** @type {any} */ (error)?.code ?? 'error',
        message: describe(error),
        error,
      }))
      .then((outcome) => {
        this.#finish(run, outcome);
        return outcome;
      });
    return run;
  }

  /**
   * Plans on the store's index, then runs the runner only when there is something to compact (or a
   * case the runner reports: too large, no index). The index path's outcome is the runner's: a
   * `noop` with the same plan, and `session` as load() gives it, its `nodes` parsed when first read.
   * @param {{ mode: CompactionMode, abort: ReturnType<typeof createAbortSignalLike>, plan?: any, projected?: UIMessage[], marks?: unknown[], prepared: any }} run
   * @param {{ mode: CompactionMode, draft?: unknown, overhead?: unknown }} options the runner's options
   * @returns {Promise<CompactOutcome>}
   */
  async #execute(run, options) {
    const planned = run.prepared ?? (this.#indexed ? await this.#planOnIndex(run.mode, /** @type {any} */ (options)) : null);
    if (planned) {
      run.plan = planned.plan;
      if (planned.outcome) {
        if (run.abort.signal.aborted) return /** @type {CompactOutcome} */ ({ status: 'cancelled', reason: 'aborted' });
        run.projected = planned.messages;
        run.marks = planned.marks;
        return planned.outcome;
      }
      // The runner compacts on this plan and request: it does not read and plan again.
      if (planned.request) return this.#core.compact(/** @type {any} */ ({ ...options, [PREPARED]: planned }));
    }
    return this.#core.compact(/** @type {any} */ (options));
  }

  /**
   * The plan on the store's held index (`#planOn`); null when the index cannot answer (the runner
   * then decides, with its own load, and reports any problem as before).
   * @param {CompactionMode} mode @param {{ draft?: Draft, overhead?: Overhead }} request the runner's options
   * @returns {Promise<any>}
   */
  async #planOnIndex(mode, request) {
    return this.#onIndex((view) => this.#planOn(view, mode, request.draft, request.overhead));
  }

  /**
   * The plan on `view`, with what follows from it in the same read: the summary request when it
   * compacts (the runner's `PREPARED`); the outcome when no runner call is needed, and for a send
   * that fits the projection's messages (and the cache marks the transport asked for).
   * @param {any} view @param {CompactionMode} mode @param {Draft | undefined} draft @param {Overhead | undefined} overhead
   * @param {unknown} [sent] the draft message when not stored @param {object} [marks]
   */
  #planOn(view, mode, draft, overhead, sent, marks) {
    const plan = view.index.plan(this.#model, { mode, ...this.#requestOptions(draft, overhead) });
    if (plan.action === 'compact') return { plan, request: view.index.summaryRequest(plan, this.#model) };
    if (plan.send === 'too-large') return { plan };
    const sendsNow = mode === 'preflight' && plan.send === 'now';
    const messages = sendsNow ? view.project().messages : undefined;
    const outcome = /** @type {CompactOutcome} */ ({ status: 'noop', reason: plan.reason, plan, session: view.lazySession() });
    return { plan, outcome, messages, marks: sendsNow ? this.#marksOn(view, sent, marks) : undefined };
  }

  /**
   * `use(view)` on the store's held index of the session; null when the index cannot answer (no
   * view, or the store failed: the load or runner path then decides and reports it).
   * @template T @param {(view: any) => T} use @returns {Promise<T | null>}
   */
  async #onIndex(use) {
    const read = await readSession(this.#store, this.#sessionId, use, { load: false });
    return 'value' in read && read.value !== NOT_HELD ? read.value : null;
  }

  /**
   * The draft (when given) and the overhead (the controller's unless the call gave one), as plan and
   * estimate options. @param {Draft | undefined} draft @param {Overhead} [overhead]
   */
  #requestOptions(draft, overhead = this.#overhead) {
    return { ...(draft === undefined ? {} : { draft }), ...(overhead === undefined ? {} : { overhead }), ...this.#cacheOptions() };
  }

  /** `cache` and `now` for the plan, when the controller has a cache profile. */
  #cacheOptions() {
    return this.#cache ? { cache: this.#cache.profile, now: this.#cache.now() } : {};
  }

  /**
   * For a status line ("Compacting 14 earlier messages, 9,800 -> 3,100 tokens") when no plan was
   * made on an index: the plan the runner is carrying out, planned again on the session it loaded.
   * @param {unknown} session @param {CompactionMode} mode @param {Draft | undefined} draft @param {Overhead | undefined} overhead
   */
  #compactingCounts(session, mode, draft, overhead) {
    const plan = /** @type {any} */ (this.#core).plan;
    if (typeof plan !== 'function' || session === undefined) return {};
    try {
      return countsOf(plan(session, this.#model, { mode, ...this.#requestOptions(draft, overhead) }));
    } catch {
      return {}; // the counts are for display; the runner reports real problems
    }
  }

  /**
   * @param {{ mode: CompactionMode, announced: boolean }} run
   * @param {CompactOutcome} outcome
   */
  #finish(run, outcome) {
    if (this.#slot.run === run) this.#slot.run = null;
    if (outcome.status === 'failed') {
      this.#setState({ status: 'failed', mode: run.mode, reason: outcome.reason, message: outcome.message ?? outcome.reason, outcome });
    } else if (run.announced || this.#state.status !== 'idle') {
      this.#setState({ status: 'idle', outcome });
    }
  }

  /** @param {CompactionState} state */
  #setState(state) {
    this.#state = state;
    if (typeof this.onStatus !== 'function') return;
    try {
      this.onStatus({ ...state });
    } catch (error) {
      // A failing UI callback must not break the compaction bookkeeping.
      const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
      if (g.console && typeof g.console.error === 'function') g.console.error(error);
    }
  }
}
