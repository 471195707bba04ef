// Main entry: the whole API, plus an `init()` that finds and loads the bundled .wasm itself
// (Node: read from disk; browsers and bundlers: fetched next to this file).
// Runtimes without `import.meta.url` (a Zotero plugin bundled as an IIFE) use './slim.js'.
import initWasm from './bibgenie_compaction.js';

export * from './exports.js';

const WASM_FILE = 'bibgenie_compaction_bg.wasm';
let loading;

/**
 * Instantiates the wasm once; later calls return the same promise.
 * With an argument it is the slim `init`: `{ module_or_path }` (bytes, a `WebAssembly.Module`,
 * a `Response`, or a URL).
 * @param {Parameters<typeof import('./index.js').init>[0]} [input] (types: index.d.ts)
 */
export function init(input) {
  if (input !== undefined) return initWasm(input);
  loading ??= loadBundledWasm().then((module_or_path) => initWasm({ module_or_path }));
  return loading;
}

export default init;

async function loadBundledWasm() {
  const url = new URL(`./${WASM_FILE}`, import.meta.url);
  if (url.protocol !== 'file:') return url;
  // fetch() cannot read file: URLs in Node; the specifier is kept out of bundlers' sight.
  const fsModule = 'node:fs/promises';
  const { readFile } = await import(/* webpackIgnore: true */ /* @vite-ignore */ fsModule);
  return readFile(url);
}
