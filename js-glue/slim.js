// Slim entry: the whole API, but the caller hands over the wasm. No `import.meta`, no fetch of
// a relative URL, so it bundles as a classic script (esbuild `format: 'iife'`, as Zotero plugins do).
//   initSync({ module: bytesOrWebAssemblyModule })          // synchronous
//   await init({ module_or_path: bytesOrModuleOrResponse })  // asynchronous
import initWasm from './bibgenie_compaction.js';

export * from './exports.js';

/**
 * Asynchronous instantiation from what the caller loaded; there is no default location.
 * @param {Parameters<typeof import('./slim.js').init>[0]} input (types: slim.d.ts)
 */
export function init(input) {
  if (input === undefined || input === null) {
    return Promise.reject(
      new TypeError("bibgenie-compaction/slim: pass the wasm, e.g. init({ module_or_path: bytes }) or initSync({ module: bytes })"),
    );
  }
  return initWasm(input);
}

