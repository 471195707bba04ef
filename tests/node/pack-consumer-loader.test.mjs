// The packed slim entry before and around loading, in one fresh process (wasm-bindgen's module
// state is per process): every wasm export throws `not-loaded` before a load; a load that fails
// after instantiation (a valid module that is not this build, a stale .wasm of another version)
// rejects with `wasm-load-failed` and leaves nothing behind, so the retry with the right bytes
// really initializes; Zotero.HTTP's status 0 / 0 bytes reads as "(empty)".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { crateVersion, installedWasmBytes, resolveInstalled } from './consumer-env.mjs';
import * as slim from 'bibgenie-compaction/slim';

const generated = await import(pathToFileURL(join(dirname(resolveInstalled('bibgenie-compaction/slim')), 'bibgenie_compaction.js')).href);
const NOT_WASM_BACKED = new Set(['initSync', 'default', 'resetWasmState']); // wasm-bindgen's loading functions
const SESSION = {
  nodes: [
    { id: 'u1', parentId: null, role: 'user', parts: [{ type: 'text', text: 'Find papers on tone sandhi' }] },
    { id: 'a1', parentId: 'u1', role: 'assistant', parts: [{ type: 'text', text: 'Here are three.' }] },
  ],
  leafId: 'a1',
  branchRevision: 2,
};
const MODEL = { id: 'test-8k', contextWindow: 8192 };

// (module (func (export "answer") (result i32) i32.const 42)): valid wasm, not this build.
const OTHER_MODULE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, 0x03, 0x02, 0x01, 0x00,
  0x07, 0x0a, 0x01, 0x06, 0x61, 0x6e, 0x73, 0x77, 0x65, 0x72, 0x00, 0x00, 0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b,
]);

/** The real .wasm with its version string replaced (same length): what a stale copy reports. */
function wasmReportingVersion(version) {
  const bytes = new Uint8Array(installedWasmBytes());
  const from = Buffer.from(crateVersion());
  const to = Buffer.from(version);
  assert.equal(to.length, from.length);
  let replaced = 0;
  for (let i = 0; i <= bytes.length - from.length; i++) {
    if (from.every((b, k) => bytes[i + k] === b)) {
      bytes.set(to, i);
      replaced++;
    }
  }
  assert.ok(replaced > 0, 'the version string is in the .wasm');
  return bytes;
}

async function thrown(fn) {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

const zoteroAnswering = (status, bytes) => ({
  HTTP: { request: async () => ({ status, response: bytes.slice().buffer }) },
});

test('before a load every wasm export throws not-loaded, with a message that says to await the loader', async () => {
  const names = Object.keys(generated).filter((name) => !NOT_WASM_BACKED.has(name));
  assert.ok(names.length >= 10, `the generated module's exports: ${names}`);
  for (const name of names) {
    // The package's export where it has one, else the generated module's own.
    const call = {
      SessionIndex: () => slim.SessionIndex.from(SESSION),
      ExtractiveFold: () => new generated.ExtractiveFold(SESSION),
    }[name] ?? (() => (slim[name] ?? generated[name])(SESSION, MODEL, { mode: 'manual' }));
    const error = await thrown(call);
    assert.equal(error?.code, 'not-loaded', `${name}: ${error}`);
    assert.match(error.message, /await loadCompaction/);
  }
  // The wrappers of the entry too: the pure session calls (each reads its session into a SessionIndex).
  const wrappers = ['project', 'history', 'readBranch', 'estimate', 'plan', 'cacheBreakpoints', 'summaryRequest', 'checkCommit', 'retryTarget', 'editTarget', 'canFork', 'extractiveSummaryInSlices'];
  for (const name of wrappers) assert.equal((await thrown(() => slim[name](SESSION)))?.code, 'not-loaded', name);
});

test('before a load controller.submit rejects with not-loaded instead of a failed/error result', async () => {
  const store = new slim.MemoryStore();
  await store.importSession(SESSION, { sessionId: 's1' });
  const controller = new slim.CompactionController({ store, sessionId: 's1', model: MODEL, summarize: async () => 'x' });
  await assert.rejects(controller.submit('and the fourth paper?'), { code: 'not-loaded' });
  const outcome = await controller.compact();
  assert.equal(outcome.status, 'failed');
  assert.equal(outcome.reason, 'not-loaded', 'compact never rejects, and names the cause');
});

test('a valid wasm module that is not this build: wasm-load-failed, and nothing is left set', async () => {
  const error = await thrown(() => slim.loadCompaction({ wasmBytes: OTHER_MODULE }));
  assert.equal(error?.code, 'wasm-load-failed', String(error));
  assert.match(error.message, /could not be started/);
  assert.equal((await thrown(() => slim.version()))?.code, 'not-loaded');
});

test('a stale .wasm of another version: wasm-load-failed naming both versions, then forgotten', async () => {
  const error = await thrown(() =>
    slim.loadCompaction({ wasmURL: 'chrome://plugin/content/bibgenie_compaction_bg.wasm', Zotero: zoteroAnswering(200, wasmReportingVersion('9.9.9')) }),
  );
  assert.equal(error?.code, 'wasm-load-failed', String(error));
  assert.equal(error.actual, '9.9.9');
  assert.equal(error.expected, crateVersion());
  assert.match(error.message, /9\.9\.9.*copy/);
  assert.equal((await thrown(() => slim.version()))?.code, 'not-loaded', 'the stale instance is not kept');
});

test("Zotero.HTTP's status 0 with 0 bytes (a missing file in a folder plugin) reads as empty", async () => {
  const url = 'chrome://plugin/content/missing.wasm';
  const error = await thrown(() => slim.loadCompaction({ wasmURL: url, Zotero: zoteroAnswering(0, new Uint8Array(0)) }));
  assert.equal(error?.code, 'wasm-load-failed');
  assert.match(error.message, /could not read chrome:\/\/plugin\/content\/missing\.wasm: empty \(status 0, 0 bytes\)/);
});

test('the retry with the right bytes initializes for real: calls work', async () => {
  const { project } = slim;
  await slim.loadCompaction({
    wasmURL: 'chrome://plugin/content/bibgenie_compaction_bg.wasm',
    Zotero: zoteroAnswering(200, installedWasmBytes()),
  });
  assert.equal(slim.version(), crateVersion());
  assert.deepEqual(project(SESSION).messages.map((m) => m.id), ['u1', 'a1']);
  const index = slim.SessionIndex.from(SESSION);
  index.free();
});
