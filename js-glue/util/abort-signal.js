// An abort signal and its controller in one object, for runtimes without AbortController (Zotero's
// plugin sandbox): what the controller hands the runner and the summarizer; and how the runner reads
// a caller's signal (any AbortSignal-like, whose getters and methods may throw).
import { attempt, callSync, hasMethod } from './caller-calls.js';

/** @import { AbortListener, AbortSignalLike } from '../bibgenie_compaction.js' */

/**
 * Signal and controller in one object, for sandboxes without AbortController.
 * @typedef {AbortSignalLike & {
 *   readonly reason: unknown,
 *   onabort: AbortListener | null,
 *   readonly signal: AbortSignalLike,
 *   abort(reason?: unknown): void,
 *   throwIfAborted(): void,
 * }} AbortSignalLikeController
 */

/** An Error named AbortError (DOMException where the runtime has it). @param {string} message */
function abortError(message) {
  const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
  if (typeof g.DOMException === 'function') return new g.DOMException(message, 'AbortError');
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

/**
 * What a call stopped by `signal` rejects with: the signal's reason, else an AbortError.
 * @param {AbortSignalLike} signal @param {string} message
 */
export function abortReason(signal, message) {
  const reason = /** @type {{ reason?: unknown }} */ (signal).reason;
  return reason !== undefined ? reason : abortError(message);
}

/**
 * An abort signal and its controller in one object, for runtimes without AbortController
 * (Zotero's plugin sandbox). Pass it (or its `.signal`, the same object) as `signal`; call
 * `abort()` to cancel.
 * @returns {AbortSignalLikeController}
 */
export function createAbortSignalLike() {
  /** @type {Array<{ listener: Function, once: boolean }>} */
  let listeners = [];
  const state = { aborted: false, reason: /** @type {unknown} */ (undefined) };
  /** @type {AbortSignalLikeController} */
  const signal = {
    get aborted() {
      return state.aborted;
    },
    get reason() {
      return state.reason;
    },
    get signal() {
      return signal;
    },
    onabort: null,
    addEventListener(type, listener, options) {
      if (type !== 'abort' || typeof listener !== 'function' || state.aborted) return;
      if (listeners.some((l) => l.listener === listener)) return;
      listeners.push({ listener, once: !!(options && options.once) });
    },
    removeEventListener(type, listener) {
      if (type !== 'abort') return;
      listeners = listeners.filter((l) => l.listener !== listener);
    },
    abort(reason) {
      if (state.aborted) return;
      state.aborted = true;
      state.reason = reason === undefined ? abortError('The operation was aborted.') : reason;
      const event = { type: /** @type {'abort'} */ ('abort'), target: signal };
      const toCall = [...(typeof signal.onabort === 'function' ? [signal.onabort] : []), ...listeners.map((l) => l.listener)];
      listeners = [];
      for (const listener of toCall) {
        try {
          listener.call(signal, event);
        } catch (error) {
          // Like DOM event dispatch: one failing listener does not stop the others.
          const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
          if (typeof g.reportError === 'function') g.reportError(error);
          else if (g.console) g.console.error(error);
        }
      }
    },
    throwIfAborted() {
      if (state.aborted) throw state.reason;
    },
  };
  return signal;
}

/**
 * `promise`'s value, or null once `abort` fired first.
 * @template T @param {ReturnType<typeof createAbortSignalLike>} abort @param {Promise<T>} promise @returns {Promise<T | null>}
 */
export function untilAborted(abort, promise) {
  if (abort.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(null);
    abort.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => (abort.removeEventListener('abort', onAbort), resolve(value)),
      (error) => (abort.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

// ---- a caller's signal, as the runner reads it ---------------------------------------------------

/** What `race` answers when the signal aborted first. */
const NOT_SETTLED = Symbol('aborted');

/** A getter that throws counts as not aborted: the signal cannot be read, so it never fired. @param {AbortSignalLike | null} signal */
export function isAborted(signal) {
  if (signal === null) return false;
  try {
    return Boolean(signal.aborted);
  } catch {
    return false;
  }
}

/**
 * `race` as a read's `wait`: `{ value }`, or `{ stopped: true }` when the signal aborted first.
 * @param {AbortSignalLike | null} signal @param {Promise<unknown>} promise
 * @returns {Promise<{ value: unknown } | { stopped: true }>}
 */
export async function raced(signal, promise) {
  const value = await race(signal, promise);
  return value === NOT_SETTLED ? { stopped: true } : { value };
}

/**
 * Awaits `promise`, or stops waiting when the signal aborts (`NOT_SETTLED`, whatever the promise
 * did). The listener is removed again where the signal allows it.
 * @template T @param {AbortSignalLike | null} signal @param {Promise<T>} promise
 * @returns {Promise<T | typeof NOT_SETTLED>}
 */
async function race(signal, promise) {
  if (isAborted(signal)) return NOT_SETTLED;
  if (signal === null) return promise;
  let resolveOnAbort;
  const aborted = new Promise((resolve) => {
    resolveOnAbort = resolve;
  });
  let subscribed = true;
  try {
    callSync(signal, 'addEventListener', ['abort', resolveOnAbort]);
  } catch {
    subscribed = false;
  }
  const result = await attempt(() => (subscribed ? Promise.race([promise, aborted]) : promise));
  if (subscribed && hasMethod(signal, 'removeEventListener')) {
    try {
      callSync(signal, 'removeEventListener', ['abort', resolveOnAbort]);
    } catch {
      // nothing to undo
    }
  }
  if (isAborted(signal)) return NOT_SETTLED;
  if (result.thrown) throw result.error;
  return result.value;
}

const doNothing = () => {};

/** `{ aborted: false, addEventListener() {}, removeEventListener() {} }`, for a run without a signal. */
export function neverAbortingSignal() {
  return { aborted: false, addEventListener: doNothing, removeEventListener: doNothing };
}
