// Seeded long Zotero research sessions with planted facts (issue 22). Each turn is a user message and
// an assistant message with tool parts in the shapes a research assistant's tools return: Web API
// items ({ key, version, library, links, meta, data }), PDF pages of 2.4-4.2k characters, annotations,
// approvals, failing external tools; English, Chinese and Japanese papers and user turns. Facts of each
// kind are planted early, mid and late, in several phrasings (not all carry the summarizer's cue words).

const KEY_ALPHABET = '23456789ABCDEFGHIJKLMNPQRSTUVWXYZ';

/** mulberry32: small, seeded, deterministic. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    key: () => Array.from({ length: 8 }, () => KEY_ALPHABET[Math.floor(next() * KEY_ALPHABET.length)]).join(''),
    tag: (prefix) => `${prefix}-${Array.from({ length: 3 }, () => KEY_ALPHABET[Math.floor(next() * KEY_ALPHABET.length)]).join('')}`,
  };
}

/**
 * The fact planner of the untuned corpora: `plant` puts a template's text at a turn with a probe that
 * `tag()` draws, `chain` plants one fact per percentage of the session, each superseded by the next.
 * `plan` maps a turn to what is said there, `{ who, text }`; `facts` holds the planted facts.
 */
export function factPlanner(tag, at) {
  const facts = [];
  const plan = new Map();
  const add = (turn, who, text) => plan.set(turn, [...(plan.get(turn) ?? []), { who, text }]);
  const fill = (s, vars) => s.replace(/\{(\w)\}/g, (_, v) => String(vars[v] ?? ''));
  const plant = (kind, turn, who, template, vars = {}, extra = {}) => {
    const probe = tag();
    add(turn, who, fill(template, { ...vars, t: probe }));
    const fact = { kind, turn, probe, ...extra };
    facts.push(fact);
    return fact;
  };
  const chain = (kind, pcts, templates, vars = () => ({})) => {
    let prev = null;
    return pcts.map((pct, i) => {
      const f = plant(kind, at(pct), 'user', templates[i], vars(i));
      if (prev) prev.staleBy = f.probe;
      prev = f;
      return f;
    });
  };
  return { facts, plan, add, fill, plant, chain };
}

const TOPICS = ['caloric restriction', 'intermittent fasting', 'protein intake', 'body condition score', 'osteoarthritis onset', 'gut microbiome', 'IGF-1 levels', 'kidney function'];
const SURNAMES = ['Kim', 'Lee', 'Ostrowski', 'Laflamme', 'Wang', 'Tanaka', 'Suzuki', 'Chen', 'Müller', 'Rossi', 'Smith', 'Nguyen'];
const JOURNALS = ['Journal of Veterinary Internal Medicine', 'Veterinary Journal', 'GeroScience', '中国兽医学报', '日本獣医師会雑誌', 'PLOS ONE'];
const TITLE_EN = (topic, n) => `Effects of ${topic} on longevity in a cohort of ${n} companion dogs`;
const TITLE_ZH = (topic, n) => `${n}只伴侣犬的${topic}与寿命关系的队列研究`;
const TITLE_JA = (topic, n) => `伴侶犬${n}頭における${topic}と寿命の関係に関するコホート研究`;

function webApiItem(r, key, title) {
  const surname = r.pick(SURNAMES);
  const year = String(r.int(2008, 2025));
  return {
    key, version: r.int(100, 9000),
    library: { type: 'user', id: 475425, name: 'researcher', links: {} },
    links: { self: { href: `https://api.zotero.org/users/475425/items/${key}`, type: 'application/json' } },
    meta: { creatorSummary: `${surname} et al.`, parsedDate: year, numChildren: r.int(0, 3) },
    data: {
      key, version: 0, itemType: 'journalArticle', title,
      creators: [{ creatorType: 'author', firstName: 'A.', lastName: surname }, { creatorType: 'author', firstName: 'B.', lastName: r.pick(SURNAMES) }],
      abstractNote: `We followed ${r.int(40, 900)} dogs for ${r.int(2, 12)} years. ${'Body weight, diet and clinical signs were recorded at every visit. '.repeat(r.int(2, 6))}`,
      publicationTitle: r.pick(JOURNALS), volume: String(r.int(1, 60)), pages: `${r.int(1, 300)}-${r.int(301, 600)}`, date: year,
      DOI: `10.${r.int(1000, 9999)}/dog.${r.int(10000, 99999)}`, language: r.pick(['en', 'zh', 'ja']),
      tags: [{ tag: r.pick(TOPICS) }], collections: [r.key()], relations: {}, dateAdded: '2024-03-01T10:00:00Z', dateModified: '2024-03-02T10:00:00Z',
    },
  };
}

function titleFor(r) {
  const topic = r.pick(TOPICS);
  const n = r.int(40, 900);
  return r.pick([TITLE_EN, TITLE_EN, TITLE_ZH, TITLE_JA])(topic, n);
}

const PAGE_EN = 'Dogs on the restricted diet kept a lower body condition score, and the onset of osteoarthritis came later than in the control group. ';
const PAGE_ZH = '限制饮食组的犬只体况评分较低，骨关节炎的发病时间也晚于对照组。';
const PAGE_JA = '制限食群の犬はボディコンディションスコアが低く、変形性関節症の発症も対照群より遅かった。';

function pageText(r) {
  const chars = r.int(2_400, 4_200);
  const unit = r.pick([PAGE_EN, PAGE_EN, PAGE_ZH, PAGE_JA]);
  return unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
}

const QUESTIONS = [
  'What does the next paper say about caloric restriction in beagles?',
  'Can you read the methods section of that one, only the ones with a PDF attached?',
  'How many of these report median life span?',
  'Which of them measured body condition score over time?',
  'Summarize the discussion section, please.',
  'Is there a dose-response relation in any of them?',
  '这篇论文的样本量是多少？',
  '请帮我看一下第三页的结果。',
  'この研究の結論を教えてください。',
  '次の論文の方法を読んでください。',
];
const ANSWERS = [
  'The study followed the dogs for six years and reports body condition scores at each visit.',
  'It might also be relevant to the protein question.',
  'The authors report a hazard ratio of 0.71 for the restricted group.',
  'Page 4 describes the feeding protocol in detail.',
  '该研究报告限制饮食组的中位寿命更长。',
  'この論文では制限食群の寿命が長かったと報告されている。',
];
const ERRORS = ['HTTP 503 from publisher', 'Timeout after 30 s contacting crossref.org', 'Rate limited: HTTP 429', 'TypeError: Cannot read properties of undefined (reading "pdf")'];

/**
 * The kinds and their phrasings. `{T}` is the fact's unique tag, `{K}` a designated key, `{D}` a date.
 * `said`: who says it (user, assistant, or a failing tool's error text).
 */
export const KINDS = {
  goal: { label: 'research goal (first message, refinements)' },
  constraint: { label: 'user constraints' },
  designation: { label: 'papers the user designated by key' },
  style: { label: 'citation style (and a later switch)' },
  failed: { label: 'failed approaches not to repeat' },
  decision: { label: 'decisions' },
  task: { label: 'unfinished tasks' },
  hypothesis: { label: 'hypotheses, kept as hypotheses' },
};

const TEMPLATES = {
  goal: [
    ['user', 'Narrow the review to large-breed dogs older than eight years ({T}).'],
    ['user', 'The review should now also cover cats, as a secondary question ({T}).'],
    ['user', '研究目标调整为：比较间歇性禁食与持续限食的效果（{T}）。'],
  ],
  constraint: [
    ['user', 'Only peer-reviewed studies with at least 50 dogs ({T}).'],
    ['user', 'Skip anything not published in English, Chinese or Japanese ({T}).'],
    ['user', 'Leave out conference abstracts and theses ({T}).'],
    ['user', '请只纳入2018年以后发表的研究（{T}）。'],
    ['user', '査読付き論文だけを対象にしてください（{T}）。'],
    ['user', 'Actually, count the Kim cohort as 412 dogs, not 214 ({T}).'],
  ],
  deadline: [
    ['user', 'The draft is due to my supervisor on {D} ({T}).'],
    ['user', 'The deadline moved: the draft is now due on {D} ({T}).'],
  ],
  designation: [
    ['user', 'Build the argument on {K}, the cohort we discussed.'],
    ['user', '{K} is a must-cite.'],
    ['user', 'Please keep {K} in the final reference list.'],
    ['user', '请把{K}作为核心文献。'],
  ],
  style: [
    ['user', 'Use APA 7th edition for the references.'],
    ['user', 'The target journal wants AMA 11th edition references.'],
    ['user', 'Switch the references to Vancouver style, the journal changed its rules.'],
  ],
  failed: [
    ['assistant', 'The Google Scholar scraping approach failed with HTTP 429 ({T}).'],
    ['tool', 'Unpaywall lookup refused: 404 for every DOI of the batch ({T})'],
    ['user', 'Forget the Sci-Hub mirror idea ({T}); never do that again.'],
    ['assistant', 'Searching PubMed by MeSH term alone returned nothing useful, so I will not repeat it ({T}).'],
  ],
  decision: [
    ['assistant', 'Decision: we will use a random-effects model for the pooled estimate ({T}).'],
    ['user', "Let's go with hazard ratios as the effect measure ({T})."],
    ['assistant', 'I chose to exclude the two studies with overlapping cohorts ({T}).'],
    ['user', '就用森林图来展示结果（{T}）。'],
  ],
  task: [
    ['assistant', 'Still to do: extract the dose-response table from page 12 of the Kim paper ({T}).'],
    ['user', 'Remember to check the supplementary data of Lee 2020 later ({T}).'],
    ['assistant', 'Next step: contact the authors of the Tanaka study for the raw data ({T}).'],
    ['user', '稍后请整理一下纳入研究的偏倚风险表（{T}）。'],
  ],
  hypothesis: [
    ['assistant', 'I suspect the longevity effect is mediated by lower IGF-1 levels ({T}).'],
    ['assistant', 'Perhaps breed size confounds the fasting effect ({T}).'],
    ['assistant', 'One hypothesis: owners who restrict food also exercise their dogs more ({T}).'],
  ],
};

const DATES = ['14 March', '2 May', '30 June', '15 September'];

/**
 * A session plan of `turns` turns: per turn the user text, the assistant parts, and the facts planted in
 * it ({ kind, probe, stale?, turn, messageId }).
 */
export function makeSession(seed, turns) {
  const r = rng(seed);
  const facts = [];
  const at = (share) => Math.min(turns - 1, Math.max(1, Math.round(share * turns) + r.int(-2, 2)));
  const plant = new Map(); // turn -> [{ kind, said, text, probe, key?, stale? }]
  const add = (turn, fact) => plant.set(turn, [...(plant.get(turn) ?? []), fact]);
  const fill = (template, extra = {}) => {
    const tag = r.tag(extra.prefix ?? 'F');
    const text = template[1].replace('{T}', tag).replace('{K}', extra.key ?? '').replace('{D}', extra.date ?? '');
    return { said: template[0], text, probe: extra.probe ?? tag };
  };
  // The goal: the first message, then refinements mid and late.
  const goalTag = r.tag('GOAL');
  const firstText = `I am writing a systematic review on ${r.pick(TOPICS)} and canine longevity (${goalTag}). ${r.pick(QUESTIONS)}`;
  facts.push({ kind: 'goal', probe: goalTag, turn: 0 });
  const phases = [0.1, 0.5, 0.85];
  for (const [k, share] of [[0, 0.45], [2, 0.8]]) add(at(share), { kind: 'goal', ...fill(TEMPLATES.goal[k], { prefix: 'GOAL' }) });
  // Constraints early, mid, late, and a deadline that later moves.
  phases.forEach((share, i) => add(at(share), { kind: 'constraint', ...fill(TEMPLATES.constraint[(seed + i * 2) % TEMPLATES.constraint.length], { prefix: 'CONS' }) }));
  add(at(0.3), { kind: 'constraint', ...fill(TEMPLATES.constraint[5], { prefix: 'CONS' }) });
  const [d1, d2] = [DATES[seed % 2], DATES[2 + (seed % 2)]];
  add(at(0.2), { kind: 'constraint', ...fill(TEMPLATES.deadline[0], { date: d1, probe: d1 }), stale: 'deadline' });
  add(at(0.7), { kind: 'constraint', ...fill(TEMPLATES.deadline[1], { date: d2, probe: d2 }), supersedes: 'deadline' });
  // Designated keys early, mid, late (each key appears in a search result a few turns before).
  const designated = phases.map(() => r.key());
  phases.forEach((share, i) => add(at(share), { kind: 'designation', ...fill(TEMPLATES.designation[(seed + i) % TEMPLATES.designation.length], { key: designated[i], probe: designated[i] }), key: designated[i] }));
  // Citation style, then a switch mid and another late.
  add(at(0.05), { kind: 'style', ...fill(TEMPLATES.style[0], { probe: 'APA 7th' }), stale: 'style' });
  add(at(0.55), { kind: 'style', ...fill(TEMPLATES.style[1], { probe: 'AMA 11th' }), stale: 'style', supersedes: 'style' });
  add(at(0.9), { kind: 'style', ...fill(TEMPLATES.style[2], { probe: 'Vancouver' }), supersedes: 'style' });
  for (const kind of ['failed', 'decision', 'task', 'hypothesis']) {
    phases.forEach((share, i) => add(at(share + 0.04 * (i + 1)), { kind, ...fill(TEMPLATES[kind][(seed + i) % TEMPLATES[kind].length], { prefix: kind.slice(0, 4).toUpperCase() }) }));
  }

  const plantedKeys = new Map(); // key -> turn of its designation
  for (const [turn, list] of plant) for (const f of list) if (f.key) plantedKeys.set(f.key, turn);
  const script = [];
  for (let turn = 0; turn < turns; turn++) {
    const userId = `u${turn}`;
    const assistantId = `a${turn}`;
    let user = turn === 0 ? firstText : r.pick(QUESTIONS);
    const said = [r.pick(ANSWERS)];
    let failure = null;
    for (const f of plant.get(turn) ?? []) {
      if (f.said === 'user') user = `${f.text} ${user}`;
      else if (f.said === 'assistant') said.push(f.text);
      else failure = f.text;
      facts.push({ kind: f.kind, probe: f.probe, turn, messageId: f.said === 'user' ? userId : assistantId, stale: f.stale, supersedes: f.supersedes });
    }
    const parts = [{ type: 'step-start' }];
    const call = (name, state, input, extra) => parts.push({ type: `tool-${name}`, toolCallId: `${name}-${turn}`, state, input, ...extra });
    const items = Array.from({ length: r.int(3, 8) }, () => webApiItem(r, r.key(), titleFor(r)));
    let showsDesignated = false;
    for (const [key, designatedAt] of plantedKeys) {
      if (designatedAt - turn >= 0 && designatedAt - turn <= 3) {
        items.push(webApiItem(r, key, titleFor(r)));
        showsDesignated = true;
      }
    }
    const roll = r.next();
    if (roll < 0.45 || showsDesignated) call('zoteroSearch', 'output-available', { q: r.pick(TOPICS) }, { output: items });
    if (roll >= 0.3 && roll < 0.8) {
      const attachment = r.key();
      call('readPdfPage', 'output-available', { attachmentKey: attachment, pageIndex: r.int(0, 30) }, {
        output: { attachmentKey: attachment, pageIndex: r.int(0, 30), pageLabel: String(r.int(1, 300)), text: pageText(r) },
      });
    }
    if (roll >= 0.7 && roll < 0.85) {
      const parent = r.key();
      call('getAnnotations', 'output-available', { parentItem: parent }, {
        output: Array.from({ length: r.int(1, 4) }, () => ({
          key: r.key(), version: 1, library: { type: 'user', id: 475425 }, links: {}, meta: {},
          data: { key: r.key(), itemType: 'annotation', parentItem: parent, annotationType: 'highlight', annotationText: pageText(r).slice(0, 200),
                  annotationComment: 'important', annotationColor: '#ffd400', annotationPageLabel: String(r.int(1, 300)),
                  annotationSortIndex: '00003|001234|00567', annotationPosition: JSON.stringify({ pageIndex: 2, rects: [[100, 200, 300, 220]] }), tags: [] },
        })),
      });
    }
    if (roll >= 0.85 && roll < 0.9) {
      const key = r.key();
      call('deleteItems', 'output-available', { keys: [key] }, { approval: { id: `ap-${turn}`, approved: true }, output: { deleted: [key] } });
    }
    if (failure || roll >= 0.9) call(failure ? 'unpaywall' : 'fetchFullText', 'output-error', { doi: '10.1000/x' }, { errorText: failure ?? r.pick(ERRORS) });
    parts.push({ type: 'text', text: said.join(' ') });
    script.push({
      user: { id: userId, role: 'user', parts: [{ type: 'text', text: user }] },
      assistant: { id: assistantId, role: 'assistant', parts },
    });
  }
  facts.sort((a, b) => a.turn - b.turn);
  return { script, facts };
}
