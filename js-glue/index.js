// Main entry: the whole API, plus an `init()` that finds and loads the bundled .wasm itself
// (Node: read from disk; browsers and bundlers: fetched next to this file).
// Runtimes without `import.meta.url` (a Zotero plugin bundled as an IIFE) use './slim.js'.
import initWasm, { resetWasmState } from './bibgenie_compaction.js';
import { codedError } from './util/coded-error.js';

export * from './exports.js';

/** @type {Promise<import('./bibgenie_compaction.js').InitOutput> | undefined} */
let loading;

const HOW_TO_PASS = "pass it yourself: init({ module_or_path: new URL('…/bibgenie_compaction_bg.wasm', location.href) }) "
  + "or init({ module_or_path: bytes }) (Node: readFileSync(require.resolve('bibgenie-compaction/wasm'))), or use 'bibgenie-compaction/slim'";

/**
 * Instantiates the wasm once; later calls return the same promise. A failure rejects with
 * `wasm-load-failed` naming the URL or path it tried, and is forgotten, so a later call tries again.
 * With an argument it is the slim `init`: `{ module_or_path }` (bytes, a `WebAssembly.Module`,
 * a `Response`, or a URL).
 * @param {Parameters<typeof import('./index.js').init>[0]} [input] (types: index.d.ts)
 */
export function init(input) {
  if (input !== undefined) return initWasm(input);
  loading ??= loadBundledWasm().catch((error) => {
    loading = undefined;
    resetWasmState();
    throw error;
  });
  return loading;
}


async function loadBundledWasm() {
  /** @type {URL} */
  let url;
  try {
    // The literal form bundlers recognise (Vite, webpack 5, Parcel, Rollup's plugins): they emit
    // the .wasm as an asset and rewrite the URL to it.
    url = new URL('./bibgenie_compaction_bg.wasm', import.meta.url);
  } catch (cause) {
    throw loadFailed(`bibgenie-compaction: no URL for bibgenie_compaction_bg.wasm beside the module (import.meta.url is ${String(import.meta.url)}): ${message(cause)}`, undefined, cause);
  }
  if (url.protocol !== 'file:') {
    try {
      return await initWasm({ module_or_path: await fetchWasm(url) });
    } catch (cause) {
      throw loadFailed(`bibgenie-compaction: could not load the .wasm from ${url.href}: ${message(cause)}`, url.href, cause);
    }
  }
  // fetch() cannot read file: URLs in Node; the specifier is kept out of bundlers' sight.
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsModule);
  let bytes;
  try {
    bytes = await readFile(url);
  } catch (cause) {
    throw loadFailed(`bibgenie-compaction: could not read the .wasm at ${decodeURIComponent(url.pathname)}: ${message(cause)}`, url.href, cause);
  }
  try {
    return await initWasm({ module_or_path: bytes });
  } catch (cause) {
    throw loadFailed(`bibgenie-compaction: the .wasm at ${decodeURIComponent(url.pathname)} did not start: ${message(cause)}`, url.href, cause);
  }
}

/** The response for `url`, refused unless it is a 2xx with a body (a dev server's HTML fallback is no wasm). @param {URL} url */
async function fetchWasm(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  return response;
}

/** @param {unknown} cause */
function message(cause) {
  return cause instanceof Error ? cause.message : String(cause);
}

/** @param {string} text @param {string | undefined} url @param {unknown} cause */
function loadFailed(text, url, cause) {
  return codedError('wasm-load-failed', `${text}. To load it from elsewhere, ${HOW_TO_PASS}`, { url, cause, retryable: true });
}
