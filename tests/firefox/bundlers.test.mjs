// The main entry as a web developer bundles it (issue 35): one small app, built against the packed
// package with Vite (dev server and `vite build`), webpack 5 and esbuild, each with no configuration
// beyond what docs/api.md's "Bundlers" section shows, loaded in headless Firefox ESR (selenium-webdriver,
// the local geckodriver; nothing is downloaded). The page calls `await init()` with no argument, so
// the bundler alone must bring the .wasm; then a store, a controller and a projection run.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { Builder } from 'selenium-webdriver';
import firefox from 'selenium-webdriver/firefox.js';
import { consumerDir, crateVersion, repoRoot } from '../node/consumer-env.mjs';
import { serveStatic } from './static-server.mjs';

const PAGE_TIMEOUT_MS = 60_000; // first start of a fresh Firefox profile on a loaded 2-core machine
const bundlerRequire = createRequire(join(repoRoot, 'tests/bundlers/package.json'));
const installedPackage = join(consumerDir, 'node_modules/bibgenie-compaction');
const appsDir = join(consumerDir, 'bundler-apps');

// The app: what the README's first example does, in a page; errors of any module are collected
// by a classic script that runs first.
const MAIN_JS = `import { init, MemoryStore, CompactionController, extractiveSummary, version } from 'bibgenie-compaction';

async function run() {
  await init();
  const store = new MemoryStore();
  const { sessionId } = await store.createSession();
  await store.appendMessage(sessionId, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Review canine nutrition; peer-reviewed only.' }] });
  await store.appendMessage(sessionId, { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'Found 12 items in your library.' }] });
  const controller = new CompactionController({
    store, sessionId, model: { contextWindow: 128000, maxOutputTokens: 16384 },
    summarize: async (request) => extractiveSummary(request),
  });
  const result = await controller.submit('Which of them report protein digestibility?');
  return { ok: true, version: version(), status: result.status, sent: result.messages.map((m) => m.role) };
}

globalThis.bibgenieResult = run().catch((error) => ({ ok: false, error: String(error), code: error?.code }));
`;
const ERRORS_SCRIPT = `<script>
  globalThis.bibgenieErrors = [];
  addEventListener('error', (e) => bibgenieErrors.push(String(e.message || (e.target && e.target.src) || e)), true);
  addEventListener('unhandledrejection', (e) => bibgenieErrors.push('unhandled: ' + String(e.reason)));
</script>`;
const page = (script) => `<!doctype html><meta charset="utf-8"><title>bibgenie bundler app</title>
${ERRORS_SCRIPT}
${script}
`;

/** A fresh app folder with the installed package (a copy: bundlers follow links out of the app) and its sources. */
function appFolder(name, files) {
  const dir = join(appsDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'node_modules'), { recursive: true });
  cpSync(installedPackage, join(dir, 'node_modules/bibgenie-compaction'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `app-${name}`, private: true, type: 'module' }, null, 2));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir, prefix = '') {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name), `${prefix}${e.name}/`) : [`${prefix}${e.name}`]))
    .sort();
}

const servers = [];

/** Serves `root` until the tests end; resolves to its base URL. */
async function serve(root) {
  const server = await serveStatic(root);
  servers.push(server);
  return server.url;
}
let viteDev;
let driver;
/** name -> { url, files?, result } */
const apps = {};

/** Opens `url` and waits for the app's result (or reports the errors the page collected). */
async function runPage(url) {
  await driver.get(url);
  return driver.executeAsyncScript(`
    const done = arguments[arguments.length - 1];
    const started = Date.now();
    (function poll() {
      if (globalThis.bibgenieResult) return globalThis.bibgenieResult.then(done, (e) => done({ ok: false, error: String(e) }));
      if (Date.now() - started > 20000) return done({ ok: false, error: 'the app never ran', errors: globalThis.bibgenieErrors });
      setTimeout(poll, 100);
    })();`);
}

async function importVite() {
  return import(pathToFileURL(bundlerRequire.resolve('vite')).href);
}

/** Builds an app; a build that throws is recorded for its own tests, so one bundler never hides the others. */
async function build(name, make) {
  try {
    apps[name] = await make();
  } catch (error) {
    apps[name] = { buildError: String(error?.stack ?? error) };
  }
}

before(async () => {
  rmSync(appsDir, { recursive: true, force: true });
  const vite = await importVite();
  const webpack = bundlerRequire('webpack');

  // Vite: index.html with a module script, `npx vite build` (here its API with the app as root, nothing else).
  const viteFiles = { 'index.html': page('<script type="module" src="/main.js"></script>'), 'main.js': MAIN_JS };
  await build('vite build', async () => {
    const dir = appFolder('vite-build', viteFiles);
    await vite.build({ root: dir, logLevel: 'silent' });
    return { url: await serve(join(dir, 'dist')), files: filesUnder(join(dir, 'dist')) };
  });

  // The Vite dev server, as `npx vite` in the app folder runs it.
  await build('vite dev', async () => {
    const dir = appFolder('vite-dev', viteFiles);
    viteDev = await vite.createServer({ root: dir, logLevel: 'silent', server: { host: '127.0.0.1', port: 0, strictPort: false } });
    await viteDev.listen();
    return { url: viteDev.resolvedUrls.local[0] };
  });

  // webpack 5 with its zero-config defaults, as `npx webpack` in the app folder (entry ./src/index.js,
  // output dist/main.js, production); the API takes the folder the CLI takes from its cwd.
  await build('webpack', async () => {
    const dir = appFolder('webpack', { 'src/index.js': MAIN_JS, 'dist/index.html': page('<script src="main.js"></script>') });
    const stats = await new Promise((resolve, reject) => {
      webpack({ mode: 'production', context: dir, output: { path: join(dir, 'dist') } }, (error, result) => (error ? reject(error) : resolve(result)));
    });
    const errors = stats.toJson({ errors: true }).errors.map((e) => e.message.split('\n')[0]);
    if (errors.length) throw new Error(`webpack errors: ${errors.join('; ')}`);
    return { url: await serve(join(dir, 'dist')), files: filesUnder(join(dir, 'dist')) };
  });

  // esbuild (an ES module bundle), with the .wasm copied beside it under its name, as docs/api.md says;
  // then the same bundle without the copy: the page's init() is a coded error naming the URL it tried.
  await build('esbuild', async () => {
    const dir = appFolder('esbuild', { 'main.js': MAIN_JS, 'dist/index.html': page('<script type="module" src="main.js"></script>') });
    await esbuild.build({ entryPoints: [join(dir, 'main.js')], bundle: true, format: 'esm', outdir: join(dir, 'dist'), logLevel: 'silent' });
    const missing = join(dir, 'dist-no-wasm');
    mkdirSync(missing, { recursive: true });
    for (const file of ['index.html', 'main.js']) cpSync(join(dir, 'dist', file), join(missing, file));
    cpSync(join(dir, 'node_modules/bibgenie-compaction/bibgenie_compaction_bg.wasm'), join(dir, 'dist/bibgenie_compaction_bg.wasm'));
    apps['esbuild, .wasm not copied'] = { url: await serve(missing) };
    return { url: await serve(join(dir, 'dist')) };
  });
  apps['esbuild, .wasm not copied'] ??= { buildError: apps.esbuild.buildError };

  const options = new firefox.Options().setBinary(process.env.BIBGENIE_FIREFOX).addArguments('-headless');
  const service = new firefox.ServiceBuilder(process.env.BIBGENIE_GECKODRIVER);
  driver = await new Builder().forBrowser('firefox').setFirefoxOptions(options).setFirefoxService(service).build();
  await driver.manage().setTimeouts({ script: PAGE_TIMEOUT_MS, pageLoad: PAGE_TIMEOUT_MS });
  for (const app of Object.values(apps)) {
    if (app.buildError) continue;
    app.result = await runPage(app.url);
    app.errors = await driver.executeScript('return globalThis.bibgenieErrors || []');
  }
});

/** The app, asserting that it was built. @param {string} name */
function built(name) {
  const app = apps[name];
  assert.equal(app.buildError, undefined, `${name} did not build`);
  return app;
}

after(async () => {
  await driver?.quit();
  await viteDev?.close();
  await Promise.all(servers.map((server) => server.close()));
});

for (const name of ['vite build', 'vite dev', 'webpack', 'esbuild']) {
  test(`${name}: the page loads the .wasm with init() and compacts, with no error`, () => {
    const { result, errors } = built(name);
    assert.equal(result.ok, true, JSON.stringify(result));
    assert.equal(result.version, crateVersion());
    assert.equal(result.status, 'send');
    assert.deepEqual(result.sent, ['user', 'assistant', 'user']);
    assert.deepEqual(errors, [], 'no error event in the page');
  });
}

test('vite build emits the page, one script and the .wasm: nothing else of the package', () => {
  const { files } = built('vite build');
  const assets = files.filter((f) => f !== 'index.html');
  assert.equal(assets.filter((f) => /^assets\/.*\.js$/.test(f)).length, 1, files.join(', '));
  assert.equal(assets.filter((f) => /^assets\/bibgenie_compaction_bg.*\.wasm$/.test(f)).length, 1, files.join(', '));
  assert.equal(assets.length, 2, `only the script and the .wasm: ${files.join(', ')}`);
});

test('webpack emits the .wasm as an asset beside main.js', () => {
  const { files } = built('webpack');
  assert.ok(files.includes('main.js'), files.join(', '));
  assert.equal(files.filter((f) => f.endsWith('.wasm')).length, 1, files.join(', '));
  assert.ok(!files.some((f) => f.endsWith('.d.ts') || f.endsWith('.md')), files.join(', '));
});

test('a bundle whose .wasm is missing: init() rejects with wasm-load-failed naming the URL and how to pass another', () => {
  const { result } = built('esbuild, .wasm not copied');
  assert.equal(result.ok, false);
  assert.equal(result.code, 'wasm-load-failed', JSON.stringify(result));
  assert.match(result.error, /http:\/\/127\.0\.0\.1:\d+\/bibgenie_compaction_bg\.wasm/);
  assert.match(result.error, /HTTP 404/);
  assert.match(result.error, /module_or_path/);
});
