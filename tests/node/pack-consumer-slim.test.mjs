// The slim entry, as a Zotero plugin uses it: the caller loads the wasm bytes and hands them over.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { crateVersion, installedWasmBytes, resolveInstalled } from './consumer-env.mjs';
import { pathToFileURL } from 'node:url';
import * as slim from 'bibgenie-compaction/slim';

// wasm-bindgen's module as the package uses it (same URL, same instance): its resetWasmState is
// the package's own, not an export.
const generated = await import(pathToFileURL(join(dirname(resolveInstalled('bibgenie-compaction/slim')), 'bibgenie_compaction.js')).href);

// Source without comments, so prose about import.meta or sample import lines does not count.
const code = (file) =>
  readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

// Every module the slim entry reaches by relative import, starting at slim.js.
function slimModuleGraph() {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = code(file);
    for (const [, spec] of source.matchAll(/(?:import|export)\s[^'"]*?from\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      visit(join(dirname(file), spec));
    }
  };
  visit(resolveInstalled('bibgenie-compaction/slim'));
  return [...seen];
}

test('nothing the slim entry loads uses import.meta', () => {
  const graph = slimModuleGraph();
  assert.ok(graph.some((file) => file.endsWith('bibgenie_compaction.js')), 'slim reaches the wasm-bindgen module');
  for (const file of graph) {
    assert.doesNotMatch(code(file), /import\.meta/, `${file} uses import.meta`);
  }
});

test('init() without the wasm rejects with a message that says what to pass', async () => {
  await assert.rejects(() => slim.init(), /initSync\(\{ module/);
});

test('initSync({ module }) with the bytes, then the API works', () => {
  const bytes = installedWasmBytes();
  assert.ok(bytes.length > 1000);
  const exports = slim.initSync({ module: bytes });
  assert.ok(exports.memory instanceof WebAssembly.Memory);
  assert.equal(slim.version(), crateVersion());
});

test('initSync also takes a compiled WebAssembly.Module', () => {
  const before = slim.initSync({ module: installedWasmBytes() });
  // Forget the instance first: an initialized module returns early without reading its argument.
  generated.resetWasmState();
  assert.throws(() => slim.version(), (error) => error.code === 'not-loaded', 'nothing is loaded after the reset');
  const module = new WebAssembly.Module(installedWasmBytes());
  const exports = slim.initSync({ module });
  assert.ok(exports.memory instanceof WebAssembly.Memory);
  assert.notEqual(exports, before, 'a new instance, made from the Module');
  assert.equal(slim.version(), crateVersion());
  const session = { nodes: [{ id: 'u1', parentId: null, role: 'user', parts: [{ type: 'text', text: 'q' }] }], leafId: 'u1', branchRevision: 1 };
  assert.deepEqual(slim.project(session).messages.map((m) => m.id), ['u1'], 'the new instance works');
});
