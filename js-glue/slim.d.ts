// Types of the slim entry: the caller hands over the wasm (bytes, WebAssembly.Module or Response).
import type { InitInput, InitOutput } from './bibgenie_compaction.js';

// The export list of both entries (exports.d.ts, emitted from exports.js) and their type names; only init differs.
export * from './exports.js';
export type * from './types.js';

/** Asynchronous instantiation from the wasm the caller loaded. Use `initSync({ module })` for the synchronous form. */
export function init(
  input: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;
