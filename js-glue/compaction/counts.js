// Counts the glue takes and keeps for later calls (a controller's model and overhead), checked where
// they enter: on the way into wasm JSON turns NaN and ±Infinity into null, which reads as "absent".
import { codedError } from '../util/coded-error.js';

/** The counts of a ModelProfile (a missing contextWindow is the core's to refuse). */
const MODEL_COUNTS = ['contextWindow', 'maxOutputTokens', 'imageTokens'];

/** The fractions of the context window a ModelProfile may set (the core checks how they combine). */
const MODEL_SHARES = ['autoCompactRatio', 'tailShare'];

/** @param {unknown} n */
const isShare = (n) => typeof n === 'number' && Number.isFinite(n) && n > 0 && n <= 1;

/** @param {unknown} n */
const isCount = (n) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

/** @param {unknown} value */
const shown = (value) => (typeof value === 'number' ? String(value) : typeof value === 'string' ? JSON.stringify(value) : typeof value);

/**
 * Throws `invalid-model` for a count of `model` that is not a non-negative integer a JS number holds
 * exactly (NaN, ±Infinity, negative, fractional, not a number), or a share (`autoCompactRatio`,
 * `tailShare`) that is not a number in (0, 1]; the core checks the rest.
 * @param {any} model @param {string} where
 */
export function checkModelCounts(model, where) {
  for (const name of MODEL_COUNTS) {
    const value = model[name];
    if (value === undefined || value === null) continue;
    if (!isCount(value)) throw codedError('invalid-model', `${where}: model.${name} must be a non-negative integer, got ${shown(value)}`, { field: name });
  }
  for (const name of MODEL_SHARES) {
    const value = model[name];
    if (value === undefined || value === null) continue;
    if (!isShare(value)) throw codedError('invalid-model', `${where}: model.${name} must be a number in (0, 1], got ${shown(value)}`, { field: name });
  }
}

/**
 * Throws `invalid-options` for `overhead.tokens` that is not a non-negative integer.
 * @param {any} overhead @param {string} where
 */
export function checkOverheadCounts(overhead, where) {
  if (overhead === undefined || overhead === null || typeof overhead !== 'object' || !('tokens' in overhead)) return;
  const value = overhead.tokens;
  if (value !== undefined && value !== null && !isCount(value)) {
    throw codedError('invalid-options', `${where}: overhead.tokens must be a non-negative integer, got ${shown(value)}`, { field: 'overhead.tokens' });
  }
}
