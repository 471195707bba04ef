// Issue 40, a sixth held-out corpus: written without reading the rules (src/, js-glue/), the docs, the
// tests, the examples or the sentence tables of the other corpora, and not tuned to the package's
// results (the bench was run on it only as a smoke test: does it run, does it compact).
// Topic: legal scholarship, far from medicine and history. A comparative-law doctoral chapter on
// pre-contractual liability (culpa in contrahendo: who pays when negotiations are broken off late), one
// legal system per language: English law against German and French/Italian law (en, a UK PhD student);
// art. 1337 c.c., the Cassazione's "contatto sociale" and the Consiglio di Stato (it); art. 434.1 of the
// Russian Civil Code and Plenum resolution No. 7 of 2016 (ru); art. 72 § 2 of the Polish Civil Code and
// the Sąd Najwyższy (pl); the Egyptian Civil Code, the UAE Civil Transactions Law and the Court of
// Cassation in Dubai, right to left with Latin keys and both Western and Arabic-Indic digits (ar); and
// the Indian Contract Act with Dresser Rand and Trimex (mixed: an Indian LL.M. student who code-switches
// between English and Hindi in Latin script inside one message; the assistant answers in English). Some
// reported cases and statutes are real, many docket numbers and a few titles are invented.
// Users write long chatty messages with greetings, typos, apologies, thanks and off-topic asides, say
// several things in one message, state requirements with and without cue words and replace them later in
// other words (a cap on chapter length lifted, a court limit widened), change the deadline twice (dates
// as "Friday 12 June", "the 27th of May", "2026-09-18", "do piątku 12 czerwca", "27.05", "يوم الجمعة ١٢
// يونيو", "18th Sept 2026") and the citation style twice (OSCOLA 4th edn, Bluebook 21st ed., OSCOLA
// without ibid, the Rivista di diritto civile's rules, ГОСТ Р 7.0.5-2008 / 7.0.100–2018, the rules of
// "Państwa i Prawa", PN-ISO 690, APA 7, Chicago notes, the ILI citation style); make four Zotero keys
// central and withdraw two; set five tasks (three reported done, by either side); float four hypotheses
// (three confirmed or rejected later, in passing); report five failed approaches and five decisions from
// both sides in plain prose; and twelve findings with key and locator (OSCOLA-style "at 138", "[142]",
// "para 29", "Rn. 187", "p. 62", "punto 4.2", "pp. 21-22", "с. 996", "п. 19", "ст. 2.1.15, комм. 2",
// "Nb 14", "ss. 330–332", "pkt 5 uzasadnienia", "ص 195", "ص ٧", "المادة 246", "art. 1112 al. 2", "s. 70",
// or a bare page label from a PDF marker or an annotation), one of them corrected later by the user,
// sitting in the assistant's prose, in the user's message, inside a full-text read only (key in the
// call's input, page only from the "[[page N]]" marker), in an annotation's comment (page from
// annotationPageLabel, once keyed by the attachment) or in an HTML child note, and once in prose right
// after a case-law database search. A user who only states something gets
// a short acknowledgement (no tool calls); questions get tool calls that fit them.
// Tool shapes (AI SDK v5 UIMessage parts): `tool-searchItems` answering the Web API's array of items
// ({ key, version, library, links, meta, data }) under { headers: { Total-Results }, body };
// `tool-readFullText` answering { itemKey, attachmentKey, contentType, indexedPages, totalPages, text }
// with "[[page N]]" markers (often 5-20% of the window); `tool-listAnnotations` (Web API annotation
// objects); `tool-childNotes` (Web API note objects with HTML); `tool-formatCitations` (CSL style id,
// citations, bibliography); `tool-updateTags` (the Web API write answer { successful, success, unchanged,
// failed }); a `dynamic-tool` per language (an MCP-style search of a case-law database: bailii_search,
// dejure_ricerca, consultantplus_search, saos_search, eastlaws_search, indiankanoon_search) answering
// { content: [{ type: 'text', text }], isError }; failures as `output-error` (OCR of a faded scan, a
// timed-out MCP server, Crossref without the article, a locked PDF, 403/429 from the Web API, a paywall);
// `reasoning` and `step-start` parts; turns with three or four calls in a row (search, then annotations
// and full text together, then a citation). Message ids u<turn> / a<turn>. Tags look like `⟦KX·418⟧`.
import { factPlanner, rng } from './sessions.mjs';

export const LANGUAGES = ['en', 'it', 'ru', 'pl', 'ar', 'mixed'];

// ---------------------------------------------------------------------------------------------------
// Where the facts go (shares of the session; each jittered by up to two turns).
const GOALS = [0, 0.18, 0.55];
const CONSTRAINTS = [0.02, 0.08, 0.2, 0.37, 0.48, 0.69];
const REPLACED = [[1, 3], [2, 5]]; // constraint 1 is replaced by 3, 2 by 5
const DEADLINES = [0.04, 0.41, 0.78];
const STYLES = [0.06, 0.33, 0.62];
const DESIGNATIONS = [0.11, 0.27, 0.45, 0.66];
const RETRACTIONS = [{ of: 0, at: 0.52 }, { of: 2, at: 0.83 }];
const FAILED = [
  { at: 0.07, who: 'assistant', error: 'ocr' }, { at: 0.24, who: 'user' }, { at: 0.43, who: 'assistant', error: 'mcp' },
  { at: 0.6, who: 'assistant' }, { at: 0.86, who: 'assistant', error: 'crossref' },
];
const DECISIONS = [{ at: 0.13, who: 'user' }, { at: 0.3, who: 'assistant' }, { at: 0.47, who: 'user' }, { at: 0.64, who: 'assistant' }, { at: 0.9, who: 'user' }];
const TASKS = [{ at: 0.1, who: 'user' }, { at: 0.26, who: 'assistant' }, { at: 0.4, who: 'user' }, { at: 0.58, who: 'user' }, { at: 0.8, who: 'assistant' }];
const DONE = [{ task: 0, at: 0.35, who: 'assistant', tags: true }, { task: 1, at: 0.57, who: 'user' }, { task: 3, at: 0.88, who: 'assistant' }];
const HYPOTHESES = [{ at: 0.15, who: 'user' }, { at: 0.32, who: 'assistant' }, { at: 0.5, who: 'user' }, { at: 0.7, who: 'user' }];
const CLOSED = [{ of: 0, at: 0.46, who: 'user' }, { of: 1, at: 0.61, who: 'assistant' }, { of: 3, at: 0.92, who: 'user' }];
// Findings: where each sits. `corrects` names the finding a later one corrects (same source, other locator).
const FINDINGS = [
  { at: 0.05, where: 'assistant' }, { at: 0.12, where: 'fulltext' }, { at: 0.17, where: 'user' }, { at: 0.23, where: 'annotation' },
  { at: 0.29, where: 'note' }, { at: 0.36, where: 'assistant' }, { at: 0.44, where: 'fulltext' }, { at: 0.53, where: 'user' },
  { at: 0.6, where: 'user', corrects: 5 }, { at: 0.68, where: 'annotation', attachment: true }, { at: 0.76, where: 'note' },
  { at: 0.85, where: 'assistant', db: true },
];

// What a turn without a planted fact does (cumulative shares).
const ROLL = [[0.13, 'chat'], [0.29, 'search'], [0.45, 'fulltext'], [0.55, 'annotation'], [0.63, 'note'], [0.71, 'cite'], [0.81, 'dynamic'], [0.91, 'chain'], [1, 'error']];
const ASK_FOR = { chat: 'chat', search: 'search', fulltext: 'fulltext', annotation: 'annotation', note: 'note', cite: 'cite', dynamic: 'dynamic', chain: 'cite', error: 'search', ocr: 'fulltext', mcp: 'dynamic', crossref: 'cite', tags: 'chat' };
const TOOL_PLACES = new Set(['fulltext', 'annotation', 'note']);
const TAG_LETTERS = 'BCDFGHJKLMNPQRSTVWXZ';
const ID_CHARS = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ0123456789';
const COLORS = ['#ffd400', '#ff6666', '#5fb236', '#2ea8e5', '#a28ae5', '#e56eee'];

// The model thinks in English whatever the user writes.
const REASONING = [
  (v) => `They want material on ${v.topic}. Library first, then the text itself.`,
  (v) => `Check whether ${v.a} is already in Zotero before suggesting anything new.`,
  () => 'Keep it short, the user is in the middle of drafting.',
  () => 'Pinpoints matter in legal writing: quote exactly and give the locator as it is printed.',
  () => 'The last call failed; do not hammer the same endpoint again straight away.',
  (v) => `${v.a} vs ${v.b}: do they actually disagree or just use different vocabulary?`,
  () => 'Citation style changed at some point; use the current one.',
];

const pad2 = (n) => String(n).padStart(2, '0');
const AR_DIGITS = '٠١٢٣٤٥٦٧٨٩';
const arDigits = (s) => String(s).replace(/[0-9]/g, (d) => AR_DIGITS[Number(d)]);
const weekday = ({ y, m, d }) => new Date(Date.UTC(y, m - 1, d)).getUTCDay();
const ordinal = (n) => `${n}${[11, 12, 13].includes(n % 100) ? 'th' : ({ 1: 'st', 2: 'nd', 3: 'rd' })[n % 10] ?? 'th'}`;
/** Rough token count: ASCII at four characters a token, anything else at two. */
function estimateTokens(s) {
  let ascii = 0;
  let other = 0;
  for (let i = 0; i < s.length; i++) (s.charCodeAt(i) < 128 ? ascii++ : other++);
  return Math.ceil(ascii / 4 + other / 2);
}

const MON_EN = ['', 'January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WD_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

// ---------------------------------------------------------------------------------------------------
// English: a UK doctoral student; English law against the civilian systems.
const EN = {
  locale: 'en-GB', user: { id: 7734120, name: 'h.amadi' }, tagName: 'ch3-cases', scanned: 10, crossref: 2,
  topics: ['breaking off negotiations', 'reliance loss', 'letters of intent', 'subject to contract', 'good faith in negotiations', 'proprietary estoppel', 'culpa in contrahendo', 'lock-out agreements', 'tender process contracts', 'quantum meruit for pre-contract work'],
  items: [
    { type: 'case', label: 'Walford', title: 'Walford v Miles', court: 'House of Lords', date: '1992-01-23', reporter: 'AC', volume: '2', pages: [128, 140], cite: 'Walford v Miles [1992] 2 AC 128 (HL)' },
    { type: 'book', label: 'Cartwright & Hesselink', title: 'Precontractual Liability in European Private Law', creators: [['Cartwright', 'John'], ['Hesselink', 'Martijn W']], editors: true, date: '2008', publisher: 'Cambridge University Press', place: 'Cambridge', pages: [1, 520], cite: 'John Cartwright and Martijn Hesselink (eds), Precontractual Liability in European Private Law (CUP 2008)' },
    { type: 'journalArticle', label: 'Kessler & Fine', title: 'Culpa in Contrahendo, Bargaining in Good Faith, and Freedom of Contract: A Comparative Study', creators: [['Kessler', 'Friedrich'], ['Fine', 'Edith']], journal: 'Harvard Law Review', abbr: 'Harv L Rev', volume: '77', issue: '3', date: '1964', pages: [401, 449], cite: "Friedrich Kessler and Edith Fine, 'Culpa in Contrahendo, Bargaining in Good Faith, and Freedom of Contract: A Comparative Study' (1964) 77 Harv L Rev 401" },
    { type: 'case', label: 'Yam Seng', title: 'Yam Seng Pte Ltd v International Trade Corporation Ltd', court: 'High Court (Queen’s Bench Division)', date: '2013-02-01', docket: '[2013] EWHC 111 (QB)', pages: [1, 60], cite: 'Yam Seng Pte Ltd v International Trade Corp Ltd [2013] EWHC 111 (QB), [2013] 1 Lloyd’s Rep 526' },
    { type: 'case', label: 'Cobbe', title: "Yeoman's Row Management Ltd v Cobbe", court: 'House of Lords', date: '2008-07-30', docket: '[2008] UKHL 55', reporter: 'WLR', volume: '1', pages: [1752, 1790], cite: "Yeoman's Row Management Ltd v Cobbe [2008] UKHL 55, [2008] 1 WLR 1752" },
    { type: 'journalArticle', label: 'Farnsworth', title: 'Precontractual Liability and Preliminary Agreements: Fair Dealing and Failed Negotiations', creators: [['Farnsworth', 'E Allan']], journal: 'Columbia Law Review', abbr: 'Colum L Rev', volume: '87', issue: '2', date: '1987', pages: [217, 299], cite: "E Allan Farnsworth, 'Precontractual Liability and Preliminary Agreements: Fair Dealing and Failed Negotiations' (1987) 87 Colum L Rev 217" },
    { type: 'book', label: 'Giliker', title: 'Pre-contractual Liability in English and French Law', creators: [['Giliker', 'Paula']], date: '2002', publisher: 'Kluwer Law International', place: 'The Hague', pages: [1, 300], cite: 'Paula Giliker, Pre-contractual Liability in English and French Law (Kluwer 2002)' },
    { type: 'bookSection', label: 'MüKo/Emmerich', title: '§ 311 BGB', creators: [['Emmerich', 'Volker']], bookTitle: 'Münchener Kommentar zum Bürgerlichen Gesetzbuch, Bd 3', edition: '9', date: '2022', publisher: 'C.H. Beck', place: 'München', pages: [1, 140], lang: 'de', cite: 'Volker Emmerich in Münchener Kommentar zum BGB, vol 3 (9th edn, CH Beck 2022) § 311' },
    { type: 'case', label: 'Regalian', title: 'Regalian Properties plc v London Docklands Development Corporation', court: 'Chancery Division', date: '1994-10-31', reporter: 'WLR', volume: '1', pages: [212, 233], cite: 'Regalian Properties plc v London Docklands Development Corp [1995] 1 WLR 212 (Ch)' },
    { type: 'case', label: 'Blackpool Aero Club', title: 'Blackpool and Fylde Aero Club Ltd v Blackpool Borough Council', court: 'Court of Appeal', date: '1990-03-16', reporter: 'WLR', volume: '1', pages: [1195, 1206], cite: 'Blackpool and Fylde Aero Club Ltd v Blackpool BC [1990] 1 WLR 1195 (CA)' },
    { type: 'journalArticle', label: 'Jhering', title: 'Culpa in contrahendo oder Schadensersatz bei nichtigen oder nicht zur Perfection gelangten Verträgen', creators: [['Jhering', 'Rudolf von']], journal: 'Jahrbücher für die Dogmatik des heutigen römischen und deutschen Privatrechts', volume: '4', date: '1861', pages: [1, 112], lang: 'de', cite: "Rudolf von Jhering, 'Culpa in contrahendo oder Schadensersatz bei nichtigen oder nicht zur Perfection gelangten Verträgen' (1861) 4 Jherings Jahrbücher 1" },
    { type: 'case', label: 'MSC v Cottonex', title: 'MSC Mediterranean Shipping Co SA v Cottonex Anstalt', court: 'Court of Appeal', date: '2016-07-27', docket: '[2016] EWCA Civ 789', pages: [1, 40], cite: 'MSC Mediterranean Shipping Co SA v Cottonex Anstalt [2016] EWCA Civ 789' },
  ],
  designate: [0, 3, 6, 4],
  greet: ['Morning!', 'hiya', 'Hi again', 'hello hello', 'Evening —', 'ok back', 'Hey,', 'right,'],
  sorry: ['sorry for vanishing yesterday, marking season', 'apologies, that last message was garbled — phone', 'sorry, I keep jumping around', "sorry if I'm repeating myself", 'sorry sorry, was in a supervision'],
  chatter: [
    'the library heating is off again so I am typing in gloves', 'my landlord finally fixed the boiler, small mercies', 'watched the match instead of working, regret nothing',
    'coffee number four', 'train to Canterbury cancelled again so working from the flat', 'my cat just walked across the keyboard, if you see gibberish that is why',
    'went to a seminar on AI and legal writing this morning, ironic', "my sister is visiting this weekend so I'll be slower", 'the printer in the PGR room is jammed, of course',
  ],
  thanks: ["thanks, that's really helpful", 'cheers!', 'perfect, ta', 'brilliant, thank you so much', 'ok lovely', 'great stuff, thanks'],
  social: ["You're welcome — shout when you want to pick it up again.", 'Glad it helped.', 'Any time. Enjoy the break.', 'No problem at all.'],
  joiners: [' ', ' ', '\n\n', ' — ', '\n'],
  ask: {
    chat: [(v) => `what's the cleanest way to explain ${v.topic} to an examiner who only knows English law?`, (v) => `is it worth a whole section on ${v.topic} or is that overkill?`, (v) => `can you remind me where the debate on ${v.topic} stands?`, () => 'does the outline I sent make sense to you?', (v) => `how would you connect ${v.a} and ${v.b}?`],
    search: [(v) => `can you find what I've got on ${v.topic} in Zotero?`, (v) => `search my library for ${v.a} pls`, (v) => `what do I have on ${v.topic}?`],
    fulltext: [(v) => `could you read through ${v.a} and pull out anything on ${v.topic}?`, (v) => `open the pdf of ${v.a} please`, (v) => `skim ${v.a} for me?`],
    annotation: [(v) => `what did I highlight in ${v.a}?`, (v) => `show me my annotations on ${v.a}`],
    note: [(v) => `pull up my notes on ${v.a}`, (v) => `what did I write in the notes for ${v.a}?`],
    cite: [(v) => `format ${v.a} and ${v.b} for the footnotes`, (v) => `I need the full cite for ${v.a}`],
    dynamic: [(v) => `check BAILII for anything recent on ${v.topic}`, (v) => `any new cases on ${v.topic}? have a look on BAILII`],
  },
  reply: [
    (v) => `On ${v.topic}, the short answer is that English law gets part of the way through other doctrines — misrepresentation, estoppel, restitution — without ever naming a general duty. I'd put that tension up front.`,
    (v) => `I'd treat ${v.topic} as a functional question: who bears the wasted costs, and when does that shift? ${v.a} is a good illustration.`,
    (v) => `Examiners will probably ask why ${v.a} matters beyond its facts; a sentence on its later reception would help.`,
    (v) => `There's a reasonable case either way on ${v.topic}. The civilian answer turns on whether the reliance was reasonable, the English one on whether anyone assumed the risk.`,
    () => "That structure works. I'd move the German material after the English baseline so the contrast lands.",
    (v) => `${v.a} and ${v.b} pull in slightly different directions here, which is worth a footnote rather than a paragraph.`,
  ],
  onSearch: [(v) => `Matching items in your library: ${v.n}.`, (v) => `Searched your library (hits: ${v.n}); ${v.a} is at the top.`, (v) => `Search done, ${v.a} came back first.`],
  onRead: [(v) => `I've gone through the indexed text of ${v.a} (pages read: ${v.n}).`, (v) => `I read what Zotero has indexed of ${v.a}.`],
  ack: ['Noted.', 'Got it, thanks.', "OK — I'll keep that in mind.", 'Understood.'],
  onAnnot: [(v) => `Your annotations on ${v.a} (count: ${v.n}).`, (v) => `Here are your highlights in ${v.a}.`],
  onNotes: [(v) => `Child notes under ${v.a}: ${v.n}.`, (v) => `Here are your notes on ${v.a}.`],
  onCite: [(v) => `Formatted in ${v.s}.`, (v) => `Here they are in ${v.s} — check the pinpoints against your copy.`],
  onDyn: [(v) => `BAILII returned a list (shown: ${v.n}); the most relevant are first.`, (v) => 'Here is what BAILII has.'],
  onError: [(v) => `That call failed (${v.e}). I'll try again in a moment, or we can work from what we have.`, (v) => `The tool returned an error (${v.e}), so I couldn't finish that step.`],
  closers: ['Let me know if you want me to go further.', 'Shall I carry on with the next section?', 'Happy to dig deeper on any of these.'],
  filler: [
    () => 'It is not the function of the courts to supervise the conduct of negotiations between commercial parties of equal bargaining strength.',
    () => 'The question, then, is whether the loss should lie where it falls or be shifted to the party who brought the negotiations to an end.',
    (v) => `In ${v.a} the court approached the matter through the lens of ${v.topic}, although the point was not fully argued.`,
    () => 'Continental systems generally accept that negotiations create a relationship of trust from which duties of care, loyalty and disclosure arise.',
    () => 'The English courts, by contrast, have preferred piecemeal solutions: misrepresentation, collateral contracts, estoppel and restitution.',
    () => 'Where work is requested in anticipation of a contract which never materialises, a claim in unjust enrichment may lie for its reasonable value.',
    () => 'The boundary between an agreement to negotiate and an agreement with some terms left open is not always easy to draw.',
    (v) => `As will be seen in Part ${(v.n % 5) + 1}, the remedies differ less than the doctrinal vocabulary suggests.`,
    () => 'Much depends on how far the parties had progressed and on whether the breaking off was prompted by a legitimate reason.',
    () => 'The protection of reliance is, on this view, a corollary of the freedom not to contract rather than an exception to it.',
    (v) => `See also the discussion of ${v.b} below, n ${v.n}.`,
    () => 'A lock-out agreement, if supported by consideration and limited in time, is enforceable; a lock-in agreement is not.',
    () => 'Critics have argued that the absence of a general duty leaves the weaker party exposed to strategic behaviour by the stronger.',
    () => 'The distinction between reliance and expectation damages is central to any account of precontractual liability.',
    (v) => `Counsel for the respondent relied heavily on ${v.a}, but the submission was rejected.`,
  ],
  annotBank: [
    () => ['the parties were free to walk away at any time before exchange of contracts', 'standard line, cite once only'],
    () => ['reliance must be reasonable in all the circumstances', 'compare "affidamento"'],
    () => ['no binding obligation arises from an agreement to agree', ''],
    () => ['the court will not lend its aid to a party who knowingly took the risk', 'risk allocation!'],
    () => ['a contract to negotiate, like a contract to enter into a contract, is unenforceable', 'Courtney & Fairbairn'],
    (v) => ['expenses incurred in the expectation of a contract', `quantum meruit? see ${v.b}`],
  ],
  noteBank: [
    (v) => `<p>TODO: check the subsequent history of ${v.a}</p>`,
    (v) => `<h3>${v.a}</h3><ul><li>facts: sale of a business, exclusivity</li><li>outcome: no remedy</li></ul>`,
    (v) => `<p>Read on the train. Seems peripheral to ${v.topic}.</p>`,
    (v) => `<p>Supervisor: check how ${v.a} is used in Chitty and in Treitel.</p>`,
  ],
  parties: ['Barbudev', 'Eurocom Cable', 'Bieber', 'Teleprompter', 'Pitt', 'Holt', 'Astor Management', 'Bhasin', 'Hrynew', 'Cable & Wireless', 'Petromec', 'Petroleo Brasileiro', 'Emirates Trading', 'Prime Mineral Exports', 'Compass Group', 'Mid Essex Hospital'],
  dyn: {
    name: 'bailii_search',
    query: (v) => ({ query: v.topic, courts: ['EWCA/Civ', 'EWHC/Comm', 'EWHC/QB', 'UKSC'], sort: 'date', limit: 20 }),
    hit: (v) => `[${2000 + (v.n % 25)}] EWHC ${100 + v.n * 7} (Comm) — ${v.p1} v ${v.p2} — "...${v.topic}..."`,
    own: (it) => `${it.cite} — (already in your library)`,
  },
  dateFormats: [
    (x) => `${WD_EN[x.wd]} ${x.d} ${MON_EN[x.m]}`,
    (x) => `the ${ordinal(x.d)} of ${MON_EN[x.m]}`,
    (x) => `${x.y}-${pad2(x.m)}-${pad2(x.d)}`,
  ],
  goal: [
    (v) => `Hi! I'm writing the third chapter of my PhD (comparative private law, Kent) on pre-contractual liability — when someone walks away from negotiations late in the day, what can the other side get? English law says basically nothing (Walford), the civilian systems say culpa in contrahendo. I'd like your help building the chapter around that contrast ${v.t}.`,
    (v) => `thinking about it more, the chapter isn't really England vs the Continent — it's about reliance: which system protects wasted reliance and through what device (estoppel, unjust enrichment, tort, good faith) ${v.t}. can we reframe around that`,
    (v) => `supervision went ok. Okafor wants the chapter to end with a normative bit: should England adopt a narrow reliance-based liability, yes or no, and I have to take a position ${v.t}`,
  ],
  constraint: [
    (v) => `Ground rules: only sources I can actually cite in a thesis — reported cases, statutes, published books and articles, no blog posts or law-firm briefings ${v.t}.`,
    (v) => `Also I don't read German, so anything only available in German is no use to me beyond the odd quote someone else has translated ${v.t}`,
    (v) => `and ch 3 has to stay under 12,000 words including footnotes, that's the department's cap ${v.t}`,
    (v) => `Good news: Jonas from the German department will go through passages with me, so German commentary is back in play, within reason ${v.t}`,
    (v) => `please don't paraphrase judges. if you give me a dictum I want the exact words, I'll check them against the report ${v.t}`,
    (v) => `the graduate school changed the regs, chapters can run to 15k now, so don't cut anything on my account ${v.t}`,
  ],
  deadline: [
    (v) => `Draft of ch 3 is due with Prof Okafor on ${v.d} ${v.t}.`,
    (v) => `ugh, she's off to a conference so the draft has to reach her earlier — ${v.d} at the latest ${v.t}`,
    (v) => `Extension granted!! annual review is now ${v.d}, so the full chapter has to be in by then ${v.t}`,
  ],
  style: [
    (v) => `Footnotes in OSCOLA please (4th edn), that's what the law school uses ${v.t}`,
    (v) => `change of plan on citations: I'm turning ch 3 into an article for a US journal first, so Bluebook from now on ${v.t}`,
    (v) => `the US journal thing fell through. back to the house style — OSCOLA, but without ibid, Okafor hates ibid ${v.t}`,
  ],
  styleIds: [['oscola', 'OSCOLA (4th edn)'], ['bluebook-law-review', 'Bluebook (21st ed.)'], ['oscola-no-ibid', 'OSCOLA (no ibid)']],
  designation: [
    (v) => `Walford (${v.k}) is the anchor case for the whole chapter — treat it as the central authority ${v.t}`,
    (v) => `mark ${v.k} (Yam Seng) as core too please ${v.t}`,
    (v) => `${v.k}, Giliker's book, is going to be my main comparative guide, keep it front and centre ${v.t}`,
    (v) => `Add Cobbe (${v.k}) to the core list ${v.t}`,
  ],
  retraction: [
    (v) => `I've gone off Walford (${v.k}) as the anchor — it's really about agreements to negotiate, not reliance, so drop it from the core set ${v.t}`,
    (v) => `Giliker (${v.k}) is a bit dated after the 2016 French reform; take it off the central list, I'll still cite it here and there ${v.t}`,
  ],
  failed: [
    (v) => `I tried to OCR the scanned Jhering volume, but the Fraktur came out as noise, so that route is closed — we'll need a different edition ${v.t}.`,
    (v) => `I tried searching Westlaw for "culpa in contrahendo" in English judgments and got three hits, all irrelevant, so that was a dead end ${v.t}`,
    (v) => `The BAILII search server timed out on all three attempts to pull the unreported Court of Appeal transcript; I couldn't get it that way ${v.t}.`,
    (v) => `Mapping each civil code provision one-to-one onto an English cause of action didn't work — the categories don't line up (tort, contract, estoppel), so I abandoned the table ${v.t}.`,
    (v) => `Crossref has no DOI for the 1964 Harvard article, so the automatic metadata lookup failed; I entered the record by hand ${v.t}.`,
  ],
  decision: [
    (v) => `Let's go with a functional comparison: start from fact patterns (late walk-out, misleading assurances, confidential info), not from the doctrines ${v.t}.`,
    (v) => `I'll keep German quotations in the original with your translation in the footnote, as we agreed ${v.t}.`,
    (v) => `ok decided: Italy goes in as the second comparator, not France — art 1337 is cleaner ${v.t}`,
    (v) => `From here on I'm ordering the case table by date of judgment rather than by court, since the reliance line only makes sense chronologically ${v.t}.`,
    (v) => `final answer on the normative question: I'm arguing for a narrow reliance remedy via estoppel, not a general duty of good faith ${v.t}`,
  ],
  task: [
    (v) => `can you tag everything that's a case with ch3-cases in my library at some point ${v.t}`,
    (v) => `I'll draft a one-page comparative table (England / Germany / Italy) of who pays wasted negotiation costs and send it over next ${v.t}.`,
    (v) => `Reminder to self (and you): I still need to check whether Yam Seng has been followed in the Court of Appeal ${v.t}`,
    (v) => `Please pull the Cassazione decisions on art 1337 from the last ten years into a separate collection ${v.t}`,
    (v) => `Next I'll check every pinpoint in section 3.2 against the reports ${v.t}.`,
  ],
  taskDone: [
    (v) => `Done — tagged ${v.n} items with ch3-cases ${v.t}.`,
    (v) => `got the comparative table, thanks, it's in the draft now ${v.t}`,
    (v) => `The Cassazione collection is set up, nine decisions in it ${v.t}.`,
  ],
  hypothesis: [
    (v) => `my hunch is English courts reach culpa-like results through estoppel anyway, they just don't say so ${v.t}`,
    (v) => `One possibility is that Yam Seng's good-faith reasoning gets extended to negotiations — I'd treat that as something to test against the later cases ${v.t}.`,
    (v) => `maybe the Italian courts give more than reliance loss in practice? not sure ${v.t}`,
    (v) => `I suspect the Law Commission never looked at pre-contractual liability at all ${v.t}`,
  ],
  closed: [
    (v) => `...and yes, the estoppel point holds up, Regalian and Cobbe both show it ${v.t}`,
    (v) => `The Court of Appeal in MSC v Cottonex pushed back hard on Yam Seng, so an extension to negotiations looks unlikely; I'd drop that line ${v.t}.`,
    (v) => `Law Com thing — I was wrong, there's a 1970s working paper that touches it, so scrap that idea ${v.t}`,
  ],
  finding: [
    { item: 0, n: [136, 139], loc: (n) => `at ${n}`, text: (v) => `On your core question, Lord Ackner's speech in Walford (${v.k}) is the passage to quote: a duty to negotiate in good faith is "inherently repugnant to the adversarial position of the parties when involved in negotiations", ${v.p} ${v.t}.` },
    { item: 1, n: [430, 480], loc: (n) => `${n}`, text: (v) => `In almost all the systems examined, a party who breaks off negotiations after inducing reasonable reliance is liable at least for wasted expenditure; English law is the clearest exception ${v.t}.` },
    { item: 3, n: [131, 154], loc: (n) => `[${n}]`, text: (v) => `fyi Leggatt J's bit about "relational" contracts needing more than the bare words is at ${v.p} of Yam Seng (${v.k}) ${v.t} — checked it against the BAILII version` },
    { item: 5, n: [221, 240], loc: (n) => `${n}`, quote: 'the common law has traditionally taken an aleatory view of negotiations', text: (v) => `${v.t} his "aleatory view" label — use it to frame the English position in 3.1` },
    { item: 4, n: [14, 37], loc: (n) => `para ${n}`, text: (v) => `<h2>Cobbe</h2><p>Lord Scott, ${v.p}: no proprietary estoppel where both sides knew the agreement in principle was not binding; hoping for a <em>future</em> contract is not enough ${v.t}</p><p>cf. Thorner v Major</p>` },
    { item: 7, n: [175, 199], loc: (n) => `Rn. ${n}`, text: (v) => `For the German side, Emmerich's commentary on § 311 BGB in the Münchener Kommentar (${v.k}) treats breaking off as culpa in contrahendo only where one side created a confident expectation that the contract would certainly be concluded — that is at ${v.p} ${v.t}.` },
    { item: 2, n: [402, 446], loc: (n) => `${n}`, text: (v) => `Culpa in contrahendo, as Jhering conceived it, protected the negative interest — reliance, not expectation — and it is here that the German and the American experience converge ${v.t}.` },
    { item: 8, n: [229, 232], loc: (n) => `at ${n}`, text: (v) => `Regalian (${v.k}) ${v.p}: Rattee J says costs run up while things are "subject to contract" are at the risk of whoever incurs them, no restitution ${v.t}. that's basically my English baseline` },
    { item: 7, n: [175, 199], loc: (n) => `Rn. ${n}`, text: (v) => `quick correction on the MüKo point — Jonas checked the print volume and the "sicherer Vertragsschluss" passage is at ${v.p}, not ${v.o} as you had it (${v.k}) ${v.t}` },
    { item: 6, n: [108, 140], loc: (n) => `${n}`, quote: 'the French courts have long treated an abusive rupture of negotiations as a fault giving rise to delictual liability', text: (v) => `${v.t} French baseline; check what changed with art 1112 (2016)` },
    { item: 9, n: [1200, 1204], loc: (n) => `at ${n}`, text: (v) => `<p><b>Blackpool Aero Club</b> (CA) — Bingham LJ ${v.p}: an invitation to tender can carry an implied promise to consider conforming tenders ${v.t}. Useful as the "contract before the contract" device.</p>` },
    { item: 11, n: [44, 47], loc: (n) => `[${n}]`, text: (v) => `The BAILII hit that matters is MSC v Cottonex, already in your library as ${v.k}: Moore-Bick LJ at ${v.p} doubts there is any general duty of good faith to be read into commercial contracts ${v.t}.` },
  ],
};

// ---------------------------------------------------------------------------------------------------
// Italian: a doctoral student in Bologna; art. 1337 c.c., contatto sociale, the Consiglio di Stato.
const MON_IT = ['', 'gennaio', 'febbraio', 'marzo', 'aprile', 'maggio', 'giugno', 'luglio', 'agosto', 'settembre', 'ottobre', 'novembre', 'dicembre'];
const WD_IT = ['domenica', 'lunedì', 'martedì', 'mercoledì', 'giovedì', 'venerdì', 'sabato'];
const IT = {
  locale: 'it-IT', user: { id: 9120455, name: 'giulia.ferraresi' }, tagName: 'cap2-giurisprudenza', scanned: 7, crossref: 4,
  topics: ['recesso ingiustificato dalle trattative', 'affidamento', 'interesse negativo', 'contatto sociale qualificato', 'lettere di intenti', 'responsabilità precontrattuale della PA', 'obblighi di informazione', 'buona fede nelle trattative', 'contratto valido ma sconveniente', 'perdita di chance'],
  items: [
    { type: 'case', label: 'Cass. 14188/2016', title: 'Cass. civ., sez. I, 12 luglio 2016, n. 14188', court: 'Corte di cassazione, sez. I civile', date: '2016-07-12', docket: '14188/2016', pages: [1, 22], cite: 'Cass. civ., sez. I, 12 luglio 2016, n. 14188' },
    { type: 'book', label: 'Benatti', title: 'La responsabilità precontrattuale', creators: [['Benatti', 'Francesco']], date: '1963', publisher: 'Giuffrè', place: 'Milano', pages: [1, 168], cite: 'F. Benatti, La responsabilità precontrattuale, Milano, Giuffrè, 1963' },
    { type: 'statute', label: 'art. 1337 c.c.', title: 'Codice civile', code: 'c.c.', section: 'art. 1337', date: '1942-03-16', pages: [1, 4], cite: 'art. 1337 c.c.' },
    { type: 'book', label: 'Sacco–De Nova', title: 'Il contratto', creators: [['Sacco', 'Rodolfo'], ['De Nova', 'Giorgio']], edition: '4', date: '2016', publisher: 'UTET Giuridica', place: 'Torino', pages: [1, 1620], cite: 'R. Sacco, G. De Nova, Il contratto, 4ª ed., Torino, UTET, 2016' },
    { type: 'journalArticle', label: 'Castronovo', title: 'Vaga culpa in contrahendo: invalidità responsabilità e la ricerca della chance perduta', creators: [['Castronovo', 'Carlo']], journal: 'Europa e diritto privato', abbr: 'Eur. dir. priv.', date: '2010', pages: [1, 51], cite: 'C. Castronovo, Vaga culpa in contrahendo: invalidità responsabilità e la ricerca della chance perduta, in Eur. dir. priv., 2010, 1 ss.' },
    { type: 'case', label: 'Cass. S.U. 26724/2007', title: 'Cass. civ., sez. un., 19 dicembre 2007, n. 26724', court: 'Corte di cassazione, sezioni unite civili', date: '2007-12-19', docket: '26724/2007', pages: [1, 34], cite: 'Cass. civ., sez. un., 19 dicembre 2007, n. 26724' },
    { type: 'case', label: 'Ad. plen. 5/2018', title: 'Cons. Stato, ad. plen., 4 maggio 2018, n. 5', court: 'Consiglio di Stato, Adunanza plenaria', date: '2018-05-04', docket: '5/2018', pages: [1, 48], cite: 'Cons. Stato, ad. plen., 4 maggio 2018, n. 5' },
    { type: 'journalArticle', label: 'Mengoni', title: 'Sulla natura della responsabilità precontrattuale', creators: [['Mengoni', 'Luigi']], journal: 'Rivista del diritto commerciale', abbr: 'Riv. dir. comm.', volume: 'LIV', date: '1956', pages: [360, 370], cite: 'L. Mengoni, Sulla natura della responsabilità precontrattuale, in Riv. dir. comm., 1956, II, 360 ss.' },
    { type: 'book', label: 'Patti', title: 'Responsabilità precontrattuale e contratti standard. Artt. 1337-1342', creators: [['Patti', 'Guido'], ['Patti', 'Salvatore']], series: 'Il Codice Civile. Commentario', date: '1993', publisher: 'Giuffrè', place: 'Milano', pages: [1, 412], cite: 'G. Patti, S. Patti, Responsabilità precontrattuale e contratti standard, Milano, Giuffrè, 1993' },
    { type: 'case', label: 'Cass. 27648/2011', title: 'Cass. civ., sez. I, 20 dicembre 2011, n. 27648', court: 'Corte di cassazione, sez. I civile', date: '2011-12-20', docket: '27648/2011', pages: [1, 16], cite: 'Cass. civ., sez. I, 20 dicembre 2011, n. 27648' },
    { type: 'bookSection', label: 'Scognamiglio', title: 'Dei contratti in generale. Art. 1321-1352', creators: [['Scognamiglio', 'Renato']], bookTitle: 'Commentario del Codice Civile Scialoja-Branca', date: '1970', publisher: 'Zanichelli', place: 'Bologna', pages: [1, 620], cite: 'R. Scognamiglio, Dei contratti in generale, in Comm. Scialoja-Branca, Bologna-Roma, 1970' },
    { type: 'book', label: 'Cartwright–Hesselink', title: 'Precontractual Liability in European Private Law', creators: [['Cartwright', 'John'], ['Hesselink', 'Martijn W']], editors: true, date: '2008', publisher: 'Cambridge University Press', place: 'Cambridge', pages: [1, 520], lang: 'en', cite: 'J. Cartwright, M. Hesselink (eds.), Precontractual Liability in European Private Law, Cambridge, CUP, 2008' },
    { type: 'case', label: 'Cass. 7545/2023', title: 'Cass. civ., sez. III, 15 marzo 2023, n. 7545', court: 'Corte di cassazione, sez. III civile', date: '2023-03-15', docket: '7545/2023', pages: [1, 18], cite: 'Cass. civ., sez. III, 15 marzo 2023, n. 7545' },
  ],
  designate: [0, 4, 6, 8],
  greet: ['Buongiorno!', 'ciao', 'Eccomi di nuovo', 'buonasera', 'ciao ciao', 'Rieccomi,', 'Salve!'],
  sorry: ['scusa se sono sparita, settimana di esami', 'scusami, ieri ho scritto di fretta dal telefono', 'perdona il disordine', 'scusa, ero a ricevimento studenti'],
  chatter: [
    'in biblioteca fa un freddo cane', 'il treno per Bologna era in ritardo di 40 minuti, come sempre', 'ho appena finito il terzo caffè',
    "stasera c'è la partita, quindi ritmo ridotto", 'il gatto ha deciso di dormire sulla tastiera', 'domenica pranzo dai miei a Modena, tortellini obbligatori',
    'la sala lettura chiude alle 19 oggi, uffa', 'sciopero dei mezzi, lavoro da casa',
  ],
  thanks: ['grazie mille!', 'perfetto, grazie', 'ottimo', 'sei un tesoro, grazie', 'va benissimo così'],
  social: ['Figurati! A presto.', 'Prego, quando vuoi riprendiamo.', 'Di nulla, buon lavoro.'],
  joiners: [' ', ' ', '\n\n', ' — ', ' ... '],
  ask: {
    chat: [(v) => `come spiegheresti ${v.topic} a un commissario che conosce solo il diritto inglese?`, (v) => `secondo te ha senso dedicare un paragrafo a ${v.topic}?`, (v) => `mi riassumi lo stato del dibattito su ${v.topic}?`, () => 'che ne pensi della scaletta che ti ho mandato?', (v) => `come collegheresti ${v.a} e ${v.b}?`],
    search: [(v) => `cerca in Zotero cosa ho su ${v.topic}`, (v) => `mi trovi ${v.a} nella libreria?`, (v) => `fammi vedere le voci su ${v.topic}`],
    fulltext: [(v) => `puoi leggere ${v.a} e dirmi cosa dice su ${v.topic}?`, (v) => `apri il pdf di ${v.a} per favore`],
    annotation: [(v) => `cosa avevo evidenziato in ${v.a}?`, (v) => `mi mostri le mie annotazioni su ${v.a}?`],
    note: [(v) => `recupera le mie note su ${v.a}`, (v) => `cosa avevo scritto nelle note di ${v.a}?`],
    cite: [(v) => `mi formatti ${v.a} e ${v.b} per le note?`, (v) => `mi serve la citazione completa di ${v.a}`],
    dynamic: [(v) => `cerca su DeJure qualcosa di recente su ${v.topic}`, (v) => `c'è giurisprudenza nuova su ${v.topic}? guarda su DeJure`],
  },
  reply: [
    (v) => `Su ${v.topic} il punto decisivo è se l'affidamento della controparte fosse ragionevole; la qualificazione viene dopo.`,
    (v) => `Tratterei ${v.topic} in chiave funzionale: chi sopporta i costi sprecati, e quando il rischio si sposta. ${v.a} è un buon esempio.`,
    (v) => `La commissione chiederà perché ${v.a} conti al di là del caso concreto: una frase sulla sua ricezione successiva aiuterebbe.`,
    () => 'La struttura regge. Sposterei la parte tedesca dopo quella italiana, così il contrasto si vede meglio.',
    (v) => `${v.a} e ${v.b} vanno in direzioni un po' diverse su questo punto: basta una nota, non un paragrafo.`,
  ],
  onSearch: [(v) => `Voci pertinenti trovate nella libreria: ${v.n}.`, (v) => `Ho cercato nella libreria; il primo risultato è ${v.a}.`],
  onRead: [(v) => `Ho letto il testo indicizzato di ${v.a} (pagine lette: ${v.n}).`, (v) => `Ho scorso il testo di ${v.a}.`],
  ack: ['Preso nota.', 'Ok, ricevuto.', 'Va bene, ne terrò conto.', 'Capito.'],
  onAnnot: [(v) => `Annotazioni su ${v.a}: ${v.n}.`, (v) => `Ecco le tue evidenziazioni in ${v.a}.`],
  onNotes: [(v) => `Note collegate a ${v.a}: ${v.n}.`, (v) => `Ecco le tue note su ${v.a}.`],
  onCite: [(v) => `Ecco le citazioni secondo ${v.s}.`, (v) => `Formattate secondo ${v.s}; controlla i numeri di pagina sulla tua copia.`],
  onDyn: [(v) => `Risultati di DeJure mostrati: ${v.n}; i più rilevanti sono in cima.`],
  onError: [(v) => `La chiamata non è andata a buon fine (${v.e}); riprovo tra poco.`, (v) => `Lo strumento ha dato errore (${v.e}), quindi questo passaggio resta in sospeso.`],
  closers: ['Fammi sapere se vuoi approfondire.', 'Dimmi tu come procedere.', 'Se vuoi passo al paragrafo successivo.'],
  filler: [
    () => "La regola dell'art. 1337 c.c. impone alle parti di comportarsi secondo buona fede nello svolgimento delle trattative e nella formazione del contratto.",
    () => 'Il recesso dalle trattative è, di per sé, espressione della libertà negoziale e non costituisce illecito.',
    () => "Occorre invece che la parte abbia suscitato nell'altra un ragionevole affidamento nella conclusione del contratto e receda senza giusta causa.",
    (v) => `In ${v.a} la questione è affrontata nella prospettiva di ${v.topic}, ma senza una presa di posizione netta.`,
    () => "Il danno risarcibile è tradizionalmente circoscritto all'interesse negativo: spese sostenute e occasioni perdute.",
    () => 'La dottrina più recente discute se la responsabilità abbia natura contrattuale, da contatto sociale, o aquiliana.',
    () => 'Dalla qualificazione dipendono il termine di prescrizione e la distribuzione dell’onere della prova.',
    (v) => `Si veda, più ampiamente, ${v.b}, nt. ${v.n}.`,
    () => 'La giurisprudenza amministrativa ha esteso la figura ai rapporti tra privato e pubblica amministrazione nelle procedure di gara.',
    () => "Resta aperta la questione del contratto validamente concluso ma a condizioni diverse da quelle che si sarebbero ottenute senza la scorrettezza.",
    (v) => `Come si vedrà al § ${(v.n % 6) + 1}, le soluzioni concrete divergono meno delle formule.`,
    () => 'La lettera di intenti, di regola, non vincola le parti alla conclusione del contratto definitivo.',
    () => "L'obbligo di informazione riguarda le circostanze che la controparte non è in grado di conoscere con l'ordinaria diligenza.",
  ],
  annotBank: [
    () => ['la libertà di recedere dalle trattative non è illimitata', 'classico'],
    () => ["l'affidamento deve essere incolpevole", 'cfr. Ad. plen.'],
    () => ['le trattative non vincolano, ma obbligano a comportarsi correttamente', ''],
    (v) => ['il danno va commisurato alle spese inutilmente sostenute', `vedi anche ${v.b}`],
    () => ['la responsabilità da contatto sociale qualificato ha natura contrattuale', 'termine decennale!'],
  ],
  noteBank: [
    (v) => `<p>DA FARE: verificare i precedenti citati in ${v.a}</p>`,
    (v) => `<h3>${v.a}</h3><ul><li>fatto: trattative per la cessione di un ramo d'azienda</li><li>esito: rigetto</li></ul>`,
    (v) => `<p>Letto in treno, marginale rispetto a ${v.topic}.</p>`,
    (v) => `<p>Il relatore dice di controllare come ${v.a} viene usato nei manuali (Gazzoni? Roppo?).</p>`,
  ],
  parties: ['Alfa S.r.l.', 'Beta S.p.A.', 'Comune di Lecce', 'Regione Lazio', 'Gamma Costruzioni', 'Delta Immobiliare', 'ASL Napoli 1', 'Fallimento Omega'],
  dyn: {
    name: 'dejure_ricerca',
    query: (v) => ({ testo: v.topic, archivio: 'giurisprudenza', ordina: 'data', righe: 20 }),
    hit: (v) => `Cass. civ., sez. ${['I', 'II', 'III', 'VI'][v.n % 4]}, ${(v.n % 27) + 1} ${MON_IT[(v.n % 12) + 1]} ${2010 + (v.n % 15)}, n. ${1000 + v.n * 53} — ${v.p1} c. ${v.p2} — massima: «...${v.topic}...»`,
    own: (it) => `${it.cite} — già presente nella libreria`,
  },
  dateFormats: [
    (x) => `${WD_IT[x.wd]} ${x.d} ${MON_IT[x.m]}`,
    (x) => `${x.d}/${x.m}`,
    (x) => `${x.d} ${MON_IT[x.m]} ${x.y}`,
  ],
  goal: [
    (v) => `Buongiorno! Sono al secondo anno di dottorato (diritto privato comparato, Bologna) e sto scrivendo il capitolo sulla responsabilità precontrattuale: voglio confrontare il recesso ingiustificato dalle trattative in Italia, Germania e Inghilterra e capire quale danno si risarcisce davvero ${v.t}. Mi aiuti a impostare il lavoro?`,
    (v) => `ripensandoci, il cuore del capitolo non è il confronto tra tre ordinamenti ma la natura della responsabilità (contrattuale, aquiliana, da contatto) e cosa cambia in concreto per prescrizione e onere della prova ${v.t}`,
    (v) => `il prof vuole anche una parte propositiva: devo dire se la teoria del contatto sociale regge o se conviene tornare alla lettura aquiliana ${v.t}`,
  ],
  constraint: [
    (v) => `una cosa importante: solo fonti edite, niente tesi di laurea né materiali di studi legali trovati online ${v.t}`,
    (v) => `e per la giurisprudenza mi limito alla Cassazione, i giudici di merito li lascio perdere ${v.t}`,
    (v) => `il capitolo non deve superare le 60 cartelle, me l'ha detto chiaro il coordinatore ${v.t}`,
    (v) => `cambio di rotta sulla giurisprudenza: il relatore vuole anche le Corti d'appello e il Consiglio di Stato, quindi allarghiamo oltre la Suprema Corte ${v.t}`,
    (v) => `per favore quando riporti una massima riportala testuale, tra virgolette, non riassunta ${v.t}`,
    (v) => `novità sulla lunghezza: il collegio ha tolto il tetto di pagine per i singoli capitoli, conta solo il totale della tesi ${v.t}`,
  ],
  deadline: [
    (v) => `La bozza del capitolo va consegnata al relatore entro ${v.d} ${v.t}.`,
    (v) => `ahimè il relatore parte per un convegno e mi ha anticipato la consegna al ${v.d} ${v.t}`,
    (v) => `buone notizie, proroga! la nuova scadenza per il capitolo completo è il ${v.d} ${v.t}`,
  ],
  style: [
    (v) => `Per le note seguo le norme redazionali della Rivista di diritto civile (autore puntato, titolo in corsivo) ${v.t}`,
    (v) => `cambio stile citazionale: il capitolo diventa prima un articolo per una rivista inglese, quindi OSCOLA ${v.t}`,
    (v) => `niente, l'articolo lo scrivo dopo; per la tesi torno al formato del dottorato, che è praticamente Chicago con note a piè di pagina ${v.t}`,
  ],
  styleIds: [['rivista-di-diritto-civile', 'le norme della Rivista di diritto civile'], ['oscola', 'OSCOLA'], ['chicago-note-bibliography', 'Chicago (note e bibliografia)']],
  designation: [
    (v) => `La Cassazione 14188/2016 (${v.k}) è la sentenza chiave del capitolo, tienila come riferimento centrale ${v.t}`,
    (v) => `segna anche ${v.k} (Castronovo) come testo di base ${v.t}`,
    (v) => `l'Adunanza plenaria (${v.k}) diventa centrale per la parte sulla PA ${v.t}`,
    (v) => `aggiungi il commentario dei Patti, ${v.k}, alle fonti principali ${v.t}`,
  ],
  retraction: [
    (v) => `sulla 14188 (${v.k}) ho cambiato idea: non è più il perno del capitolo, la tratto come una sentenza tra le altre ${v.t}`,
    (v) => `togli l'Adunanza plenaria (${v.k}) dalle fonti principali, la parte sulla PA finisce in appendice ${v.t}`,
  ],
  failed: [
    (v) => `Ho provato a estrarre il testo dalla scansione del saggio di Mengoni (1956), ma l'OCR restituisce caratteri senza senso: la scansione è troppo sbiadita, per quel saggio serve un'altra copia ${v.t}.`,
    (v) => `ho provato a cercare "culpa in contrahendo" su Italgiure ma esce di tutto, migliaia di risultati inutili, lascio perdere quella strada ${v.t}`,
    (v) => `La ricerca su DeJure non è andata a buon fine: il server non ha risposto entro il timeout per tre volte ${v.t}.`,
    (v) => `Ho tentato di classificare le sentenze secondo lo schema contrattuale / extracontrattuale, ma metà delle decisioni non prende posizione: la griglia non funziona e l'ho abbandonata ${v.t}.`,
    (v) => `Il recupero automatico dei metadati dell'articolo di Castronovo tramite DOI non ha funzionato, Crossref non lo conosce: l'ho inserito a mano ${v.t}.`,
  ],
  decision: [
    (v) => `decidiamo così: partiamo dai casi concreti (recesso tardivo, trattative parallele, informazioni riservate) e non dalle categorie dogmatiche ${v.t}`,
    (v) => `Terrò le citazioni tedesche in lingua originale con la tua traduzione in nota, come concordato ${v.t}.`,
    (v) => `ok ho deciso, il secondo termine di paragone è l'Inghilterra e non la Francia ${v.t}`,
    (v) => `D'ora in poi ordino la tabella delle sentenze per data e non per sezione, così si vede l'evoluzione verso il contatto sociale ${v.t}.`,
    (v) => `conclusione presa: sostengo la natura contrattuale da contatto, con risarcimento limitato all'interesse negativo ${v.t}`,
  ],
  task: [
    (v) => `quando hai tempo mi metti il tag cap2-giurisprudenza su tutte le sentenze nella libreria? ${v.t}`,
    (v) => `Preparo una tabella comparativa di una pagina (Italia / Germania / Inghilterra) su chi sopporta i costi delle trattative fallite ${v.t}.`,
    (v) => `promemoria: devo ancora verificare se la 14188 è stata ripresa dalle Sezioni Unite ${v.t}`,
    (v) => `mi raccogli le sentenze del Consiglio di Stato sulla responsabilità precontrattuale della PA in una collezione a parte? ${v.t}`,
    (v) => `Come prossimo passo ricontrollo tutti i riferimenti di pagina del § 2.2 sulle edizioni che hai in libreria ${v.t}.`,
  ],
  taskDone: [
    (v) => `Fatto: ho aggiunto il tag cap2-giurisprudenza a ${v.n} sentenze ${v.t}.`,
    (v) => `la tabella comparativa l'ho già messa nel capitolo, grazie ${v.t}`,
    (v) => `La collezione con le decisioni del Consiglio di Stato è pronta, contiene nove sentenze ${v.t}.`,
  ],
  hypothesis: [
    (v) => `secondo me i giudici arrivano già a tutelare l'interesse positivo senza dirlo, gonfiando la perdita di chance ${v.t}`,
    (v) => `Un'ipotesi da verificare: dopo l'Adunanza plenaria del 2018 anche i giudici civili potrebbero estendere la tutela dell'affidamento alle trattative con la PA ${v.t}.`,
    (v) => `forse in Germania il § 311 BGB ha reso la culpa in contrahendo meno creativa che da noi? non so ${v.t}`,
    (v) => `ho il sospetto che la dottrina degli anni Sessanta non conoscesse ancora il contatto sociale ${v.t}`,
  ],
  closed: [
    (v) => `...e comunque avevo ragione sulla chance: nelle ultime sentenze il danno liquidato supera di fatto le spese ${v.t}`,
    (v) => `Le sentenze civili successive al 2018 non seguono l'Adunanza plenaria su questo punto, quindi l'ipotesi dell'estensione non regge ${v.t}.`,
    (v) => `sul contatto sociale mi sbagliavo, Scognamiglio ne parla già nel '70, ipotesi da buttare ${v.t}`,
  ],
  finding: [
    { item: 1, n: [40, 90], loc: (n) => `p. ${n}`, text: (v) => `Benatti (${v.k}) a ${v.p} sostiene che l'art. 1337 tutela l'affidamento nella conclusione del contratto e che il risarcimento è limitato all'interesse negativo ${v.t}.` },
    { item: 11, n: [430, 480], loc: (n) => `${n}`, text: (v) => `Italian law stands out for locating the duty of good faith in negotiations in an express code provision, art. 1337, which the courts have applied generously ${v.t}.` },
    { item: 0, n: [3, 9], loc: (n) => `punto ${n}.2`, text: (v) => `allora, la Cassazione 14188/2016 (${v.k}) al ${v.p} della motivazione dice chiaramente che la responsabilità precontrattuale è da contatto sociale qualificato, quindi contrattuale, prescrizione decennale ${v.t}` },
    { item: 4, n: [12, 30], loc: (n) => `${n}`, quote: 'la culpa in contrahendo è la prima e più nota figura di responsabilità da contatto', text: (v) => `${v.t} usare per l'introduzione al § 2.3` },
    { item: 6, n: [30, 52], loc: (n) => `par. ${n}`, text: (v) => `<p><strong>Ad. plen. 5/2018</strong> — ${v.p}: la PA risponde a titolo precontrattuale anche prima dell'aggiudicazione, se ha leso l'affidamento del privato ${v.t}</p><p>(verificare: affidamento incolpevole)</p>` },
    { item: 3, n: [600, 640], loc: (n) => `p. ${n}`, text: (v) => `Nel trattato di Sacco e De Nova (${v.k}), a ${v.p}, il recesso dalle trattative è illecito solo se manca una giusta causa e la controparte aveva un affidamento ragionevole ${v.t}.` },
    { item: 8, n: [40, 120], loc: (n) => `${n}`, text: (v) => `La giurisprudenza prevalente esclude che il recesso dalle trattative sia di per sé illecito: occorre che l'altra parte abbia confidato, senza colpa, nella conclusione del contratto ${v.t}.` },
    { item: 5, n: [18, 26], loc: (n, m) => `pp. ${n}-${m}`, text: (v) => `ho trovato il passaggio delle Sezioni Unite (${v.k}) sulla distinzione tra regole di validità e regole di comportamento, ${v.p} della sentenza ${v.t}` },
    { item: 3, n: [600, 640], loc: (n) => `p. ${n}`, text: (v) => `piccola correzione: il passo di Sacco–De Nova (${v.k}) sul recesso senza giusta causa è a ${v.p}, non a ${v.o} — ho controllato sul cartaceo in biblioteca ${v.t}` },
    { item: 10, n: [200, 260], loc: (n) => `${n}`, quote: 'le trattative non vincolano, ma impongono un comportamento secondo buona fede', text: (v) => `${v.t} citazione classica, controllare l'edizione` },
    { item: 9, n: [5, 12], loc: (n) => `punto ${n}`, text: (v) => `<p>Cass. 27648/2011, ${v.p}: il danno risarcibile comprende le spese sostenute e le occasioni perdute, non i vantaggi del contratto mancato ${v.t}</p>` },
    { item: 12, n: [4, 9], loc: (n) => `punto ${n}`, text: (v) => `Su DeJure il risultato più pertinente è Cass. 7545/2023, che hai già in Zotero (${v.k}): al ${v.p} la Corte quantifica l'interesse negativo includendo la perdita di altre occasioni d'affari ${v.t}.` },
  ],
};

// ---------------------------------------------------------------------------------------------------
// Russian: a postgraduate in Moscow; art. 434.1 of the Civil Code and Plenum resolution No. 7.
const MON_RU_GEN = ['', 'января', 'февраля', 'марта', 'апреля', 'мая', 'июня', 'июля', 'августа', 'сентября', 'октября', 'ноября', 'декабря'];
const WD_RU = ['воскресенье', 'понедельник', 'вторник', 'среда', 'четверг', 'пятница', 'суббота'];
const RU = {
  locale: 'ru-RU', user: { id: 6618302, name: 'e.voronina' }, tagName: 'гл2-практика', scanned: 8, crossref: 4,
  topics: ['недобросовестное ведение переговоров', 'внезапный выход из переговоров', 'негативный интерес', 'соглашение о порядке ведения переговоров', 'заверения об обстоятельствах', 'преддоговорная ответственность', 'раскрытие конфиденциальной информации', 'параллельные переговоры', 'упущенная выгода', 'culpa in contrahendo'],
  items: [
    { type: 'statute', label: 'ст. 434.1 ГК РФ', title: 'Гражданский кодекс Российской Федерации (часть первая)', code: 'ГК РФ', section: 'ст. 434.1', date: '1994-11-30', pages: [1, 6], cite: 'Гражданский кодекс Российской Федерации (часть первая) от 30.11.1994 № 51-ФЗ, ст. 434.1' },
    { type: 'case', label: 'Пленум ВС № 7', title: 'Постановление Пленума Верховного Суда РФ от 24.03.2016 № 7 «О применении судами некоторых положений Гражданского кодекса Российской Федерации об ответственности за нарушение обязательств»', court: 'Пленум Верховного Суда РФ', date: '2016-03-24', docket: '№ 7', pages: [1, 38], cite: 'Постановление Пленума Верховного Суда РФ от 24.03.2016 № 7' },
    { type: 'book', label: 'Карапетов (ред.)', title: 'Договорное и обязательственное право (общая часть): постатейный комментарий к статьям 307–453 Гражданского кодекса Российской Федерации', creators: [['Карапетов', 'А. Г.']], editors: true, date: '2017', publisher: 'М-Логос', place: 'Москва', pages: [1, 1120], cite: 'Договорное и обязательственное право (общая часть): постатейный комментарий к статьям 307–453 ГК РФ / отв. ред. А. Г. Карапетов. М.: М-Логос, 2017' },
    { type: 'book', label: 'Кучер', title: 'Теория и практика преддоговорного этапа: юридический аспект', creators: [['Кучер', 'А. Н.']], date: '2005', publisher: 'Статут', place: 'Москва', pages: [1, 363], cite: 'Кучер А. Н. Теория и практика преддоговорного этапа: юридический аспект. М.: Статут, 2005' },
    { type: 'journalArticle', label: 'Егоров', title: 'Преддоговорная ответственность: сравнительно-правовой очерк', creators: [['Егоров', 'А. В.']], journal: 'Вестник экономического правосудия Российской Федерации', issue: '9', date: '2016', pages: [125, 160], cite: 'Егоров А. В. Преддоговорная ответственность: сравнительно-правовой очерк // Вестник экономического правосудия РФ. 2016. № 9. С. 125–160' },
    { type: 'book', label: 'Цвайгерт и Кётц', title: 'Введение в сравнительное правоведение в сфере частного права. Т. 2', creators: [['Цвайгерт', 'К.'], ['Кётц', 'Х.']], date: '2000', publisher: 'Международные отношения', place: 'Москва', pages: [1, 512], cite: 'Цвайгерт К., Кётц Х. Введение в сравнительное правоведение в сфере частного права. Т. 2. М.: Междунар. отношения, 2000' },
    { type: 'case', label: 'Определение СКЭС 305-ЭС18-20410', title: 'Определение Судебной коллегии по экономическим спорам Верховного Суда РФ от 12.03.2019 № 305-ЭС18-20410', court: 'Верховный Суд РФ', date: '2019-03-12', docket: '№ 305-ЭС18-20410', pages: [1, 14], cite: 'Определение СКЭС ВС РФ от 12.03.2019 № 305-ЭС18-20410' },
    { type: 'thesis', label: 'Полякова, дисс.', title: 'Преддоговорная ответственность в российском и зарубежном гражданском праве', creators: [['Полякова', 'С. С.']], thesisType: 'дис. … канд. юрид. наук', university: 'МГУ имени М. В. Ломоносова', place: 'Москва', date: '2019', pages: [1, 214], cite: 'Полякова С. С. Преддоговорная ответственность в российском и зарубежном гражданском праве: дис. … канд. юрид. наук. М., 2019' },
    { type: 'book', label: 'Иоффе', title: 'Обязательственное право', creators: [['Иоффе', 'О. С.']], date: '1975', publisher: 'Юридическая литература', place: 'Москва', pages: [1, 880], cite: 'Иоффе О. С. Обязательственное право. М.: Юрид. лит., 1975' },
    { type: 'statute', label: 'Принципы УНИДРУА', title: 'Принципы международных коммерческих договоров УНИДРУА 2016', section: 'ст. 2.1.15', date: '2016', pages: [1, 90], cite: 'Принципы международных коммерческих договоров УНИДРУА 2016, ст. 2.1.15' },
    { type: 'journalArticle', label: 'Сарбаш', title: 'Недобросовестное ведение переговоров', creators: [['Сарбаш', 'С. В.']], journal: 'Закон', issue: '4', date: '2018', pages: [40, 58], cite: 'Сарбаш С. В. Недобросовестное ведение переговоров // Закон. 2018. № 4. С. 40–58' },
    { type: 'book', label: 'Cartwright & Hesselink', title: 'Precontractual Liability in European Private Law', creators: [['Cartwright', 'John'], ['Hesselink', 'Martijn W']], editors: true, date: '2008', publisher: 'Cambridge University Press', place: 'Cambridge', pages: [1, 520], lang: 'en', cite: 'Precontractual Liability in European Private Law / ed. by J. Cartwright, M. Hesselink. Cambridge: CUP, 2008' },
    { type: 'case', label: 'Постановление АС МО А40-183520/2020', title: 'Постановление Арбитражного суда Московского округа от 17.06.2021 по делу № А40-183520/2020', court: 'Арбитражный суд Московского округа', date: '2021-06-17', docket: 'А40-183520/2020', pages: [1, 10], cite: 'Постановление АС Московского округа от 17.06.2021 по делу № А40-183520/2020' },
  ],
  designate: [1, 2, 7, 5],
  greet: ['Здравствуйте!', 'Добрый день', 'Привет', 'снова я', 'Доброе утро!', 'Добрый вечер,'],
  sorry: ['извините, что пропала, была сессия', 'простите, вчера писала с телефона, там опечатки', 'извините за сумбур', 'простите, отвлекли на кафедре'],
  chatter: [
    'в читальном зале опять холодно, сижу в шарфе', 'метро встало на полчаса, классика', 'третья чашка кофе за утро',
    'кот улёгся прямо на клавиатуру', 'в выходные еду к родителям в Тверь', 'на кафедре опять сломался принтер', 'за окном снег, а у нас апрель',
  ],
  thanks: ['спасибо большое!', 'отлично, спасибо', 'супер', 'благодарю, очень помогли', 'то, что нужно'],
  social: ['Пожалуйста! Пишите, когда продолжим.', 'Рад помочь.', 'Не за что, удачи с главой.'],
  joiners: [' ', ' ', '\n\n', ' — ', '\n'],
  ask: {
    chat: [(v) => `как объяснить ${v.topic} оппоненту, который знает только английское право?`, (v) => `стоит ли отдельный параграф посвящать теме «${v.topic}»?`, (v) => `напомните, где сейчас дискуссия про ${v.topic}?`, () => 'что скажете про план, который я прислала?', (v) => `как связать «${v.a}» и «${v.b}»?`],
    search: [(v) => `найдите в Zotero, что у меня есть по теме «${v.topic}»`, (v) => `поищите в библиотеке «${v.a}»`, (v) => `что у меня есть про ${v.topic}?`],
    fulltext: [(v) => `прочитайте, пожалуйста, «${v.a}» и выпишите, что там про ${v.topic}`, (v) => `откройте pdf: ${v.a}`],
    annotation: [(v) => `что я выделяла в «${v.a}»?`, (v) => `покажите мои аннотации: ${v.a}`],
    note: [(v) => `достаньте мои заметки к «${v.a}»`, (v) => `что я писала в заметках к записи «${v.a}»?`],
    cite: [(v) => `оформите «${v.a}» и «${v.b}» для сносок`, (v) => `нужна полная ссылка на «${v.a}»`],
    dynamic: [(v) => `посмотрите в «КонсультантПлюс» свежую практику про ${v.topic}`, (v) => `есть новая практика по теме «${v.topic}»? поищите в Консультанте`],
  },
  reply: [
    (v) => `По теме «${v.topic}» решающий вопрос — было ли доверие контрагента разумным; квалификация вторична.`,
    (v) => `Я бы рассматривал ${v.topic} функционально: кто несёт напрасные расходы и когда риск переходит на другую сторону. ${v.a} здесь хорошая иллюстрация.`,
    (v) => `Оппоненты наверняка спросят, почему ${v.a} важен за пределами фабулы дела; одна фраза о его дальнейшей судьбе в практике поможет.`,
    () => 'Структура рабочая. Немецкий материал я бы поставил после российского, так контраст заметнее.',
    (v) => `${v.a} и ${v.b} здесь расходятся, но это материал для сноски, а не для параграфа.`,
  ],
  onSearch: [(v) => `Подходящих записей в библиотеке: ${v.n}.`, (v) => `Найдено записей: ${v.n}; первая — ${v.a}.`],
  onRead: [(v) => `Просмотрел текст: ${v.a} (страниц: ${v.n}).`, (v) => `Прочитал проиндексированный текст (${v.a}, страниц: ${v.n}).`],
  ack: ['Принято.', 'Понял, спасибо.', 'Хорошо, учту.', 'Записал.'],
  onAnnot: [(v) => `Аннотаций к «${v.a}»: ${v.n}.`, (v) => `Вот ваши выделения в «${v.a}».`],
  onNotes: [(v) => `Под записью «${v.a}» заметок: ${v.n}.`],
  onCite: [(v) => `Оформил по стандарту: ${v.s}.`, (v) => `Вот ссылки (${v.s}); страницы сверьте, пожалуйста, с вашим экземпляром.`],
  onDyn: [(v) => `Выдача «КонсультантПлюс» (показано документов: ${v.n}); самые релевантные — сверху.`],
  onError: [(v) => `Запрос не прошёл (${v.e}); попробую позже.`, (v) => `Инструмент вернул ошибку (${v.e}), этот шаг не выполнен.`],
  closers: ['Скажите, если нужно подробнее.', 'Продолжить со следующим параграфом?', 'Могу копнуть глубже по любому пункту.'],
  filler: [
    () => 'Граждане и юридические лица свободны в проведении переговоров о заключении договора и не несут ответственности за то, что соглашение не достигнуто.',
    () => 'Вместе с тем при ведении переговоров стороны обязаны действовать добросовестно, в частности не допускать вступления в переговоры без намерения достичь соглашения.',
    () => 'Недобросовестным является и предоставление стороне неполной или недостоверной информации, в том числе умолчание об обстоятельствах, которые должны быть доведены до её сведения.',
    (v) => `В деле ${v.a} суд подошёл к вопросу через призму темы «${v.topic}», хотя стороны этот довод подробно не обсуждали.`,
    () => 'Убытки, подлежащие возмещению, ограничиваются расходами на ведение переговоров и утратой возможности заключить договор с третьим лицом.',
    () => 'В доктрине продолжается спор о том, является ли эта ответственность договорной, деликтной или особой, преддоговорной.',
    () => 'От квалификации зависят срок исковой давности, бремя доказывания и возможность ограничить ответственность соглашением.',
    (v) => `Подробнее см.: ${v.b}, прим. ${v.n}.`,
    () => 'Немецкое право пришло к тому же результату через судебную практику задолго до кодификации в § 311 BGB.',
    () => 'Английское право, напротив, принципиально отказывается признавать общую обязанность вести переговоры добросовестно.',
    (v) => `Как будет показано в § ${(v.n % 5) + 1}, практические результаты различаются меньше, чем доктринальные формулы.`,
    () => 'Соглашение о порядке ведения переговоров может установить неустойку за их необоснованное прекращение.',
  ],
  annotBank: [
    () => ['стороны свободны в проведении переговоров', 'стандартная формула'],
    () => ['доверие должно быть разумным', 'ср. Vertrauenshaftung'],
    () => ['само по себе прекращение переговоров не является недобросовестным', ''],
    (v) => ['убытки ограничены расходами на переговоры', `см. также ${v.b}`],
    () => ['ответственность носит внедоговорный характер', 'п. 19 Пленума!'],
  ],
  noteBank: [
    (v) => `<p>СДЕЛАТЬ: проверить, как ${v.a} цитируется в последующей практике</p>`,
    (v) => `<h3>${v.a}</h3><ul><li>фабула: переговоры о продаже доли</li><li>итог: в иске отказано</li></ul>`,
    (v) => `<p>Прочитала в электричке, к теме «${v.topic}» отношение косвенное.</p>`,
    (v) => `<p>Руководитель: посмотреть, как ${v.a} используется в учебниках (Суханов? Витрянский?).</p>`,
  ],
  parties: ['ООО «Альфа»', 'АО «Вектор»', 'ПАО «Северсталь»', 'ООО «СтройИнвест»', 'ИП Кузнецов', 'АО «ТрансЛогистик»', 'ООО «Ромашка»', 'ГУП «Мосгортранс»'],
  dyn: {
    name: 'consultantplus_search',
    query: (v) => ({ query: v.topic, section: 'Судебная практика', sort: 'date', limit: 20 }),
    hit: (v) => `Постановление Арбитражного суда ${['Московского', 'Северо-Западного', 'Уральского', 'Поволжского'][v.n % 4]} округа от ${pad2((v.n % 27) + 1)}.${pad2((v.n % 12) + 1)}.${2017 + (v.n % 8)} по делу № А${40 + (v.n % 30)}-${10_000 + v.n * 97}/${2016 + (v.n % 8)} (${v.p1} против ${v.p2}) — «...${v.topic}...»`,
    own: (it) => `${it.cite} — есть в вашей библиотеке`,
  },
  dateFormats: [
    (x) => `${x.d} ${MON_RU_GEN[x.m]} (${WD_RU[x.wd]})`,
    (x) => `${pad2(x.d)}.${pad2(x.m)}`,
    (x) => `${x.d} ${MON_RU_GEN[x.m]} ${x.y} г.`,
  ],
  goal: [
    (v) => `Здравствуйте! Я аспирантка кафедры гражданского права, пишу главу диссертации о преддоговорной ответственности: сравниваю ст. 434.1 ГК РФ с немецкой culpa in contrahendo и английским подходом, хочу понять, какие убытки реально взыскиваются при недобросовестном выходе из переговоров ${v.t}. Поможете выстроить главу?`,
    (v) => `подумала ещё: главный вопрос главы — не сравнение трёх систем, а природа этой ответственности (договорная, деликтная или особая) и что из этого следует для исковой давности и бремени доказывания ${v.t}`,
    (v) => `научный руководитель хочет, чтобы в конце главы были предложения de lege ferenda — как поправить ст. 434.1, так что это теперь тоже часть работы ${v.t}`,
  ],
  constraint: [
    (v) => `важно: используем только опубликованные источники — никаких студенческих работ и статей с юридических порталов ${v.t}`,
    (v) => `судебную практику берём только Верховного Суда, нижестоящие суды не нужны ${v.t}`,
    (v) => `глава должна уложиться в два авторских листа, это жёсткое требование кафедры ${v.t}`,
    (v) => `поменялось с практикой: руководитель хочет видеть и окружные арбитражные суды, так что одним ВС не ограничиваемся ${v.t}`,
    (v) => `и пожалуйста, цитаты из судебных актов приводите дословно, в кавычках, не пересказывайте ${v.t}`,
    (v) => `про объём: кафедра теперь считает только общий объём диссертации, отдельного лимита на главу больше нет ${v.t}`,
  ],
  deadline: [
    (v) => `Черновик главы нужно сдать руководителю до ${v.d} ${v.t}.`,
    (v) => `руководитель уезжает на конференцию, поэтому срок сдвинули раньше — теперь до ${v.d} ${v.t}`,
    (v) => `ура, дали отсрочку! полный текст главы теперь нужен к ${v.d} ${v.t}`,
  ],
  style: [
    (v) => `Сноски оформляем по ГОСТ Р 7.0.5-2008 ${v.t}`,
    (v) => `меняем оформление: кафедра перешла на ГОСТ Р 7.0.100–2018, так что ссылки теперь по нему ${v.t}`,
    (v) => `главу отдаю в «Вестник гражданского права» как статью, поэтому ссылки делаем по правилам журнала ${v.t}`,
  ],
  styleIds: [['gost-r-7-0-5-2008', 'ГОСТ Р 7.0.5-2008'], ['gost-r-7-0-100-2018', 'ГОСТ Р 7.0.100–2018'], ['vestnik-grazhdanskogo-prava', 'правила «Вестника гражданского права»']],
  designation: [
    (v) => `Постановление Пленума № 7 (${v.k}) — центральный источник главы, держите его в фокусе ${v.t}`,
    (v) => `отметьте комментарий под редакцией Карапетова (${v.k}) как основной ${v.t}`,
    (v) => `диссертация Поляковой, ${v.k}, теперь мой главный ориентир по практике ${v.t}`,
    (v) => `добавьте Цвайгерта и Кётца (${v.k}) к ключевым источникам ${v.t}`,
  ],
  retraction: [
    (v) => `по Пленуму № 7 (${v.k}) я передумала — это больше не опорный источник, просто один из многих ${v.t}`,
    (v) => `диссертацию Поляковой (${v.k}) уберите из ключевых, у неё устаревшая выборка дел ${v.t}`,
  ],
  failed: [
    (v) => `Я попробовал распознать скан учебника Иоффе 1975 года, но OCR выдаёт сплошной мусор — скан слишком бледный, так что этот путь закрыт, нужен другой экземпляр ${v.t}.`,
    (v) => `пыталась искать «culpa in contrahendo» в картотеке «Мой арбитр», получила тысячи нерелевантных решений, бросила эту затею ${v.t}`,
    (v) => `Поиск в «КонсультантПлюс» не удался: сервер трижды не ответил за отведённое время ${v.t}.`,
    (v) => `Я пытался разложить решения по схеме «договорная / деликтная ответственность», но половина судов требование вообще не квалифицирует — схема не работает, я от неё отказался ${v.t}.`,
    (v) => `Автоматически подтянуть метаданные статьи Егорова по DOI не получилось — Crossref её не находит, пришлось внести вручную ${v.t}.`,
  ],
  decision: [
    (v) => `решили: идём от типовых ситуаций (поздний выход из переговоров, параллельные переговоры, раскрытие конфиденциальной информации), а не от доктринальных категорий ${v.t}`,
    (v) => `Немецкие цитаты я оставляю на языке оригинала, а ваш перевод даю в сноске, как договорились ${v.t}.`,
    (v) => `всё, решила: второй страной для сравнения будет Англия, а не Франция ${v.t}`,
    (v) => `Дальше я упорядочиваю таблицу судебных актов по дате, а не по инстанции, — так видна эволюция после 2015 года ${v.t}.`,
    (v) => `окончательно: отстаиваю деликтную квалификацию с возмещением только негативного интереса ${v.t}`,
  ],
  task: [
    (v) => `когда будет время, поставьте тег гл2-практика на все судебные акты в библиотеке ${v.t}`,
    (v) => `Я подготовлю сравнительную таблицу на одну страницу (Россия / Германия / Англия): кто несёт расходы на сорванные переговоры ${v.t}.`,
    (v) => `напоминание: мне ещё надо проверить, ссылался ли ВС на Пленум № 7 в делах 2022–2024 годов ${v.t}`,
    (v) => `соберите, пожалуйста, постановления окружных арбитражных судов по ст. 434.1 в отдельную коллекцию ${v.t}`,
    (v) => `Следующим шагом я сверю все ссылки на страницы в § 2.2 с изданиями из вашей библиотеки ${v.t}.`,
  ],
  taskDone: [
    (v) => `Готово: тег гл2-практика добавлен к ${v.n} судебным актам ${v.t}.`,
    (v) => `сравнительную таблицу уже вставила в главу, спасибо ${v.t}`,
    (v) => `Коллекция с постановлениями окружных судов готова, в ней одиннадцать актов ${v.t}.`,
  ],
  hypothesis: [
    (v) => `мне кажется, суды на деле взыскивают больше, чем негативный интерес, просто это маскируют ${v.t}`,
    (v) => `Возможная гипотеза: после Пленума № 7 суды начнут применять ст. 434.1 и к переговорам о корпоративных сделках ${v.t}.`,
    (v) => `может быть, немецкий § 311 BGB сделал culpa in contrahendo менее «творческой», чем у нас? не уверена ${v.t}`,
    (v) => `подозреваю, что в советской доктрине преддоговорная ответственность вообще не обсуждалась ${v.t}`,
  ],
  closed: [
    (v) => `...и да, я была права насчёт убытков: в свежих делах суды фактически присуждают больше, чем расходы на переговоры ${v.t}`,
    (v) => `Практика после 2016 года этого не подтверждает: к корпоративным сделкам суды ст. 434.1 не применяют, так что гипотезу можно снимать ${v.t}.`,
    (v) => `насчёт советской доктрины я ошибалась — Иоффе это обсуждает, гипотеза отпадает ${v.t}`,
  ],
  finding: [
    { item: 2, n: [960, 1010], loc: (n) => `с. ${n}`, text: (v) => `В комментарии под редакцией Карапетова (${v.k}) на ${v.p} прямо сказано, что по ст. 434.1 ГК РФ взыскиваются только убытки в пределах негативного интереса, а не упущенная выгода от несостоявшегося договора ${v.t}.` },
    { item: 3, n: [60, 140], loc: (n) => `${n}`, text: (v) => `Недобросовестным следует признавать не сам выход из переговоров, а выход из них без разумных оснований после того, как контрагента убедили в намерении заключить договор ${v.t}.` },
    { item: 1, n: [19, 21], loc: (n) => `п. ${n}`, text: (v) => `вот, нашла: Пленум № 7 (${v.k}), ${v.p} — там про то, что ответственность по ст. 434.1 внедоговорная и к ней применяются правила главы 59 ${v.t}` },
    { item: 4, n: [126, 158], loc: (n) => `${n}`, quote: 'переговорный процесс сам по себе порождает доверие, подлежащее защите', text: (v) => `${v.t} сравнить с немецкой Vertrauenshaftung` },
    { item: 6, n: [4, 12], loc: (n) => `с. ${n}`, text: (v) => `<p><b>Определение СКЭС</b>, ${v.p}: коллегия указала, что истец не доказал недобросовестность — одного факта прекращения переговоров недостаточно ${v.t}</p>` },
    { item: 5, n: [60, 90], loc: (n) => `с. ${n}`, text: (v) => `У Цвайгерта и Кётца (${v.k}) на ${v.p} английский подход описан как принципиальный отказ от общей обязанности вести переговоры добросовестно ${v.t}.` },
    { item: 7, n: [90, 160], loc: (n) => `${n}`, text: (v) => `Анализ практики арбитражных судов показывает, что иски о возмещении убытков из недобросовестного ведения переговоров удовлетворяются крайне редко, прежде всего из-за трудностей доказывания ${v.t}.` },
    { item: 0, n: [2, 2], loc: (n) => `п. ${n}`, text: (v) => `кстати, в самой ст. 434.1 (${v.k}), ${v.p}, перечислены случаи, когда недобросовестность предполагается, включая внезапное прекращение переговоров без объяснения ${v.t}` },
    { item: 5, n: [60, 90], loc: (n) => `с. ${n}`, text: (v) => `поправка: у Цвайгерта и Кётца (${v.k}) этот пассаж на ${v.p}, а не на ${v.o}, я сверила с бумажным томом ${v.t}` },
    { item: 10, n: [41, 57], loc: (n) => `${n}`, quote: 'ведение переговоров без намерения заключить договор — классический пример злоупотребления', text: (v) => `${v.t} хорошая цитата для § 2` },
    { item: 9, n: [1, 3], loc: (n) => `ст. 2.1.15, комм. ${n}`, text: (v) => `<p>Принципы УНИДРУА, ${v.p}: сторона, которая ведёт или прерывает переговоры недобросовестно, отвечает за убытки, причинённые другой стороне ${v.t}</p>` },
    { item: 12, n: [3, 8], loc: (n) => `с. ${n}`, text: (v) => `В «КонсультантПлюс» нашлось постановление АС Московского округа по делу № А40-183520/2020 — оно уже есть у вас в Zotero (${v.k}); на ${v.p} суд отказал во взыскании упущенной выгоды со ссылкой на Пленум № 7 ${v.t}.` },
  ],
};

// ---------------------------------------------------------------------------------------------------
// Polish: a doctoral student in Kraków; art. 72 § 2 k.c., the Sąd Najwyższy, marginal numbers (Nb).
const MON_PL_GEN = ['', 'stycznia', 'lutego', 'marca', 'kwietnia', 'maja', 'czerwca', 'lipca', 'sierpnia', 'września', 'października', 'listopada', 'grudnia'];
const WD_PL_GEN = ['niedzieli', 'poniedziałku', 'wtorku', 'środy', 'czwartku', 'piątku', 'soboty'];
const PL = {
  locale: 'pl-PL', user: { id: 8051277, name: 'm.zielinska' }, tagName: 'rozdz2-orzecznictwo', scanned: 8, crossref: 4,
  topics: ['zerwanie negocjacji', 'interes negatywny', 'dobre obyczaje w negocjacjach', 'list intencyjny', 'umowa o prowadzenie negocjacji', 'odpowiedzialność przedkontraktowa', 'poufność w negocjacjach', 'negocjacje równoległe', 'utracone korzyści', 'culpa in contrahendo'],
  items: [
    { type: 'statute', label: 'art. 72 § 2 k.c.', title: 'Ustawa z dnia 23 kwietnia 1964 r. – Kodeks cywilny', code: 'k.c.', section: 'art. 72 § 2', date: '1964-04-23', pages: [1, 6], cite: 'Ustawa z dnia 23 kwietnia 1964 r. – Kodeks cywilny, art. 72 § 2' },
    { type: 'book', label: 'Lemkowski', title: 'Odpowiedzialność przedkontraktowa', creators: [['Lemkowski', 'Marcin']], date: '2007', publisher: 'C.H. Beck', place: 'Warszawa', pages: [1, 320], cite: 'M. Lemkowski, Odpowiedzialność przedkontraktowa, Warszawa 2007' },
    { type: 'bookSection', label: 'Machnikowski (komentarz)', title: 'Komentarz do art. 72', creators: [['Machnikowski', 'Piotr']], bookTitle: 'Kodeks cywilny. Komentarz', edition: '10', date: '2021', publisher: 'C.H. Beck', place: 'Warszawa', pages: [1, 40], cite: 'P. Machnikowski, w: E. Gniewek, P. Machnikowski (red.), Kodeks cywilny. Komentarz, wyd. 10, Warszawa 2021, art. 72' },
    { type: 'case', label: 'SN IV CSK 291/09', title: 'Wyrok Sądu Najwyższego z dnia 14 stycznia 2010 r., IV CSK 291/09', court: 'Sąd Najwyższy', date: '2010-01-14', docket: 'IV CSK 291/09', pages: [1, 12], cite: 'Wyrok SN z 14.01.2010 r., IV CSK 291/09' },
    { type: 'journalArticle', label: 'Grykiel', title: 'Prowadzenie negocjacji w dobrej wierze', creators: [['Grykiel', 'Jan']], journal: 'Przegląd Sądowy', abbr: 'PS', issue: '4', date: '2006', pages: [40, 58], cite: 'J. Grykiel, Prowadzenie negocjacji w dobrej wierze, „Przegląd Sądowy” 2006, nr 4, s. 40–58' },
    { type: 'book', label: 'Zimmermann & Whittaker', title: 'Good Faith in European Contract Law', creators: [['Zimmermann', 'Reinhard'], ['Whittaker', 'Simon']], editors: true, date: '2000', publisher: 'Cambridge University Press', place: 'Cambridge', pages: [1, 720], lang: 'en', cite: 'R. Zimmermann, S. Whittaker (red.), Good Faith in European Contract Law, Cambridge 2000' },
    { type: 'case', label: 'SA Warszawa I ACa 1025/14', title: 'Wyrok Sądu Apelacyjnego w Warszawie z dnia 12 maja 2015 r., I ACa 1025/14', court: 'Sąd Apelacyjny w Warszawie', date: '2015-05-12', docket: 'I ACa 1025/14', pages: [1, 18], cite: 'Wyrok SA w Warszawie z 12.05.2015 r., I ACa 1025/14' },
    { type: 'bookSection', label: 'Radwański (System)', title: 'Zawarcie umowy', creators: [['Radwański', 'Zbigniew']], bookTitle: 'System Prawa Prywatnego, t. 2: Prawo cywilne – część ogólna', date: '2008', publisher: 'C.H. Beck', place: 'Warszawa', pages: [300, 420], cite: 'Z. Radwański, w: System Prawa Prywatnego, t. 2, Warszawa 2008' },
    { type: 'book', label: 'Longchamps', title: 'Zobowiązania', creators: [['Longchamps de Bérier', 'Roman']], date: '1948', publisher: 'Księgarnia Akademicka', place: 'Poznań', pages: [1, 460], cite: 'R. Longchamps de Bérier, Zobowiązania, Poznań 1948' },
    { type: 'case', label: 'SN V CSK 446/16', title: 'Wyrok Sądu Najwyższego z dnia 5 października 2017 r., V CSK 446/16', court: 'Sąd Najwyższy', date: '2017-10-05', docket: 'V CSK 446/16', pages: [1, 14], cite: 'Wyrok SN z 5.10.2017 r., V CSK 446/16' },
    { type: 'thesis', label: 'Kowalczyk, rozprawa', title: 'Zerwanie negocjacji w prawie polskim i niemieckim', creators: [['Kowalczyk', 'Anna']], thesisType: 'rozprawa doktorska', university: 'Uniwersytet Jagielloński', place: 'Kraków', date: '2019', pages: [1, 290], cite: 'A. Kowalczyk, Zerwanie negocjacji w prawie polskim i niemieckim, rozprawa doktorska, UJ, Kraków 2019' },
    { type: 'case', label: 'SN II CSKP 1093/22', title: 'Wyrok Sądu Najwyższego z dnia 9 listopada 2023 r., II CSKP 1093/22', court: 'Sąd Najwyższy', date: '2023-11-09', docket: 'II CSKP 1093/22', pages: [1, 16], cite: 'Wyrok SN z 9.11.2023 r., II CSKP 1093/22' },
  ],
  designate: [3, 1, 10, 2],
  greet: ['Dzień dobry!', 'cześć', 'Hej', 'to znowu ja', 'Dobry wieczór,', 'witam ponownie'],
  sorry: ['przepraszam, że zniknęłam, była sesja', 'sorki, wczoraj pisałam z telefonu', 'przepraszam za chaos', 'wybacz, miałam dyżur na wydziale'],
  chatter: [
    'w czytelni znowu zimno, siedzę w szaliku', 'tramwaj stał 20 minut na Rondzie Mogilskim', 'trzecia kawa dzisiaj',
    'kot położył się na klawiaturze', 'w weekend jadę do rodziców do Tarnowa', 'drukarka na wydziale znowu padła', 'za oknem pada śnieg w kwietniu, super',
  ],
  thanks: ['dzięki wielkie!', 'super, dziękuję', 'idealnie', 'bardzo pomogłeś, dzięki', 'o to chodziło'],
  social: ['Proszę bardzo! Daj znać, kiedy wracamy do pracy.', 'Cieszę się, że pomogłem.', 'Nie ma sprawy, powodzenia z rozdziałem.'],
  joiners: [' ', ' ', '\n\n', ' — ', '\n'],
  ask: {
    chat: [(v) => `jak wytłumaczyć ${v.topic} recenzentowi, który zna tylko prawo angielskie?`, (v) => `czy warto poświęcić osobny podrozdział na temat: ${v.topic}?`, (v) => `przypomnisz, gdzie teraz jest dyskusja o tym: ${v.topic}?`, () => 'co myślisz o planie, który wysłałam?', (v) => `jak połączyć „${v.a}” i „${v.b}”?`],
    search: [(v) => `poszukaj w Zotero, co mam na temat: ${v.topic}`, (v) => `znajdź w bibliotece „${v.a}”`, (v) => `co mam o tym: ${v.topic}?`],
    fulltext: [(v) => `przeczytaj proszę „${v.a}” i wypisz, co tam jest o tym: ${v.topic}`, (v) => `otwórz pdf: ${v.a}`],
    annotation: [(v) => `co zaznaczyłam w „${v.a}”?`, (v) => `pokaż moje adnotacje: ${v.a}`],
    note: [(v) => `wyciągnij moje notatki do „${v.a}”`, (v) => `co pisałam w notatkach do pozycji „${v.a}”?`],
    cite: [(v) => `sformatuj „${v.a}” i „${v.b}” do przypisów`, (v) => `potrzebuję pełnego przypisu do „${v.a}”`],
    dynamic: [(v) => `sprawdź w SAOS świeże orzecznictwo: ${v.topic}`, (v) => `jest coś nowego w orzecznictwie na temat: ${v.topic}? zajrzyj do SAOS`],
  },
  reply: [
    (v) => `W kwestii „${v.topic}” kluczowe jest, czy zaufanie drugiej strony było uzasadnione; kwalifikacja jest wtórna.`,
    (v) => `Ująłbym temat „${v.topic}” funkcjonalnie: kto ponosi stracone koszty i kiedy ryzyko przechodzi na drugą stronę. ${v.a} dobrze to ilustruje.`,
    (v) => `Recenzent zapewne zapyta, dlaczego ${v.a} ma znaczenie poza stanem faktycznym; jedno zdanie o dalszej recepcji by pomogło.`,
    () => 'Struktura jest w porządku. Materiał niemiecki dałbym po polskim, wtedy kontrast jest wyraźniejszy.',
    (v) => `${v.a} i ${v.b} idą tu w trochę innych kierunkach, ale to materiał na przypis, nie na podrozdział.`,
  ],
  onSearch: [(v) => `Pasujące pozycje w Twojej bibliotece: ${v.n}.`, (v) => `Znalezione pozycje: ${v.n}; pierwsza to ${v.a}.`],
  onRead: [(v) => `Przejrzałem tekst: ${v.a} (liczba stron: ${v.n}).`, (v) => `Przeczytałem zindeksowany tekst (${v.a}, liczba stron: ${v.n}).`],
  ack: ['Przyjąłem.', 'Jasne, dzięki.', 'Dobrze, będę o tym pamiętał.', 'Zanotowane.'],
  onAnnot: [(v) => `Liczba adnotacji do „${v.a}”: ${v.n}.`, (v) => `Oto Twoje zaznaczenia w „${v.a}”.`],
  onNotes: [(v) => `Liczba notatek pod pozycją „${v.a}”: ${v.n}.`],
  onCite: [(v) => `Sformatowane według: ${v.s}.`, (v) => `Oto przypisy (${v.s}); strony sprawdź proszę na swoim egzemplarzu.`],
  onDyn: [(v) => `Wyniki z SAOS (pokazane: ${v.n}); najtrafniejsze są na górze.`],
  onError: [(v) => `Wywołanie się nie powiodło (${v.e}); spróbuję za chwilę.`, (v) => `Narzędzie zwróciło błąd (${v.e}), więc ten krok nie został wykonany.`],
  closers: ['Daj znać, jeśli chcesz więcej.', 'Przejść do następnego podrozdziału?', 'Mogę pogłębić każdy z tych punktów.'],
  filler: [
    () => 'Strony mogą swobodnie prowadzić negocjacje i co do zasady nie ponoszą odpowiedzialności za to, że do zawarcia umowy nie doszło.',
    () => 'Strona, która rozpoczęła lub prowadziła negocjacje z naruszeniem dobrych obyczajów, w szczególności bez zamiaru zawarcia umowy, jest jednak obowiązana do naprawienia szkody.',
    () => 'Naprawieniu podlega szkoda, jaką druga strona poniosła przez to, że liczyła na zawarcie umowy.',
    (v) => `W sprawie ${v.a} sąd rozpatrywał zagadnienie przez pryzmat problemu: ${v.topic}, choć strony nie rozwinęły tego wątku.`,
    () => 'W doktrynie sporne pozostaje, czy jest to odpowiedzialność kontraktowa, deliktowa, czy też sui generis.',
    () => 'Od kwalifikacji zależy termin przedawnienia roszczenia i rozkład ciężaru dowodu.',
    (v) => `Szerzej zob. ${v.b}, przyp. ${v.n}.`,
    () => 'Prawo niemieckie doszło do podobnego wyniku w drodze orzecznictwa, na długo przed kodyfikacją w § 311 BGB.',
    () => 'Prawo angielskie konsekwentnie odmawia uznania ogólnego obowiązku prowadzenia negocjacji w dobrej wierze.',
    (v) => `Jak zostanie wykazane w pkt ${(v.n % 5) + 1}, praktyczne rozstrzygnięcia różnią się mniej niż formuły dogmatyczne.`,
    () => 'Umowa o prowadzenie negocjacji może przewidywać karę umowną za ich nieuzasadnione zerwanie.',
    () => 'List intencyjny co do zasady nie rodzi obowiązku zawarcia umowy przyrzeczonej.',
  ],
  annotBank: [
    () => ['strony mogą swobodnie prowadzić negocjacje', 'formuła standardowa'],
    () => ['zaufanie musi być usprawiedliwione', 'por. Vertrauenshaftung'],
    () => ['samo zerwanie negocjacji nie jest sprzeczne z dobrymi obyczajami', ''],
    (v) => ['szkoda ogranicza się do kosztów negocjacji', `zob. też ${v.b}`],
    () => ['odpowiedzialność ma charakter deliktowy', 'przedawnienie z art. 442¹!'],
  ],
  noteBank: [
    (v) => `<p>DO ZROBIENIA: sprawdzić, jak ${v.a} jest cytowany w późniejszym orzecznictwie</p>`,
    (v) => `<h3>${v.a}</h3><ul><li>stan faktyczny: negocjacje sprzedaży udziałów</li><li>wynik: powództwo oddalone</li></ul>`,
    (v) => `<p>Czytane w pociągu, do tematu „${v.topic}” luźno.</p>`,
    (v) => `<p>Promotor: sprawdzić, jak ${v.a} jest używany w podręcznikach (Radwański/Olejniczak?).</p>`,
  ],
  parties: ['Alfa sp. z o.o.', 'Beta S.A.', 'Gmina Wieliczka', 'Skarb Państwa', 'Budimex-Invest', 'Polskie Koleje', 'Omega Development', 'Novum sp. k.'],
  dyn: {
    name: 'saos_search',
    query: (v) => ({ all: v.topic, courtType: 'COMMON', judgmentDateFrom: '2010-01-01', pageSize: 20 }),
    hit: (v) => `Wyrok Sądu Apelacyjnego w ${['Warszawie', 'Krakowie', 'Gdańsku', 'Poznaniu', 'Katowicach'][v.n % 5]} z dnia ${(v.n % 27) + 1} ${MON_PL_GEN[(v.n % 12) + 1]} ${2011 + (v.n % 13)} r., ${['I', 'V', 'VI'][v.n % 3]} ACa ${100 + v.n * 11}/${11 + (v.n % 12)} (${v.p1} przeciwko ${v.p2}) — „...${v.topic}...”`,
    own: (it) => `${it.cite} — jest w Twojej bibliotece`,
  },
  dateFormats: [
    (x) => `${WD_PL_GEN[x.wd]} ${x.d} ${MON_PL_GEN[x.m]}`,
    (x) => `${pad2(x.d)}.${pad2(x.m)}`,
    (x) => `${x.d} ${MON_PL_GEN[x.m]} ${x.y} r.`,
  ],
  goal: [
    (v) => `Dzień dobry! Piszę rozprawę doktorską z prawa cywilnego porównawczego, teraz rozdział o odpowiedzialności przedkontraktowej: chcę porównać art. 72 § 2 k.c. z niemiecką culpa in contrahendo i prawem angielskim i zobaczyć, jaką szkodę realnie się naprawia przy zerwaniu negocjacji ${v.t}. Pomożesz mi to ułożyć?`,
    (v) => `przemyślałam to: sednem rozdziału nie jest porównanie trzech systemów, tylko charakter tej odpowiedzialności (kontraktowa, deliktowa, sui generis) i co z tego wynika dla przedawnienia i ciężaru dowodu ${v.t}`,
    (v) => `promotor chce jeszcze części de lege ferenda — mam zaproponować, jak zmienić art. 72 § 2, więc to też wchodzi w zakres ${v.t}`,
  ],
  constraint: [
    (v) => `ważne: tylko źródła opublikowane, żadnych prac magisterskich ani wpisów z blogów kancelarii ${v.t}`,
    (v) => `orzecznictwo biorę tylko z Sądu Najwyższego, sądy powszechne pomijamy ${v.t}`,
    (v) => `rozdział musi się zmieścić w 40 stronach znormalizowanych, tak mówi regulamin szkoły doktorskiej ${v.t}`,
    (v) => `zmiana co do orzecznictwa: promotor chce też sądów apelacyjnych, więc nie zamykamy się na samym SN ${v.t}`,
    (v) => `i proszę, cytaty z orzeczeń podawaj dosłownie, w cudzysłowie, bez streszczania ${v.t}`,
    (v) => `co do objętości: szkoła doktorska zniosła limit dla pojedynczych rozdziałów, liczy się tylko całość pracy ${v.t}`,
  ],
  deadline: [
    (v) => `Wersję roboczą rozdziału mam oddać promotorowi do ${v.d} ${v.t}.`,
    (v) => `promotor wyjeżdża na konferencję, więc termin się przesunął do przodu — teraz na ${v.d} ${v.t}`,
    (v) => `hurra, dostałam przedłużenie! cały rozdział mam oddać ${v.d} ${v.t}`,
  ],
  style: [
    (v) => `Przypisy robimy według zasad redakcyjnych „Państwa i Prawa” ${v.t}`,
    (v) => `zmiana stylu: rozdział idzie najpierw jako artykuł do czasopisma anglojęzycznego, więc przechodzimy na OSCOLA ${v.t}`,
    (v) => `z artykułem poczekam; w rozprawie wracam do stylu szkoły doktorskiej, czyli PN-ISO 690 w wersji z przypisami ${v.t}`,
  ],
  styleIds: [['panstwo-i-prawo', 'zasady „Państwa i Prawa”'], ['oscola', 'OSCOLA'], ['iso690-note-pl', 'PN-ISO 690 (przypisy)']],
  designation: [
    (v) => `wyrok SN IV CSK 291/09 (${v.k}) to kluczowe orzeczenie rozdziału, trzymaj go jako główny punkt odniesienia ${v.t}`,
    (v) => `zaznacz też monografię Lemkowskiego (${v.k}) jako podstawową ${v.t}`,
    (v) => `rozprawa Kowalczyk, ${v.k}, będzie teraz moim głównym przewodnikiem po orzecznictwie ${v.t}`,
    (v) => `dodaj komentarz Machnikowskiego (${v.k}) do kluczowych źródeł ${v.t}`,
  ],
  retraction: [
    (v) => `co do wyroku IV CSK 291/09 (${v.k}) zmieniłam zdanie — to już nie jest oś rozdziału, tylko jedno z wielu orzeczeń ${v.t}`,
    (v) => `rozprawę Kowalczyk (${v.k}) wyrzuć z kluczowych, ma za małą próbę orzeczeń ${v.t}`,
  ],
  failed: [
    (v) => `Próbowałem rozpoznać tekst ze skanu „Zobowiązań” Longchampsa, ale OCR zwraca same śmieci — skan jest zbyt wyblakły, więc tędy nie przejdziemy, potrzebny inny egzemplarz ${v.t}.`,
    (v) => `próbowałam szukać „culpa in contrahendo” w Portalu Orzeczeń, wyskakują tysiące nietrafionych wyników, odpuszczam tę drogę ${v.t}`,
    (v) => `Wyszukiwanie w SAOS się nie powiodło: serwer trzy razy nie odpowiedział w limicie czasu ${v.t}.`,
    (v) => `Próbowałem pogrupować orzeczenia według schematu odpowiedzialność kontraktowa / deliktowa, ale połowa sądów w ogóle tego nie kwalifikuje — schemat nie działa, porzuciłem go ${v.t}.`,
    (v) => `Nie udało się automatycznie pobrać metadanych artykułu Grykiela po DOI — Crossref go nie zna, wpisałem dane ręcznie ${v.t}.`,
  ],
  decision: [
    (v) => `ustalmy: wychodzimy od typowych sytuacji (późne zerwanie rozmów, negocjacje równoległe, ujawnienie informacji poufnych), a nie od kategorii dogmatycznych ${v.t}`,
    (v) => `Cytaty niemieckie zostawiam w oryginale, a Twoje tłumaczenie daję w przypisie, tak jak się umówiliśmy ${v.t}.`,
    (v) => `postanowione: drugim systemem do porównania będzie Anglia, nie Francja ${v.t}`,
    (v) => `Od teraz porządkuję tabelę orzeczeń według daty, a nie według sądu — wtedy widać ewolucję po 2003 roku ${v.t}.`,
    (v) => `ostatecznie: bronię deliktowego charakteru tej odpowiedzialności i naprawienia tylko interesu negatywnego ${v.t}`,
  ],
  task: [
    (v) => `jak znajdziesz chwilę, otaguj proszę wszystkie orzeczenia w bibliotece jako rozdz2-orzecznictwo ${v.t}`,
    (v) => `Przygotuję jednostronicową tabelę porównawczą (Polska / Niemcy / Anglia): kto ponosi koszty nieudanych negocjacji ${v.t}.`,
    (v) => `przypomnienie: muszę jeszcze sprawdzić, czy SN wypowiedział się w uchwale o charakterze tej odpowiedzialności ${v.t}`,
    (v) => `zbierz mi proszę wyroki sądów apelacyjnych dotyczące art. 72 § 2 do osobnej kolekcji ${v.t}`,
    (v) => `Jako następny krok sprawdzę wszystkie odesłania do stron w pkt 2.2 z wydaniami z Twojej biblioteki ${v.t}.`,
  ],
  taskDone: [
    (v) => `Gotowe: tag rozdz2-orzecznictwo dodany do ${v.n} orzeczeń ${v.t}.`,
    (v) => `tabelę porównawczą już wkleiłam do rozdziału, dzięki ${v.t}`,
    (v) => `Kolekcja z wyrokami sądów apelacyjnych jest gotowa, jest w niej dwanaście orzeczeń ${v.t}.`,
  ],
  hypothesis: [
    (v) => `mam wrażenie, że sądy w praktyce zasądzają więcej niż interes negatywny, tylko tego tak nie nazywają ${v.t}`,
    (v) => `Hipoteza do sprawdzenia: po nowelizacji z 2003 r. sądy mogą zacząć stosować art. 72 § 2 także do przetargów ${v.t}.`,
    (v) => `może niemiecki § 311 BGB sprawił, że culpa in contrahendo jest tam mniej „twórcza” niż u nas? nie wiem ${v.t}`,
    (v) => `podejrzewam, że przedwojenna doktryna w ogóle nie znała odpowiedzialności przedkontraktowej ${v.t}`,
  ],
  closed: [
    (v) => `...a co do szkody — miałam rację, w nowszych wyrokach zasądzone kwoty faktycznie przekraczają koszty negocjacji ${v.t}`,
    (v) => `Orzecznictwo tego nie potwierdza: do przetargów sądy stosują art. 70⁴ k.c., a nie art. 72 § 2, więc tę hipotezę można odrzucić ${v.t}.`,
    (v) => `z tą przedwojenną doktryną się myliłam — Longchamps o tym pisze, hipoteza odpada ${v.t}`,
  ],
  finding: [
    { item: 1, n: [150, 220], loc: (n) => `s. ${n}`, text: (v) => `Lemkowski (${v.k}) na ${v.p} wskazuje, że art. 72 § 2 k.c. chroni wyłącznie interes negatywny, a zerwanie negocjacji samo w sobie nie jest bezprawne ${v.t}.` },
    { item: 5, n: [230, 260], loc: (n) => `${n}`, text: (v) => `In German law the breaking off of negotiations is not in itself wrongful; liability arises only where one party has led the other to believe that the contract would certainly be concluded ${v.t}.` },
    { item: 3, n: [4, 7], loc: (n) => `pkt ${n} uzasadnienia`, text: (v) => `znalazłam: w wyroku SN IV CSK 291/09 (${v.k}), ${v.p}, Sąd wprost mówi, że odpowiedzialność z art. 72 § 2 ma charakter deliktowy ${v.t}` },
    { item: 4, n: [41, 57], loc: (n) => `${n}`, quote: 'obowiązek prowadzenia negocjacji w dobrej wierze nie oznacza obowiązku zawarcia umowy', text: (v) => `${v.t} do wstępu rozdz. 2` },
    { item: 6, n: [5, 11], loc: (n) => `s. ${n}`, text: (v) => `<p><b>SA w Warszawie, I ACa 1025/14</b> — ${v.p}: odszkodowanie obejmuje koszty przygotowania oferty, ale nie utracone korzyści z niezawartej umowy ${v.t}</p>` },
    { item: 2, n: [10, 29], loc: (n) => `Nb ${n}`, text: (v) => `W komentarzu Machnikowskiego (${v.k}), ${v.p}, jest to powiedziane jasno: przesłanką jest sprzeczność z dobrymi obyczajami, a nie sam fakt zerwania rozmów ${v.t}.` },
    { item: 10, n: [80, 200], loc: (n) => `${n}`, text: (v) => `Z analizy orzecznictwa wynika, że powodowie rzadko wygrywają sprawy o zerwanie negocjacji, głównie z powodu trudności w wykazaniu szkody ${v.t}.` },
    { item: 7, n: [330, 400], loc: (n, m) => `ss. ${n}–${m}`, text: (v) => `u Radwańskiego w Systemie (${v.k}), ${v.p}, jest to rozróżnienie między negocjacjami a zaproszeniem do rokowań, bardzo się przyda ${v.t}` },
    { item: 2, n: [10, 29], loc: (n) => `Nb ${n}`, text: (v) => `poprawka: u Machnikowskiego (${v.k}) to jest ${v.p}, a nie ${v.o}, sprawdziłam w Legalisie ${v.t}` },
    { item: 9, n: [3, 12], loc: (n) => `${n}`, quote: 'strona, która rozpoczęła negocjacje bez zamiaru zawarcia umowy, działa sprzecznie z dobrymi obyczajami', text: (v) => `${v.t} cytat do pkt 2.3` },
    { item: 8, n: [200, 260], loc: (n) => `s. ${n}`, text: (v) => `<p>Longchamps, Zobowiązania, ${v.p}: już przed wojną przyjmowano odpowiedzialność za „culpa in contrahendo” na zasadach deliktowych ${v.t}</p>` },
    { item: 11, n: [3, 9], loc: (n) => `pkt ${n} uzasadnienia`, text: (v) => `W SAOS najtrafniejszy jest wyrok SN II CSKP 1093/22, który masz już w Zotero (${v.k}); w ${v.p} Sąd odmówił zasądzenia utraconych korzyści z umowy, do której nie doszło ${v.t}.` },
  ],
};

// ---------------------------------------------------------------------------------------------------
// Arabic: a doctoral researcher (Cairo / Dubai); right to left, Latin keys, both digit systems.
const MON_AR = ['', 'يناير', 'فبراير', 'مارس', 'أبريل', 'مايو', 'يونيو', 'يوليو', 'أغسطس', 'سبتمبر', 'أكتوبر', 'نوفمبر', 'ديسمبر'];
const WD_AR = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'];
const AR = {
  locale: 'ar', user: { id: 5390021, name: 'mariam.alhashimi' }, tagName: 'ف2-أحكام', scanned: 5, crossref: 11,
  topics: ['قطع المفاوضات', 'العدول عن التفاوض', 'حسن النية في التفاوض', 'خطاب النوايا', 'الاتفاق على التفاوض', 'المسؤولية السابقة على التعاقد', 'سرية المفاوضات', 'المفاوضات الموازية', 'الكسب الفائت', 'تفويت الفرصة'],
  items: [
    { type: 'book', label: 'السنهوري، الوسيط', title: 'الوسيط في شرح القانون المدني الجديد، الجزء الأول: مصادر الالتزام', creators: [['السنهوري', 'عبد الرزاق أحمد']], date: '1952', publisher: 'دار إحياء التراث العربي', place: 'بيروت', pages: [1, 1400], cite: 'عبد الرزاق السنهوري، الوسيط في شرح القانون المدني الجديد، ج 1، مصادر الالتزام' },
    { type: 'statute', label: 'القانون المدني المصري', title: 'القانون المدني المصري رقم 131 لسنة 1948', section: 'المادة 163', date: '1948-07-16', pages: [1, 12], cite: 'القانون المدني المصري رقم 131 لسنة 1948، المادة 163' },
    { type: 'statute', label: 'قانون المعاملات المدنية', title: 'قانون المعاملات المدنية لدولة الإمارات العربية المتحدة (القانون الاتحادي رقم 5 لسنة 1985)', section: 'المادة 246', date: '1985-12-15', pages: [1, 14], cite: 'قانون المعاملات المدنية الإماراتي رقم 5 لسنة 1985، المادة 246' },
    { type: 'case', label: 'نقض 1876 لسنة 68 ق', title: 'محكمة النقض المصرية، الطعن رقم 1876 لسنة 68 قضائية', court: 'محكمة النقض', date: '2005-04-12', docket: '1876/68ق', pages: [1, 10], cite: 'نقض مدني، الطعن رقم 1876 لسنة 68 ق، جلسة 12/4/2005' },
    { type: 'case', label: 'تمييز دبي 456/2017', title: 'محكمة التمييز – دبي، الطعن رقم 456 لسنة 2017 تجاري', court: 'محكمة التمييز بدبي', date: '2017-11-26', docket: '456/2017', pages: [1, 12], cite: 'تمييز دبي، الطعن رقم 456 لسنة 2017 تجاري، جلسة 26/11/2017' },
    { type: 'book', label: 'حجازي', title: 'النظرية العامة للالتزام، الجزء الأول: مصادر الالتزام', creators: [['حجازي', 'عبد الحي']], date: '1954', publisher: 'مطبعة نهضة مصر', place: 'القاهرة', pages: [1, 620], cite: 'عبد الحي حجازي، النظرية العامة للالتزام، ج 1، القاهرة، 1954' },
    { type: 'book', label: 'Cartwright & Hesselink', title: 'Precontractual Liability in European Private Law', creators: [['Cartwright', 'John'], ['Hesselink', 'Martijn W']], editors: true, date: '2008', publisher: 'Cambridge University Press', place: 'Cambridge', pages: [1, 520], lang: 'en', cite: 'John Cartwright and Martijn Hesselink (eds), Precontractual Liability in European Private Law (CUP 2008)' },
    { type: 'journalArticle', label: 'Schmidt (RTD civ.)', title: 'La sanction de la faute précontractuelle', creators: [['Schmidt', 'Joanna']], journal: 'Revue trimestrielle de droit civil', abbr: 'RTD civ.', date: '1974', pages: [46, 73], lang: 'fr', cite: 'J. Schmidt, « La sanction de la faute précontractuelle », RTD civ. 1974, p. 46' },
    { type: 'thesis', label: 'رسالة الشامسي', title: 'المسؤولية عن قطع المفاوضات العقدية: دراسة مقارنة', creators: [['الشامسي', 'مريم']], thesisType: 'رسالة دكتوراه', university: 'جامعة القاهرة – كلية الحقوق', place: 'القاهرة', date: '2016', pages: [1, 410], cite: 'مريم الشامسي، المسؤولية عن قطع المفاوضات العقدية، رسالة دكتوراه، جامعة القاهرة، 2016' },
    { type: 'statute', label: 'UNIDROIT 2.1.15', title: 'UNIDROIT Principles of International Commercial Contracts 2016', section: 'art. 2.1.15', date: '2016', pages: [1, 90], lang: 'en', cite: 'UNIDROIT Principles of International Commercial Contracts 2016, art. 2.1.15' },
    { type: 'statute', label: 'Code civil art. 1112', title: 'Code civil (France)', section: 'art. 1112', date: '2016-02-10', pages: [1, 8], lang: 'fr', cite: 'C. civ., art. 1112 (ord. n° 2016-131 du 10 févr. 2016)' },
    { type: 'journalArticle', label: 'مقال الزعبي', title: 'الالتزام بالتفاوض بحسن نية في القانونين الأردني والإماراتي', creators: [['الزعبي', 'محمد يوسف']], journal: 'مجلة الشريعة والقانون', issue: '62', date: '2015', pages: [201, 256], cite: 'محمد يوسف الزعبي، الالتزام بالتفاوض بحسن نية، مجلة الشريعة والقانون، العدد 62، 2015، ص 201' },
    { type: 'case', label: 'تمييز دبي 112/2021', title: 'محكمة التمييز – دبي، الطعن رقم 112 لسنة 2021 تجاري', court: 'محكمة التمييز بدبي', date: '2021-05-30', docket: '112/2021', pages: [1, 12], cite: 'تمييز دبي، الطعن رقم 112 لسنة 2021 تجاري' },
  ],
  designate: [3, 0, 8, 7],
  greet: ['مساء الخير!', 'صباح الخير', 'مرحباً', 'أهلاً من جديد', 'السلام عليكم،', 'عدت'],
  sorry: ['آسفة على الغياب، كانت فترة امتحانات', 'عذراً، كتبت أمس من الهاتف', 'اعذرني على الفوضى', 'آسفة، كنت في اجتماع بالكلية'],
  chatter: [
    'المكتبة باردة جداً اليوم', 'الزحمة في شارع الشيخ زايد لا تُحتمل', 'هذا ثالث فنجان قهوة', 'القطة نامت على لوحة المفاتيح',
    'سأزور أهلي في الإسكندرية نهاية الأسبوع', 'الطابعة في الكلية معطلة كالعادة', 'رمضان قرّب، سيتغير إيقاع العمل',
  ],
  thanks: ['شكراً جزيلاً!', 'ممتاز، شكراً', 'رائع', 'أفدتني كثيراً، شكراً', 'هذا بالضبط ما أحتاجه'],
  social: ['عفواً! أخبريني عندما نعود للعمل.', 'سعيد أنني ساعدت.', 'لا شكر على واجب، بالتوفيق في الفصل.'],
  joiners: [' ', ' ', '\n\n', ' — ', '\n'],
  ask: {
    chat: [(v) => `كيف أشرح ${v.topic} لمناقش لا يعرف إلا القانون الإنجليزي؟`, (v) => `هل يستحق موضوع ${v.topic} مبحثاً مستقلاً؟`, (v) => `ذكّرني أين وصل النقاش الفقهي حول ${v.topic}؟`, () => 'ما رأيك في الخطة التي أرسلتها؟', (v) => `كيف أربط بين ${v.a} و${v.b}؟`],
    search: [(v) => `ابحث في Zotero عمّا لدي حول ${v.topic}`, (v) => `جد لي ${v.a} في المكتبة`, (v) => `ماذا عندي عن ${v.topic}؟`],
    fulltext: [(v) => `اقرأ من فضلك ${v.a} واستخرج ما يتعلق بـ${v.topic}`, (v) => `افتح ملف PDF الخاص بـ${v.a}`],
    annotation: [(v) => `ماذا ظللت في ${v.a}؟`, (v) => `أرني تعليقاتي على ${v.a}`],
    note: [(v) => `أحضر ملاحظاتي على ${v.a}`, (v) => `ماذا كتبت في ملاحظات ${v.a}؟`],
    cite: [(v) => `نسّق ${v.a} و${v.b} للهوامش`, (v) => `أحتاج التوثيق الكامل لـ${v.a}`],
    dynamic: [(v) => `ابحث في قاعدة التشريعات والأحكام عن أحكام حديثة في ${v.topic}`, (v) => `هل هناك أحكام جديدة حول ${v.topic}؟ ابحث في القاعدة`],
  },
  reply: [
    (v) => `في مسألة ${v.topic} السؤال الحاسم هو: هل كانت ثقة الطرف الآخر مشروعة؟ أما التكييف فيأتي بعد ذلك.`,
    (v) => `أقترح تناول ${v.topic} تناولاً وظيفياً: من يتحمل النفقات الضائعة، ومتى ينتقل عبء المخاطرة؟ و${v.a} مثال جيد على ذلك.`,
    (v) => `غالباً سيسأل المناقش عن أهمية ${v.a} خارج وقائعه؛ جملة عن مصيره في القضاء اللاحق ستفيد.`,
    () => 'الهيكل سليم. أنصح بوضع المادة الفرنسية بعد المصرية حتى يظهر التباين بوضوح.',
    (v) => `${v.a} و${v.b} يختلفان قليلاً هنا، لكن ذلك يكفيه هامش لا مبحث.`,
  ],
  onSearch: [(v) => `عدد النتائج المطابقة في مكتبتك: ${arDigits(v.n)}.`, (v) => `عدد النتائج ${v.n}، وأولها ${v.a}.`],
  onRead: [(v) => `قرأت النص المفهرس لـ${v.a} (عدد الصفحات: ${v.n}).`, (v) => `اطلعت على النص المفهرس لـ${v.a} (عدد الصفحات: ${arDigits(v.n)}).`],
  ack: ['حسناً، سجّلت ذلك.', 'تمام، شكراً.', 'مفهوم، سآخذ ذلك في الاعتبار.', 'علم.'],
  onAnnot: [(v) => `عدد تعليقاتك على ${v.a}: ${v.n}.`, (v) => `هذه المقاطع التي ظللتِها في ${v.a}.`],
  onNotes: [(v) => `عدد الملاحظات تحت ${v.a}: ${v.n}.`],
  onCite: [(v) => `نسّقتها وفق ${v.s}.`, (v) => `هذه هي بحسب ${v.s}؛ راجعي أرقام الصفحات على نسختك.`],
  onDyn: [(v) => `نتائج قاعدة التشريعات والأحكام (المعروض: ${v.n})، والأهم في الأعلى.`],
  onError: [(v) => `فشل الطلب (${v.e})؛ سأعيد المحاولة بعد قليل.`, (v) => `أعادت الأداة خطأً (${v.e})، فلم تكتمل هذه الخطوة.`],
  closers: ['أخبريني إن أردتِ التوسع.', 'هل ننتقل إلى المبحث التالي؟', 'يمكنني التعمق في أي نقطة منها.'],
  filler: [
    () => 'الأصل أن المتفاوض حر في قطع المفاوضات في أي وقت دون أن يتحمل أي مسؤولية عن ذلك.',
    () => 'غير أن هذه الحرية مقيدة بعدم التعسف، فإذا اقترن العدول بخطأ قامت المسؤولية التقصيرية.',
    () => 'ويُعد من قبيل الخطأ الدخول في مفاوضات دون نية جادة في التعاقد، أو قطعها فجأة بعد أن بلغت مرحلة متقدمة.',
    (v) => `وقد تناولت المحكمة في ${v.a} هذه المسألة من زاوية ${v.topic}، وإن لم يتوسع الخصوم في هذا الدفع.`,
    () => 'ويقتصر التعويض في الغالب على المصروفات التي أُنفقت في سبيل التفاوض وعلى تفويت فرصة التعاقد مع الغير.',
    () => 'ويدور خلاف في الفقه حول طبيعة هذه المسؤولية: أهي عقدية أم تقصيرية أم ذات طبيعة خاصة؟',
    () => 'ويترتب على التكييف أثر في مدة التقادم وفي توزيع عبء الإثبات.',
    (v) => `انظر تفصيلاً: ${v.b}، هامش ${arDigits(v.n)}.`,
    () => 'وقد قنّن المشرع الفرنسي هذا الحل في المادة 1112 بعد إصلاح 2016.',
    () => 'أما القانون الإنجليزي فيرفض من حيث المبدأ الاعتراف بالتزام عام بالتفاوض بحسن نية.',
    (v) => `وكما سيتضح في المبحث ${arDigits((v.n % 4) + 1)}، فإن الحلول العملية أقل تبايناً من الصياغات النظرية.`,
    () => 'ولا يُلزم خطاب النوايا في الأصل طرفيه بإبرام العقد النهائي.',
  ],
  annotBank: [
    () => ['الأصل حرية التفاوض وحرية العدول عنه', 'قاعدة عامة'],
    () => ['يجب أن تكون الثقة مشروعة', 'قارن: Vertrauenshaftung'],
    () => ['مجرد العدول لا يُعد خطأً', ''],
    (v) => ['التعويض يقتصر على نفقات التفاوض', `انظر أيضاً ${v.b}`],
    () => ['المسؤولية هنا تقصيرية', 'التقادم ثلاث سنوات!'],
  ],
  noteBank: [
    (v) => `<p>للمراجعة: كيف استُشهد بـ${v.a} في الأحكام اللاحقة</p>`,
    (v) => `<h3>${v.a}</h3><ul><li>الوقائع: مفاوضات لبيع حصص في شركة</li><li>النتيجة: رفض الدعوى</li></ul>`,
    (v) => `<p>قرأته في المترو، علاقته بـ${v.topic} غير مباشرة.</p>`,
    (v) => `<p>المشرف: انظري كيف يستعمل ${v.a} في المراجع العامة.</p>`,
  ],
  parties: ['شركة الإعمار للتطوير', 'مؤسسة النور التجارية', 'بنك الخليج الأول', 'شركة الصفوة للمقاولات', 'مجموعة الفجر القابضة', 'شركة الريان للاستثمار'],
  dyn: {
    name: 'eastlaws_search',
    query: (v) => ({ q: v.topic, type: 'ahkam', country: ['AE', 'EG'], sort: 'date', limit: 20 }),
    hit: (v) => `محكمة التمييز – دبي، الطعن رقم ${100 + v.n * 7} لسنة ${2012 + (v.n % 12)} تجاري (${v.p1} ضد ${v.p2}) — «...${v.topic}...»`,
    own: (it) => `${it.cite} — موجود في مكتبتك`,
  },
  dateFormats: [
    (x) => `يوم ${WD_AR[x.wd]} ${arDigits(x.d)} ${MON_AR[x.m]}`,
    (x) => `${x.d}/${x.m}`,
    (x) => `${x.d} ${MON_AR[x.m]} ${x.y}`,
  ],
  goal: [
    (v) => `مساء الخير! أنا باحثة دكتوراه في القانون الخاص المقارن، وأكتب فصلاً عن المسؤولية السابقة على التعاقد: أريد أن أقارن بين القانون المصري وقانون المعاملات المدنية الإماراتي والقانون الفرنسي بعد إصلاح 2016 في مسألة قطع المفاوضات وما يُعوَّض عنه فعلاً ${v.t}. هل تساعدني في بناء الفصل؟`,
    (v) => `فكرت أكثر: جوهر الفصل ليس المقارنة بين ثلاثة أنظمة، بل طبيعة هذه المسؤولية (عقدية أم تقصيرية) وأثر ذلك في التقادم وعبء الإثبات ${v.t}`,
    (v) => `المشرف يريد في آخر الفصل مقترحاً تشريعياً: هل ينبغي للمشرّع الإماراتي أن ينص صراحة على التزام بالتفاوض بحسن نية؟ وهذا صار جزءاً من المطلوب ${v.t}`,
  ],
  constraint: [
    (v) => `ملاحظة مهمة: المصادر المنشورة فقط، لا رسائل ماجستير غير منشورة ولا مقالات من مواقع مكاتب المحاماة ${v.t}`,
    (v) => `بالنسبة للأحكام نكتفي بمحكمة النقض المصرية فقط ${v.t}`,
    (v) => `الفصل يجب ألا يتجاوز ٤٠ صفحة، هذا شرط الكلية ${v.t}`,
    (v) => `تغيير بخصوص الأحكام: المشرف يريد أيضاً أحكام محكمة التمييز في دبي، فلا نقتصر على النقض المصري ${v.t}`,
    (v) => `ومن فضلك انقل نصوص الأحكام حرفياً بين علامتي تنصيص، بلا تلخيص ${v.t}`,
    (v) => `بخصوص الطول: الكلية ألغت الحد الخاص بكل فصل، والعبرة بحجم الرسالة كلها ${v.t}`,
  ],
  deadline: [
    (v) => `مسودة الفصل يجب أن تصل إلى المشرف قبل ${v.d} ${v.t}.`,
    (v) => `المشرف مسافر إلى مؤتمر، فقدّم الموعد: أصبح ${v.d} ${v.t}`,
    (v) => `حصلت على تمديد! الموعد الجديد لتسليم الفصل كاملاً هو ${v.d} ${v.t}`,
  ],
  style: [
    (v) => `التوثيق بنظام APA الإصدار السابع، هذا ما تطلبه الكلية ${v.t}`,
    (v) => `غيّرنا نظام التوثيق: الفصل سيُنشر أولاً مقالاً في مجلة إنجليزية، لذا نعتمد OSCOLA من الآن ${v.t}`,
    (v) => `المقال تأجل؛ نعود في الرسالة إلى نظام شيكاغو بالحواشي كما في دليل الكلية ${v.t}`,
  ],
  styleIds: [['apa', 'APA (الإصدار السابع)', 'author-date'], ['oscola', 'OSCOLA'], ['chicago-fullnote-bibliography', 'شيكاغو (الحواشي)']],
  designation: [
    (v) => `حكم النقض رقم ١٨٧٦ لسنة ٦٨ ق (${v.k}) هو الحكم المحوري في الفصل، اجعله المرجع الأساسي ${v.t}`,
    (v) => `ضع أيضاً الوسيط للسنهوري (${v.k}) ضمن المراجع الأساسية ${v.t}`,
    (v) => `رسالة الشامسي ${v.k} ستكون دليلي الرئيسي في الأحكام ${v.t}`,
    (v) => `أضف مقال Schmidt (${v.k}) إلى المصادر المحورية ${v.t}`,
  ],
  retraction: [
    (v) => `بخصوص حكم النقض (${v.k}) غيّرت رأيي — لم يعد محور الفصل، هو حكم من بين أحكام أخرى ${v.t}`,
    (v) => `أخرج رسالة الشامسي (${v.k}) من المراجع الأساسية، عيّنتها من الأحكام صغيرة جداً ${v.t}`,
  ],
  failed: [
    (v) => `حاولت استخراج النص من النسخة المصوّرة لكتاب حجازي (١٩٥٤)، لكن التعرّف الضوئي أعطى حروفاً مشوّهة بالكامل؛ المسح باهت جداً، فهذا الطريق مغلق ونحتاج نسخة أخرى ${v.t}.`,
    (v) => `جربت البحث عن "culpa in contrahendo" في بوابة الأحكام، فظهرت آلاف النتائج التي لا علاقة لها بالموضوع، تركت هذه الطريقة ${v.t}`,
    (v) => `البحث في قاعدة التشريعات والأحكام لم ينجح: الخادم لم يستجب في المهلة المحددة ثلاث مرات ${v.t}.`,
    (v) => `حاولت تصنيف الأحكام وفق ثنائية المسؤولية العقدية / التقصيرية، لكن نصف الأحكام لا تكيّف الدعوى أصلاً، فالتصنيف لا يصلح وتخليت عنه ${v.t}.`,
    (v) => `لم أتمكن من جلب بيانات مقال الزعبي تلقائياً عبر DOI، فـCrossref لا يعرفه؛ أدخلت البيانات يدوياً ${v.t}.`,
  ],
  decision: [
    (v) => `اتفقنا: ننطلق من الحالات النموذجية (العدول المتأخر، المفاوضات الموازية، إفشاء المعلومات السرية) لا من التقسيمات النظرية ${v.t}`,
    (v) => `سأُبقي الاقتباسات الفرنسية بلغتها الأصلية مع ترجمتك في الهامش، كما اتفقنا ${v.t}.`,
    (v) => `قررت: النظام الثاني للمقارنة هو القانون الفرنسي وليس الإنجليزي ${v.t}`,
    (v) => `من الآن سأرتب جدول الأحكام حسب التاريخ لا حسب المحكمة، حتى يظهر التطور بعد ٢٠١٦ ${v.t}.`,
    (v) => `قراري النهائي: أدافع عن الطبيعة التقصيرية مع التعويض عن المصروفات فقط دون الكسب الفائت ${v.t}`,
  ],
  task: [
    (v) => `عندما يتسنى لك، ضع وسم ف2-أحكام على كل الأحكام في المكتبة ${v.t}`,
    (v) => `سأعدّ جدولاً مقارناً من صفحة واحدة (مصر / الإمارات / فرنسا): من يتحمل نفقات المفاوضات الفاشلة ${v.t}.`,
    (v) => `تذكير: ما زلت أحتاج أن أتحقق هل عدلت محكمة النقض عن مبدأ أن المفاوضات عمل مادي ${v.t}`,
    (v) => `اجمع لي من فضلك أحكام تمييز دبي المتعلقة بالتفاوض في مجموعة مستقلة ${v.t}`,
    (v) => `الخطوة التالية: سأراجع كل الإحالات إلى الصفحات في المبحث ٢.٢ على الطبعات الموجودة في مكتبتك ${v.t}.`,
  ],
  taskDone: [
    (v) => `تم: أضفت وسم ف2-أحكام إلى ${v.n} حكماً ${v.t}.`,
    (v) => `الجدول المقارن أضفته إلى الفصل، شكراً ${v.t}`,
    (v) => `المجموعة الخاصة بأحكام تمييز دبي جاهزة، وفيها عشرة أحكام ${v.t}.`,
  ],
  hypothesis: [
    (v) => `أظن أن المحاكم تعوّض عملياً أكثر من المصروفات، لكنها لا تصرّح بذلك ${v.t}`,
    (v) => `فرضية تستحق الاختبار: بعد إصلاح ٢٠١٦ في فرنسا قد تتأثر محكمة التمييز في دبي فتتوسع في التعويض عن تفويت الفرصة ${v.t}.`,
    (v) => `ربما جعلت المادة 1112 القضاء الفرنسي أقل جرأة مما كان؟ لست متأكدة ${v.t}`,
    (v) => `أشك أن الفقه المصري القديم تناول المسؤولية السابقة على التعاقد أصلاً ${v.t}`,
  ],
  closed: [
    (v) => `...وبالمناسبة كنت محقة بشأن التعويض: في الأحكام الحديثة المبالغ المقضي بها تتجاوز فعلاً نفقات التفاوض ${v.t}`,
    (v) => `الأحكام اللاحقة لا تؤيد ذلك: محكمة التمييز في دبي ما زالت ترفض التعويض عن تفويت الفرصة في هذا السياق، فيمكن استبعاد الفرضية ${v.t}.`,
    (v) => `بخصوص الفقه القديم كنت مخطئة — السنهوري وحجازي تناولا المسألة، فالفرضية ساقطة ${v.t}`,
  ],
  finding: [
    { item: 0, n: [180, 240], loc: (n) => `ص ${n}`, text: (v) => `يقرّر السنهوري في الوسيط (${v.k})، ${v.p}، أن قطع المفاوضات في ذاته لا يُعدّ خطأً، وإنما يكون الخطأ في الظروف التي اقترنت به، فتقوم المسؤولية التقصيرية لا العقدية ${v.t}.` },
    { item: 6, n: [430, 480], loc: (n) => `${n}`, text: (v) => `Systems influenced by the French model treat an abusive breaking off of negotiations as a fault giving rise to delictual liability rather than as a breach of a pre-contractual duty ${v.t}.` },
    { item: 4, n: [5, 9], loc: (n) => `ص ${arDigits(n)}`, text: (v) => `وجدت المقطع: حكم تمييز دبي ${v.k} في ${v.p} يقول صراحة إن العدول عن التفاوض لا يرتب مسؤولية إلا إذا اقترن بخطأ ${v.t}` },
    { item: 8, n: [120, 190], loc: (n) => `${n}`, quote: 'العدول عن التفاوض حق مشروع ما لم يقترن بسوء نية', text: (v) => `${v.t} للاستشهاد في المبحث الثاني` },
    { item: 3, n: [3, 8], loc: (n) => `ص ${n}`, text: (v) => `<p>نقض ١٨٧٦ لسنة ٦٨ ق — ${v.p}: اعتبرت المحكمة أن المفاوضات ليست إلا عملاً مادياً لا يترتب عليه بذاته أي أثر قانوني ${v.t}</p>` },
    { item: 7, n: [50, 70], loc: (n) => `p. ${n}`, text: (v) => `مقال Joanna Schmidt في RTD civ. (${v.k})، ${v.p}، هو الأساس الفرنسي لفكرة الخطأ السابق على التعاقد، وفيه تربط التعويض بالمصروفات الضائعة لا بالكسب الفائت ${v.t}.` },
    { item: 11, n: [205, 250], loc: (n) => `${n}`, text: (v) => `ويذهب الرأي الراجح إلى أن المادة 246 من قانون المعاملات المدنية الإماراتي، وإن وردت في تنفيذ العقد، تصلح أساساً لالتزام عام بحسن النية في مرحلة التفاوض ${v.t}.` },
    { item: 2, n: [246, 246], loc: (n) => `المادة ${n}`, text: (v) => `وللتذكير: نص ${v.p} من قانون المعاملات المدنية (${v.k}) يتكلم عن تنفيذ العقد بحسن نية فقط، لا عن التفاوض ${v.t}` },
    { item: 7, n: [50, 70], loc: (n) => `p. ${n}`, text: (v) => `تصحيح صغير: المقطع في مقال Schmidt (${v.k}) موجود في ${v.p} وليس ${v.o} كما ذكرتَ، راجعتُ النسخة الورقية ${v.t}` },
    { item: 9, n: [60, 75], loc: (n) => `${n}`, quote: 'a party who negotiates or breaks off negotiations in bad faith is liable for the losses caused to the other party', text: (v) => `${v.t} قارن مع موقف القضاء المصري` },
    { item: 10, n: [1112, 1112], loc: (n) => `art. ${n} al. 2`, text: (v) => `<p>Code civil, ${v.p} : en cas de faute commise dans les négociations, la réparation du préjudice ne peut avoir pour objet de compenser la perte des avantages attendus du contrat non conclu ${v.t}</p><p>مهم جداً للمقارنة</p>` },
    { item: 12, n: [4, 9], loc: (n) => `ص ${arDigits(n)}`, text: (v) => `أقرب نتيجة في قاعدة التشريعات والأحكام هي حكم تمييز دبي رقم ١١٢ لسنة ٢٠٢١، وهو موجود في مكتبتك (${v.k})؛ وفي ${v.p} رفضت المحكمة التعويض عن الكسب الفائت من عقد لم يُبرم ${v.t}.` },
  ],
};

// ---------------------------------------------------------------------------------------------------
// Mixed: an Indian LL.M. student who code-switches between English and Hindi (Latin script) inside one
// message; the assistant answers in English.
const MON_SHORT = ['', 'Jan', 'Feb', 'March', 'April', 'May', 'June', 'July', 'Aug', 'Sept', 'Oct', 'Nov', 'Dec'];
const MIXED = {
  locale: 'en-IN', user: { id: 4471893, name: 'arjun.nair.llm' }, tagName: 'ch3-cases', scanned: 9, crossref: 11,
  topics: ['letters of intent', 'breaking off negotiations', 'promissory estoppel', 'subject to formal contract', 'contracts by email', 's. 70 quantum meruit', 'reliance loss', 'good faith negotiation', 'lock-out agreements', 'culpa in contrahendo'],
  items: [
    { type: 'case', label: 'Dresser Rand', title: 'Dresser Rand S.A. v Bindal Agro Chem Ltd', court: 'Supreme Court of India', date: '2006-01-05', reporter: 'SCC', volume: '1', pages: [751, 773], cite: 'Dresser Rand S.A. v Bindal Agro Chem Ltd (2006) 1 SCC 751' },
    { type: 'case', label: 'Rickmers', title: 'Rickmers Verwaltung GmbH v Indian Oil Corporation Ltd', court: 'Supreme Court of India', date: '1998-11-19', reporter: 'SCC', volume: '1', pages: [1, 28], cite: 'Rickmers Verwaltung GmbH v Indian Oil Corporation Ltd (1999) 1 SCC 1' },
    { type: 'case', label: 'Motilal Padampat', title: 'Motilal Padampat Sugar Mills Co Ltd v State of Uttar Pradesh', court: 'Supreme Court of India', date: '1978-12-12', reporter: 'SCC', volume: '2', pages: [409, 461], cite: 'Motilal Padampat Sugar Mills Co Ltd v State of Uttar Pradesh (1979) 2 SCC 409' },
    { type: 'statute', label: 'Contract Act 1872', title: 'Indian Contract Act, 1872', section: 's. 73', date: '1872-04-25', pages: [1, 60], cite: 'Indian Contract Act 1872' },
    { type: 'book', label: 'Pollock & Mulla', title: 'Indian Contract and Specific Relief Acts', creators: [['Pollock', 'Frederick'], ['Mulla', 'Dinshaw Fardunji']], edition: '15', date: '2017', publisher: 'LexisNexis', place: 'Gurgaon', pages: [1, 2100], cite: 'Pollock & Mulla, Indian Contract and Specific Relief Acts (15th edn, LexisNexis 2017)' },
    { type: 'book', label: 'Avtar Singh', title: 'Law of Contract and Specific Relief', creators: [['Singh', 'Avtar']], edition: '12', date: '2017', publisher: 'Eastern Book Company', place: 'Lucknow', pages: [1, 920], cite: 'Avtar Singh, Law of Contract and Specific Relief (12th edn, EBC 2017)' },
    { type: 'case', label: 'Walford', title: 'Walford v Miles', court: 'House of Lords', date: '1992-01-23', reporter: 'AC', volume: '2', pages: [128, 140], cite: 'Walford v Miles [1992] 2 AC 128 (HL)' },
    { type: 'journalArticle', label: 'Kessler & Fine', title: 'Culpa in Contrahendo, Bargaining in Good Faith, and Freedom of Contract: A Comparative Study', creators: [['Kessler', 'Friedrich'], ['Fine', 'Edith']], journal: 'Harvard Law Review', abbr: 'Harv L Rev', volume: '77', issue: '3', date: '1964', pages: [401, 449], cite: "Friedrich Kessler and Edith Fine, 'Culpa in Contrahendo, Bargaining in Good Faith, and Freedom of Contract' (1964) 77 Harv L Rev 401" },
    { type: 'case', label: 'Kollipara Sriramulu', title: 'Kollipara Sriramulu v T. Aswatha Narayana', court: 'Supreme Court of India', date: '1968-04-02', reporter: 'AIR', volume: '1968 SC', pages: [1028, 1032], cite: 'Kollipara Sriramulu v T. Aswatha Narayana AIR 1968 SC 1028' },
    { type: 'report', label: 'LCI 13th Report', title: 'Thirteenth Report: The Indian Contract Act, 1872', creators: [['Law Commission of India']], date: '1958', institution: 'Ministry of Law, Government of India', place: 'New Delhi', pages: [1, 96], cite: 'Law Commission of India, Thirteenth Report: The Indian Contract Act, 1872 (1958)' },
    { type: 'case', label: 'Trimex', title: 'Trimex International FZE Ltd v Vedanta Aluminium Ltd', court: 'Supreme Court of India', date: '2010-01-22', reporter: 'SCC', volume: '3', pages: [1, 30], cite: 'Trimex International FZE Ltd v Vedanta Aluminium Ltd (2010) 3 SCC 1' },
    { type: 'journalArticle', label: 'Menon (JILI)', title: 'Pre-contractual Liability in Indian Law: A Missing Doctrine?', creators: [['Menon', 'Ritika']], journal: 'Journal of the Indian Law Institute', abbr: 'JILI', volume: '61', issue: '2', date: '2019', pages: [180, 205], cite: "Ritika Menon, 'Pre-contractual Liability in Indian Law: A Missing Doctrine?' (2019) 61 JILI 180" },
    { type: 'case', label: 'Jatinder Sawhney', title: 'Jatinder Sawhney v Orbit Builders Pvt Ltd', court: 'High Court of Delhi', date: '2021-08-19', docket: 'CS(COMM) 412/2019', pages: [1, 24], cite: 'Jatinder Sawhney v Orbit Builders Pvt Ltd CS(COMM) 412/2019 (Del HC, 19 August 2021)' },
  ],
  designate: [0, 4, 2, 10],
  greet: ['hey', 'hello ji', 'Good morning!', 'haan toh', 'back again', 'arre hi', 'hi hi'],
  sorry: ['sorry yaar, kal internet gaya tha', 'sorry late reply, moot court prep chal rahi thi', 'maaf karna, pichla message typo se bhara tha', 'sorry, class mein tha'],
  chatter: [
    'hostel mein light phir se chali gayi', 'aaj mess mein rajma tha, finally', 'Bangalore traffic is killing me yaar', 'match dekh raha tha, concentration zero',
    'mummy ka call aaya tha, 40 min', 'chai number teen', 'library ka wifi bilkul bekaar hai aaj', 'roommate ka birthday hai toh raat ko party',
  ],
  thanks: ['thanks yaar!', 'perfect, thank you', 'awesome, bahut help hui', 'theek hai, thanks', 'great 👍', 'shukriya!'],
  social: ['Anytime! Ping me when you pick it up again.', 'Glad it helped — all the best with the draft.', 'No problem at all.'],
  joiners: [' ', ' ', '\n\n', ' — ', ' ... '],
  ask: {
    chat: [(v) => `${v.topic} ko examiner ko kaise explain karu jo sirf English law jaanta hai?`, (v) => `kya ${v.topic} pe alag section banana worth it hai?`, (v) => `${v.topic} pe debate abhi kahan tak pahuncha hai, ek baar recap karoge?`, () => 'jo outline bheji thi woh theek lag rahi hai?', (v) => `${v.a} aur ${v.b} ko kaise connect karu?`],
    search: [(v) => `Zotero mein dekho ${v.topic} pe mere paas kya hai`, (v) => `library mein ${v.a} dhoondh do pls`, (v) => `${v.topic} wala material kya hai mere paas?`],
    fulltext: [(v) => `${v.a} padh ke batao ${v.topic} pe kya likha hai`, (v) => `${v.a} ka pdf kholo please`],
    annotation: [(v) => `${v.a} mein maine kya highlight kiya tha?`, (v) => `${v.a} pe meri annotations dikhao`],
    note: [(v) => `${v.a} ke notes nikaal do`, (v) => `${v.a} ke notes mein maine kya likha tha?`],
    cite: [(v) => `${v.a} aur ${v.b} ko footnotes ke liye format kar do`, (v) => `${v.a} ka full citation chahiye`],
    dynamic: [(v) => `Indian Kanoon pe ${v.topic} ke recent cases dekho`, (v) => `${v.topic} pe koi naya judgment aaya hai? Indian Kanoon check karo`],
  },
  reply: [
    (v) => `On ${v.topic}, the deciding question is whether the other side's reliance was reasonable; the label comes second.`,
    (v) => `I'd frame ${v.topic} functionally: who bears the wasted costs, and when does the risk shift? ${v.a} shows this well.`,
    (v) => `The examiner will likely ask why ${v.a} matters beyond its facts — one line on how later courts used it would help.`,
    () => "The structure works. I'd put the English material after the Indian baseline so the contrast is sharper.",
    (v) => `${v.a} and ${v.b} point in slightly different directions here, but that's a footnote, not a section.`,
  ],
  onSearch: [(v) => `Matching items in your library: ${v.n}.`, (v) => `Searched your library; ${v.a} is first.`],
  onRead: [(v) => `I've read the indexed text of ${v.a} (pages: ${v.n}).`, (v) => `Went through the indexed text of ${v.a}.`],
  ack: ['Noted.', 'Got it.', 'Theek hai — noted.', 'Understood, will keep that in mind.'],
  onAnnot: [(v) => `Your annotations on ${v.a} (count: ${v.n}).`],
  onNotes: [(v) => `Notes under ${v.a}: ${v.n}.`],
  onCite: [(v) => `Formatted in ${v.s}.`, (v) => `Here they are (${v.s}) — do check the pinpoints against your copy.`],
  onDyn: [(v) => `Indian Kanoon results (shown: ${v.n}); the most relevant are on top.`],
  onError: [(v) => `That call failed (${v.e}); I'll retry in a bit.`, (v) => `The tool errored (${v.e}), so that step didn't go through.`],
  closers: ['Batao if you want more detail.', 'Shall I move on to the next section?', 'Happy to go deeper on any of these.'],
  filler: [
    () => 'A letter of intent merely indicates a party’s intention to enter into a contract with the other party in future; it creates no binding obligation.',
    () => 'Where the parties have agreed that the terms shall be reduced to writing, the question is whether the writing was a condition of the bargain or a mere record of it.',
    (v) => `In ${v.a} the Court approached the question through the lens of ${v.topic}, though the point was not fully argued.`,
    () => 'The doctrine of promissory estoppel is not limited to cases where there is some contractual relationship between the parties.',
    () => 'A person who lawfully does anything for another, not intending to do so gratuitously, may recover compensation under s. 70 of the Contract Act.',
    () => 'Indian courts have generally followed English law in refusing to recognise a freestanding duty to negotiate in good faith.',
    (v) => `See also the discussion of ${v.b}, fn ${v.n}.`,
    () => 'Acceptance must be absolute and unqualified; a conditional acceptance is only a counter-offer.',
    () => 'A contract may be concluded by an exchange of emails even where the parties contemplated the later execution of a formal document.',
    (v) => `As discussed in Part ${(v.n % 5) + 1}, the practical outcomes differ less than the doctrinal labels suggest.`,
    () => 'Damages under s. 73 presuppose a concluded contract; expenses thrown away in negotiations fall outside it.',
  ],
  annotBank: [
    () => ['a letter of intent creates no binding obligation', 'standard line'],
    () => ['reliance must be reasonable', 'compare German Vertrauenshaftung'],
    () => ['mere negotiations do not amount to a contract', ''],
    (v) => ['expenses incurred in anticipation of the contract', `s. 70? see ${v.b}`],
    () => ['the Government cannot claim immunity from promissory estoppel', 'important for PSU cases'],
  ],
  noteBank: [
    (v) => `<p>TODO: ${v.a} ka later treatment check karna hai</p>`,
    (v) => `<h3>${v.a}</h3><ul><li>facts: supply of equipment, LoI issued</li><li>result: no concluded contract</li></ul>`,
    (v) => `<p>Train mein padha, ${v.topic} ke liye thoda peripheral hai.</p>`,
    (v) => `<p>Guide: check how ${v.a} is used in Avtar Singh and Pollock & Mulla.</p>`,
  ],
  parties: ['Reliance Industries', 'BHEL', 'Union of India', 'Larsen & Toubro', 'DLF Ltd', 'NTPC', 'State of Maharashtra', 'Tata Steel', 'Adani Ports', 'ONGC'],
  dyn: {
    name: 'indiankanoon_search',
    query: (v) => ({ formInput: v.topic, doctypes: 'delhi,bombay,supremecourt', pagenum: 0 }),
    hit: (v) => `${v.p1} v ${v.p2} — ${['Delhi High Court', 'Bombay High Court', 'Supreme Court of India'][v.n % 3]}, ${(v.n % 27) + 1} ${MON_EN[(v.n % 12) + 1]} ${2008 + (v.n % 16)} — "...${v.topic}..."`,
    own: (it) => `${it.cite} — (in your library)`,
  },
  dateFormats: [
    (x) => `${WD_EN[x.wd]}, ${x.d} ${MON_EN[x.m]}`,
    (x) => `${x.d}/${x.m}`,
    (x) => `${ordinal(x.d)} ${MON_SHORT[x.m]} ${x.y}`,
  ],
  goal: [
    (v) => `Hi! main NLSIU se LLM kar raha hoon and dissertation ka ek chapter pre-contractual liability pe hai — basically jab koi party late stage pe negotiations tod deti hai toh Indian law mein kya remedy hai, compared to English law aur civil law (culpa in contrahendo) ${v.t}. structure banane mein help karoge?`,
    (v) => `soch raha tha — chapter ka asli sawaal comparison nahi hai, balki ye ki reliance protect karne ke liye Indian law ke paas kaunse tools hain (promissory estoppel, s. 70, tort) aur woh kitne kaam ke hain ${v.t}`,
    (v) => `guide chahte hain ki end mein ek recommendation ho — kya Law Commission ko Contract Act mein good faith negotiation ka provision suggest karna chahiye, toh woh bhi ab scope mein hai ${v.t}`,
  ],
  constraint: [
    (v) => `ek important baat: sirf published sources, koi unpublished LLM papers ya law-firm blogs nahi ${v.t}`,
    (v) => `case law sirf Supreme Court ka lenge, High Courts skip ${v.t}`,
    (v) => `chapter 10,000 words se zyada nahi hona chahiye, university rule hai ${v.t}`,
    (v) => `case law pe change: guide bol rahe hain High Courts bhi chahiye, especially Delhi aur Bombay, toh SC tak limited mat rakho ${v.t}`,
    (v) => `aur please judgments ke quotes exact do, quotation marks mein, paraphrase mat karna ${v.t}`,
    (v) => `word limit wala scene: university ne per-chapter cap hata diya, ab sirf poori dissertation ka limit hai ${v.t}`,
  ],
  deadline: [
    (v) => `chapter ka draft guide ko ${v.d} tak bhejna hai ${v.t}`,
    (v) => `guide ek conference ke liye ja rahe hain toh deadline pehle ho gayi — ab ${v.d} ${v.t}`,
    (v) => `extension mil gaya!! final chapter ab ${v.d} tak submit karna hai ${v.t}`,
  ],
  style: [
    (v) => `citations Bluebook 21st edition mein chahiye, university yahi use karti hai ${v.t}`,
    (v) => `citation style change: chapter pehle ek Indian journal mein article ban ke jayega, toh ILI citation style follow karenge ${v.t}`,
    (v) => `article wala plan baad mein; dissertation ke liye wapas university format, jo basically OSCOLA hai ${v.t}`,
  ],
  styleIds: [['bluebook-law-review', 'Bluebook (21st ed.)'], ['indian-law-institute', 'ILI citation style'], ['oscola', 'OSCOLA']],
  designation: [
    (v) => `Dresser Rand (${v.k}) is the anchor case for this chapter, isko central rakhna ${v.t}`,
    (v) => `Pollock & Mulla (${v.k}) ko bhi core sources mein daal do ${v.t}`,
    (v) => `Motilal Padampat, ${v.k}, ab estoppel wale part ka main authority hoga ${v.t}`,
    (v) => `Trimex (${v.k}) ko bhi key list mein add karo ${v.t}`,
  ],
  retraction: [
    (v) => `Dresser Rand (${v.k}) ke baare mein mind change — woh ab anchor nahi hai, bas ek aur case hai ${v.t}`,
    (v) => `Motilal (${v.k}) ko core list se hata do, estoppel wala part appendix mein ja raha hai ${v.t}`,
  ],
  failed: [
    (v) => `I tried to OCR the scanned 1958 Law Commission report, but the output is garbage — the scan is too faded, so that route is closed and we'll need another copy ${v.t}.`,
    (v) => `maine SCC Online pe "culpa in contrahendo" search kiya, kuch relevant nahi mila, 2-3 random results, woh raasta band ${v.t}`,
    (v) => `The Indian Kanoon search server timed out three times in a row, so I couldn't pull those High Court judgments that way ${v.t}.`,
    (v) => `I tried sorting the cases into contract vs tort vs estoppel, but most judgments don't classify the claim at all — the scheme doesn't work, so I dropped it ${v.t}.`,
    (v) => `Crossref has no record of Menon's JILI article, so fetching its metadata by DOI failed; I entered it by hand ${v.t}.`,
  ],
  decision: [
    (v) => `chalo decide karte hain: fact patterns se start karenge (late walk-out, parallel negotiations, confidential info leak), doctrines se nahi ${v.t}`,
    (v) => `I'll keep the German quotations in the original with your translation in the footnote, as we agreed ${v.t}.`,
    (v) => `final kiya: second comparator England hoga, Germany nahi ${v.t}`,
    (v) => `From now on I'm ordering the case table by date rather than by court, so the shift after Trimex shows clearly ${v.t}.`,
    (v) => `final position: main argue karunga ki promissory estoppel plus s. 70 kaafi hai, naya good faith duty nahi chahiye ${v.t}`,
  ],
  task: [
    (v) => `jab time mile, library ke saare judgments pe ch3-cases tag laga dena ${v.t}`,
    (v) => `I'll put together a one-page comparison table (India / England / Germany) on who bears wasted negotiation costs ${v.t}.`,
    (v) => `reminder: mujhe abhi check karna hai ki Dresser Rand ko kisi baad ke SC case ne distinguish kiya ya nahi ${v.t}`,
    (v) => `Delhi HC ke pre-contract wale judgments ek alag collection mein daal doge? ${v.t}`,
    (v) => `Next I'll check every pinpoint in section 3.2 against the reports in your library ${v.t}.`,
  ],
  taskDone: [
    (v) => `Done — I've tagged ${v.n} judgments with ch3-cases ${v.t}.`,
    (v) => `comparison table chapter mein daal diya, thanks ${v.t}`,
    (v) => `The Delhi HC collection is ready, eight judgments in it ${v.t}.`,
  ],
  hypothesis: [
    (v) => `mujhe lagta hai courts practically reliance se zyada de dete hain, bas bolte nahi ${v.t}`,
    (v) => `A hypothesis worth testing: after Trimex, High Courts may find concluded contracts in email exchanges more readily, which would shrink the pre-contract zone ${v.t}.`,
    (v) => `shayad German § 311 BGB ne culpa in contrahendo ko kam flexible bana diya? pata nahi ${v.t}`,
    (v) => `mera shak hai ki Law Commission ne kabhi pre-contractual liability dekha hi nahi ${v.t}`,
  ],
  closed: [
    (v) => `...aur haan, reliance wali baat sahi nikli — recent cases mein awards actually expenses se zyada hain ${v.t}`,
    (v) => `The later High Court cases don't bear that out — they still insist on the signed formal contract where the parties said so — so I'd drop that hypothesis ${v.t}.`,
    (v) => `Law Com wala shak galat tha — 13th Report mein s. 70 ke context mein discuss hua hai, toh hypothesis khatam ${v.t}`,
  ],
  finding: [
    { item: 0, n: [39, 44], loc: (n) => `para ${n}`, text: (v) => `On letters of intent, the key passage is Dresser Rand (${v.k}) at ${v.p}: the Court treats an LoI as merely expressing an intention to enter into a contract, with no binding obligation until the formal contract is executed ${v.t}.` },
    { item: 5, n: [30, 70], loc: (n) => `${n}`, text: (v) => `An agreement to negotiate is not a contract known to law, and the better view is that Indian courts would follow the English refusal to enforce it ${v.t}.` },
    { item: 8, n: [1029, 1031], loc: (n) => `at ${n}`, text: (v) => `yaar mil gaya — Kollipara Sriramulu (${v.k}) ${v.p} pe clearly hai ki "subject to formal contract" hone ke bawajood oral agreement binding ho sakta hai ${v.t}` },
    { item: 11, n: [181, 204], loc: (n) => `${n}`, quote: 'Indian law has no general doctrine of pre-contractual liability; relief is pieced together from estoppel and s. 70', text: (v) => `${v.t} isko intro mein use karna hai` },
    { item: 2, n: [430, 450], loc: (n) => `at ${n}`, text: (v) => `<p><b>Motilal Padampat</b> — Bhagwati J ${v.p}: promissory estoppel applies even against the Government where a party has altered its position on a promise ${v.t}</p><p>pre-contract reliance ke liye kaam aayega?</p>` },
    { item: 4, n: [160, 220], loc: (n) => `p. ${n}`, text: (v) => `Pollock & Mulla (${v.k}) at ${v.p} say expenses incurred during negotiations are not recoverable under s. 73, since there is no contract to breach ${v.t}.` },
    { item: 10, n: [8, 26], loc: (n) => `${n}`, text: (v) => `Once the parties have agreed on the essential terms through correspondence, the mere fact that a formal contract was to be executed later does not prevent a concluded contract from arising ${v.t}.` },
    { item: 1, n: [12, 16], loc: (n) => `para ${n}`, text: (v) => `Rickmers (${v.k}) ${v.p} bhi dekho — court ne kaha ki jab tak acceptance unconditional nahi hai, koi contract nahi bana ${v.t}` },
    { item: 4, n: [160, 220], loc: (n) => `p. ${n}`, text: (v) => `ek correction — Pollock & Mulla (${v.k}) wala passage ${v.p} pe hai, ${v.o} pe nahi, maine library mein print copy check ki ${v.t}` },
    { item: 6, n: [136, 139], loc: (n) => `${n}`, quote: 'a duty to negotiate in good faith is as unworkable in practice as it is inherently inconsistent with the position of a negotiating party', text: (v) => `${v.t} Indian courts ne isko follow kiya kya? check` },
    { item: 3, n: [70, 70], loc: (n) => `s. ${n}`, text: (v) => `<p>Contract Act ${v.p} — compensation for the benefit of a non-gratuitous act; pre-contract work ke liye best bet ${v.t}</p>` },
    { item: 12, n: [21, 34], loc: (n) => `para ${n}`, text: (v) => `The closest Indian Kanoon hit is the Delhi High Court's Jatinder Sawhney v Orbit Builders, already in your Zotero as ${v.k}: at ${v.p} the court refused damages for breaking off negotiations because no concluded contract existed ${v.t}.` },
  ],
};

// ---------------------------------------------------------------------------------------------------
const TABLES = { en: EN, it: IT, ru: RU, pl: PL, ar: AR, mixed: MIXED };
const READ = '\u0000read\u0000'; // where the sentence about the full-text read goes, once its length is known

/** A seeded session of `turns` turns for a model with a `window`-token context: `{ script, facts }`. */
export function makeSixthSession(seed, language, turns, window) {
  const L = TABLES[language];
  if (!L) throw new Error(`untuned-sixth: unknown language ${language}`);
  const r = rng(seed * 104_729 + 6_151 + 7_919 * LANGUAGES.indexOf(language)); // same seed, other language: other tags and keys
  const W = window;
  const cap = Math.floor(0.25 * W); // an assistant message stays under a quarter of the window (roughly)
  const used = new Set();
  const tag = () => {
    for (;;) {
      const t = `⟦${r.pick(TAG_LETTERS)}${r.pick(TAG_LETTERS)}·${r.int(100, 999)}⟧`;
      if (!used.has(t)) { used.add(t); return t; }
    }
  };
  const at = (share) => Math.min(turns - 2, Math.max(1, Math.round(share * turns) + r.int(-2, 2)));
  const P = factPlanner(tag, at);
  const randId = (n) => Array.from({ length: n }, () => r.pick(ID_CHARS)).join('');
  const callId = () => (r.next() < 0.6 ? `toolu_01${randId(22)}` : `call_${randId(24)}`);
  const stamp = () => `${r.int(2023, 2026)}-${pad2(r.int(1, 12))}-${pad2(r.int(1, 28))}T${pad2(r.int(7, 23))}:${pad2(r.int(0, 59))}:${pad2(r.int(0, 59))}Z`;
  const LIB = { type: 'user', id: L.user.id, name: L.user.name, links: { alternate: { href: `https://www.zotero.org/${L.user.name}`, type: 'text/html' } } };
  const api = (path) => `https://api.zotero.org/users/${L.user.id}/${path}`;
  const web = (key) => `https://www.zotero.org/${L.user.name}/items/${key}`;
  const taken = new Set();
  const freshKey = () => {
    for (;;) {
      const k = r.key();
      if (!taken.has(k)) { taken.add(k); return k; }
    }
  };
  const collection = freshKey();

  // The library: the table's items with keys, attachment keys and versions drawn for this session.
  const lib = L.items.map((it, i) => ({ ...it, i, key: freshKey(), att: freshKey(), version: r.int(150, 8800), added: stamp(), children: r.int(1, 6) }));
  const vars = (focus = null) => {
    const a = focus ?? r.pick(lib);
    let b = r.pick(lib);
    while (b === a) b = r.pick(lib);
    return { a: a.label, b: b.label, k: a.key, topic: r.pick(L.topics), n: r.int(2, 40), item: a };
  };

  // Planting: render a template with a placeholder for the tag and let the planner draw the tag.
  const put = (kind, share, who, fn, v = {}, extra = {}, meta = {}) => {
    const turn = share === 0 ? 0 : at(share);
    const fact = P.plant(kind, turn, who, fn({ ...vars(), ...v, t: '{t}' }), {}, extra);
    const list = P.plan.get(turn);
    Object.assign(list[list.length - 1], meta, { fact });
    return fact;
  };
  const supersede = (list) => list.forEach((f, i) => { if (list[i + 1]) f.staleBy = list[i + 1].probe; });
  const searchAt = new Map(); // turn -> items a search at that turn has to show
  const wantSearch = (turn, item) => searchAt.set(turn, [...(searchAt.get(turn) ?? []), item]);

  GOALS.forEach((share, i) => put('goal', share, 'user', L.goal[i]));
  const cons = CONSTRAINTS.map((share, i) => put('constraint', share, 'user', L.constraint[i]));
  for (const [old, now] of REPLACED) cons[old].staleBy = cons[now].probe;
  const day = (m, friday) => r.pick(Array.from({ length: 25 }, (_, i) => ({ y: 2026, m, d: i + 3 }))
    .map((x) => ({ ...x, wd: weekday(x) }))
    .filter((x) => (friday ? x.wd === 5 : x.wd >= 1 && x.wd <= 5)));
  const dates = [day(6, false), day(5, false), day(9, true)]; // June, then moved up to May, then extended to a Friday in September
  supersede(DEADLINES.map((share, i) => put('deadline', share, 'user', L.deadline[i], { d: L.dateFormats[i](dates[i]) })));
  const styles = STYLES.map((share, i) => put('style', share, 'user', L.style[i]));
  supersede(styles);
  const designated = DESIGNATIONS.map((share, i) => {
    const it = lib[L.designate[i]];
    const f = put('designation', share, 'user', L.designation[i], { k: it.key, a: it.label }, { key: it.key });
    wantSearch(Math.max(0, f.turn - r.int(1, 3)), it);
    return f;
  });
  RETRACTIONS.forEach((x, i) => {
    const it = lib[L.designate[x.of]];
    designated[x.of].staleBy = put('retraction', x.at, 'user', L.retraction[i], { k: it.key, a: it.label }, { key: it.key }).probe;
  });
  FAILED.forEach((f, i) => put('failed', f.at, f.who, L.failed[i], {}, {}, { error: f.error ?? null }));
  DECISIONS.forEach((d, i) => put('decision', d.at, d.who, L.decision[i]));
  const tagged = r.int(11, 26);
  const tasks = TASKS.map((t, i) => put('task', t.at, t.who, L.task[i]));
  DONE.forEach((d, i) => { tasks[d.task].staleBy = put('task-done', d.at, d.who, L.taskDone[i], { n: tagged }, {}, { tags: Boolean(d.tags) }).probe; });
  const hyps = HYPOTHESES.map((h, i) => put('hypothesis', h.at, h.who, L.hypothesis[i]));
  CLOSED.forEach((c, i) => { hyps[c.of].staleBy = put('hypothesis-closed', c.at, c.who, L.closed[i]).probe; });
  const findings = [];
  FINDINGS.forEach((spec, i) => {
    const F = L.finding[i];
    const it = lib[F.item];
    const prior = spec.corrects === undefined ? null : findings[spec.corrects];
    let n;
    let page;
    do {
      n = r.int(...F.n);
      page = F.loc(n, n + r.int(1, 3));
    } while (prior && page === prior.page);
    const key = spec.attachment ? it.att : it.key;
    const fact = put('finding', spec.at, spec.where, F.text, { k: key, p: page, a: it.label, o: prior?.page ?? '' }, { key, page }, {
      item: it, n, page, quote: F.quote ?? null, db: Boolean(spec.db),
    });
    if (prior) prior.staleBy = fact.probe;
    findings.push(fact);
  });

  // ------------------------------------------------------------------------------------------------
  // Tool parts.
  const tool = (name, input, output) => ({ type: `tool-${name}`, toolCallId: callId(), state: 'output-available', input, output });
  const toolFail = (name, input, errorText) => ({ type: `tool-${name}`, toolCallId: callId(), state: 'output-error', input, errorText });
  const dynamic = (toolName, input, output) => ({ type: 'dynamic-tool', toolName, toolCallId: callId(), state: 'output-available', input, output });
  const dynamicFail = (toolName, input, errorText) => ({ type: 'dynamic-tool', toolName, toolCallId: callId(), state: 'output-error', input, errorText });
  const creatorsOf = (it) => (it.creators ?? []).map(([last, first]) => (first ? { creatorType: it.editors ? 'editor' : 'author', firstName: first, lastName: last } : { creatorType: 'author', name: last }));
  const creatorSummary = (it) => {
    const c = it.creators ?? [];
    if (!c.length) return null;
    return c.length === 1 ? c[0][0] : c.length === 2 ? `${c[0][0]} and ${c[1][0]}` : `${c[0][0]} et al.`;
  };
  const span = (it) => `${it.pages[0]}–${it.pages[1]}`;
  const itemData = (it) => {
    const byType = {
      case: { caseName: it.title, creators: [], court: it.court ?? '', dateDecided: it.date, docketNumber: it.docket ?? '', reporter: it.reporter ?? '', reporterVolume: it.volume ?? '', firstPage: String(it.pages[0]), history: '' },
      statute: { nameOfAct: it.title, creators: [], code: it.code ?? '', codeNumber: '', publicLawNumber: '', dateEnacted: it.date, pages: '', section: it.section ?? '', session: '', history: '' },
      book: { title: it.title, creators: creatorsOf(it), series: it.series ?? '', seriesNumber: '', volume: '', numberOfVolumes: '', edition: it.edition ?? '', place: it.place ?? '', publisher: it.publisher ?? '', date: it.date, numPages: String(it.pages[1]), ISBN: '' },
      bookSection: { title: it.title, creators: creatorsOf(it), bookTitle: it.bookTitle ?? '', series: '', volume: '', edition: it.edition ?? '', place: it.place ?? '', publisher: it.publisher ?? '', date: it.date, pages: span(it), ISBN: '' },
      journalArticle: { title: it.title, creators: creatorsOf(it), publicationTitle: it.journal ?? '', volume: it.volume ?? '', issue: it.issue ?? '', pages: span(it), date: it.date, series: '', journalAbbreviation: it.abbr ?? '', DOI: '', ISSN: '' },
      thesis: { title: it.title, creators: creatorsOf(it), thesisType: it.thesisType ?? '', university: it.university ?? '', place: it.place ?? '', date: it.date, numPages: String(it.pages[1]) },
      report: { title: it.title, creators: creatorsOf(it), reportNumber: '', reportType: '', seriesTitle: '', place: it.place ?? '', institution: it.institution ?? '', date: it.date, pages: span(it) },
    };
    return {
      key: it.key, version: it.version, itemType: it.type, ...byType[it.type],
      abstractNote: '', language: it.lang ?? L.locale.slice(0, 2), shortTitle: it.label, url: '', accessDate: '', extra: '',
      tags: [], collections: [collection], relations: {}, dateAdded: it.added, dateModified: it.added,
    };
  };
  const apiItem = (it) => ({
    key: it.key, version: it.version, library: LIB,
    links: {
      self: { href: api(`items/${it.key}`), type: 'application/json' },
      alternate: { href: web(it.key), type: 'text/html' },
      attachment: { href: api(`items/${it.att}`), type: 'application/json', attachmentType: 'application/pdf', attachmentSize: 90_000 + ((it.version * 7919) % 8_000_000) },
    },
    meta: { ...(creatorSummary(it) ? { creatorSummary: creatorSummary(it) } : {}), parsedDate: it.date, numChildren: it.children },
    data: itemData(it),
  });
  const searchPart = (v, must) => {
    const most = Math.max(1, Math.min(9, Math.round(W / 9000)));
    const found = [...must];
    const want = Math.max(found.length, r.int(1, most));
    while (found.length < want) {
      const it = r.pick(lib);
      if (!found.includes(it)) found.push(it);
    }
    return tool('searchItems', { q: r.next() < 0.5 ? v.topic : found[0].label, qmode: r.pick(['titleCreatorYear', 'everything']), itemType: '-attachment', limit: 25 }, {
      headers: { 'Total-Results': String(found.length + r.int(0, 24)), 'Last-Modified-Version': String(9000 + r.int(0, 3000)) },
      body: found.map(apiItem),
    });
  };
  // A full-text read of about `tokens` tokens, with a "[[page N]]" marker per page; `find` puts a sentence on its page.
  const fullTextPart = (it, tokens, find) => {
    const [lo, hi] = it.pages;
    const target = find ? find.n : null;
    const start = target !== null ? Math.max(lo, target - r.int(0, 2)) : r.int(lo, Math.max(lo, hi - 2));
    const pages = [];
    let left = tokens;
    for (let page = start; page <= hi; page++) {
      const size = r.int(1800, 3200);
      const lines = [];
      let chars = 0;
      let cost = 0;
      const room = Math.max(40, left);
      while (chars < size && cost < room) {
        const s = r.pick(L.filler)(vars());
        lines.push(s);
        chars += s.length + 1;
        cost += estimateTokens(s) + 1;
      }
      if (page === target) lines.splice(r.int(0, lines.length), 0, find.text);
      const body = `[[page ${page}]]\n${lines.join(' ')}`;
      pages.push(body);
      left -= estimateTokens(body);
      if (left <= 0 && (target === null || page >= target)) break;
    }
    return tool('readFullText', { itemKey: it.key, maxChars: Math.round(tokens * 4) }, {
      itemKey: it.key, attachmentKey: it.att, contentType: 'application/pdf', indexedPages: pages.length, totalPages: hi - lo + 1, text: pages.join('\n\n'),
    });
  };
  const annotation = (it, { text, comment, page }) => {
    const key = freshKey();
    const version = it.version + r.int(1, 400);
    const pageIndex = Math.max(0, (Number.parseInt(page, 10) || it.pages[0]) - it.pages[0]);
    const [x, y] = [r.int(56, 320), r.int(90, 700)];
    return {
      key, version, library: LIB,
      links: { self: { href: api(`items/${key}`), type: 'application/json' }, alternate: { href: web(key), type: 'text/html' }, up: { href: api(`items/${it.att}`), type: 'application/json', attachmentType: 'application/pdf' } },
      meta: {},
      data: {
        key, version, parentItem: it.att, itemType: 'annotation', annotationType: text ? 'highlight' : 'note',
        ...(text ? { annotationText: text } : {}), annotationComment: comment, annotationColor: r.pick(COLORS), annotationPageLabel: page,
        annotationSortIndex: `${String(pageIndex).padStart(5, '0')}|${String(r.int(0, 99_999)).padStart(6, '0')}|${String(y).padStart(5, '0')}`,
        annotationPosition: JSON.stringify({ pageIndex, rects: [[x, y, x + r.int(120, 280), y + 11.5]] }),
        tags: [], relations: {}, dateAdded: stamp(), dateModified: stamp(),
      },
    };
  };
  const annotationsPart = (it, find = null) => {
    const most = Math.max(1, Math.min(7, Math.round(W / 14_000)));
    const list = Array.from({ length: r.int(1, most) }, () => {
      const [text, comment] = r.pick(L.annotBank)(vars());
      return annotation(it, { text, comment, page: String(r.int(it.pages[0], it.pages[1])) });
    });
    if (find) list.splice(r.int(0, list.length), 0, annotation(it, { text: find.quote, comment: find.text, page: find.page }));
    return tool('listAnnotations', { itemKey: it.key, includeComments: true }, list);
  };
  const note = (it, html) => {
    const key = freshKey();
    const version = it.version + r.int(1, 300);
    return {
      key, version, library: LIB,
      links: { self: { href: api(`items/${key}`), type: 'application/json' }, alternate: { href: web(key), type: 'text/html' }, up: { href: api(`items/${it.key}`), type: 'application/json' } },
      meta: { numChildren: 0 },
      data: { key, version, parentItem: it.key, itemType: 'note', note: `<div data-schema-version="9">${html}</div>`, tags: [], collections: [], relations: {}, dateAdded: stamp(), dateModified: stamp() },
    };
  };
  const notesPart = (it, find = null) => {
    const list = Array.from({ length: r.int(1, W >= 32_768 ? 3 : 1) }, () => note(it, r.pick(L.noteBank)(vars(it))));
    if (find) list.splice(r.int(0, list.length), 0, note(it, find.text));
    return tool('childNotes', { parentKey: it.key }, list);
  };
  const styleAt = (turn) => {
    let s = 0;
    styles.forEach((f, i) => { if (f.turn <= turn) s = i; });
    return L.styleIds[s];
  };
  const citePart = (items, turn) => {
    const [style, name, kind] = styleAt(turn);
    const locs = items.map((it) => ({ it, locator: String(r.int(it.pages[0], it.pages[1])) }));
    return [name, tool('formatCitations', { itemKeys: items.map((it) => it.key), style, locale: L.locale, format: 'text', locators: locs.map(({ it, locator }) => ({ itemKey: it.key, label: 'page', locator })) }, {
      style, locale: L.locale,
      citations: locs.map(({ it, locator }) => ({ itemKey: it.key, text: kind === 'author-date' ? `(${creatorSummary(it) ?? it.label}, ${it.date.slice(0, 4)}, p. ${locator})` : `${it.cite}, ${locator}.` })),
      bibliography: items.map((it) => it.cite).sort(),
    })];
  };
  const dynamicPart = (v, own = null) => {
    const hits = Array.from({ length: Math.max(2, Math.min(14, Math.round(W / 10_000))) }, () => L.dyn.hit({ ...v, n: r.int(1, 400), p1: r.pick(L.parties), p2: r.pick(L.parties) }));
    if (own) hits.splice(r.int(0, Math.min(2, hits.length)), 0, L.dyn.own(own));
    const text = `${hits.length + r.int(5, 400)} results\n${hits.map((h, i) => `${i + 1}. ${h}`).join('\n')}`;
    return [hits.length, dynamic(L.dyn.name, L.dyn.query(v), { content: [{ type: 'text', text }], isError: false })];
  };
  const errorPart = (kind, v) => {
    const scan = lib[L.scanned];
    switch (kind) {
      case 'ocr': return ['OCR', toolFail('readFullText', { itemKey: scan.key, ocr: true, maxChars: 40_000 }, `OCR failed for attachment ${scan.att}: mean word confidence 0.${r.int(8, 19)} over ${r.int(30, 120)} page images (150 dpi); no text layer written`)];
      case 'mcp': return ['MCP -32001', dynamicFail(L.dyn.name, L.dyn.query(v), 'MCP error -32001: Request timed out')];
      case 'crossref': {
        const it = lib[L.crossref];
        return ['Crossref 404', dynamicFail('crossref_works', { 'query.bibliographic': `${it.title} ${it.date.slice(0, 4)}`, rows: 3 }, 'Crossref API: 404 Not Found (Resource not found.)')];
      }
      case 'locked': return ['EBUSY', toolFail('readFullText', { itemKey: v.item.key, maxChars: 20_000 }, `EBUSY: resource busy or locked, open '/home/${L.user.name}/Zotero/storage/${v.item.att}/document.pdf'`)];
      case 'forbidden': return ['403', toolFail('searchItems', { q: v.topic, qmode: 'everything', limit: 25 }, 'Zotero Web API: 403 Forbidden (Invalid key)')];
      case 'ratelimit': return ['429', toolFail('searchItems', { q: v.topic, qmode: 'titleCreatorYear', limit: 25 }, 'Zotero Web API: 429 Too Many Requests (Backoff: 45)')];
      default: return ['401', toolFail('fetchPdf', { itemKey: v.item.key, url: `https://doi.org/10.${r.int(1000, 9999)}/${v.item.key.toLowerCase()}` }, 'HTTP 401 Unauthorized: institutional login required')];
    }
  };
  const tagsPart = () => {
    const keys = lib.filter((it) => it.type === 'case').map((it) => it.key);
    while (keys.length < tagged) keys.push(freshKey());
    const version = r.int(9000, 12_000);
    return tool('updateTags', { itemKeys: keys, add: [L.tagName] }, {
      successful: Object.fromEntries(keys.map((key, i) => [String(i), { key, version, data: { key, version, tags: [{ tag: L.tagName }] } }])),
      success: Object.fromEntries(keys.map((key, i) => [String(i), key])), unchanged: {}, failed: {},
    });
  };
  const typo = (s) => {
    if (language === 'ar' || r.next() > 0.3) return s;
    const words = s.split(' ');
    const i = r.int(0, words.length - 1);
    const w = words[i];
    if (w.length < 5 || !/^\p{L}+$/u.test(w)) return s;
    const j = r.int(1, w.length - 3);
    words[i] = `${w.slice(0, j)}${w[j + 1]}${w[j]}${w.slice(j + 2)}`;
    return words.join(' ');
  };

  // ------------------------------------------------------------------------------------------------
  // The turns.
  const script = [];
  for (let turn = 0; turn < turns; turn++) {
    const entries = P.plan.get(turn) ?? [];
    const userSays = entries.filter((e) => e.who === 'user');
    const mine = entries.filter((e) => e.who === 'assistant');
    const inTools = entries.filter((e) => TOOL_PLACES.has(e.who));
    const dbFinding = mine.find((e) => e.db);
    const errored = mine.filter((e) => e.error);
    const tagsDone = mine.find((e) => e.tags);
    const failedOn = { ocr: lib[L.scanned], crossref: lib[L.crossref] }[errored[0]?.error] ?? null;
    const focus = inTools[0]?.item ?? dbFinding?.item ?? failedOn ?? searchAt.get(turn)?.[0] ?? null;
    const v = vars(focus);
    const forced = inTools.length > 0 || Boolean(dbFinding) || errored.length > 0 || Boolean(tagsDone) || searchAt.has(turn);
    const quiet = !forced && turn > 0 && !userSays.length && !mine.length && r.next() < 0.08;
    const asks = !quiet && (turn === 0 || forced || !userSays.length || r.next() < 0.45);
    const roll = r.next();
    // A user who only states something gets an answer, not unrequested tool calls.
    const act = forced ? null : turn === 0 || quiet || !asks ? 'chat' : ROLL.find(([upTo]) => roll < upTo)[1];
    const askFor = ASK_FOR[inTools[0]?.who ?? (dbFinding ? 'dynamic' : errored[0]?.error ?? (searchAt.has(turn) ? 'search' : tagsDone ? 'tags' : act))] ?? 'chat';

    // The user's message: greeting, apology, an aside, what they have to say, a question.
    const pieces = [];
    if (turn > 0 && r.next() < 0.3) pieces.push(typo(r.pick(L.greet)));
    if (turn > 0 && r.next() < 0.07) pieces.push(typo(r.pick(L.sorry)));
    if (turn > 0 && r.next() < 0.2) pieces.push(typo(r.pick(L.chatter)));
    pieces.push(...userSays.map((e) => e.text));
    if (asks) pieces.push(typo(r.pick(L.ask[askFor])(v)));
    if (quiet) pieces.push(r.pick(L.thanks));
    const glue = (prev) => {
      const j = r.pick(L.joiners);
      return j === ' ' && /[\p{L}\p{N}⟧]$/u.test(prev) ? r.pick(language === 'ar' ? ['، ', '. ', ' '] : [', ', '. ', ' ']) : j;
    };
    const userText = pieces.map((p, i) => (i === 0 ? p : `${glue(pieces[i - 1])}${p}`)).join('');

    // The assistant's steps: tool calls (kept: they carry a planted fact), then the answer.
    const steps = [];
    const lead = [];
    let read = null; // { it, find, keep, at }: the full-text read, sized once the rest is known
    const step = (part, keep = false) => steps.push([{ part, keep }]);
    if (searchAt.has(turn)) {
      const part = searchPart(v, searchAt.get(turn));
      step(part);
      lead.push(r.pick(L.onSearch)({ ...v, n: part.output.body.length, a: searchAt.get(turn)[0].label }));
    }
    for (const e of inTools) {
      if (e.who === 'fulltext') read = { it: e.item, find: { n: e.n, text: e.text }, keep: true };
      if (e.who === 'annotation') {
        const part = annotationsPart(e.item, { quote: e.quote, text: e.text, page: e.page });
        step(part, true);
        lead.push(r.pick(L.onAnnot)({ ...v, a: e.item.label, n: part.output.length }));
      }
      if (e.who === 'note') {
        const part = notesPart(e.item, { text: e.text });
        step(part, true);
        lead.push(r.pick(L.onNotes)({ ...v, a: e.item.label, n: part.output.length }));
      }
    }
    for (const e of errored) {
      step(errorPart(e.error, v)[1], true);
      if (e.error === 'crossref') {
        const [name, part] = citePart([lib[L.crossref]], turn);
        step(part);
        lead.push(r.pick(L.onCite)({ ...v, s: name }));
      }
    }
    if (tagsDone) step(tagsPart(), true);
    if (dbFinding) {
      const [n, part] = dynamicPart(v, dbFinding.item);
      step(part, true);
      lead.push(r.pick(L.onDyn)({ ...v, n }));
    }
    if (act === 'search') {
      const part = searchPart(v, [v.item]);
      step(part);
      lead.push(r.pick(L.onSearch)({ ...v, n: part.output.body.length }));
    } else if (act === 'fulltext') {
      if (r.next() < 0.3) step(searchPart(v, [v.item]));
      read = { it: v.item, find: null, keep: false };
    } else if (act === 'annotation') {
      const part = annotationsPart(v.item);
      step(part);
      lead.push(r.pick(L.onAnnot)({ ...v, n: part.output.length }));
    } else if (act === 'note') {
      const part = notesPart(v.item);
      step(part);
      lead.push(r.pick(L.onNotes)({ ...v, n: part.output.length }));
    } else if (act === 'cite') {
      const [name, part] = citePart([v.item, r.pick(lib.filter((it) => it !== v.item))], turn);
      step(part);
      lead.push(r.pick(L.onCite)({ ...v, s: name }));
    } else if (act === 'dynamic') {
      const [n, part] = dynamicPart(v);
      step(part);
      lead.push(r.pick(L.onDyn)({ ...v, n }));
    } else if (act === 'chain') {
      // Four calls in three steps: a search, then the annotations and the full text together, then a citation.
      step(searchPart(v, [v.item]));
      step(annotationsPart(v.item));
      read = { it: v.item, find: null, keep: false, at: steps.length - 1 };
      const [name, part] = citePart([v.item], turn);
      step(part);
      lead.push(r.pick(L.onCite)({ ...v, s: name }));
    } else if (act === 'error') {
      const [short, part] = errorPart(r.pick(['locked', 'forbidden', 'ratelimit', 'paywall']), v);
      step(part);
      lead.push(r.pick(L.onError)({ ...v, e: short }));
      if (r.next() < 0.5) {
        const retry = searchPart(v, [v.item]);
        step(retry);
        lead.push(r.pick(L.onSearch)({ ...v, n: retry.output.body.length }));
      }
    }

    // The answer.
    const said = [];
    if (quiet) said.push(r.pick(L.social));
    else {
      said.push(...lead);
      if (read) said.push(READ);
      if (!asks && !mine.length) said.push(r.pick(L.ack));
      else if ((act === 'chat' && asks) || (asks && r.next() < 0.35) || (!lead.length && !read && !mine.length)) said.push(r.pick(L.reply)(v));
      said.push(...mine.map((e) => e.text));
      if (r.next() < 0.3) said.push(r.pick(L.closers));
    }
    const onRead = r.pick(L.onRead);
    const reasoning = r.next() < 0.35 ? { type: 'reasoning', text: r.pick(REASONING)(v) } : null;
    const build = (readPart) => {
      const all = steps.map((s) => s.filter((x) => x.part).map((x) => x.part));
      if (readPart) {
        if (read.at !== undefined) all[read.at].push(readPart);
        else all.push([readPart]);
      }
      const parts = [];
      all.filter((ps) => ps.length).forEach((ps, i) => {
        parts.push({ type: 'step-start' });
        if (i === 0 && reasoning) parts.push(reasoning);
        parts.push(...ps);
      });
      parts.push({ type: 'step-start' });
      if (parts.length === 1 && reasoning) parts.push(reasoning);
      const text = said.map((s) => (s === READ ? onRead({ ...v, a: read.it.label, n: readPart?.output.indexedPages ?? 1 }) : s)).join(' ');
      parts.push({ type: 'text', text });
      return { id: `a${turn}`, role: 'assistant', parts };
    };
    const size = (message) => estimateTokens(JSON.stringify(message));
    let assistant = build(null);
    // Too big for the window: drop calls that carry nothing planted, last first.
    for (let s = steps.length - 1; s >= 0 && size(assistant) > cap; s--) {
      for (const x of steps[s]) if (!x.keep) x.part = null;
      assistant = build(null);
    }
    if (read) {
      const big = read.keep || r.next() < 0.65;
      const share = big ? r.pick([0.05, 0.06, 0.08, 0.1, 0.12, 0.15, 0.18, 0.2]) : r.pick([0.01, 0.02, 0.03]);
      let want = Math.max(80, Math.min(Math.floor(share * W), cap - size(assistant) - 200));
      assistant = build(fullTextPart(read.it, want, read.find));
      for (let k = 0; k < 8 && size(assistant) > cap; k++) {
        want = Math.max(60, Math.floor(want * 0.7));
        assistant = build(fullTextPart(read.it, want, read.find));
      }
    }
    script.push({ user: { id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: userText }] }, assistant });
  }
  return { script, facts: P.facts.sort((a, b) => a.turn - b.turn) };
}
