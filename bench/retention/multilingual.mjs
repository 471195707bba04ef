// Seeded multilingual research sessions (issue 34): users writing English, German, Chinese/Japanese
// or Vietnamese, lowercase, typos and chatter, no cue words; supersession chains (a rule reversed
// twice, a deadline moved twice, the citation style switched twice, a key designated then retracted),
// findings with their key and page in the assistant's text, a hypothesis confirmed and one rejected,
// tasks completed, failed approaches, decisions. Each fact carries a tag (`probe`) so a projection can
// be checked for it; `stale` facts are superseded, completed, rejected or retracted by a later one.
import { rng } from './sessions.mjs';

export const LANGUAGES = ['en', 'de', 'cjk', 'vi'];

// Phrasings per language, `{t}` the fact's tag, `{x}` a varying detail. Several per slot; no phrase
// was written for a cue list (the summarizer has none for German or Vietnamese at all).
const P = {
  goal: {
    en: ['what im after, really, is whether {x} slows ageing in old dogs {t}', 'so basically i want to figure out if {x} changes how long big dogs live {t}'],
    de: ['mir geht es eigentlich darum, ob {x} das Altern bei alten Hunden bremst {t}', 'ich will rausfinden ob {x} die Lebensdauer großer Hunde verändert {t}'],
    cjk: ['我真正想弄清楚的是{x}是否能延缓老年犬的衰老 {t}', '知りたいのは、{x}が大型犬の寿命を変えるかどうかです {t}'],
    vi: ['điều tôi thật sự muốn biết là {x} có làm chậm lão hóa ở chó già không {t}', 'tôi muốn tìm hiểu xem {x} có thay đổi tuổi thọ của chó lớn không {t}'],
  },
  rule: {
    en: ['leave preprints out of this, medrxiv and biorxiv both {t}', 'hm ok put the medrxiv and biorxiv preprints back in, reviewer wants them {t}', 'nah, preprints from medrxiv and biorxiv are out again, final {t}'],
    de: ['Preprints von medRxiv und bioRxiv lassen wir weg {t}', 'doch, die Preprints von medRxiv und bioRxiv wieder rein, der Gutachter will das {t}', 'nee, Preprints von medRxiv und bioRxiv wieder raus, endgültig {t}'],
    cjk: ['medRxiv和bioRxiv的预印本先不要收录 {t}', 'medRxiv和bioRxiv的预印本还是收录吧，审稿人要求的 {t}', 'medRxiv和bioRxiv的预印本最终还是不收录 {t}'],
    vi: ['bỏ các bản preprint trên medRxiv và bioRxiv ra nhé {t}', 'thôi cho các bản preprint trên medRxiv và bioRxiv vào lại, người phản biện muốn vậy {t}', 'không, các bản preprint trên medRxiv và bioRxiv lại bỏ ra, chốt vậy {t}'],
  },
  deadline: {
    en: ['my supervisor needs the draft on {x} {t}', 'supervisor moved the draft to {x} {t}', 'ugh, draft now on {x} instead {t}'],
    de: ['meine Betreuerin will den Entwurf am {x} {t}', 'der Entwurf ist jetzt erst am {x} fällig {t}', 'Entwurf doch schon am {x} {t}'],
    cjk: ['导师要我{x}交初稿 {t}', '初稿改到{x}交了 {t}', '初稿又改成{x}交 {t}'],
    vi: ['thầy hướng dẫn cần bản nháp vào {x} {t}', 'bản nháp dời sang {x} {t}', 'bản nháp lại đổi thành {x} {t}'],
  },
  style: {
    en: ['references in apa 7 pls {t}', 'the journal wants vancouver numbering for the refs now {t}', 'switching refs to chicago author-date after all {t}'],
    de: ['Literatur bitte nach APA 7 {t}', 'die Zeitschrift will jetzt Vancouver-Nummerierung {t}', 'doch lieber Chicago Autor-Jahr für die Literatur {t}'],
    cjk: ['参考文献用APA 7 {t}', '期刊现在要求参考文献用Vancouver编号 {t}', '参考文献最后还是改成Chicago作者-年份 {t}'],
    vi: ['tài liệu tham khảo theo APA 7 nhé {t}', 'tạp chí giờ muốn đánh số kiểu Vancouver {t}', 'cuối cùng đổi sang Chicago tác giả-năm {t}'],
  },
  designate: {
    en: ['{k} is the one the whole argument rests on {t}', 'hang the discussion on {k} {t}'],
    de: ['{k} ist die Arbeit, auf der alles aufbaut {t}', 'die Diskussion stützen wir auf {k} {t}'],
    cjk: ['整个论证都建立在{k}上 {t}', '考察は{k}を軸にします {t}'],
    vi: ['toàn bộ lập luận dựa trên {k} {t}', 'phần thảo luận bám vào {k} {t}'],
  },
  retract: {
    en: ['drop {k}, it got retracted last week {t}', '{k} was retracted, take it out {t}'],
    de: ['{k} raus, wurde zurückgezogen {t}', 'nimm {k} raus, die Arbeit ist zurückgezogen {t}'],
    cjk: ['{k}被撤稿了，删掉 {t}', '{k}は撤回されたので外して {t}'],
    vi: ['bỏ {k} đi, bài đó bị rút rồi {t}', '{k} đã bị rút, loại ra {t}'],
  },
  failedUser: {
    en: ['the sci-hub mirror thing was a dead idea, dont go there again {t}'],
    de: ['die Sci-Hub-Spiegel-Idee war nix, bitte nicht nochmal {t}'],
    cjk: ['用Sci-Hub镜像那条路走不通，别再试了 {t}'],
    vi: ['vụ dùng mirror Sci-Hub không ổn, đừng thử lại {t}'],
  },
};

// The assistant writes in English (its tools answer in English), the findings in the user's language.
const FINDING = {
  en: ['On p. {p} of {s} {y} ({k}) the restricted dogs lived {n} months longer {t}.', '{s} {y} ({k}), pp. {p}-{q}, reports IGF-1 down by {n}% {t}.'],
  de: ['Laut {s} {y} ({k}), S. {p}, lebten die Hunde {n} Monate länger {t}.', 'Auf Seite {p} von {s} ({k}) sinkt IGF-1 um {n}% {t}.'],
  cjk: ['根据{s} {y}（{k}）第{p}页，限食组多活了{n}个月 {t}。', '{s}（{k}）の{p}ページによると、IGF-1は{n}%低下した {t}。'],
  vi: ['Theo {s} {y} ({k}), trang {p}, nhóm ăn kiêng sống lâu hơn {n} tháng {t}.', 'Ở trang {p} của {s} ({k}), IGF-1 giảm {n}% {t}.'],
};
const CHATTER = {
  en: ['ok thx', 'hmm interesting', 'wait what does the second one say', 'can u check the methods of that one', 'lol ok', 'nice, next', 'how many dogs was that again?', 'whats the follow up time there'],
  de: ['ok danke', 'hm spannend', 'moment, was sagt das zweite?', 'kannst du die methoden davon checken', 'passt, weiter', 'wie viele hunde waren das nochmal?'],
  cjk: ['好的谢谢', '嗯有意思', '第二篇怎么说？', '那篇的方法部分帮我看看', 'ありがとう', '次お願い', '犬は何頭でしたっけ？'],
  vi: ['ok cảm ơn', 'hmm thú vị', 'khoan, bài thứ hai nói gì?', 'xem giúp phần phương pháp bài đó', 'được, tiếp đi', 'bao nhiêu con chó vậy?'],
};
const DATES = { en: ['march 14', 'april 2', 'may 30', 'june 11'], de: ['14. März', '2. April', '30. Mai', '11. Juni'], cjk: ['3月14日', '4月2日', '5月30日', '6月11日'], vi: ['ngày 14 tháng 3', 'ngày 2 tháng 4', 'ngày 30 tháng 5', 'ngày 11 tháng 6'] };
const TOPIC = { en: ['intermittent fasting', 'caloric restriction'], de: ['Intervallfasten', 'Kalorienrestriktion'], cjk: ['间歇性禁食', 'カロリー制限'], vi: ['nhịn ăn gián đoạn', 'hạn chế calo'] };
const SURNAMES = ['Weber', 'Kim', 'Nguyen', 'Tanaka', 'Müller', 'Chen', 'Laflamme', 'Rossi'];
const ANSWERS = [
  'Here is what the next paper says about the feeding protocol and the follow-up.',
  'The cohort was followed for six years with visits every six months; body condition was scored each time.',
  'I read the methods section: dogs were randomised by litter and fed to a target body condition score.',
];
const PAGE = 'Dogs on the restricted diet kept a lower body condition score, and osteoarthritis began later than in the control group. ';

function item(r, key, title) {
  const surname = r.pick(SURNAMES);
  return {
    key, version: r.int(100, 9000), library: { type: 'user', id: 475425, name: 'researcher', links: {} }, links: {},
    meta: { creatorSummary: `${surname} et al.`, parsedDate: String(r.int(2008, 2025)), numChildren: 1 },
    data: { key, version: 0, itemType: 'journalArticle', title, creators: [{ creatorType: 'author', firstName: 'A.', lastName: surname }],
      abstractNote: `We followed ${r.int(40, 900)} dogs. ${'Weight and diet were recorded at every visit. '.repeat(r.int(2, 5))}`,
      date: String(r.int(2008, 2025)), tags: [], collections: [], relations: {} },
  };
}

/**
 * A session of `turns` turns in `language` for a window of `window` tokens (the PDF page read each
 * turn is sized to the window, so every window compacts every few turns). Returns the script of
 * { user, assistant } UIMessages and the planted facts
 * `{ kind, turn, probe, said, stale?, staleBy? }`: `staleBy` names the fact that supersedes it.
 */
export function makeMultilingualSession(seed, language, turns, window) {
  const r = rng(seed * 7919 + LANGUAGES.indexOf(language) * 104729 + window);
  const at = (pct) => Math.max(1, Math.floor((pct * turns) / 100));
  const facts = [];
  const plan = new Map(); // turn -> list of { who, text }
  const add = (turn, who, text) => plan.set(turn, [...(plan.get(turn) ?? []), { who, text }]);
  const fill = (s, vars) => s.replace(/\{(\w)\}/g, (_, v) => String(vars[v] ?? ''));
  const plant = (kind, turn, who, template, vars = {}, extra = {}) => {
    const probe = r.tag(kind.slice(0, 3).toUpperCase());
    add(turn, who, fill(template, { ...vars, t: `(${probe})` }));
    const fact = { kind, turn, probe, said: who, ...extra };
    facts.push(fact);
    return fact;
  };
  const chain = (kind, pcts, variants, vars = () => ({})) => {
    let previous = null;
    variants.forEach((template, i) => {
      const fact = plant(kind, at(pcts[i]), 'user', template, vars(i));
      if (previous) previous.staleBy = fact.probe;
      previous = fact;
    });
  };
  plant('goal', 0, 'user', r.pick(P.goal[language]), { x: r.pick(TOPIC[language]) });
  chain('constraint', [10, 40, 70], P.rule[language]);
  chain('deadline', [15, 45, 75], P.deadline[language], (i) => ({ x: DATES[language][i] }));
  chain('style', [5, 35, 65], P.style[language]);
  const designated = r.key();
  const designation = plant('designation', at(20), 'user', r.pick(P.designate[language]), { k: designated }, { key: designated });
  const keep = r.key();
  plant('designation', at(22), 'user', r.pick(P.designate[language]), { k: keep }, { key: keep });
  const retraction = plant('retraction', at(60), 'user', r.pick(P.retract[language]), { k: designated });
  designation.staleBy = retraction.probe;
  plant('failed', at(30), 'user', r.pick(P.failedUser[language]));
  plant('failed', at(12), 'assistant', 'Searching PubMed by MeSH term alone returned nothing useful, so I will not repeat it {t}.');
  facts.push({ kind: 'failed', turn: at(55), probe: 'FAIL-UNPAYWALL', said: 'tool' });
  // The assistant's state, labelled as assistants often write it or in plain prose (half each).
  plant('decision', at(33), 'assistant', r.pick(['Decision: a random-effects model for the pooled estimate {t}.', 'We settle on a random-effects model for the pooled estimate {t}.']));
  plant('decision', at(78), 'assistant', r.pick(['So we go with hazard ratios as the effect measure throughout {t}.', 'Hazard ratios will be the effect measure throughout {t}.']));
  const hypA = plant('hypothesis', at(28), 'assistant', r.pick(['My working hypothesis: the longevity effect runs through lower IGF-1 levels {t}.', 'The longevity effect may run through lower IGF-1 levels {t}.']));
  const hypB = plant('hypothesis', at(38), 'assistant', r.pick(['A possibility worth testing: breed size confounds the fasting effect on lifespan {t}.', 'Perhaps breed size confounds the fasting effect on lifespan {t}.']));
  const confirmed = plant('hypothesis-closed', at(58), 'assistant', 'The Lee data back this up: the longevity effect runs through lower IGF-1 levels, confirmed {t}.');
  const rejected = plant('hypothesis-closed', at(68), 'assistant', 'Checked: breed size does not confound the fasting effect on lifespan, so that is rejected {t}.');
  hypA.staleBy = confirmed.probe;
  hypB.staleBy = rejected.probe;
  const task = plant('task', at(25), 'assistant', r.pick(['Still open: extract the dose-response table from the Kim cohort paper {t}.', 'Next step: extract the dose-response table from the Kim cohort paper {t}.']));
  const done = plant('task-closed', at(50), 'assistant', 'I extracted the dose-response table from the Kim cohort paper; it is in the draft now {t}.');
  task.staleBy = done.probe;
  plant('task', at(85), 'assistant', r.pick(['I still need to check the supplementary survival curves of the Tanaka study {t}.', 'Outstanding: the supplementary survival curves of the Tanaka study {t}.']));
  const findingKeys = [];
  for (const pct of [24, 48, 72, 88]) {
    const key = r.key();
    findingKeys.push(key);
    const p = r.int(3, 400);
    const template = r.pick(FINDING[language]);
    const locator = { en: template.includes('pp.') ? `pp. ${p}-${p + 2}` : `p. ${p}`, de: template.includes('S.') ? `S. ${p}` : `Seite ${p}`,
      cjk: template.includes('页') ? `第${p}页` : `${p}ページ`, vi: `trang ${p}` }[language];
    plant('finding', at(pct), 'assistant', template, { p, q: p + 2, k: key, s: r.pick(SURNAMES), y: r.int(2010, 2024), n: r.int(2, 40) }, { key, locator });
  }

  const script = [];
  const pageChars = Math.max(2_000, Math.floor(window * 0.2));
  for (let turn = 0; turn < turns; turn++) {
    const planted = plan.get(turn) ?? [];
    const userBits = planted.filter((p) => p.who === 'user').map((p) => p.text);
    const userText = userBits.length ? userBits.join('. ') : r.pick(CHATTER[language]);
    const user = { id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: userText }] };
    const keys = [r.key(), r.key(), designated, keep, ...(findingKeys.length ? [r.pick(findingKeys)] : [])];
    const results = keys.map((k) => item(r, k, `Effects of ${r.pick(TOPIC.en)} on longevity in ${r.int(40, 900)} dogs`));
    for (const f of facts.filter((x) => x.kind === 'finding' && x.turn === turn)) results.push(item(r, f.key, 'Cohort study of restricted feeding'));
    const parts = [
      { type: 'step-start' },
      { type: `tool-zoteroSearch`, toolCallId: `s${turn}`, state: 'output-available', input: { q: `turn ${turn}` }, output: results },
      { type: 'tool-readPdfPage', toolCallId: `p${turn}`, state: 'output-available', input: { attachmentKey: keys[0], pageIndex: turn % 30 },
        output: { text: PAGE.repeat(Math.ceil(pageChars / PAGE.length)).slice(0, pageChars) } },
    ];
    if (facts.some((f) => f.probe === 'FAIL-UNPAYWALL' && f.turn === turn)) {
      parts.push({ type: 'tool-unpaywall', toolCallId: `e${turn}`, state: 'output-error', input: { doi: 'batch' }, errorText: 'Unpaywall refused every DOI of the batch: 404 (FAIL-UNPAYWALL)' });
    }
    const said = planted.filter((p) => p.who === 'assistant').map((p) => p.text);
    parts.push({ type: 'text', text: [r.pick(ANSWERS), ...said].join(' ') });
    script.push({ user, assistant: { id: `a${turn}`, role: 'assistant', parts } });
  }
  return { script, facts };
}
