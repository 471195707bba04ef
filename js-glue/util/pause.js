// A pause that lets the event loop run (a page paints and takes input, Zotero's window too) between
// two pieces of long work: a timer, since the plugin sandbox has no queueMicrotask and a microtask
// would not let a page paint anyway. Without a timer (an unusual host) it only yields to microtasks.

/** @returns {Promise<void>} */
export function pause() {
  return typeof setTimeout === 'function' ? new Promise((resolve) => setTimeout(resolve, 0)) : Promise.resolve();
}
