// The one shape of the glue's errors: a JS Error with a stable `code` (and any fields a caller may
// read, such as the current head of a refused append), like the errors the wasm core throws.

/**
 * @param {string} code
 * @param {string} message
 * @param {Record<string, unknown>} [fields]
 */
export function codedError(code, message, fields) {
  const error = new Error(message);
  Object.assign(error, { code }, fields);
  return error;
}

/**
 * The message of what was thrown: an Error's, a string, an object's `message`, else what it is
 * (a `message` getter that throws counts as none).
 * @param {unknown} thrown
 */
export function messageOf(thrown) {
  if (thrown instanceof Error) return thrown.message;
  if (typeof thrown === 'string') return thrown;
  let message;
  try {
    message = thrown !== null && (typeof thrown === 'object' || typeof thrown === 'function') ? /** @type {any} */ (thrown).message : undefined;
  } catch {
    message = undefined;
  }
  return typeof message === 'string' ? message : `a thrown ${thrown === null ? 'null' : typeof thrown}`;
}
