// The main entry's init() when the .wasm is not where the package put it (issue 35): a coded
// `wasm-load-failed` naming the path it tried and how to pass another, never a raw ENOENT; the
// failure is forgotten, so a later init() loads once the file is back. In Firefox the same for a
// URL: tests/firefox/bundlers.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveInstalled } from './consumer-env.mjs';

const installed = dirname(resolveInstalled('bibgenie-compaction/package.json'));

/** A copy of the installed package, imported as its own module instance. */
async function copyOfPackage() {
  const dir = mkdtempSync(join(tmpdir(), 'bibgenie-nowasm-'));
  cpSync(installed, dir, { recursive: true });
  const module = await import(pathToFileURL(join(dir, 'index.js')).href);
  return { dir, wasm: join(dir, 'bibgenie_compaction_bg.wasm'), module };
}

test('init() with the .wasm missing: wasm-load-failed naming the path and how to pass the wasm; retried once it is back', async (t) => {
  const { dir, wasm, module } = await copyOfPackage();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  renameSync(wasm, `${wasm}.away`);
  await assert.rejects(module.init(), (error) => {
    assert.equal(error.code, 'wasm-load-failed', error.message);
    assert.ok(error.message.includes(wasm), `names the path it tried: ${error.message}`);
    assert.match(error.message, /ENOENT/);
    assert.match(error.message, /init\(\{ module_or_path/, 'says how to pass the wasm');
    assert.equal(error.url, pathToFileURL(wasm).href);
    return true;
  });
  assert.throws(() => module.version(), (error) => error.code === 'not-loaded', 'nothing was loaded');
  renameSync(`${wasm}.away`, wasm);
  await module.init();
  assert.equal(typeof module.version(), 'string', 'the next init() loads it');
});

test('init() with a file that is not wasm there: wasm-load-failed naming the path', async (t) => {
  const { dir, wasm, module } = await copyOfPackage();
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(wasm, '<!doctype html><title>404</title>');
  await assert.rejects(module.init(), (error) => {
    assert.equal(error.code, 'wasm-load-failed', error.message);
    assert.ok(error.message.includes(wasm), error.message);
    assert.match(error.message, /did not start/);
    return true;
  });
});
