// Ending a chat turn from outside its stream. In a Zotero plugin a turn's streams and abort signals
// are a main window's (the sandbox has none of its own): once that window is closed they are dead
// objects, the stream's reader never settles again, and neither Stop nor an error would end the
// turn (the session stayed `turn-in-flight`). A TurnStop ends it as Stop does: the request aborted,
// the partial answer stored with `metadata.aborted`, the session's turn released, the app's read
// loop ended. It stops on the unload of the window the turn took its globals from (so an app that
// forgets is not locked out) and on the transport's close() (a pane or a plugin shutting down).

import { createAbortSignalLike } from '../util/abort-signal.js';
import { codedError } from '../util/coded-error.js';
import { PartialAnswer } from './partial-answer.js';

/** The turns of one transport that are not over yet. */
export class TurnStops {
  /** @type {Set<TurnStop>} */
  #turns = new Set();

  /** @param {ConstructorParameters<typeof TurnStop>[0]} options */
  open(options) {
    const turn = new TurnStop(options);
    this.#turns.add(turn);
    void turn.ended.then(() => this.#turns.delete(turn));
    return turn;
  }

  /** Stops every turn; resolves when each has ended (its partial answer stored). @param {string} reason */
  stopAll(reason) {
    return Promise.all([...this.#turns].map((turn) => turn.stop(reason))).then(() => undefined);
  }
}

/**
 * One turn's stop: the abort signal the request gets (following the app's), what the app has been
 * shown of the answer, and the one end of the turn (whichever comes first: the SDK's onFinish, an
 * error, a cancel, or a stop).
 */
export class TurnStop {
  #ended = false;
  #stopping = false;
  #claimed = false;
  /** @type {() => void} */
  #resolveEnded = () => {};
  /** @type {Promise<void>} */
  ended;
  /** @type {any} */
  #abort;
  /** @type {Array<() => void>} */
  #cleanups = [];
  /** @type {((answer: any) => Promise<void> | undefined) | null} stores the partial answer (the transport's persist) */
  #storePartial = null;
  /** @type {{ reader: any, controller: any } | null} the app's stream and what it reads from */
  #stream = null;
  #partial = new PartialAnswer();

  /**
   * @param {{ window: any, abortSignal: any, release: () => void }} options `window`: the one the
   *   turn's globals come from (null: none watched); `abortSignal`: the app's (Stop); `release`
   *   ends the session's turn
   */
  constructor({ window, abortSignal, release }) {
    this.ended = new Promise((resolve) => (this.#resolveEnded = resolve));
    this.#cleanups.push(release);
    this.#abort = abortControllerOf(window);
    if (abortSignal) {
      const follow = () => this.#abortRequest(abortSignal.reason);
      if (abortSignal.aborted) follow();
      else {
        abortSignal.addEventListener?.('abort', follow);
        this.#cleanups.push(() => abortSignal.removeEventListener?.('abort', follow));
      }
    }
    if (window && typeof window.addEventListener === 'function') {
      const gone = () => void this.stop('the window the answer was streaming in was closed');
      try {
        window.addEventListener('unload', gone);
        this.#cleanups.push(() => window.removeEventListener('unload', gone));
      } catch {
        // a window that is already dead: the transport's close() is what stops the turn
      }
    }
  }

  /** The abort signal the request gets: aborted by the app's signal and by a stop. */
  get signal() {
    return this.#abort.signal;
  }

  /** Whether the turn is being stopped from outside (not by the app's signal). */
  get stopping() {
    return this.#stopping;
  }

  /** True once, for whichever end comes first: the SDK's onFinish persists only if it wins. */
  claim() {
    if (this.#ended || this.#claimed) return false;
    this.#claimed = true;
    return true;
  }

  /** Ends the turn (idempotent): the session's turn released, listeners removed. */
  end() {
    if (this.#ended) return;
    this.#ended = true;
    for (const cleanup of this.#cleanups) {
      try {
        cleanup();
      } catch {
        // a dead window's removeEventListener: nothing left to remove
      }
    }
    this.#resolveEnded();
  }

  /**
   * How a stopped turn stores what the app was shown: `store(answer)` claims the turn's end and
   * persists it (undefined when another end claimed it first), then ends the turn.
   * @param {(answer: any) => Promise<void> | undefined} store
   */
  storesPartial(store) {
    this.#storePartial = store;
  }

  /**
   * The stream phase: the app reads `controller`'s stream, fed from `reader`. A stop requested
   * before this point takes effect now.
   * @param {any} reader @param {any} controller
   */
  streaming(reader, controller) {
    this.#stream = { reader, controller };
    if (this.#stopping) void this.#finishStopped();
  }

  /** A chunk the app is given: kept to store what it showed if the turn is stopped. @param {unknown} chunk */
  saw(chunk) {
    this.#partial.add(chunk);
  }

  /**
   * Stops the turn as Stop does: aborts the request, ends the app's stream, stores the partial
   * answer it showed (`metadata.aborted`), releases the session. Before the stream exists the abort
   * cancels the preflight (the send rejects `cancelled`). Resolves when the turn has ended.
   * @param {string} reason
   */
  stop(reason) {
    if (!this.#ended && !this.#stopping) {
      this.#stopping = true;
      this.#abortRequest(codedError('cancelled', reason));
      if (this.#stream) void this.#finishStopped();
    }
    return this.ended;
  }

  /** @param {unknown} reason */
  #abortRequest(reason) {
    try {
      this.#abort.abort(reason);
    } catch {
      // the signal's window is gone: so is what it would have stopped
    }
  }

  async #finishStopped() {
    const { reader, controller } = /** @type {{ reader: any, controller: any }} */ (this.#stream);
    // The SDK's stream is no longer read (its window may be dead: nothing is awaited from it).
    try {
      void Promise.resolve(reader.cancel()).catch(() => {});
    } catch {
      // a dead reader
    }
    try {
      controller.close();
    } catch {
      // closed already, or its window is dead: the app's own close() settles its send
    }
    const store = this.#storePartial;
    if (!store) return this.end();
    try {
      // undefined: the SDK's onFinish came first and is storing the answer; it ends the turn
      await store(this.#partial.message());
    } catch {
      // persisting failed: the question stays unanswered (the next send of it answers it)
    }
    await this.ended;
  }
}

/**
 * An abort controller for the request: the window's own (the AI SDK combines signals with
 * AbortSignal.any, which takes only real ones), the scope's, or a signal-like one (no runtime has
 * an AbortController: then nothing the request uses needs a real signal either).
 * @param {any} window
 */
function abortControllerOf(window) {
  for (const source of [window, globalThis]) {
    try {
      const Controller = source?.AbortController;
      if (typeof Controller === 'function') return new Controller();
    } catch {
      // a dead window, or a stand-in with no window open: try the next
    }
  }
  return createAbortSignalLike();
}
