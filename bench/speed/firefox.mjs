// Speed bench in headless Firefox ESR: page.mjs bundled by esbuild, served from 127.0.0.1, driven by
// selenium-webdriver through the local geckodriver (nothing is downloaded), as tests/firefox/ does.
//   node bench/speed/firefox.mjs [--quick] [--sizes=100,1000]        (after ./build.sh build)
//   node bench/speed/firefox.mjs --page=main-thread [--sizes=1000,10000]   (main-thread-page.mjs)
// BIBGENIE_PKG_DIR: the package (default pkg/); BIBGENIE_FIREFOX, BIBGENIE_GECKODRIVER: the binaries.
import os from 'node:os';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realCorpora } from './corpora.mjs';
import { Builder, ROOT, esbuild, firefox, firefoxBin, geckodriverBin, pkgDir } from './firefox-tools.mjs';


const args = process.argv.slice(2);
const query = new URLSearchParams();
if (args.includes('--quick')) query.set('quick', '1');
const sizes = args.find((a) => a.startsWith('--sizes='));
if (sizes) query.set('sizes', sizes.split('=')[1]);
const POLL_MS = 2_000;
const PAGE_TIMEOUT_MS = 120_000;
const page = args.find((a) => a.startsWith('--page='))?.split('=')[1] ?? null;

/** `bibgenie-compaction[/sub]` resolves into the package under test, as a consumer's import would. */
const packageUnderTest = {
  name: 'package-under-test',
  setup(build) {
    build.onResolve({ filter: /^bibgenie-compaction(\/.*)?$/ }, (a) => {
      const sub = a.path.slice('bibgenie-compaction'.length);
      return { path: join(pkgDir, sub ? sub.slice(1) : 'index.js') };
    });
  },
};

const built = await esbuild.build({
  entryPoints: [fileURLToPath(new URL(page ? `./${page}-page.mjs` : './page.mjs', import.meta.url))],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['firefox115'],
  write: false,
  logLevel: 'silent',
  plugins: [packageUnderTest],
});
// The same real-text corpora as in Node, handed to the page as JSON (the speed page reads them).
const real = page ? [] : await realCorpora((line) => process.stderr.write(`${line}\n`));
const routes = {
  '/corpora.json': ['application/json', JSON.stringify(real)],
  '/': ['text/html; charset=utf-8', '<!doctype html><meta charset="utf-8"><title>bibgenie speed</title><script type="module" src="/bench.js"></script>'],
  '/bench.js': ['text/javascript; charset=utf-8', built.outputFiles[0].text],
  '/bibgenie_compaction_bg.wasm': ['application/wasm', readFileSync(join(pkgDir, 'bibgenie_compaction_bg.wasm'))],
};
const server = createServer((req, res) => {
  const route = routes[new URL(req.url, 'http://127.0.0.1').pathname];
  res.writeHead(route ? 200 : 404, { 'content-type': route ? route[0] : 'text/plain' });
  res.end(route ? route[1] : 'not found');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));

const options = new firefox.Options().setBinary(firefoxBin).addArguments('-headless')
  // Full-resolution performance.now() (Firefox coarsens it by default) and no slow-script dialog.
  .setPreference('privacy.reduceTimerPrecision', false)
  .setPreference('dom.max_script_run_time', 0);
const service = new firefox.ServiceBuilder(geckodriverBin);
const driver = await new Builder().forBrowser('firefox').setFirefoxOptions(options).setFirefoxService(service).build();
try {
  await driver.manage().setTimeouts({ script: PAGE_TIMEOUT_MS, pageLoad: PAGE_TIMEOUT_MS });
  const load1 = os.loadavg()[0];
  await driver.get(`http://127.0.0.1:${server.address().port}/?${query}`);
  let state;
  for (;;) {
    state = await driver.executeScript('const b = globalThis.bench; return b && { lines: b.lines.splice(0), done: b.done, error: b.error, sections: b.sections, timerMs: b.timerMs, userAgent: b.userAgent };');
    for (const line of state?.lines ?? []) process.stderr.write(`firefox:${line}\n`);
    if (state?.done) break;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  if (state.error) throw new Error(`the page failed: ${state.error}`);
  const caps = await driver.getCapabilities();
  const load2 = os.loadavg()[0];
  console.log(`## ${page ? 'Main thread' : 'Speed'}, Firefox ${caps.get('browserVersion')} (headless)\n`);
  console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model ?? 'unknown CPU'} x ${os.cpus().length}, ` +
    `load average ${load1.toFixed(2)} at start, ${load2.toFixed(2)} at end${query.has('quick') ? ', --quick' : ''}; ` +
    `performance.now() resolution ${(state.timerMs * 1000).toFixed(1)} us. ${page ? 'The same calls as bench/speed/main-thread.mjs in Node.' : 'Same operations and columns as in Node.'}\n`);
  for (const s of state.sections) console.log(`### ${s.title}\n\n${s.markdown}\n`);
} finally {
  await driver.quit();
  await new Promise((resolve) => server.close(resolve));
}
