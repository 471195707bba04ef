// The longest main-thread block of the calls a chat makes, in Node: a timer chain (setTimeout 0)
// runs beside each call and the longest gap between its callbacks is the longest stretch the call
// held the thread. The control is the same chain over the same time with nothing else running.
// Issue 42's limit is 50 ms; nothing here asserts a time.
//
//   node bench/speed/main-thread.mjs [--sizes=1000,10000]
// The package is read from BIBGENIE_PKG_DIR (./build.sh bench sets it) or pkg/.
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const sizes = args.find((a) => a.startsWith('--sizes='))?.split('=')[1].split(',').map(Number) ?? [1_000, 10_000];
const SEED = 20_250_310;
const MODEL = { id: 'bench-200k', contextWindow: 200_000, maxOutputTokens: 32_000 };
const LIMIT_MS = 50;

const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
const { syntheticSession } = await import('../../tests/fixtures/session-generator.mjs');
await api.init();
const Database = createRequire(import.meta.url)(fileURLToPath(new URL('../../tests/node_modules/better-sqlite3', import.meta.url)));
const now = () => performance.now();
const log = (line) => process.stderr.write(`${line}\n`);

/** `{ value, wall, longest }` of `fn()`: the longest gap of a setTimeout(0) chain while it ran. */
async function watched(fn) {
  let last = now();
  let longest = 0;
  let running = true;
  const tick = () => {
    const t = now();
    longest = Math.max(longest, t - last);
    last = t;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const start = now();
  const value = await fn();
  const wall = now() - start;
  running = false;
  longest = Math.max(longest, now() - last); // a block at the very end
  await new Promise((resolve) => setTimeout(resolve, 2));
  return { value, wall, longest };
}

/** The chain alone for `ms`: its longest gap is the floor of what `watched` can report. */
async function control(ms) {
  return (await watched(() => new Promise((resolve) => setTimeout(resolve, Math.max(5, ms))))).longest;
}

const draft = (k) => ({ id: `mt-d${k}`, role: 'user', parts: [{ type: 'text', text: 'Compare the retrieval units of the last three papers and keep the page labels.' }] });
const answer = (k, parentId) => ({ id: `mt-a${k}`, parentId, role: 'assistant', parts: [{ type: 'text', text: 'The section reports a 7.4 point gain (p. 57).' }] });
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * The sends of one chat imported into a store: the first (builds the store's index; a chat that
 * must compact also plans, summarizes with the embedded extractiveSummary and commits), the
 * after-turn check, a later send, and for SQLite the first send after the store is opened again.
 */
async function sends(messages, storeName, fits, dir) {
  // Fits: a checkpoint every 50 messages, so the projection (the tail after the last) fits the window.
  const session = syntheticSession({ messages, seed: SEED, checkpoints: fits ? Math.max(1, Math.floor(messages / 50) - 1) : 0 });
  const file = join(dir, `mt-${messages}-${fits}.sqlite`);
  const open = () => (storeName === 'SqliteStore' ? new api.SqliteStore(Database, file) : new api.MemoryStore());
  let store = open();
  const { sessionId } = await store.importSession(session);
  const controller = (s) => new api.CompactionController({ store: s, sessionId, model: MODEL, summarize: (request) => api.extractiveSummary(request) });
  const rows = [];
  const chat = fits ? 'a chat that fits' : 'a chat that must compact';
  const row = async (name, fn) => {
    const r = await watched(fn);
    const floor = await control(r.wall);
    rows.push({ messages, storeName, name: `${name}, ${chat}`, ...r, floor });
    log(`  ${messages} ${storeName} ${name}, ${chat}: longest block ${r.longest.toFixed(1)} ms (control ${floor.toFixed(1)} ms), wall ${r.wall.toFixed(0)} ms`);
    return r.value;
  };
  let c = controller(store);
  const first = await row('first send', () => c.submit(draft(0)));
  if (first.status !== 'send') throw new Error(`first send: ${first.status} ${first.reason ?? ''}`);
  const head = (await store.appendMessage(sessionId, draft(0))).node;
  await store.appendMessage(sessionId, answer(0, head.id));
  await row('after-turn check', () => c.afterTurn());
  const later = await row('later send', () => c.submit(draft(1)));
  if (later.status !== 'send') throw new Error(`later send: ${later.status}`);
  if (storeName === 'SqliteStore') {
    await store.close();
    store = open();
    c = controller(store);
    await row('reopen, first send', () => c.submit(draft(2)));
  }
  await store.close();
  return rows;
}

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

const dir = mkdtempSync(join(os.tmpdir(), 'bibgenie-bench-main-thread-'));
const results = [];
const colds = [];
try {
  for (const messages of sizes) {
    for (const name of ['MemoryStore', 'SqliteStore']) results.push(...(await sends(messages, name, true, dir)));
    results.push(...(await sends(messages, 'MemoryStore', false, dir)));
    colds.push(cold(messages));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const [load] = os.loadavg();
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
console.log(`## What a user waits for: the longest main-thread block of a call, and the cold call, Node ${process.version}\n`);
console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model ?? 'unknown CPU'} x ${os.cpus().length}, load ${load.toFixed(2)}. ` +
  'A setTimeout(0) chain runs beside each call: its longest gap is the longest stretch the call held the thread; the control is the chain alone for as long (no package call). ' +
  `The limit (issue 42) is ${LIMIT_MS} ms. syntheticSession imported into the store, summarizer: the embedded extractiveSummary.\n`);
console.log('| session | store | call | longest block ms | control ms | block / control | block / 50 ms | wall ms |');
console.log('| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |');
for (const r of results) {
  console.log(`| ${r.messages} msgs | ${r.storeName} | ${r.name} | ${fmt(r.longest)} | ${fmt(r.floor)} | ${(r.longest / r.floor).toFixed(1)}x | ${(r.longest / LIMIT_MS).toFixed(2)}x | ${fmt(r.wall)} |`);
}
console.log('\n| session | JSON.parse ms | cold estimate ms | estimate / JSON.parse | cold plan ms | plan / JSON.parse |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
for (const c of colds) {
  console.log(`| ${c.messages} msgs | ${fmt(c.parse)} | ${fmt(c.estimate)} | ${(c.estimate / c.parse).toFixed(2)}x | ${fmt(c.plan)} | ${(c.plan / c.parse).toFixed(2)}x |`);
}
console.log('\n- Cold: a fresh JSON.parse of the session before each call (outside the timed region), as after a load; medians. Target (issue 42): at most 2.5x JSON.parse.');
console.log('- The store send against pi at 1,000 messages: the CompactionController.submit table (after / pi).');
