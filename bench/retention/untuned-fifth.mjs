// Issue 40, a fifth held-out corpus: written without reading the rules (src/, js-glue/), the docs, the
// tests or the sentence tables of the other corpora, and not tuned to the package's results (the bench
// was run on it only as a smoke test). Topic: a history thesis on port quarantine and cholera in the
// nineteenth century, one port system per language: Liverpool/Marseille/Hamburg (en), the Intendance
// sanitaire of Marseille and the Frioul lazaret with Algiers (fr), Rio de Janeiro's Ilha Grande lazareto
// and Lisbon (pt, a Brazilian user), Busan and Chemulpo in the open-port era (ko), Ottoman quarantine in
// Istanbul, Izmir and Beirut (tr) and the Onrust hajj quarantine in Batavia (mixed: an Indonesian user
// who code-switches between Indonesian and English inside one message; the assistant answers in
// Indonesian). The Turkish, French and Portuguese users sometimes type without diacritics; users write
// long chatty messages with typos, apologies, thanks and off-topic asides, several statements at once,
// requirements with and without cue words, and replace them later in other words.
// Facts: the goal (first message, two refinements); six constraints, two of them replaced later; a
// deadline and a citation style that each change twice (dates as "the 14th of June", "29/05",
// "2026-09-18", "2026. 9. 18.(금)", "18 Eylül Cuma", "Jumat, 18 September"; styles named as "Chicago
// notes and bibliography", "ISO 690", "ABNT (NBR 6023)", "İSNAD 2. edisyon", "gaya selingkung" ...);
// four Zotero keys made central, two withdrawn; five tasks, three reported done (by either side); four
// hypotheses, three confirmed or rejected; five failed approaches and five decisions from both sides;
// thirteen findings with key and locator ("p. 214", "pp. 12–14", "p. 120-123", "ss. 12-14", "fol. 23v",
// "f° 23v", "fl. 23v", "vr. 23b", "23丁裏", "45쪽", "45~47쪽", "123頁", "col. 412", "§ 14", "art. 12",
// "제12조", "md. 12", "S. 57", "pag. 57", "blz. 57", "hlm. 88", "3면", a zotero://open-pdf link with
// ?page=), one of them corrected later, sitting in the assistant's prose, in the user's message, inside
// a full-text read only (key in the call's input, page only from the page marker), inside an annotation
// (annotationText or annotationComment, annotationPageLabel) or inside an HTML child note.
// Tool shapes (AI SDK v5 UIMessage parts): `tool-searchLibrary` answering Zotero Web API items
// ({ key, version, library, links, meta, data }) under { totalResults, items }; `tool-getFullText`
// answering { itemKey, attachmentKey, indexedPages, totalPages, content } with "--- page N ---" markers
// (often 5-20% of the window); `tool-getAnnotations` answering Web API annotation objects;
// `tool-getItemNotes` answering HTML child notes; `tool-formatCitation` (CSL style id, citations and a
// bibliography); `tool-addTags` answering the Web API write shape ({ successful, success, unchanged,
// failed }); a `dynamic-tool` per language (an MCP-style archive search: gallica_search,
// hemeroteca_search, koreanhistory_db, dergipark_search, delpher_search, hathitrust_search) answering
// { content: [{ type: 'text', text }] }; failures as `output-error` (OCR of a scan, Crossref lookups, the
// Zotero local API refusing connections, a timed-out MCP server, a translator); `reasoning` and
// `step-start` parts; turns with three or four tool calls in a row. Message ids u<turn> / a<turn>.
// Tags look like `〔q4x7〕`.
import { factPlanner, rng } from './sessions.mjs';

export const LANGUAGES = ['en', 'fr', 'pt', 'ko', 'tr', 'mixed'];

// ---------------------------------------------------------------------------------------------------
// Small helpers.

const LOWER = 'abcdefghijkmnpqrstuvwxyz';
const pad2 = (n) => String(n).padStart(2, '0');
const iso = (d) => `${d.y}-${pad2(d.m)}-${pad2(d.day)}`;
const weekday = (d) => new Date(Date.UTC(d.y, d.m - 1, d.day)).getUTCDay(); // 0 = Sunday
const ordinal = (n) => `${n}${n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th'}`;
const stripTurkish = (s) => s.replace(/[ıİşŞğĞçÇöÖüÜâ]/g, (c) => ({ ı: 'i', İ: 'I', ş: 's', Ş: 'S', ğ: 'g', Ğ: 'G', ç: 'c', Ç: 'C', ö: 'o', Ö: 'O', ü: 'u', Ü: 'U', â: 'a' })[c]);
const stripLatin = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').normalize('NFC');
/** The Korean particle of a pair ('이/가', '은/는', '을/를', '과/와', '이랑/랑', '이에요/예요') after a word's last syllable. */
const koParticle = (word, pair) => {
  const [withCoda, withoutCoda] = pair.split('/');
  const last = [...word].reverse().find((c) => c >= '\uac00' && c <= '\ud7a3');
  return last && (last.charCodeAt(0) - 0xac00) % 28 !== 0 ? withCoda : withoutCoda;
};
/** A Turkish case ending after an apostrophe on a name, by vowel harmony: Karaca'nın, Demirel'in, Aksoy'a. */
const trCase = (word, kind) => {
  const w = word.toLocaleLowerCase('tr');
  const last = [...w].filter((c) => 'aıoueiöü'.includes(c)).at(-1) ?? 'e';
  const endsVowel = 'aıoueiöü'.includes(w.at(-1));
  const A = 'aıou'.includes(last) ? 'a' : 'e';
  const I = { a: 'ı', ı: 'ı', o: 'u', u: 'u', e: 'i', i: 'i', ö: 'ü', ü: 'ü' }[last];
  const D = 'fstkçşhp'.includes(w.at(-1)) ? 't' : 'd';
  return `${word}'${{ gen: `${endsVowel ? 'n' : ''}${I}n`, dat: `${endsVowel ? 'y' : ''}${A}`, acc: `${endsVowel ? 'y' : ''}${I}`, loc: `${D}${A}` }[kind]}`;
};
/** Rough tokens: CJK and Hangul one a character, the rest four characters a token. */
export const estimateTokens = (s) => {
  let cjk = 0;
  for (const ch of s) if (/[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u9fff\uac00-\ud7af\uff00-\uffef]/.test(ch)) cjk += 1;
  return cjk + Math.ceil((s.length - cjk) / 4);
};

// ---------------------------------------------------------------------------------------------------
// Per language: the user's library (11 items; the session draws their keys), topics, chatter, questions,
// the assistant's replies, the source text of full-text reads, and the planted statements. Item roles:
// 0 main monograph, 1 article, 2 archival manuscript (folio locators), 3 second monograph, 4 printed
// primary source in a second language, 5 article on the comparison port, 6 a regulation (articles or
// paragraphs), 7 a dictionary or newspaper (columns, volume and page), 8 an official report (full text),
// 9 a thesis, 10 a newspaper article.
// Templates are functions of v: t (the fact's tag), k (a key), n/m (pages), f (a folio), d (a date), a/b
// (authors), y (year), topic, s (a style name), e (an error).

const EN = {
  locale: 'en-GB',
  folio: ['r', 'v'],
  shorts: { 2: 'the PSA minute book', 4: 'the Hamburg Bericht', 6: 'the 1872 Verordnung', 8: 'the MOH report', 10: 'the Mercury piece' },
  items: [
    { type: 'book', creators: [['Baldwin', 'Harriet']], title: 'Contagion and Commerce: Quarantine in the Port of Liverpool, 1820–1880', date: '2011', publisher: 'Liverpool University Press', place: 'Liverpool', pages: [1, 342], abs: 'A study of how Liverpool’s merchants, town council and the Privy Council fought over the detention of ships during the cholera years.' },
    { type: 'journalArticle', creators: [['Reyner', 'Tomas']], title: 'The Sloyne and the limits of port authority, 1832–1866', date: '2016', publicationTitle: 'Social History of Medicine', volume: '29', issue: '3', pages: [455, 478], abs: 'Reconstructs the use of the Sloyne anchorage as a quarantine ground and argues that it was a bargaining chip rather than a barrier.' },
    { type: 'manuscript', creators: [['Liverpool Port Sanitary Authority', '']], title: 'Minute book of the Port Sanitary Authority, vol. 3 (1873–1879)', date: '1873', archive: 'Liverpool Record Office', archiveLocation: '352 MIN/PSA/1/3', folios: [1, 240] },
    { type: 'book', creators: [['Lindqvist', 'Clara']], title: 'Harbour and Epidemic: Hamburg, 1830–1892', date: '2009', publisher: 'Cambridge University Press', place: 'Cambridge', pages: [1, 410], abs: 'The port of Hamburg between free trade and public health, ending with the cholera of 1892.' },
    { type: 'book', creators: [['Medicinal-Inspectorat Hamburg', '']], title: 'Die Cholera-Epidemie in Hamburg 1892: Amtlicher Bericht', date: '1893', publisher: 'Lütcke & Wulff', place: 'Hamburg', pages: [1, 286], language: 'de' },
    { type: 'journalArticle', creators: [['Mahmoud', 'Aisha']], title: 'Quarantine from the other shore: Alexandria’s Conseil sanitaire, 1831–1881', date: '2019', publicationTitle: 'Mediterranean Historical Review', volume: '34', issue: '2', pages: [201, 227], abs: 'How the consular board at Alexandria issued bills of health that decided the fate of ships in Marseille and Liverpool.' },
    { type: 'statute', creators: [], title: 'Verordnung, betreffend die Quarantäne-Anstalt im Hamburger Hafen', date: '1872', publisher: 'Senat der Freien und Hansestadt Hamburg', place: 'Hamburg', sections: [1, 40], language: 'de' },
    { type: 'encyclopediaArticle', creators: [['Marchand', 'L.']], title: 'Quarantaine', date: '1874', publicationTitle: 'Dictionnaire encyclopédique des sciences médicales', volume: '3e série, t. 2', columns: [1, 900], language: 'fr' },
    { type: 'report', creators: [['Medical Officer of Health for the Port of Liverpool', '']], title: 'Annual Report of the Medical Officer of Health for the Port of Liverpool, 1866', date: '1867', place: 'Liverpool', pages: [1, 96] },
    { type: 'thesis', creators: [['Okoro', 'Daniel']], title: 'Merchants and Miasma: Commercial Interests and Port Health in Liverpool, 1840–1875', date: '2021', university: 'University of Manchester', thesisType: 'PhD thesis', pages: [1, 312] },
    { type: 'newspaperArticle', creators: [], title: 'The cholera and the port', date: '1866-07-24', publicationTitle: 'Liverpool Mercury', pages: [5, 5] },
  ],
  topics: ['the Sloyne quarantine ground', 'the 1866 epidemic', 'bills of health', 'the Marseille Intendance', 'emigrant ships', 'the 1851 Paris conference', 'quarantine dues', 'boarding inspections', 'the Hamburg water supply', 'the health committee', 'the Alexandria board', 'yellow fever scares'],
  greet: ['hiya', 'morning!', 'hey again', 'ok back at it.', 'hi hi', 'evening —', 'right then'],
  chatter: [
    'sorry for vanishing yesterday, the train wifi died somewhere outside Crewe.',
    'coffee number three so forgive the typos',
    'my cat just walked over the keyboard, if you see "jjjjjj" anywhere ignore it',
    'thanks for the last lot btw, really useful',
    'ugh, marking season. anyway',
    'quick one before my seminar',
    'sorry, that last message was all over the place',
    'cheers for that!',
    'random q but is it normal that zotero takes ages to sync on the uni wifi?',
    'supervision went ok, she was in a good mood for once',
    'apologies if I repeat myself, long day',
  ],
  ask: [
    (v) => `can you find what I've got on ${v.topic}?`,
    (v) => `what does ${v.a} actually say about ${v.topic}? I remember it only vaguely`,
    (v) => `pull up the bit of ${v.a} ${v.y} on ${v.topic} pls`,
    (v) => `is there anything in the library on ${v.topic} I havent read yet`,
    (v) => `how does ${v.a} define the port, does it include the quarantine ground or not`,
    (v) => `compare ${v.a} and ${v.b} on ${v.topic}, briefly`,
    (v) => `do I have any primary sources on ${v.topic} or is it all secondary`,
    (v) => `can you give me the full ref for ${v.a} ${v.y}`,
    (v) => `whats the argument of the ${v.a} piece in one paragraph`,
    (v) => `any annotations of mine in ${v.a}? I feel like I highlighted loads`,
    (v) => `read me the section of ${v.a} where they get to ${v.topic}`,
  ],
  reply: [
    (v) => `Here's what I found on ${v.topic}. ${v.a} (${v.y}) is the most direct treatment: quarantine was applied selectively, tightened when trade was slack and relaxed when the cotton ships were due. ${v.b} is more cautious and treats the evidence before the 1850s as patchy.`,
    (v) => `${v.a} never gives a single definition, but in practice treats the port as the docks plus the river anchorage and leaves the quarantine ground outside it. That matters for your question, because it puts the quarantine officers outside the town's jurisdiction.`,
    (v) => `I went through the library: ${v.n} items touch on ${v.topic}, most of them secondary. The primary material is the Medical Officer's report, the minute book and one newspaper piece.`,
    (v) => `Short version: ${v.a} argues that quarantine was a bargaining tool between port and state rather than a medical measure, and that the medical arguments were mostly produced after the fact. Want me to pull the pages?`,
    (v) => `Nothing unread on ${v.topic} as far as I can tell; every item in that collection has at least one note or highlight of yours.`,
    (v) => `${v.a} and ${v.b} agree on the chronology but not on the motive: ${v.a} sees merchants capturing the health committee, ${v.b} sees a weak central state that left the decision to whoever was on the quay.`,
    (v) => `On ${v.topic}, the most useful pages are the ones on the summer of 1866, where ${v.a} sets the boarding figures against the death returns week by week.`,
  ],
  onSearch: [
    (v) => `The search returned ${v.n} items; the most relevant is ${v.a} (${v.y}).`,
    (v) => `${v.n} hits. I've left out the duplicates and the two items without a date.`,
    (v) => `Found ${v.n}. ${v.a} looks like the closest match to what you described.`,
  ],
  onRead: [
    (v) => `I read pages ${v.p} of ${v.a}.`,
    (v) => `From the full text (pages ${v.p}):`,
    (v) => `I've gone through ${v.a}, pages ${v.p}, and here is the gist.`,
  ],
  onAnnot: [(v) => `You have ${v.n} annotations in ${v.a}.`, (v) => `Your highlights in ${v.a}, in page order:`],
  onNotes: [(v) => `There are ${v.n} notes attached to ${v.a}.`, (v) => `Your notes on ${v.a}:`],
  onCite: [(v) => `Formatted in ${v.s}:`, (v) => `Here is the reference in ${v.s}.`],
  onDyn: [(v) => `The archive search found ${v.n} hits; the 1866 ones look most promising.`, (v) => `${v.n} results from the external search, none of them in your library yet.`],
  onError: [(v) => `That call failed (${v.e}). I'll work from what's already in the library.`, (v) => `The tool returned an error: ${v.e}. Let me try another way.`],
  closers: ['Anything else for this section?', 'Shall I keep going with the next one?', 'Let me know if you want the full quotation.', ''],
  joiners: [' ', ' ', '\n\n', ' also ', ' oh and '],
  // Source text of full-text reads (official reports and monographs in English).
  bank: [
    (v) => `The Sloyne anchorage lay some ${v.n} fathoms off Tranmere, and vessels under quarantine were required to hoist the yellow flag by day and show a light by night.`,
    (v) => `In the week ending the ${ordinal(v.m)} of August, ${v.n} deaths from cholera were registered in the parishes along the river.`,
    (v) => `The Board was informed that the agents of the Inman line objected to any detention beyond forty-eight hours, on the ground that the mails would be lost.`,
    (v) => `Of the emigrants embarked at the Clarence Dock, ${v.n} were examined by the surgeon, and all were passed as fit to proceed.`,
    (v) => `The question of who should bear the cost of fumigation was referred back to the Dock Trustees, who declined to vote any sum for the purpose.`,
    (v) => `It will be observed that the mortality fell most heavily upon the courts behind the docks, where the water was drawn from a single standpipe for ${v.n} families.`,
    (v) => `The Privy Council's order required the master to declare any sickness on board before pratique was given, but no penalty was attached to a false declaration.`,
    (v) => `Correspondence with the consul at Alexandria shows that clean bills of health were issued to ships that had lost men to fever during the passage.`,
    (v) => `The harbour master reported ${v.n} arrivals from Mediterranean ports in the quarter, of which none was detained.`,
    (v) => `Historians have tended to read these figures as evidence of negligence; they are better read as the outcome of a negotiation between the port and the town.`,
    (v) => `A boarding officer was stationed at the Rock Light from June, at a salary of ${v.n} pounds a year.`,
    (v) => `The committee resolved that no vessel should be sent to the quarantine ground unless the surgeon certified a case of Asiatic cholera on board.`,
  ],
  noteBank: [
    (v) => `<h2>${v.a}: reading notes</h2><p>Main claim: quarantine as negotiation. Good on ${v.topic}; weak on the 1840s.</p><ul><li>check the footnotes for the PSA minutes</li><li>compare with Mahmoud on bills of health</li></ul>`,
    (v) => `<p>Useful for chapter 2, section on ${v.topic}. Not convinced by the conclusion.</p>`,
    (v) => `<h3>Quotes</h3><blockquote>"the port is not a place but a set of permissions"</blockquote><p>(ask Dr O. whether this is too cute for the intro)</p>`,
  ],
  annotBank: [
    (v) => ['the port authority had no standing in the matter', 'cf. Reyner'],
    (v) => [`${v.n} vessels boarded in the quarter`, ''],
    (v) => ['quarantine was always, in the end, a question of money', 'yes!!'],
    (v) => ['the Privy Council never once overruled the local board', 'check this'],
  ],
  dyn: { name: 'hathitrust_search', query: (v) => `quarantine ${v.topic} 1866`, hit: (v) => ({ title: `Report on ${v.topic}`, date: String(1850 + (v.n % 40)), publisher: 'H.M. Stationery Office', htid: `uc1.b${3000000 + v.n * 37}` }) },
  // Planted statements.
  thanks: ['thanks!!', 'cheers, that’s perfect', 'brilliant, thank you', 'ok great, ta', 'perfect, thanks so much'],
  social: ['Glad it helped!', 'No worries at all.', 'Happy to help — shout when you need the next bit.', 'Sounds good.'],
  goal: [
    (v) => `hiya! ok so this is the big one. I'm starting the lit review chapter of my thesis, which is about how port cities ran cholera quarantine between 1832 and 1892, mainly Liverpool vs Marseille, with Hamburg 1892 as the end point ${v.t}. my Zotero library is a mess, about 400 items and half of them untagged, so be gentle`,
    (v) => `been thinking on the walk in: the chapter isn't really about "how ports handled cholera", it's about who had the power to stop a ship — the port, the town council or the state. that's the question I want the whole thing to hang on from now on ${v.t}`,
    (v) => `supervision update: Dr Okafor wants the view from the other end too, so Alexandria comes in as a secondary strand, the port the ships were coming FROM ${v.t}. not a full case study, more of a counterweight`,
  ],
  constraint: [
    (v) => `I can only really read English, French and German, so anything in Italian or Greek is no use to me unless there's a translation ${v.t}`,
    (v) => `for the moment nothing after 1880, the Hamburg end can wait ${v.t}`,
    (v) => `I've got zero travel money this year so its digitised stuff only, no archive trips ${v.t}`,
    (v) => `ok scratch the 1880 cut-off, go all the way to 1892, otherwise Hamburg makes no sense ${v.t}`,
    (v) => `pop histories are out. I don't care how readable they are, if it's not peer reviewed or a primary source it doesn't go in the chapter ${v.t}`,
    (v) => `BIG NEWS I got the SSHM travel grant!!! so archive material that isn't online is back on the table ${v.t}`,
  ],
  dateFormats: [
    (d) => `the ${ordinal(d.day)} of ${['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][d.m - 1]}`,
    (d) => `${pad2(d.day)}/${pad2(d.m)}`,
    (d) => `${iso(d)}, a ${['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'][weekday(d)]}`,
  ],
  deadline: [
    (v) => `the draft chapter has to be with Dr Okafor by ${v.d} ${v.t}, which sounds far away but isn't`,
    (v) => `change of plan, the upgrade panel got moved so she wants it on ${v.d} now ${v.t}. three weeks earlier, brilliant`,
    (v) => `panel postponed AGAIN, the portal now says ${v.d} ${v.t}. I'll believe it when I see it`,
  ],
  style: [
    (v) => `footnotes please, Chicago notes and bibliography, 17th ed., it's what the history dept uses ${v.t}`,
    (v) => `ugh, the graduate school just sent round the new thesis template and it's MHRA, so everything gets switched to MHRA from now ${v.t}`,
    (v) => `the chapter is going to Social History of Medicine first as an article and they want author-date, so Chicago author-date for anything new ${v.t}`,
  ],
  styleIds: [['chicago-note-bibliography', 'Chicago (notes and bibliography)'], ['modern-humanities-research-association', 'MHRA'], ['chicago-author-date', 'Chicago author-date']],
  designation: [
    (v) => `${v.k} is going to be my backbone text for the Liverpool side, keep it front and centre ${v.t}`,
    (v) => `flag ${v.k} as core please, I'll be citing it all over the Hamburg bit ${v.t}`,
    (v) => `this one, zotero://select/library/items/${v.k} - it's central for the Alexandria strand, treat it as a key text ${v.t}`,
    (v) => `put ${v.k} on the must-cite pile as well ${v.t}`,
  ],
  retraction: [
    (v) => `take ${v.k} off the core list, having read it properly it's mostly a rehash of Baldwin ${v.t}`,
    (v) => `and ${v.k} can go from the must-cite pile, it's a thesis, not peer reviewed, Dr O. was very clear ${v.t}`,
  ],
  failed: [
    (v) => `I tried running OCR over the scanned minute book through the full-text tool and it came back as unreadable noise (the scan is too low-resolution), so that route doesn't work and I won't try it again ${v.t}.`,
    (v) => `fyi I searched the British Newspaper Archive for "quarantine" AND "Mersey" and got something like 40,000 hits of pure junk, dead end, not doing that again ${v.t}`,
    (v) => `Looking up the 1850s Lancet pieces by DOI didn't work: Crossref has no DOIs for those volumes, so every lookup failed ${v.t}. I'll match them by title and page instead.`,
    (v) => `wrote to the Staatsarchiv Hamburg twice about the harbour police files, nothing back after six weeks. waste of time, not chasing them again ${v.t}`,
    (v) => `Machine translation of the Fraktur pages was unusable: the OCR misreads the long s and the translator then invents words, so I've stopped using it for the German sources ${v.t}.`,
  ],
  decision: [
    (v) => `right, decided: the chapter goes thematic, not chronological ${v.t}. chronological was just turning into a list`,
    (v) => `Then that's settled: the 1865–66 epidemic is the hinge of the chapter, with everything before it as build-up ${v.t}.`,
    (v) => `I'm going with "sanitary cordon" in English throughout, not "cordon sanitaire", the italics everywhere look fussy ${v.t}`,
    (v) => `As agreed, Alexandria gets its own short section at the end rather than being woven through the Liverpool and Marseille parts ${v.t}.`,
    (v) => `final answer on the chapter title: "Stopping the Ship". no more dithering ${v.t}`,
  ],
  task: [
    (v) => `when you get a sec can you tag everything on Marseille with "lazaret"? ${v.t}`,
    (v) => `I still have to transcribe the 1849 vestry minutes myself, they're handwritten and no tool will manage them ${v.t}`,
    (v) => `Next, I'll put together a timeline of the quarantine regulations in the three ports from 1832 to 1892, so you can see where they diverge ${v.t}.`,
    (v) => `remind me to ask the subject librarian about the Mersey Docks and Harbour Board papers ${v.t}`,
    (v) => `at some point could you draft bibliography entries for all the German primary sources? no rush ${v.t}`,
  ],
  taskDone: [
    (v) => `Done: every Marseille item now carries the "lazaret" tag (${v.n} items) ${v.t}.`,
    (v) => `finally finished transcribing the vestry minutes!! 38 pages, my eyes are square ${v.t}`,
    (v) => `spoke to the librarian about the Mersey Docks papers, all sorted, they're being pulled for me ${v.t}`,
  ],
  tagName: 'lazaret',
  hypothesis: [
    (v) => `my hunch: Liverpool kept quarantines short because the cotton brokers basically ran the health committee ${v.t}`,
    (v) => `One possibility worth testing: the Marseille lazaret lost its grip after 1849 because the railway to Lyon made long quarantines commercially impossible ${v.t}.`,
    (v) => `I wonder if the 1866 cholera came into Liverpool on Irish emigrant ships rather than from the Mediterranean at all ${v.t}`,
    (v) => `It may be that in 1892 Hamburg's unfiltered water mattered far more than anything the quarantine station did ${v.t}; the chapter could test that against Altona.`,
  ],
  closed: [
    (v) => `remember my cotton broker theory? the council lists back it up, three of the five health committee members in 1849 were brokers. so yes, confirmed ${v.t}`,
    (v) => `The railway explanation doesn't hold up: the Intendance's powers were actually widened in 1850, after the line was built, so I'd drop that idea ${v.t}.`,
    (v) => `Irish ship theory was wrong, the first 1866 cases were dockers who'd unloaded a ship from Rotterdam ${v.t}`,
  ],
  // Thirteen findings, in the order of FINDINGS below; `loc` says how the locator is drawn.
  finding: [
    { loc: 'p', text: (v) => `Baldwin is clear that the Sloyne quarantine ground was used only twice during 1832 and that both ships were released within a week (${v.k}, p. ${v.n}) ${v.t}.` },
    { loc: 'fol', text: (v) => `found it!!! minute book ${v.k}, fol. ${v.f}: they let the "Helen" land after only 48 hours because the agent vouched for the crew ${v.t}` },
    { loc: 'p', text: (v) => `Of the ${v.x} vessels from Mediterranean ports boarded in July, not one was sent to the Sloyne; the Officer "saw no cause to detain them" ${v.t}.` },
    { loc: 'p', quote: 'the Board of Health possessed no power whatever to compel the Dock Trustees', text: (v) => `key line for ch. 2!! ${v.t}` },
    { loc: 'pp', text: (v) => `Lindqvist puts the Hamburg Senate's delay in admitting the epidemic at six days (${v.k}, pp. ${v.n}–${v.m}) ${v.t}.` },
    { loc: 'col', text: (v) => `<h2>Marchand, "Quarantaine"</h2><p>quarantine "n'a jamais arrêté le choléra" — ${v.k}, col. ${v.n} ${v.t}</p><p>good epigraph?</p>` },
    { loc: 'p', text: (v) => `the German official report ${v.k} says on S. ${v.n} that the harbour police boarded 312 ships in the last two weeks of August ${v.t}, which is way more than I thought` },
    { loc: 'pp', text: (v) => `small thing, the Hamburg six-day delay is on pp. ${v.n}–${v.m} of ${v.k}, not where you had it ${v.t}` },
    { loc: 'fol', text: (v) => `Resolved, that the master of the barque "Mary Ann" be fined twenty pounds for landing passengers before pratique had been given ${v.t}.` },
    { loc: 'sec', text: (v) => `The 1872 Verordnung leaves the decision to hold a ship to the harbour physician alone, not the Senate (${v.k}, § ${v.n}) ${v.t}.` },
    { loc: 'p', quote: (v) => `the Conseil sanitaire at Alexandria was, in effect, run by the consuls of the European powers ${v.t}`, comment: 'Alexandria = consuls, not Egyptians' },
    { loc: 'p', text: (v) => `zotero://open-pdf/library/items/${v.k}?page=${v.n} <- this is where Baldwin gives the 1849 death figure for the port, 5,308 ${v.t}` },
    { loc: 'p', text: (v) => `The Medical Officer's report for 1866 counts 2,122 cholera deaths in the port district against more than 3,000 in the town (${v.k}, p. ${v.n}) ${v.t}.` },
  ],
};

const FR = {
  locale: 'fr-FR',
  folio: ['r', 'v'],
  shorts: { 2: '200 E 412', 4: 'la Relazione génoise', 6: '« Règlement de 1853 »', 8: '« Rapport de 1866 »', 10: 'l’article du Sémaphore' },
  items: [
    { type: 'book', creators: [['Castelli', 'Jeanne']], title: 'Le lazaret et la ville : Marseille face aux épidémies (1720-1880)', date: '2012', publisher: 'Presses universitaires de Provence', place: 'Aix-en-Provence', pages: [1, 388], abs: 'Histoire de l’Intendance sanitaire de Marseille, de la peste de 1720 aux dernières quarantaines de rigueur.' },
    { type: 'journalArticle', creators: [['Ferrand', 'Luc']], title: 'Patentes de santé et commerce levantin au XIXe siècle', date: '2014', publicationTitle: 'Revue d’histoire moderne et contemporaine', volume: '61', issue: '2', pages: [88, 115], abs: 'Les patentes de santé comme instrument commercial autant que sanitaire.' },
    { type: 'manuscript', creators: [['Intendance sanitaire de Marseille', '']], title: 'Registre des délibérations, 1834-1836', date: '1834', archive: 'Archives départementales des Bouches-du-Rhône', archiveLocation: '200 E 412', folios: [1, 220] },
    { type: 'book', creators: [['Moreau-Nakache', 'Sylvie']], title: 'Quarantaines : l’État, les ports et le choléra (1830-1900)', date: '2008', publisher: 'CNRS Éditions', place: 'Paris', pages: [1, 402], abs: 'L’État central face aux intendances portuaires, de la loi de 1822 aux conférences sanitaires internationales.' },
    { type: 'book', creators: [['Magistrato di Sanità di Genova', '']], title: 'Relazione sul colera del 1835 nel porto di Genova', date: '1836', publisher: 'Tipografia Ponthenier', place: 'Genova', pages: [1, 214], language: 'it' },
    { type: 'journalArticle', creators: [['Benali', 'Karima']], title: 'Le lazaret d’Alger et la frontière sanitaire de la Méditerranée (1830-1870)', date: '2017', publicationTitle: 'Revue d’histoire du XIXe siècle', volume: '55', pages: [121, 140], abs: 'Le lazaret d’Alger entre administration militaire et commerce marseillais.' },
    { type: 'statute', creators: [], title: 'Décret portant règlement général de police sanitaire maritime', date: '1853', publisher: 'Imprimerie impériale', place: 'Paris', sections: [1, 130] },
    { type: 'dictionaryEntry', creators: [['Marchand', 'L.']], title: 'Lazaret', date: '1868', publicationTitle: 'Dictionnaire encyclopédique des sciences médicales', volume: '2e série, t. 1', columns: [1, 880] },
    { type: 'report', creators: [['Intendance sanitaire de Marseille', '']], title: 'Rapport sur l’épidémie de choléra de 1865', date: '1866', place: 'Marseille', pages: [1, 132] },
    { type: 'thesis', creators: [['Garnier', 'Thomas']], title: 'Les médecins du lazaret : savoirs et pouvoirs sanitaires à Marseille (1822-1880)', date: '2019', university: 'Université Lumière Lyon 2', thesisType: 'Thèse de doctorat', pages: [1, 540] },
    { type: 'newspaperArticle', creators: [], title: 'Le choléra au Frioul', date: '1865-07-02', publicationTitle: 'Le Sémaphore de Marseille', pages: [2, 2] },
  ],
  topics: ['le lazaret du Frioul', 'l’épidémie de 1865', 'les patentes de santé', 'la quarantaine de rigueur', 'les pèlerins de La Mecque', 'la conférence de 1851', 'les droits sanitaires', 'l’arraisonnement', 'l’île de Pomègues', 'les intendants négociants', 'le lazaret d’Alger', 'la fièvre jaune de 1821'],
  greet: ['Bonjour !', 'salut', 're-bonjour', 'coucou', 'Bonsoir,', 'hello', 'me revoilà'],
  chatter: [
    'désolée pour hier, le TER est resté bloqué une heure avant Aubagne.',
    'troisième café de la matinée donc pardon pour les fautes',
    'merci pour la dernière fois, c’était super utile',
    'jsuis en pleine période de corrections de copies, bref',
    'une question rapide avant mon séminaire',
    'pardon, mon message d’avant partait dans tous les sens',
    'merci !!',
    'question bête mais c’est normal que Zotero mette trois plombes à synchroniser sur le wifi de la fac ?',
    'le rdv avec ma directrice s’est bien passé, elle était de bonne humeur',
    'excuse-moi si je me répète, longue journée',
    'il pleut à Marseille, c’est assez rare pour être signalé',
  ],
  ask: [
    (v) => `tu peux me retrouver ce que j’ai sur ${v.topic} ?`,
    (v) => `qu’est-ce que ${v.a} dit exactement sur ${v.topic} ? j’en ai un souvenir vague`,
    (v) => `tu peux me sortir le passage de ${v.a} ${v.y} sur ${v.topic} stp`,
    (v) => `est-ce que j’ai des choses sur ${v.topic} que j’ai pas encore lues`,
    (v) => `comment ${v.a} définit le port, le lazaret est dedans ou pas ?`,
    (v) => `compare ${v.a} et ${v.b} sur ${v.topic}, en deux mots`,
    (v) => `j’ai des sources primaires sur ${v.topic} ou c’est que de la bibliographie ?`,
    (v) => `donne-moi la référence complète de ${v.a} ${v.y}`,
    (v) => `c’est quoi la thèse de l’article de ${v.a} en un paragraphe`,
    (v) => `j’avais annoté ${v.a} ? j’ai l’impression d’avoir tout surligné`,
    (v) => `lis-moi la partie de ${v.a} où il est question de ${v.topic}`,
  ],
  reply: [
    (v) => `Voici ce que j’ai trouvé sur ${v.topic}. ${v.a} (${v.y}) est le plus direct : la quarantaine était appliquée de façon sélective, durcie quand le commerce ralentissait, assouplie à l’arrivée des convois du Levant. ${v.b} est plus prudent et juge les sources d’avant 1850 lacunaires.`,
    (v) => `${v.a} ne donne pas de définition unique, mais traite en pratique le port comme l’ensemble des bassins et de la rade, le lazaret restant à part. C’est important pour ta question : les gardes de santé échappaient de fait à la juridiction municipale.`,
    (v) => `J’ai parcouru la bibliothèque : ${v.n} références touchent à ${v.topic}, surtout de la littérature secondaire. Les sources primaires sont le registre de l’Intendance, le rapport de 1866 et un article du Sémaphore.`,
    (v) => `En bref : pour ${v.a}, la quarantaine est un instrument de négociation entre le port et l’État plus qu’une mesure médicale ; les arguments médicaux viennent souvent après coup. Je te sors les pages ?`,
    (v) => `Rien de non lu sur ${v.topic} à ma connaissance : chaque référence de cette collection a au moins une note ou un surlignage de ta part.`,
    (v) => `${v.a} et ${v.b} s’accordent sur la chronologie mais pas sur les motifs : ${v.a} voit des négociants qui tiennent l’Intendance, ${v.b} un État central faible qui laisse décider ceux qui sont sur le quai.`,
    (v) => `Sur ${v.topic}, les pages les plus utiles sont celles sur l’été 1865, où ${v.a} met en regard les arraisonnements et les décès semaine par semaine.`,
  ],
  onSearch: [(v) => `La recherche renvoie ${v.n} références ; la plus pertinente est ${v.a} (${v.y}).`, (v) => `${v.n} résultats, j’ai écarté les doublons.`, (v) => `${v.n} trouvées. ${v.a} correspond le mieux à ce que tu décris.`],
  onRead: [(v) => `J’ai lu les pages ${v.p} de ${v.a}.`, (v) => `D’après le texte intégral (p. ${v.p}) :`, (v) => `J’ai parcouru ${v.a}, p. ${v.p} ; voici l’essentiel.`],
  onAnnot: [(v) => `Tu as ${v.n} annotations dans ${v.a}.`, (v) => `Tes surlignages dans ${v.a}, dans l’ordre des pages :`],
  onNotes: [(v) => `Il y a ${v.n} notes rattachées à ${v.a}.`, (v) => `Tes notes sur ${v.a} :`],
  onCite: [(v) => `Mise en forme selon ${v.s} :`, (v) => `Voici la référence en ${v.s}.`],
  onDyn: [(v) => `Gallica renvoie ${v.n} résultats ; ceux de 1865 sont les plus prometteurs.`, (v) => `${v.n} résultats dans Gallica, aucun encore dans ta bibliothèque.`],
  onError: [(v) => `L’appel a échoué (${v.e}). Je travaille avec ce qui est déjà dans la bibliothèque.`, (v) => `L’outil a renvoyé une erreur : ${v.e}. J’essaie autrement.`],
  closers: ['Autre chose pour cette partie ?', 'Je continue avec la suivante ?', 'Dis-moi si tu veux la citation complète.', ''],
  joiners: [' ', ' ', '\n\n', ' et aussi ', ' ah et '],
  bank: [
    (v) => `Le navire fut mis en quarantaine à l’île de Pomègues, à ${v.n} brasses du rivage, avec ordre d’arborer le pavillon jaune de jour et un fanal la nuit.`,
    (v) => `Pendant la semaine finissant le ${v.m} août, on enregistra ${v.n} décès cholériques dans les quartiers voisins du port.`,
    (v) => `Les armateurs firent savoir à l’Intendance qu’une détention de plus de quarante-huit heures leur ferait perdre le courrier de Lyon.`,
    (v) => `Sur les passagers débarqués au lazaret, ${v.n} furent visités par le médecin et tous déclarés en état de poursuivre leur route.`,
    (v) => `La question des frais de parfum fut renvoyée à la Chambre de commerce, qui refusa de voter la moindre somme à cet effet.`,
    (v) => `On remarquera que la mortalité frappa surtout les rues derrière le quai, où ${v.n} familles puisaient l’eau à une seule fontaine.`,
    (v) => `Le règlement obligeait le capitaine à déclarer toute maladie à bord avant l’admission en libre pratique, sans attacher de peine à une fausse déclaration.`,
    (v) => `La correspondance du consul à Alexandrie montre que des patentes nettes furent délivrées à des navires ayant perdu des hommes pendant la traversée.`,
    (v) => `Le capitaine du port signale ${v.n} arrivées des ports du Levant pendant le trimestre, dont aucune ne fut retenue.`,
    (v) => `L’historiographie a souvent lu ces chiffres comme le signe d’une négligence ; on les lira plutôt comme le résultat d’une négociation entre le port et la ville.`,
    (v) => `Un garde de santé fut placé au Frioul à partir de juin, aux appointements de ${v.n} francs par an.`,
    (v) => `L’Intendance arrêta qu’aucun navire ne serait envoyé en quarantaine de rigueur sans certificat du médecin constatant un cas de choléra asiatique.`,
  ],
  noteBank: [
    (v) => `<h2>${v.a} : notes de lecture</h2><p>Thèse : la quarantaine comme négociation. Bien sur ${v.topic} ; faible sur les années 1840.</p><ul><li>vérifier les notes vers 200 E</li><li>comparer avec Ferrand sur les patentes</li></ul>`,
    (v) => `<p>Utile pour le ch. 2, partie ${v.topic}. Pas convaincue par la conclusion.</p>`,
    (v) => `<h3>Citations</h3><blockquote>« le port n’est pas un lieu mais un faisceau d’autorisations »</blockquote><p>(trop joli pour l’intro ? demander à ma directrice)</p>`,
  ],
  annotBank: [
    (v) => ['l’Intendance n’avait aucune qualité pour en connaître', 'cf. Ferrand'],
    (v) => [`${v.n} navires arraisonnés dans le trimestre`, ''],
    (v) => ['la quarantaine fut toujours, au fond, une affaire d’argent', 'oui !!'],
    (v) => ['le ministre ne désavoua jamais l’Intendance', 'à vérifier'],
  ],
  dyn: { name: 'gallica_search', query: (v) => `quarantaine ${v.topic} 1865`, hit: (v) => ({ title: `Rapport sur ${v.topic}`, date: String(1830 + (v.n % 50)), source: 'gallica.bnf.fr', ark: `ark:/12148/bpt6k${9000000 + v.n * 131}` }) },
  thanks: ['merci !!', 'top, merci beaucoup', 'parfait, merci', 'super, c’est exactement ça', 'merci, ça m’aide vraiment'],
  social: ['Avec plaisir !', 'Pas de souci.', 'Ravi que ça serve, dis-moi pour la suite.', 'Ça marche.'],
  goal: [
    (v) => `Bonjour ! Alors voilà, je commence enfin le chapitre 2 de ma thèse : l’Intendance sanitaire de Marseille et le lazaret du Frioul face au choléra, de 1832 à 1884, avec Alger comme point de comparaison ${v.t}. Ma bibliothèque Zotero est un vrai chantier, je te préviens`,
    (v) => `je réfléchissais dans le métro : au fond mon sujet c’est moins le choléra que la question de savoir qui décide de fermer le port, l’Intendance, le préfet ou Paris. c’est ça le fil rouge maintenant ${v.t}`,
    (v) => `retour de réunion avec ma directrice : elle veut que j’ajoute un volet sur les pèlerins de La Mecque qui passaient par Marseille, en contrepoint, pas comme une étude de cas complète ${v.t}`,
  ],
  constraint: [
    (v) => `je lis le français, l’anglais et l’italien ; pour le reste (grec, turc, arabe) il faut une traduction sinon ça ne me sert à rien ${v.t}`,
    (v) => `pour l’instant on s’arrête à 1870, la suite viendra dans un autre chapitre ${v.t}`,
    (v) => `pas de budget mission cette année, donc uniquement ce qui est numérisé (Gallica, Retronews, les AD en ligne) ${v.t}`,
    (v) => `bon, oublie la limite de 1870, on va jusqu’à 1884, sinon l’épidémie de Toulon-Marseille n’a aucun sens ${v.t}`,
    (v) => `les livres de vulgarisation c’est non. les blogs non plus. que des publications scientifiques ou des sources ${v.t}`,
    (v) => `GRANDE nouvelle : j’ai eu l’aide à la mobilité de l’école doctorale !! donc les archives non numérisées, c’est de nouveau possible ${v.t}`,
  ],
  dateFormats: [
    (d) => `le ${d.day === 1 ? '1er' : d.day} ${['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'][d.m - 1]}`,
    (d) => `${pad2(d.day)}/${pad2(d.m)}`,
    (d) => `${['dimanche', 'lundi', 'mardi', 'mercredi', 'jeudi', 'vendredi', 'samedi'][weekday(d)]} ${d.day} ${['janvier', 'février', 'mars', 'avril', 'mai', 'juin', 'juillet', 'août', 'septembre', 'octobre', 'novembre', 'décembre'][d.m - 1]}`,
  ],
  deadline: [
    (v) => `le chapitre doit être chez ma directrice ${v.d} ${v.t}, ça paraît loin mais pas du tout`,
    (v) => `changement de programme, le comité de suivi a été avancé, elle le veut pour le ${v.d} ${v.t}. génial.`,
    (v) => `comité repoussé (encore), maintenant c’est ${v.d} ${v.t}, on verra bien`,
  ],
  style: [
    (v) => `pour les références : norme ISO 690, c’est ce que demande l’école doctorale ${v.t}`,
    (v) => `la revue où je vais soumettre l’article (les Annales du Midi) a son propre protocole, notes de bas de page à l’ancienne avec op. cit. et ibid., donc on passe à ça ${v.t}`,
    (v) => `finalement ce sera Chicago auteur-date, le jury est international ${v.t}`,
  ],
  styleIds: [['iso690-author-date-fr-no-abstract', 'ISO 690'], ['annales-du-midi', 'le protocole des Annales du Midi'], ['chicago-author-date-fr', 'Chicago auteur-date']],
  designation: [
    (v) => `${v.k} va être mon ouvrage de référence pour tout le chapitre, garde-le bien en tête ${v.t}`,
    (v) => `mets ${v.k} dans les textes centraux stp, je vais le citer partout pour la partie sur l’État ${v.t}`,
    (v) => `celui-là : zotero://select/library/items/${v.k}, c’est LA référence pour Alger, à considérer comme central ${v.t}`,
    (v) => `ajoute aussi ${v.k} aux incontournables ${v.t}`,
  ],
  retraction: [
    (v) => `enlève ${v.k} des textes centraux, en le lisant vraiment c’est surtout du réchauffé de Castelli ${v.t}`,
    (v) => `et ${v.k} on le sort des incontournables, c’est une thèse non publiée, ma directrice a été claire ${v.t}`,
  ],
  failed: [
    (v) => `J’ai essayé de passer l’OCR sur le registre numérisé via l’outil de texte intégral : le résultat est illisible (numérisation trop basse résolution), donc cette piste ne marche pas et je ne la retenterai pas ${v.t}.`,
    (v) => `au fait j’ai cherché « quarantaine » + « Frioul » sur Retronews et j’ai eu 12 000 résultats inutilisables, impasse, je refais pas ${v.t}`,
    (v) => `La recherche des articles des Annales d’hygiène publique par DOI a échoué : Crossref n’a aucun DOI pour ces volumes du XIXe siècle ${v.t}. Je vais les identifier par titre et pagination.`,
    (v) => `j’ai écrit deux fois aux archives de la chambre de commerce pour les registres de patentes, aucune réponse en six semaines. je laisse tomber ${v.t}`,
    (v) => `La traduction automatique des rapports italiens n’est pas exploitable : « contumacia » et « spurgo » sont systématiquement mal rendus, donc j’arrête de l’utiliser pour ces sources ${v.t}.`,
  ],
  decision: [
    (v) => `c’est décidé, plan thématique et pas chronologique ${v.t}. en chrono ça devenait une liste de courses`,
    (v) => `C’est donc acté : l’épidémie de 1865 sert de pivot au chapitre, tout ce qui précède est présenté comme une montée en tension ${v.t}.`,
    (v) => `j’écris « Intendance » avec une majuscule partout, même quand c’est générique, tant pis ${v.t}`,
    (v) => `Comme convenu, le volet pèlerins aura sa propre section courte en fin de chapitre au lieu d’être dispersé ${v.t}.`,
    (v) => `titre définitif du chapitre : « Fermer le port ». je ne change plus ${v.t}`,
  ],
  task: [
    (v) => `quand tu as un moment, tu peux taguer tout ce qui concerne le Frioul avec « lazaret » ? ${v.t}`,
    (v) => `il faut encore que je transcrive moi-même les délibérations de 1835, c’est manuscrit, aucun outil ne s’en sortira ${v.t}`,
    (v) => `Je vais ensuite préparer une chronologie des règlements sanitaires de 1822 à 1884 pour Marseille et Alger, pour voir où ils divergent ${v.t}.`,
    (v) => `rappelle-moi de demander à la bibliothécaire pour les fonds de la chambre de commerce ${v.t}`,
    (v) => `à un moment, tu pourras me préparer les notices bibliographiques de toutes les sources italiennes ? pas urgent ${v.t}`,
  ],
  taskDone: [
    (v) => `C’est fait : les ${v.n} références sur le Frioul portent maintenant le tag « lazaret » ${v.t}.`,
    (v) => `j’ai ENFIN fini de transcrire les délibérations de 1835, 41 pages, j’ai les yeux qui piquent ${v.t}`,
    (v) => `j’ai vu la bibliothécaire pour les fonds de la chambre de commerce, c’est réglé, ils me sortent les cartons ${v.t}`,
  ],
  tagName: 'lazaret',
  hypothesis: [
    (v) => `mon intuition : si les quarantaines restent courtes à Marseille, c’est que les négociants tenaient l’Intendance ${v.t}`,
    (v) => `Une hypothèse à vérifier : le lazaret aurait perdu de son autorité après l’arrivée du chemin de fer en 1848, les longues quarantaines devenant intenables pour le commerce ${v.t}.`,
    (v) => `je me demande si le choléra de 1865 n’est pas arrivé avec les pèlerins revenant de La Mecque plutôt que directement d’Alexandrie ${v.t}`,
    (v) => `Il se peut qu’en 1884 l’état des égouts ait compté bien plus que le lazaret lui-même ${v.t} ; on pourrait le tester en comparant avec Toulon.`,
  ],
  closed: [
    (v) => `tu te souviens de mon idée sur les négociants ? les listes le confirment, sur les 16 intendants de 1835, 11 étaient négociants. donc c’est confirmé ${v.t}`,
    (v) => `L’explication par le chemin de fer ne tient pas : les pouvoirs de l’Intendance ont même été élargis en 1850, après l’ouverture de la ligne. J’abandonnerais cette piste ${v.t}.`,
    (v) => `l’histoire des pèlerins c’était faux, les premiers cas de 1865 sont des portefaix qui avaient déchargé un navire venu d’Alexandrie ${v.t}`,
  ],
  finding: [
    { loc: 'p', text: (v) => `Castelli montre que le lazaret du Frioul n’a reçu que deux navires en quarantaine de rigueur en 1832, tous deux libérés en moins d’une semaine (${v.k}, p. ${v.n}) ${v.t}.` },
    { loc: 'fol', text: (v) => `trouvé !!! registre ${v.k}, f° ${v.f} : ils ont laissé débarquer les passagers du « Saint-Louis » au bout de 48 heures seulement, sur la parole du capitaine ${v.t}` },
    { loc: 'p', text: (v) => `Sur les ${v.x} navires venus des ports du Levant en juillet, aucun ne fut envoyé au Frioul ; l’Intendance « n’y vit aucun motif de rigueur » ${v.t}.` },
    { loc: 'p', quote: 'l’Intendance n’avait aucun pouvoir de contraindre la Chambre de commerce', text: (v) => `phrase clé pour le ch. 2 !! ${v.t}` },
    { loc: 'pp-', text: (v) => `Moreau-Nakache estime à six jours le retard du préfet pour reconnaître l’épidémie (${v.k}, p. ${v.n}-${v.m}) ${v.t}.` },
    { loc: 'col', text: (v) => `<h2>Marchand, « Lazaret »</h2><p>la quarantaine « n’a jamais arrêté le choléra » — ${v.k}, col. ${v.n} ${v.t}</p><p>épigraphe ?</p>` },
    { loc: 'p', text: (v) => `le rapport génois ${v.k} dit pag. ${v.n} que la Santé de Gênes a inspecté 312 navires en août ${v.t}, beaucoup plus que ce que je pensais` },
    { loc: 'pp-', text: (v) => `petite correction : le retard de six jours, c’est p. ${v.n}-${v.m} dans ${v.k}, pas là où tu l’avais mis ${v.t}` },
    { loc: 'fol', text: (v) => `Arrêté que le capitaine du brick « la Jeune Adèle » sera condamné à cinq cents francs d’amende pour avoir débarqué des passagers avant la libre pratique ${v.t}.` },
    { loc: 'art', text: (v) => `Le règlement de 1853 confie la décision de retenir un navire au seul directeur de la santé, et non au préfet (${v.k}, art. ${v.n}) ${v.t}.` },
    { loc: 'p', quote: (v) => `le lazaret d’Alger fonctionnait en pratique sous l’autorité directe du gouverneur général ${v.t}`, comment: 'Alger = les militaires !' },
    { loc: 'p', text: (v) => `zotero://open-pdf/library/items/${v.k}?page=${v.n} ← c’est là que Castelli donne le chiffre des morts de 1849 dans le port, 2 306 ${v.t}` },
    { loc: 'p', text: (v) => `Le rapport de l’Intendance pour 1865 compte 1 804 décès cholériques dans la ville (${v.k}, p. ${v.n}) ${v.t}.` },
  ],
};

const PT = {
  locale: 'pt-BR',
  folio: ['', 'v'],
  shorts: { 2: 'IS4 12', 4: '"Relatório da Junta"', 6: '"Decreto 9.554"', 8: '"Relatório de 1889"', 10: '"Jornal do Commercio"' },
  items: [
    { type: 'book', creators: [['Tavares', 'Helena']], title: 'O porto e a peste: quarentenas no Rio de Janeiro imperial', date: '2013', publisher: 'Editora Fiocruz', place: 'Rio de Janeiro', pages: [1, 356], abs: 'A Inspetoria de Saúde dos Portos, os comerciantes e o governo imperial diante da febre amarela e do cólera.' },
    { type: 'journalArticle', creators: [['Pacheco', 'Rodrigo']], title: 'Cartas de saúde e comércio atlântico no século XIX', date: '2015', publicationTitle: 'História, Ciências, Saúde – Manguinhos', volume: '22', issue: '3', pages: [811, 832], abs: 'As cartas de saúde como instrumento comercial e diplomático entre o Rio, Lisboa e os portos do Prata.' },
    { type: 'manuscript', creators: [['Lazareto da Ilha Grande', '']], title: 'Livro de registro de embarcações, 1886-1889', date: '1886', archive: 'Arquivo Nacional', archiveLocation: 'Série Saúde, IS4 12', folios: [1, 200] },
    { type: 'book', creators: [['Queiroz', 'Marta']], title: 'Entre Lisboa e o Rio: Estado, portos e epidemias (1850-1900)', date: '2010', publisher: 'Imprensa de Ciências Sociais', place: 'Lisboa', pages: [1, 380], abs: 'Uma história comparada das autoridades sanitárias portuárias de Lisboa e do Rio de Janeiro.' },
    { type: 'report', creators: [['Junta de Saúde Pública', '']], title: 'Relatório da Junta de Saúde Pública sobre a epidemia de 1857', date: '1858', place: 'Lisboa', pages: [1, 240] },
    { type: 'journalArticle', creators: [['Almeida', 'Joana']], title: 'O Lazareto de Lisboa e a fronteira sanitária do Atlântico', date: '2018', publicationTitle: 'Ler História', volume: '72', pages: [97, 121], abs: 'O lazareto da Trafaria entre o governo civil, a alfândega e os navios do Brasil.' },
    { type: 'statute', creators: [], title: 'Decreto n. 9.554, de 3 de fevereiro de 1886: regulamento do serviço sanitário dos portos', date: '1886', publisher: 'Typographia Nacional', place: 'Rio de Janeiro', sections: [1, 160] },
    { type: 'dictionaryEntry', creators: [['Chernoviz', 'Pedro Luiz Napoleão']], title: 'Quarentena', date: '1890', publicationTitle: 'Diccionario de medicina popular', volume: '2', pages: [1, 1120] },
    { type: 'report', creators: [['Inspetoria Geral de Saúde dos Portos', '']], title: 'Relatório do Inspetor Geral de Saúde dos Portos, 1889', date: '1890', place: 'Rio de Janeiro', pages: [1, 148] },
    { type: 'thesis', creators: [['Lima', 'Bruno']], title: 'Médicos do porto: a Inspetoria de Saúde e a cidade (1843-1889)', date: '2020', university: 'Universidade Federal do Rio de Janeiro', thesisType: 'Dissertação de mestrado', pages: [1, 186] },
    { type: 'newspaperArticle', creators: [], title: 'A febre amarela no porto', date: '1889-02-12', publicationTitle: 'Jornal do Commercio', pages: [1, 1] },
  ],
  topics: ['o lazareto da Ilha Grande', 'a epidemia de 1873', 'as cartas de saúde', 'a quarentena rigorosa', 'os navios de imigrantes', 'o regulamento de 1886', 'as taxas sanitárias', 'a visita do guarda-mor', 'a Trafaria', 'os comissários de café', 'o lazareto de Lisboa', 'a febre amarela de 1850'],
  greet: ['oi!', 'oii', 'bom dia!', 'voltei', 'boa noite', 'olá de novo', 'e aí'],
  chatter: [
    'desculpa sumir ontem, o metrô parou na Central e fiquei uma hora presa.',
    'terceiro café do dia então perdoa os erros de digitação',
    'valeu pela última vez, ajudou demais',
    'tô corrigindo prova de graduação, enfim',
    'pergunta rápida antes do seminário',
    'foi mal, a mensagem anterior ficou confusa',
    'brigada!!',
    'pergunta boba mas é normal o Zotero demorar uma eternidade pra sincronizar no wifi da universidade?',
    'a reunião com a orientadora foi tranquila, ela tava de bom humor',
    'desculpa se eu tô me repetindo, dia longo',
    'tá um calor absurdo aqui no Rio hoje',
  ],
  ask: [
    (v) => `vc consegue achar o que eu tenho sobre ${v.topic}?`,
    (v) => `o que ${v.a} diz exatamente sobre ${v.topic}? lembro bem vagamente`,
    (v) => `me traz o trecho de ${v.a} ${v.y} sobre ${v.topic} pfv`,
    (v) => `tem alguma coisa na biblioteca sobre ${v.topic} que eu ainda não li?`,
    (v) => `como ${v.a} define o porto, o lazareto entra ou não?`,
    (v) => `compara ${v.a} e ${v.b} sobre ${v.topic}, rapidinho`,
    (v) => `eu tenho fonte primária sobre ${v.topic} ou é tudo bibliografia?`,
    (v) => `me dá a referência completa de ${v.a} ${v.y}`,
    (v) => `qual o argumento do texto de ${v.a} num parágrafo`,
    (v) => `eu tinha anotado ${v.a}? acho que grifei tudo`,
    (v) => `lê pra mim a parte de ${v.a} que fala de ${v.topic}`,
  ],
  reply: [
    (v) => `Aqui está o que encontrei sobre ${v.topic}. ${v.a} (${v.y}) é o tratamento mais direto: a quarentena era aplicada de forma seletiva, endurecida quando o comércio estava fraco e afrouxada na chegada dos navios de café. ${v.b} é mais cauteloso e considera as fontes anteriores a 1850 lacunares.`,
    (v) => `${v.a} não dá uma definição única, mas na prática trata o porto como o cais mais o ancoradouro, deixando o lazareto de fora. Isso importa para a sua pergunta, porque coloca os guardas de saúde fora da jurisdição da Câmara.`,
    (v) => `Percorri a biblioteca: ${v.n} itens tratam de ${v.topic}, a maioria bibliografia secundária. As fontes primárias são o livro de registro, o relatório de 1889 e uma matéria do Jornal do Commercio.`,
    (v) => `Resumindo: para ${v.a}, a quarentena era um instrumento de negociação entre o porto e o Estado mais do que uma medida médica; os argumentos médicos muitas vezes vinham depois. Quer que eu traga as páginas?`,
    (v) => `Nada não lido sobre ${v.topic}, pelo que vejo: todos os itens dessa coleção têm pelo menos uma nota ou grifo seu.`,
    (v) => `${v.a} e ${v.b} concordam na cronologia, mas não nos motivos: ${v.a} vê os comissários controlando a Junta, ${v.b} vê um Estado central fraco que deixava a decisão para quem estava no cais.`,
    (v) => `Sobre ${v.topic}, as páginas mais úteis são as do verão de 1873, em que ${v.a} cruza as visitas aos navios com os óbitos semana a semana.`,
  ],
  onSearch: [(v) => `A busca trouxe ${v.n} itens; o mais relevante é ${v.a} (${v.y}).`, (v) => `${v.n} resultados, tirei os duplicados.`, (v) => `Encontrei ${v.n}. ${v.a} é o que mais se aproxima do que você descreveu.`],
  onRead: [(v) => `Li as páginas ${v.p} de ${v.a}.`, (v) => `Pelo texto completo (p. ${v.p}):`, (v) => `Passei por ${v.a}, p. ${v.p}; o essencial é isto.`],
  onAnnot: [(v) => `Você tem ${v.n} anotações em ${v.a}.`, (v) => `Seus grifos em ${v.a}, na ordem das páginas:`],
  onNotes: [(v) => `Há ${v.n} notas ligadas a ${v.a}.`, (v) => `Suas notas sobre ${v.a}:`],
  onCite: [(v) => `Formatado em ${v.s}:`, (v) => `Aqui está a referência em ${v.s}.`],
  onDyn: [(v) => `A Hemeroteca trouxe ${v.n} resultados; os de 1873 parecem os mais promissores.`, (v) => `${v.n} resultados na Hemeroteca Digital, nenhum ainda na sua biblioteca.`],
  onError: [(v) => `A chamada falhou (${v.e}). Vou trabalhar com o que já está na biblioteca.`, (v) => `A ferramenta devolveu um erro: ${v.e}. Vou tentar de outro jeito.`],
  closers: ['Mais alguma coisa para esta seção?', 'Sigo com a próxima?', 'Me avisa se quiser a citação completa.', ''],
  joiners: [' ', ' ', '\n\n', ' e tb ', ' ah e '],
  bank: [
    (v) => `O navio foi mandado para a Ilha Grande, fundeando a ${v.n} braças da praia, com ordem de içar a bandeira amarela de dia e acender um farol à noite.`,
    (v) => `Na semana terminada a ${v.m} de fevereiro, registraram-se ${v.n} óbitos de febre amarela nas freguesias vizinhas ao cais.`,
    (v) => `Os consignatários fizeram saber à Inspetoria que uma detenção de mais de quarenta e oito horas faria perder a mala do paquete.`,
    (v) => `Dos imigrantes desembarcados na Ilha das Flores, ${v.n} foram examinados pelo médico e todos julgados aptos a seguir viagem.`,
    (v) => `A questão de quem pagaria as desinfecções foi devolvida à Associação Comercial, que se recusou a votar qualquer quantia.`,
    (v) => `Note-se que a mortalidade atingiu sobretudo os cortiços atrás do cais, onde ${v.n} famílias tiravam água de um único chafariz.`,
    (v) => `O regulamento obrigava o capitão a declarar qualquer doença a bordo antes da livre prática, mas não previa pena para a declaração falsa.`,
    (v) => `A correspondência do cônsul em Lisboa mostra que cartas de saúde limpas foram passadas a navios que tinham perdido homens na travessia.`,
    (v) => `O capitão do porto informa ${v.n} entradas de portos do Norte no trimestre, nenhuma delas retida.`,
    (v) => `A historiografia leu esses números como sinal de negligência; é melhor lê-los como resultado de uma negociação entre o porto e a cidade.`,
    (v) => `Um guarda de saúde foi posto na Ilha Grande a partir de junho, com vencimentos de ${v.n}$000 réis por ano.`,
    (v) => `A Inspetoria resolveu que nenhum navio iria para a quarentena rigorosa sem atestado médico de caso de cólera ou febre amarela a bordo.`,
  ],
  noteBank: [
    (v) => `<h2>${v.a}: fichamento</h2><p>Tese: quarentena como negociação. Bom sobre ${v.topic}; fraco nos anos 1850.</p><ul><li>conferir as notas do Arquivo Nacional</li><li>comparar com Pacheco sobre cartas de saúde</li></ul>`,
    (v) => `<p>Útil pro cap. 2, parte de ${v.topic}. Não me convenceu na conclusão.</p>`,
    (v) => `<h3>Citações</h3><blockquote>"o porto não é um lugar, é um conjunto de licenças"</blockquote><p>(bonito demais pra introdução? perguntar pra orientadora)</p>`,
  ],
  annotBank: [
    (v) => ['a Inspetoria não tinha qualquer competência na matéria', 'cf. Pacheco'],
    (v) => [`${v.n} navios visitados no trimestre`, ''],
    (v) => ['a quarentena foi sempre, no fundo, uma questão de dinheiro', 'sim!!'],
    (v) => ['o ministro nunca desautorizou a Inspetoria', 'conferir'],
  ],
  dyn: { name: 'hemeroteca_search', query: (v) => `quarentena ${v.topic} 1873`, hit: (v) => ({ periodico: 'Jornal do Commercio (RJ)', data: `${1850 + (v.n % 50)}-0${1 + (v.n % 9)}-1${v.n % 10}`, pagina: String(1 + (v.n % 4)), url: `http://memoria.bn.br/DocReader/364568_0${v.n % 9}/${1000 + v.n * 7}` }) },
  thanks: ['valeu!!', 'perfeito, obrigada', 'ótimo, brigadão', 'era isso mesmo, obrigada', 'show, valeu demais'],
  social: ['Imagina!', 'Sem problema.', 'Que bom que ajudou, me chama pro próximo passo.', 'Combinado.'],
  goal: [
    (v) => `oi! então, finalmente comecei o capítulo 2 da tese: quarentenas marítimas no Rio de Janeiro e em Lisboa entre 1850 e 1904, do Lazareto da Ilha Grande até a reforma do Oswaldo Cruz ${v.t}. minha biblioteca do Zotero tá um caos, já aviso kkk`,
    (v) => `tava pensando no ônibus: no fundo a tese não é sobre "como os portos lidaram com as epidemias", é sobre quem tinha o poder de segurar um navio, a Inspetoria, a Câmara ou o governo imperial. esse é o fio condutor agora ${v.t}`,
    (v) => `reunião com a orientadora: ela quer que eu inclua os navios de imigrantes italianos como contraponto, não como estudo de caso completo ${v.t}`,
  ],
  constraint: [
    (v) => `eu leio português, espanhol, francês e inglês. alemão e italiano só com tradução ${v.t}`,
    (v) => `por enquanto para em 1889, a República fica pro próximo capítulo ${v.t}`,
    (v) => `tô sem verba pra viagem esse ano, então só coisa digitalizada (Hemeroteca, BNDigital, Arquivo Nacional online) ${v.t}`,
    (v) => `esquece o corte de 1889, vai até 1904, senão a Revolta da Vacina fica solta ${v.t}`,
    (v) => `livro de divulgação não entra. nem blog. só artigo revisado por pares, livro acadêmico ou fonte primária ${v.t}`,
    (v) => `GENTE saiu a bolsa sanduíche!!! então arquivo físico volta a valer, inclusive a Torre do Tombo ${v.t}`,
  ],
  dateFormats: [
    (d) => `dia ${d.day} de ${['janeiro', 'fevereiro', 'março', 'abril', 'maio', 'junho', 'julho', 'agosto', 'setembro', 'outubro', 'novembro', 'dezembro'][d.m - 1]}`,
    (d) => `${pad2(d.day)}/${pad2(d.m)}`,
    (d) => `${['domingo', 'segunda', 'terça', 'quarta', 'quinta', 'sexta', 'sábado'][weekday(d)]}, ${pad2(d.day)}/${pad2(d.m)}/${d.y}`,
  ],
  deadline: [
    (v) => `o capítulo tem que estar com a minha orientadora até o ${v.d} ${v.t}, parece longe mas não é`,
    (v) => `mudou tudo, a qualificação foi antecipada e ela quer o texto até ${v.d} ${v.t}. ótimo né`,
    (v) => `adiaram a qualificação de novo, agora é ${v.d} ${v.t}. vamos ver`,
  ],
  style: [
    (v) => `referências no padrão ABNT (NBR 6023), é o que o programa exige ${v.t}`,
    (v) => `a revista pra onde vou mandar o artigo pede Chicago com nota de rodapé, então muda tudo pra Chicago notas ${v.t}`,
    (v) => `no fim a banca vai ser internacional e pediram APA 7ª edição, usa APA daqui pra frente ${v.t}`,
  ],
  styleIds: [['associacao-brasileira-de-normas-tecnicas', 'ABNT'], ['chicago-note-bibliography', 'Chicago (notas)'], ['apa', 'APA 7']],
  designation: [
    (v) => `${v.k} vai ser meu livro-base pra parte do Rio, não esquece dele ${v.t}`,
    (v) => `marca ${v.k} como central pfv, vou citar em tudo na parte de Lisboa ${v.t}`,
    (v) => `esse aqui: zotero://select/library/items/${v.k} — é a referência principal pros navios de imigrantes, trata como central ${v.t}`,
    (v) => `põe ${v.k} na lista dos obrigatórios tb ${v.t}`,
  ],
  retraction: [
    (v) => `tira ${v.k} da lista dos centrais, lendo direito é basicamente a Tavares requentada ${v.t}`,
    (v) => `e ${v.k} sai dos obrigatórios, é dissertação, não passou por revisão por pares, minha orientadora foi bem clara ${v.t}`,
  ],
  failed: [
    (v) => `Tentei rodar OCR no livro de registro digitalizado pela ferramenta de texto completo e o resultado saiu ilegível (a digitalização é de baixa resolução), então esse caminho não funciona e não vou tentar de novo ${v.t}.`,
    (v) => `aliás, pesquisei "quarentena" + "Ilha Grande" na Hemeroteca e vieram 15 mil resultados inúteis, beco sem saída, não faço de novo ${v.t}`,
    (v) => `A busca dos artigos da Gazeta Medica da Bahia por DOI falhou: o Crossref não tem DOI para esses volumes do século XIX ${v.t}. Vou identificá-los por título e páginas.`,
    (v) => `mandei e-mail duas vezes pro arquivo da Capitania dos Portos e nada em seis semanas. desisto ${v.t}`,
    (v) => `A tradução automática dos relatórios italianos ficou imprestável: termos como "contumacia" e "spurgo" saem sempre errados, então parei de usar para essas fontes ${v.t}.`,
  ],
  decision: [
    (v) => `decidi: o capítulo vai ser temático e não cronológico ${v.t}. cronológico tava virando lista`,
    (v) => `Então fica combinado: a epidemia de febre amarela de 1873 é o eixo do capítulo, e o que vem antes funciona como preparação ${v.t}.`,
    (v) => `vou usar "Inspetoria" e não "Inspectoria", grafia atualizada em todo o texto ${v.t}`,
    (v) => `Como combinado, os navios de imigrantes ficam numa seção curta própria no fim, em vez de espalhados pelo capítulo ${v.t}.`,
    (v) => `título final do capítulo: "Segurar o navio". não mudo mais ${v.t}`,
  ],
  task: [
    (v) => `quando der, vc pode colocar a tag "lazareto" em tudo que for sobre a Ilha Grande? ${v.t}`,
    (v) => `ainda preciso transcrever eu mesma os ofícios de 1887, são manuscritos e nenhuma ferramenta dá conta ${v.t}`,
    (v) => `Na sequência vou montar uma linha do tempo dos regulamentos sanitários do Rio e de Lisboa de 1850 a 1904, para ver onde eles divergem ${v.t}.`,
    (v) => `me lembra de perguntar pra bibliotecária sobre o acervo da Associação Comercial ${v.t}`,
    (v) => `em algum momento vc consegue montar as referências de todas as fontes francesas? sem pressa ${v.t}`,
  ],
  taskDone: [
    (v) => `Pronto: os ${v.n} itens sobre a Ilha Grande agora têm a tag "lazareto" ${v.t}.`,
    (v) => `TERMINEI de transcrever os ofícios de 1887, 36 páginas, tô vesga ${v.t}`,
    (v) => `falei com a bibliotecária sobre o acervo da Associação Comercial, resolvido, vão separar as caixas pra mim ${v.t}`,
  ],
  tagName: 'lazareto',
  hypothesis: [
    (v) => `minha intuição: as quarentenas no Rio eram curtas pq os comissários de café mandavam na Junta de Higiene ${v.t}`,
    (v) => `Uma hipótese a testar: o lazareto de Lisboa teria perdido autoridade depois de 1856, porque os vapores regulares tornaram as quarentenas longas inviáveis ${v.t}.`,
    (v) => `fico pensando se a febre amarela de 1873 não chegou por navios de imigrantes e não pelos navios do Norte ${v.t}`,
    (v) => `Pode ser que, em 1904, o saneamento urbano tenha pesado muito mais do que o próprio lazareto ${v.t}; dá para testar comparando com Santos.`,
  ],
  closed: [
    (v) => `lembra da minha ideia dos comissários de café? as atas confirmam, dos 7 membros da Junta em 1873, 4 eram comissários. confirmado ${v.t}`,
    (v) => `A explicação pelos vapores não se sustenta: os poderes do lazareto de Lisboa foram até ampliados em 1857, depois da linha regular. Eu abandonaria essa ideia ${v.t}.`,
    (v) => `a ideia dos imigrantes tava errada, os primeiros casos de 1873 foram estivadores que descarregaram um navio vindo da Bahia ${v.t}`,
  ],
  finding: [
    { loc: 'p', text: (v) => `Tavares mostra que o lazareto só recebeu dois navios em quarentena rigorosa em 1850, ambos liberados em menos de uma semana (${v.k}, p. ${v.n}) ${v.t}.` },
    { loc: 'fol', text: (v) => `achei!!! livro de registro ${v.k}, fl. ${v.f}: deixaram desembarcar os passageiros do "Provence" depois de só 48 horas, com a palavra do comandante ${v.t}` },
    { loc: 'p', text: (v) => `Dos ${v.x} navios procedentes de portos do Norte em fevereiro, nenhum foi mandado à Ilha Grande; a Inspetoria "não viu motivo para rigor" ${v.t}.` },
    { loc: 'p', quote: 'a Inspetoria não tinha poder algum para obrigar a Associação Comercial', text: (v) => `frase-chave pro cap. 2!! ${v.t}` },
    { loc: 'pp-', text: (v) => `Queiroz calcula em seis dias o atraso do governo em reconhecer a epidemia (${v.k}, p. ${v.n}-${v.m}) ${v.t}.` },
    { loc: 'p', text: (v) => `<h2>Chernoviz, verbete "Quarentena"</h2><p>a quarentena "nunca deteve a febre amarela" — ${v.k}, v. 2, p. ${v.n} ${v.t}</p><p>epígrafe?</p>` },
    { loc: 'p', text: (v) => `o relatório da Junta ${v.k} diz na pág. ${v.n} que a polícia do porto de Lisboa visitou 312 navios em agosto ${v.t}, muito mais do que eu imaginava` },
    { loc: 'pp-', text: (v) => `pequena correção: o atraso de seis dias tá na p. ${v.n}-${v.m} do ${v.k}, não onde vc colocou ${v.t}` },
    { loc: 'fol', text: (v) => `Multado em 200$000 réis o capitão da barca "Esperança" por desembarcar passageiros antes da livre prática ${v.t}.` },
    { loc: 'art', text: (v) => `O regulamento de 1886 deixa a decisão de reter um navio só com o inspetor de saúde do porto, e não com o ministro (${v.k}, art. ${v.n}) ${v.t}.` },
    { loc: 'p', quote: (v) => `o lazareto de Lisboa funcionava na prática sob o comando direto do governador civil ${v.t}`, comment: 'Lisboa = governo civil' },
    { loc: 'p', text: (v) => `zotero://open-pdf/library/items/${v.k}?page=${v.n} ← aqui a Tavares dá o número de mortos de 1850 no porto, 4.160 ${v.t}` },
    { loc: 'p', text: (v) => `O relatório do Inspetor Geral de 1889 registra 2.156 óbitos por febre amarela na cidade (${v.k}, p. ${v.n}) ${v.t}.` },
  ],
};

const KO = {
  locale: 'ko-KR',
  folio: ['丁表', '丁裏'],
  shorts: { 2: '검역일지', 4: '『부산부사원고』', 6: '검역규칙', 7: '『한성순보』', 8: '위생 보고서', 10: '『독립신문』' },
  items: [
    { type: 'book', creators: [['김서연', '']], title: '개항장의 방역: 부산항 검역체계의 형성, 1876-1910', date: '2014', publisher: '혜안', place: '서울', pages: [1, 364], abs: '부산항에서 일본 영사관, 조선 정부, 해관이 검역 권한을 두고 벌인 경쟁을 추적한다.' },
    { type: 'journalArticle', creators: [['이준호', '']], title: '개항기 부산 일본 거류지의 피병원과 검역 권한', date: '2015', publicationTitle: '의사학', volume: '24', issue: '2', pages: [321, 356], abs: '절영도 피병원의 설치와 운영을 통해 거류지 검역의 법적 근거를 검토한다.' },
    { type: 'manuscript', creators: [['釜山港検疫所', '']], title: '釜山港検疫日誌 (1886-1887)', date: '1886', archive: '부산근대역사관', archiveLocation: '소장 문서 검-12', folios: [1, 120], language: 'ja' },
    { type: 'book', creators: [['박민규', '']], title: '조선 정부와 근대 검역, 1876-1910', date: '2008', publisher: '서울대학교출판문화원', place: '서울', pages: [1, 412], abs: '통리기무아문에서 내부 위생국까지, 조선 정부의 검역 행정을 다룬다.' },
    { type: 'book', creators: [['釜山府', '']], title: '釜山府史原稿', date: '1937', publisher: '釜山府', place: '釜山', pages: [1, 980], language: 'ja' },
    { type: 'journalArticle', creators: [['정하은', '']], title: '제물포 개항장의 검역과 해관, 1883-1899', date: '2019', publicationTitle: '한국근현대사연구', volume: '88', pages: [7, 41], abs: '인천 해관의 검역 관여와 각국 영사단의 대응을 분석한다.' },
    { type: 'statute', creators: [], title: '검역규칙(1899)', date: '1899', publisher: '내부', place: '한성', sections: [1, 30] },
    { type: 'newspaperArticle', creators: [], title: '論防疫', date: '1884-03-18', publicationTitle: '한성순보', pages: [1, 4] },
    { type: 'report', creators: [['부산광역시 시사편찬위원회', '']], title: '국역 부산항 위생 보고서(1886-1895)', date: '2016', place: '부산', pages: [1, 318] },
    { type: 'thesis', creators: [['최유진', '']], title: '개항기 부산의 의사들: 검역 의관과 거류지 의사', date: '2021', university: '부산대학교', thesisType: '석사학위논문', pages: [1, 142] },
    { type: 'newspaperArticle', creators: [], title: '괴질 예방', date: '1899-09-14', publicationTitle: '독립신문', pages: [1, 1] },
  ],
  topics: ['절영도 피병원', '1886년 콜레라', '검역증명서', '정선(停船) 검역', '일본 거류지', '1899년 검역규칙', '검역 비용', '임검(臨檢)', '제물포 해관', '상인회와 영사관', '동래부의 역할', '1879년 유행'],
  greet: ['안녕하세요!', '안녕하세요~', '저 왔어요', '좋은 아침이에요', '다시 왔어요 ㅎㅎ', '저녁이네요', '하이'],
  chatter: [
    '어제 갑자기 사라져서 죄송해요, KTX 와이파이가 대전 지나서 끊겼어요 ㅠㅠ',
    '오늘 커피 세 잔째라 오타 있어도 이해해 주세요',
    '지난번에 정리해 주신 거 진짜 도움 됐어요 감사해요',
    '요즘 조교 일로 채점하느라 정신이 없네요 아무튼',
    '세미나 들어가기 전에 빨리 하나만요',
    '아까 메시지 너무 두서없었죠 죄송해요',
    '감사합니다!!',
    '엉뚱한 질문인데 학교 와이파이에서 조테로 동기화 원래 이렇게 오래 걸려요?',
    '교수님 면담 잘 끝났어요, 오늘은 기분이 좋으셨어요',
    '혹시 같은 말 반복하면 죄송해요, 오늘 좀 피곤해서요',
    '부산은 오늘 비 와요 ㅎㅎ',
  ],
  ask: [
    (v) => `${v.topic} 관련해서 제가 갖고 있는 자료 찾아주실 수 있어요?`,
    (v) => `${v.a}${v.ko(v.a, '이/가')} ${v.topic}에 대해서 정확히 뭐라고 했는지 기억이 가물가물해요`,
    (v) => `${v.a} ${v.y}에서 ${v.topic} 나오는 부분 좀 보여주세요`,
    (v) => `${v.topic}에 관해서 제가 아직 안 읽은 자료 있어요?`,
    (v) => `${v.a}${v.ko(v.a, '은/는')} '항구'를 어떻게 정의해요? 피병원까지 포함하는 건가요?`,
    (v) => `${v.a}${v.ko(v.a, '이랑/랑')} ${v.b}${v.ko(v.b, '을/를')} ${v.topic} 기준으로 간단히 비교해 주세요`,
    (v) => `${v.topic}에 대한 1차 사료가 있나요 아니면 전부 연구서예요?`,
    (v) => `${v.a} ${v.y} 서지사항 전체로 알려주세요`,
    (v) => `${v.a} 논문 핵심 주장을 한 문단으로 정리해 주실래요`,
    (v) => `${v.a}에 제가 주석 달아 놓은 거 있어요? 형광펜 엄청 칠했던 것 같은데`,
    (v) => `${v.a}에서 ${v.topic} 다루는 부분 읽어 주세요`,
  ],
  reply: [
    (v) => `${v.topic}에 관해 찾은 내용입니다. ${v.a}(${v.y})${v.ko(v.a, '이/가')} 가장 직접적으로 다루는데, 검역이 선택적으로 적용되어 교역이 한산할 때는 강화되고 나가사키발 정기선이 들어올 때는 완화되었다고 봅니다. ${v.b}${v.ko(v.b, '은/는')} 좀 더 신중해서 1880년대 이전 자료는 단편적이라고 평가합니다.`,
    (v) => `${v.a}${v.ko(v.a, '은/는')} 하나의 정의를 내리지는 않지만, 실제로는 부두와 정박지를 항구로 보고 절영도 피병원은 그 바깥에 둡니다. 질문하신 주제와 관련해 중요한 점은, 그렇게 되면 검역 담당자들이 동래부의 관할 밖에 놓인다는 것입니다.`,
    (v) => `라이브러리를 살펴봤습니다. ${v.topic}${v.ko(v.topic, '과/와')} 관련된 항목은 ${v.n}건이고 대부분 2차 연구입니다. 1차 사료는 검역일지, 위생 보고서 국역본, 신문 기사 한 건입니다.`,
    (v) => `요약하면, ${v.a}${v.ko(v.a, '은/는')} 검역을 의학적 조치라기보다 영사관과 조선 정부 사이의 협상 수단으로 봅니다. 의학적 논리는 대개 사후에 덧붙여졌다는 거죠. 해당 쪽을 가져올까요?`,
    (v) => `제가 보기엔 ${v.topic} 관련해서 안 읽으신 자료는 없습니다. 이 컬렉션의 모든 항목에 메모나 하이라이트가 하나 이상 있어요.`,
    (v) => `${v.a}${v.ko(v.a, '과/와')} ${v.b}${v.ko(v.b, '은/는')} 연대기에는 동의하지만 동기에 대해서는 갈립니다. ${v.a}${v.ko(v.a, '은/는')} 상인회가 영사관을 장악했다고 보고, ${v.b}${v.ko(v.b, '은/는')} 중앙 정부가 약해서 현장에 있던 사람들이 결정했다고 봅니다.`,
    (v) => `${v.topic}에 대해서는 1886년 여름을 다룬 부분이 가장 유용합니다. ${v.a}${v.ko(v.a, '이/가')} 주 단위로 임검 건수와 사망자 수를 나란히 놓고 있어요.`,
  ],
  onSearch: [(v) => `검색 결과 ${v.n}건이 나왔습니다. 가장 관련 있는 건 ${v.a}(${v.y})입니다.`, (v) => `${v.n}건 찾았고 중복은 뺐습니다.`, (v) => `${v.n}건입니다. 말씀하신 내용에 가장 가까운 건 ${v.a}${v.ko(v.a, '이에요/예요')}.`],
  onRead: [(v) => `${v.a}의 ${v.p}쪽을 읽었습니다.`, (v) => `전문(${v.p}쪽) 기준으로 보면:`, (v) => `${v.a} ${v.p}쪽을 훑어봤는데 요점은 이렇습니다.`],
  onAnnot: [(v) => `${v.a}에 주석이 ${v.n}개 있습니다.`, (v) => `${v.a}에 하신 하이라이트를 쪽 순서대로 정리하면:`],
  onNotes: [(v) => `${v.a}에 연결된 노트가 ${v.n}개 있습니다.`, (v) => `${v.a}에 대한 노트입니다:`],
  onCite: [(v) => `${v.s} 형식으로 정리했습니다:`, (v) => `${v.s} 형식의 서지사항입니다.`],
  onDyn: [(v) => `한국사데이터베이스에서 ${v.n}건이 검색됐고, 1886년 자료가 제일 유망해 보입니다.`, (v) => `외부 검색 결과 ${v.n}건인데 아직 라이브러리에는 없는 자료들이에요.`],
  onError: [(v) => `호출이 실패했습니다(${v.e}). 라이브러리에 이미 있는 자료로 진행하겠습니다.`, (v) => `도구에서 오류가 났어요: ${v.e}. 다른 방법으로 해 볼게요.`],
  closers: ['이 부분에서 더 필요한 거 있으세요?', '다음 것도 계속할까요?', '인용문 전체가 필요하시면 말씀해 주세요.', ''],
  joiners: [' ', ' ', '\n\n', ' 그리고 ', ' 아 그리고 '],
  bank: [
    (v) => `해당 선박은 절영도 앞바다 ${v.n}길 지점에 정박하도록 하였으며, 낮에는 황색기를 달고 밤에는 등불을 켜게 하였다.`,
    (v) => `8월 ${v.m}일로 끝나는 주간에 부두 인근 동네에서 콜레라 사망자 ${v.n}명이 보고되었다.`,
    (v) => `선박 대리점 측은 48시간 이상 억류하면 우편선 일정이 어긋난다며 영사관에 항의하였다.`,
    (v) => `하선한 승객 가운데 ${v.n}명이 의사의 검진을 받았고 모두 이상 없음으로 판정되었다.`,
    (v) => `소독 비용을 누가 부담할 것인가 하는 문제는 상업회의소로 넘겨졌으나, 회의소는 어떠한 비용도 의결하지 않았다.`,
    (v) => `사망자가 가장 많이 나온 곳은 부두 뒤편의 골목으로, 이곳의 ${v.n}가구가 우물 하나에 의존하고 있었다.`,
    (v) => `규칙은 선장이 자유 교통 허가 전에 선내 환자를 신고하도록 하였으나, 허위 신고에 대한 벌칙은 두지 않았다.`,
    (v) => `나가사키 주재 영사의 서신을 보면, 항해 중 사망자가 나온 배에도 무병 증명서가 발급된 사례가 확인된다.`,
    (v) => `항무 담당자는 이번 분기에 나가사키·상하이발 선박 ${v.n}척이 입항하였으나 억류된 배는 없었다고 보고하였다.`,
    (v) => `기존 연구는 이 수치를 방임의 증거로 읽어 왔으나, 항구와 도시 사이 협상의 결과로 읽는 편이 더 타당하다.`,
    (v) => `6월부터 절영도에 검역 순사 한 명을 배치하였고, 연봉은 ${v.n}원으로 정하였다.`,
    (v) => `위생회는 의사가 진성 콜레라 환자를 확인한 경우가 아니면 어떤 배도 피병원으로 보내지 않기로 의결하였다.`,
  ],
  // The quarantine office's own journal is in Meiji Japanese.
  archiveBank: [
    (v) => `長崎ヨリ入港ノ汽船${v.n}艘ヲ臨検ス、何レモ患者ナシ。`,
    (v) => `本日絶影島避病院ヘ送致セシ者${v.n}名、内死亡二名。`,
    (v) => `領事館ヨリ検疫期間ヲ四十八時間ニ短縮スヘキ旨ノ照会アリ。`,
    (v) => `消毒費用ノ負担ニ付キ商業会議所ト協議ス、未タ決セス。`,
    (v) => `${v.m}日、黄旗ヲ掲ケタル帆船一艘、港外ニ停泊セシム。`,
    (v) => `検疫委員会ハ真性「コレラ」患者ヲ認メサル限リ停船ヲ命セサルコトニ決ス。`,
  ],
  noteBank: [
    (v) => `<h2>${v.a} 독서 노트</h2><p>핵심 주장: 협상으로서의 검역. ${v.topic} 부분이 좋음, 1870년대는 약함.</p><ul><li>검역일지 각주 확인</li><li>이준호 논문이랑 비교</li></ul>`,
    (v) => `<p>2장 ${v.topic} 절에 쓸 것. 결론은 좀 설득력이 떨어짐.</p>`,
    (v) => `<h3>인용</h3><blockquote>"항구는 장소가 아니라 허가들의 묶음이다"</blockquote><p>(서론에 쓰기엔 너무 멋부린 건가? 교수님께 여쭤보기)</p>`,
  ],
  annotBank: [
    (v) => ['영사관은 이 문제에 관여할 법적 근거가 없었다', '이준호 참고'],
    (v) => [`이번 분기 임검 선박 ${v.n}척`, ''],
    (v) => ['검역은 결국 언제나 돈의 문제였다', '맞아!!'],
    (v) => ['외무아문은 한 번도 영사관의 결정을 뒤집지 않았다', '확인 필요'],
  ],
  dyn: { name: 'koreanhistory_db', query: (v) => `검역 ${v.topic}`, hit: (v) => ({ 자료명: `${v.topic} 관련 보고`, 연도: String(1876 + (v.n % 34)), 출처: '국사편찬위원회 한국사데이터베이스', id: `db.history.go.kr/id/jh_${90 + (v.n % 9)}r_00${10 + (v.n % 80)}` }) },
  thanks: ['감사합니다!!', '완벽해요 감사해요', '오 딱 이거예요 ㄳㄳ', '좋아요 고마워요', '정말 도움 됐어요 감사합니다'],
  social: ['도움이 됐다니 다행이에요!', '괜찮습니다.', '다음 작업 필요하시면 언제든 말씀해 주세요.', '좋습니다.'],
  goal: [
    (v) => `안녕하세요! 드디어 학위논문 2장 쓰기 시작했어요. 주제는 개항기 부산항의 콜레라 검역인데, 1876년부터 1910년까지 일본 영사관, 조선 정부, 해관이 각각 어떻게 움직였는지 보려고 해요 ${v.t}. 제 조테로 라이브러리가 지금 완전 엉망이라 ㅠㅠ 잘 부탁드려요`,
    (v) => `지하철에서 생각해봤는데요, 결국 제 논문은 "배를 멈춰 세울 권한이 누구한테 있었나"에 대한 이야기인 것 같아요. 앞으로는 이걸 중심 질문으로 잡을게요 ${v.t}`,
    (v) => `지도교수님 면담 다녀왔는데, 인천(제물포)도 비교 대상으로 넣으래요. 본격적인 사례연구까진 아니고 대조군 정도로요 ${v.t}`,
  ],
  constraint: [
    (v) => `저는 한국어, 일본어, 영어는 읽을 수 있는데 중국어 백화문은 번역 없으면 못 써요 ${v.t}`,
    (v) => `일단 1895년까지만 볼게요, 갑오개혁 이후는 다음 장에서 ${v.t}`,
    (v) => `올해는 출장비가 없어서 디지털화된 자료만 쓸 수 있어요. 아카이브 방문은 불가 ${v.t}`,
    (v) => `아 1895년 제한은 없던 걸로 해주세요, 1910년까지 가야 통감부 시기 검역이 설명돼요 ${v.t}`,
    (v) => `대중서는 빼주세요. 블로그 글도요. 학술지 논문, 학술서, 1차 사료만요 ${v.t}`,
    (v) => `대박 소식!! 해외 자료조사 지원금 붙었어요 ㅋㅋㅋ 그래서 디지털화 안 된 자료도 이제 다시 가능해요, 일본 외교사료관까지요 ${v.t}`,
  ],
  dateFormats: [
    (d) => `${d.m}월 ${d.day}일`,
    (d) => `${d.m}/${d.day}`,
    (d) => `${d.y}. ${d.m}. ${d.day}.(${['일', '월', '화', '수', '목', '금', '토'][weekday(d)]})`,
  ],
  deadline: [
    (v) => `2장 초고는 ${v.d}까지 교수님께 드려야 해요 ${v.t}. 멀어 보이는데 사실 안 멀어요`,
    (v) => `일정 바뀌었어요 ㅠ 중간발표가 당겨져서 ${v.d}까지 달래요 ${v.t}`,
    (v) => `발표가 또 미뤄져서 이제 ${v.d}이에요 ${v.t}. 두고 봐야죠 뭐`,
  ],
  style: [
    (v) => `참고문헌은 학교 학위논문 작성 지침대로 각주식으로 해주세요, 시카고 기반이에요 ${v.t}`,
    (v) => `이 장을 먼저 『의사학』에 투고하기로 해서, 이제부터는 『의사학』 투고 규정 형식으로 바꿔주세요 ${v.t}`,
    (v) => `결국 영문 저널로 가게 돼서 APA 7판으로 갈게요 ${v.t}`,
  ],
  styleIds: [['chicago-fullnote-bibliography', '학위논문 지침(시카고 각주식)'], ['uisahak', '『의사학』 투고 규정'], ['apa', 'APA 7판']],
  designation: [
    (v) => `${v.k} 이게 부산 쪽 기본서가 될 거예요. 꼭 기억해 두세요 ${v.t}`,
    (v) => `${v.k}도 핵심 문헌으로 표시해 주세요, 조선 정부 파트에서 계속 인용할 거라서요 ${v.t}`,
    (v) => `이거요 zotero://select/library/items/${v.k} 제물포 비교할 때 제일 중요한 글이에요, 핵심으로 쳐주세요 ${v.t}`,
    (v) => `${v.k}도 필수 인용 목록에 넣어주세요 ${v.t}`,
  ],
  retraction: [
    (v) => `${v.k}는 핵심 목록에서 빼주세요. 제대로 읽어보니까 거의 김서연 책 재탕이네요 ${v.t}`,
    (v) => `그리고 ${v.k}도 필수 목록에서 빼주세요. 석사논문이라 심사 안 거친 거라고 교수님이 확실히 말씀하셨어요 ${v.t}`,
  ],
  failed: [
    (v) => `전문 도구로 스캔본 검역일지에 OCR을 돌려 봤지만 결과가 판독 불가능한 수준이었습니다(스캔 해상도가 너무 낮습니다). 이 방법은 통하지 않으니 다시 시도하지 않겠습니다 ${v.t}.`,
    (v) => `참고로 국사편찬위 DB에서 "검역"이랑 "부산"으로 검색해봤는데 3천 건 넘게 나와서 쓸 게 없었어요. 막다른 길이라 다시는 안 할래요 ${v.t}`,
    (v) => `『대일본사립위생회잡지』 기사들을 DOI로 찾아보려 했는데 실패했습니다. 19세기 권호에는 Crossref DOI가 아예 없습니다 ${v.t}. 제목과 쪽수로 대조하겠습니다.`,
    (v) => `부산세관박물관에 메일을 두 번 보냈는데 6주째 답이 없어요. 그냥 포기할래요 ${v.t}`,
    (v) => `일본어 초서체 문서를 기계 번역하는 건 쓸 수가 없었습니다. OCR이 글자를 잘못 읽고 번역기가 없는 단어를 만들어내서, 이 자료들에는 더 이상 사용하지 않겠습니다 ${v.t}.`,
  ],
  decision: [
    (v) => `결정했어요, 장 구성은 연대기순 말고 주제별로 갈게요 ${v.t}. 연대순으로 하니까 그냥 목록이 돼버려서요`,
    (v) => `그럼 정리하면, 1886년 콜레라 유행을 이 장의 전환점으로 두고 그 이전은 배경으로 다루기로 하겠습니다 ${v.t}.`,
    (v) => `"해관"이랑 "세관" 섞어 쓰던 거 전부 "해관"으로 통일할게요 ${v.t}`,
    (v) => `말씀하신 대로 제물포 부분은 장 끝에 짧은 별도 절로 두고, 부산 서술 사이사이에 섞지 않겠습니다 ${v.t}.`,
    (v) => `장 제목 최종: "배를 멈추는 권력". 이제 안 바꿔요 ${v.t}`,
  ],
  task: [
    (v) => `시간 될 때 절영도 관련 자료 전부에 "피병원" 태그 좀 달아주실 수 있어요? ${v.t}`,
    (v) => `1886년 영사관 문서는 제가 직접 판독해야 돼요, 손글씨라 어떤 도구도 못 읽을 거예요 ${v.t}`,
    (v) => `다음으로 1876년부터 1910년까지 부산과 제물포의 검역 규칙 변화를 연표로 정리해 드리겠습니다 ${v.t}.`,
    (v) => `사서 선생님한테 부산상업회의소 자료 문의하는 거 저한테 리마인드 해주세요 ${v.t}`,
    (v) => `나중에 일본어 1차 사료 서지사항 전부 정리해 주실 수 있어요? 급한 건 아니에요 ${v.t}`,
  ],
  taskDone: [
    (v) => `완료했습니다. 절영도 관련 항목 ${v.n}건에 모두 "피병원" 태그를 달았습니다 ${v.t}.`,
    (v) => `1886년 영사관 문서 판독 드디어 끝!! 37장이었어요, 눈 빠지는 줄 ${v.t}`,
    (v) => `사서 선생님이랑 부산상업회의소 자료 얘기했어요, 해결됐어요, 상자째 꺼내주신대요 ${v.t}`,
  ],
  tagName: '피병원',
  hypothesis: [
    (v) => `제 느낌엔 부산 검역 기간이 짧았던 게 일본 상인회가 영사관을 쥐고 있어서 같아요 ${v.t}`,
    (v) => `검토해 볼 만한 가설이 하나 있습니다. 1883년 해관 설치 이후 조선 정부의 검역 권한이 사실상 해관으로 넘어갔을 가능성입니다 ${v.t}.`,
    (v) => `혹시 1886년 콜레라가 나가사키가 아니라 상하이발 배로 들어온 거 아닐까요? ${v.t}`,
    (v) => `1902년 유행에서는 검역소보다 상수도 보급 여부가 더 결정적이었을 수도 있습니다 ${v.t}. 인천과 비교해 보면 검증할 수 있을 것 같습니다.`,
  ],
  closed: [
    (v) => `제가 말했던 일본 상인회 가설 기억나세요? 명부 보니까 맞아요, 1886년 위생회 위원 7명 중 5명이 상인회 임원이었어요. 확인 완료 ${v.t}`,
    (v) => `해관 이관 가설은 성립하지 않습니다. 1886년 검역 결정도 여전히 동래부사 명의로 내려졌으니, 이 가설은 접는 게 좋겠습니다 ${v.t}.`,
    (v) => `상하이발 가설은 틀렸어요. 1886년 첫 환자들은 나가사키에서 온 배의 짐을 내린 부두 노동자들이었어요 ${v.t}`,
  ],
  finding: [
    { loc: 'p', text: (v) => `김서연은 1879년에 절영도 피병원으로 보내진 선박이 두 척뿐이었고 둘 다 일주일 안에 풀려났다고 봅니다(${v.k}, ${v.n}쪽) ${v.t}.` },
    { loc: 'fol', text: (v) => `찾았다!!! 검역일지 ${v.k} ${v.f}에 보면 "사쓰마마루" 승객을 48시간 만에 하선시켰어요, 선장 말만 믿고요 ${v.t}` },
    { loc: 'p', text: (v) => `7월에 입항한 ${v.x}척 가운데 절영도로 보내진 배는 한 척도 없었으며, 검역관은 "억류할 까닭이 없다"고 적었다 ${v.t}.` },
    { loc: 'p', quote: '영사관은 해관에 검역을 강제할 아무런 권한이 없었다', text: (v) => `2장 핵심 문장!! ${v.t}` },
    { loc: 'pp~', text: (v) => `박민규는 조선 정부가 유행을 공식 인정하기까지 엿새가 걸렸다고 봅니다(${v.k}, ${v.n}~${v.m}쪽) ${v.t}.` },
    { loc: 'myeon', text: (v) => `<h2>『한성순보』 「論防疫」</h2><p>검역은 "괴질을 막은 적이 없다" — ${v.k}, ${v.n}면 ${v.t}</p><p>제사(題辭)로?</p>` },
    { loc: 'p', text: (v) => `『釜山府史原稿』(${v.k}) ${v.n}頁에 1886년 8월에 항만 순사가 배 312척을 임검했다고 나와요 ${v.t}. 생각보다 엄청 많네요` },
    { loc: 'pp~', text: (v) => `작은 정정이요: 엿새 지연 얘기는 ${v.k} ${v.n}~${v.m}쪽이에요, 아까 말씀하신 데가 아니라요 ${v.t}` },
    { loc: 'fol', text: (v) => `英国汽船「ナンキン」号船長、免状下付前ニ乗客ヲ上陸セシメタルニ付キ罰金二十円ヲ科ス ${v.t}` },
    { loc: 'jo', text: (v) => `1899년 검역규칙은 선박 억류 결정을 검역위원 단독으로 내리게 하고 관찰사는 빼 두었습니다(${v.k}, 제${v.n}조) ${v.t}.` },
    { loc: 'p', quote: (v) => `제물포의 검역은 실제로는 해관장의 직접 지휘 아래 운영되었다 ${v.t}`, comment: '제물포 = 해관!' },
    { loc: 'p', text: (v) => `zotero://open-pdf/library/items/${v.k}?page=${v.n} ← 여기 김서연이 1886년 부산항 사망자 수 나와요, 1,170명 ${v.t}` },
    { loc: 'p', text: (v) => `국역 부산항 위생 보고서에 따르면 1895년 부산의 콜레라 사망자는 612명이었습니다(${v.k}, ${v.n}쪽) ${v.t}.` },
  ],
};

const TR = {
  locale: 'tr-TR',
  folio: ['a', 'b'],
  shorts: { 2: 'Karantina Defteri', 4: 'Procès-verbaux', 6: 'Karantina Nizamnamesi', 7: 'Kamus-ı Türkî', 8: '1893 Raporu', 10: 'Takvim-i Vekayi' },
  items: [
    { type: 'book', creators: [['Karaca', 'Elif']], title: 'Tahaffuzhane ve Şehir: İzmir’de Karantina, 1838-1900', date: '2013', publisher: 'Tarih Vakfı Yurt Yayınları', place: 'İstanbul', pages: [1, 372], abs: 'İzmir’de Meclis-i Umur-ı Sıhhiye, Levanten tüccarlar ve vilayet arasındaki karantina mücadelesini inceler.' },
    { type: 'journalArticle', creators: [['Demirel', 'Kaan']], title: 'Sağlık patentaları ve Levant ticareti (1840-1880)', date: '2015', publicationTitle: 'Belleten', volume: '79', issue: '285', pages: [611, 640], abs: 'Sağlık patentalarının ticari ve diplomatik bir araç olarak kullanımı.' },
    { type: 'manuscript', creators: [['İzmir Karantina İdaresi', '']], title: 'İzmir karantina defteri, 1865', date: '1865', archive: 'Cumhurbaşkanlığı Osmanlı Arşivi', archiveLocation: 'A.MKT.UM., 812/45', folios: [1, 140], language: 'ota' },
    { type: 'book', creators: [['Aksoy', 'Murat']], title: 'Devlet, Liman ve Salgın: Osmanlı Karantina Meclisi (1838-1914)', date: '2009', publisher: 'Kitap Yayınevi', place: 'İstanbul', pages: [1, 396], abs: 'Babıâli ile yabancı delegelerin meclis içindeki güç mücadelesi.' },
    { type: 'book', creators: [['Conseil supérieur de santé de Constantinople', '']], title: 'Procès-verbaux des séances, année 1865', date: '1866', publisher: 'Imprimerie centrale', place: 'Constantinople', pages: [1, 264], language: 'fr' },
    { type: 'journalArticle', creators: [['Haddad', 'Rania']], title: 'The Beirut lazaretto and Ottoman sanitary frontiers, 1834-1880', date: '2018', publicationTitle: 'Journal of the Ottoman and Turkish Studies Association', volume: '5', issue: '1', pages: [73, 98], abs: 'How consular delegates and Ottoman officials shared, and fought over, the Beirut lazaretto.' },
    { type: 'statute', creators: [], title: 'Karantina Nizamnamesi (1840)', date: '1840', publisher: 'Takvimhane-i Âmire', place: 'Dersaadet', sections: [1, 60], language: 'ota' },
    { type: 'dictionaryEntry', creators: [['Şemseddin Sami', '']], title: 'karantina', date: '1901', publicationTitle: 'Kamus-ı Türkî', pages: [1, 1574], language: 'ota' },
    { type: 'report', creators: [['Meclis-i Umur-ı Sıhhiye', '']], title: '1893 Kolera Salgını Raporu (çeviriyazı ve sadeleştirme)', date: '2011', place: 'İstanbul', pages: [1, 228] },
    { type: 'thesis', creators: [['Yılmaz', 'Burak']], title: 'İstanbul’da Karantina Hekimleri (1838-1880)', date: '2020', university: 'Marmara Üniversitesi', thesisType: 'Yüksek lisans tezi', pages: [1, 168] },
    { type: 'newspaperArticle', creators: [], title: 'Kolera hakkında ilan', date: '1865-07-20', publicationTitle: 'Takvim-i Vekayi', pages: [1, 1], language: 'ota' },
  ],
  topics: ['Kuzguncuk tahaffuzhanesi', '1865 kolerası', 'sağlık patentaları', 'Urla karantinası', 'hac dönüşü gemiler', '1851 Paris konferansı', 'karantina rüsumu', 'gemi muayeneleri', 'Terkos suyu', 'Levanten tüccarlar', 'Beyrut tahaffuzhanesi', 'yabancı delegeler'],
  greet: ['Merhaba!', 'selam', 'tekrar merhaba', 'günaydın', 'iyi akşamlar', 'ben geldim', 'selamlar'],
  chatter: [
    'dün ortadan kaybolduğum için kusura bakma, Marmaray Üsküdar’da bir saat durdu.',
    'bugünkü üçüncü kahvem, yazım hatalarını mazur gör',
    'geçen seferki için çok teşekkürler, çok işime yaradı',
    'vize kağıtları okuyorum şu sıralar, neyse',
    'seminerden önce hızlıca bir şey soracağım',
    'pardon, önceki mesajım biraz dağınıktı',
    'tesekkurler!!',
    'saçma bir soru ama fakültenin wifi’ında Zotero’nun senkronize olması bu kadar uzun sürer mi normalde?',
    'hocamla görüşme iyi geçti, keyfi yerindeydi',
    'tekrar ediyorsam kusura bakma, uzun bir gündü',
    'İstanbul’da lodos var, her şey birbirine girdi',
  ],
  ask: [
    (v) => `${v.topic} hakkında elimde ne var bulabilir misin?`,
    (v) => `${v.a} ${v.topic} konusunda tam olarak ne diyordu? hayal meyal hatırlıyorum`,
    (v) => `${v.a} (${v.y}) içinden ${v.topic} kısmını açar mısın`,
    (v) => `kütüphanede ${v.topic} üzerine henüz okumadığım bir şey var mı`,
    (v) => `${v.a} limanı nasıl tanımlıyor, tahaffuzhane dahil mi değil mi?`,
    (v) => `${v.a} ile ${v.tr(v.b, 'acc')} ${v.topic} açısından kısaca karşılaştır`,
    (v) => `${v.topic} için birincil kaynağım var mı yoksa hepsi ikincil mi`,
    (v) => `${v.a} ${v.y} için tam künyeyi verir misin`,
    (v) => `${v.a} makalesinin ana argümanını bir paragrafta özetler misin`,
    (v) => `${v.tr(v.a, 'loc')} benim notlarım var mı? her yerin altını çizmişim gibi geliyor`,
    (v) => `${v.tr(v.a, 'gen')} ${v.topic} anlattığı bölümü oku bana`,
  ],
  reply: [
    (v) => `${v.topic} hakkında bulduklarım şunlar. En doğrudan ele alan ${v.a} (${v.y}): karantina seçici uygulanmış, ticaret durgunken sıkılaştırılmış, İskenderiye vapurları geleceği zaman gevşetilmiş. ${v.b} daha temkinli ve 1850 öncesi kaynakları parçalı buluyor.`,
    (v) => `${v.a} tek bir tanım vermiyor ama pratikte limanı rıhtımlar ve demir yeri olarak ele alıyor, tahaffuzhaneyi dışarıda bırakıyor. Sorunuz açısından önemli, çünkü bu durumda karantina memurları belediyenin yetki alanı dışında kalıyor.`,
    (v) => `Kütüphaneye baktım: ${v.topic} ile ilgili ${v.n} kayıt var, çoğu ikincil literatür. Birincil kaynaklar karantina defteri, 1893 raporu ve Takvim-i Vekayi'deki bir ilan.`,
    (v) => `Kısacası ${v.tr(v.a, 'dat')} göre karantina tıbbi bir önlemden çok liman ile devlet arasında bir pazarlık aracıydı; tıbbi gerekçeler çoğu zaman sonradan üretilmişti. Sayfaları getireyim mi?`,
    (v) => `Gördüğüm kadarıyla ${v.topic} konusunda okunmamış bir şey yok; bu koleksiyondaki her kayıtta en az bir notunuz ya da vurgulamanız var.`,
    (v) => `${v.a} ile ${v.b} kronolojide anlaşıyor ama gerekçede ayrılıyor: ${v.a} tüccarların meclisi ele geçirdiğini, ${v.b} ise zayıf bir merkezin kararı rıhtımdakilere bıraktığını düşünüyor.`,
    (v) => `${v.topic} için en işe yarar sayfalar 1865 yazını anlatanlar; ${v.a} orada muayene sayılarıyla ölümleri hafta hafta yan yana koyuyor.`,
  ],
  onSearch: [(v) => `Arama ${v.n} kayıt döndürdü; en ilgilisi ${v.a} (${v.y}).`, (v) => `${v.n} sonuç, mükerrerleri çıkardım.`, (v) => `${v.n} kayıt buldum. Anlattığınıza en yakın olanı ${v.a}.`],
  onRead: [(v) => `${v.tr(v.a, 'gen')} ${v.p} arasındaki sayfalarını okudum.`, (v) => `Tam metne göre (s. ${v.p}):`, (v) => `${v.a}, ss. ${v.p} arasını gözden geçirdim; özü şu.`],
  onAnnot: [(v) => `${v.tr(v.a, 'loc')} ${v.n} notunuz var.`, (v) => `${v.tr(v.a, 'loc')}ki vurgulamalarınız, sayfa sırasıyla:`],
  onNotes: [(v) => `${v.tr(v.a, 'dat')} bağlı ${v.n} not var.`, (v) => `${v.a} hakkındaki notlarınız:`],
  onCite: [(v) => `${v.s} biçiminde:`, (v) => `${v.s} biçiminde künye şöyle.`],
  onDyn: [(v) => `DergiPark'ta ${v.n} sonuç çıktı; 1865 ile ilgili olanlar en umut verici görünüyor.`, (v) => `Dış aramada ${v.n} sonuç var, hiçbiri henüz kütüphanenizde değil.`],
  onError: [(v) => `Çağrı başarısız oldu (${v.e}). Kütüphanede zaten olanlarla devam ediyorum.`, (v) => `Araç hata döndürdü: ${v.e}. Başka bir yoldan deneyeyim.`],
  closers: ['Bu bölüm için başka bir şey var mı?', 'Sıradakiyle devam edeyim mi?', 'Alıntının tamamını isterseniz söyleyin.', ''],
  joiners: [' ', ' ', '\n\n', ' bir de ', ' ha bu arada '],
  bank: [
    (v) => `Sefine, Kuzguncuk önlerinde sahilden ${v.n} kulaç açıkta demirletilmiş, gündüz sarı bayrak çekmesi, gece fener yakması emrolunmuştur.`,
    (v) => `Ağustosun ${v.m}. günü nihayet bulan hafta içinde rıhtım civarındaki mahallelerde ${v.n} kolera vefatı kaydedilmiştir.`,
    (v) => `Vapur acenteleri kırk sekiz saatten fazla tevkifin posta seferini kaçıracağını bildirerek meclise şikâyette bulunmuşlardır.`,
    (v) => `Tahaffuzhaneye çıkarılan yolculardan ${v.n} nefer tabip tarafından muayene olunmuş ve cümlesi yola devama elverişli bulunmuştur.`,
    (v) => `Tebhir masrafının kime ait olacağı meselesi Ticaret Odası’na havale edilmiş, oda bu hususta hiçbir meblağ tahsis etmemiştir.`,
    (v) => `Ölümlerin en çok rıhtımın arkasındaki sokaklarda görüldüğü, buradaki ${v.n} hanenin tek bir çeşmeden su aldığı dikkati çekmektedir.`,
    (v) => `Nizamname, serbestî-i muamele verilmeden önce kaptanın gemideki hastalığı beyan etmesini şart koşmuş, fakat yanlış beyana bir ceza öngörmemiştir.`,
    (v) => `İskenderiye konsolosunun yazışmaları, yolculukta adam kaybetmiş gemilere dahi temiz patenta verildiğini göstermektedir.`,
    (v) => `Liman reisi bu üç ayda Akdeniz limanlarından ${v.n} sefinenin geldiğini, hiçbirinin tevkif olunmadığını bildirmiştir.`,
    (v) => `Tarih yazımı bu rakamları ihmalin kanıtı olarak okumuştur; onları liman ile şehir arasındaki bir pazarlığın sonucu olarak okumak daha yerindedir.`,
    (v) => `Hazirandan itibaren Kuzguncuk’a yıllık ${v.n} kuruş maaşla bir sıhhiye memuru tayin olunmuştur.`,
    (v) => `Meclis, tabip tarafından gemide hakiki kolera vakası tespit edilmedikçe hiçbir geminin tahaffuzhaneye sevk olunmamasına karar vermiştir.`,
  ],
  // The register itself is in Ottoman Turkish (transliterated).
  archiveBank: [
    (v) => `İskenderiye’den gelen ${v.n} kıt‘a sefine muayene olundu, cümlesinde maraz-ı sârî eseri görülmedi.`,
    (v) => `Bugün tahaffuzhaneye ${v.n} nefer yolcu nakl olundu, içlerinden iki nefer vefat etti.`,
    (v) => `Konsoloshaneden tahaffuz müddetinin kırk sekiz saate indirilmesi hususunda tezkire vürud etti.`,
    (v) => `Tebhir masrafı için Ticaret Odası ile müzakere olundu, henüz karar hâsıl olmadı.`,
    (v) => `Mahın ${v.m}. günü sarı sancak çekmiş bir kayık liman haricinde demirletildi.`,
    (v) => `Meclis, hakiki kolera vakası görülmedikçe hiçbir sefineye tevkif emri verilmemesine karar verdi.`,
  ],
  noteBank: [
    (v) => `<h2>${v.a}: okuma notları</h2><p>Ana iddia: pazarlık olarak karantina. ${v.topic} kısmı iyi; 1840'lar zayıf.</p><ul><li>BOA dipnotlarını kontrol et</li><li>Demirel'in patentalar makalesiyle karşılaştır</li></ul>`,
    (v) => `<p>2. bölüm, ${v.topic} kısmı için kullanışlı. Sonuç kısmı ikna etmedi.</p>`,
    (v) => `<h3>Alıntılar</h3><blockquote>"liman bir yer değil, bir izinler demetidir"</blockquote><p>(girişe fazla süslü mü? hocama sor)</p>`,
  ],
  annotBank: [
    (v) => ['meclisin bu meselede hiçbir salahiyeti yoktu', 'bkz. Demirel'],
    (v) => [`üç ayda ${v.n} gemi muayene edilmiş`, ''],
    (v) => ['karantina, sonunda her zaman bir para meselesiydi', 'evet!!'],
    (v) => ['Babıâli meclisin kararlarını bir kez bile bozmadı', 'kontrol et'],
  ],
  dyn: { name: 'dergipark_search', query: (v) => `karantina ${v.topic}`, hit: (v) => ({ baslik: `${v.topic} üzerine bir inceleme`, dergi: ['Belleten', 'Tarih Dergisi', 'Osmanlı Araştırmaları'][v.n % 3], yil: String(1990 + (v.n % 34)), url: `https://dergipark.org.tr/tr/pub/issue/${20000 + v.n * 13}` }) },
  thanks: ['teşekkürler!!', 'süper, çok sağ ol', 'tam istediğim buydu, teşekkürler', 'harika, eline sağlık', 'çok işime yaradı, sağ ol'],
  social: ['Rica ederim!', 'Hiç sorun değil.', 'İşinize yaradıysa ne mutlu, sıradaki için haber verin.', 'Tamamdır.'],
  goal: [
    (v) => `Merhaba! Sonunda tezin ikinci bölümüne başladım: 1838-1894 arasında Osmanlı limanlarında kolera karantinası, yani İstanbul, İzmir ve Beyrut ${v.t}. Zotero kütüphanem tam bir enkaz, şimdiden söyleyeyim`,
    (v) => `vapurda düşündüm de, aslında mesele bir gemiyi kimin durdurabildiği: Meclis-i Umur-ı Sıhhiye'deki yabancı delegeler mi, Babıâli mi, vali mi. bundan sonra ana eksen bu olsun ${v.t}`,
    (v) => `hocamla görüştüm, Hicaz'dan dönen hacıları da eklememi istiyor, tam bir vaka çalışması olarak değil, karşı örnek olarak ${v.t}`,
  ],
  constraint: [
    (v) => `Türkçe, Osmanlıca, Fransızca ve İngilizce okuyabiliyorum; Arapça ve Rumca kaynaklar çevirisi yoksa işime yaramaz ${v.t}`,
    (v) => `şimdilik 1876'da duralım, Abdülhamid dönemi sonraki bölümün konusu ${v.t}`,
    (v) => `bu yıl seyahat bütçem yok, o yüzden sadece dijitalleştirilmiş malzeme: BOA'nın e-katalogu, DergiPark, Gallica ${v.t}`,
    (v) => `1876 sınırını unut, 1894'e kadar gidiyoruz, yoksa 1893 salgını havada kalıyor ${v.t}`,
    (v) => `popüler tarih kitapları olmaz. bloglar da. sadece hakemli yayın, akademik kitap ya da birincil kaynak ${v.t}`,
    (v) => `MÜJDE!! yurt dışı araştırma bursu çıktı, yani dijitalde olmayan arşiv malzemesi yeniden mümkün, Marsilya dahil ${v.t}`,
  ],
  dateFormats: [
    (d) => `${d.day} ${['Ocak', 'Şubat', 'Mart', 'Nisan', 'Mayıs', 'Haziran', 'Temmuz', 'Ağustos', 'Eylül', 'Ekim', 'Kasım', 'Aralık'][d.m - 1]}'${['a', 'a', 'a', 'a', 'a', 'a', 'a', 'a', 'e', 'e', 'a', 'a'][d.m - 1]}`,
    (d) => `${pad2(d.day)}.${pad2(d.m)}.${d.y}`,
    (d) => `${d.day} ${['Ocak', 'Şubat', 'Mart', 'Nisan', 'Mayıs', 'Haziran', 'Temmuz', 'Ağustos', 'Eylül', 'Ekim', 'Kasım', 'Aralık'][d.m - 1]} ${['Pazar', 'Pazartesi', 'Salı', 'Çarşamba', 'Perşembe', 'Cuma', 'Cumartesi'][weekday(d)]}`,
  ],
  deadline: [
    (v) => `bölüm taslağını ${v.d} kadar hocama teslim etmem lazım ${v.t}, uzak gibi görünüyor ama değil`,
    (v) => `plan değişti, tez izleme komitesi öne alındı, taslağı ${v.d} tarihinde istiyor ${v.t}. süper.`,
    (v) => `komite yine ertelendi, yeni tarih ${v.d} ${v.t}. görürüz artık`,
  ],
  style: [
    (v) => `kaynakçada İSNAD 2. edisyon, dipnotlu sistem; enstitü onu istiyor ${v.t}`,
    (v) => `bölümü önce Belleten'e makale olarak göndereceğim, o yüzden bundan sonra Belleten'in yazım kurallarına geçelim ${v.t}`,
    (v) => `jüri uluslararası olunca Chicago yazar-tarih sistemine karar verdik, yeni her şeyi öyle yaz ${v.t}`,
  ],
  styleIds: [['isnad-dipnotlu', 'İSNAD (dipnotlu)'], ['belleten', 'Belleten yazım kuralları'], ['chicago-author-date', 'Chicago yazar-tarih']],
  designation: [
    (v) => `${v.k} İzmir kısmının temel kitabı olacak, aklında tut ${v.t}`,
    (v) => `${v.k}'yı da temel metin olarak işaretler misin, Meclis kısmında sürekli atıf yapacağım ${v.t}`,
    (v) => `bu: zotero://select/library/items/${v.k} — Beyrut için en önemli kaynak, merkezi say ${v.t}`,
    (v) => `${v.k}'i de mutlaka atıf yapılacaklar listesine ekle ${v.t}`,
  ],
  retraction: [
    (v) => `${v.k}'yı temel metinlerden çıkar, doğru dürüst okuyunca Karaca'nın tekrarı çıktı ${v.t}`,
    (v) => `${v.k} de mutlaka atıf listesinden çıksın, yüksek lisans tezi, hakemden geçmemiş, hocam net söyledi ${v.t}`,
  ],
  failed: [
    (v) => `Taranmış karantina defterine tam metin aracıyla OCR uygulamayı denedim ama çıktı okunamaz durumda (tarama çözünürlüğü çok düşük). Bu yol işe yaramıyor, tekrar denemeyeceğim ${v.t}.`,
    (v) => `bu arada DergiPark'ta "karantina" + "İzmir" diye aradım, 9 bin sonuç geldi, hepsi alakasız. çıkmaz sokak, bir daha yapmam ${v.t}`,
    (v) => `Gazette médicale d'Orient makalelerini DOI ile bulmaya çalıştım, olmadı: Crossref'te 19. yüzyıl ciltleri için DOI yok ${v.t}. Başlık ve sayfa numarasıyla eşleştireceğim.`,
    (v) => `Beyrut'taki arşive iki kere mail attım, altı haftadır cevap yok. uğraşmıyorum artık ${v.t}`,
    (v) => `Rika ile yazılmış Osmanlıca belgelerin makine çevirisi kullanılamaz çıktı: OCR harfleri yanlış okuyor, çevirmen de olmayan kelimeler uyduruyor. Bu kaynaklarda artık kullanmayacağım ${v.t}.`,
  ],
  decision: [
    (v) => `karar verdim: bölüm kronolojik değil tematik olacak ${v.t}. kronolojik gidince liste gibi oluyordu`,
    (v) => `O halde karar şu: 1865 salgını bölümün dönüm noktası, öncesi hazırlık olarak anlatılacak ${v.t}.`,
    (v) => `"tahaffuzhane" ile "lazaret"i karışık kullanıyordum, hepsini "tahaffuzhane" yapıyorum ${v.t}`,
    (v) => `Konuştuğumuz gibi hacılar kısmı bölüm sonunda kısa, ayrı bir başlık olacak; İzmir ve Beyrut anlatısının içine dağıtılmayacak ${v.t}.`,
    (v) => `bölümün adı kesinleşti: "Gemiyi Durdurmak". artık değiştirmiyorum ${v.t}`,
  ],
  task: [
    (v) => `vaktin olunca Kuzguncuk'la ilgili her şeye "tahaffuzhane" etiketi ekler misin? ${v.t}`,
    (v) => `1865 tarihli vilayet yazışmalarını kendim okumam lazım, rika, hiçbir araç okuyamaz ${v.t}`,
    (v) => `Sırada 1838-1894 arası İstanbul, İzmir ve Beyrut'taki karantina düzenlemelerinin bir kronolojisini hazırlamak var, nerede ayrıştıklarını görmek için ${v.t}.`,
    (v) => `kütüphaneciye İzmir Ticaret Odası evrakını sormamı hatırlat bana ${v.t}`,
    (v) => `bir ara tüm Fransızca birincil kaynakların kaynakça kayıtlarını hazırlar mısın? acelesi yok ${v.t}`,
  ],
  taskDone: [
    (v) => `Tamamlandı: Kuzguncuk'la ilgili ${v.n} kaydın hepsine "tahaffuzhane" etiketi eklendi ${v.t}.`,
    (v) => `1865 yazışmalarını okumayı nihayet bitirdim!! 39 varak, gözlerim gitti ${v.t}`,
    (v) => `kütüphaneciyle Ticaret Odası evrakını konuştum, hallettik, kutuları benim için çıkaracaklar ${v.t}`,
  ],
  tagName: 'tahaffuzhane',
  hypothesis: [
    (v) => `bence İzmir'de karantinalar kısa tutuluyordu çünkü Levanten tüccarlar sıhhiye meclisini avuçlarında tutuyordu ${v.t}`,
    (v) => `Sınanmaya değer bir ihtimal: 1850'lerde düzenli vapur seferleri başlayınca uzun karantinalar ticari açıdan sürdürülemez hale gelmiş ve meclisin otoritesi zayıflamış olabilir ${v.t}.`,
    (v) => `acaba 1865 kolerası İzmir'e İskenderiye'den değil de hac dönüşü gemilerle mi geldi ${v.t}`,
    (v) => `1893 salgınında karantinadan çok Terkos suyunun dağıtımı belirleyici olmuş olabilir ${v.t}; Selanik'le karşılaştırarak sınayabiliriz.`,
  ],
  closed: [
    (v) => `Levanten tüccar teorimi hatırlıyor musun? listeler doğruluyor, 1865'te meclisin 9 üyesinden 6'sı tüccarmış. yani doğrulandı ${v.t}`,
    (v) => `Vapur açıklaması tutmuyor: meclisin yetkileri 1851'de, seferler başladıktan sonra, tam tersine genişletilmiş. Bu fikri bırakmayı öneririm ${v.t}.`,
    (v) => `hac gemisi fikri yanlışmış, 1865'teki ilk vakalar İskenderiye'den gelen bir gemiyi boşaltan hamallarmış ${v.t}`,
  ],
  finding: [
    { loc: 'p', text: (v) => `Karaca'ya göre 1838'de Urla tahaffuzhanesine yalnızca iki gemi tam karantinaya alınmış ve ikisi de bir hafta dolmadan serbest bırakılmış (${v.k}, s. ${v.n}) ${v.t}.` },
    { loc: 'fol', text: (v) => `buldum!!! defter ${v.k}, vr. ${v.f}: "Mesudiye" vapurunun yolcularını sadece 48 saat sonra indirmişler, kaptanın sözüne güvenip ${v.t}` },
    { loc: 'p', text: (v) => `Temmuz ayında Akdeniz limanlarından gelen ${v.x} sefineden hiçbiri tahaffuzhaneye sevk olunmamış, memur "tevkife mahal görülmediğini" kaydetmiştir ${v.t}.` },
    { loc: 'p', quote: 'meclisin Ticaret Odası’nı zorlamaya hiçbir yetkisi yoktu', text: (v) => `2. bölüm için anahtar cümle!! ${v.t}` },
    { loc: 'pp-', text: (v) => `Aksoy, Babıâli'nin salgını resmen kabul etmesinin altı gün geciktiğini gösteriyor (${v.k}, ss. ${v.n}-${v.m}) ${v.t}.` },
    { loc: 'p', text: (v) => `<h2>Kamus-ı Türkî, "karantina" maddesi</h2><p>karantina "koleraya hiçbir vakit mani olmamıştır" — ${v.k}, s. ${v.n} ${v.t}</p><p>epigraf olur mu?</p>` },
    { loc: 'p', text: (v) => `Fransızca zabıtlar ${v.k}, ${v.n}. sayfada liman polisinin ağustosta 312 gemiyi denetlediğini yazıyor ${v.t}, sandığımdan çok daha fazla` },
    { loc: 'pp-', text: (v) => `ufak bir düzeltme: altı günlük gecikme ${v.k}'da ss. ${v.n}-${v.m} arasında, senin dediğin yerde değil ${v.t}` },
    { loc: 'fol', text: (v) => `Tahaffuz müddeti hitamından evvel yolcu ihraç eden "Hüdavendigâr" vapuru kaptanına yirmi lira ceza-yı nakdî tertibine karar verildi ${v.t}.` },
    { loc: 'md', text: (v) => `1840 nizamnamesi bir gemiyi alıkoyma kararını valiye değil, yalnızca karantina müdürüne bırakıyor (${v.k}, md. ${v.n}) ${v.t}.` },
    { loc: 'p', quote: (v) => `the Beirut lazaretto was, in practice, run by the consular delegates rather than by Ottoman officials ${v.t}`, comment: 'Beyrut = konsoloslar' },
    { loc: 'p', text: (v) => `zotero://open-pdf/library/items/${v.k}?page=${v.n} ← Karaca 1865'te limandaki ölü sayısını burada veriyor, 1.874 ${v.t}` },
    { loc: 'p', text: (v) => `Meclis'in 1893 raporu İstanbul'da 1.442 kolera ölümü kaydediyor (${v.k}, s. ${v.n}) ${v.t}.` },
  ],
};

const MIXED = {
  locale: 'id-ID',
  folio: ['r', 'v'],
  shorts: { 2: 'journaal havenmeester', 4: 'Koloniaal Verslag 1883', 6: 'Ordonnantie 1911', 7: 'ENI', 8: 'Verslag BGD 1883', 10: 'artikel Bataviaasch Nieuwsblad' },
  items: [
    { type: 'book', creators: [['Hartono', 'Dewi']], title: 'Quarantine Island: Onrust and the Hajj in the Netherlands Indies, 1870-1930', date: '2015', publisher: 'KITLV Press', place: 'Leiden', pages: [1, 344], abs: 'How the colonial state, Arab shipping agents and port doctors turned Onrust into a hajj quarantine station.' },
    { type: 'journalArticle', creators: [['Pratama', 'Rizky']], title: 'Surat kesehatan kapal dan perdagangan di Batavia abad ke-19', date: '2016', publicationTitle: 'Lembaran Sejarah', volume: '12', issue: '2', pages: [145, 170], abs: 'Surat kesehatan kapal sebagai alat dagang sekaligus alat kesehatan di pelabuhan Batavia.' },
    { type: 'manuscript', creators: [['Havenmeester te Batavia', '']], title: 'Journaal van den havenmeester, 1883', date: '1883', archive: 'Arsip Nasional Republik Indonesia', archiveLocation: 'Algemene Secretarie, bundel 4512', folios: [1, 180], language: 'nl' },
    { type: 'book', creators: [['van der Linde', 'Marieke']], title: 'Staat, haven en epidemie in Nederlands-Indië, 1850-1914', date: '2010', publisher: 'Amsterdam University Press', place: 'Amsterdam', pages: [1, 388], language: 'nl', abs: 'De koloniale staat, de havens en de cholera, van de eerste quarantaineregeling tot de Ordonnantie van 1911.' },
    { type: 'report', creators: [['Ministerie van Koloniën', '']], title: 'Koloniaal Verslag van 1883', date: '1883', publisher: 'Algemeene Landsdrukkerij', place: "'s-Gravenhage", pages: [1, 420], language: 'nl' },
    { type: 'journalArticle', creators: [['Tan', 'Wei Ling']], title: 'St John’s Island and the sanitary frontier of the Straits, 1874-1911', date: '2019', publicationTitle: 'Journal of Southeast Asian Studies', volume: '50', issue: '3', pages: [388, 411], abs: 'Singapore’s quarantine station between the Colonial Surgeon, the shipping lines and the pilgrim trade.' },
    { type: 'statute', creators: [], title: 'Quarantaine-ordonnantie (Staatsblad 1911 no. 277)', date: '1911', publisher: 'Landsdrukkerij', place: 'Batavia', sections: [1, 70], language: 'nl' },
    { type: 'encyclopediaArticle', creators: [], title: 'Quarantaine', date: '1919', publicationTitle: 'Encyclopaedie van Nederlandsch-Indië', volume: '3', pages: [1, 820], language: 'nl' },
    { type: 'report', creators: [['Burgerlijke Geneeskundige Dienst', '']], title: 'Verslag van den Burgerlijken Geneeskundigen Dienst over 1883', date: '1885', place: 'Batavia', pages: [1, 212], language: 'nl' },
    { type: 'thesis', creators: [['Nugroho', 'Arief']], title: 'Dokter Jawa di pelabuhan Batavia, 1870-1911', date: '2020', university: 'Universitas Indonesia', thesisType: 'Tesis magister', pages: [1, 176] },
    { type: 'newspaperArticle', creators: [], title: 'De cholera te Tandjong Priok', date: '1889-07-24', publicationTitle: 'Bataviaasch Nieuwsblad', pages: [2, 2], language: 'nl' },
  ],
  topics: ['Pulau Onrust', 'kolera 1883', 'surat kesehatan kapal', 'karantina haji', 'kapal dari Jeddah', 'Tanjung Priok', 'biaya karantina', 'pemeriksaan kapal', 'air bersih di Batavia', 'Handelsvereeniging', 'St John’s Island', 'dokter pelabuhan'],
  greet: ['Halo!', 'hai', 'pagi!', 'aku balik lagi', 'malam', 'hello again', 'hey'],
  chatter: [
    'sorry kemarin ngilang, KRL-nya mogok di Manggarai sejam.',
    'ini kopi ketiga hari ini, so maaf kalau banyak typo',
    'makasih yang kemarin ya, helpful banget',
    'lagi musim koreksi ujian mahasiswa, anyway',
    'quick question sebelum seminar',
    'sori, pesan sebelumnya agak berantakan',
    'thank you!!',
    'random sih, tapi normal nggak Zotero lama banget sync-nya di wifi kampus?',
    'bimbingan tadi lancar, promotor lagi good mood',
    'maaf kalau aku ngulang-ngulang, hari ini capek banget',
    'Leiden hujan terus, as usual',
  ],
  ask: [
    (v) => `bisa cariin apa aja yang aku punya soal ${v.topic}?`,
    (v) => `${v.a} sebenernya bilang apa soal ${v.topic}? aku cuma inget samar-samar`,
    (v) => `tolong buka bagian ${v.a} ${v.y} yang bahas ${v.topic}`,
    (v) => `ada nggak item soal ${v.topic} yang belum aku baca`,
    (v) => `${v.a} definisiin "pelabuhan" gimana, Onrust termasuk atau nggak?`,
    (v) => `compare ${v.a} sama ${v.b} soal ${v.topic}, singkat aja`,
    (v) => `aku punya sumber primer soal ${v.topic} nggak, atau semuanya secondary?`,
    (v) => `kasih full reference buat ${v.a} ${v.y} dong`,
    (v) => `argumen utama artikel ${v.a} apa, satu paragraf aja`,
    (v) => `ada anotasi aku di ${v.a}? rasanya aku highlight banyak banget`,
    (v) => `bacain bagian ${v.a} yang ngomongin ${v.topic}`,
  ],
  reply: [
    (v) => `Ini yang saya temukan soal ${v.topic}. ${v.a} (${v.y}) membahasnya paling langsung: karantina diterapkan secara selektif, diperketat saat perdagangan sepi dan dilonggarkan ketika kapal-kapal KPM dijadwalkan masuk. ${v.b} lebih hati-hati dan menganggap sumber sebelum 1870 masih sepotong-sepotong.`,
    (v) => `${v.a} tidak memberi satu definisi, tetapi dalam praktiknya memperlakukan pelabuhan sebagai dermaga plus reede, dan Onrust berada di luarnya. Ini penting untuk pertanyaan kamu, karena berarti petugas karantina berada di luar yurisdiksi Residen.`,
    (v) => `Saya sudah cek library: ada ${v.n} item yang menyinggung ${v.topic}, kebanyakan literatur sekunder. Sumber primernya journaal havenmeester, Verslag BGD 1883, dan satu artikel Bataviaasch Nieuwsblad.`,
    (v) => `Singkatnya, menurut ${v.a}, karantina lebih merupakan alat tawar-menawar antara pelabuhan dan negara kolonial daripada tindakan medis; argumen medisnya sering datang belakangan. Mau saya ambilkan halamannya?`,
    (v) => `Sejauh yang saya lihat, tidak ada yang belum kamu baca soal ${v.topic}; semua item di koleksi itu punya minimal satu catatan atau highlight dari kamu.`,
    (v) => `${v.a} dan ${v.b} sepakat soal kronologi tapi tidak soal motifnya: ${v.a} melihat pedagang menguasai komisi kesehatan, sedangkan ${v.b} melihat negara pusat yang lemah sehingga keputusan jatuh ke orang-orang di dermaga.`,
    (v) => `Untuk ${v.topic}, halaman yang paling berguna adalah yang membahas musim kemarau 1883, di mana ${v.a} menjajarkan jumlah pemeriksaan kapal dengan angka kematian per minggu.`,
  ],
  onSearch: [(v) => `Pencarian menghasilkan ${v.n} item; yang paling relevan ${v.a} (${v.y}).`, (v) => `${v.n} hasil, duplikatnya sudah saya buang.`, (v) => `Ketemu ${v.n}. ${v.a} paling dekat dengan yang kamu maksud.`],
  onRead: [(v) => `Saya sudah baca hlm. ${v.p} dari ${v.a}.`, (v) => `Dari full text (hlm. ${v.p}):`, (v) => `Saya telusuri ${v.a}, hlm. ${v.p}; intinya begini.`],
  onAnnot: [(v) => `Ada ${v.n} anotasi kamu di ${v.a}.`, (v) => `Highlight kamu di ${v.a}, urut halaman:`],
  onNotes: [(v) => `Ada ${v.n} catatan yang terlampir di ${v.a}.`, (v) => `Catatan kamu soal ${v.a}:`],
  onCite: [(v) => `Sudah diformat dengan ${v.s}:`, (v) => `Ini referensinya dalam ${v.s}.`],
  onDyn: [(v) => `Delpher memberi ${v.n} hasil; yang dari 1883 paling menjanjikan.`, (v) => `${v.n} hasil dari Delpher, belum ada yang masuk library kamu.`],
  onError: [(v) => `Panggilannya gagal (${v.e}). Saya lanjut pakai yang sudah ada di library.`, (v) => `Tool-nya mengembalikan error: ${v.e}. Saya coba cara lain.`],
  closers: ['Ada lagi untuk bagian ini?', 'Lanjut ke yang berikutnya?', 'Kabari kalau mau kutipan lengkapnya.', ''],
  joiners: [' ', ' ', '\n\n', ' terus ', ' oh iya, '],
  // Sources are Dutch colonial reports.
  bank: [
    (v) => `Het schip werd naar Onrust verwezen en ging op ${v.n} vadem van den wal ten anker, met last des daags de gele vlag te voeren en des nachts een licht te tonen.`,
    (v) => `In de week eindigende op den ${v.m}en Augustus werden in de kampongs nabij de haven ${v.n} sterfgevallen aan cholera aangegeven.`,
    (v) => `De agenten der stoomvaartmaatschappij deelden den havenmeester mede dat eene aanhouding van meer dan acht en veertig uren het verlies der mail ten gevolge zou hebben.`,
    (v) => `Van de aan wal gebrachte bedevaartgangers werden er ${v.n} door den geneesheer onderzocht en allen geschikt bevonden om de reis te vervolgen.`,
    (v) => `De vraag wie de kosten der ontsmetting zou dragen werd naar de Handelsvereeniging verwezen, die weigerde daarvoor eenige som toe te staan.`,
    (v) => `Het valt op dat de sterfte het zwaarst was in de kampongs achter de kade, waar ${v.n} gezinnen hun water uit één enkele put haalden.`,
    (v) => `De regeling verplichtte den gezagvoerder elke ziekte aan boord aan te geven vóór de vrije pratique, doch stelde geene straf op eene valsche opgave.`,
    (v) => `Uit de briefwisseling met den consul te Djeddah blijkt dat zuivere gezondheidspassen werden afgegeven aan schepen die onderweg manschappen hadden verloren.`,
    (v) => `De havenmeester meldt ${v.n} aankomsten uit de Straat in het kwartaal, waarvan geen enkele werd aangehouden.`,
    (v) => `De geschiedschrijving heeft deze cijfers gelezen als bewijs van nalatigheid; men leest ze beter als de uitkomst van een onderhandeling tusschen haven en stad.`,
    (v) => `Met ingang van Juni werd op Onrust een opzichter geplaatst, op eene bezoldiging van f ${v.n},- 's jaars.`,
    (v) => `De commissie besloot dat geen schip naar Onrust zou worden verwezen tenzij de geneesheer een geval van Aziatische cholera aan boord had vastgesteld.`,
  ],
  noteBank: [
    (v) => `<h2>${v.a}: reading notes</h2><p>Main claim: karantina sebagai negosiasi. Bagus soal ${v.topic}; lemah di 1870-an.</p><ul><li>cek footnote ke ANRI</li><li>bandingin sama Pratama soal surat kesehatan</li></ul>`,
    (v) => `<p>Useful buat ch. 2, bagian ${v.topic}. Kesimpulannya kurang meyakinkan.</p>`,
    (v) => `<h3>Quotes</h3><blockquote>"pelabuhan bukan tempat, tapi seikat izin"</blockquote><p>(terlalu puitis buat intro? tanya promotor)</p>`,
  ],
  annotBank: [
    (v) => ['de havenmeester had in deze zaak geenerlei bevoegdheid', 'cf. Pratama'],
    (v) => [`${v.n} schepen onderzocht in het kwartaal`, ''],
    (v) => ['quarantaine was uiteindelijk altijd een geldkwestie', 'yes!!'],
    (v) => ['de Gouverneur-Generaal heeft de commissie nooit teruggefloten', 'cek lagi'],
  ],
  dyn: { name: 'delpher_search', query: (v) => `quarantaine ${v.topic} 1883`, hit: (v) => ({ titel: ['Bataviaasch Nieuwsblad', 'Java-bode', 'De Locomotief'][v.n % 3], datum: `${1870 + (v.n % 41)}-0${1 + (v.n % 9)}-2${v.n % 8}`, urn: `ddd:0${11000000 + v.n * 97}:mpeg21:a0${v.n % 90}` }) },
  thanks: ['makasih!!', 'perfect, thank you', 'mantap, makasih banyak', 'oke sip, thanks', 'ini yang aku cari, makasih ya'],
  social: ['Sama-sama!', 'Tidak apa-apa.', 'Senang bisa membantu, kabari saja untuk langkah berikutnya.', 'Oke.'],
  goal: [
    (v) => `Halo! Oke jadi aku finally mulai chapter 2 disertasiku: karantina di pelabuhan Batavia dan Pulau Onrust, 1870-1911, terutama soal siapa yang sebenarnya punya otoritas buat nahan kapal ${v.t}. Zotero library aku berantakan banget btw, sorry in advance`,
    (v) => `tadi di kereta kepikiran: sebenarnya the core of it adalah tarik-menarik antara havenmeester, dokter pelabuhan, dan Residen Batavia. mulai sekarang itu main axis-nya ya ${v.t}`,
    (v) => `abis bimbingan, promotor aku minta Singapore dimasukin juga sebagai pembanding, bukan full case study, lebih ke counterpoint aja ${v.t}`,
  ],
  constraint: [
    (v) => `aku bisa baca Indonesian, English, sama Dutch. kalau Arab atau Melayu Jawi harus ada terjemahan, kalau nggak percuma ${v.t}`,
    (v) => `for now stop di 1890 dulu ya, sisanya buat chapter berikutnya ${v.t}`,
    (v) => `tahun ini aku nggak ada dana travel, jadi cuma yang udah digitized aja: Delpher, KITLV digital collections, ANRI online ${v.t}`,
    (v) => `eh lupain batas 1890, kita lanjut sampai 1911, kalau nggak the Onrust hajj station nggak masuk ${v.t}`,
    (v) => `buku pop history nggak usah. blog juga no. hanya yang peer-reviewed, buku akademik, atau sumber primer ${v.t}`,
    (v) => `KABAR BAIK!! hibah riset aku keterima, jadi arsip yang belum didigitalisasi bisa dipake lagi, including ANRI di Jakarta ${v.t}`,
  ],
  dateFormats: [
    (d) => `${d.day} ${['Januari', 'Februari', 'Maret', 'April', 'Mei', 'Juni', 'Juli', 'Agustus', 'September', 'Oktober', 'November', 'Desember'][d.m - 1]}`,
    (d) => `${d.day}/${d.m}`,
    (d) => `${['Minggu', 'Senin', 'Selasa', 'Rabu', 'Kamis', 'Jumat', 'Sabtu'][weekday(d)]}, ${d.day} ${['Januari', 'Februari', 'Maret', 'April', 'Mei', 'Juni', 'Juli', 'Agustus', 'September', 'Oktober', 'November', 'Desember'][d.m - 1]}`,
  ],
  deadline: [
    (v) => `draft chapter harus udah di promotor tanggal ${v.d} ${v.t}, kelihatannya masih lama tapi sebenernya nggak`,
    (v) => `jadwal berubah, seminar progress dimajuin, dia minta paling lambat ${v.d} ${v.t}. great.`,
    (v) => `seminarnya diundur lagi, sekarang ${v.d} ${v.t}. kita lihat aja`,
  ],
  style: [
    (v) => `referensi pakai APA 7th edition ya, soalnya graduate school minta gitu ${v.t}`,
    (v) => `eh ternyata fakultas sejarah maunya footnotes, jadi ganti ke Turabian notes-bibliography dari sekarang ${v.t}`,
    (v) => `chapter ini mau aku submit dulu ke Lembaran Sejarah, jadi pakai gaya selingkung mereka buat semua yang baru ${v.t}`,
  ],
  styleIds: [['apa', 'APA 7th'], ['turabian-fullnote-bibliography', 'Turabian (notes-bibliography)'], ['lembaran-sejarah', 'gaya selingkung Lembaran Sejarah']],
  designation: [
    (v) => `${v.k} ini bakal jadi buku pegangan aku buat bagian Onrust, inget terus ya ${v.t}`,
    (v) => `tolong tandain ${v.k} sebagai core reading, aku bakal cite terus di bagian negara kolonial ${v.t}`,
    (v) => `yang ini: zotero://select/library/items/${v.k} — paling penting buat Singapore comparison, anggap central ${v.t}`,
    (v) => `${v.k} masukin juga ke must-cite list ${v.t}`,
  ],
  retraction: [
    (v) => `${v.k} keluarin dari core list deh, setelah dibaca bener-bener isinya cuma rehash dari Hartono ${v.t}`,
    (v) => `${v.k} juga keluar dari must-cite, itu tesis magister, belum peer-reviewed, promotor aku tegas banget soal itu ${v.t}`,
  ],
  failed: [
    (v) => `Saya sudah mencoba OCR pada hasil scan journaal havenmeester lewat full-text tool, tapi hasilnya tidak terbaca (resolusi scan terlalu rendah). Jadi cara ini tidak berhasil dan tidak akan saya coba lagi ${v.t}.`,
    (v) => `fyi aku udah search "quarantaine" + "Onrust" di Delpher, keluar 20 ribu hits yang nggak relevan. dead end, nggak mau ulang lagi ${v.t}`,
    (v) => `Pencarian artikel Geneeskundig Tijdschrift voor Nederlandsch-Indië lewat DOI gagal: Crossref tidak punya DOI untuk volume abad ke-19 ${v.t}. Saya akan mencocokkan lewat judul dan halaman.`,
    (v) => `aku udah email ANRI dua kali soal bundel Algemene Secretarie, enam minggu nggak ada balasan. udahlah, nggak aku kejar lagi ${v.t}`,
    (v) => `Terjemahan mesin untuk dokumen Jawi tidak bisa dipakai: OCR salah membaca huruf dan penerjemahnya mengarang kata, jadi saya berhenti memakainya untuk sumber-sumber ini ${v.t}.`,
  ],
  decision: [
    (v) => `oke decided: struktur chapter tematik, bukan kronologis ${v.t}. kalau kronologis jadinya kayak daftar belanja`,
    (v) => `Jadi sudah disepakati: epidemi kolera 1883 menjadi titik balik chapter ini, dan yang sebelumnya diperlakukan sebagai latar ${v.t}.`,
    (v) => `aku pakai nama "Onrust" terus, bukan "Pulau Kapal", biar konsisten sama sumber Belanda ${v.t}`,
    (v) => `Sesuai kesepakatan, bagian Singapura jadi subbab pendek tersendiri di akhir, tidak diselipkan di bagian Batavia ${v.t}.`,
    (v) => `judul final chapter: "Menahan Kapal". udah, nggak ganti-ganti lagi ${v.t}`,
  ],
  task: [
    (v) => `kalau sempat, bisa tolong kasih tag "karantina" ke semua item soal Onrust? ${v.t}`,
    (v) => `aku masih harus transkrip sendiri surat-surat Residen 1883, tulisan tangan, nggak ada tool yang bisa baca ${v.t}`,
    (v) => `Selanjutnya saya akan menyusun timeline peraturan karantina di Batavia dan Singapura dari 1870 sampai 1911, supaya kelihatan di mana keduanya berbeda ${v.t}.`,
    (v) => `remind me buat tanya librarian soal arsip Handelsvereeniging ya ${v.t}`,
    (v) => `kapan-kapan bisa bikinin entri bibliografi buat semua sumber primer Belanda? no rush ${v.t}`,
  ],
  taskDone: [
    (v) => `Selesai: ${v.n} item tentang Onrust sekarang sudah punya tag "karantina" ${v.t}.`,
    (v) => `AKHIRNYA selesai transkrip surat-surat Residen 1883!! 35 halaman, mataku perih ${v.t}`,
    (v) => `udah ngobrol sama librarian soal arsip Handelsvereeniging, beres, boxnya bakal disiapin buat aku ${v.t}`,
  ],
  tagName: 'karantina',
  hypothesis: [
    (v) => `feeling aku: karantina di Batavia pendek karena pedagang Handelsvereeniging pegang kendali atas dokter pelabuhan ${v.t}`,
    (v) => `Ada satu kemungkinan yang layak diuji: setelah Tanjung Priok dibuka tahun 1886, otoritas havenmeester melemah karena kapal uap terjadwal membuat karantina panjang tidak mungkin secara komersial ${v.t}.`,
    (v) => `aku curiga kolera 1883 masuknya lewat kapal haji dari Jeddah, bukan dari Singapura ${v.t}`,
    (v) => `Bisa jadi pada wabah 1911 penyediaan air bersih jauh lebih menentukan daripada stasiun karantina itu sendiri ${v.t}; itu bisa diuji dengan membandingkan Surabaya.`,
  ],
  closed: [
    (v) => `inget teori pedagang aku? daftar anggotanya confirm, dari 6 anggota gezondheidscommissie tahun 1883, 4 orang pedagang. confirmed ${v.t}`,
    (v) => `Penjelasan lewat kapal uap ternyata tidak bertahan: kewenangan havenmeester justru diperluas pada 1887, setelah Priok beroperasi. Saya sarankan ide itu ditinggalkan ${v.t}.`,
    (v) => `teori kapal haji salah, kasus pertama 1883 itu kuli pelabuhan yang bongkar muat kapal dari Singapura ${v.t}`,
  ],
  finding: [
    { loc: 'p', text: (v) => `Hartono menunjukkan bahwa pada 1872 hanya dua kapal yang dikarantina penuh di Onrust, dan keduanya dilepas dalam waktu kurang dari seminggu (${v.k}, hlm. ${v.n}) ${v.t}.` },
    { loc: 'fol', text: (v) => `ketemu!!! journaal ${v.k}, fol. ${v.f}: penumpang kapal "Prinses Amalia" dibolehin turun setelah cuma 48 jam, modal omongan kaptennya doang ${v.t}` },
    { loc: 'p', text: (v) => `Van de ${v.x} schepen, in Juli uit de Straat binnengekomen, werd er geen enkel naar Onrust verwezen; de havenarts zag "geene reden tot aanhouding" ${v.t}.` },
    { loc: 'p', quote: 'de havenarts had geenerlei macht om de Handelsvereeniging te dwingen', text: (v) => `kalimat kunci buat ch. 2!! ${v.t}` },
    { loc: 'pp', text: (v) => `Van der Linde menghitung bahwa Residen terlambat enam hari sebelum mengakui wabah secara resmi (${v.k}, hlm. ${v.n}–${v.m}) ${v.t}.` },
    { loc: 'p', text: (v) => `<h2>ENI, lemma "Quarantaine"</h2><p>karantina "heeft de cholera nimmer tegengehouden" — ${v.k}, dl. 3, blz. ${v.n} ${v.t}</p><p>buat epigraf?</p>` },
    { loc: 'p', text: (v) => `Koloniaal Verslag ${v.k} blz. ${v.n} bilang havenpolitie periksa 312 kapal di bulan Agustus ${v.t}, way more than I expected` },
    { loc: 'pp', text: (v) => `koreksi kecil: telat enam hari itu ada di hlm. ${v.n}–${v.m} di ${v.k}, bukan yang kamu sebut tadi ${v.t}` },
    { loc: 'fol', text: (v) => `Besloten den gezagvoerder van de bark "Johanna" te beboeten met f 100,- wegens het aan wal zetten van passagiers vóór de vrije pratique ${v.t}.` },
    { loc: 'art', text: (v) => `Ordonnantie 1911 memberi keputusan menahan kapal hanya kepada havenarts, bukan kepada Residen (${v.k}, art. ${v.n}) ${v.t}.` },
    { loc: 'p', quote: (v) => `St John's Island was, in practice, run by the Colonial Surgeon of the Straits Settlements rather than by the port authority ${v.t}`, comment: 'Singapore = Colonial Surgeon' },
    { loc: 'p', text: (v) => `zotero://open-pdf/library/items/${v.k}?page=${v.n} ← di sini Hartono kasih angka kematian 1883 di pelabuhan, 1.214 ${v.t}` },
    { loc: 'p', text: (v) => `Verslag BGD tahun 1883 mencatat 2.940 kematian akibat kolera di Batavia (${v.k}, blz. ${v.n}) ${v.t}.` },
  ],
};

const TABLES = { en: EN, fr: FR, pt: PT, ko: KO, tr: TR, mixed: MIXED };

// ---------------------------------------------------------------------------------------------------
// The schedule: where each fact is said (share of the session), by whom, and what it supersedes. The same
// for every language; the tables above hold the words.

const GOALS = [0, 0.38, 0.74];
const CONSTRAINTS = [0.03, 0.1, 0.22, 0.47, 0.63, 0.86]; // #3 replaces #1, #5 replaces #2
const DEADLINES = [0.07, 0.44, 0.81];
const STYLES = [0.05, 0.5, 0.9];
const DESIGNATIONS = [{ at: 0.12, item: 0 }, { at: 0.27, item: 3 }, { at: 0.55, item: 5 }, { at: 0.77, item: 9 }];
const RETRACTIONS = [{ at: 0.66, of: 1 }, { at: 0.93, of: 3 }];
const FAILED = [{ at: 0.09, who: 'assistant', error: 'ocr' }, { at: 0.24, who: 'user' }, { at: 0.48, who: 'assistant', error: 'crossref' }, { at: 0.7, who: 'user' }, { at: 0.89, who: 'assistant', error: 'translate' }];
const DECISIONS = [{ at: 0.11, who: 'user' }, { at: 0.31, who: 'assistant' }, { at: 0.51, who: 'user' }, { at: 0.69, who: 'assistant' }, { at: 0.87, who: 'user' }];
const TASKS = [{ at: 0.08, who: 'user' }, { at: 0.2, who: 'user' }, { at: 0.4, who: 'assistant' }, { at: 0.6, who: 'user' }, { at: 0.84, who: 'user' }];
const DONE = [{ at: 0.26, who: 'assistant', task: 0, tags: true }, { at: 0.45, who: 'user', task: 1 }, { at: 0.79, who: 'user', task: 3 }];
const HYPOTHESES = [{ at: 0.13, who: 'user' }, { at: 0.3, who: 'assistant' }, { at: 0.57, who: 'user' }, { at: 0.8, who: 'assistant' }];
const CLOSED = [{ at: 0.35, who: 'user', of: 0 }, { at: 0.64, who: 'assistant', of: 1 }, { at: 0.75, who: 'user', of: 2 }];
/** The thirteen findings: `fulltext`, `annotation` and `note` put the fact inside that tool's output only. */
const FINDINGS = [
  { at: 0.06, who: 'assistant', item: 0 },
  { at: 0.14, who: 'user', item: 2 },
  { at: 0.19, who: 'fulltext', item: 8 },
  { at: 0.29, who: 'annotation', item: 1 },
  { at: 0.34, who: 'assistant', item: 3 },
  { at: 0.42, who: 'note', item: 7 },
  { at: 0.53, who: 'user', item: 4 },
  { at: 0.61, who: 'user', item: 3 }, // corrects #4: same key, other pages
  { at: 0.58, who: 'fulltext', item: 2 },
  { at: 0.67, who: 'assistant', item: 6 },
  { at: 0.72, who: 'annotation', item: 5 },
  { at: 0.83, who: 'user', item: 0, attachment: true },
  { at: 0.94, who: 'assistant', item: 8, chain: true },
];

const REASONING = [
  (v) => `The user is asking about ${v.topic}. Search the library first; only open the PDF if the abstract is not enough.`,
  (v) => `Several things in one message. Answer the question about ${v.a}, and keep the rest in mind.`,
  () => 'The archival scans probably have no text layer; prefer the printed sources for full text.',
  (v) => `Check the annotations on ${v.a} before reading the whole text, the user highlights a lot.`,
  () => 'Keep the current citation style in mind when formatting anything.',
  () => 'The full text is long. Read only the pages around the section they mean.',
  (v) => `They may mean the ${v.y} edition. Confirm by the key rather than the title.`,
];

/** The unforced turns: what the assistant does, by a roll (cumulative shares). */
const ROLL = [[0.2, 'chat'], [0.38, 'search'], [0.6, 'fulltext'], [0.69, 'annotation'], [0.75, 'note'], [0.81, 'cite'], [0.87, 'dynamic'], [0.93, 'chain'], [1.01, 'error']];
/** Which of the tables' questions (same order in every language) lead into each kind of turn. */
const ASK_FOR = { chat: [1, 4, 5, 8], search: [0, 3, 6], fulltext: [2, 10, 1], annotation: [9], note: [1, 9], cite: [7], dynamic: [0, 3, 6], chain: [2, 10], error: [0, 3, 6, 2] };
const PAGES = '\u0000pages\u0000'; // where the pages read go in the answer, once known
const USER_ID = 8841027;
const api = (path) => `https://api.zotero.org/users/${USER_ID}/${path}`;
const LIBRARY = { type: 'user', id: USER_ID, name: 'ph-quarantine', links: { alternate: { href: 'https://www.zotero.org/ph-quarantine', type: 'text/html' } } };
const NOTE_STYLES = new Set(['chicago-note-bibliography', 'chicago-fullnote-bibliography', 'modern-humanities-research-association', 'annales-du-midi', 'isnad-dipnotlu', 'turabian-fullnote-bibliography', 'uisahak', 'belleten']);

/**
 * A session of `turns` turns in `language` for a model with a `window`-token context: { script, facts }.
 * script[i] = { user, assistant } (AI SDK v5 UIMessages with ids u<i> / a<i>); facts from factPlanner.
 */
export function makeFifthSession(seed, language, turns, window) {
  const L = TABLES[language];
  if (!L) throw new Error(`untuned-fifth: unknown language ${language}`);
  const r = rng(seed * 7919 + 2027);
  const W = window;
  const cap = Math.floor(0.3 * W); // an assistant message stays under 30% of the window (tokens, roughly)
  const used = new Set();
  const tag = () => {
    for (;;) {
      const t = `〔${r.pick(LOWER)}${r.int(0, 9)}${r.pick(LOWER)}${r.int(0, 9)}〕`;
      if (!used.has(t)) { used.add(t); return t; }
    }
  };
  const at = (share) => Math.min(turns - 2, Math.max(1, Math.round(share * turns) + r.int(-2, 2)));
  const P = factPlanner(tag, at);
  const stamp = () => `202${r.int(3, 5)}-${pad2(r.int(1, 12))}-${pad2(r.int(1, 28))}T${pad2(r.int(6, 22))}:${pad2(r.int(0, 59))}:${pad2(r.int(0, 59))}Z`;

  // The library: the table's items with keys, attachment keys and versions drawn for this session.
  const lib = L.items.map((it, i) => ({
    ...it, i, key: r.key(), att: r.key(), version: r.int(300, 4800), added: stamp(),
    label: L.shorts[i] ?? it.creators[0]?.[0] ?? it.publicationTitle ?? it.title,
  }));
  const secondary = [0, 1, 3, 5, 9].map((i) => lib[i]); // the scholarship, with personal authors
  const vars = (focus = null) => {
    const a = focus ?? r.pick(secondary);
    const b = secondary[(secondary.indexOf(a) + r.int(1, secondary.length - 1)) % secondary.length];
    return { topic: r.pick(L.topics), a: a.label, b: b.label, y: a.date.slice(0, 4), n: r.int(3, 60), m: r.int(2, 28), tr: trCase, ko: koParticle, item: a };
  };

  // Planting: `put` renders a template with a placeholder for the tag and lets the planner draw it.
  const put = (kind, share, who, fn, v = {}, extra = {}, meta = {}) => {
    const turn = share === 0 ? 0 : at(share);
    const fact = P.plant(kind, turn, who, fn({ ...vars(), ...v, t: '{t}' }), {}, extra);
    const list = P.plan.get(turn);
    Object.assign(list[list.length - 1], meta, { fact });
    return fact;
  };
  const searchAt = new Map(); // turn -> items a search at that turn must show
  const wantSearch = (turn, item) => searchAt.set(turn, [...(searchAt.get(turn) ?? []), item]);

  GOALS.forEach((share, i) => put('goal', share, 'user', L.goal[i]));
  const cons = CONSTRAINTS.map((share, i) => put('constraint', share, 'user', L.constraint[i]));
  cons[1].staleBy = cons[3].probe;
  cons[2].staleBy = cons[5].probe;
  const month = (m, friday) => {
    const days = Array.from({ length: 28 }, (_, i) => ({ y: 2026, m, day: i + 1 })).filter((d) => !friday || weekday(d) === 5);
    return r.pick(days.filter((d) => d.day >= 4));
  };
  const dates = [month(6), month(5), month(9, true)];
  P.chain('deadline', DEADLINES, L.deadline.map((fn, i) => fn({ d: L.dateFormats[i](dates[i]), t: '{t}' })));
  const styles = P.chain('style', STYLES, L.style.map((fn) => fn({ t: '{t}' })));
  const designated = DESIGNATIONS.map((d, i) => {
    const f = put('designation', d.at, 'user', L.designation[i], { k: lib[d.item].key }, { key: lib[d.item].key });
    wantSearch(Math.max(0, f.turn - r.int(1, 3)), lib[d.item]);
    return f;
  });
  RETRACTIONS.forEach((x, i) => {
    const key = lib[DESIGNATIONS[x.of].item].key;
    designated[x.of].staleBy = put('retraction', x.at, 'user', L.retraction[i], { k: key }, { key }).probe;
  });
  FAILED.forEach((f, i) => put('failed', f.at, f.who, L.failed[i], {}, {}, { error: f.error }));
  DECISIONS.forEach((d, i) => put('decision', d.at, d.who, L.decision[i]));
  const tagged = r.int(14, 31);
  const tasks = TASKS.map((t, i) => put('task', t.at, t.who, L.task[i]));
  DONE.forEach((d, i) => { tasks[d.task].staleBy = put('task-done', d.at, d.who, L.taskDone[i], { n: tagged }, {}, { tags: d.tags }).probe; });
  const hyps = HYPOTHESES.map((h, i) => put('hypothesis', h.at, h.who, L.hypothesis[i]));
  CLOSED.forEach((c, i) => { hyps[c.of].staleBy = put('hypothesis-closed', c.at, c.who, L.closed[i]).probe; });

  // A locator for an item: n/m pages, f a folio (idx its position), page the string the runner looks for.
  const locate = (kind, it) => {
    const [lo, hi] = it.pages ?? it.columns ?? it.sections ?? [10, 400];
    const n = hi > 40 ? r.int(Math.max(lo, 10), hi - 3) : r.int(lo, hi);
    const m = n + r.int(1, 3);
    if (kind === 'fol') {
      const idx = r.int(2 * Math.max(it.folios[0], 3), 2 * it.folios[1] - 4);
      const f = `${Math.floor(idx / 2)}${L.folio[idx % 2]}`;
      return { n, m, f, idx, page: f };
    }
    const page = { p: `${n}`, col: `${n}`, pp: `${n}–${m}`, 'pp-': `${n}-${m}`, 'pp~': `${n}~${m}`, sec: `§ ${n}`, art: `art. ${n}`, jo: `제${n}조`, md: `md. ${n}`, myeon: `${n}면` }[kind];
    return { n, m, page };
  };
  let findings4 = null;
  const findings = FINDINGS.map((spec, i) => {
    const t = L.finding[i];
    const it = lib[spec.item];
    let loc = locate(t.loc, it);
    if (i === 7) while (loc.page === findings4.page) loc = locate(t.loc, it);
    if (i === 4) findings4 = loc;
    const key = spec.attachment ? it.att : it.key;
    const fn = typeof t.quote === 'function' ? t.quote : t.text;
    const inTool = ['fulltext', 'annotation', 'note'].includes(spec.who);
    return put('finding', spec.at, spec.who, fn, { k: key, n: loc.n, m: loc.m, f: loc.f, x: r.int(18, 96) }, { key, page: loc.page }, {
      tool: inTool ? spec.who : null, item: it, loc, quote: typeof t.quote === 'string' ? t.quote : null, comment: t.comment ?? null, chain: spec.chain,
    });
  });
  findings[4].staleBy = findings[7].probe;
  for (const f of findings) if (f.turn > 0 && P.plan.get(f.turn).some((e) => e.chain)) wantSearch(f.turn, lib[8]);

  // ------------------------------------------------------------------------------------------------
  // Tool parts.
  const creatorJson = (it) => it.creators.map(([last, first]) => (first ? { creatorType: 'author', firstName: first, lastName: last } : { creatorType: 'author', name: last }));
  const pagesOf = (it) => (it.pages ? `${it.pages[0]}–${it.pages[1]}` : '');
  const apiItem = (it) => {
    const data = { key: it.key, version: it.version, itemType: it.type };
    if (it.type === 'statute') Object.assign(data, { nameOfAct: it.title, creators: creatorJson(it), abstractNote: '', code: '', codeNumber: '', publicLawNumber: '', dateEnacted: it.date, pages: '', section: '' });
    else Object.assign(data, { title: it.title, creators: creatorJson(it), abstractNote: it.abs ?? '' });
    const byType = {
      book: { series: '', seriesNumber: '', volume: '', numberOfVolumes: '', edition: '', place: it.place, publisher: it.publisher, date: it.date, numPages: String(it.pages?.[1] ?? ''), ISBN: '' },
      journalArticle: { publicationTitle: it.publicationTitle, volume: it.volume ?? '', issue: it.issue ?? '', pages: pagesOf(it), date: it.date, series: '', journalAbbreviation: '', DOI: r.next() < 0.5 ? `10.${r.int(1000, 9999)}/${it.key.toLowerCase()}` : '', ISSN: '' },
      manuscript: { manuscriptType: 'register', place: '', date: it.date, numPages: '', archive: it.archive, archiveLocation: it.archiveLocation },
      report: { reportNumber: '', reportType: '', seriesTitle: '', place: it.place ?? '', institution: it.publisher ?? it.creators[0]?.[0] ?? '', date: it.date, pages: pagesOf(it) },
      thesis: { thesisType: it.thesisType, university: it.university, place: '', date: it.date, numPages: String(it.pages?.[1] ?? '') },
      newspaperArticle: { publicationTitle: it.publicationTitle, place: '', edition: '', date: it.date, section: '', pages: String(it.pages?.[0] ?? '') },
      statute: {},
      encyclopediaArticle: { encyclopediaTitle: it.publicationTitle, volume: it.volume ?? '', date: it.date, pages: it.columns ? `col. ${it.columns[0]}–${it.columns[1]}` : pagesOf(it) },
      dictionaryEntry: { dictionaryTitle: it.publicationTitle, volume: it.volume ?? '', date: it.date, pages: it.columns ? `col. ${it.columns[0]}–${it.columns[1]}` : pagesOf(it) },
    };
    Object.assign(data, byType[it.type], {
      language: it.language ?? L.locale.slice(0, 2), shortTitle: '', url: '', accessDate: '', libraryCatalog: it.archive ? '' : 'WorldCat', callNumber: '', rights: '', extra: '',
      tags: it.i === 9 ? [{ tag: 'thesis' }] : [{ tag: L.tagName, type: 1 }], collections: ['QZ7H4XKD'], relations: {}, dateAdded: it.added, dateModified: it.added,
    });
    return {
      key: it.key, version: it.version, library: LIBRARY,
      links: {
        self: { href: api(`items/${it.key}`), type: 'application/json' },
        alternate: { href: `https://www.zotero.org/ph-quarantine/items/${it.key}`, type: 'text/html' },
        attachment: { href: api(`items/${it.att}`), type: 'application/json', attachmentType: 'application/pdf', attachmentSize: 180000 + it.version * 97 },
      },
      meta: { creatorSummary: it.label, parsedDate: it.date, numChildren: 1 + (it.version % 4) },
      data,
    };
  };
  let calls = 0;
  const callId = (name) => `call_${name}_${(calls += 1).toString(36)}${r.key().slice(0, 4).toLowerCase()}`;
  const tool = (name, input, output) => ({ type: `tool-${name}`, toolCallId: callId(name), state: 'output-available', input, output });
  const failure = (name, input, errorText) => ({ type: `tool-${name}`, toolCallId: callId(name), state: 'output-error', input, errorText });
  const dynamic = (toolName, input, output) => ({ type: 'dynamic-tool', toolName, toolCallId: callId(toolName), state: 'output-available', input, output });
  const dynamicFailure = (toolName, input, errorText) => ({ type: 'dynamic-tool', toolName, toolCallId: callId(toolName), state: 'output-error', input, errorText });

  const perItem = estimateTokens(JSON.stringify(apiItem(lib[0])));
  const searchPart = (v, must = []) => {
    const limit = Math.max(1, Math.min(10, Math.floor((0.06 * W) / perItem)));
    const shown = [...must];
    for (const it of shuffle(lib)) if (shown.length < Math.max(limit, must.length) && !shown.includes(it)) shown.push(it);
    return tool('searchLibrary', { q: v.topic, qmode: 'everything', itemType: '-attachment || note', limit }, { totalResults: shown.length + r.int(0, 40), items: shown.map(apiItem) });
  };
  const bankFor = (it) => (it.i === 2 && L.archiveBank) || L.bank;
  let deck = [];
  const pageText = (it, tokens) => {
    const bank = bankFor(it);
    const out = [];
    while (estimateTokens(out.join(' ')) < tokens) {
      if (!deck.length || deck.bank !== bank) { deck = shuffle(bank); deck.bank = bank; }
      out.push(deck.pop()({ n: r.int(3, 480), m: r.int(1, 28) }));
    }
    return out;
  };
  const labelAt = (it, idx) => (it.folios ? `${Math.floor(idx / 2)}${L.folio[idx % 2]}` : String(idx));
  const range = (it) => (it.folios ? [2 * it.folios[0], 2 * it.folios[1] + 1] : it.pages ?? [1, 300]);
  /** A full-text read of about `tokens` tokens; `find` = { loc, text } puts a sentence on that page. */
  const fullTextPart = (it, tokens, find = null) => {
    const perPage = r.int(420, 680);
    const count = Math.max(1, Math.round(tokens / perPage));
    const [lo, hi] = range(it);
    const target = find ? (it.folios ? find.loc.idx : find.loc.n) : r.int(lo, Math.max(lo, hi - count));
    const first = Math.max(lo, target - (find ? r.int(0, count - 1) : 0));
    const pages = [];
    let budget = tokens;
    for (let idx = first; idx <= hi && (pages.length < count || (find && idx <= target)); idx++) {
      const size = Math.max(60, Math.min(perPage, budget));
      const sentences = pageText(it, size);
      if (find && idx === target) sentences.splice(r.int(0, sentences.length), 0, find.text);
      pages.push(`--- page ${labelAt(it, idx)} ---\n${sentences.join(' ')}`);
      budget -= size;
      if (budget <= 0 && (!find || idx >= target)) break;
    }
    const firstLabel = labelAt(it, first);
    const lastLabel = labelAt(it, first + pages.length - 1);
    return tool('getFullText', { itemKey: it.key, pages: firstLabel === lastLabel ? firstLabel : `${firstLabel}-${lastLabel}` }, {
      itemKey: it.key, attachmentKey: it.att, indexedPages: pages.length, totalPages: hi - lo + 1, content: pages.join('\n\n'),
    });
  };
  const annotation = (it, { text, comment, page }) => {
    const key = r.key();
    const pageIndex = Math.max(0, (Number.parseInt(page, 10) || 1) - (it.pages?.[0] ?? 1));
    const [x, y] = [r.int(50, 320), r.int(80, 700)];
    return {
      key, version: it.version + r.int(1, 400), library: LIBRARY,
      links: { self: { href: api(`items/${key}`), type: 'application/json' }, alternate: { href: `https://www.zotero.org/ph-quarantine/items/${key}`, type: 'text/html' }, up: { href: api(`items/${it.att}`), type: 'application/json' } },
      meta: {},
      data: {
        key, version: it.version + r.int(1, 400), parentItem: it.att, itemType: 'annotation', annotationType: text ? 'highlight' : 'note',
        ...(text ? { annotationText: text } : {}), annotationComment: comment, annotationColor: r.pick(['#ffd400', '#ff6666', '#5fb236', '#2ea8e5', '#a28ae5']),
        annotationPageLabel: page, annotationSortIndex: `${String(pageIndex).padStart(5, '0')}|${String(r.int(0, 9999)).padStart(6, '0')}|${String(y).padStart(5, '0')}`,
        annotationPosition: JSON.stringify({ pageIndex, rects: [[x, y, x + r.int(120, 260), y + 11.2]] }), tags: [], relations: {}, dateAdded: stamp(), dateModified: stamp(),
      },
    };
  };
  const annotationsPart = (it, find = null) => {
    const count = Math.max(1, Math.min(6, Math.round(W / 16_000)));
    const list = Array.from({ length: r.int(1, count) }, () => {
      const [text, comment] = r.pick(L.annotBank)({ n: r.int(3, 90) });
      return annotation(it, { text, comment, page: labelAt(it, r.int(...range(it))) });
    });
    if (find) list.splice(r.int(0, list.length), 0, annotation(it, { text: find.quote ?? find.text, comment: find.quote ? find.text : find.comment, page: find.loc.page }));
    return tool('getAnnotations', { itemKey: it.key, includeNotes: true }, list);
  };
  const note = (it, html) => {
    const key = r.key();
    return {
      key, version: it.version + r.int(1, 300), library: LIBRARY,
      links: { self: { href: api(`items/${key}`), type: 'application/json' }, up: { href: api(`items/${it.key}`), type: 'application/json' } },
      meta: { numChildren: 0 },
      data: { key, version: it.version + r.int(1, 300), parentItem: it.key, itemType: 'note', note: `<div data-schema-version="9">${html}</div>`, tags: [], relations: {}, dateAdded: stamp(), dateModified: stamp() },
    };
  };
  const notesPart = (it, v, find = null) => {
    const list = Array.from({ length: r.int(1, W >= 32_768 ? 3 : 1) }, () => note(it, r.pick(L.noteBank)(v)));
    if (find) list.splice(r.int(0, list.length), 0, note(it, find.text));
    return tool('getItemNotes', { itemKey: it.key }, list);
  };
  const citePart = (items, turn) => {
    let s = 0;
    styles.forEach((f, i) => { if (f.turn <= turn) s = i; });
    const [style, name] = L.styleIds[s];
    const notes = NOTE_STYLES.has(style);
    const year = (it) => it.date.slice(0, 4);
    const person = (it) => (it.creators[0] ? (it.creators[0][1] ? `${it.creators[0][1]} ${it.creators[0][0]}` : it.creators[0][0]) : '');
    const where = (it) => (it.publisher ? `${it.place}: ${it.publisher}, ${year(it)}` : it.publicationTitle ? `${it.publicationTitle} ${it.volume ?? ''} (${year(it)})` : it.archive ? `${it.archive}, ${it.archiveLocation}` : year(it));
    const locs = items.map((it) => ({ it, locator: labelAt(it, r.int(...range(it))) }));
    return [name, tool('formatCitation', { itemKeys: items.map((it) => it.key), style, locale: L.locale, locators: locs.map((x) => ({ itemKey: x.it.key, label: x.it.folios ? 'folio' : 'page', locator: x.locator })) }, {
      style, locale: L.locale,
      citations: locs.map(({ it, locator }) => ({ itemKey: it.key, text: notes ? `${person(it)}, ${it.title} (${where(it)}), ${locator}.` : `(${it.label} ${year(it)}, ${locator})` })),
      bibliography: items.map((it) => `${it.label}${it.creators[0]?.[1] ? `, ${it.creators[0][1]}` : ''}. ${notes ? '' : `${year(it)}. `}${it.title}. ${where(it)}.`),
    })];
  };
  const dynamicPart = (v) => {
    const hits = Array.from({ length: Math.max(2, Math.min(12, Math.round(W / 12_000))) }, () => L.dyn.hit({ ...v, n: r.int(1, 999) }));
    return [hits.length, dynamic(L.dyn.name, { query: L.dyn.query(v), rows: hits.length }, { content: [{ type: 'text', text: JSON.stringify({ total: hits.length + r.int(10, 900), hits }, null, 1) }] })];
  };
  const errorPart = (kind, v) => {
    const it = kind === 'ocr' ? lib[2] : v.item;
    switch (kind) {
      case 'ocr': return ['OCR', failure('getFullText', { itemKey: it.key, ocr: true }, `OCR failed for attachment ${it.att}: mean confidence 0.14 over ${r.int(20, 90)} pages (page images 96 dpi); no text layer written`)];
      case 'crossref': return ['Crossref 404', dynamicFailure('crossref_lookup', { 'query.bibliographic': `${v.topic} ${r.int(1850, 1859)}`, rows: 5 }, 'Crossref API error 404: Resource not found.')];
      case 'translate': return ['translation aborted', failure('translateText', { attachmentKey: lib[2].att, from: 'auto', to: L.locale }, 'Translation aborted: source language detection failed (confidence 0.21); 38% of OCR tokens not found in any dictionary')];
      case 'localapi': return ['ECONNREFUSED', failure('searchLibrary', { q: v.topic, qmode: 'everything' }, 'fetch failed: connect ECONNREFUSED 127.0.0.1:23119 (is Zotero running with the local API enabled?)')];
      case 'mcp': return ['MCP timeout', dynamicFailure(L.dyn.name, { query: L.dyn.query(v) }, 'MCP error -32001: Request timed out')];
      case 'ratelimit': return ['HTTP 429', failure('searchLibrary', { q: v.topic, qmode: 'titleCreatorYear' }, 'HTTP 429 Too Many Requests (Backoff: 30)')];
      default: return ['HTTP 403', failure('fetchPdf', { itemKey: it.key, url: `https://archive.org/download/${it.key.toLowerCase()}/${it.key.toLowerCase()}.pdf` }, 'HTTP 403 Forbidden')];
    }
  };
  const typo = (s) => {
    if (language === 'ko' || r.next() > 0.25) return s;
    const words = s.split(' ');
    const i = r.int(0, words.length - 1);
    const w = words[i];
    if (w.length < 6 || /[^a-zà-ÿçğışöü]/i.test(w)) return s;
    const j = r.int(1, w.length - 3);
    words[i] = `${w.slice(0, j)}${w[j + 1]}${w[j]}${w.slice(j + 2)}`;
    return words.join(' ');
  };
  const shuffle = (list) => {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i--) {
      const j = r.int(0, i);
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const fullShare = () => r.pick([0.05, 0.06, 0.08, 0.08, 0.1, 0.12, 0.15, 0.2]);

  // ------------------------------------------------------------------------------------------------
  // The turns.
  const script = [];
  for (let turn = 0; turn < turns; turn++) {
    const entries = P.plan.get(turn) ?? [];
    // What the turn is about: the item a planted tool result or a forced search shows, else a random one.
    const focus = entries.find((e) => e.tool)?.item ?? (entries.some((e) => e.chain) ? lib[8] : null) ?? searchAt.get(turn)?.[0] ?? null;
    const v = vars(focus);
    const userSays = entries.filter((e) => e.who === 'user').map((e) => e.text);
    const mine = entries.filter((e) => e.who === 'assistant');
    const inTools = entries.filter((e) => e.tool);

    // What the assistant does this turn: what the plan forces, else a roll.
    const forced = searchAt.has(turn) || inTools.length > 0 || mine.some((e) => e.error || e.tags || e.chain);
    const social = !forced && turn > 0 && userSays.length === 0 && !mine.length && r.next() < 0.07;
    const roll = r.next();
    const act = inTools.find((e) => e.tool)?.tool ?? (mine.some((e) => e.chain) ? 'chain' : searchAt.has(turn) ? 'search' : forced ? null
      : turn === 0 || social ? 'chat' : ROLL.find(([upTo]) => roll < upTo)[1]);

    // The user's message: greeting, chatter, what they have to say, a question that fits what follows.
    const pieces = [];
    if (turn > 0 && r.next() < 0.3) pieces.push(r.pick(L.greet));
    if (turn > 0 && r.next() < 0.22) pieces.push(typo(r.pick(L.chatter)));
    pieces.push(...userSays);
    const asks = !social && (turn === 0 || userSays.length === 0 || r.next() < 0.45);
    if (asks) pieces.push(typo(L.ask[r.pick(ASK_FOR[act] ?? L.ask.map((_, i) => i))](v)));
    if (social) pieces.push(r.pick(L.thanks));
    let userText = pieces.map((p, i) => (i === 0 ? p : `${r.pick(L.joiners)}${p}`)).join('').trim();
    if (language === 'tr' && r.next() < 0.3) userText = stripTurkish(userText);
    if ((language === 'fr' && r.next() < 0.15) || (language === 'pt' && r.next() < 0.2)) userText = stripLatin(userText);

    // The assistant's steps: each step opens with step-start; tool calls, then the answer.
    const steps = [];
    const lead = [];
    let fullText = null; // { it, find } read last, sized to what is left
    const addStep = (...ps) => steps.push(ps);
    if (searchAt.has(turn)) {
      const part = searchPart(v, searchAt.get(turn));
      addStep(part);
      lead.push(r.pick(L.onSearch)({ ...v, n: part.output.items.length, a: searchAt.get(turn)[0].label, y: searchAt.get(turn)[0].date.slice(0, 4) }));
    }
    for (const e of inTools) {
      if (e.tool === 'fulltext') fullText = { it: e.item, find: { loc: e.loc, text: e.text } };
      if (e.tool === 'annotation') { addStep(annotationsPart(e.item, e)); lead.push(r.pick(L.onAnnot)({ ...v, a: e.item.label, n: 2 })); }
      if (e.tool === 'note') { addStep(notesPart(e.item, v, e)); lead.push(r.pick(L.onNotes)({ ...v, a: e.item.label, n: 2 })); }
    }
    for (const e of mine) {
      if (e.error) { const [short, part] = errorPart(e.error, v); addStep(part); }
      if (e.tags) {
        const keys = Array.from({ length: tagged }, () => r.key());
        const version = r.int(5000, 6000);
        addStep(tool('addTags', { itemKeys: keys, tags: [L.tagName] }, {
          successful: Object.fromEntries(keys.map((key, i) => [String(i), { key, version, data: { key, version, tags: [{ tag: L.tagName }] } }])),
          success: Object.fromEntries(keys.map((key, i) => [String(i), key])), unchanged: {}, failed: {},
        }));
      }
      if (e.chain) {
        const [name, cite] = citePart([lib[8], lib[0]], turn);
        steps.push([annotationsPart(lib[8])]);
        fullText = fullText ?? { it: lib[8], find: null };
        steps.push([cite]);
        lead.push(r.pick(L.onCite)({ ...v, s: name }));
      }
    }
    if (!forced) {
      if (act === 'chat') { /* a plain answer */ } else if (act === 'search') {
        const part = searchPart(v);
        addStep(part);
        lead.push(r.pick(L.onSearch)({ ...v, n: part.output.items.length }));
      } else if (act === 'fulltext') {
        if (r.next() < 0.3) addStep(searchPart(v, [v.item]));
        fullText = { it: r.next() < 0.85 ? v.item : r.pick(lib.filter((it) => it.pages && it.pages[1] > 20)), find: null };
      } else if (act === 'annotation') {
        addStep(annotationsPart(v.item));
        lead.push(r.pick(L.onAnnot)({ ...v, n: steps.at(-1)[0].output.length }));
      } else if (act === 'note') {
        addStep(notesPart(v.item, v));
        lead.push(r.pick(L.onNotes)({ ...v, n: steps.at(-1)[0].output.length }));
      } else if (act === 'cite') {
        const [name, cite] = citePart([v.item, r.pick(lib.filter((it) => it !== v.item))], turn);
        addStep(cite);
        lead.push(r.pick(L.onCite)({ ...v, s: name }));
      } else if (act === 'dynamic') {
        const [n, part] = dynamicPart(v);
        addStep(part);
        lead.push(r.pick(L.onDyn)({ ...v, n }));
      } else if (act === 'chain') {
        // Three or four calls in a row: search, then full text and annotations together, then a citation.
        addStep(searchPart(v, [v.item]));
        steps.push([annotationsPart(v.item)]);
        fullText = { it: v.item, find: null };
        const [name, cite] = citePart([v.item], turn);
        steps.push([cite]);
        lead.push(r.pick(L.onCite)({ ...v, s: name }));
      } else {
        const [short, part] = errorPart(r.pick(['localapi', 'mcp', 'ratelimit', 'forbidden']), v);
        addStep(part);
        lead.push(r.pick(L.onError)({ ...v, e: short }));
        if (r.next() < 0.5) addStep(searchPart(v));
      }
    }

    // The answer.
    const said = [];
    if (social) said.push(r.pick(L.social));
    else {
      said.push(...lead);
      if (fullText) said.push(r.pick(L.onRead)({ ...v, a: fullText.it.label, p: PAGES }));
      if (asks || (!mine.length && !lead.length)) said.push(r.pick(L.reply)(v));
      said.push(...mine.map((e) => e.text));
      if (r.next() < 0.4) said.push(r.pick(L.closers));
    }
    const answerText = said.filter(Boolean).join(' ');
    const answer = { type: 'text', text: answerText };
    const reasoning = r.next() < 0.4 ? { type: 'reasoning', text: r.pick(REASONING)(v) } : null;

    const build = (ft) => {
      const parts = [];
      const all = ft ? [...steps.slice(0, 1), ...(steps.length > 1 ? [[...steps[1], ft]] : [[ft]]), ...steps.slice(2)] : steps;
      all.forEach((ps, i) => {
        parts.push({ type: 'step-start' });
        if (i === 0 && reasoning) parts.push(reasoning);
        parts.push(...ps);
      });
      parts.push({ type: 'step-start' });
      if (!all.length && reasoning) parts.push(reasoning);
      parts.push(answer);
      return { id: `a${turn}`, role: 'assistant', parts };
    };
    let assistant = build(null);
    if (fullText) {
      const left = cap - estimateTokens(JSON.stringify(assistant)) - 150;
      const want = Math.min(Math.floor(fullShare() * W), left);
      const read = (tokens) => {
        const part = fullTextPart(fullText.it, tokens, fullText.find);
        answer.text = answerText.replace(PAGES, part.input.pages);
        return build(part);
      };
      assistant = read(Math.max(80, want));
      // A read that had to include a far page can come out long: shrink it until the message fits.
      for (let shrink = 0.8; estimateTokens(JSON.stringify(assistant)) > cap && shrink > 0.05; shrink *= 0.8) assistant = read(Math.max(60, Math.floor(want * shrink)));
    }
    script.push({ user: { id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: userText }] }, assistant });
  }
  return { script, facts: P.facts.sort((a, b) => a.turn - b.turn) };
}
