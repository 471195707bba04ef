// loadCompaction: how the bytes are fetched (Zotero.HTTP, fetch), compile-once caching and
// failures, with a tiny hand-assembled wasm module standing in for the real build.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { glue } from './glue-modules.mjs';

const { loadCompaction, unloadCompaction } = glue;

// (module (func (export "answer") (result i32) i32.const 42))
const ANSWER_WASM = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f,
  0x03, 0x02, 0x01, 0x00,
  0x07, 0x0a, 0x01, 0x06, 0x61, 0x6e, 0x73, 0x77, 0x65, 0x72, 0x00, 0x00,
  0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b,
]);

/** Stands in for the wasm-bindgen module namespace: initSync plus a wrapped export. */
function fakeBindings() {
  let exports = null;
  const calls = [];
  return {
    calls,
    initSync(input) {
      calls.push(['initSync', input.module instanceof WebAssembly.Module]);
      exports = new WebAssembly.Instance(input.module).exports;
      return exports;
    },
    answer: () => exports.answer(),
  };
}

function fakeZotero(bytes = ANSWER_WASM) {
  const requests = [];
  return {
    requests,
    HTTP: {
      async request(method, url, options) {
        requests.push([method, url, options]);
        return { status: 200, response: bytes.slice().buffer };
      },
    },
  };
}

afterEach(() => {
  unloadCompaction();
  delete globalThis.Zotero;
});

describe('loadCompaction', () => {
  it('fetches with Zotero.HTTP as an ArrayBuffer, initializes, and loads only once', async () => {
    const Zotero = fakeZotero();
    const bindings = fakeBindings();
    const url = 'chrome://bibgenie/content/bibgenie_compaction_bg.wasm';
    const first = loadCompaction({ wasmURL: url, bindings, Zotero });
    const again = loadCompaction({ wasmURL: url, bindings, Zotero });
    assert.equal(first, again, 'one load per plugin lifetime');
    // A later call with the same module's functions gets its own bindings object, as typed (issue 24);
    // another module's were never initialized: refused.
    const ownBindings = { ...bindings };
    const second = loadCompaction({ wasmURL: 'chrome://other/x.wasm', bindings: ownBindings, Zotero });
    await assert.rejects(loadCompaction({ wasmURL: 'chrome://other/x.wasm', bindings: fakeBindings(), Zotero }), { code: 'already-loaded' });
    const loaded = await first;
    assert.equal(loaded, bindings);
    assert.equal(await second, ownBindings);
    assert.equal(loaded.answer(), 42);
    assert.deepEqual(Zotero.requests, [['GET', url, { responseType: 'arraybuffer' }]]);
    assert.deepEqual(bindings.calls, [['initSync', true]], 'initSync gets a compiled WebAssembly.Module');
  });

  it('uses the global Zotero of a plugin sandbox', async () => {
    globalThis.Zotero = fakeZotero();
    const bindings = fakeBindings();
    await loadCompaction({ wasmURL: 'chrome://bibgenie/content/x.wasm', bindings });
    assert.equal(globalThis.Zotero.requests.length, 1);
    assert.equal(bindings.answer(), 42);
  });

  it('prefers the asynchronous init when the bindings have one', async () => {
    const seen = [];
    const bindings = {
      default: async (input) => {
        seen.push(input.module_or_path instanceof WebAssembly.Module);
        return new WebAssembly.Instance(input.module_or_path).exports;
      },
      initSync: () => assert.fail('initSync should not be used'),
    };
    assert.equal(await loadCompaction({ wasmBytes: ANSWER_WASM, bindings }), bindings);
    assert.deepEqual(seen, [true]);
  });

  it('falls back to fetch outside Zotero', async () => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(Buffer.from(ANSWER_WASM));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address();
      const bindings = fakeBindings();
      await loadCompaction({ wasmURL: new URL(`http://127.0.0.1:${port}/x.wasm`), bindings });
      assert.equal(bindings.answer(), 42);
    } finally {
      server.close();
    }
  });

  it('returns what init returned when no bindings object is given', async () => {
    const exports = await loadCompaction({ wasmBytes: ANSWER_WASM, initSync: ({ module }) => new WebAssembly.Instance(module).exports });
    assert.equal(exports.answer(), 42);
  });

  it('reports a failed load with a code and lets the next call retry', async () => {
    const broken = loadCompaction({ wasmURL: 'chrome://x/y.wasm', bindings: fakeBindings(), Zotero: fakeZotero(new Uint8Array([1, 2, 3])) });
    await assert.rejects(broken, { code: 'wasm-load-failed' });
    const bindings = fakeBindings();
    await loadCompaction({ wasmURL: 'chrome://x/y.wasm', bindings, Zotero: fakeZotero() });
    assert.equal(bindings.answer(), 42);
    await assert.rejects(
      (unloadCompaction(), loadCompaction({ wasmBytes: ANSWER_WASM })),
      { code: 'wasm-load-failed' },
      'without an init function',
    );
  });
});
