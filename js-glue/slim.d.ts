// Types of the slim entry: the caller hands over the wasm (bytes, WebAssembly.Module or Response).
import type { InitInput, InitOutput } from './bibgenie_compaction.js';

export * from './bibgenie_compaction.js';
// Glue modules (types in glue.d.ts, controller.d.ts and transport.d.ts).
export * from './glue.js';
export * from './controller.js';
export * from './transport.js';

/** Asynchronous instantiation from the wasm the caller loaded. Use `initSync({ module })` for the synchronous form. */
export function init(
  input: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>,
): Promise<InitOutput>;
export default init;
