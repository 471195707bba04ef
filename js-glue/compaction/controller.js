// CompactionController: one per open session and window (or one per session shared by its windows).
// Runs at most one compaction at a time per session on top of the runner, shared by every controller
// of the same store and session in the process (../session/in-flight.js), so a second window joins
// or waits for it instead of racing it into `stale`. Gates the session operations while it runs, and
// turns a send into a preflight (compact first when the draft would not fit).
// Every decision is one read of the session as a SessionIndex (../session/session-read.js: the
// store's held index, or one load): a submit checks whether the draft is stored, plans the preflight
// and projects what is sent in one read; the runner summarizes and commits only when the plan says
// compact. Works in Zotero's plugin sandbox: the signal is ../util/abort-signal.js's (no AbortController).
import { planOn, readPlanned, summarizeAndCommit } from './runner.js';
import { checkResolveItem, readOptions } from './run-options.js';
import { createAbortSignalLike, untilAborted } from '../util/abort-signal.js';
import { codedError as controllerError, messageOf } from '../util/coded-error.js';
import { checkOverheadCounts } from './counts.js';
import { checkModelProfile } from './model-profile.js';
import { CacheClock } from './cache-clock.js';
import { callOptions, draftIdOf, draftMessage, interruptedSubmit, storedIn } from './draft.js';
import { sessionSlot } from '../session/in-flight.js';
import { onSession, readSession } from '../session/session-read.js';

/**
 * @import { UIMessage } from '../ai-types.js'
 * @import { CacheBreakpointOptions, CompactionMode, Draft, ModelProfile, Overhead, Plan, SessionStore, Summarize } from '../bibgenie_compaction.js'
 * @import { CompactOutcome } from './runner.js'
 * @import { SessionIndex } from '../session/session-index.js'
 * @import { CompactionState, CompactionControllerOptions, ControllerAction, Planned, Run, SubmitOptions, SubmitResult } from './controller-types.js'
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

/** The counts of the `compacting` state from a plan. @param {Plan} plan */
function countsOf(plan) {
  return { foldedMessages: plan.summarizeIds.length, tokensBefore: plan.tokensBefore, tokensAfterEstimate: plan.tokensAfterEstimate };
}

export class CompactionController {
  /** @type {SessionStore} */ #store;
  /** @type {string} */ #sessionId;
  /** @type {ModelProfile} */ #model;
  /** @type {Summarize} */ #summarize;
  /** @type {Overhead | undefined} */ #overhead;
  /** @type {import('./resolve-items.js').ResolveItem | null} */ #resolveItem;
  /** The session's slot shared with the other controllers and transports of the same store and session. */
  /** @type {{ run: Run | null, turn: object | null }} */
  #slot;
  /** @type {CompactionState} */
  #state = { status: 'idle' };
  /** @type {CacheClock} */
  #clock;
  /**
   * The sends of this controller in progress, each with the signal `cancel()` aborts: a send is
   * cancellable from its first read on, before a compaction run exists (and its run uses it).
   * @type {Set<ReturnType<typeof createAbortSignalLike>>}
   */
  #sends = new Set();

  /** @param {CompactionControllerOptions} options */
  constructor(options) {
    if (!options || typeof options !== 'object') throw controllerError('invalid-options', 'CompactionController: options must be an object');
    const { store, sessionId, model, summarize, overhead, onStatus } = options;
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
    this.#resolveItem = checkResolveItem(options.resolveItem, 'CompactionController');
    this.#slot = sessionSlot(store, sessionId);
    this.#clock = new CacheClock(options);
    /** Called with the new state whenever it changes (and once more when an announced run ends). */
    this.onStatus = onStatus ?? null;
  }

  /** `idle`, `compacting` (with `cancel`) or `failed` (with the reason); a fresh object each time. @returns {CompactionState} */
  get state() {
    return { ...this.#state };
  }

  /** True while a compaction (including the planning before it) runs. */
  get busy() {
    return this.#slot.run !== null;
  }

  /** The clock (the `now` option, else `Date.now()`). */
  now() {
    return this.#clock.now();
  }

  get model() {
    return this.#model;
  }

  /** The store the session lives in. */
  get store() {
    return this.#store;
  }

  get sessionId() {
    return this.#sessionId;
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
   * @param {ControllerAction} action
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
   * Cancels the compaction this controller started, if it runs (nothing is written), and this
   * controller's sends in progress at whatever moment they are (their first read, waiting for
   * another compaction, planning, summarizing, committing): each ends `cancelled`, with no summarizer
   * call if it came before one. Another window's controller on the same session is left to finish.
   * Returns whether something was cancelled.
   * @param {unknown} [reason]
   */
  cancel(reason) {
    this.#clock.cancel();
    let cancelled = false;
    for (const send of this.#sends) {
      if (!send.aborted) {
        send.abort(reason);
        cancelled = true;
      }
    }
    const run = this.#slot.run;
    if (!run || run.owner !== this) return cancelled;
    if (!run.abort.aborted) run.abort.abort(reason);
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
    const { overhead } = callOptions(options, this.#overhead);
    const promise = this.#start('auto', undefined, overhead).promise;
    // Unless another window's turn or compaction is in flight then.
    this.#clock.schedule(() => {
      if (!this.#slot.run && this.#slot.turn === null) this.#start('auto', undefined, overhead);
    });
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
   * @param {SubmitOptions} [options]
   * @returns {Promise<SubmitResult & { draft: D }>}
   */
  async submit(draft, options) {
    if (draft === undefined || draft === null) throw controllerError('invalid-options', 'submit: draft must be a UIMessage or a string');
    const { overhead, cacheBreakpoints } = callOptions(options, this.#overhead);
    this.#clock.cancel(); // a new message: the next request reads the cache now
    const message = draftMessage(draft);
    const abort = createAbortSignalLike();
    this.#sends.add(abort);
    try {
      return await this.#submit(draft, message, overhead, cacheBreakpoints, abort);
    } finally {
      this.#sends.delete(abort);
    }
  }

  /**
   * The submit's steps, each ended `cancelled` once `abort` fired (`cancel()`).
   * @template {Draft} D
   * @param {D} draft @param {UIMessage} message the draft as sent @param {Overhead | undefined} overhead
   * @param {CacheBreakpointOptions | undefined} cacheBreakpoints @param {ReturnType<typeof createAbortSignalLike>} abort
   * @returns {Promise<SubmitResult & { draft: D }>}
   */
  async #submit(draft, message, overhead, cacheBreakpoints, abort) {
    /** @type {() => SubmitResult & { draft: D }} */
    const cancelled = () => ({ status: 'cancelled', reason: 'aborted', draft });
    // A draft the app already persisted ("save first") is sent once: the stored leaf is used as is.
    // With no compaction running, the same read plans the preflight (handed to the first attempt).
    let { stored, prepared } = await this.#preflightRead(draft, message, overhead, cacheBreakpoints);
    if (abort.aborted) return cancelled(); // cancelled during the first read: nothing planned is carried out
    if (stored === 'elsewhere') {
      const id = /** @type {any} */ (draft).id;
      return { status: 'failed', reason: 'draft-already-stored', message: `submit: message ${id} is already in the session and is not its leaf; send a new message (or retry)`, draft };
    }
    /** @type {CompactOutcome | undefined} */
    let outcome;
    for (let attempt = 0; attempt < MAX_PREFLIGHT_ATTEMPTS; attempt++) {
      while (this.#slot.run) {
        prepared = null; // planned before this compaction: plan again after it
        const waited = await untilAborted(abort, this.#slot.run.promise);
        if (waited === null) return cancelled();
        if (waited.status === 'cancelled' || waited.status === 'failed') return interruptedSubmit(waited, draft);
      }
      if (abort.aborted) return cancelled();
      const sent = stored ? undefined : message;
      const run = this.#start('preflight', stored ? undefined : draft, overhead, prepared, { sent, cacheBreakpoints }, abort);
      prepared = null;
      outcome = await run.promise;
      // Cancelled after the run settled (a checkpoint committed stands): the send does not go out.
      if (abort.aborted && outcome.status !== 'cancelled' && outcome.status !== 'failed') return { ...cancelled(), outcome };
      // Not loaded is a mistake in the app, not a failed compaction: say so loudly.
      if (outcome.status === 'failed' && outcome.reason === 'not-loaded') throw /** @type {any} */ (outcome).error;
      if (outcome.status === 'committed') {
        const result = await this.#sendIfFits(outcome, draft, message, stored, overhead, cacheBreakpoints);
        return abort.aborted && result.status === 'send' ? { ...cancelled(), outcome } : result;
      }
      if (outcome.status === 'noop' && outcome.plan?.send === 'now') return this.#sendNow(outcome, draft, message, stored, run);
      switch (outcome.status) {
        case 'stale':
          continue; // the session moved while summarizing: plan again on what is there now
        case 'too-large':
          return { status: 'too-large', reason: outcome.reason, draft, outcome };
        case 'cancelled':
        case 'failed':
          return interruptedSubmit(outcome, draft);
        default:
          // No compaction needed, yet the plan does not say "send now" (e.g. a read-only session).
          return { status: 'failed', reason: outcome.reason, message: `the draft cannot be sent: ${outcome.reason}`, draft, outcome };
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
   * committed projection plus the draft is estimated again and sent only within the safe limit. Read
   * on the store's index when it holds the committed head, else on the committed session itself.
   * @template {Draft} D
   * @param {CompactOutcome} outcome a `committed` outcome @param {D} draft @param {UIMessage} message the draft as sent
   * @param {'leaf' | false} stored whether the draft is already the session's leaf
   * @param {Overhead | undefined} overhead @param {CacheBreakpointOptions | undefined} cacheBreakpoints
   * @returns {Promise<SubmitResult & { draft: D }>}
   */
  async #sendIfFits(outcome, draft, message, stored, overhead, cacheBreakpoints) {
    const committed = /** @type {any} */ (outcome).session;
    const options = this.#requestOptions(stored ? undefined : draft, overhead);
    const sent = stored ? undefined : message;
    const read = (/** @type {SessionIndex} */ index) => ({
      estimated: index.estimate(this.#model, options),
      messages: index.project().messages,
      breakpoints: this.#breakpointsOn(index, sent, cacheBreakpoints),
    });
    let answer;
    try {
      const held = await readSession(this.#store, this.#sessionId,
        (index) => (index.leafId === committed.leafId && index.branchRevision === committed.branchRevision ? read(index) : null), { load: false });
      answer = 'value' in held && held.value ? held.value : onSession(committed, read);
    } catch (error) {
      return { status: 'failed', reason: /** @type {any} */ (error)?.code ?? 'invalid-session', message: messageOf(error), draft, outcome };
    }
    if (!answer.estimated.fits) {
      return {
        status: 'too-large',
        reason: 'too-large-after-compaction',
        message: `after compacting, the request is estimated at ${answer.estimated.tokens} tokens, over the safe input limit of ${answer.estimated.safeInputLimit}; shorten the draft`,
        draft,
        outcome,
      };
    }
    return this.#sendNow(outcome, draft, message, stored, answer);
  }

  /**
   * The cache marks of a send on `index` (the session before the draft is stored, the draft as its
   * newest message), when the call asked for them; [] when they cannot be placed.
   * @param {SessionIndex} index @param {unknown} sent @param {CacheBreakpointOptions | undefined} options
   * @returns {unknown[] | undefined}
   */
  #breakpointsOn(index, sent, options) {
    if (options === undefined) return undefined;
    try {
      return index.cacheBreakpoints(this.#model, sent === undefined ? options : { ...options, draft: /** @type {any} */ (sent) }).breakpoints;
    } catch {
      return [];
    }
  }

  /**
   * @template {Draft} D
   * @param {CompactOutcome} outcome @param {D} draft @param {UIMessage} message the draft as sent
   * @param {'leaf' | false} stored whether the draft is already the session's leaf (then it is not appended again)
   * @param {{ messages?: UIMessage[], breakpoints?: unknown[] }} read the projection's messages and the cache marks, as read with the plan
   * @returns {SubmitResult & { draft: D }}
   */
  #sendNow(outcome, draft, message, stored, { messages: base, breakpoints }) {
    if (!base) return { status: 'failed', reason: 'internal', message: 'submit: the projection was not read with the plan', draft, outcome };
    const messages = stored ? [...base] : [...base, message];
    // A new response belongs at the end of the branch the request was planned on: under the
    // draft once it is stored, or, for a draft stored before, under the checkpoint a preflight
    // appended after it (under the draft itself, the checkpoint would leave the branch).
    const responseParentId = stored ? /** @type {any} */ (outcome).session?.leafId ?? message.id : message.id;
    return /** @type {SubmitResult & { draft: D }} */ ({
      status: 'send', messages, draft, outcome, responseParentId,
      ...(stored ? { stored: true } : {}),
      ...(breakpoints ? { cacheBreakpoints: breakpoints } : {}),
    });
  }

  /**
   * The first read of a submit: where the draft is and, with no compaction running, the preflight
   * planned in the same read (`prepared`, for the first attempt). A failed read leaves both to the run.
   * @param {Draft} draft @param {UIMessage} message the draft as sent @param {Overhead | undefined} overhead
   * @param {CacheBreakpointOptions | undefined} cacheBreakpoints
   * @returns {Promise<{ stored: 'leaf' | 'elsewhere' | false, prepared: Planned | null }>}
   */
  async #preflightRead(draft, message, overhead, cacheBreakpoints) {
    const id = draftIdOf(draft);
    const planNow = !this.#slot.run;
    const read = await readSession(this.#store, this.#sessionId, (index) => {
      const stored = storedIn(index, id);
      if (stored === 'elsewhere' || !planNow) return { stored, prepared: null };
      const sent = stored ? undefined : message;
      return { stored, prepared: this.#planOn(index, 'preflight', stored ? undefined : draft, overhead, { sent, cacheBreakpoints }) };
    });
    return 'value' in read ? read.value : { stored: false, prepared: null };
  }

  /**
   * @param {CompactionMode} mode @param {Draft | undefined} draft @param {Overhead} [overhead]
   * @param {Planned | null} [prepared] the plan already made for this run (`#planOn`)
   * @param {{ sent?: UIMessage, cacheBreakpoints?: CacheBreakpointOptions }} [send] for a preflight: the message sent and the marks asked for
   * @param {ReturnType<typeof createAbortSignalLike>} [abort] the run's signal (a send's: its cancel reaches the run)
   */
  #start(mode, draft, overhead = this.#overhead, prepared = null, send = {}, abort = createAbortSignalLike()) {
    /** @type {Run} */
    const run = { mode, abort, owner: this, promise: /** @type {any} */ (null), announced: false, prepared };
    /** @type {Summarize} */
    const summarize = (request, signal) => {
      // Announced only once a summary is really being made: a send that fits never shows "Compacting".
      if (this.#slot.run === run && !run.announced) {
        run.announced = true;
        this.#setState({
          status: 'compacting',
          mode,
          cancel: () => (this.#slot.run === run ? this.cancel() : false),
          ...(run.plan ? countsOf(run.plan) : {}),
        });
      }
      return this.#summarize(request, signal);
    };
    const options = {
      store: this.#store, sessionId: this.#sessionId, model: this.#model, mode, summarize, signal: abort.signal, resolveItem: this.#resolveItem,
      ...this.#requestOptions(draft, overhead),
    };
    this.#slot.run = run;
    run.promise = Promise.resolve()
      .then(() => this.#execute(run, options, send))
      .catch((error) => /** @type {CompactOutcome} */ ({
        status: 'failed',
        reason: /** @type {any} */ (error)?.code ?? 'error',
        message: messageOf(error),
        error,
      }))
      .then((outcome) => {
        this.#finish(run, outcome);
        return outcome;
      });
    return run;
  }

  /**
   * Plans in one read of the session (unless the submit's read already did), then summarizes and
   * commits only when the plan compacts. A send the submit's read planned skips the runner's checks
   * and copies of its inputs (a quarter of a send, issue 42): the plan that succeeded took them.
   * @param {Run} run @param {any} options the runner's options @param {{ sent?: UIMessage, cacheBreakpoints?: CacheBreakpointOptions }} send
   * @returns {Promise<CompactOutcome>}
   */
  async #execute(run, options, send) {
    const runner = run.prepared?.outcome ? /** @type {any} */ (null) : readOptions(options);
    /** @type {Planned} */
    const planned = run.prepared ?? await readPlanned(runner, (index) => this.#planOn(index, run.mode, options.draft, options.overhead, send));
    if (planned.plan) run.plan = planned.plan;
    if (planned.outcome) {
      if (run.abort.signal.aborted) return /** @type {CompactOutcome} */ ({ status: 'cancelled', reason: 'aborted' });
      run.messages = planned.messages;
      run.breakpoints = planned.breakpoints;
      return planned.outcome;
    }
    return summarizeAndCommit(runner, planned);
  }

  /**
   * The runner's plan on `index`, with what a send that fits needs from the same read: the
   * projection's messages, and the cache marks when they were asked for.
   * @param {SessionIndex} index @param {CompactionMode} mode @param {Draft | undefined} draft @param {Overhead | undefined} overhead
   * @param {{ sent?: UIMessage, cacheBreakpoints?: CacheBreakpointOptions }} send
   * @returns {Planned}
   */
  #planOn(index, mode, draft, overhead, { sent, cacheBreakpoints }) {
    const prepared = planOn(index, this.#model, { mode, ...this.#requestOptions(draft, overhead) });
    const outcome = prepared.outcome;
    if (!outcome) return prepared;
    const plan = /** @type {any} */ (outcome).plan;
    if (mode !== 'preflight' || outcome.status !== 'noop' || plan?.send !== 'now') return { outcome, plan };
    try {
      return { outcome, plan, messages: index.project().messages, breakpoints: this.#breakpointsOn(index, sent, cacheBreakpoints) };
    } catch (error) {
      return { outcome: /** @type {CompactOutcome} */ ({ status: 'failed', reason: /** @type {any} */ (error)?.code ?? 'invalid-session', message: messageOf(error), error }) };
    }
  }

  /**
   * The draft (when given) and the overhead (the controller's unless the call gave one), as plan and
   * estimate options, with the cache profile and the time. @param {Draft | undefined} draft @param {Overhead} [overhead]
   */
  #requestOptions(draft, overhead = this.#overhead) {
    return { ...(draft === undefined ? {} : { draft }), ...(overhead === undefined ? {} : { overhead }), ...this.#clock.planOptions() };
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
