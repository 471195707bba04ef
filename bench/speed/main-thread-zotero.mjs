// The main-thread bench in Zotero's plugin scope: the sends of main-thread-core.mjs (as in Node,
// main-thread.mjs, and in a page, `firefox.mjs --page=main-thread`) in Firefox's privileged chrome
// context, the way a Zotero plugin's code runs there. No Zotero binary: headless Firefox ESR through
// geckodriver with system access, and tests/zotero-runtime/chrome/harness.js (openPluginScope)
// playing Zotero's part: the bench plugin registered as chrome:// content, a system-principal
// sandbox with Zotero's global properties, the IIFE bundle of bibgenie-compaction/slim and the
// bench's own bundle (main-thread-zotero-scope.mjs) loaded into it, the wasm loaded by
// loadCompaction through Zotero.HTTP, and ZoteroDBStore over a Zotero.DBConnection on Firefox's own
// Sqlite.sys.mjs (with --stores=...,MemoryStore also MemoryStore, the page's store, for comparison).
// Issue 42's limit is 50 ms; nothing here asserts a time.
//
//   node bench/speed/main-thread-zotero.mjs [--sizes=1000,10000] [--stores=ZoteroDBStore,MemoryStore]   (after ./build.sh build)
// BIBGENIE_PKG_DIR: the package (default pkg/); BIBGENIE_FIREFOX, BIBGENIE_GECKODRIVER: the binaries.
import os from 'node:os';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Builder, ROOT, esbuild, firefox, firefoxBin, geckodriverBin, pkgDir } from './firefox-tools.mjs';


const args = process.argv.slice(2);
const sizes = args.find((a) => a.startsWith('--sizes='))?.split('=')[1].split(',').map(Number) ?? [1_000, 10_000];
// ZoteroDBStore is what a plugin uses; MemoryStore (--stores=ZoteroDBStore,MemoryStore) compares with the page's.
const stores = args.find((a) => a.startsWith('--stores='))?.split('=')[1].split(',') ?? ['ZoteroDBStore'];
for (const s of stores) if (!['ZoteroDBStore', 'MemoryStore'].includes(s)) throw new Error(`--stores: ${s} is not ZoteroDBStore or MemoryStore`);
const POLL_MS = 2_000;
const SETUP_TIMEOUT_MS = 120_000;
const RUNTIME_DIR = join(ROOT, 'tests/zotero-runtime');
const PLUGIN = 'bibgenie-bench';

/** `bibgenie-compaction[/sub]` resolves into the package under test, as a consumer's import would. */
const packageUnderTest = {
  name: 'package-under-test',
  setup(build) {
    build.onResolve({ filter: /^bibgenie-compaction(\/.*)?$/ }, (a) => {
      const sub = a.path.slice('bibgenie-compaction'.length);
      return { path: join(pkgDir, sub ? `${sub.slice(1)}.js` : 'index.js') };
    });
  },
};

/** One classic script, as a plugin author bundles (tests/zotero-runtime bundles the slim entry the same way). */
async function iife(options) {
  const built = await esbuild.build({
    bundle: true, format: 'iife', platform: 'browser', target: ['firefox115'], write: false, logLevel: 'silent',
    plugins: [packageUnderTest], ...options,
  });
  if (built.warnings.length) throw new Error(`esbuild warnings: ${built.warnings.map((w) => w.text).join('; ')}`);
  return built.outputFiles[0].text;
}

const slim = await iife({
  stdin: { contents: "export * from 'bibgenie-compaction/slim';", resolveDir: ROOT, loader: 'js' },
  globalName: 'BibgenieCompaction',
});
const benchScript = await iife({ entryPoints: [fileURLToPath(new URL('./main-thread-zotero-scope.mjs', import.meta.url))] });

const work = mkdtempSync(join(os.tmpdir(), 'bibgenie-bench-zotero-'));
const folder = join(work, 'plugin');
const dbDir = join(work, 'db');
mkdirSync(join(folder, 'content'), { recursive: true });
mkdirSync(dbDir);
const version = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')).version;
writeFileSync(join(folder, 'manifest.json'), JSON.stringify({ manifest_version: 2, name: 'bibgenie main-thread bench', version }));
writeFileSync(join(folder, 'content/bibgenie-compaction.js'), slim);
writeFileSync(join(folder, 'content/bibgenie_compaction_bg.wasm'), readFileSync(join(pkgDir, 'bibgenie_compaction_bg.wasm')));
writeFileSync(join(folder, 'content/main-thread-zotero.js'), benchScript);

// In the chrome context: tests/zotero-runtime mapped to resource://bibgenie-runtime/ (loadSubScript
// refuses file: URLs), the harness loaded from there, the plugin scope opened and the run started.
// The scope is kept on the browser window for the polls.
const OPEN_SCRIPT = `
const [runtimeFolderURL, config, input, done] = arguments;
const resource = Services.io.getProtocolHandler('resource').QueryInterface(Ci.nsIResProtocolHandler);
resource.setSubstitution('bibgenie-runtime', Services.io.newURI(runtimeFolderURL));
const harness = {};
Services.scriptloader.loadSubScript('resource://bibgenie-runtime/chrome/harness.js', harness);
harness.openPluginScope(config).then((opened) => {
  window.bibgenieZoteroBench = opened;
  opened.scope.bibgenieMainThread.start(input);
  done(JSON.stringify({ version: opened.version, firefox: opened.firefox }));
}, (e) => done(JSON.stringify({ fatal: String(e), stack: String(e && e.stack) })));
`;
const POLL_SCRIPT = 'return window.bibgenieZoteroBench.scope.bibgenieMainThread.poll();';
const CLOSE_SCRIPT = 'const b = window.bibgenieZoteroBench; if (b) { b.close(); delete window.bibgenieZoteroBench; }';

const options = new firefox.Options().setBinary(firefoxBin).addArguments('-headless')
  .setPreference('privacy.reduceTimerPrecision', false)
  .setPreference('dom.max_script_run_time', 0)
  .setPreference('dom.max_chrome_script_run_time', 0);
const service = new firefox.ServiceBuilder(geckodriverBin).addArguments('--allow-system-access');
const driver = await new Builder().forBrowser('firefox').setFirefoxOptions(options).setFirefoxService(service).build();
try {
  await driver.manage().setTimeouts({ script: SETUP_TIMEOUT_MS });
  await driver.setContext(firefox.Context.CHROME);
  const load1 = os.loadavg()[0];
  const config = { runtimeURL: 'resource://bibgenie-runtime/', dbDir, pkg: { name: PLUGIN, rootURI: pathToFileURL(folder).href + '/' }, scripts: ['main-thread-zotero.js'] };
  const opened = JSON.parse(await driver.executeAsyncScript(OPEN_SCRIPT, pathToFileURL(RUNTIME_DIR).href + '/', config, JSON.stringify({ sizes, stores, dbPrefix: 'bench-mt' })));
  if (opened.fatal) throw new Error(`the plugin scope did not open: ${opened.fatal}\n${opened.stack}`);
  let state;
  for (;;) {
    state = JSON.parse(await driver.executeScript(POLL_SCRIPT));
    for (const line of state.lines) process.stderr.write(`zotero-scope:${line}\n`);
    if (state.done) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  if (state.error) throw new Error(`the run failed in the plugin scope: ${state.error}`);
  const load2 = os.loadavg()[0];
  const r = state.result;
  const absent = Object.entries(r.globals).filter(([, t]) => t === 'undefined').map(([g]) => g);
  console.log(`## Main thread, Zotero plugin scope, Firefox ${opened.firefox} (headless, chrome context)\n`);
  console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model ?? 'unknown CPU'} x ${os.cpus().length}, ` +
    `load average ${load1.toFixed(2)} at start, ${load2.toFixed(2)} at end; package ${r.version}; clock ${r.clock}, resolution ${r.timerMs >= 0.001 ? `${(r.timerMs * 1000).toFixed(1)} us` : `${(r.timerMs * 1e6).toFixed(0)} ns`}. ` +
    'The same calls as bench/speed/main-thread.mjs in Node and `firefox.mjs --page=main-thread` in a page.\n');
  console.log('### What a user waits for: the longest main-thread block of a call, in the Zotero plugin scope\n');
  console.log('The plugin scope as Zotero builds it (a system-principal sandbox in the parent process, Zotero\'s global properties, ' +
    `no ${absent.join(', ')}), built by tests/zotero-runtime/chrome/harness.js; the package is the IIFE bundle of bibgenie-compaction/slim ` +
    'loaded from chrome:// content, its wasm loaded by loadCompaction. A setTimeout(0) chain runs in the same scope beside each call: its longest ' +
    'gap is the longest stretch the call held the thread (in Zotero: the whole application); the control is the chain alone for as long. ' +
    `The limit (issue 42) is ${r.limitMs} ms. syntheticSession imported into ${stores.map((n) => (n === 'ZoteroDBStore'
      ? "a ZoteroDBStore over Zotero.DBConnection (Firefox's Sqlite.sys.mjs), a database file per chat, closed and opened again for the reopen"
      : 'a MemoryStore (as in the page)')).join('; and into ')}; summarizer: the embedded one, extractiveSummaryInSlices.\n`);
  console.log(r.table.join('\n'));
  console.log('');
} finally {
  await driver.executeScript(CLOSE_SCRIPT).catch(() => {});
  await driver.quit();
  rmSync(work, { recursive: true, force: true });
}
