// Issue 32 part 5: where the package puts Anthropic's cache marks, against one rolling mark on the
// last block of every request (the simplest placement that also follows tool steps), and how close
// `plan.cost` comes to what the provider would bill.
//
// The same requests are priced under both placements: synthetic research sessions (bench/cache/
// script.mjs) through the controller with the `anthropic-5m` / `anthropic-1h` profile, each turn
// sent as the provider sees it: one request per step, a step after each tool result (8 s apart).
// The simulated cache follows Anthropic's documented rules at content-block granularity: a mark
// writes the prefix up to its block (when it has the minimum tokens); a request reads the longest
// live prefix at or up to 20 blocks before one of its marks, which refreshes that entry's lifetime;
// it pays reads, writes up to its last mark, and full price after it.
//
// Gap mixes: `lognormal` (median 4 minutes, sigma 1.2: heavy-tailed like the inter-arrival times of
// real-time chat, which Dunne and Malone 2017 fit best with lognormal-type families; about 23% of
// pauses over 10 minutes and 7% over 30); the default mix of bench/cache/sessions.mjs; and `brisk`
// (every pause under 3 minutes).
import { pathToFileURL, fileURLToPath } from 'node:url';
import { sessionScript, gap as defaultGap } from './script.mjs';

const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
await api.init();

const SESSIONS = Number(process.env.BIBGENIE_CACHE_SESSIONS ?? 6);
const TURNS = Number(process.env.BIBGENIE_CACHE_TURNS ?? 32);
const MODEL = { id: 'bench-100k', contextWindow: 100_000, maxOutputTokens: 8_192 };
const OVERHEAD_TOKENS = 3_150; // system prompt and tool schemas, one block before the messages
const REAL_PER_ESTIMATE = 1 / 1.25; // a provider counts about 1/1.25 of the package's estimate
const LOOKBACK_BLOCKS = 20;
const MAX_MARKS = 4;
const STEP_MS = 8_000;
const MINUTE = 60_000;

function lognormalGap(rand) {
  // Box-Muller from the session's own generator: reproducible per seed.
  const u = Math.max(rand.next(), 1e-12);
  const v = rand.next();
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return Math.max(5_000, Math.round(4 * MINUTE * Math.exp(1.2 * z)));
}
const briskGap = (rand) => 30_000 + Math.floor(rand.next() * 150_000);
const MIXES = { lognormal: lognormalGap, default: defaultGap, brisk: briskGap };

// ---- the requests of a session, as the provider sees them --------------------------------------

/** The blocks of UIMessages (step-start parts send nothing): `{ tokens, hash, message }` each. */
function blocksOf(messages) {
  const blocks = [{ tokens: OVERHEAD_TOKENS, hash: 'overhead', message: -1 }];
  let hash = 2166136261;
  messages.forEach((message, m) => {
    for (const part of message.parts) {
      if (part.type === 'step-start') continue;
      const json = JSON.stringify([message.role, part]);
      for (let i = 0; i < json.length; i++) hash = Math.imul(hash ^ json.charCodeAt(i), 16777619) >>> 0;
      const tokens = Math.ceil(api.estimateMessage({ role: message.role, parts: [part] }, MODEL) * REAL_PER_ESTIMATE);
      blocks.push({ tokens, hash: `${hash}:${blocks.length}`, message: m });
    }
  });
  let sum = 0;
  for (const block of blocks) block.prefix = sum += block.tokens;
  return blocks;
}

/** The index of the last block of message `m` (or of the block before it when it has none). */
const lastBlockOf = (blocks, m) => blocks.findLastIndex((b) => b.message <= m);

/** The assistant message as sent in step `s`: its parts through the s-th tool result. */
function partialAnswer(parts, s) {
  let tools = 0;
  const out = [];
  for (const part of parts) {
    if (part.type === 'step-start' && tools === s) break;
    out.push(part);
    if (part.type.startsWith('tool-')) tools++;
  }
  return { id: 'partial', role: 'assistant', parts: out };
}

/**
 * Runs a session through the controller (the `aware` policy of bench/cache/sessions.mjs) and
 * returns every request: `{ at, blocks, ours, rolling }` (mark block indices), and the plans of the
 * compactions with the request that followed each.
 */
async function requestsOf(script, seed, profile) {
  const store = new api.MemoryStore();
  const { sessionId } = await store.createSession();
  let now = 1_800_000_000_000 + seed * 1_000;
  const controller = new api.CompactionController({
    store, sessionId, model: MODEL, overhead: { tokens: OVERHEAD_TOKENS }, cache: profile, now: () => now,
    summarize: (request) => api.extractiveSummary(request),
  });
  const requests = [];
  const costed = []; // [plan.cost, index of the next request]
  let lastAnswerAt = now;
  for (let t = 0; t < script.length; t++) {
    const { user, assistant, gap } = script[t];
    if (t > 0 && gap > profile.lifetimeMs) {
      now = lastAnswerAt + profile.lifetimeMs + 1_000;
      const background = await controller.afterTurn();
      if (background?.status === 'committed' && background.plan?.cost) costed.push([background.plan.cost, requests.length]);
    }
    now = lastAnswerAt + gap;
    const draft = { id: `u${t}`, role: 'user', parts: user };
    const result = await controller.submit(draft);
    if (result.status !== 'send') throw new Error(`turn ${t}: ${result.status} ${result.reason}`);
    if (result.outcome?.status === 'committed' && result.outcome.plan?.cost) costed.push([result.outcome.plan.cost, requests.length]);
    await store.appendMessage(sessionId, { ...draft, createdAt: now });
    const breakpoints = (await store.withSessionIndex(sessionId, (view) =>
      view.cacheBreakpoints(MODEL, { overhead: { tokens: OVERHEAD_TOKENS }, cache: profile }))).breakpoints;
    const steps = assistant.filter((p) => p.type.startsWith('tool-')).length;
    for (let s = 0; s <= steps; s++) {
      const messages = s === 0 ? result.messages : [...result.messages, partialAnswer(assistant, s)];
      const blocks = blocksOf(messages);
      let ours = breakpoints.map((b) => lastBlockOf(blocks, b.index));
      if (s > 0) {
        // cacheStepMarks: the step's last block, the turn's newest mark giving way at the limit.
        if (ours.length >= MAX_MARKS) ours = ours.slice(0, -1);
        ours = [...ours, blocks.length - 1];
      }
      requests.push({ at: now + s * STEP_MS, blocks, ours: [...new Set(ours)].filter((b) => b > 0), rolling: [blocks.length - 1] });
    }
    const total = requests.at(-1).blocks.at(-1).prefix;
    now += steps * STEP_MS + 20_000;
    lastAnswerAt = now;
    await store.appendMessage(sessionId, {
      id: `a${t}`, role: 'assistant', parts: assistant, createdAt: now,
      metadata: { usage: { inputTokens: total, outputTokens: 400, totalTokens: total + 400 } },
    }, { parentId: draft.id });
    const after = await controller.afterTurn();
    if (after?.status === 'committed' && after.plan?.cost) costed.push([after.plan.cost, requests.length]);
  }
  return { requests, costed };
}

// ---- the simulated cache ----------------------------------------------------------------------

/** Prices the requests with the marks `placement` names; the cost of each request, in dollars. */
function price(requests, placement, profile) {
  const live = new Map(); // prefix hash -> expiry
  return requests.map(({ at, blocks, [placement]: marks }) => {
    let read = 0;
    let readAt = -1;
    for (const m of marks) {
      for (let b = m; b >= Math.max(1, m - LOOKBACK_BLOCKS); b--) {
        if ((live.get(blocks[b].hash) ?? -1) >= at && blocks[b].prefix > read) {
          read = blocks[b].prefix;
          readAt = b;
          break;
        }
      }
    }
    if (readAt >= 0) live.set(blocks[readAt].hash, at + profile.lifetimeMs);
    const last = marks.length ? Math.max(...marks) : 0;
    let write = 0;
    if (last > 0 && blocks[last].prefix >= profile.minPrefixTokens) {
      write = Math.max(0, blocks[last].prefix - read);
      for (const m of marks) if (blocks[m].prefix >= profile.minPrefixTokens) live.set(blocks[m].hash, at + profile.lifetimeMs);
    }
    const total = blocks.at(-1).prefix;
    const full = total - read - write;
    return (read * profile.cacheReadPrice + write * profile.cacheWritePrice + full * profile.inputPrice) / 1e6;
  });
}

// ---- the tables -----------------------------------------------------------------------------------

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

console.log(`\n## Cache mark placement: the package's against one rolling mark, ${SESSIONS} sessions x ${TURNS} turns, each tool step a request (bench/cache/placement.mjs)\n`);
console.log('| profile | gap mix | requests / session | package $ / session | rolling $ / session | package / rolling |');
console.log('| --- | --- | ---: | ---: | ---: | ---: |');
const costRatios = [];
const verdicts = [];
for (const name of ['anthropic-5m', 'anthropic-1h']) {
  const profile = api.cacheProfile(name);
  for (const [mix, gapOf] of Object.entries(MIXES)) {
    let ours = 0;
    let rolling = 0;
    let count = 0;
    for (let i = 0; i < SESSIONS; i++) {
      const { requests, costed } = await requestsOf(sessionScript(2_000 + i, TURNS, gapOf), i, profile);
      const mine = price(requests, 'ours', profile);
      ours += mine.reduce((a, b) => a + b, 0);
      rolling += price(requests, 'rolling', profile).reduce((a, b) => a + b, 0);
      count += requests.length;
      for (const [cost, next] of costed) if (next < mine.length && cost.nextRequestWith > 0) costRatios.push(cost.nextRequestWith / mine[next]);
    }
    const ratio = ours / rolling;
    verdicts.push([name, mix, ratio]);
    console.log(`| ${name} | ${mix} | ${(count / SESSIONS).toFixed(1)} | $${(ours / SESSIONS).toFixed(4)} | $${(rolling / SESSIONS).toFixed(4)} | ${ratio.toFixed(3)} |`);
  }
}
console.log('\nTargets:');
for (const [name, mix, ratio] of verdicts) {
  console.log(`- ${name}, ${mix} gaps: the package's placement costs no more than one rolling mark: ${ratio.toFixed(3)}: ${ratio <= 1.0 ? 'met' : 'MISSED'}`);
}
const logs = costRatios.map((r) => Math.abs(Math.log(r)));
const median = Math.exp(quantile(logs, 0.5));
const p90 = Math.exp(quantile(logs, 0.9));
console.log(`\n\`plan.cost.nextRequestWith\` against the simulated bill of the request after each of ${costRatios.length} compactions (package placement): `
  + `median factor ${median.toFixed(2)}x, p90 ${p90.toFixed(2)}x (estimate / simulated: median ${quantile(costRatios, 0.5).toFixed(2)}, p10 ${quantile(costRatios, 0.1).toFixed(2)}, p90 ${quantile(costRatios, 0.9).toFixed(2)})`);
