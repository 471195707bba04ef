// Retention by construction (issue 34): multilingual seeded sessions (multilingual.mjs) driven turn by
// turn through CompactionController + MemoryStore on 8k, 32k, 128k and 200k models, with the
// embedded extractiveSummary and with a model summarizer that writes eight empty sections (what the
// registers carry by code alone). After every compaction the projection is checked for every current
// fact folded so far (retention), for superseded, completed, rejected or retracted facts shown as
// current inside the summary (stale), and the summary's lines are counted (precision: the share that
// carry planted state). Prints markdown tables; nothing here asserts.
//
//   node bench/retention/registers.mjs [--quick]
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeMultilingualSession, LANGUAGES } from './multilingual.mjs';
import { driveTurns } from './drive.mjs';

const quick = process.argv.includes('--quick');
const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
await api.init();
const log = (line) => process.stderr.write(`${line}\n`);

const MODELS = [
  { name: '8k', model: { id: 'bench-8k', contextWindow: 8_192, maxOutputTokens: 2_048 } },
  { name: '32k', model: { id: 'bench-32k', contextWindow: 32_768, maxOutputTokens: 4_096 } },
  { name: '128k', model: { id: 'bench-128k', contextWindow: 128_000, maxOutputTokens: 16_384 } },
  { name: '200k', model: { id: 'bench-200k', contextWindow: 200_000, maxOutputTokens: 32_000 } },
].filter((m) => !process.env.RETENTION_MODELS || process.env.RETENTION_MODELS.split(',').includes(m.name));
/** Turns per session: every window reaches 20+ compactions (its page reads are sized to it). */
const turnsFor = (window) => (quick ? 90 : window >= 100_000 ? 220 : 150);
const SUMMARIZERS = {
  extractive: (request) => api.extractiveSummary(request),
  'model writing nothing': () => ['Research Goal', 'User Requirements and Constraints', 'Research Progress', 'Findings and Evidence',
    'Key Zotero Resources', 'Decisions', 'Next Steps', 'Critical Context'].map((s) => `## ${s}\nNone.`).join('\n\n'),
};
const KINDS = {
  goal: 'research goal', constraint: 'newest constraint (rule reversed twice)', deadline: 'newest deadline (moved twice)',
  style: 'current citation style (switched twice)', designation: 'current designated keys', retraction: 'key retraction',
  failed: 'failed approaches', finding: 'findings with key and page', decision: 'decisions', task: 'open tasks',
  'task-closed': 'tasks completed', hypothesis: 'hypotheses (open)', 'hypothesis-closed': 'hypotheses confirmed / rejected',
};

const tally = new Map(); // `${summarizer}|${model}|${kind}` -> [kept, total, worst]
const bump = (key, ok) => {
  const t = tally.get(key) ?? [0, 0];
  t[0] += ok ? 1 : 0;
  t[1] += 1;
  tally.set(key, t);
};
const worst = new Map(); // `${summarizer}|${model}|${kind}` -> lowest share in one projection
const stale = new Map(); // `${summarizer}|${model}` -> [shown, checks]
const precision = new Map(); // `${summarizer}|${model}` -> [state lines, lines]
const limits = new Map(); // `${summarizer}|${model}` -> [over, projections]
const compactions = new Map(); // `${summarizer}|${model}` -> list

const textOf = (message) => message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');

async function runSession(language, seed, { name, model }, summarizerName) {
  const { script, facts } = makeMultilingualSession(seed, language, turnsFor(model.contextWindow), model.contextWindow);
  const capacity = api.capacity(model);
  const store = new api.MemoryStore();
  const { sessionId } = await store.createSession();
  const controller = new api.CompactionController({ store, sessionId, model, summarize: SUMMARIZERS[summarizerName] });
  const group = `${summarizerName}|${name}`;
  let count = 0;
  let turnNow = 0;

  const afterCompaction = async () => {
    count += 1;
    const session = await store.load(sessionId);
    const estimate = api.estimate(session, model);
    const l = limits.get(group) ?? [0, 0];
    l[0] += estimate.tokens > capacity.safeInputLimit ? 1 : 0;
    l[1] += 1;
    limits.set(group, l);
    const projection = api.project(session);
    const message = textOf(projection.messages[0]);
    const summary = message.split('</summary>')[0];
    const whole = projection.messages.map((m) => JSON.stringify(m)).join('\n') + message;
    const keptTurn = projection.keptFromId ? Number(projection.keptFromId.slice(1)) : turnNow + 1;
    const folded = (f) => f.turn < keptTurn;
    const byProbe = new Map(facts.map((f) => [f.probe, f]));
    const current = facts.filter((f) => f.turn < turnNow + 1 && !(f.staleBy && folded(byProbe.get(f.staleBy))));
    const perKind = new Map();
    for (const f of current.filter(folded)) {
      let ok = whole.includes(f.probe);
      if (f.kind === 'finding') ok = message.split('\n').some((line) => line.includes(f.probe) && line.includes(f.key) && line.includes(f.locator));
      bump(`${group}|${f.kind}`, ok);
      const k = perKind.get(f.kind) ?? [0, 0];
      k[0] += ok ? 1 : 0;
      k[1] += 1;
      perKind.set(f.kind, k);
    }
    for (const [kind, [kept, total]] of perKind) {
      const key = `${group}|${kind}`;
      worst.set(key, Math.min(worst.get(key) ?? 1, kept / total));
    }
    for (const f of facts.filter((x) => x.staleBy && folded(byProbe.get(x.staleBy)))) {
      const s = stale.get(group) ?? [0, 0];
      s[0] += summary.includes(f.probe) ? 1 : 0;
      s[1] += 1;
      stale.set(group, s);
    }
    if (process.env.RETENTION_DEBUG) {
      for (const f of facts.filter((x) => x.staleBy && folded(byProbe.get(x.staleBy)) && summary.includes(x.probe))) log(`${group} ${language} #${count}: stale ${f.kind} ${f.probe}: ${summary.split('\n').filter((l) => l.includes(f.probe)).join(' / ').slice(0, 300)}`);
      if (count === Number(process.env.RETENTION_DEBUG)) log(`${group} ${language} #${count}:\n${summary}`);
    }
    // State: a line with a current fact's tag, or the ledger line of a currently designated key.
    const probes = [...current.map((f) => f.probe), ...current.filter((f) => f.kind === 'designation').map((f) => `item ${f.key}:`)];
    const lines = summary.split('\n').filter((line) => line.startsWith('- '));
    const p = precision.get(group) ?? [0, 0];
    p[0] += lines.filter((line) => probes.some((probe) => line.includes(probe))).length;
    if (process.env.RETENTION_LINES) for (const line of lines.filter((l) => !probes.some((probe) => l.includes(probe)))) log(`other: ${line.slice(0, 110)}`);
    p[1] += lines.length;
    precision.set(group, p);
  };

  await driveTurns({
    controller, store, sessionId, script, label: `${group} ${language}`, log, afterCompaction,
    beforeTurn: (turn) => { turnNow = turn - 1; },
    afterStored: (turn) => { turnNow = turn; },
  });
  compactions.set(group, [...(compactions.get(group) ?? []), `${language} ${count}`]);
}

const started = performance.now();
for (const summarizerName of Object.keys(SUMMARIZERS)) {
  for (const m of MODELS) {
    for (const [i, language] of LANGUAGES.entries()) await runSession(language, 31 + i, m, summarizerName);
    log(`${summarizerName} ${m.name}: ${compactions.get(`${summarizerName}|${m.name}`).join(', ')} compactions`);
  }
}

const pct = (pair) => (pair && pair[1] ? `${Math.round((100 * pair[0]) / pair[1])}%` : '–');
const out = ['## Retention by construction: the registers and the summary (bench/retention/registers.mjs)', ''];
for (const summarizerName of Object.keys(SUMMARIZERS)) {
  out.push(`### ${summarizerName}`, '');
  out.push(`Sessions of ${MODELS.map((m) => `${turnsFor(m.model.contextWindow)} (${m.name})`).join(', ')} turns in ${LANGUAGES.join(', ')}; compactions: ${MODELS.map((m) => `${m.name} ${compactions.get(`${summarizerName}|${m.name}`)?.join(' · ')}`).join('; ')}.`, '');
  out.push('Share of current facts folded so far that the projection shows, over every projection after every compaction (worst single projection in brackets):', '');
  out.push(`| fact | ${MODELS.map((m) => m.name).join(' | ')} |`, `|---|${MODELS.map(() => '---').join('|')}|`);
  for (const [kind, label] of Object.entries(KINDS)) {
    out.push(`| ${label} | ${MODELS.map((m) => {
      const key = `${summarizerName}|${m.name}|${kind}`;
      return `${pct(tally.get(key))} (${worst.has(key) ? Math.round(100 * worst.get(key)) : '–'}%)`;
    }).join(' | ')} |`);
  }
  out.push('');
  out.push(`| check | ${MODELS.map((m) => m.name).join(' | ')} |`, `|---|${MODELS.map(() => '---').join('|')}|`);
  const at = (map, m) => map.get(`${summarizerName}|${m.name}`) ?? [0, 0];
  out.push(`| precision: summary lines that carry planted state | ${MODELS.map((m) => `${pct(at(precision, m))} (${at(precision, m)[0]} of ${at(precision, m)[1]})`).join(' | ')} |`);
  out.push(`| stale: superseded, completed, rejected or retracted facts shown in the summary | ${MODELS.map((m) => `${at(stale, m)[0]} of ${at(stale, m)[1]}`).join(' | ')} |`);
  out.push(`| projections over the safe input limit | ${MODELS.map((m) => `${at(limits, m)[0]} of ${at(limits, m)[1]}`).join(' | ')} |`);
  out.push('');
}
out.push(`- Run time: ${Math.round((performance.now() - started) / 1000)} s.`);
process.stdout.write(`${out.join('\n')}\n\n`);
