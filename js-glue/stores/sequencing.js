// Sequencing primitives of the stores: a queue of async jobs, and a runner for operations
// written as generators over driver calls that stays synchronous while the driver is.

/**
 * Serializes promise-returning jobs: each starts after the previous one settled.
 * Used so two async callers never interleave inside one store operation.
 */
export class AsyncMutex {
  #tail = Promise.resolve();
  #pending = 0;

  /** True when no job is queued or running. */
  get idle() {
    return this.#pending === 0;
  }

  /**
   * @template T
   * @param {() => Promise<T> | T} job
   * @returns {Promise<T>}
   */
  run(job) {
    this.#pending++;
    const result = this.#tail.then(() => job());
    this.#tail = result.then(
      () => {
        this.#pending--;
      },
      () => {
        this.#pending--;
      },
    );
    return result;
  }

  /** Resolves once every job queued so far has settled. */
  drain() {
    return this.#tail;
  }
}

/** @param {unknown} value @returns {value is PromiseLike<unknown>} */
function isThenable(value) {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (/** @type {{ then?: unknown }} */ (value).then) === 'function';
}

/**
 * Runs a generator that yields driver results: synchronously for as long as they are plain
 * values, so a synchronous driver runs a whole operation inside one synchronous transaction;
 * asynchronously from the first promise on.
 * @template T
 * @param {Generator<unknown, T, any>} gen
 * @returns {T | Promise<T>}
 */
export function drive(gen) {
  let step = gen.next();
  while (!step.done) {
    if (isThenable(step.value)) return driveAsync(gen, step.value);
    step = gen.next(step.value);
  }
  return step.value;
}

/**
 * @template T
 * @param {Generator<unknown, T, any>} gen
 * @param {PromiseLike<unknown>} pending
 * @returns {Promise<T>}
 */
async function driveAsync(gen, pending) {
  let step;
  try {
    step = gen.next(await pending);
  } catch (error) {
    step = gen.throw(error);
  }
  while (!step.done) {
    if (!isThenable(step.value)) {
      step = gen.next(step.value);
      continue;
    }
    try {
      const value = await step.value;
      step = gen.next(value);
    } catch (error) {
      step = gen.throw(error);
    }
  }
  return step.value;
}
