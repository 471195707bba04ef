// CompactionController.submit of one new message on a 1,000- and 10,000-message session held open by
// a store: ours before (the runner path: a store with only load/transaction, as an app's own store)
// against after (the store-held index: SqliteStore, MemoryStore), and against pi's (c2) (one message
// appended to its held entries, needed? + cut + the messages to send). Medians of interleaved rounds
// in one process (each side first, second and third in turn), after warm-up rounds that every side
// runs alike and that are not counted; ratios in the same run; nothing here asserts a time.
//
//   node bench/speed/controller.mjs [--quick] [--sizes=1000,10000]
// The package is read from BIBGENIE_PKG_DIR (./build.sh bench sets it) or pkg/.
import os from 'node:os';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const sizes = args.find((a) => a.startsWith('--sizes='))?.split('=')[1].split(',').map(Number) ?? [1_000, 10_000];
// At 1,000 messages a round costs ~0.1 s (the runner path's load), so enough rounds that pi's figure
// (0.3 to 9 ms per round on this shared machine) has a stable median; a multiple of the three sides.
const ROUNDS = quick ? { 1_000: 15, 10_000: 3 } : { 1_000: 45, 10_000: 6 };
/**
 * Rounds run first, the same way, for every side, and not counted: in the first rounds each side's
 * JavaScript is still being compiled (ours a send of hundreds of lines, pi's a few functions), which
 * is a cost of the first sends of a process, not of a send.
 */
const WARMUP = { 1_000: 6, 10_000: 1 };
const SEED = 20_250_310;
const MODEL = { id: 'bench-200k', contextWindow: 200_000, maxOutputTokens: 32_000 };
/** One checkpoint every 50 messages, so that the projection (the tail after the last) fits the window. */
const CHECKPOINT_EVERY = 50;

const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
const { syntheticSession } = await import('../../tests/fixtures/session-generator.mjs');
await api.init();
const requireHere = createRequire(import.meta.url);
/** better-sqlite3 from tests/node_modules (the tests' copy; the bench installs no second one). */
const Database = requireHere(fileURLToPath(new URL('../../tests/node_modules/better-sqlite3', import.meta.url)));
let pi = null;
try {
  pi = await (await import('./pi.mjs')).loadPi();
} catch (error) {
  process.stderr.write(`pi not loaded (npm ci --prefix bench): ${error.message}\n`);
}
const { toPiSession } = await import('./pi.mjs');

const now = () => performance.now();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const log = (line) => process.stderr.write(`${line}\n`);

/** The store as an app's own store: load and transaction only, so the controller takes the runner path. */
const runnerPath = (store) => ({ load: (id) => store.load(id), transaction: (id, fn) => store.transaction(id, fn) });
const noSummaries = async () => {
  throw new Error('the bench sessions fit: no summary is asked for');
};

const draftText = 'Compare the retrieval units of the last three papers and keep the page labels. '.repeat(4);
const answerText = 'The section reports a 7.4 point gain in answer accuracy over abstract-only retrieval (p. 57). '.repeat(4);

/** pi's (c2) as in pi.mjs: the projection of its held entries, its estimate plus the draft, the threshold, the cut when over it. */
function piSend(settings, state, draft) {
  const path = [];
  for (let e = state.byId.get(state.leafId); e; e = e.parentId ? state.byId.get(e.parentId) : undefined) path.push(e);
  path.reverse();
  const projection = pi.buildSessionProjection(state.entries, state.leafId, state.byId);
  const tokens = pi.estimateProjectedContextTokens(projection, path).tokens + pi.estimateTokens(draft);
  const compact = pi.shouldCompact(tokens, MODEL.contextWindow, settings);
  const preparation = compact ? pi.prepareCompaction(path, settings) : undefined;
  return { compact, messages: [...projection.messages, draft], cut: preparation?.firstKeptEntryId ?? null };
}

/** Appends a user message and an assistant answer to pi's held state (what it does after a turn). */
function piAppend(state, k) {
  for (const [role, text] of [['user', draftText], ['assistant', answerText]]) {
    const id = `pi-${role}-${k}`;
    const message = role === 'user'
      ? { role, content: [{ type: 'text', text }], timestamp: 0 }
      : { role, content: [{ type: 'text', text }], api: 'bench', provider: 'bench', model: MODEL.id, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: 'stop', timestamp: 0 };
    const entry = { type: 'message', id, parentId: state.leafId, timestamp: new Date(0).toISOString(), message };
    state.entries.push(entry);
    state.byId.set(id, entry);
    state.leafId = id;
  }
}

async function run(messages, storeName, openStore, dir) {
  const session = syntheticSession({ messages, seed: SEED, checkpoints: Math.max(1, Math.floor(messages / CHECKPOINT_EVERY) - 1) });
  const store = openStore(dir);
  const { sessionId } = await store.importSession(session);
  const after = new api.CompactionController({ store, sessionId, model: MODEL, summarize: noSummaries });
  const before = new api.CompactionController({ store: runnerPath(store), sessionId, model: MODEL, summarize: noSummaries });
  const capacity = api.capacity(MODEL);
  const settings = { enabled: true, reserveTokens: capacity.reservedTokens, keepRecentTokens: capacity.tailBudget };
  let piState = null;
  if (pi) {
    const { entries, leafId } = toPiSession(session);
    piState = { entries, leafId, byId: new Map(entries.map((e) => [e.id, e])) };
  }
  const times = { before: [], after: [], pi: [] };
  let k = 0;
  /** The messages sent by the first and the last counted submit (the chat grows by a turn a round). */
  const sentMessages = [];
  const sides = {
    after: async (draft) => {
      const result = await after.submit(draft);
      if (result.status !== 'send') throw new Error(`after: ${result.status} ${result.reason}`);
      sentMessages.push(result.messages.length);
    },
    before: async (draft) => {
      const result = await before.submit(draft);
      if (result.status !== 'send') throw new Error(`before: ${result.status} ${result.reason}`);
    },
    pi: async (draft) => {
      const sent = piSend(settings, piState, draft);
      if (sent.compact) throw new Error('pi: compact');
    },
  };
  const order = pi ? ['after', 'before', 'pi'] : ['after', 'before'];
  // Warm-up: the first submit through the store builds its index (the cold read of the session).
  const coldStart = now();
  await sides.after({ id: 'bench-warm', role: 'user', parts: [{ type: 'text', text: draftText }] });
  const cold = now() - coldStart;
  await sides.before({ id: 'bench-warm', role: 'user', parts: [{ type: 'text', text: draftText }] });
  const warmup = WARMUP[messages] ?? 1;
  for (let r = 0; r < warmup + ROUNDS[messages]; r++) {
    // The turn before: the user's message and the answer are stored (outside the timed region).
    const head = (await store.appendMessage(sessionId, { id: `bench-u${k}`, role: 'user', parts: [{ type: 'text', text: draftText }] })).node;
    await store.appendMessage(sessionId, { id: `bench-a${k}`, parentId: head.id, role: 'assistant', parts: [{ type: 'text', text: answerText }] });
    if (piState) piAppend(piState, k);
    k++;
    const rotated = [...order.slice(r % order.length), ...order.slice(0, r % order.length)];
    for (const side of rotated) {
      const draft = side === 'pi'
        ? { role: 'user', content: [{ type: 'text', text: draftText }], timestamp: 0 }
        : { id: `bench-d${k}-${side}`, role: 'user', parts: [{ type: 'text', text: draftText }] };
      const start = now();
      await sides[side](draft);
      if (r >= warmup) times[side].push(now() - start);
    }
  }
  await store.close();
  const m = { before: median(times.before), after: median(times.after), pi: pi ? median(times.pi) : null };
  log(`  ${messages} ${storeName}: before ${m.before.toFixed(2)} ms, after ${m.after.toFixed(2)} ms${pi ? `, pi ${m.pi.toFixed(2)} ms` : ''}; cold first submit ${cold.toFixed(0)} ms`);
  const sent = sentMessages.slice(1 + warmup); // the cold submit and the warm-up rounds left out
  return { messages, storeName, ...m, cold, sentMessages: `${sent[0]}-${sent[sent.length - 1]}`, json: JSON.stringify(session).length };
}

const dir = mkdtempSync(join(os.tmpdir(), 'bibgenie-bench-controller-'));
const results = [];
try {
  for (const messages of sizes) {
    for (const [name, open] of [
      ['SqliteStore', (d) => new api.SqliteStore(Database, join(d, `s${messages}.sqlite`))],
      ['MemoryStore', () => new api.MemoryStore()],
    ]) {
      results.push(await run(messages, name, open, dir));
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const [load] = os.loadavg();
const fmt = (n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
console.log(`## CompactionController.submit of one new message, Node ${process.version}\n`);
console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model ?? 'unknown CPU'} x ${os.cpus().length}, load ${load.toFixed(2)}${quick ? ', --quick' : ''}. Medians of ${sizes.map((n) => `${ROUNDS[n]} interleaved rounds at ${n} messages`).join(', ')} (one user message and its answer stored before each round), after ${sizes.map((n) => WARMUP[n] ?? 1).join(' / ')} warm-up rounds of every side, ms per submit.\n`);
console.log(`| session | store | before: runner path ms | after: store-held index ms | before / after | pi (c2) ms | after / pi | first submit (builds the index) ms |`);
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const r of results) {
  const piCells = r.pi === null ? '| n/a | n/a ' : `| ${fmt(r.pi)} | ${(r.after / r.pi).toFixed(2)}x `;
  console.log(`| ${r.messages} msgs, ${(r.json / 1e6).toFixed(1)} MB JSON, ${r.sentMessages} sent | ${r.storeName} | ${fmt(r.before)} | ${fmt(r.after)} | ${(r.before / r.after).toFixed(1)}x ${piCells}| ${fmt(r.cold)} |`);
}
console.log(`\n- Sessions: syntheticSession with a checkpoint every ${CHECKPOINT_EVERY} messages (the projection fits ${MODEL.id}); every submit sends.`);
console.log('- before: the same store handed to the controller as an app store with load/transaction only (a load and a runner call per submit).');
if (pi) console.log(`- pi ${pi.version}: its held entries plus the same appended turns; projection, estimate with the draft, shouldCompact (its (c2)).`);
