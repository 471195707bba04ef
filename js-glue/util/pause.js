// Long work in slices: a pause that lets the event loop run (a page paints and takes input, Zotero's
// window too) between two pieces, and the clock that sizes the pieces. A timer, since the plugin
// sandbox has no queueMicrotask and a microtask would not let a page paint anyway. Without a timer
// (an unusual host) it only yields to microtasks.

/** How long one slice of long work runs before it pauses (ms). */
export const SLICE_MS = 8;

/** @returns {Promise<void>} */
export function pause() {
  return typeof setTimeout === 'function' ? new Promise((resolve) => setTimeout(resolve, 0)) : Promise.resolve();
}

// Through globalThis: Zotero's plugin scope has no `performance` (tests/zotero-runtime checks the bundle).
const perf = /** @type {{ now?: () => number } | undefined} */ (globalThis.performance);
/** Milliseconds, for sizing slices. */
export const clock = typeof perf?.now === 'function' ? () => /** @type {() => number} */ (perf.now).call(perf) : () => Date.now();
