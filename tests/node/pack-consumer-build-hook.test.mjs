// The build-hook snippet of docs/zotero-plugin.md, run as a plugin's zotero-plugin.config.ts would
// run it: the `copy-wasm-hook` block is taken out of the document, written as a module, and its
// copy function copies the installed tarball's .wasm into a scaffold-like build folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { consumerDir, installedWasmBytes, repoRoot } from './consumer-env.mjs';

function snippet() {
  const doc = readFileSync(join(repoRoot, 'docs', 'zotero-plugin.md'), 'utf8');
  const match = doc.match(/```js copy-wasm-hook\n([\s\S]*?)```/);
  assert.ok(match, 'docs/zotero-plugin.md has a ```js copy-wasm-hook block');
  return match[1];
}

test('the documented build hook copies the installed .wasm to addon/content/ of the build', async () => {
  const work = mkdtempSync(join(tmpdir(), 'bibgenie-hook-'));
  try {
    const file = join(work, 'copy-compaction-wasm.mjs');
    writeFileSync(file, snippet());
    const { copyCompactionWasm } = await import(pathToFileURL(file).href);
    const dist = join(work, '.scaffold', 'build'); // absolute, and relative below
    const target = copyCompactionWasm(dist, consumerDir);
    assert.equal(target, join(dist, 'addon', 'content', 'bibgenie_compaction_bg.wasm'));
    assert.deepEqual(readFileSync(target), installedWasmBytes());
    const relative = copyCompactionWasm('.scaffold/other', consumerDir);
    assert.equal(relative, join(consumerDir, '.scaffold', 'other', 'addon', 'content', 'bibgenie_compaction_bg.wasm'));
    assert.deepEqual(readFileSync(relative), installedWasmBytes());
    rmSync(join(consumerDir, '.scaffold'), { recursive: true, force: true });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
