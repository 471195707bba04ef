// What survives compaction (issue 22): seeded long research sessions (sessions.mjs) with planted facts,
// driven turn by turn through CompactionController + MemoryStore + extractiveSummary on 8k, 32k and 128k
// models. Every projection right after a compaction is checked for every fact planted before it, beside a
// truncation baseline (the newest messages that fit the safe input limit). For a model summarizer, each
// summary request is checked for the facts it must carry (no model keeps what its request lacks). Prints
// markdown tables; nothing here asserts.
//
//   node bench/retention/retention.mjs [--quick]
// The package is read from BIBGENIE_PKG_DIR (./build.sh bench sets it) or pkg/.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeSession, KINDS } from './sessions.mjs';
import { driveTurns } from './drive.mjs';

const quick = process.argv.includes('--quick');
const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
await api.init();
const log = (line) => process.stderr.write(`${line}\n`);

const ALL_MODELS = [
  { name: '8k', model: { id: 'bench-8k', contextWindow: 8_192, maxOutputTokens: 2_048 } },
  { name: '32k', model: { id: 'bench-32k', contextWindow: 32_768, maxOutputTokens: 4_096 } },
  { name: '128k', model: { id: 'bench-128k', contextWindow: 128_000, maxOutputTokens: 16_384 } },
];
const MODELS = ALL_MODELS.filter((m) => !process.env.RETENTION_MODELS || process.env.RETENTION_MODELS.split(',').includes(m.name));
/** Sessions per model: seed and turns (60-300). */
const SESSIONS = process.env.RETENTION_SESSIONS ? JSON.parse(process.env.RETENTION_SESSIONS) : quick ? [[11, 80], [12, 160]] : [[11, 80], [12, 160], [13, 300]];
/** On 8k a 300-turn session is 100+ compactions and most of the run time: 8k runs 60-200 turns. */
const sessionsFor = (name) => (name === '8k' && !process.env.RETENTION_SESSIONS ? [[11, 80], [12, 160], [13, 200]].slice(0, SESSIONS.length) : SESSIONS);
const AFTER = [1, 5, 20];

/** (kind, model) -> { at: Map(n -> [kept, total]), all: [kept, total], worst, truncation: same } */
const tally = new Map();
const cell = (kind, model) => {
  const key = `${kind}|${model}`;
  if (!tally.has(key)) tally.set(key, { at: new Map(), all: [0, 0], worst: 1, trunc: new Map(), truncAll: [0, 0], req: [0, 0], firstFold: [0, 0] });
  return tally.get(key);
};
const bump = (pair, ok) => {
  pair[0] += ok ? 1 : 0;
  pair[1] += 1;
};
/** model -> per summary { mark -> estimated tokens of its lines } */
const budgetShares = new Map();
const checks = { stale: [0, 0], hypothesisMislabelled: [0, 0], summaryOverBudget: [0, 0], projectionOverLimit: [0, 0], ledgerShown: [], compactions: [] };

const textOf = (message) => message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');

async function runSession(seed, turns, { name, model }) {
  const { script, facts } = makeSession(seed, turns);
  const limits = api.capacity(model);
  const overhead = api.estimateMessage({ id: 'x', role: 'user', parts: [{ type: 'text', text: 'a' }] }, model) - 1;
  const store = new api.MemoryStore();
  const { sessionId } = await store.createSession();
  const folded = new Set(); // message ids summarized so far
  let lastRequest = null;
  const summarize = async (request) => {
    lastRequest = request;
    const summary = api.extractiveSummary(request);
    const tokensOf = (text) => api.estimateMessage({ id: 's', role: 'user', parts: [{ type: 'text', text }] }, model) - overhead;
    const tokens = tokensOf(summary);
    bump(checks.summaryOverBudget, tokens > request.maxOutputTokens);
    // Where the budget goes, by line mark (headings and notes as "frame").
    const shares = budgetShares.get(name) ?? [];
    const share = {};
    for (const line of summary.split('\n')) {
      const mark = /^- \(([^)]*)\)/.exec(line)?.[1] ?? (/^- (item|attachment|annotation|collection|tag|location) /.test(line) ? 'ledger lines' : 'frame');
      share[mark] = (share[mark] ?? 0) + tokensOf(line);
    }
    share.leftOut = Number(/Left out (\d+) lines/.exec(summary)?.[1] ?? 0);
    shares.push(share);
    budgetShares.set(name, shares);
    return summary;
  };
  const controller = new api.CompactionController({ store, sessionId, model, summarize });
  const history = []; // { id, json, tokens }
  let compactions = 0;
  let planted = [];

  const afterCompaction = async () => {
    compactions += 1;
    const request = lastRequest;
    // The model summarizer's view: what its request carries.
    const newlyFolded = planted.filter((f) => f.messageId && !folded.has(f.messageId) && request.history.includes(`| id ${f.messageId} ---`));
    for (const f of newlyFolded) bump(cell(f.kind, name).firstFold, request.history.includes(f.probe));
    for (const f of planted) if (f.messageId && request.history.includes(`| id ${f.messageId} ---`)) folded.add(f.messageId);
    const session = await store.load(sessionId);
    const estimate = api.estimate(session, model);
    bump(checks.projectionOverLimit, estimate.tokens > limits.safeInputLimit);
    const projection = api.project(session);
    const summaryText = textOf(projection.messages[0]);
    const whole = projection.messages.map((m) => JSON.stringify(m)).join('\n');
    const ledgerLines = summaryText.split('\n').filter((l) => /^- (item|attachment|annotation|collection|tag|location) /.test(l)).length;
    checks.ledgerShown.push(ledgerLines);
    // Truncation: the newest messages that fit the safe input limit.
    let used = 0;
    let from = history.length;
    while (from > 0 && used + history[from - 1].tokens <= limits.safeInputLimit) used += history[--from].tokens;
    const truncated = history.slice(from).map((h) => h.json).join('\n');
    for (const f of planted) {
      const superseded = f.stale && planted.some((g) => g.supersedes === f.stale && g.turn > f.turn);
      if (superseded) {
        const newer = planted.filter((g) => g.supersedes === f.stale && g.turn > f.turn);
        // The summary's own state (issue 34: the user's words beside it may show the old style before the switch, in the order said).
        if (newer.some((g) => folded.has(g.messageId))) bump(checks.stale, summaryText.split('</summary>')[0].includes(f.probe));
        continue;
      }
      if (f.messageId && folded.has(f.messageId)) bump(cell(f.kind, name).req, request.prompt.includes(f.probe));
      const kept = whole.includes(f.probe);
      if (!kept && process.env.RETENTION_DEBUG) log(`${name} seed ${seed} compaction ${compactions}: lost ${f.kind} ${f.probe} (turn ${f.turn})`);
      const c = cell(f.kind, name);
      bump(c.all, kept);
      bump(c.truncAll, truncated.includes(f.probe));
      if (AFTER.includes(compactions)) {
        for (const [map, ok] of [[c.at, kept], [c.trunc, truncated.includes(f.probe)]]) {
          const pair = map.get(compactions) ?? [0, 0];
          bump(pair, ok);
          map.set(compactions, pair);
        }
      }
      if (f.kind === 'hypothesis') {
        for (const line of summaryText.split('\n').filter((l) => l.includes(f.probe))) {
          bump(checks.hypothesisMislabelled, !line.includes('hypothesis') || line.startsWith('- (user') || line.startsWith('- (tool'));
        }
      }
    }
  };

  const started = performance.now();
  await driveTurns({
    controller, store, sessionId, script, label: `${name} seed ${seed}`, log, afterCompaction,
    // A preflight compaction comes before this turn is stored.
    beforeTurn: (turn) => { planted = facts.filter((f) => f.turn < turn); },
    afterStored: (turn, user, assistant) => {
      planted = facts.filter((f) => f.turn <= turn);
      for (const m of [user, assistant]) history.push({ json: JSON.stringify(m), tokens: api.estimateMessage(m, model) });
    },
  });
  checks.compactions.push(`${name}/${turns}: ${compactions}`);
  log(`${name} seed ${seed}: ${turns} turns, ${compactions} compactions, ${Math.round(performance.now() - started)} ms`);
}

const started = performance.now();
for (const m of MODELS) for (const [seed, turns] of sessionsFor(m.name)) await runSession(seed, turns, m);

const pct = (pair) => (pair && pair[1] ? `${Math.round((100 * pair[0]) / pair[1])}%` : '–');
const bare = (pair) => (pair && pair[1] ? `${Math.round((100 * pair[0]) / pair[1])}` : '–');
const row = (kind, pick) => `| ${KINDS[kind].label} | ${MODELS.map((m) => pick(cell(kind, m.name))).join(' | ')} |`;
const header = (title) => [`| ${title} | ${MODELS.map((m) => m.name).join(' | ')} |`, `|---|${MODELS.map(() => '---').join('|')}|`];
const out = [];
out.push('## Retention: what survives compaction (bench/retention)', '');
out.push(`Sessions (model/turns: compactions): ${checks.compactions.join(', ')}; seeds 11, 12, 13.`, '');
out.push('Share of facts present in the projection right after the 1st · 5th · 20th compaction (– none at that point), then over every projection after every compaction:', '');
out.push(...header('fact'));
for (const kind of Object.keys(KINDS)) {
  out.push(row(kind, (c) => `${AFTER.map((n) => bare(c.at.get(n))).join(' · ')}% · all ${pct(c.all)}`));
}
out.push('', 'Truncation baseline (the newest messages that fit the safe input limit), same points:', '');
out.push(...header('fact'));
for (const kind of Object.keys(KINDS)) {
  out.push(row(kind, (c) => `${AFTER.map((n) => bare(c.trunc.get(n))).join(' · ')}% · all ${pct(c.truncAll)}`));
}
out.push('', 'A model summarizer: facts in the history of the summary request that first folds them (serialization cuts), and in every later request (carry-over; the previous summary here is the extractive one):', '');
out.push(...header('fact'));
for (const kind of Object.keys(KINDS)) out.push(row(kind, (c) => `${pct(c.firstFold)} · later ${pct(c.req)}`));
const sorted = [...checks.ledgerShown].sort((a, b) => a - b);
out.push('');
out.push(`- Stale citation style or deadline shown in the summary after the newer one was summarized: ${checks.stale[0]} of ${checks.stale[1]} checks.`);
out.push(`- Hypothesis lines not marked as hypotheses (or marked user/tool): ${checks.hypothesisMislabelled[0]} of ${checks.hypothesisMislabelled[1]}.`);
out.push(`- Summaries over their budget: ${checks.summaryOverBudget[0]} of ${checks.summaryOverBudget[1]}; projections over the safe input limit: ${checks.projectionOverLimit[0]} of ${checks.projectionOverLimit[1]}.`);
out.push(`- Ledger lines shown beside the summary: median ${sorted[Math.floor(sorted.length / 2)] ?? 0}, min ${sorted[0] ?? 0}, max ${sorted.at(-1) ?? 0}.`);
out.push('', 'Where the summary budget goes (median estimated tokens per summary, by line mark; "frame": headings, notes and unmarked lines; leftOut: lines left out per summary):', '');
const marks = [...new Set([...budgetShares.values()].flat().flatMap((x) => Object.keys(x)))].filter((m) => m !== 'leftOut').sort();
out.push(`| mark | ${MODELS.map((m) => m.name).join(' | ')} |`, `|---|${MODELS.map(() => '---').join('|')}|`);
const med = (list) => (list.length ? [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)] : 0);
for (const mark of [...marks, 'leftOut']) {
  out.push(`| ${mark} | ${MODELS.map((m) => med((budgetShares.get(m.name) ?? []).map((x) => x[mark] ?? 0))).join(' | ')} |`);
}
out.push('');
out.push(`- Run time: ${Math.round((performance.now() - started) / 1000)} s.`);
process.stdout.write(`${out.join('\n')}\n\n`);
