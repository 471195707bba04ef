// Issue 40: retention on sessions the rules were not written against. Drives the development corpus
// (untuned-sessions.mjs), the held-out one (untuned-heldout.mjs, `--heldout`) or a third held-out one
// (untuned-third.mjs, `--third`: another topic, languages and tool shapes) turn by turn through
// CompactionController + MemoryStore with the embedded extractiveSummary on 8k, 32k, 128k and 200k,
// and after every compaction reads everything the model is sent: the projection's summary message
// (summary, the user's words, the cited pages, the ledger part) and the tail. Per kind: the share of
// the facts required at that moment (said before the kept tail, not superseded by a fact also said
// before it) that the projection shows (a finding only on one line with its key and page); stale:
// superseded, completed, rejected or retracted facts shown inside the summary (also counted by kind,
// so a corpus whose sentences stay unread can say where they are); projections over the
// safe input limit; projections whose required facts' own sentences need more than the room their
// checkpoint stored (what no choice of lines can meet). Prints markdown; nothing asserts.
//
// `--fourth`: a fourth held-out corpus (untuned-fourth.mjs: its own topic, languages and tool shapes).
// `--fifth`: a fifth held-out corpus (untuned-fifth.mjs: likewise, written without reading the rules).
// `--sixth`: a sixth held-out corpus (untuned-sixth.mjs: legal scholarship, likewise written without reading the rules).
//
//   node bench/retention/untuned.mjs [--heldout | --third | --fourth | --fifth | --sixth] [--quick]     (BIBGENIE_PKG_DIR: the built package)
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeUntunedSession, LANGUAGES as DEV_LANGUAGES } from './untuned-sessions.mjs';
import { driveTurns } from './drive.mjs';

// The corpus a flag picks (the first of these the arguments name), else the development one.
const CORPORA = [
  { flag: '--sixth', name: 'sixth', file: './untuned-sixth.mjs', make: 'makeSixthSession' },
  { flag: '--fifth', name: 'fifth', file: './untuned-fifth.mjs', make: 'makeFifthSession' },
  { flag: '--fourth', name: 'fourth', file: './untuned-fourth.mjs', make: 'makeFourthSession' },
  { flag: '--third', name: 'third', file: './untuned-third.mjs', make: 'makeThirdSession' },
  { flag: '--heldout', name: 'held-out', file: './untuned-heldout.mjs', make: 'makeHeldoutSession' },
];
const corpus = CORPORA.find((c) => process.argv.includes(c.flag));
const corpusModule = corpus ? await import(corpus.file) : null;
const quick = process.argv.includes('--quick');
const make = corpusModule ? corpusModule[corpus.make] : makeUntunedSession;
const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
await api.init();
const log = (line) => process.stderr.write(`${line}\n`);

const MODELS = [
  { name: '8k', model: { id: 'u-8k', contextWindow: 8_192, maxOutputTokens: 2_048 } },
  { name: '32k', model: { id: 'u-32k', contextWindow: 32_768, maxOutputTokens: 4_096 } },
  { name: '128k', model: { id: 'u-128k', contextWindow: 128_000, maxOutputTokens: 16_384 } },
  { name: '200k', model: { id: 'u-200k', contextWindow: 200_000, maxOutputTokens: 32_000 } },
].filter((m) => !process.env.RETENTION_MODELS || process.env.RETENTION_MODELS.split(',').includes(m.name));
const LANGUAGES = corpusModule ? corpusModule.LANGUAGES : DEV_LANGUAGES;
const languages = process.env.RETENTION_LANGUAGES ? process.env.RETENTION_LANGUAGES.split(',') : LANGUAGES;
const TURNS = quick ? 120 : Number(process.env.RETENTION_TURNS ?? 300);
const KINDS = {
  goal: 'research goal', constraint: 'newest constraints', deadline: 'newest deadline', style: 'current citation style',
  designation: 'designated keys', retraction: 'key retraction', failed: 'failed approaches', finding: 'findings with key and page',
  decision: 'decisions', task: 'open tasks', 'task-done': 'tasks done', hypothesis: 'hypotheses (open)', 'hypothesis-closed': 'hypotheses confirmed/rejected',
};

const tally = new Map();
const worst = new Map();
const stale = new Map();
const staleKinds = new Map(); // `${model}|${kind}` -> stale lines of that kind: where they are, without reading them
const limits = new Map();
const overRoom = new Map(); // projections whose required facts' sentences alone need more than the checkpoint's room
const rooms = new Map(); // model -> [[the checkpoint's room, tokens the required facts' sentences need], per projection]
const counts = new Map();
const misses = new Map(); // `${model}|${kind}` -> Map(sample text -> n)
const bump = (map, key, ok) => {
  const t = map.get(key) ?? [0, 0];
  t[0] += ok ? 1 : 0;
  t[1] += 1;
  map.set(key, t);
};
const textOf = (message) => message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');

// What a checkpoint can hold besides the kept tail, as it stored it: its summary budget and the
// budgets of its two registers (the user's words and the cited pages).
function checkpointRoom(checkpoint, capacity) {
  return (checkpoint.summaryBudget ?? capacity.summaryMaxOutputTokens) + (checkpoint.userWordsBudget ?? 0) + (checkpoint.citedPagesBudget ?? 0);
}

// The sentence of a turn that states a fact, without its probe, at most as long as a summary line (300
// characters): the least text that has to be shown. Another fact's probe before it ends the sentence
// before (a message that states two facts).
function factSentence(turn, probe, probes) {
  const strings = [];
  const walk = (v) => (typeof v === 'string' ? strings.push(v) : v && typeof v === 'object' && Object.values(v).forEach(walk));
  walk(turn);
  const text = strings.find((t) => t.includes(probe));
  if (!text) return '';
  const at = text.indexOf(probe);
  const ends = [...text.slice(0, at).matchAll(/[.!?。！？]\s|\n/g)];
  let from = ends.length ? ends[ends.length - 1].index + ends[ends.length - 1][0].length : 0;
  for (const other of probes) {
    const before = text.lastIndexOf(other, at - 1);
    if (other !== probe && before >= 0 && before < at) from = Math.max(from, before + other.length);
  }
  const next = text.slice(at + probe.length).search(/[.!?。！？]\s|\n/);
  return text.slice(from, next < 0 ? text.length : at + probe.length + next + 1).replace(probe, '').trim().slice(-300);
}

async function runSession(language, seed, { name, model }) {
  const { script, facts } = make(seed, language, TURNS, model.contextWindow);
  const capacity = api.capacity(model);
  const store = new api.MemoryStore();
  const { sessionId } = await store.createSession();
  const controller = new api.CompactionController({ store, sessionId, model, summarize: (request) => api.extractiveSummary(request) });
  let count = 0;
  let turnNow = 0;
  const byProbe = new Map(facts.map((f) => [f.probe, f]));

  const afterCompaction = async () => {
    count += 1;
    const session = await store.load(sessionId);
    bump(limits, name, api.estimate(session, model).tokens > capacity.safeInputLimit);
    const projection = api.project(session);
    const message = textOf(projection.messages[0]);
    const summary = message.split('</summary>')[0];
    const tail = projection.messages.slice(1).map((m) => JSON.stringify(m)).join('\n');
    const keptTurn = projection.keptFromId ? Number(projection.keptFromId.slice(1)) : turnNow + 1;
    const folded = (f) => f && f.turn < keptTurn;
    const required = facts.filter((f) => folded(f) && !folded(byProbe.get(f.staleBy)));
    const perKind = new Map();
    for (const f of required) {
      let ok = message.includes(f.probe) || tail.includes(f.probe);
      if (f.kind === 'finding') ok = message.split('\n').some((line) => line.includes(f.probe) && line.includes(f.key) && line.includes(f.page));
      bump(tally, `${name}|${f.kind}`, ok);
      bump(perKind, f.kind, ok);
      if (!ok) {
        const m = misses.get(`${name}|${f.kind}`) ?? new Map();
        const label = `${language}:${f.probe}`;
        m.set(label, (m.get(label) ?? 0) + 1);
        misses.set(`${name}|${f.kind}`, m);
      }
    }
    const needed = api.estimateMessage({ id: 'need', role: 'user', parts: [{ type: 'text', text: required.map((f) => factSentence(script[f.turn], f.probe, byProbe.keys())).join('\n') }] }, model);
    const room = checkpointRoom(session.nodes.findLast((n) => n.checkpoint).checkpoint, capacity);
    bump(overRoom, name, needed > room);
    rooms.set(name, [...(rooms.get(name) ?? []), [room, needed]]);
    for (const [kind, [kept, total]] of perKind) worst.set(`${name}|${kind}`, Math.min(worst.get(`${name}|${kind}`) ?? 1, kept / total));
    for (const f of facts.filter((x) => folded(x) && folded(byProbe.get(x.staleBy)))) {
      const shown = summary.includes(f.probe);
      bump(stale, name, shown);
      if (shown) staleKinds.set(`${name}|${f.kind}`, (staleKinds.get(`${name}|${f.kind}`) ?? 0) + 1);
      if (shown && process.env.RETENTION_DEBUG) log(`stale ${name} ${language} #${count} ${f.kind} ${f.probe}: ${summary.split('\n').filter((l) => l.includes(f.probe)).join(' / ').slice(0, 240)}`);
    }
    if (process.env.RETENTION_DUMP && count === Number(process.env.RETENTION_DUMP)) log(`--- ${name} ${language} #${count}\n${message}`);
  };

  await driveTurns({
    controller, store, sessionId, script, label: `${name} ${language}`, log, afterCompaction,
    beforeTurn: (turn) => { turnNow = turn - 1; },
    afterStored: (turn) => { turnNow = turn; },
  });
  counts.set(name, [...(counts.get(name) ?? []), `${language} ${count}`]);
}

const started = performance.now();
for (const m of MODELS) {
  for (const [i, language] of languages.entries()) await runSession(language, 401 + i, m);
  log(`${m.name}: ${counts.get(m.name).join(', ')} compactions (${Math.round((performance.now() - started) / 1000)} s)`);
}
const pct = (pair) => (pair && pair[1] ? `${Math.round((100 * pair[0]) / pair[1])}%` : '–');
const out = [`## Untuned sessions, ${corpus ? corpus.name : 'development'} corpus (bench/retention/untuned.mjs${corpus ? ` ${corpus.flag}` : ''})`, ''];
out.push(`${TURNS} turns per session in ${languages.join(', ')}; compactions: ${MODELS.map((m) => `${m.name} ${counts.get(m.name).join(' · ')}`).join('; ')}.`, '');
out.push(`| kind (required at that moment) | ${MODELS.map((m) => m.name).join(' | ')} |`, `|---|${MODELS.map(() => '---:').join('|')}|`);
for (const [kind, label] of Object.entries(KINDS)) {
  out.push(`| ${label} | ${MODELS.map((m) => `${pct(tally.get(`${m.name}|${kind}`))} (${worst.has(`${m.name}|${kind}`) ? Math.round(100 * worst.get(`${m.name}|${kind}`)) : '–'}%)`).join(' | ')} |`);
}
out.push(`| stale shown as current (in the summary) | ${MODELS.map((m) => `${(stale.get(m.name) ?? [0, 0])[0]} of ${(stale.get(m.name) ?? [0, 0])[1]}`).join(' | ')} |`);
out.push(`| projections over the safe input limit | ${MODELS.map((m) => `${(limits.get(m.name) ?? [0, 0])[0]} of ${(limits.get(m.name) ?? [0, 0])[1]}`).join(' | ')} |`);
out.push(`| required facts' sentences over the checkpoint's room | ${MODELS.map((m) => `${(overRoom.get(m.name) ?? [0, 0])[0]} of ${(overRoom.get(m.name) ?? [0, 0])[1]}`).join(' | ')} |`);
out.push('', '(worst single projection in brackets)', '');
const medianOf = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];
out.push(`The checkpoint's room (its summary budget and both registers' budgets), median, against the estimated tokens of the required facts' sentences alone (no probe, mark or heading), median and largest: ${MODELS.filter((m) => rooms.has(m.name)).map((m) => `${m.name} ${medianOf(rooms.get(m.name).map(([r]) => r))}: ${medianOf(rooms.get(m.name).map(([, n]) => n))}, ${Math.max(...rooms.get(m.name).map(([, n]) => n))}`).join('; ')}.`, '');
const staleLine = (m) => Object.keys(KINDS).filter((k) => staleKinds.has(`${m.name}|${k}`)).map((k) => `${k} ${staleKinds.get(`${m.name}|${k}`)}`).join(', ');
out.push(`Stale lines by kind: ${MODELS.map((m) => `${m.name}: ${staleLine(m) || 'none'}`).join('; ')}.`, '', 'Misses (fact: projections missing it):');
for (const m of MODELS) {
  for (const kind of Object.keys(KINDS)) {
    const miss = misses.get(`${m.name}|${kind}`);
    if (miss) out.push(`- ${m.name} ${kind}: ${[...miss].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([l, n]) => `${l} ×${n}`).join(', ')}`);
  }
}
out.push('', `- Run time: ${Math.round((performance.now() - started) / 1000)} s.`);
process.stdout.write(`${out.join('\n')}\n\n`);
