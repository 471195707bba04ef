// "Use the store's index or load", written once. Every decision of the controller and the runner,
// and the transport's cache marks, read the session through `readSession`: one `withSessionIndex`
// read of the store's held SessionIndex (the package's stores: no load, no parse of the whole
// session), else one `load()` read into a SessionIndex that is freed after use. Either way `use`
// gets a SessionIndex; not exported by the package.
import { SessionIndex } from './session-index.js';
import { hasMethod } from '../util/caller-calls.js';

/**
 * @typedef {{ value: unknown } | { stopped: true } | { failed: 'withSessionIndex' | 'load', error: unknown } | { invalid: unknown } | { notHeld: true }} ReadOutcome
 *   `invalid`: the loaded session is not one an index can read (the core's coded error);
 *   `notHeld`: the store's index cannot hold the session and `load` was false.
 */

/**
 * `use(index)` on the session as the store durably holds it now, in one read; `use` must not await
 * (a lent index is valid only during the call). Through the store's held index when it has one; else
 * (no `withSessionIndex`, or a session the index cannot hold) through `store.load`, unless `load` is
 * false. `wait` wraps each store call (the runner races it against its abort signal) and resolves
 * `{ value }`, or `{ stopped: true }` to end the read. A throw of `use` on the store's index is the
 * store call's (`failed: 'withSessionIndex'`); on a loaded session it propagates. With `kept`, a
 * session loaded is kept there instead of freed, and a read with it set uses it without asking the
 * store (a caller that reads one session many times, such as a compaction's rounds; it frees it).
 * @template T
 * @param {any} store @param {string} sessionId @param {(index: SessionIndex) => T} use
 * @param {{ load?: boolean, wait?: (promise: Promise<any>) => Promise<{ value: any } | { stopped: true }>, kept?: { index: SessionIndex | null } }} [options]
 * @returns {Promise<{ value: T } | Exclude<ReadOutcome, { value: unknown }>>}
 */
export async function readSession(store, sessionId, use, { load = true, wait = settled, kept } = {}) {
  if (kept?.index) return { value: use(kept.index) };
  if (hasMethod(store, 'withSessionIndex')) {
    /** @type {{ value: any } | { stopped: true }} */
    let held;
    const notHeld = {};
    try {
      held = await wait(Promise.resolve(store.withSessionIndex(sessionId, (/** @type {SessionIndex | null} */ index) => (index === null ? notHeld : use(index)))));
    } catch (error) {
      return { failed: 'withSessionIndex', error };
    }
    if (!('value' in held)) return held;
    if (held.value !== notHeld) return { value: held.value };
  }
  if (!load) return { notHeld: true };
  /** @type {{ value: any } | { stopped: true }} */
  let loaded;
  try {
    loaded = await wait(Promise.resolve(store.load(sessionId)));
  } catch (error) {
    return { failed: 'load', error };
  }
  if (!('value' in loaded)) return loaded;
  let index;
  try {
    index = SessionIndex.from(loaded.value);
  } catch (error) {
    return { invalid: error };
  }
  if (!kept) return { value: useFreed(index, use) };
  kept.index = index;
  return { value: use(index) };
}

/**
 * `use` on a SessionIndex of `session`, freed after use; throws the session's errors.
 * @template T @param {any} session @param {(index: SessionIndex) => T} use @returns {T}
 */
export function onSession(session, use) {
  return useFreed(SessionIndex.from(session), use);
}

/** @template T @param {SessionIndex} index @param {(index: SessionIndex) => T} use @returns {T} */
function useFreed(index, use) {
  try {
    return use(index);
  } finally {
    index.free();
  }
}

/** `wait` of a read nothing stops. @param {Promise<any>} promise */
async function settled(promise) {
  return { value: await promise };
}
