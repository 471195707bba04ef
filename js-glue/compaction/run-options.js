// compact()'s options, checked where they enter (the controller checks its own the same way) and
// copied as they were when compact was called: the run every later step reads.
import { SessionIndex } from '../bibgenie_compaction.js';
import { codedError } from '../util/coded-error.js';
import { get, hasMethod, isObject, plainCopy } from '../util/caller-calls.js';
import { checkResolveItem } from './resolve-items.js';

export { checkResolveItem };

/**
 * @import { AbortSignalLike, ModelProfile, PlanOptions } from '../bibgenie_compaction.js'
 * @import { InternalSessionIndexClass } from '../wasm-internals.js'
 * @import { ResolveItem } from './resolve-items.js'
 */
/**
 * What readOptions takes of the options.
 * @typedef {{ store: object, sessionId: string, model: ModelProfile, planOptions: PlanOptions, summarize: Function, signal: AbortSignalLike | null, resolveItem: ResolveItem | null }} Run
 */

/** The run `compact(options)` makes, its options checked and copied. @param {unknown} options @returns {Run} */
export function readOptions(options) {
  if (!isObject(options)) throw invalid('compact options must be an object { store, sessionId, model, summarize, ... }');
  const store = get(options, 'store');
  if (!isObject(store) || !hasMethod(store, 'load') || !hasMethod(store, 'transaction')) {
    throw invalid('options.store must have load(sessionId) and transaction(sessionId, fn)');
  }
  const sessionId = get(options, 'sessionId');
  if (typeof sessionId !== 'string' || sessionId === '') throw invalid('options.sessionId must be a non-empty string');
  const model = get(options, 'model');
  const mode = get(options, 'mode');
  const draft = get(options, 'draft');
  const overhead = get(options, 'overhead');
  // The model first, then mode, draft and overhead as plan options (invalid-model, invalid-options).
  /** @type {InternalSessionIndexClass} */ (/** @type {unknown} */ (SessionIndex)).checkCompactInputs(model, mode, draft, overhead);
  /** @type {PlanOptions & Record<string, unknown>} */
  const planOptions = { mode: mode ?? 'manual' };
  if (draft !== undefined && draft !== null) planOptions.draft = draft;
  if (overhead !== undefined && overhead !== null) planOptions.overhead = overhead;
  // The prompt cache's profile and the time (plan options, validated by the plan).
  for (const key of ['cache', 'now']) {
    const value = get(options, key);
    if (value !== undefined && value !== null) planOptions[key] = value;
  }
  const summarize = get(options, 'summarize');
  if (typeof summarize !== 'function') throw invalid('options.summarize must be a function (request, signal) => Promise<string>');
  let signal = get(options, 'signal');
  if (signal === undefined || signal === null) signal = null;
  else if (!isObject(signal) || !hasMethod(signal, 'addEventListener')) {
    throw invalid("options.signal must have `aborted` and addEventListener('abort', listener)");
  }
  const resolveItem = checkResolveItem(get(options, 'resolveItem'), 'compact options');
  // Read now, as they were when compact was called (checked to be JSON data above).
  return { store, sessionId, model: plainCopy(model), planOptions: plainCopy(planOptions), summarize, signal, resolveItem };
}

/** @param {string} message */
function invalid(message) {
  return codedError('invalid-options', message);
}
