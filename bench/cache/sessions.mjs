// Issue 26 part 4: synthetic Zotero research sessions (tool steps with search results and PDF pages,
// pastes, idle gaps from minutes to hours) through a simulated provider prompt cache, served by the
// AI SDK 5 mock model (the usage reaches the session through streamText, the UI message stream and
// usageMetadata, in each provider's own shape), with three policies per profile:
//   today   no cache marks, compaction at the threshold (the package before issue 26);
//   marks   cache breakpoints only;
//   aware   breakpoints, the controller's cache profile (cache-cold compaction from 3/4 of the
//           threshold) and its background check once the lifetime passed with no message.
// Prints input cost per session (chat requests and summary requests), cache-hit share, compactions,
// overflows and waits (sends that compacted first), and the targets as met / missed.
// Simplifications: one request per turn (a turn's tool steps follow within seconds and cost the same
// under every policy); a provider counts 1/1.25 of the package's estimate (its median over-estimate,
// docs/estimator.md); the cache holds prefixes at UIMessage boundaries.
import { pathToFileURL, fileURLToPath } from 'node:url';

const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
const { sessionScript } = await import('./script.mjs');
const nodeModules = new URL('../../tests/node_modules/', import.meta.url);
const ai = await import(new URL('ai/dist/index.mjs', nodeModules).href);
const aiTest = await import(new URL('ai/dist/test/index.mjs', nodeModules).href);
await api.init();

const SESSIONS = Number(process.env.BIBGENIE_CACHE_SESSIONS ?? 6);
const TURNS = Number(process.env.BIBGENIE_CACHE_TURNS ?? 32);
const MODEL = { id: 'bench-100k', contextWindow: 100_000, maxOutputTokens: 8_192 };
const OVERHEAD_TOKENS = 3_150; // system prompt and tool schemas (as the demo's sample session)
const REAL_PER_ESTIMATE = 1 / 1.25;
const MINUTE = 60_000;

const PROFILES = {
  'anthropic-5m': { profile: api.cacheProfile('anthropic-5m'), provider: 'anthropic', ttl: '5m' },
  'anthropic-1h': { profile: api.cacheProfile('anthropic-1h'), provider: 'anthropic', ttl: '1h' },
  openai: { profile: api.cacheProfile('openai'), provider: 'openai' },
  deepseek: { profile: api.cacheProfile('deepseek'), provider: 'deepseek' },
};

// ---- the simulated provider cache --------------------------------------------------------------

/** Real tokens of each UIMessage of a request (overhead first), and the prefix hashes. */
function measure(messages) {
  const tokens = [OVERHEAD_TOKENS];
  const hashes = ['overhead'];
  let hash = 2166136261;
  for (const message of messages) {
    const { id, role, parts } = message;
    const json = JSON.stringify({ id, role, parts });
    for (let i = 0; i < json.length; i++) hash = Math.imul(hash ^ json.charCodeAt(i), 16777619) >>> 0;
    hashes.push(`${hash}:${hashes.length}`);
    tokens.push(Math.ceil(api.estimateMessage(message, MODEL) * REAL_PER_ESTIMATE));
  }
  const prefix = [];
  tokens.reduce((sum, t) => (prefix.push(sum + t), sum + t), 0);
  return { prefix, hashes }; // prefix[k]: tokens of the overhead and the first k messages
}

class ProviderCache {
  constructor(profile, explicit) {
    this.profile = profile;
    this.explicit = explicit;
    this.entries = new Map(); // prefix hash -> expiry
  }

  /** Usage of one request; `marks`: message counts after which a breakpoint is (explicit caches). */
  request(messages, marks, now) {
    const { prefix, hashes } = measure(messages);
    const total = prefix[prefix.length - 1];
    const live = (k) => (this.entries.get(hashes[k]) ?? -1) >= now;
    const ttl = this.profile.lifetimeMs;
    let read = 0;
    let write = 0;
    if (this.explicit) {
      const last = marks.length ? Math.max(...marks) : 0;
      let hit = 0;
      for (let k = last; k > 0; k--) if (live(k)) { hit = k; break; }
      read = hit ? prefix[hit] : 0;
      if (last > 0 && prefix[last] >= this.profile.minPrefixTokens) write = prefix[last] - read;
      if (hit) this.entries.set(hashes[hit], now + ttl);
      for (const k of marks) if (prefix[k] >= this.profile.minPrefixTokens) this.entries.set(hashes[k], now + ttl);
    } else {
      let hit = 0;
      for (let k = prefix.length - 1; k > 0; k--) if (live(k) && prefix[k] >= this.profile.minPrefixTokens) { hit = k; break; }
      read = hit ? prefix[hit] : 0;
      for (let k = 1; k < prefix.length; k++) this.entries.set(hashes[k], now + ttl);
    }
    return { total, read, write, noCache: total - read - write };
  }
}

/** The usage and provider metadata an AI SDK 5 provider reports for these counts. */
function reported(provider, { total, read, write, noCache }, output) {
  if (provider === 'anthropic') {
    return {
      usage: { inputTokens: noCache, outputTokens: output, totalTokens: noCache + output, cachedInputTokens: read },
      providerMetadata: { anthropic: { cacheCreationInputTokens: write } },
    };
  }
  const metadata = provider === 'deepseek' ? { deepseek: { promptCacheHitTokens: read, promptCacheMissTokens: total - read } } : { openai: {} };
  return { usage: { inputTokens: total, outputTokens: output, totalTokens: total + output, cachedInputTokens: read }, providerMetadata: metadata };
}

// ---- one session under one policy --------------------------------------------------------------

async function runSession(script, seed, { profile, provider, ttl }, policy) {
  const store = new api.MemoryStore();
  const { sessionId } = await store.createSession();
  let now = 1_800_000_000_000 + seed * 1_000;
  const cost = { input: 0, summary: 0 };
  const stats = { read: 0, input: 0, compactions: 0, overflows: 0, waits: 0, requests: 0 };
  const summarize = (request) => {
    const tokens = Math.ceil((api.estimateMessage({ role: 'user', parts: [{ type: 'text', text: request.system + request.prompt }] }) * REAL_PER_ESTIMATE));
    cost.summary += (tokens * profile.inputPrice) / 1e6; // never cached: a unique prefix
    return api.extractiveSummary(request);
  };
  const aware = policy === 'aware';
  const marked = policy !== 'today' && provider === 'anthropic';
  const controller = new api.CompactionController({
    store, sessionId, model: MODEL, summarize, overhead: { tokens: OVERHEAD_TOKENS },
    ...(aware ? { cache: profile, now: () => now } : {}),
  });
  const cache = new ProviderCache(profile, provider === 'anthropic');
  let nextUsage = null;
  const model = new aiTest.MockLanguageModelV2({
    doStream: async () => ({
      stream: aiTest.convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'ok' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: 'stop', ...nextUsage },
      ]),
    }),
  });
  let lastAnswerAt = now;
  for (let t = 0; t < script.length; t++) {
    const { user, assistant, gap } = script[t];
    // The controller's background check, as its timer would run it once the lifetime passed.
    if (aware && t > 0 && gap > profile.lifetimeMs) {
      now = lastAnswerAt + profile.lifetimeMs + 1_000;
      const outcome = await controller.afterTurn();
      if (outcome?.status === 'committed') stats.compactions++;
    }
    now = lastAnswerAt + gap;
    const draft = { id: `u${t}`, role: 'user', parts: user, createdAt: now };
    const result = await controller.submit(draft);
    if (result.status !== 'send') throw new Error(`turn ${t}: ${result.status} ${result.reason}`);
    if (result.outcome?.status === 'committed') {
      stats.compactions++;
      stats.waits++;
    }
    await store.appendMessage(sessionId, draft);
    const messages = result.messages;
    const marks = marked
      ? (await store.withSessionIndex(sessionId, (view) => view.cacheBreakpoints(MODEL, { overhead: { tokens: OVERHEAD_TOKENS }, cache: profile }))).breakpoints.map((b) => b.index + 1)
      : [];
    const counts = cache.request(messages, marks, now);
    if (counts.total > MODEL.contextWindow) stats.overflows++;
    stats.requests++;
    stats.read += counts.read;
    stats.input += counts.total;
    const writePrice = provider === 'anthropic' ? profile.cacheWritePrice : profile.inputPrice;
    cost.input += (counts.read * profile.cacheReadPrice + counts.write * writePrice + counts.noCache * profile.inputPrice) / 1e6;
    nextUsage = reported(provider, counts, 400);
    const modelMessages = api.applyCacheBreakpoints(ai.convertToModelMessages(messages), {
      provider: marked ? 'anthropic' : 'implicit', breakpoints: marks.map((k) => ({ index: k - 1 })), messages, ttl,
    });
    if (marked && modelMessages.filter((m) => m.providerOptions?.anthropic?.cacheControl).length !== marks.length) throw new Error('marks lost');
    const streamed = ai.streamText({ model, messages: modelMessages });
    let answer;
    for await (const m of ai.readUIMessageStream({ stream: streamed.toUIMessageStream({ messageMetadata: api.usageMetadata }) })) answer = m;
    now += 20_000;
    lastAnswerAt = now;
    await store.appendMessage(sessionId, { id: `a${t}`, role: 'assistant', parts: assistant, metadata: answer.metadata, createdAt: now }, { parentId: draft.id });
    const outcome = await controller.afterTurn();
    if (outcome?.status === 'committed') stats.compactions++;
  }
  return { cost: cost.input + cost.summary, hitShare: stats.read / stats.input, ...stats };
}

// ---- the table ----------------------------------------------------------------------------------

const scripts = Array.from({ length: SESSIONS }, (_, i) => sessionScript(1_000 + i, TURNS));
const rows = [];
for (const [name, profile] of Object.entries(PROFILES)) {
  const row = { name };
  for (const policy of ['today', 'marks', 'aware']) {
    const runs = [];
    for (let i = 0; i < scripts.length; i++) runs.push(await runSession(scripts[i], i, profile, policy));
    const mean = (f) => runs.reduce((s, r) => s + f(r), 0) / runs.length;
    row[policy] = {
      cost: mean((r) => r.cost), hit: mean((r) => r.hitShare), compactions: mean((r) => r.compactions),
      maxExtra: 0, overflows: runs.reduce((s, r) => s + r.overflows, 0), waits: mean((r) => r.waits), runs,
    };
  }
  row.aware.maxExtra = Math.max(...row.aware.runs.map((r, i) => r.compactions - row.today.runs[i].compactions));
  rows.push(row);
}

const pad = (s, n) => String(s).padStart(n);
console.log(`\n## Prompt cache: ${SESSIONS} sessions x ${TURNS} turns, ${MODEL.contextWindow.toLocaleString('en-US')}-token window (bench/cache/sessions.mjs)\n`);
console.log('| profile | policy | input cost / session | vs today | cache-hit share | compactions | overflows | waits |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const row of rows) {
  for (const policy of ['today', 'marks', 'aware']) {
    const r = row[policy];
    const ratio = r.cost / row.today.cost;
    console.log(`| ${row.name} | ${policy} | $${r.cost.toFixed(4)} | ${ratio.toFixed(3)} | ${(100 * r.hit).toFixed(1)}% | ${r.compactions.toFixed(2)} | ${r.overflows} | ${r.waits.toFixed(2)} |`);
  }
}
const verdict = (ok) => (ok ? 'met' : 'MISSED');
console.log('\nTargets:');
for (const name of ['anthropic-5m', 'openai']) {
  const row = rows.find((r) => r.name === name);
  const saving = 1 - row.aware.cost / row.today.cost;
  console.log(`- ${name}: aware input cost at least 10% below today: ${(100 * saving).toFixed(1)}% lower: ${verdict(saving >= 0.1)}`);
  const vsMarks = 1 - row.aware.cost / row.marks.cost;
  if (name.startsWith('anthropic')) console.log(`  (cold-cache compaction alone, aware vs marks: ${(100 * vsMarks).toFixed(1)}% lower)`);
}
const overflows = rows.reduce((s, r) => s + r.today.overflows + r.marks.overflows + r.aware.overflows, 0);
console.log(`- never a request over the window: ${overflows} overflows: ${verdict(overflows === 0)}`);
const extra = Math.max(...rows.map((r) => r.aware.maxExtra));
console.log(`- at most 2 more compactions per session (aware vs today, worst session): ${extra}: ${verdict(extra <= 2)}`);
const a5 = rows.find((r) => r.name === 'anthropic-5m');
const third = a5.marks.cost / a5.today.cost;
console.log(`- breakpoints alone, Anthropic 5-minute, at most a third of unmarked: ${third.toFixed(3)}: ${verdict(third <= 1 / 3)}`);
console.log(`  (cache-hit share ${(100 * a5.marks.hit).toFixed(1)}%, as OpenAI's implicit cache ${(100 * rows.find((r) => r.name === 'openai').today.hit).toFixed(1)}%: the misses are gaps over 5 minutes, not unmarked prefixes)`);
// The same sessions with every gap under 3 minutes: what the marks give while the cache stays warm.
const brisk = scripts.map((script) => script.map((t, i) => ({ ...t, gap: 30_000 + ((i * 7_919) % 150_000) })));
const briskCost = async (policy) => {
  let sum = 0;
  for (let i = 0; i < brisk.length; i++) sum += (await runSession(brisk[i], i, PROFILES['anthropic-5m'], policy)).cost;
  return sum / brisk.length;
};
const briskThird = (await briskCost('marks')) / (await briskCost('today'));
console.log(`  (every gap under 3 minutes: marks / unmarked ${briskThird.toFixed(3)}: ${verdict(briskThird <= 1 / 3)})`);
