// The controller's model profile, checked when it is given (constructor, setModel) instead of at the
// first submit: the core's own rules (capacity), plus what only a controller knows is wrong.
import { capacity } from '../bibgenie_compaction.js';
import { codedError } from '../util/coded-error.js';
import { checkModelCounts } from './counts.js';

/** Names people pass for a window or an output cap (AI SDK call options, provider catalogues). */
const NOT_PROFILE_FIELDS = ['maxTokens', 'contextLength', 'context_length', 'maxInputTokens', 'inputTokenLimit', 'max_tokens'];

/**
 * Throws `invalid-model` (with `field`) for a profile the controller cannot plan with:
 * not an object, a count that is not a non-negative integer, `contextWindow` missing or below the
 * core's minimum (1,024 tokens: room for a reserve, a summary and one turn), and `maxOutputTokens`
 * larger than `contextWindow` (the core then reserves a quarter of the window at most, far less than
 * the cap the app sends: responses that long cannot fit, so the profile is wrong); `autoCompactRatio`
 * and `tailShare` outside (0, 1], over the safe input limit, or breaking rule `compaction-frees-room`.
 * Returns the profile's capacity (null before the wasm is loaded).
 * @param {unknown} model @param {string} where
 * @returns {import('../bibgenie_compaction.js').Capacity | null}
 */
export function checkModelProfile(model, where) {
  if (!model || typeof model !== 'object' || Array.isArray(model)) {
    throw codedError('invalid-model', `${where}: model must be a ModelProfile object { contextWindow, maxOutputTokens? }`, { field: 'model' });
  }
  const profile = /** @type {Record<string, unknown>} */ (model);
  checkModelCounts(profile, where);
  if (profile.contextWindow === undefined || profile.contextWindow === null) {
    const given = NOT_PROFILE_FIELDS.filter((name) => name in profile);
    const hint = given.length ? ` (${given.map((n) => `\`${n}\``).join(', ')} is not a ModelProfile field)` : '';
    throw codedError('invalid-model', `${where}: model.contextWindow is missing${hint}: a ModelProfile needs the model's context window in tokens, e.g. { contextWindow: 128000, maxOutputTokens: 16384 }`, { field: 'contextWindow' });
  }
  const window = /** @type {number} */ (profile.contextWindow);
  const cap = profile.maxOutputTokens;
  if (typeof cap === 'number' && cap > window) {
    throw codedError('invalid-model', `${where}: model.maxOutputTokens ${cap} is larger than model.contextWindow ${window}: no response that long fits in the window${reserveOf(profile)}. Give the window and the output cap the model really has`, { field: 'maxOutputTokens' });
  }
  try {
    return capacity(/** @type {import('../bibgenie_compaction.js').ModelProfile} */ (model));
  } catch (cause) {
    const error = /** @type {{ code?: unknown, message?: unknown }} */ (cause);
    // Before the wasm is loaded the core's rules wait for the first call (submit says not-loaded).
    if (error?.code === 'not-loaded') return null;
    if (error?.code !== 'invalid-model') throw cause;
    // The core's messages open with the field they refuse ("model.tailShare: ...").
    const field = /model\.(\w+)/.exec(String(error.message))?.[1] ?? 'model';
    throw codedError('invalid-model', `${where}: ${String(error.message)}`, { field });
  }
}

/** The reserve the core computes for the profile, for the message ('' before the wasm is loaded). @param {Record<string, unknown>} profile */
function reserveOf(profile) {
  try {
    return ` (the reserve would be ${capacity(/** @type {any} */ (profile)).reservedTokens} tokens)`;
  } catch {
    return '';
  }
}
