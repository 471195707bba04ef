// Zotero-style loading in real headless Firefox ESR: zotero-like-consumer.js bundled by esbuild as
// an IIFE, served with the .wasm from 127.0.0.1, driven by selenium-webdriver through the local
// geckodriver (nothing is downloaded).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { Builder } from 'selenium-webdriver';
import firefox from 'selenium-webdriver/firefox.js';
import { crateVersion, installedWasmBytes } from '../node/consumer-env.mjs';

const CONSUMER_SCRIPT = fileURLToPath(new URL('./zotero-like-consumer.js', import.meta.url));
const PAGE = `<!doctype html><meta charset="utf-8"><title>bibgenie IIFE</title>
<script src="/consumer.js" data-wasm="/bibgenie_compaction_bg.wasm"></script>`;
const PAGE_TIMEOUT_MS = 60_000; // first start of a fresh Firefox profile on a loaded 2-core machine

let bundle;
let server;
let driver;
let pageResult;

before(async () => {
  const built = await esbuild.build({
    entryPoints: [CONSUMER_SCRIPT],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['firefox115'], // Zotero 7's Firefox
    write: false,
    logLevel: 'silent',
  });
  assert.deepEqual(built.warnings.map((w) => w.text), [], 'esbuild warnings');
  bundle = built.outputFiles[0].text;

  const routes = {
    '/': ['text/html; charset=utf-8', PAGE],
    '/consumer.js': ['text/javascript; charset=utf-8', bundle],
    '/bibgenie_compaction_bg.wasm': ['application/wasm', installedWasmBytes()],
  };
  server = createServer((req, res) => {
    const route = routes[new URL(req.url, 'http://127.0.0.1').pathname];
    res.writeHead(route ? 200 : 404, { 'content-type': route ? route[0] : 'text/plain' });
    res.end(route ? route[1] : 'not found');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

  const options = new firefox.Options().setBinary(process.env.BIBGENIE_FIREFOX).addArguments('-headless');
  const service = new firefox.ServiceBuilder(process.env.BIBGENIE_GECKODRIVER);
  driver = await new Builder().forBrowser('firefox').setFirefoxOptions(options).setFirefoxService(service).build();
  await driver.manage().setTimeouts({ script: PAGE_TIMEOUT_MS, pageLoad: PAGE_TIMEOUT_MS });
  await driver.get(`http://127.0.0.1:${server.address().port}/`);
  pageResult = await driver.executeAsyncScript(
    'const done = arguments[arguments.length - 1]; globalThis.bibgenieResult.then(done, (e) => done({ ok: false, error: String(e) }));',
  );
});

after(async () => {
  await driver?.quit();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve()));
});

test('the bundle is a classic script without import.meta', () => {
  assert.match(bundle, /^\(\(\) => \{/);
  assert.doesNotMatch(bundle, /import\.meta/);
  assert.doesNotMatch(bundle, /^\s*(import|export)\s/m);
});

test('the page loaded the wasm from an ArrayBuffer and the loader started the package with it', () => {
  assert.equal(pageResult.ok, true, pageResult.error);
  const { load } = pageResult;
  assert.equal(load.bytes, 'ArrayBuffer', 'XHR with responseType arraybuffer');
  assert.equal(load.byteLength, installedWasmBytes().length, 'the whole .wasm');
  assert.equal(load.resolved, 'undefined', 'loadCompaction resolves to nothing: the package itself is loaded');
  assert.deepEqual(pageResult.results.version, { value: crateVersion() }, 'and the package answers');
});

test('in the page, calls before the load throw not-loaded with a message that says to await the loader', () => {
  const { beforeLoad } = pageResult.loading;
  assert.equal(beforeLoad.thrown?.code, 'not-loaded', JSON.stringify(beforeLoad));
  assert.match(beforeLoad.thrown.message, /await loadCompaction/);
});

test('in the page, a valid wasm that is not this build fails with wasm-load-failed and leaves nothing set', () => {
  const { otherModule, afterFailedLoad } = pageResult.loading;
  assert.equal(otherModule.thrown?.code, 'wasm-load-failed', JSON.stringify(otherModule));
  assert.match(otherModule.thrown.message, /could not be started/);
  assert.equal(afterFailedLoad.thrown?.code, 'not-loaded', 'the retry below then initializes for real');
});

test('in the page, a missing .wasm fails with wasm-load-failed naming the URL', () => {
  const { missingFile } = pageResult.loading;
  assert.equal(missingFile.thrown?.code, 'wasm-load-failed', JSON.stringify(missingFile));
  assert.match(missingFile.thrown.message, /could not read http:.*\/missing\.wasm: HTTP 404/);
});

test('version() in the page is the crate version', () => {
  assert.deepEqual(pageResult.results.version, { value: crateVersion() });
});

test('project() in the page returns the projection', () => {
  const { project } = pageResult.results;
  assert.equal(project.missing, undefined, 'the slim entry exports project()');
  assert.deepEqual(project.value.messages.map((m) => m.id), ['u1', 'a1']);
  assert.equal(project.value.messages[0].parts[0].text, 'Find papers on 文献 reuse');
  assert.equal(project.value.checkpointId, null);
});

test('an invalid session throws a JS Error with code invalid-session in the page', () => {
  const { projectError } = pageResult.results;
  assert.equal(projectError.missing, undefined, 'the slim entry exports project()');
  assert.equal(projectError.thrown?.isError, true, JSON.stringify(projectError));
  assert.equal(projectError.thrown.code, 'invalid-session');
});
