// The peer: pi's compaction (npm @earendil-works/pi-coding-agent, a bench-only dependency of
// bench/package.json), its real published functions on the same syntheticSession sessions
// converted to pi session entries, side by side with this package in one Node process.
//   node bench/speed/pi.mjs [--quick] [--sizes=1000,10000]           (after ./build.sh build)
// Every operation runs in interleaved rounds (project, pi, project, pi, ...): a loaded machine
// moves both sides, and the table prints the ratio of the medians measured in this run.
import os from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PI_PACKAGE = '@earendil-works/pi-coding-agent';
const PI_VERSION = '1.6.0';
/** Same model as lib.mjs: 200k context, 32k output. */
const MODEL = { id: 'bench-200k', contextWindow: 200_000, maxOutputTokens: 32_000 };
const SEED = 20_250_310;
const SIZES = [1_000, 10_000];
const ROUNDS = { 1_000: 15, 10_000: 5 };
const QUICK_ROUNDS = { 1_000: 5, 10_000: 3 };
/** Appends per (c1)/(c2) run: each round appends one message on both sides. */
const APPEND_ROUNDS = 30;
const QUICK_APPEND_ROUNDS = 10;

const now = () => performance.now();

/**
 * pi's modules. Its package exports only '.', whose index also loads the CLI (which needs Node 22's
 * fs.globSync), so the two modules that hold compaction are loaded by path inside the package.
 */
export async function loadPi() {
  const entry = fileURLToPath(import.meta.resolve(PI_PACKAGE));
  const root = dirname(dirname(entry));
  const load = (file) => import(pathToFileURL(join(root, file)).href);
  const [compaction, sessions] = await Promise.all([load('dist/core/compaction/compaction.js'), load('dist/core/session-manager.js')]);
  const { createRequire } = await import('node:module');
  const version = createRequire(join(root, 'package.json'))(join(root, 'package.json')).version;
  if (version !== PI_VERSION) throw new Error(`bench/speed/pi.mjs: expected ${PI_PACKAGE}@${PI_VERSION}, found ${version}`);
  return { ...compaction, buildSessionProjection: sessions.buildSessionProjection, version };
}

// ---------------------------------------------------------------------------------------------
// Sessions as pi entries

const toolOutputText = (part) => (typeof part.output === 'string' ? part.output : JSON.stringify(part.output));

function userContent(parts) {
  const content = [];
  for (const part of parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'file' && /^image\//.test(part.mediaType ?? '') && part.url?.startsWith('data:')) {
      content.push({ type: 'image', mimeType: part.mediaType, data: part.url.slice(part.url.indexOf(',') + 1) });
    } else if (part.type === 'file') content.push({ type: 'text', text: part.url ?? '' });
    else if (part.type?.startsWith('data-')) content.push({ type: 'text', text: JSON.stringify(part.data) });
  }
  return content;
}

function piUsage(usage) {
  const input = usage?.inputTokens ?? 0;
  const output = usage?.outputTokens ?? 0;
  return { input, output, cacheRead: usage?.cachedInputTokens ?? 0, cacheWrite: 0, totalTokens: usage?.totalTokens ?? input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/**
 * One assistant UIMessage becomes pi's assistant message (text, thinking, tool calls) followed by
 * one toolResult message per tool part with an output, as pi stores a turn.
 */
function assistantMessages(node, timestamp) {
  const content = [];
  const results = [];
  for (const part of node.parts) {
    if (part.type === 'text') content.push({ type: 'text', text: part.text });
    else if (part.type === 'reasoning') content.push({ type: 'thinking', thinking: part.text });
    else if (part.type?.startsWith('tool-') || part.type === 'dynamic-tool') {
      const name = part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
      content.push({ type: 'toolCall', id: part.toolCallId, name, arguments: part.input ?? {} });
      if (part.state === 'output-available') {
        results.push({ role: 'toolResult', toolCallId: part.toolCallId, toolName: name, content: [{ type: 'text', text: toolOutputText(part) }], isError: false, timestamp });
      } else if (part.state === 'output-error') {
        results.push({ role: 'toolResult', toolCallId: part.toolCallId, toolName: name, content: [{ type: 'text', text: part.errorText ?? '' }], isError: true, timestamp });
      }
    } else if (part.type?.startsWith('data-')) content.push({ type: 'text', text: JSON.stringify(part.data) });
  }
  const assistant = {
    role: 'assistant', content, api: 'bench', provider: 'bench', model: node.metadata?.model ?? MODEL.id,
    usage: piUsage(node.metadata?.usage), stopReason: results.length ? 'toolUse' : 'stop', timestamp,
  };
  return [assistant, ...results];
}

/**
 * `{ entries, leafId }`: pi's session entries for a session of this package. A node becomes one
 * entry per pi message, chained; a child hangs under the last entry of its parent node; a checkpoint
 * becomes a compaction entry whose firstKeptEntryId is the first entry of the kept message.
 */
export function toPiSession(session) {
  const first = new Map();
  const last = new Map();
  const entries = [];
  for (const node of session.nodes) {
    const timestamp = node.createdAt ?? 0;
    const iso = new Date(timestamp).toISOString();
    let parentId = node.parentId === null ? null : last.get(node.parentId) ?? null;
    const push = (entry) => {
      entries.push(entry);
      if (!first.has(node.id)) first.set(node.id, entry.id);
      last.set(node.id, entry.id);
      parentId = entry.id;
    };
    if (node.checkpoint) {
      push({ type: 'compaction', id: node.id, parentId, timestamp: iso, summary: node.checkpoint.summary, firstKeptEntryId: null, tokensBefore: node.checkpoint.tokensBefore, _firstKeptMessageId: node.checkpoint.firstKeptMessageId });
      continue;
    }
    const messages = node.role === 'assistant' ? assistantMessages(node, timestamp) : [{ role: 'user', content: userContent(node.parts), timestamp }];
    messages.forEach((message, k) => push({ type: 'message', id: k === 0 ? node.id : `${node.id}~${k}`, parentId, timestamp: iso, message }));
  }
  for (const entry of entries) {
    if (entry.type !== 'compaction') continue;
    entry.firstKeptEntryId = first.get(entry._firstKeptMessageId) ?? entry.id;
    delete entry._firstKeptMessageId;
  }
  return { entries, leafId: last.get(session.leafId) ?? null };
}

/** The appended message of round k as a node of this package and as a pi message. */
function appended(k, parentId) {
  const text = k % 2 === 0
    ? 'Read the next page and keep the page label.'
    : 'The section reports a 7.4 point gain in answer accuracy over abstract-only retrieval (p. 57). '.repeat(4);
  const role = k % 2 === 0 ? 'user' : 'assistant';
  const node = { id: `bench-m${k}`, parentId, role, parts: [{ type: 'text', text }] };
  const message = role === 'user'
    ? { role, content: [{ type: 'text', text }], timestamp: 0 }
    : { role, content: [{ type: 'text', text }], api: 'bench', provider: 'bench', model: MODEL.id, usage: piUsage(null), stopReason: 'stop', timestamp: 0 };
  return { node, message };
}

const DRAFT_TEXT = 'Compare the retrieval units of the last three papers and keep the page labels. '.repeat(4);
const DRAFT = { id: 'bench-draft', role: 'user', parts: [{ type: 'text', text: DRAFT_TEXT }] };
const PI_DRAFT = { role: 'user', content: [{ type: 'text', text: DRAFT_TEXT }], timestamp: 0 };

// ---------------------------------------------------------------------------------------------
// pi's side of each operation, as its agent session does it before a request

function piBranch(byId, leafId) {
  const path = [];
  for (let entry = leafId ? byId.get(leafId) : undefined; entry; entry = entry.parentId ? byId.get(entry.parentId) : undefined) path.push(entry);
  return path.reverse();
}

/**
 * Needed? + where to cut + what the model sees: the projection, its estimate (last usage plus
 * chars/4 after it), the threshold, and when over it the cut (prepareCompaction).
 */
function piPlan(pi, settings, entries, leafId, byId, draft) {
  const branch = piBranch(byId, leafId);
  const projection = pi.buildSessionProjection(entries, leafId, byId);
  let tokens = pi.estimateProjectedContextTokens(projection, branch).tokens;
  if (draft) tokens += pi.estimateTokens(draft);
  const compact = pi.shouldCompact(tokens, MODEL.contextWindow, settings);
  const preparation = compact ? pi.prepareCompaction(branch, settings) : undefined;
  return { tokens, compact, cutAt: preparation?.firstKeptEntryId ?? null, messages: projection.messages };
}

/** (a) stateless: pi is handed the entries and builds its id map, as a call without held state. */
function piStateless(pi, settings, { entries, leafId }) {
  const byId = new Map(entries.map((e) => [e.id, e]));
  return piPlan(pi, settings, entries, leafId, byId, null);
}

// ---------------------------------------------------------------------------------------------
// Interleaved timing

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Rounds of (ours, pi), alternating which side goes first; `prepare()` runs outside the timed region
 * and hands each side its input. ms per call, medians.
 */
function interleaved(rounds, prepare, ours, theirs) {
  const a = [];
  const b = [];
  prepare && ours(prepare().ours);
  prepare && theirs(prepare().pi);
  for (let r = 0; r < rounds; r++) {
    const input = prepare?.() ?? {};
    const sides = r % 2 === 0 ? [[ours, input.ours, a], [theirs, input.pi, b]] : [[theirs, input.pi, b], [ours, input.ours, a]];
    for (const [fn, arg, times] of sides) {
      const start = now();
      fn(arg);
      times.push(now() - start);
    }
  }
  return { ours: median(a), pi: median(b) };
}

/** A batch of calls per sample, so that fast operations outlast the timer's resolution. */
function interleavedBatch(rounds, batch, ours, theirs) {
  return interleaved(rounds, null, () => { for (let i = 0; i < batch; i++) ours(); }, () => { for (let i = 0; i < batch; i++) theirs(); });
}

// ---------------------------------------------------------------------------------------------
// The run

export async function piRun({ api, pi, syntheticSession, sizes = SIZES, quick = false, variant = { name: 'linear', options: { branches: false, checkpoints: 0 } }, log = () => {} }) {
  const capacity = api.capacity(MODEL);
  const settings = { enabled: true, reserveTokens: capacity.reservedTokens, keepRecentTokens: capacity.tailBudget };
  const results = [];
  for (const messages of sizes) {
    const rounds = (quick ? QUICK_ROUNDS : ROUNDS)[messages] ?? 5;
    const appendRounds = quick ? QUICK_APPEND_ROUNDS : APPEND_ROUNDS;
    const session = syntheticSession({ messages, seed: SEED, ...variant.options });
    const text = JSON.stringify(session);
    const piSession = toPiSession(session);
    const piText = JSON.stringify(piSession.entries);
    const rows = [];
    const row = (op, r, note = '') => {
      rows.push({ op, ...r, note });
      log(`  pi ${messages}: ${op} ours ${r.ours.toFixed(3)} ms, pi ${r.pi.toFixed(3)} ms`);
    };
    row('JSON.parse of the session text (ours: session, pi: its entries)', interleavedBatch(rounds, 1, () => JSON.parse(text), () => JSON.parse(piText)));

    const ourPlan = api.plan(session, MODEL, { mode: 'auto' });
    const theirPlan = piStateless(pi, settings, piSession);
    const decisions = `ours: ${ourPlan.action} (${ourPlan.reason}, ${ourPlan.tokensBefore} tokens); pi: ${theirPlan.compact ? 'compact' : 'none'} (${theirPlan.tokens} tokens)`;
    row('(a) stateless, same objects again: plan auto + project', interleavedBatch(rounds, 1,
      () => [api.plan(session, MODEL, { mode: 'auto' }), api.project(session)],
      () => piStateless(pi, settings, piSession)), decisions);
    row('(a0) stateless on a fresh structuredClone each call (cold)', interleaved(rounds,
      () => ({ ours: structuredClone(session), pi: structuredClone(piSession) }),
      (s) => [api.plan(s, MODEL, { mode: 'auto' }), api.project(s)],
      (s) => piStateless(pi, settings, s)));
    const ourMessages = session.nodes.filter((n) => !n.checkpoint);
    const piMessages = piSession.entries.filter((e) => e.type === 'message').map((e) => e.message);
    row('(b) estimate every message (estimateMessage / estimateTokens)', interleavedBatch(rounds, 1,
      () => { let n = 0; for (const m of ourMessages) n += api.estimateMessage(m); return n; },
      () => { let n = 0; for (const m of piMessages) n += pi.estimateTokens(m); return n; }));

    // (c1), (c2): held state. Ours: a SessionIndex; pi: its entries and id map (what its SessionManager holds).
    const held = () => {
      const index = api.SessionIndex.from(session);
      const entries = [...piSession.entries];
      const byId = new Map(entries.map((e) => [e.id, e]));
      let ourLeaf = session.leafId;
      let piLeaf = piSession.leafId;
      let k = 0;
      let revision = session.branchRevision;
      const next = () => {
        const { node, message } = appended(k++, ourLeaf);
        return { node, entry: { type: 'message', id: node.id, parentId: piLeaf, timestamp: '1970-01-01T00:00:00.000Z', message } };
      };
      const ours = (withProject) => ({ node }) => {
        index.append(node);
        index.setLeaf(node.id, ++revision);
        ourLeaf = node.id;
        const plan = index.plan(MODEL, { mode: 'preflight', draft: DRAFT });
        return withProject ? [plan, index.project()] : plan;
      };
      const theirs = ({ entry }) => {
        entries.push(entry);
        byId.set(entry.id, entry);
        piLeaf = entry.id;
        return piPlan(pi, settings, entries, piLeaf, byId, PI_DRAFT);
      };
      return { index, next, ours, theirs };
    };
    for (const [label, withProject] of [['(c1) one message appended: needed? + cut (SessionIndex preflight)', false], ['(c2) c1 + the messages to send (SessionIndex.project())', true]]) {
      const h = held();
      const r = interleaved(appendRounds, () => { const m = h.next(); return { ours: m, pi: m }; }, h.ours(withProject), h.theirs);
      h.index.free();
      row(label, r, withProject ? 'pi: its projection already holds the messages, so c2 = c1 for pi' : '');
    }
    results.push({ messages, nodes: session.nodes.length, entries: piSession.entries.length, mb: Buffer.byteLength(text) / 1e6, rows, decisions });
  }
  return results;
}

const fmt = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms >= 0.1 ? ms.toFixed(2) : ms.toFixed(3));

export function piMarkdown(results, version) {
  const head = ['operation', ...results.flatMap((r) => [`${r.messages.toLocaleString('en')}: ours ms`, 'pi ms', 'ours / pi'])];
  const lines = [`| ${head.join(' | ')} |`, `| --- | ${results.map(() => '---: | ---: | ---:').join(' | ')} |`];
  results[0].rows.forEach((row, i) => {
    const cells = results.flatMap((r) => [fmt(r.rows[i].ours), fmt(r.rows[i].pi), `${(r.rows[i].ours / r.rows[i].pi).toFixed(2)}x`]);
    lines.push(`| ${row.op} | ${cells.join(' | ')} |`);
  });
  const floorRatios = results.map((r) => `${r.messages.toLocaleString('en')}: (a0) ${(r.rows[2].ours / r.rows[0].ours).toFixed(2)}x our JSON.parse floor (target <= 2.5x)`);
  const notes = [
    ...results.map((r) => `${r.messages.toLocaleString('en')} messages: ${r.nodes} nodes = ${r.entries} pi entries, ${r.mb.toFixed(1)} MB JSON; decisions: ${r.decisions}`),
    ...floorRatios,
    'pi: its projection already holds the messages, so its (c2) is its (c1).',
    `pi ${PI_PACKAGE}@${version}: buildSessionProjection, estimateProjectedContextTokens (last usage + chars/4), shouldCompact, prepareCompaction when over the threshold, estimateTokens.`,
  ];
  return `${lines.join('\n')}\n\n${notes.map((n) => `- ${n}`).join('\n')}`;
}

// Standalone: `node bench/speed/pi.mjs` prints the table (node.mjs also includes it).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const sizes = args.find((a) => a.startsWith('--sizes='))?.split('=')[1].split(',').map(Number);
  const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
  const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
  const { syntheticSession } = await import('../../tests/fixtures/session-generator.mjs');
  await api.init();
  const pi = await loadPi();
  const [load] = os.loadavg();
  const results = await piRun({ api, pi, syntheticSession, sizes, quick, log: (l) => process.stderr.write(`${l}\n`) });
  console.log(`## Against pi ${pi.version}, Node ${process.version}\n`);
  console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model ?? 'unknown CPU'} x ${os.cpus().length}, load ${load.toFixed(2)}${quick ? ', --quick' : ''}. Medians of interleaved rounds, ms per call.\n`);
  console.log(piMarkdown(results, pi.version));
}
