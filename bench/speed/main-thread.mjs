// The longest main-thread block of the calls a chat makes, in Node (main-thread-core.mjs says how;
// `node bench/speed/firefox.mjs --page=main-thread` measures the same in a page), and a cold call
// against JSON.parse. Issue 42's limit is 50 ms; nothing here asserts a time.
//
//   node bench/speed/main-thread.mjs [--sizes=1000,10000]
// The package is read from BIBGENIE_PKG_DIR (./build.sh bench sets it) or pkg/.
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LIMIT_MS, MODEL, SEED, WIDE_MODEL, blockTable, chatSends } from './main-thread-core.mjs';

const args = process.argv.slice(2);
const sizes = args.find((a) => a.startsWith('--sizes='))?.split('=')[1].split(',').map(Number) ?? [1_000, 10_000];
const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
const { syntheticSession } = await import('../../tests/fixtures/session-generator.mjs');
await api.init();
const Database = createRequire(import.meta.url)(fileURLToPath(new URL('../../tests/node_modules/better-sqlite3', import.meta.url)));
const now = () => performance.now();
const log = (line) => process.stderr.write(`${line}\n`);

async function sends(messages, storeName, fits, dir, model = MODEL) {
  const file = join(dir, `mt-${messages}-${fits}.sqlite`);
  const open = () => (storeName === 'SqliteStore' ? new api.SqliteStore(Database, file) : new api.MemoryStore());
  return chatSends({ api, syntheticSession, messages, storeName, open, fits, reopen: storeName === 'SqliteStore', log, model });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A cold stateless call (fresh objects, as after a load) against JSON.parse of the same text. */
function cold(messages) {
  const text = JSON.stringify(syntheticSession({ messages, seed: SEED }));
  const rounds = messages >= 10_000 ? 3 : 7;
  const times = { parse: [], estimate: [], plan: [] };
  for (let r = 0; r < rounds; r++) {
    let start = now();
    JSON.parse(text);
    times.parse.push(now() - start);
    for (const op of ['estimate', 'plan']) {
      const session = JSON.parse(text);
      start = now();
      if (op === 'estimate') api.estimate(session, MODEL);
      else api.plan(session, MODEL, { mode: 'auto' });
      times[op].push(now() - start);
    }
  }
  const m = { messages, parse: median(times.parse), estimate: median(times.estimate), plan: median(times.plan) };
  log(`  ${messages} cold: JSON.parse ${m.parse.toFixed(1)} ms, estimate ${m.estimate.toFixed(1)} ms, plan ${m.plan.toFixed(1)} ms`);
  return m;
}

/** The first call of a fresh process (first-call.mjs): what a user waits for after a start. */
function firstCallInAFreshProcess(messages) {
  const out = execFileSync(process.execPath, [fileURLToPath(new URL('./first-call.mjs', import.meta.url)), String(messages)], { env: { ...process.env, BIBGENIE_PKG_DIR: pkgDir }, encoding: 'utf8' });
  const m = JSON.parse(out.trim().split('\n').pop());
  log(`  ${messages} first call in a fresh process: JSON.parse ${m.parse.toFixed(1)} ms, estimate ${m.estimate.toFixed(1)} ms, wasm ${m.wasmMB.toFixed(1)} MB`);
  return m;
}

const dir = mkdtempSync(join(os.tmpdir(), 'bibgenie-bench-main-thread-'));
const results = [];
const colds = [];
try {
  for (const messages of sizes) {
    for (const name of ['MemoryStore', 'SqliteStore']) results.push(...(await sends(messages, name, true, dir)));
    results.push(...(await sends(messages, 'MemoryStore', false, dir)));
    colds.push({ ...cold(messages), first: firstCallInAFreshProcess(messages) });
  }
  // A model with a 1M window: a round's summary request is five times the 200k model's.
  results.push(...(await sends(Math.max(...sizes), 'MemoryStore', false, dir, WIDE_MODEL)));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const [load] = os.loadavg();
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
console.log(`## What a user waits for: the longest main-thread block of a call, and the cold call, Node ${process.version}\n`);
console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model ?? 'unknown CPU'} x ${os.cpus().length}, load ${load.toFixed(2)}. ` +
  'A setTimeout(0) chain runs beside each call: its longest gap is the longest stretch the call held the thread; the control is the chain alone for as long (no package call). ' +
  `The limit (issue 42) is ${LIMIT_MS} ms. syntheticSession imported into the store, summarizer: the embedded one, extractiveSummaryInSlices.\n`);
console.log(blockTable(results).join('\n'));
console.log('\n| session | JSON.parse ms | cold estimate ms | estimate / JSON.parse | cold plan ms | plan / JSON.parse | first call: JSON.parse ms | first estimate ms | first / JSON.parse |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const c of colds) {
  const f = c.first;
  console.log(`| ${c.messages} msgs | ${fmt(c.parse)} | ${fmt(c.estimate)} | ${(c.estimate / c.parse).toFixed(2)}x | ${fmt(c.plan)} | ${(c.plan / c.parse).toFixed(2)}x | ${fmt(f.parse)} | ${fmt(f.estimate)} | ${(f.estimate / f.parse).toFixed(2)}x |`);
}
console.log('\n- Cold: a fresh JSON.parse of the session before each call (outside the timed region), as after a load; medians. Target (issue 42): at most 2.5x JSON.parse.');
console.log('- First call: the first JSON.parse and the first estimate of a fresh Node process (first-call.mjs, one run): the wasm heap, the JIT and V8\'s heap all new, as after a start.');
console.log('- The store send against pi at 1,000 messages: the CompactionController.submit table (after / pi).');
