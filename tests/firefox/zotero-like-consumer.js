// A consumer written the way a Zotero plugin is: bundled by esbuild as an IIFE (a classic script,
// no import.meta), the wasm bytes fetched as an ArrayBuffer with responseType 'arraybuffer'
// (Zotero's pattern for citeproc-rs), then loadCompaction (initSync) after two failed loads that
// must leave nothing behind.
// It publishes `globalThis.bibgenieResult`, a promise of what each check returned.
import * as compaction from 'bibgenie-compaction/slim';

const SAMPLE_SESSION = {
  nodes: [
    { id: 'u1', parentId: null, role: 'user', parts: [{ type: 'text', text: 'Find papers on 文献 reuse' }] },
    { id: 'a1', parentId: 'u1', role: 'assistant', parts: [{ type: 'text', text: 'Here are three.' }] },
  ],
  leafId: 'a1',
  branchRevision: 1,
};

// One entry per API call to exercise in the page; the test asserts on the returned values.
// A check whose export does not exist yet reports { missing: true }.
const CHECKS = {
  version: (api) => api.version(),
  project: (api) => api.project(SAMPLE_SESSION),
  projectError: (api) => api.project({ nodes: 'not an array', leafId: 'x', branchRevision: 0 }),
};
const EXPORT_OF_CHECK = { version: 'version', project: 'project', projectError: 'project' };

function loadArrayBuffer(url) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url);
    xhr.responseType = 'arraybuffer';
    xhr.onload = () => (xhr.status === 200 ? resolve(xhr.response) : reject(new Error(`GET ${url}: ${xhr.status}`)));
    xhr.onerror = () => reject(new Error(`GET ${url} failed`));
    xhr.send();
  });
}

function runCheck(name, check) {
  if (typeof compaction[EXPORT_OF_CHECK[name]] !== 'function') return { missing: true };
  try {
    return { value: check(compaction) };
  } catch (error) {
    return { thrown: { isError: error instanceof Error, code: error && error.code, message: String(error && error.message) } };
  }
}

// (module (func (export "answer") (result i32) i32.const 42)): valid wasm, not this build.
const OTHER_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, 0x03, 0x02, 0x01, 0x00,
  0x07, 0x0a, 0x01, 0x06, 0x61, 0x6e, 0x73, 0x77, 0x65, 0x72, 0x00, 0x00, 0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b,
]);

/** What a call threw, as plain data for the test. */
async function failure(fn) {
  try {
    await fn();
    return { thrown: null };
  } catch (error) {
    return { thrown: { isError: error instanceof Error, code: error && error.code, message: String(error && error.message) } };
  }
}

/** `[object X]`'s X: ArrayBuffer, Uint8Array, WebAssembly.Module. */
const kindOf = (value) => Object.prototype.toString.call(value).slice(8, -1);

async function run(script) {
  const loading = {
    beforeLoad: await failure(() => compaction.version()),
    otherModule: await failure(() => compaction.loadCompaction({ wasmBytes: OTHER_MODULE })),
    afterFailedLoad: await failure(() => compaction.version()),
    missingFile: await failure(() => compaction.loadCompaction({ wasmURL: new URL('/missing.wasm', location.href).href })),
  };
  const bytes = await loadArrayBuffer(script.dataset.wasm);
  const loaded = await compaction.loadCompaction({ wasmBytes: bytes });
  const load = { bytes: kindOf(bytes), byteLength: bytes.byteLength, resolved: loaded === undefined ? 'undefined' : kindOf(loaded) };
  const results = {};
  for (const [name, check] of Object.entries(CHECKS)) results[name] = runCheck(name, check);
  return { ok: true, results, loading, load };
}

const currentScript = document.currentScript; // null once the first await has run
globalThis.bibgenieResult = run(currentScript)
  .catch((error) => ({ ok: false, error: String((error && error.stack) || error) }));
