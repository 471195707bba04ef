// loadCompaction: how the bytes are fetched (Zotero.HTTP, the global Zotero, fetch), one load per
// plugin lifetime, and a failed load that the next call retries. The failures after instantiation
// (another module, a stale version) are pack-consumer-loader.test.mjs's, in a fresh process.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { glue } from './glue-modules.mjs';
import { crateVersion, installedWasmBytes } from './consumer-env.mjs';

const { loadCompaction, unloadCompaction, version } = glue;
const WASM = new Uint8Array(installedWasmBytes());

function fakeZotero(bytes = WASM) {
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
  it('fetches with Zotero.HTTP as an ArrayBuffer, starts the package, and loads only once', async () => {
    const Zotero = fakeZotero();
    const url = 'chrome://bibgenie/content/bibgenie_compaction_bg.wasm';
    const first = loadCompaction({ wasmURL: url, Zotero });
    const again = loadCompaction({ wasmURL: 'chrome://other/x.wasm', Zotero });
    assert.equal(first, again, 'one load per plugin lifetime: a later call waits for the same load');
    assert.equal(await first, undefined);
    assert.equal(version(), crateVersion(), 'the package answers');
    assert.deepEqual(Zotero.requests, [['GET', url, { responseType: 'arraybuffer' }]]);
  });

  it('uses the global Zotero of a plugin sandbox', async () => {
    globalThis.Zotero = fakeZotero();
    await loadCompaction({ wasmURL: 'chrome://bibgenie/content/x.wasm' });
    assert.equal(globalThis.Zotero.requests.length, 1);
  });

  it('takes the bytes, or a compiled module, instead of a URL', async () => {
    await loadCompaction({ wasmBytes: WASM });
    unloadCompaction();
    await loadCompaction({ wasmBytes: await WebAssembly.compile(WASM) });
    assert.equal(version(), crateVersion());
  });

  it('falls back to fetch outside Zotero', async () => {
    let served = 0;
    const server = createServer((req, res) => {
      served++;
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(Buffer.from(WASM));
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address();
      await loadCompaction({ wasmURL: new URL(`http://127.0.0.1:${port}/x.wasm`) });
      assert.equal(served, 1);
    } finally {
      server.close();
    }
  });

  it('reports a failed load with a code and lets the next call retry', async () => {
    const broken = loadCompaction({ wasmURL: 'chrome://x/y.wasm', Zotero: fakeZotero(new Uint8Array([1, 2, 3])) });
    await assert.rejects(broken, { code: 'wasm-load-failed' });
    const Zotero = fakeZotero();
    await loadCompaction({ wasmURL: 'chrome://x/y.wasm', Zotero });
    assert.equal(Zotero.requests.length, 1, 'the retry loaded again');
    unloadCompaction();
    await assert.rejects(loadCompaction({}), { code: 'wasm-load-failed' }, 'neither wasmURL nor wasmBytes');
  });
});
