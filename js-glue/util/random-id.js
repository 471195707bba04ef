// Random ids for drafts, responses and sessions. crypto.getRandomValues exists in Node, Firefox and
// Zotero's plugin scope; Math.random is only the last resort of an unusual runtime.

/**
 * `byteCount` random bytes as lowercase hex.
 * @param {number} byteCount
 */
export function randomHex(byteCount) {
  const c = /** @type {Partial<typeof globalThis>} */ (globalThis).crypto;
  const bytes = new Uint8Array(byteCount);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
