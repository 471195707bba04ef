// Patches of wasm-bindgen's generated output, run by build.sh right after wasm-bindgen (the files
// are otherwise untouched):  node build/patch-bindgen.mjs pkg/bibgenie_compaction.js pkg/bibgenie_compaction.d.ts
// Each replacement says how often its text must occur, so the build fails when the pinned
// wasm-bindgen's output changes shape instead of shipping a half-patched file.
import { readFileSync, writeFileSync } from 'node:fs';

/** Rewrites `file`: `edit` gets replace(from, to, count), append(text) and prepend(text). */
function patchFile(file, name, edit) {
  let text = readFileSync(file, 'utf8');
  const replace = (from, to, count) => {
    const found = text.split(from).length - 1;
    if (found !== count) throw new Error(`${name}: expected ${count} x ${JSON.stringify(from)} in ${file}, found ${found}`);
    text = text.split(from).join(to);
  };
  edit(replace, (more) => { text += more; }, (more) => { text = more + text; });
  writeFileSync(file, text);
}

const [jsFile, dtsFile] = process.argv.slice(2);
// The edits below are not indented: their template literals are inserted verbatim.

// wasm-bindgen's module state, made safe for a plugin loader (the generated file is otherwise
// untouched): before init every export throws code `not-loaded` instead of a TypeError, a failed
// start leaves no half-set instance, and `resetWasmState()` lets loadCompaction forget an instance
// that failed its version check, so a retry with the right bytes initializes for real.
// Fails the build when the pinned wasm-bindgen's output changes shape.
patchFile(jsFile, 'module state', (replace, append) => {
replace('let wasmModule, wasmInstance, wasm;\n', `const NOT_LOADED = new Proxy({}, {
    get(_, name) {
        if (typeof name !== 'string' || name === 'then') return undefined;
        const error = new Error('bibgenie-compaction is not loaded yet: await loadCompaction({ bindings, wasmURL }) (a Zotero plugin), await init() or call initSync({ module }) before using it');
        error.code = 'not-loaded';
        throw error;
    },
});
let wasmModule, wasmInstance, wasm = NOT_LOADED;
`, 1);
replace('if (wasm !== undefined) return wasm;', 'if (wasm !== NOT_LOADED) return wasm;', 2);
replace('    wasm.__wbindgen_start();\n    return wasm;',
  '    try {\n        wasm.__wbindgen_start();\n    } catch (error) {\n        resetWasmState();\n        throw error;\n    }\n    return wasm;', 1);
append(`
/** Forgets the instance: exports throw 'not-loaded' until the next init. Only for an instance no object was made from. */
export function resetWasmState() {
    wasm = NOT_LOADED;
    wasmInstance = undefined;
    wasmModule = undefined;
    __wbg_init_promise = undefined;
}
`);
});

// The generated declarations name WebAssembly.Module/Memory/Table and BufferSource, which only
// the DOM lib declares: under zotero-types (no DOM lib) they would fail or, with skipLibCheck, turn
// the wasm inputs into `any`. Stand-ins taken from the global WebAssembly where the lib has one,
// intersected with `object` (the DOM's Module is an empty interface a string would satisfy).
patchFile(dtsFile, 'declarations', (replace, append, prepend) => {
replace('export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;',
  `/** The global WebAssembly namespace where the environment's lib declares one (DOM, webworker). */
type WasmGlobal = typeof globalThis extends { WebAssembly: infer W } ? W : {};
/** An instance of WebAssembly[K]: the lib's type when there is one, never a primitive; otherwise opaque. */
type WasmInstanceOf<K extends string> = WasmGlobal extends { [P in K]: abstract new (...args: any) => infer I } ? I & object : { readonly __wasmInstanceOf: K };
/** A compiled WebAssembly.Module. */
export type WasmModule = WasmInstanceOf<'Module'>;
export type WasmMemory = WasmInstanceOf<'Memory'>;
export type WasmTable = WasmInstanceOf<'Table'>;
/** Wasm bytes. */
export type WasmBytes = ArrayBuffer | ArrayBufferView;

export type InitInput = RequestInfo | URL | Response | WasmBytes | WasmModule;`, 1);
replace('readonly memory: WebAssembly.Memory;', 'readonly memory: WasmMemory;', 1);
replace('readonly __wbindgen_externrefs: WebAssembly.Table;', 'readonly __wbindgen_externrefs: WasmTable;', 1);
replace('export type SyncInitInput = BufferSource | WebAssembly.Module;', 'export type SyncInitInput = WasmBytes | WasmModule;', 1);
// Only the `{ module }` form: the deprecated bare form would let any object (even `{ module: 'a string' }`) pass as a Module.
replace('export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;', 'export function initSync(module: { module: SyncInitInput }): InitOutput;', 1);
// Symbol.dispose (the `using` support of SessionIndex) is in TypeScript's esnext.disposable lib,
// which zotero-types' no-default-lib Gecko declarations leave out.
prepend(`/// <reference lib="esnext.disposable" />\n`);
append(`
/** Forgets the instance: exports throw 'not-loaded' until the next init (loadCompaction's retry). Only for an instance no object was made from. */
export function resetWasmState(): void;
`);
});
