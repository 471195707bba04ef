// Loading the wasm inside a Zotero plugin (Zotero 7 / Firefox 115, Zotero 8+ / Firefox 140).
//
// Works when bundled by esbuild as an IIFE: no import.meta, no window, no AbortController, so this
// file can be bundled with the slim entry as a classic script. It starts the package's own copy of
// the wasm-bindgen module (the one every export of the package uses).

import initWasm, { resetWasmState, version } from '../bibgenie_compaction.js';
import { PACKAGE_VERSION } from '../util/version.js';

/** @import { WasmBytes, WasmModule } from '../bibgenie_compaction.js' */
/**
 * Bytes or a compiled module (never a string: the types hold without the DOM lib too).
 * @typedef {WasmBytes | WasmModule} WasmSource
 */
/**
 * @typedef {object} LoadCompactionOptions
 * @property {string | URL} [wasmURL] e.g. `chrome://<addonRef>/content/bibgenie_compaction_bg.wasm`
 * @property {WasmSource} [wasmBytes] The bytes (or a compiled module) instead of a URL.
 * @property {{ HTTP: { request(method: string, url: string, options: { responseType: 'arraybuffer' }): Promise<{ status?: number, response: ArrayBuffer }> } }} [Zotero]
 *   Defaults to the global Zotero when there is one.
 */

/** @type {Promise<void> | null} */
let loaded = null;

/** @param {string} message @param {unknown} [cause] @param {string} [code] */
function loadError(message, cause, code = 'wasm-load-failed') {
  /** @type {Error & { code?: string, expected?: string, actual?: unknown }} */
  const error = new Error(cause === undefined ? message : `${message}: ${cause instanceof Error ? cause.message : String(cause)}`);
  error.code = code;
  if (cause !== undefined) error.cause = cause;
  return error;
}

/**
 * Why WebAssembly.compile refused bytes: Firefox 153+ refuses to compile wasm in system-principal
 * code (a Zotero plugin's scope) unless an eval pref allows it, and then says only "blocked by
 * CSP". Bytes that validate were refused, not broken.
 * @param {WasmSource} source @param {unknown} cause
 */
function compileError(source, cause) {
  let valid = false;
  try {
    valid = !(source instanceof WebAssembly.Module) && WebAssembly.validate(/** @type {BufferSource} */ (source));
  } catch {
    valid = /blocked by CSP/i.test(String(cause instanceof Error ? cause.message : cause));
  }
  if (!valid) return loadError('loadCompaction: the bytes are not a valid wasm module', cause);
  return loadError(
    'loadCompaction: this scope may not compile WebAssembly (Firefox blocks it in privileged code unless '
      + 'security.allow_eval_with_system_principal or security.allow_eval_in_parent_process is true, as Zotero sets them)',
    cause,
    'wasm-compile-blocked',
  );
}

/**
 * Fetches bytes the way the host allows: Zotero.HTTP (handles chrome:// and resource://
 * URLs inside Zotero), then fetch, then XMLHttpRequest.
 * @param {string} url
 * @param {LoadCompactionOptions['Zotero']} zotero
 * @returns {Promise<ArrayBuffer>}
 */
async function fetchBytes(url, zotero) {
  if (zotero && zotero.HTTP && typeof zotero.HTTP.request === 'function') {
    const xhr = await zotero.HTTP.request('GET', url, { responseType: 'arraybuffer' });
    // A missing file in an unpacked (folder) plugin answers status 0 with no bytes.
    return nonEmpty(xhr && xhr.response, xhr && xhr.status);
  }
  const g = /** @type {any} */ (globalThis);
  if (typeof g.fetch === 'function') {
    const response = await g.fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status} for ${url}`);
    return nonEmpty(await response.arrayBuffer(), response.status);
  }
  if (typeof g.XMLHttpRequest === 'function') {
    return new Promise((resolve, reject) => {
      const xhr = new g.XMLHttpRequest();
      xhr.open('GET', url);
      xhr.responseType = 'arraybuffer';
      // chrome:// and file:// answer with status 0.
      xhr.onload = () => {
        if (xhr.status !== 0 && (xhr.status < 200 || xhr.status >= 300)) reject(new Error(`HTTP ${xhr.status} for ${url}`));
        else {
          try {
            resolve(nonEmpty(xhr.response, xhr.status));
          } catch (error) {
            reject(error);
          }
        }
      };
      xhr.onerror = () => reject(new Error(`network error for ${url}`));
      xhr.send();
    });
  }
  throw new Error('no Zotero.HTTP, fetch or XMLHttpRequest in this environment; pass wasmBytes');
}

/**
 * The bytes, or an "(empty)" error. Duck-typed: an ArrayBuffer made by Zotero's window is not an
 * instance of the plugin sandbox's ArrayBuffer.
 * @param {unknown} response @param {unknown} status
 */
function nonEmpty(response, status) {
  const size = response && typeof (/** @type {any} */ (response).byteLength) === 'number' ? /** @type {any} */ (response).byteLength : 0;
  if (size === 0) throw new Error(`empty (status ${String(status)}, 0 bytes): is the .wasm copied into the plugin?`);
  return /** @type {ArrayBuffer} */ (response);
}

/** @param {LoadCompactionOptions} options */
async function load(options) {
  let source = options.wasmBytes;
  if (source === undefined) {
    if (options.wasmURL === undefined) throw loadError('loadCompaction: pass wasmURL or wasmBytes');
    const zotero = options.Zotero ?? /** @type {{ Zotero?: LoadCompactionOptions['Zotero'] }} */ (globalThis).Zotero;
    try {
      source = await fetchBytes(String(options.wasmURL), zotero);
    } catch (cause) {
      throw loadError(`loadCompaction: could not read ${String(options.wasmURL)}`, cause);
    }
  }
  let module;
  try {
    // Compiling asynchronously keeps a large module from blocking Zotero's UI thread.
    module = source instanceof WebAssembly.Module ? source : await WebAssembly.compile(/** @type {BufferSource} */ (source));
  } catch (cause) {
    throw compileError(source, cause);
  }
  const where = options.wasmURL === undefined ? 'the wasm bytes' : String(options.wasmURL);
  try {
    await initWasm({ module_or_path: module });
  } catch (cause) {
    // Forgotten, so that a retry with the right bytes initializes for real.
    resetWasmState();
    throw loadError(`loadCompaction: ${where} could not be started (a different build of bibgenie-compaction, or not it at all?)`, cause);
  }
  checkVersion(where);
}

/**
 * A stale .wasm (an old copy left in the plugin's content folder) against this JavaScript is a
 * clear error, not a later crash.
 * @param {string} where
 */
function checkVersion(where) {
  if (PACKAGE_VERSION === 'source') return;
  let actual;
  try {
    actual = version();
  } catch (cause) {
    resetWasmState();
    throw loadError(`loadCompaction: ${where} does not report its version (a different build of bibgenie-compaction?)`, cause);
  }
  if (actual === PACKAGE_VERSION) return;
  resetWasmState();
  const error = loadError(
    `loadCompaction: ${where} is bibgenie-compaction ${String(actual)} but its JavaScript is ${PACKAGE_VERSION}: ` +
      'copy node_modules/bibgenie-compaction/bibgenie_compaction_bg.wasm into the plugin again (the build hook does it)',
  );
  error.expected = PACKAGE_VERSION;
  error.actual = actual;
  throw error;
}

/**
 * Loads and starts the package's wasm once per plugin lifetime; later calls wait for the same load.
 * A failed load (code `wasm-load-failed`, or `wasm-compile-blocked`) is forgotten, so it can be
 * retried.
 *
 *   await loadCompaction({ wasmURL: `chrome://${addonRef}/content/bibgenie_compaction_bg.wasm` });
 *
 * It fetches (Zotero.HTTP, else fetch, else XMLHttpRequest), compiles and starts the wasm. Every
 * failure rejects with code `wasm-load-failed` (unreadable or empty file, not wasm, start failed, or
 * a .wasm of another version: then `expected` and `actual` name both) and can be retried;
 * `wasm-compile-blocked` when the scope may not compile wasm (Firefox 153+ privileged code without
 * Zotero's eval prefs).
 * @param {LoadCompactionOptions} options
 * @returns {Promise<void>}
 */
export function loadCompaction(options) {
  if (loaded) return loaded;
  if (!options || typeof options !== 'object') return Promise.reject(loadError('loadCompaction: options are required'));
  const attempt = load(options);
  loaded = attempt;
  attempt.catch(() => {
    if (loaded === attempt) loaded = null;
  });
  return attempt;
}

/**
 * Forgets the load (plugin shutdown, tests): the next loadCompaction loads again. Wasm objects the
 * plugin still holds (a SessionIndex) must be freed with their `free()` before this, and stores
 * closed (`store.close()` frees their per-session indexes).
 */
export function unloadCompaction() {
  loaded = null;
}
