// The speed bench itself, shared by the Node runner (node.mjs) and the Firefox page (page.mjs).
// No Node APIs here. Every figure is a median (and p90) of repeated runs after warm-up, and every
// ratio is against a floor or a baseline measured in the same run, so a loaded machine moves both
// sides. Nothing here asserts a time.

/** A current large-window model: 200k context, 32k output (Claude-class). */
export const MODEL = { id: 'bench-200k', contextWindow: 200_000, maxOutputTokens: 32_000 };
export const SIZES = [100, 1_000, 10_000];
/** Messages taken from each real corpus of the estimator bench (every n-th, deterministic). */
export const REAL_MESSAGES_PER_CORPUS = 250;

/** `{ kind, texts }` from the estimator bench's `loadCorpora()` rows (its cache, bench/.corpora/). */
export function pickReal(corpora) {
  return corpora.map((c) => {
    const step = Math.max(1, Math.floor(c.rows.length / REAL_MESSAGES_PER_CORPUS));
    return { kind: c.name, texts: c.rows.filter((_, i) => i % step === 0).slice(0, REAL_MESSAGES_PER_CORPUS).map((r) => r.text) };
  });
}
export const VARIANTS = [
  { name: 'linear', options: { branches: false, checkpoints: 0 } },
  { name: 'branches + 3 checkpoints', options: { branches: true, checkpoints: 3 } },
];
/** Samples per operation by session size: enough for a stable median, few enough for 10k in minutes. */
const SAMPLES = { 100: 31, 1_000: 15, 10_000: 5 };
const QUICK_SAMPLES = { 100: 7, 1_000: 5, 10_000: 3 };
/** Preflights timed per session, in batches (each preflight appends one message first). */
const PREFLIGHT_SAMPLES = 25;
const PREFLIGHT_BATCH = 8;
/** A sample runs the operation this long at least, so coarse timers (Firefox) still resolve it. */
const MIN_BATCH_MS = 10;
const SEED = 20_250_310;

const utf8 = new TextEncoder();
const now = () => performance.now();
/** Lets the event loop run between measurements (a browser page must not block for minutes). */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

// ---------------------------------------------------------------------------------------------
// Timing

export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: at(0.5), p90: at(0.9), n: sorted.length };
}

/**
 * Median and p90 of `fn` in ms per call. Idempotent operations run in batches of at least
 * MIN_BATCH_MS; `after(results)` runs outside the timed region (e.g. to free what `fn` made).
 */
export function measure(fn, { samples, warmup = 1, after } = {}) {
  for (let i = 0; i < warmup; i++) after?.([fn()]);
  let reps = 1;
  for (;;) {
    const results = [];
    const start = now();
    for (let i = 0; i < reps; i++) results.push(fn());
    const elapsed = now() - start;
    after?.(results);
    if (elapsed >= MIN_BATCH_MS || reps >= 1 << 16) break;
    reps *= 2;
  }
  const times = [];
  for (let s = 0; s < samples; s++) {
    const results = [];
    const start = now();
    for (let i = 0; i < reps; i++) results.push(fn());
    times.push((now() - start) / reps);
    after?.(results);
  }
  return stats(times);
}

/** The resolution of `performance.now()` here (Firefox may coarsen it), or of another clock. */
export function timerResolutionMs(clock = now) {
  let smallest = Infinity;
  for (let i = 0; i < 50; i++) {
    const a = clock();
    let b = clock();
    while (b === a) b = clock();
    smallest = Math.min(smallest, b - a);
  }
  return smallest;
}

// ---------------------------------------------------------------------------------------------
// Estimator throughput

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/g;
const CJK_MESSAGES = 200;

/**
 * Text messages by kind: `real` ({ kind, texts }: the estimator bench's corpora of real text, where
 * available), and text cut from the sample sessions: prose (user and assistant text), CJK-heavy
 * prose, PDF page text, and Zotero JSON tool results as the text the model is sent. The sample text
 * repeats sentences, which flatters gpt-tokenizer (it caches the pieces it has encoded).
 */
export function textCorpus({ researchSession, syntheticSession, real = [] }) {
  const kinds = { 'sample prose': [], 'sample cjk': [], 'sample pdf text': [], 'sample zotero json': [] };
  const add = (kind, text) => {
    if (typeof text !== 'string' || text.length < 20) return;
    const cjk = (text.match(CJK) ?? []).length;
    kinds[kind === 'sample prose' && cjk > text.length / 5 ? 'sample cjk' : kind].push(text);
  };
  const sessions = [researchSession({ seed: 3 }), syntheticSession({ messages: 600, seed: SEED })];
  for (const session of sessions) {
    for (const node of session.nodes) {
      for (const part of node.parts ?? []) {
        if (part.type === 'text') add('sample prose', part.text);
        if (part.type?.startsWith('tool-') && part.output !== undefined) {
          if (typeof part.output?.text === 'string') add(part.output.text.match(CJK)?.length > 50 ? 'sample cjk' : 'sample pdf text', part.output.text);
          else add('sample zotero json', JSON.stringify(part.output));
        }
      }
    }
  }
  // The sample sessions carry only a few CJK texts: combine them into messages of the usual size.
  const cjk = kinds['sample cjk'];
  kinds['sample cjk'] = Array.from({ length: CJK_MESSAGES }, (_, i) => [0, 1, 3].map((d) => cjk[(i + d) % cjk.length]).join('\n\n'));
  for (const { kind, texts } of real) kinds[kind] = texts;
  return Object.entries(kinds).map(([kind, texts]) => ({
    kind,
    messages: texts.map((text, i) => ({ id: `m${i}`, role: 'assistant', parts: [{ type: 'text', text }] })),
    texts,
    bytes: texts.reduce((n, t) => n + utf8.encode(t).length, 0),
  }));
}

/** MB/s of UTF-8 text: estimateMessage (JS objects in, through the boundary) vs exact tokenizers. */
export async function throughput({ api, countTokens, baseline, corpus, quick }) {
  const samples = quick ? 3 : 9;
  const rows = [];
  const total = { kind: 'all', bytes: 0, wasm: 0, exact: 0, chars4: 0, stringify: 0, messages: 0 };
  for (const c of corpus) {
    const wasm = measure(() => { let n = 0; for (const m of c.messages) n += api.estimateMessage(m); return n; }, { samples });
    const exact = measure(() => { let n = 0; for (const t of c.texts) n += countTokens(t); return n; }, { samples: Math.min(samples, 5), warmup: 1 });
    const chars4 = measure(() => { let n = 0; for (const m of c.messages) n += baseline.estimateMessage(m); return n; }, { samples });
    // What handing a message object to wasm costs before any counting: its JSON text.
    const stringify = measure(() => { let n = 0; for (const m of c.messages) n += JSON.stringify(m).length; return n; }, { samples });
    await tick();
    rows.push({ kind: c.kind, messages: c.messages.length, bytes: c.bytes, wasm: wasm.median, exact: exact.median, chars4: chars4.median, stringify: stringify.median });
    total.bytes += c.bytes;
    total.messages += c.messages.length;
    total.wasm += wasm.median;
    total.exact += exact.median;
    total.chars4 += chars4.median;
    total.stringify += stringify.median;
  }
  rows.push(total);
  return rows;
}

export function throughputMarkdown(rows) {
  const mbps = (bytes, ms) => (bytes / 1e6 / (ms / 1e3)).toFixed(1);
  const lines = [
    '| text | messages | MB | estimateMessage MB/s | gpt-tokenizer o200k countTokens MB/s | speed-up | JSON.stringify of the messages MB/s (boundary floor) | its speed-up | JS chars/4 (string length) MB/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const r of rows) {
    lines.push(`| ${r.kind} | ${r.messages} | ${(r.bytes / 1e6).toFixed(2)} | ${mbps(r.bytes, r.wasm)} | ${mbps(r.bytes, r.exact)} | ` +
      `${(r.exact / r.wasm).toFixed(1)}x | ${mbps(r.bytes, r.stringify)} | ${(r.exact / r.stringify).toFixed(0)}x | ${mbps(r.bytes, r.chars4)} |`);
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Sessions

const DRAFT = { id: 'bench-draft', role: 'user', parts: [{ type: 'text', text: 'Compare the retrieval units of the last three papers and keep the page labels. '.repeat(4) }] };

/** The message appended before each preflight: alternately a user turn and an assistant answer. */
function appendedMessage(k, parentId) {
  return k % 2 === 0
    ? { id: `bench-u${k}`, parentId, role: 'user', parts: [{ type: 'text', text: 'Read the next page and keep the page label.' }] }
    : { id: `bench-a${k}`, parentId, role: 'assistant', parts: [{ type: 'text', text: 'The section reports a 7.4 point gain in answer accuracy over abstract-only retrieval (p. 57). '.repeat(4) }] };
}

/**
 * Preflights through `index`, each after appending one message: the first call alone (it fills the
 * per-node estimate cache), then PREFLIGHT_SAMPLES batches of PREFLIGHT_BATCH (so a 20 us timer
 * still resolves them); ms per preflight.
 */
function preflights(api, index, leafId, revision) {
  let leaf = leafId;
  let k = 0;
  let last;
  const once = () => {
    const message = appendedMessage(k, leaf);
    index.append(message);
    index.setLeaf(message.id, revision + k + 1);
    last = index.plan(MODEL, { mode: 'preflight', draft: DRAFT });
    leaf = message.id;
    k++;
  };
  let start = now();
  once();
  const first = now() - start;
  const times = [];
  for (let s = 0; s < PREFLIGHT_SAMPLES; s++) {
    start = now();
    for (let i = 0; i < PREFLIGHT_BATCH; i++) once();
    times.push((now() - start) / PREFLIGHT_BATCH);
  }
  return { first, steady: stats(times), last };
}

/** Commits one checkpoint through the API (plan, summary request, extractive summary), as a plugin would. */
function compactIndex(api, index, session) {
  const plan = index.plan(MODEL, { mode: 'manual' });
  if (plan.action !== 'compact') return null;
  const request = api.summaryRequest(session, plan, MODEL);
  const node = api.checkpointNode(plan, api.extractiveSummary(request), request.ledger);
  index.append(node);
  index.setLeaf(node.id, plan.basis.branchRevision + 1);
  return { node, revision: plan.basis.branchRevision + 1, summarized: plan.summarizeIds.length };
}

/**
 * Every session operation at one size and variant. Returns rows of { op, median, p90 } in ms,
 * plus facts about the session and the wasm memory.
 */
export async function sessionRun({ api, baseline, syntheticSession, wasmMemory, messages, variant, quick, log = () => {} }) {
  const samples = (quick ? QUICK_SAMPLES : SAMPLES)[messages];
  const session = syntheticSession({ messages, seed: SEED, ...variant.options });
  const text = JSON.stringify(session);
  const facts = { nodes: session.nodes.length, mb: utf8.encode(text).length / 1e6 };
  const rows = [];
  const row = async (op, result) => {
    rows.push({ op, ...result });
    log(`  ${messages} ${variant.name}: ${op} ${result.median.toFixed(3)} ms`);
    await tick();
  };

  await row('JSON.parse of the session text (floor)', measure(() => JSON.parse(text), { samples }));
  await row('JSON.stringify of the session (the copy into wasm pays this)', measure(() => JSON.stringify(session), { samples }));

  const projectT = measure(() => api.project(session), { samples });
  const estimateT = measure(() => api.estimate(session, MODEL, {}), { samples });
  const planT = measure(() => api.plan(session, MODEL, { mode: 'auto' }), { samples });
  const stateless = measure(() => [api.project(session), api.estimate(session, MODEL, {}), api.plan(session, MODEL, { mode: 'auto' })], { samples });
  await row('stateless project (same objects again: the hidden index answers)', projectT);
  await row('stateless estimate (same objects again)', estimateT);
  await row('stateless plan auto (same objects again)', planT);
  await row('stateless project + estimate + plan (same objects again; cold: the pi table, a0)', stateless);
  await row('baseline JS: project + chars/4 estimate + plan', measure(() => [baseline.project(session), baseline.estimate(session, MODEL), baseline.plan(session, MODEL)], { samples }));

  const plan = api.plan(session, MODEL, { mode: 'auto' });
  facts.plan = `${plan.action} (${plan.reason}), ${plan.summarizeIds.length} to summarize, ${plan.tokensBefore} tokens`;
  // Under the threshold auto summarizes nothing; serialize what a manual compaction would then.
  const summarizing = plan.summarizeIds.length ? plan : api.plan(session, MODEL, { mode: 'manual' });
  const byId = new Map(session.nodes.map((n) => [n.id, n]));
  const summarized = summarizing.summarizeIds.map((id) => byId.get(id));
  const serialized = api.serialize(summarized);
  facts.serialized = `${summarized.length} messages (${summarizing.mode} plan) -> ${(serialized.length / 1e6).toFixed(2)} M chars`;
  await row(`serialize of the summarized part (${summarized.length} messages)`, measure(() => api.serialize(summarized), { samples }));

  await row('SessionIndex.from', measure(() => api.SessionIndex.from(session), { samples, after: (made) => made.forEach((i) => i.free()) }));

  const index = api.SessionIndex.from(session);
  const asIs = preflights(api, index, session.leafId, session.branchRevision);
  await row('SessionIndex preflight after 1 append, first call (fills the estimate cache)', { median: asIs.first, p90: asIs.first });
  await row(`SessionIndex preflight after 1 append (${asIs.last.action}, ${asIs.last.summarizeIds.length} ids)`, asIs.steady);
  index.free();

  // The steady state of a long session: compacted, the projection under the window.
  const compacted = api.SessionIndex.from(session);
  const checkpoint = compactIndex(api, compacted, session);
  if (checkpoint) {
    const after = preflights(api, compacted, checkpoint.node.id, checkpoint.revision);
    await row(`SessionIndex preflight after 1 append, compacted session (send: ${after.last.send})`, after.steady);
  }
  compacted.free();
  facts.wasmMemoryMB = wasmMemory ? wasmMemory().buffer.byteLength / 1e6 : undefined;
  return { messages, variant: variant.name, facts, rows };
}

export function sessionMarkdown(runs) {
  const sizes = runs.map((r) => r.messages);
  const floorOf = (run) => run.rows[0].median;
  const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms >= 0.1 ? ms.toFixed(2) : ms.toFixed(3));
  const head = ['operation', ...sizes.flatMap((n) => [`${n.toLocaleString('en')}: median ms`, 'p90', 'x floor'])];
  const lines = [`| ${head.join(' | ')} |`, `| --- | ${sizes.map(() => '---: | ---: | ---:').join(' | ')} |`];
  const ops = runs[0].rows.map((r) => r.op.replace(/\(\w+, \d+ ids\)|\(send: \w+\)|\(\d+ messages\)/, '').trim());
  ops.forEach((op, i) => {
    const cells = runs.flatMap((run) => {
      const r = run.rows[i];
      if (!r) return ['-', '-', '-'];
      return [fmt(r.median), fmt(r.p90), (r.median / floorOf(run)).toFixed(2)];
    });
    const notes = runs.map((run) => run.rows[i]?.op.match(/\(([^)]*)\)$/)?.[1]).filter((n) => n && !op.endsWith(`(${n})`));
    lines.push(`| ${op}${notes.length ? ` [${[...new Set(notes)].join('; ')}]` : ''} | ${cells.join(' | ')} |`);
  });
  const facts = runs.map((r) => `${r.messages.toLocaleString('en')}: ${r.facts.nodes} nodes, ${r.facts.mb.toFixed(1)} MB JSON; ` +
    `plan: ${r.facts.plan}; serialize: ${r.facts.serialized}` +
    (r.facts.wasmMemoryMB === undefined ? '' : `; wasm memory so far (high-water mark of this run): ${r.facts.wasmMemoryMB.toFixed(1)} MB`));
  return `${lines.join('\n')}\n\n${facts.map((f) => `- ${f}`).join('\n')}`;
}

/** Everything, in order; `log` gets progress lines, the result has markdown per section. */
export async function runAll({ api, countTokens, baseline, researchSession, syntheticSession, real, wasmMemory, sizes = SIZES, quick = false, log = () => {} }) {
  const sections = [];
  log('estimator throughput ...');
  const corpus = textCorpus({ researchSession, syntheticSession, real });
  sections.push({ title: 'Estimator throughput', markdown: throughputMarkdown(await throughput({ api, countTokens, baseline, corpus, quick })) });
  for (const variant of VARIANTS) {
    const runs = [];
    for (const messages of sizes) runs.push(await sessionRun({ api, baseline, syntheticSession, wasmMemory, messages, variant, quick, log }));
    sections.push({ title: `Sessions, ${variant.name} (model window ${MODEL.contextWindow.toLocaleString('en')})`, markdown: sessionMarkdown(runs), runs });
  }
  return sections;
}
