// A consumer written the way a Zotero plugin is: bundled by esbuild as an IIFE (a classic script,
// no import.meta), the wasm bytes fetched as an ArrayBuffer with responseType 'arraybuffer'
// (Zotero's pattern for citeproc-rs), then initSync({ module }).
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

globalThis.bibgenieResult = loadArrayBuffer(document.currentScript.dataset.wasm)
  .then((bytes) => {
    compaction.initSync({ module: bytes });
    const results = {};
    for (const [name, check] of Object.entries(CHECKS)) results[name] = runCheck(name, check);
    return { ok: true, results };
  })
  .catch((error) => ({ ok: false, error: String((error && error.stack) || error) }));
