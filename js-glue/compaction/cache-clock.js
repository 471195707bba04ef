// The controller's clock and prompt cache: the `now`, `cache` and `backgroundCompaction` options.
// Plans get the cache profile and the time (a cold cache compacts from three quarters of the
// threshold); with `backgroundCompaction` the automatic check runs again once the cache's lifetime
// has passed with no new message.
import { codedError } from '../util/coded-error.js';

/** @import { CacheProfile } from '../bibgenie_compaction.js' */

export class CacheClock {
  /** @type {CacheProfile | null} */
  #profile = null;
  /** @type {() => number} */
  #now;
  #background = false;
  /** @type {any} a timer handle: a number, or Node's Timeout (with unref) */
  #timer = null;
  #generation = 0;

  /** @param {{ cache?: unknown, now?: unknown, backgroundCompaction?: unknown }} options the controller's */
  constructor({ cache, now, backgroundCompaction }) {
    if (now !== undefined && typeof now !== 'function') throw codedError('invalid-options', 'CompactionController: now must be a function returning ms since the epoch');
    this.#now = /** @type {() => number} */ (now) ?? (() => Date.now());
    if (cache === undefined) return;
    if (!cache || typeof cache !== 'object') throw codedError('invalid-options', 'CompactionController: cache must be a CacheProfile (cacheProfile(name) gives defaults)');
    this.#profile = /** @type {CacheProfile} */ (cache);
    this.#background = backgroundCompaction === true;
  }

  /** The controller's clock (ms since the epoch). */
  now() {
    return this.#now();
  }

  /** `cache` and `now` for a plan, when there is a cache profile. */
  planOptions() {
    return this.#profile ? { cache: this.#profile, now: this.#now() } : {};
  }

  /**
   * Calls `check` once the cache's lifetime has passed, unless `cancel` (a new message) came first.
   * @param {() => void} check
   */
  schedule(check) {
    const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
    if (!this.#background || typeof g.setTimeout !== 'function') return;
    this.cancel();
    const generation = this.#generation;
    const lifetime = Number(this.#profile?.lifetimeMs);
    if (!Number.isFinite(lifetime) || lifetime <= 0) return;
    this.#timer = g.setTimeout(() => {
      this.#timer = null;
      if (generation === this.#generation) check();
    }, lifetime + 1000);
    this.#timer?.unref?.(); // Node: never keeps the process alive
  }

  cancel() {
    this.#generation++;
    const g = /** @type {Partial<typeof globalThis>} */ (globalThis);
    if (this.#timer !== null && typeof g.clearTimeout === 'function') g.clearTimeout(this.#timer);
    this.#timer = null;
  }
}
