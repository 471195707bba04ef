// "Use the store's index or load", written once. Every decision of the controller and the runner,
// and the transport's cache marks, read the session through `readSession`: one `withSessionIndex`
// read of the store's held index (the package's stores: no load, no parse of the whole session),
// else one `load()` read into a SessionIndex that is freed after use. Not exported by the package:
// the `PREPARED` and `SEND_MARKS` keys are how the controller hands its read to the runner and to
// the transport, so that neither reads the same state again.
import { SessionIndex } from '../bibgenie_compaction.js';
import { project } from './calls.js';

const WasmIndex = /** @type {import('../wasm-internals.js').InternalSessionIndexClass} */ (/** @type {unknown} */ (SessionIndex));

/** The options key of `compact` under which the controller hands over `{ plan, request, session }` it read. */
export const PREPARED = Symbol('prepared run');
/** The options key of `submit` under which the transport asks for the cache marks of what is sent (its breakpoint options). */
export const SEND_MARKS = Symbol('send marks');
/** The cache marks `submit` computed for a result, in the read that made its messages. */
export const sendMarks = new WeakMap();

/** What `readSession` answers when the store's index cannot hold the session and `load` is false. */
export const NOT_HELD = Symbol('not held');
/** `stopped` of a read that `wait` never stops: no store call or `use` answers it (NOT_HELD would be "not held"). */
const NEVER_STOPPED = Symbol('never stopped');

/**
 * `use(view)` on the session as the store durably holds it now, in one read. `view` has `leafId`,
 * `branchRevision`, `has(id)`, `index` (plan, estimate, summaryRequest, cacheBreakpoints,
 * checkCommit), `project()` and `lazySession()`; it is valid only inside `use`, which must not
 * await. Through the store's held index when it has one; else (no `withSessionIndex`, or a session
 * the index cannot hold) through `store.load`, unless `load` is false (then `NOT_HELD`). `wait`
 * wraps each store call (the runner races it against its abort signal); when it resolves `stopped`,
 * so does this. Resolves `{ value }`, or `{ failed: 'withSessionIndex' | 'load', error }` naming
 * the store call that threw (with the index, a throw of `use` is the store call's).
 * @template T
 * @param {any} store @param {string} sessionId @param {(view: any) => T} use
 * @param {{ load?: boolean, wait?: (promise: Promise<any>) => Promise<any>, stopped?: unknown }} [options]
 * @returns {Promise<{ value: T | typeof NOT_HELD } | { stopped: true } | { failed: 'withSessionIndex' | 'load', error: unknown }>}
 */
export async function readSession(store, sessionId, use, { load = true, wait = (promise) => promise, stopped = NEVER_STOPPED } = {}) {
  if (typeof methodOf(store, 'withSessionIndex') === 'function') {
    let held;
    try {
      held = await wait(Promise.resolve(store.withSessionIndex(sessionId, (/** @type {any} */ view) => (view === null ? NOT_HELD : use(view)))));
    } catch (error) {
      return { failed: 'withSessionIndex', error };
    }
    if (held === stopped) return { stopped: true };
    if (held !== NOT_HELD) return { value: held };
  }
  if (!load) return { value: NOT_HELD };
  let session;
  try {
    session = await wait(Promise.resolve(store.load(sessionId)));
  } catch (error) {
    return { failed: 'load', error };
  }
  if (session === stopped) return { stopped: true };
  const view = loadedView(session);
  try {
    return { value: use(view) };
  } finally {
    view.free();
  }
}

/** `target[name]`, or undefined when reading it throws. @param {any} target @param {string} name */
function methodOf(target, name) {
  try {
    return target !== null && typeof target === 'object' ? target[name] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The view of a loaded session: the head and `has` from its fields (a session without a node list
 * has no leaf to match); `index` a SessionIndex of it, made on first use (it throws the session's
 * errors there, as `SessionIndex.from` does).
 * @param {any} session
 */
function loadedView(session) {
  const nodes = session !== null && typeof session === 'object' && Array.isArray(session.nodes) ? session.nodes : null;
  /** @type {any} */
  let index = null;
  return {
    leafId: nodes ? session.leafId : undefined,
    branchRevision: nodes ? session.branchRevision : undefined,
    has: (/** @type {string} */ id) => nodes !== null && nodes.some((/** @type {any} */ node) => node && node.id === id),
    get index() {
      index ??= WasmIndex.from(session);
      return index;
    },
    project: () => project(session),
    lazySession: () => session,
    free: () => {
      index?.free();
      index = null;
    },
  };
}
