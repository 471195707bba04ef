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
