// Deterministic sample sessions: the demo's research session and the benchmark's synthetic ones.
//
// Every node is an AI SDK v5/v6 UIMessage plus `parentId` (or a checkpoint node), and every piece
// of Zotero data has the shape Zotero itself produces (`Zotero.Item#toJSON()` or the Web API
// wrapper `{ key, version, library, links, meta, data }`). The papers, authors, DOIs and page
// texts are fictional (DOIs use the 10.5555 test prefix); only their shapes are real.
// The only source of variation is a seeded PRNG, so one seed always gives the same session.
// No Node APIs: the benchmark also runs this file in Firefox.

/** Zotero's key alphabet (no 0, 1, O): `Zotero.Utilities.generateObjectKey`. */
const ZOTERO_KEY_ALPHABET = '23456789ABCDEFGHIJKLMNPQRSTUVWXYZ';
const ZOTERO_KEY_LENGTH = 8;
/** AI SDK `generateId` uses 16 alphanumeric characters. */
const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 2025-03-10T09:00:00Z: when the fictional research session starts. */
const SESSION_START_MS = 1741597200000;
/** System prompt plus the tool schemas a Zotero assistant sends with every request (tokens). */
const REQUEST_OVERHEAD_TOKENS = 3150;
/** A 1280x800 1-bit grayscale PNG of a saturating curve with axes (a pasted figure). */
const SCREENSHOT_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAABQAAAAMgAQAAAABU4/JWAAAIH0lEQVR42u3dPW7jVhSGYRkqVLJIEQT54VK4NGrgwqWWwKWYAxcquQRLUMHSFFgMCdO8QZKZIBOMJZL379XMx9bNg3vP+c6hCnNl4M9KQAEFFFBAAQUUUEABBRRQQAEFFFBAAQUUUEABBRRQQAEFFFBAAQUUUEABBRRQQAEFFFBAAQUUUEABBRRQQJ/AVEABBRRQQAEFFFBAAQUUUEABBRRQQAEFFFBAAQUUUEABBRRQQAEFFFBAAQUUUEABBRRQQAEFFFBAAQUUUEABBRRQQAEFFFBAAQUUUEABBRRQQAEF/GGA5WrFBY6rvx8ocFh9eYjA8V9dRqzBw2fcHbJJvhzemtnF3TtnBwF+5qXQHOwuHV584D+xssFOkgm8mMDDFF484PBerECA5dfzjAYcLgZLfOBh4u3GAm7/vw+wgMOc44sA7KZXXxTgX+WXg99JynnXGxy4nTI6IgK3M8svNHBWukQAzm6PwMDtMl8w4Ha18B+qBgKWS32BgIeF9xsK2Cz3BQF2i/IlHHBYks8hgatVYsjAcv78DQpsZu8vYYHDyvI/XvsG2jRwCGBp1SD+gbYF6Bs4ruz/5bpXYGlbgJ6BjXUB+gWOF385BQBdXLBPYOfign0CnVywR2Dj5IL9AUe7HcY/sHT1VQxPwMFNh/gDbu8MGtg56hBvwO3aoIHN8tfgMEBXEeML6PIAvQCdRYwnYOP0y0UegE4P0APQ7QF6AG4TNrBz/O0s50DHB+gcOLjMQB/AcmPQQOcH6Bp4WBs20N0e6AfYOD9Ax8BtygZ2Hj5w6BRYJmzg6DxjHAObjWEDtxkb2N0ZNtBHi7gEemkRl0AvLeIS6KVFHAIHLy3iENgkcOA2ZwOHtWEDDwkcuMrZwM7XDbsCHlI40N+3wt0Auw0c6O+GHQE9fg3eCXDYwIEeb9gN0OMNOwF6m8OugD5v2Alwa9jAcQ0HNikcWOZs4Hhn2MAugQMPGRzo94btgT4XBSdAvyHjAFgaNtDvGHEA9Bwy9kDPIWMP/GDYwHEDB/oOGWug303GAfDOsIFDAgc2GRxYGjhwDQcGKEE7YIAStAMGKEE74BoODFGCVsAQJWgFDFGCVsA1HBikBG2AQUrQBngwcOA9HDgmcGCXwoGHHA78YODADRw4pHBgk8OBpYED13BgoJheDuwyOPBg4MCPdOAGDgwV04uBwXpkKTBYjywF3tOBGzgwXI8sBIZaZRYDw/XIQuA9HZjAgQF7ZBkwYI8sAwbskWXAezowgQND9sgiYJfDgSF7ZBHwiQ7cwIFjCgeGex9ZCGwMHPiRDnyAA8cEDhwyODDkMrgIeDRw4BMdmMCBYQfdAmDYQbcAGHbQLQAe6cAHOjCBA0M38Wxg0De6JcDQTTwbeKQDH+jABA4M3sRzgcGbeC4weBPPBR7pwAc6MIEDwzfxTOCQw4Hhm3gm8EgHPtGBCRwYoYnnAQP/sDUf2Bk48EwHPtGBD3RgAgeOGRwYYVWYB4ywKswDHunAJzpwRwemcGCMVWEWMPyvCjOBUVJmDvBEB+7pwB0dmMKBcVJmBjBOyswAxkmZGcATHbinA3d0YAoHRnljmgOM8sY0B9gZOPBIBz7RgQ90YAoHxkqZycBYKTMZGCtlJgPPdOCJDtzTgTs6MIUDo8XgVGC0GJwKjBaDU4FnOvBEB+7pwB0dmMKB8WJwIjBeDE4ExovBicAzHXiiA/d04I4OTOHAiDE4DRgxBqcBI8bgNOCZDjzRgXs6cEcHpnBgzBicBIwZg5OAMWNwEvBMB7Z0YE0HVnTgjg5M4cCoOT0FGDWnpwCj5vQU4JkOPNGBezqwogMLOjCDA0c6MG5OTwDGzekJwDMdeKIDazqwogMLOjCFAyPn9HVg5Jy+Doyc09eBPR3Y0oE1HbinA3d0YAoHxs7p68AcDhwMHNjTgWc68EQH1nRgRQcWdGAKB0YfJFeBORwYfZBcA/Z04JkOPNGBNR1Y0YEFHZjCgfEHyTVgDgfGHyRXgD0deKYDWzqwpgMrOnBHB6Z0YAYHAgbJZSBgkFwGdnRgTwe2dGBNB+7pwIoOLOjADA4c8cAcDiRMuovAXkBLYEsH1nTgng6s6MCCDswEtAMiJt0lIGLSXQJ2dGBPB7Z0YC2gJbCiAws6MKUDMziQMekuABmT7paBPR3YCmgJrOnASkBLYEEHZgLaASGj+H0gZNLdMLCnA1sBLYE1HVgJaAks6MBMQDsgZRS/C6RMutsF9nRgK6AlsKYDX+jAig4sBLQEZnAgZhTfLBAzit8DvtGBPR3YCmgJrOnASkBLYEEHPtKBGRzIGcW3CuTsCu8A3+jAng5sBbQE1nTgCx1Y0YGFgJbAjA7M4cCRDgTtCjcK7OnAVzqwpQNrAS2BFR34TAcWdOAjHZjBgaRd4TaBpF3hm8A3OrCnA1/pwJYOrAW0BFZ04DMdWNCBj3RgBgeidoWbBKKWmW8B3+jAng58pQNbOvATHVjTgZWAlsCCDnykAzM6MIcDRzzQwIEDHfhGB/Z04Csd2NKBtYCWwIoOfKYDCzrwkQ7M6MAcDhzxQAMHDnTgGx3Y04GvdGBLB36iA2s68IUOrOjAZzqwoAMf6cCMDszhwD/wQAMH/kYH/k4H/kIH/koH/kQH/kwHbujAREDbWSyggAIKKKCAAgp408AV4xHQH/C/z1e/p+eB/yCggAIKKKCAAgr4/QORK7+AAgoooIACCiiggAIKKKCAAgoooIACCiiggAIKKKCAAgoooIACCiiggAIKKKCAAgr4/QP/BK8pr2dgYCR1AAAAAElFTkSuQmCC';
export const SCREENSHOT_WIDTH = 1280;
export const SCREENSHOT_HEIGHT = 800;

// ---------------------------------------------------------------------------------------------
// Seeded randomness

/** mulberry32: a small, fast 32-bit PRNG; plenty for fixture data (the crash-safety test draws from it too). */
export function prng(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chars = (alphabet, n) => {
    let s = '';
    for (let i = 0; i < n; i++) s += alphabet[Math.floor(next() * alphabet.length)];
    return s;
  };
  return { next, int, pick, chars };
}

/** Ids, Zotero keys and clocks drawn from one PRNG; keys never repeat within a session. */
function factory(seed) {
  const rand = prng(seed);
  const usedKeys = new Set();
  let clock = SESSION_START_MS;
  return {
    rand,
    messageId: () => rand.chars(ID_ALPHABET, 16),
    toolCallId: () => `call_${rand.chars(ID_ALPHABET, 24)}`,
    zoteroKey() {
      let key;
      do key = rand.chars(ZOTERO_KEY_ALPHABET, ZOTERO_KEY_LENGTH);
      while (usedKeys.has(key));
      usedKeys.add(key);
      return key;
    },
    md5: () => rand.chars('0123456789abcdef', 32),
    /** Advances the session clock by `seconds` (plus jitter) and returns it in ms. */
    tick(seconds) {
      clock += (seconds + rand.int(0, Math.max(1, Math.floor(seconds / 3)))) * 1000;
      return clock;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Zotero data in Zotero's shapes

const LIBRARY = {
  type: 'user',
  id: 4815162,
  name: 'demo-researcher',
  links: { alternate: { href: 'https://www.zotero.org/demo-researcher', type: 'text/html' } },
};
const API = 'https://api.zotero.org/users/4815162';
const WEB = 'https://www.zotero.org/demo-researcher';

const isoDate = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The fields Zotero's `toJSON()` gives for each item type we use, in Zotero's order. */
function itemData(paper) {
  const common = {
    key: paper.key,
    version: paper.version,
    itemType: paper.itemType,
    title: paper.title,
    creators: paper.creators.map(([firstName, lastName]) => ({ creatorType: 'author', firstName, lastName })),
    abstractNote: paper.abstract,
  };
  const venue = {
    journalArticle: () => ({
      publicationTitle: paper.venue, volume: paper.volume ?? '', issue: paper.issue ?? '', pages: paper.pages ?? '',
      date: paper.date, series: '', seriesTitle: '', seriesText: '', journalAbbreviation: paper.abbrev ?? '',
      language: paper.language ?? 'en', DOI: paper.doi ?? '', ISSN: paper.issn ?? '',
    }),
    conferencePaper: () => ({
      date: paper.date, proceedingsTitle: paper.venue, conferenceName: paper.conference ?? '', place: paper.place ?? '',
      publisher: paper.publisher ?? '', volume: '', pages: paper.pages ?? '', series: '', language: paper.language ?? 'en',
      DOI: paper.doi ?? '', ISBN: '',
    }),
    preprint: () => ({
      genre: '', repository: paper.venue, archiveID: paper.archiveId ?? '', place: '', date: paper.date, series: '',
      seriesNumber: '', DOI: paper.doi ?? '', citationKey: '', language: paper.language ?? 'en',
    }),
    book: () => ({
      series: '', seriesNumber: '', volume: '', numberOfVolumes: '', edition: '', place: paper.place ?? '',
      publisher: paper.venue, date: paper.date, numPages: paper.numPages ?? '', language: paper.language ?? 'en', ISBN: paper.isbn ?? '',
    }),
    blogPost: () => ({ blogTitle: paper.venue, websiteType: '', date: paper.date, language: paper.language ?? 'en' }),
  }[paper.itemType]();
  return {
    ...common,
    ...venue,
    shortTitle: paper.shortTitle ?? '',
    url: paper.url ?? (paper.doi ? `https://doi.org/${paper.doi}` : ''),
    accessDate: paper.added,
    archive: '',
    archiveLocation: '',
    libraryCatalog: paper.catalog ?? 'DOI.org (Crossref)',
    callNumber: '',
    rights: '',
    extra: paper.extra ?? '',
    tags: paper.tags.map(([tag, type]) => (type ? { tag, type } : { tag })),
    collections: paper.collections,
    relations: {},
    dateAdded: paper.added,
    dateModified: paper.modified,
  };
}

const creatorSummary = (paper) => {
  const last = paper.creators.map((c) => c[1]);
  if (last.length === 1) return last[0];
  if (last.length === 2) return `${last[0]} and ${last[1]}`;
  return `${last[0]} et al.`;
};

/** The Web API's wrapper around an item's `data`. */
function webItem(paper) {
  const links = {
    self: { href: `${API}/items/${paper.key}`, type: 'application/json' },
    alternate: { href: `${WEB}/items/${paper.key}`, type: 'text/html' },
  };
  if (paper.attachment) {
    links.attachment = {
      href: `${API}/items/${paper.attachment.key}`,
      type: 'application/json',
      attachmentType: paper.attachment.contentType,
      attachmentSize: paper.attachment.size,
    };
  }
  return {
    key: paper.key,
    version: paper.version,
    library: LIBRARY,
    links,
    meta: { creatorSummary: creatorSummary(paper), parsedDate: paper.date, numChildren: paper.annotations ? 2 : 1 },
    data: itemData(paper),
  };
}

function attachmentData(paper) {
  const a = paper.attachment;
  return {
    key: a.key,
    version: paper.version,
    parentItem: paper.key,
    itemType: 'attachment',
    linkMode: 'imported_file',
    title: a.contentType === 'application/pdf' ? 'Full Text PDF' : 'EPUB',
    accessDate: '',
    url: '',
    note: '',
    contentType: a.contentType,
    charset: '',
    filename: a.filename,
    md5: a.md5,
    mtime: Date.parse(paper.added),
    tags: [],
    relations: {},
    dateAdded: paper.added,
    dateModified: paper.added,
  };
}

/** Colors of Zotero's annotation palette. */
const ANNOTATION_COLORS = { yellow: '#ffd400', red: '#ff6666', green: '#5fb236', blue: '#2ea8e5', purple: '#a28ae5', magenta: '#e56eee' };

function annotationData(paper, note, f) {
  const pageIndex = note.pageIndex;
  const top = 700 - f.rand.int(0, 520);
  const rects = [[72.02, top, 72.02 + f.rand.int(120, 460) + 0.318, top + 9.84]];
  const position =
    note.type === 'ink'
      ? { pageIndex, width: 2, paths: [[301.5, top, 305.2, top - 4.1, 310.9, top - 6.6, 318.4, top - 5.2]] }
      : note.type === 'note'
        ? { pageIndex, rects: [[530.4, top, 552.4, top + 22]] }
        : { pageIndex, rects };
  const data = {
    key: note.key,
    version: paper.version + 3,
    parentItem: paper.attachment.key,
    itemType: 'annotation',
    annotationType: note.type,
  };
  if (note.type === 'highlight' || note.type === 'underline') data.annotationText = note.text;
  Object.assign(data, {
    annotationComment: note.comment ?? '',
    annotationColor: ANNOTATION_COLORS[note.color ?? 'yellow'],
    annotationPageLabel: note.pageLabel,
    annotationSortIndex: `${String(pageIndex).padStart(5, '0')}|${String(f.rand.int(100, 4000)).padStart(6, '0')}|${String(Math.max(0, 792 - top)).padStart(5, '0')}`,
    annotationPosition: JSON.stringify(position),
    tags: (note.tags ?? []).map((tag) => ({ tag })),
    relations: {},
    dateAdded: note.added ?? paper.modified,
    dateModified: note.added ?? paper.modified,
  });
  return data;
}

function webChild(data, parentKey) {
  return {
    key: data.key,
    version: data.version,
    library: LIBRARY,
    links: {
      self: { href: `${API}/items/${data.key}`, type: 'application/json' },
      alternate: { href: `${WEB}/items/${data.key}`, type: 'text/html' },
      up: { href: `${API}/items/${parentKey}`, type: 'application/json' },
    },
    meta: {},
    data,
  };
}

// ---------------------------------------------------------------------------------------------
// The fictional library of the research session

const COLLECTION_NAMES = {
  survey: ['RAG survey', null],
  methods: ['Methods', 'survey'],
  benchmarks: ['Benchmarks & evaluation', 'survey'],
  chinese: ['中文文献', 'survey'],
  toRead: ['To read', null],
};

function makeCollections(f) {
  const out = {};
  for (const [id, [name, parent]] of Object.entries(COLLECTION_NAMES)) {
    out[id] = { key: f.zoteroKey(), name, parentId: parent, version: 300 + f.rand.int(0, 90) };
  }
  for (const c of Object.values(out)) c.parentCollection = c.parentId ? out[c.parentId].key : false;
  return out;
}

function webCollection(c, counts) {
  return {
    key: c.key,
    version: c.version,
    library: LIBRARY,
    links: {
      self: { href: `${API}/collections/${c.key}`, type: 'application/json' },
      alternate: { href: `${WEB}/collections/${c.key}`, type: 'text/html' },
    },
    meta: { numCollections: counts.collections, numItems: counts.items },
    data: { key: c.key, version: c.version, name: c.name, parentCollection: c.parentCollection, relations: {} },
  };
}

/** The papers (all fictional). `pages` are the page labels of the attachment, by page index. */
function makeLibrary(f) {
  const col = makeCollections(f);
  const added = (day, h) => isoDate(SESSION_START_MS - day * 86400000 + h * 3600000);
  const papers = {
    grounded: {
      itemType: 'journalArticle',
      title: 'Grounded Answers from Full Text: Retrieval-Augmented Generation for Scientific Question Answering',
      creators: [['Mira', 'Lindqvist'], ['Tomás', 'Okafor'], ['Hye-jin', 'Park']],
      abstract:
        'Question answering over scientific literature requires answers that are both correct and traceable to the passages that support them. We study retrieval-augmented generation over the full text of papers rather than abstracts, and compare section-aware chunking with fixed-size windows. On a benchmark of 2,140 expert-written questions, section-aware chunks of about 300 tokens improve answer accuracy by 6.8 points and citation precision by 11.2 points over abstract-only retrieval. We release the chunker and an evaluation protocol that scores whether every sentence of an answer is entailed by a cited passage.',
      venue: 'Transactions of the Association for Computational Linguistics', abbrev: 'Trans. Assoc. Comput. Linguist.',
      volume: '11', pages: '1187–1204', date: '2023', doi: '10.5555/tacl.2023.0412', issn: '2307-387X',
      tags: [['RAG'], ['scientific QA'], ['full text'], ['Question answering', 1], ['Information retrieval', 1]],
      collections: ['survey', 'methods'], pageCount: 18, firstPage: 1187,
    },
    reflect: {
      itemType: 'conferencePaper',
      title: 'Reflect Before You Cite: Self-Critique Tokens for Retrieval-Augmented Scientific Writing',
      creators: [['Anaïs', 'Moreau'], ['Rahul', 'Venkataraman'], ['Lena', 'Hoffmann'], ['Daniel', 'Osei']],
      abstract:
        'Language models that write with retrieved evidence still attach citations to sentences the evidence does not support. We train a generator to emit critique tokens that decide when to retrieve, whether a passage is relevant, and whether the sentence it wrote is supported. On three scientific writing tasks the critique tokens raise citation precision from 61.4 to 78.9 while keeping recall within two points, and accuracy saturates after about eight retrieved passages.',
      venue: 'Proceedings of the 62nd Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)',
      conference: 'ACL 2024', place: 'Bangkok, Thailand', publisher: 'Association for Computational Linguistics',
      pages: '4410–4426', date: '2024-08', doi: '10.5555/acl-long.2024.0238',
      tags: [['self-critique'], ['citation'], ['RAG']], collections: ['survey', 'methods'], pageCount: 17, firstPage: 4410,
    },
    dense: {
      itemType: 'journalArticle',
      title: 'Dense Retrieval over Full-Text Scientific Articles: Chunking, Citations, and Section Structure',
      creators: [['Tomás', 'Okafor'], ['Priya', 'Natarajan']],
      abstract:
        'Dense retrievers trained on web questions transfer poorly to the full text of scientific articles. We analyse how chunk size, section boundaries and in-text citations affect retrieval, and show that adding the section path and the titles of cited works to each chunk recovers most of the loss. Our ablations isolate the contribution of each signal on four scientific retrieval benchmarks.',
      venue: 'Journal of the Association for Information Science and Technology', abbrev: 'J. Assoc. Inf. Sci. Technol.',
      volume: '73', issue: '9', pages: '1265–1281', date: '2022-09', doi: '10.5555/asi.2022.24663', issn: '2330-1635',
      tags: [['dense retrieval'], ['chunking'], ['Information retrieval', 1]], collections: ['survey', 'methods'], pageCount: 17, firstPage: 1265,
    },
    litagent: {
      itemType: 'preprint',
      title: 'LitAgent: Tool-Using Language Models for Systematic Literature Review',
      creators: [['Sofia', 'Brandt'], ['Kenji', 'Watanabe']],
      abstract:
        'We describe an agent that searches bibliographic databases, screens abstracts and extracts study characteristics with tool calls. In a pilot with two review teams the agent reproduced 83% of the included studies.',
      venue: 'arXiv', archiveId: 'arXiv:2402.11873', date: '2024-02-19', doi: '10.5555/arxiv.2402.11873',
      catalog: 'arXiv.org', extra: 'arXiv:2402.11873 [cs]', tags: [['agents'], ['Computer Science - Computation and Language', 1]],
      collections: ['toRead'], pageCount: 12, firstPage: 1,
    },
    biomed2019: {
      itemType: 'journalArticle',
      title: 'Neural Reading Comprehension over Biomedical Abstracts',
      creators: [['Grace', 'Whitfield'], ['Omar', 'Haddad']],
      abstract:
        'We adapt extractive reading comprehension models to biomedical abstracts and evaluate them on factoid questions written by clinicians.',
      venue: 'Bioinformatics', volume: '35', issue: '18', pages: '3370–3378', date: '2019', doi: '10.5555/bioinf.2019.0173',
      tags: [['reading comprehension'], ['biomedical']], collections: ['survey'], pageCount: 9, firstPage: 3370,
    },
    sciqa: {
      itemType: 'conferencePaper',
      title: 'SciQA-Long: A Benchmark of Long-Form Questions over Full Scientific Papers',
      creators: [['Hye-jin', 'Park'], ['Marcus', 'Feld'], ['Ines', 'Carvalho']],
      abstract:
        'We present SciQA-Long, 2,140 questions written by domain experts who read the full paper, with long-form reference answers and the evidence paragraphs that support them. Questions span NLP, materials science and epidemiology; 38% need evidence from more than one section.',
      venue: 'Advances in Neural Information Processing Systems 35 (Datasets and Benchmarks Track)', conference: 'NeurIPS 2022',
      place: 'New Orleans, LA, USA', publisher: 'Curran Associates, Inc.', pages: '21904–21917', date: '2022',
      doi: '10.5555/neurips.2022.db.0481', tags: [['benchmark'], ['scientific QA'], ['long-form QA']],
      collections: ['survey', 'benchmarks'], pageCount: 14, firstPage: 21904,
    },
    wang: {
      itemType: 'journalArticle',
      title: '面向科技文献问答的检索增强生成方法研究',
      creators: [['晓明', '王'], ['静', '李'], ['志远', '陈']],
      abstract:
        '科技文献问答要求答案准确且可追溯到原文证据。本文提出一种面向中文科技文献的检索增强生成方法：以段落为检索单元，结合章节标题与参考文献信息构建稠密索引，并在生成阶段要求模型为每个结论标注证据段落。在自建的中文科技问答数据集 CSTQA（1 860 个问题）和翻译后的 SciQA-Long 子集上，该方法的答案准确率分别比仅检索摘要的基线提高 7.4 和 5.9 个百分点，引用精确率提高 9.6 个百分点。',
      venue: '中文信息学报', abbrev: '中文信息学报', volume: '37', issue: '6', pages: '51–62', date: '2023-06',
      doi: '10.5555/jcip.2023.06.006', issn: '1003-0077', language: 'zh-CN', catalog: 'CNKI',
      tags: [['检索增强生成'], ['科技文献'], ['问答系统'], ['RAG']], collections: ['survey', 'chinese'], pageCount: 12, firstPage: 51,
    },
    faithful: {
      itemType: 'journalArticle',
      title: 'Measuring Citation Faithfulness in Machine-Generated Literature Summaries',
      creators: [['Yuki', 'Nakamura'], ['Elena', 'Rossi']],
      abstract:
        'Citations in generated literature summaries are often attached to the wrong source. We define citation faithfulness at the level of sentence-citation pairs, annotate 3,900 pairs from four systems, and find that a third of citations point to a source that does not support the sentence.',
      venue: 'Scientometrics', volume: '126', issue: '11', pages: '209–231', date: '2021-11', doi: '10.5555/scim.2021.04152',
      issn: '0138-9130', tags: [['citation'], ['evaluation'], ['hallucination']], collections: ['survey', 'benchmarks'], pageCount: 23, firstPage: 209,
    },
    position: {
      itemType: 'conferencePaper',
      title: 'Lost in the Long Context? Position Effects in Retrieval-Augmented Reading of Scientific Text',
      creators: [['Felix', 'Baumann'], ['Amara', 'Nwosu'], ['Chen', 'Jiawei']],
      abstract:
        'We measure how the position of the gold passage among retrieved passages affects answer accuracy on scientific questions. Accuracy drops by up to 14 points when the gold passage sits in the middle of twenty passages; reordering by retrieval score recovers most of the loss.',
      venue: 'Proceedings of the 2023 Conference on Empirical Methods in Natural Language Processing', conference: 'EMNLP 2023',
      place: 'Singapore', publisher: 'Association for Computational Linguistics', pages: '8121–8135', date: '2023-12',
      doi: '', extra: 'DOI: 10.5555/emnlp-main.2023.0502', tags: [['long context'], ['RAG']], collections: ['survey', 'methods'],
      pageCount: 15, firstPage: 8121,
    },
    tables: {
      itemType: 'journalArticle',
      title: 'Tables and Figures as Evidence: Multimodal Retrieval for Scientific Question Answering',
      creators: [['Sara', 'Lindgren'], ['Mateo', 'Ruiz']],
      abstract:
        'Many answers to scientific questions sit in tables and figures. We index table cells and figure captions next to text passages and show that multimodal evidence raises accuracy on numeric questions by 12.3 points.',
      venue: 'Information Processing & Management', volume: '61', issue: '2', pages: '103622', date: '2024-03',
      doi: '10.5555/ipm.2024.103622', issn: '0306-4573', tags: [['multimodal'], ['tables'], ['scientific QA']],
      collections: ['survey', 'methods'], pageCount: 16, firstPage: 1,
    },
    blog: {
      itemType: 'blogPost',
      title: 'Evaluating RAG pipelines without fooling yourself',
      creators: [['Jonas', 'Albrecht']],
      abstract: 'Practical notes on building evaluation sets for retrieval-augmented applications.',
      venue: 'Notes on Applied NLP', date: '2023-10-02', url: 'https://example.org/blog/evaluating-rag-pipelines',
      catalog: '', tags: [['evaluation']], collections: ['toRead'], pageCount: 0,
    },
    guide: {
      itemType: 'book',
      title: "Retrieval-Augmented Language Models: A Practitioner's Guide",
      creators: [['Hannah', 'Oduya'], ['Pieter', 'de Vries']],
      abstract: 'A book-length introduction to building, evaluating and operating retrieval-augmented language model systems.',
      venue: 'Open Research Press', place: 'Cambridge', date: '2024', numPages: '312', isbn: '978-1-5555-0312-4',
      catalog: 'Library of Congress', tags: [['RAG'], ['textbook']], collections: ['survey'], pageCount: 0, epub: true,
    },
  };
  const keyed = {};
  let n = 0;
  for (const [id, p] of Object.entries(papers)) {
    n++;
    const paper = {
      id,
      ...p,
      key: f.zoteroKey(),
      version: 200 + n * 7 + f.rand.int(0, 5),
      added: added(40 - n * 2, 9 + (n % 8)),
      modified: added(30 - n, 14),
      collections: p.collections.map((c) => col[c].key),
    };
    if (p.pageCount || p.epub) {
      const epub = Boolean(p.epub);
      const stem = `${creatorSummary(paper).replace(' et al.', ' et al')} - ${String(p.date).slice(0, 4)} - ${p.title.slice(0, 48)}`;
      paper.attachment = {
        key: f.zoteroKey(),
        contentType: epub ? 'application/epub+zip' : 'application/pdf',
        filename: `${stem}.${epub ? 'epub' : 'pdf'}`.replace(/[:?']/g, ''),
        md5: f.md5(),
        size: epub ? 2841331 : 300000 + f.rand.int(0, 2500000),
      };
    }
    keyed[id] = paper;
  }
  return { papers: keyed, collections: col };
}

/** Page label of a page index: journals number pages from `firstPage`. */
const pageLabel = (paper, pageIndex) => String((paper.firstPage ?? 1) + pageIndex);

// ---------------------------------------------------------------------------------------------
// Page text: a hand-written lead (what the assistant quotes) followed by plausible filler

const FILLER_EN = [
  'Retrieval quality bounds answer quality: when none of the retrieved passages contains the evidence, the generator either abstains or falls back on parametric knowledge, and the latter is where unsupported claims appear.',
  'We follow prior work in reporting exact-match accuracy only for factoid questions; long-form answers are scored with an entailment model that checks each sentence against its cited passages.',
  'All retrievers are evaluated with the same index of 1.9 million chunks drawn from 41,327 open-access articles, deduplicated by DOI.',
  'Section headings are kept as a prefix of each chunk, which costs on average 11 tokens per chunk but lets the retriever distinguish a claim in the Results from the same phrase in the Related Work.',
  'Inter-annotator agreement on evidence selection was substantial (Cohen\'s kappa = 0.71), with most disagreements concerning paragraphs that restate a result in the Discussion.',
  'Table 2 lists the hyperparameters; we did not tune them per dataset, so the numbers below are conservative for every system.',
  'The generator is instructed to cite at least one passage per sentence and to answer "not found in the provided papers" when no passage supports an answer.',
  'Errors fall into three groups: retrieval misses (41%), unsupported synthesis across passages (33%) and misread tables or units (26%).',
  'Figure captions and table cells are indexed as separate chunks with a pointer to their page, so a citation can be resolved to the exact location in the PDF.',
  'Longer contexts help only up to a point: beyond eight passages the additional evidence is mostly redundant, and the share of citations attached to irrelevant passages grows.',
  'We release the annotated questions, the evidence paragraphs and the scoring scripts under a CC BY 4.0 licence.',
  'A limitation of our setup is that all questions were written after reading the paper, which favours questions whose answers are stated explicitly.',
  'The cross-encoder reranker adds 180 ms per question on a single A100 GPU but improves recall@5 by 9.4 points on questions that need evidence from methods sections.',
  'Questions that require combining a number from a table with a definition from the text remain the hardest category for every system we tested.',
  'Citation precision is computed over sentence-citation pairs; citation recall counts a sentence as covered when at least one cited passage entails it.',
  'Abstract-only retrieval is competitive for questions about a paper\'s main contribution but fails on questions about datasets, hyperparameters and limitations.',
  'We ran each configuration with three random seeds and report the mean; standard deviations were below 0.8 points throughout.',
  'Human evaluators preferred answers with page-level citations over answers citing whole documents in 72% of pairwise comparisons.',
];
const FILLER_ZH = [
  '检索质量决定了答案质量的上限：当检索结果中没有包含证据的段落时，生成模型要么拒绝回答，要么依赖参数知识作答，而后者正是无依据结论的主要来源。',
  '为保证可比性，所有方法使用同一个段落索引，索引包含 36 万篇中文科技论文的 210 万个段落，并按 DOI 去重。',
  '章节标题作为段落前缀保留，平均每个段落增加 9 个词元，但使检索器能够区分“实验结果”与“相关工作”中的相同表述。',
  '标注者在证据段落选择上的一致性较高（Cohen κ = 0.74），分歧主要集中在“讨论”部分对结果的复述段落。',
  '生成阶段要求模型为每个句子至少引用一个证据段落，并在证据不足时回答“所给文献中未找到答案”。',
  '错误分析表明，检索遗漏占 43%，跨段落的无依据综合占 31%，表格与单位误读占 26%。',
  '当检索段落超过 8 个时，额外证据大多冗余，而引用到无关段落的比例随之上升。',
  '本文的局限在于问题均由阅读全文后的标注者编写，因而偏向答案在原文中明确陈述的问题。',
  '所有实验均使用三个随机种子重复运行并报告平均值，标准差均小于 0.9 个百分点。',
  '人工评估中，评估者在 70% 的成对比较中更偏好带有页码级引用的答案。',
];

/** UTF-8 length without encoding (the generator also runs where TextEncoder is slow to call often). */
function utf8Bytes(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? (i++, 4) : 3;
  }
  return n;
}

function pageText(rand, { header, heading, lead, footer, bytes, zh = false }) {
  const pool = zh ? FILLER_ZH : FILLER_EN;
  const joiner = zh ? '' : ' ';
  const chunks = [`${header}\n\n${heading ? `${heading}\n\n` : ''}${lead}\n\n`];
  let size = utf8Bytes(chunks[0]);
  let paragraph = [];
  let target = rand.int(3, 5);
  while (size < bytes) {
    const sentence = rand.pick(pool);
    paragraph.push(sentence);
    size += utf8Bytes(sentence) + 1;
    if (paragraph.length >= target) {
      chunks.push(paragraph.join(joiner) + '\n\n');
      paragraph = [];
      target = rand.int(3, 5);
    }
  }
  if (paragraph.length) chunks.push(paragraph.join(joiner) + '\n\n');
  return chunks.join('') + footer;
}

function pdfPage(ctx, paperId, pageIndex, lead, { heading = '', bytes = 2600 } = {}) {
  const paper = ctx.lib.papers[paperId];
  const label = pageLabel(paper, pageIndex);
  const zh = paper.language === 'zh-CN';
  const header = zh
    ? `第 ${paper.volume} 卷 第 ${paper.issue} 期　　　　中 文 信 息 学 报　　　　Vol. ${paper.volume}, No. ${paper.issue}`
    : `${creatorSummary(paper)} · ${paper.venue.length > 70 ? paper.venue.slice(0, 67) + '...' : paper.venue} (${String(paper.date).slice(0, 4)})`;
  return {
    attachmentKey: paper.attachment.key,
    pageIndex,
    pageLabel: label,
    pageCount: paper.pageCount,
    text: pageText(ctx.f.rand, { header, heading, lead, footer: label, bytes, zh }),
  };
}

// ---------------------------------------------------------------------------------------------
// Message builders

const text = (t) => ({ type: 'text', text: t, state: 'done' });
const reasoning = (t) => ({ type: 'reasoning', text: t, state: 'done' });
const stepStart = () => ({ type: 'step-start' });

function toolPart(ctx, name, input, output) {
  return { type: `tool-${name}`, toolCallId: ctx.f.toolCallId(), state: 'output-available', input, output };
}

/**
 * Rough context size used only to give `metadata.usage` plausible, growing numbers
 * (CJK characters about one token each, everything else about 3.6 characters per token).
 */
const CJK_RUN = /[\u3000-\u9fff\uff00-\uffef]+/g;

function roughTokens(value) {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  const cjk = s.length - s.replace(CJK_RUN, '').length;
  return Math.round(cjk * 1.1 + (s.length - cjk) / 3.6);
}

/** Context-occupancy bookkeeping behind the usage numbers: grows as messages are added. */
function usageFor(ctx, assistantParts, toolTokens) {
  const finalText = assistantParts.filter((p) => p.type === 'text').map((p) => p.text).join('\n');
  const reasoningText = assistantParts.filter((p) => p.type === 'reasoning').map((p) => p.text).join('\n');
  const reasoningTokens = reasoningText ? roughTokens(reasoningText) + ctx.f.rand.int(40, 400) : 0;
  const textTokens = Math.max(1, Math.round(roughTokens(finalText) * 0.86));
  // The last step's input is the whole context before its text: history plus this response's tool parts.
  const inputTokens = Math.round((REQUEST_OVERHEAD_TOKENS + ctx.contextTokens + toolTokens) * 0.88);
  const cachedInputTokens = ctx.lastInputTokens ? Math.floor(ctx.lastInputTokens / 1024) * 1024 : 0;
  ctx.lastInputTokens = inputTokens;
  const outputTokens = textTokens + reasoningTokens;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, reasoningTokens, cachedInputTokens };
}

/** `tokens`: the node's rough size when the caller already knows it. */
function appendNode(ctx, node, tokens) {
  ctx.nodes.push(node);
  ctx.leafId = node.id;
  if (!node.checkpoint) {
    ctx.contextTokens += tokens ?? roughTokens(node.parts.filter((p) => p.type !== 'reasoning' && p.type !== 'file'));
  }
  return node;
}

function userMessage(ctx, content) {
  const parts = typeof content === 'string' ? [text(content)] : content;
  return appendNode(ctx, {
    id: ctx.f.messageId(),
    parentId: ctx.leafId,
    role: 'user',
    parts,
    createdAt: ctx.f.tick(90),
  });
}

/**
 * An assistant response: `steps` are arrays of tool parts (one model step each), then a final
 * step with the answer text. `think` adds a reasoning part to the first step.
 */
function assistantMessage(ctx, { think, steps = [], answer, usage = true }) {
  const parts = [];
  for (const [i, tools] of steps.entries()) {
    parts.push(stepStart());
    if (i === 0 && think) parts.push(reasoning(think));
    parts.push(...tools);
  }
  parts.push(stepStart());
  if (!steps.length && think) parts.push(reasoning(think));
  parts.push(text(answer));
  const toolParts = parts.filter((p) => p.type.startsWith('tool-'));
  const toolTokens = toolParts.length ? roughTokens(toolParts) : 0;
  const metadata = { model: 'research-assistant-128k', finishReason: 'stop' };
  if (usage) metadata.usage = usageFor(ctx, parts, toolTokens);
  const tokens = toolTokens + roughTokens(answer) + 8 * parts.length;
  return appendNode(ctx, {
    id: ctx.f.messageId(),
    parentId: ctx.leafId,
    role: 'assistant',
    parts,
    metadata,
    createdAt: ctx.f.tick(25 + steps.length * 8),
  }, tokens);
}

function newContext(seed) {
  const f = factory(seed);
  return { f, lib: makeLibrary(f), nodes: [], leafId: null, contextTokens: 0, lastInputTokens: 0 };
}

// ---------------------------------------------------------------------------------------------
// The research session (the demo's bundled session)

/** Turn scripts: each takes the context and appends one user message and its response. */
function researchTurns() {
  const cite = (p, page) => `(${p.key}${page ? `, p. ${page}` : ''})`;
  return [
    // 1
    (c) => {
      const P = c.lib.papers;
      userMessage(c, "I'm drafting the related-work section of a survey on retrieval-augmented generation for scientific question answering. What do I have in my Zotero library on this?");
      const found = ['grounded', 'reflect', 'dense', 'litagent', 'biomed2019', 'sciqa', 'blog'].map((id) => webItem(P[id]));
      assistantMessage(c, {
        think: 'The user wants an overview of their own library. Search Zotero with a broad query first, then group the results by what they contribute (methods, benchmarks, other).',
        steps: [[toolPart(c, 'zoteroSearch', { q: 'retrieval-augmented generation scientific question answering', qmode: 'everything', limit: 10 }, found)]],
        answer: `I found seven items in your library that match. Grouped by what they contribute:

**Methods**
- Lindqvist, Okafor & Park (2023), *Grounded Answers from Full Text* ${cite(P.grounded)} — RAG over full text instead of abstracts, with section-aware chunking. TACL, peer-reviewed.
- Moreau et al. (2024), *Reflect Before You Cite* ${cite(P.reflect)} — a generator that emits self-critique tokens to decide when to retrieve and whether a sentence is supported. ACL 2024.
- Okafor & Natarajan (2022), *Dense Retrieval over Full-Text Scientific Articles* ${cite(P.dense)} — how chunk size, section paths and citations affect dense retrieval. JASIST.
- Brandt & Watanabe (2024), *LitAgent* ${cite(P.litagent)} — a tool-using agent for systematic reviews (arXiv preprint).

**Benchmarks**
- Park, Feld & Carvalho (2022), *SciQA-Long* ${cite(P.sciqa)} — 2,140 expert-written long-form questions over full papers.

**Other**
- Whitfield & Haddad (2019), *Neural Reading Comprehension over Biomedical Abstracts* ${cite(P.biomed2019)} — extractive QA, pre-RAG.
- Albrecht (2023), *Evaluating RAG pipelines without fooling yourself* ${cite(P.blog)} — a blog post with practical evaluation advice.

Lindqvist et al. and SciQA-Long share an author (Hye-jin Park) and the same question set, so they will probably anchor the section. Shall I open any of them?`,
      });
    },
    // 2
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'no, only peer-reviewed papers after 2020');
      const kept = ['grounded', 'reflect', 'dense', 'sciqa', 'position'].map((id) => itemData(P[id]));
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroSearch', { q: 'retrieval-augmented generation scientific question answering', itemType: 'journalArticle || conferencePaper', dateFrom: '2021-01-01', limit: 10 }, kept)]],
        answer: `Understood: peer-reviewed and published 2021 or later. Restricting the search to journal articles and conference papers from 2021 on leaves five items:

1. Lindqvist et al. 2023, TACL ${cite(P.grounded)}
2. Moreau et al. 2024, ACL ${cite(P.reflect)}
3. Okafor & Natarajan 2022, JASIST ${cite(P.dense)}
4. Park et al. 2022, NeurIPS Datasets & Benchmarks ${cite(P.sciqa)}
5. Baumann et al. 2023, EMNLP — *Lost in the Long Context? Position Effects in Retrieval-Augmented Reading of Scientific Text* ${cite(P.position)} (it did not match the first query because its abstract never says "question answering")

Dropped: LitAgent (arXiv preprint, not peer-reviewed), the 2019 Bioinformatics paper (before 2021) and the blog post. I will apply this filter to everything from now on.`,
      });
    },
    // 3
    (c) => {
      const P = c.lib.papers;
      const C = c.lib.collections;
      userMessage(c, 'Which collections are these in? I thought I had a RAG survey collection.');
      const counts = { survey: [3, 10], methods: [0, 6], benchmarks: [0, 2], chinese: [0, 1], toRead: [0, 2] };
      const cols = Object.entries(C).map(([id, col]) => webCollection(col, { collections: counts[id][0], items: counts[id][1] }));
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroCollections', { includeSubcollections: true }, cols)]],
        answer: `Yes — **RAG survey** (${C.survey.key}) exists and has three subcollections:

- **Methods** (${C.methods.key}): Lindqvist et al., Moreau et al., Okafor & Natarajan, Baumann et al. (plus two more we have not looked at)
- **Benchmarks & evaluation** (${C.benchmarks.key}): SciQA-Long ${cite(P.sciqa)} and one other item
- **中文文献** (${C.chinese.key}): one item

There is also a top-level **To read** collection (${C.toRead.key}) holding LitAgent and the blog post, which fits with them being excluded now. All five papers from the filtered list are inside RAG survey.`,
      });
    },
    // 4
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Open Lindqvist et al. and tell me how they chunk the full text.');
      const g = P.grounded;
      const record = { ...itemData(g), children: [attachmentData(g)] };
      const page = pdfPage(c, 'grounded', 3, '3.2 Section-aware chunking\n\nWe split each article along its section structure before applying a length limit. A chunk never crosses a section boundary; sections longer than 320 tokens are split at paragraph boundaries into chunks of 240-320 tokens, and the section path (e.g. "4 Experiments > 4.2 Retrieval") is prepended to every chunk. Figure and table captions become chunks of their own. Compared with fixed 512-token windows, this yields 23% more chunks but removes the 17% of windows that mixed text from two sections.', { heading: '3 Method', bytes: 3400 });
      assistantMessage(c, {
        think: 'Get the item with its attachment, then read the method page. The method section is usually around page 4 in TACL papers; the PDF has 18 pages.',
        steps: [
          [toolPart(c, 'zoteroGetItem', { itemKey: g.key, includeChildren: true }, record)],
          [toolPart(c, 'readPdfPage', { attachmentKey: g.attachment.key, pageIndex: 3 }, page)],
        ],
        answer: `Lindqvist et al. ${cite(g)} chunk by document structure first and by length second (section 3.2, p. ${page.pageLabel}):

- A chunk never crosses a section boundary.
- Sections longer than 320 tokens are split at paragraph boundaries into chunks of 240–320 tokens.
- The section path, e.g. "4 Experiments > 4.2 Retrieval", is prepended to every chunk.
- Figure and table captions are chunks of their own.

Compared with fixed 512-token windows this gives 23% more chunks but eliminates the 17% of windows that mixed two sections. The abstract reports the payoff: +6.8 accuracy and +11.2 citation precision over abstract-only retrieval.

The PDF attachment is ${g.attachment.key} (${g.pageCount} pages).`,
      });
    },
    // 5
    (c) => {
      const P = c.lib.papers;
      const g = P.grounded;
      userMessage(c, "keep the page numbers — every claim you take from a PDF needs its page, I'll cite them. The +6.8 and +11.2 figures: where are they in the body?");
      const page = pdfPage(c, 'grounded', 8, 'Table 3: Answer accuracy and citation precision on SciQA-Long (test). Abstract-only retrieval: accuracy 54.1, citation precision 62.0. Fixed 512-token windows: 58.3 / 68.9. Section-aware chunks (ours): 60.9 / 73.2. The difference to abstract-only retrieval is +6.8 accuracy and +11.2 citation precision; both are significant (paired bootstrap, p < 0.01).', { heading: '5 Results', bytes: 2900 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: g.attachment.key, pageIndex: 8 }, page)]],
        answer: `Noted — every claim from a PDF will carry its page from now on.

The figures are in Table 3 on p. ${page.pageLabel} ${cite(g, page.pageLabel)}: on the SciQA-Long test set, abstract-only retrieval reaches 54.1 accuracy / 62.0 citation precision, fixed 512-token windows 58.3 / 68.9, and section-aware chunks 60.9 / 73.2. The +6.8 and +11.2 are the differences to abstract-only retrieval, significant under a paired bootstrap (p < 0.01), p. ${page.pageLabel}.

Corrected summary of the chunking method with pages: no chunk crosses a section boundary (p. 1190), chunks are 240–320 tokens (p. 1190), the section path is prepended (p. 1190), captions are separate chunks (p. 1190).`,
      });
    },
    // 6
    (c) => {
      const g = c.lib.papers.grounded;
      userMessage(c, 'What retriever did they use, and how many passages go into the prompt?');
      const page = pdfPage(c, 'grounded', 5, '4.2 Retrieval. We use a bi-encoder initialised from a scientific-text encoder and fine-tuned on 48k question-passage pairs from the training split, followed by a cross-encoder reranker over the top 50 candidates. The generator receives the top k = 8 reranked chunks; we found no gain beyond k = 8 on the development set (Appendix C), and k = 12 slightly lowered citation precision.', { heading: '4 Experiments', bytes: 3100 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: g.attachment.key, pageIndex: 5 }, page)]],
        answer: `From section 4.2 (p. ${page.pageLabel}) ${cite(g, page.pageLabel)}:

- **Retriever:** a bi-encoder initialised from a scientific-text encoder, fine-tuned on 48k question–passage pairs from the training split (p. ${page.pageLabel}).
- **Reranking:** a cross-encoder over the top 50 candidates (p. ${page.pageLabel}).
- **Prompt:** the top k = 8 reranked chunks. They saw no gain beyond 8 on the development set, and k = 12 slightly lowered citation precision (p. ${page.pageLabel}; details in Appendix C).

That k = 8 plateau is worth noting: Moreau et al. report a similar saturation, which we can check in their Figure 3.`,
      });
    },
    // 7
    (c) => {
      const g = c.lib.papers.grounded;
      userMessage(c, 'Do I have any highlights on that PDF?');
      const notes = [
        { key: c.f.zoteroKey(), type: 'highlight', pageIndex: 3, pageLabel: '1190', color: 'yellow', text: 'A chunk never crosses a section boundary; sections longer than 320 tokens are split at paragraph boundaries', comment: 'core of the method — compare Okafor 2022' },
        { key: c.f.zoteroKey(), type: 'highlight', pageIndex: 8, pageLabel: '1195', color: 'green', text: 'Section-aware chunks (ours): 60.9 / 73.2', comment: '' },
        { key: c.f.zoteroKey(), type: 'underline', pageIndex: 11, pageLabel: '1198', color: 'red', text: 'all questions were written by annotators who had read the full paper', comment: 'limitation! same for SciQA-Long?', tags: ['limitation'] },
        { key: c.f.zoteroKey(), type: 'note', pageIndex: 5, pageLabel: '1192', color: 'blue', comment: 'k=8 plateau — cite in the section on context length' },
        { key: c.f.zoteroKey(), type: 'ink', pageIndex: 8, pageLabel: '1195', color: 'magenta' },
      ];
      g.annotations = notes;
      const out = notes.map((n) => webChild(annotationData(g, n, c.f), g.attachment.key));
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroAnnotations', { attachmentKey: g.attachment.key }, out)]],
        answer: `Yes, five annotations on ${g.attachment.key}:

1. **Highlight, p. 1190** (${notes[0].key}): "A chunk never crosses a section boundary; sections longer than 320 tokens are split at paragraph boundaries" — your comment: *core of the method — compare Okafor 2022*.
2. **Highlight, p. 1195** (${notes[1].key}): "Section-aware chunks (ours): 60.9 / 73.2" (Table 3).
3. **Underline, p. 1198** (${notes[2].key}): "all questions were written by annotators who had read the full paper" — your comment: *limitation! same for SciQA-Long?*, tagged *limitation*.
4. **Note, p. 1192** (${notes[3].key}): *k=8 plateau — cite in the section on context length*.
5. **Ink drawing, p. 1195** (${notes[4].key}) next to Table 3 (no text).

Your note on p. 1192 matches what we just read about k = 8.`,
      });
    },
    // 8
    (c) => {
      const r = c.lib.papers.reflect;
      userMessage(c, "Now the Reflect Before You Cite paper: what's the main idea, in two sentences?");
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroGetItem', { itemKey: r.key }, webItem(r))]],
        answer: `Moreau et al. ${cite(r)} train the generator to emit critique tokens that decide when to retrieve, whether a retrieved passage is relevant, and whether each sentence it wrote is supported by its citation. This raises citation precision from 61.4 to 78.9 on three scientific writing tasks while citation recall stays within two points (abstract; I will give body pages once we open the PDF).`,
      });
    },
    // 9
    (c) => {
      const r = c.lib.papers.reflect;
      userMessage(c, [
        { type: 'file', mediaType: 'image/png', filename: 'Screenshot 2025-03-10 at 10.41.07.png', url: `data:image/png;base64,${SCREENSHOT_PNG_BASE64}` },
        text('This is Figure 3 from the Reflect paper, pasted from the PDF. What is the curve showing, and does it flatten before k=10?'),
      ]);
      const page = pdfPage(c, 'reflect', 6, 'Figure 3: Answer accuracy (y-axis, %) as a function of the number of retrieved passages k (x-axis, 1-20) on the development set of SciWrite-QA. Accuracy rises steeply up to k = 4 and saturates after k ≈ 8; the gain from k = 8 to k = 20 is 0.9 points.', { heading: '5.2 How much evidence is enough?', bytes: 2400 });
      assistantMessage(c, {
        think: 'The screenshot shows a saturating curve with ten ticks on the x-axis. Read the page with Figure 3 to get the caption and the exact numbers rather than guessing axis labels from pixels.',
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: r.attachment.key, pageIndex: 6 }, page)]],
        answer: `The screenshot shows a curve that rises steeply and then levels off. The caption on p. ${page.pageLabel} ${cite(r, page.pageLabel)} says what the axes are: **answer accuracy (%) on the y-axis against the number of retrieved passages k (1–20) on the x-axis**, on the SciWrite-QA development set.

And yes, it flattens before k = 10: accuracy "saturates after k ≈ 8", and going from k = 8 to k = 20 gains only 0.9 points (p. ${page.pageLabel}). That matches Lindqvist et al.'s choice of k = 8 (p. 1192), so both papers support the same claim independently.`,
        usage: false,
      });
    },
    // 10
    (c) => {
      const w = c.lib.papers.wang;
      userMessage(c, 'Search my library for the Chinese paper about 科技文献问答 — I saved it last month.');
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroSearch', { q: '科技文献 问答 检索增强', qmode: 'titleCreatorYear' }, [itemData(w)])]],
        answer: `Found it: 王晓明、李静、陈志远 (2023), 《面向科技文献问答的检索增强生成方法研究》 (*Retrieval-augmented generation for question answering over scientific literature*), 中文信息学报 37(6): 51–62 ${cite(w)}. It is in your 中文文献 subcollection and is peer-reviewed and from 2023, so it passes your filter.

From the abstract: they use **paragraphs** as the retrieval unit, build a dense index enriched with section titles and reference information, and require the model to mark an evidence paragraph for every conclusion. On their own Chinese dataset CSTQA (1,860 questions) and a translated SciQA-Long subset, answer accuracy improves by 7.4 and 5.9 points over abstract-only retrieval, and citation precision by 9.6 points.`,
      });
    },
    // 11
    (c) => {
      const w = c.lib.papers.wang;
      userMessage(c, '这篇论文的实验用了哪些数据集？请注明页码。');
      const page = pdfPage(c, 'wang', 5, '4.1 数据集\n\n实验使用两个数据集：（1）CSTQA：本文构建的中文科技文献问答数据集，包含 1 860 个问题，来自计算机、材料和医学三个领域的 412 篇论文，问题由具有相关学科背景的研究生在阅读全文后编写，每个问题标注 1-3 个证据段落；（2）SciQA-Long-zh：从 SciQA-Long 测试集中随机抽取 600 个问题，经机器翻译和人工校对译为中文。训练集、验证集、测试集按 7:1:2 划分。', { heading: '4 实验', bytes: 2600 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: w.attachment.key, pageIndex: 5 }, page)]],
        answer: `根据第 ${page.pageLabel} 页 4.1 节 ${cite(w, page.pageLabel)}，实验使用了两个数据集：

1. **CSTQA**：作者自建的中文科技文献问答数据集，共 1 860 个问题，来自计算机、材料、医学三个领域的 412 篇论文；问题由有学科背景的研究生在阅读全文后编写，每题标注 1–3 个证据段落（第 ${page.pageLabel} 页）。
2. **SciQA-Long-zh**：从 SciQA-Long 测试集中随机抽取 600 个问题，机器翻译后人工校对（第 ${page.pageLabel} 页）。

数据划分为训练/验证/测试 7:1:2（第 ${page.pageLabel} 页）。注意：和 Lindqvist 等人一样，问题是在阅读全文之后编写的，存在同样的局限。`,
      });
    },
    // 12
    (c) => {
      const w = c.lib.papers.wang;
      userMessage(c, 'Does it compare against the English baselines we looked at?');
      const page = pdfPage(c, 'wang', 6, '表 3　不同方法在 CSTQA 与 SciQA-Long-zh 上的结果（准确率 / 引用精确率，%）\n\n仅检索摘要　　　　　　　48.2 / 55.7　　　51.3 / 58.0\n固定窗口（512 词元）　　52.9 / 61.4　　　54.8 / 63.1\n章节感知分块 [Lindqvist 2023]　54.6 / 63.9　　　56.7 / 65.2\n本文方法　　　　　　　　55.6 / 65.3　　　57.2 / 66.1\n\n本文方法在两个数据集上均优于章节感知分块基线，但在 SciQA-Long-zh 上差距较小（0.5 个百分点），我们认为这与翻译引入的术语不一致有关。', { heading: '4.3 主要结果', bytes: 2200 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: w.attachment.key, pageIndex: 6 }, page)]],
        answer: `Yes. Table 3 on p. ${page.pageLabel} ${cite(w, page.pageLabel)} includes Lindqvist et al.'s section-aware chunking ("章节感知分块 [Lindqvist 2023]") as a baseline, re-implemented on Chinese text. Accuracy / citation precision:

| Method | CSTQA | SciQA-Long-zh |
|---|---|---|
| Abstract-only (仅检索摘要) | 48.2 / 55.7 | 51.3 / 58.0 |
| Fixed 512-token windows | 52.9 / 61.4 | 54.8 / 63.1 |
| Section-aware (Lindqvist) | 54.6 / 63.9 | 56.7 / 65.2 |
| Wang et al. | 55.6 / 65.3 | 57.2 / 66.1 |

All from p. ${page.pageLabel}. Their method beats the section-aware baseline on both, but only by 0.5 accuracy on the translated set, which they attribute to terminology inconsistencies introduced by translation ("翻译引入的术语不一致", p. ${page.pageLabel}). They do not compare with Moreau et al.`,
      });
    },
    // 13: approval flow, denied
    (c) => {
      const P = c.lib.papers;
      userMessage(c, "Tag both Lindqvist and the Chinese paper with 'rag-survey'.");
      const part = {
        type: 'tool-zoteroAddTag',
        toolCallId: c.f.toolCallId(),
        state: 'output-denied',
        input: { itemKeys: [P.grounded.key, P.wang.key], tag: 'rag-survey', type: 0 },
        approval: { id: `aprv_${c.f.rand.chars(ID_ALPHABET, 20)}`, approved: false, reason: 'Wait — check which tags they already have first.' },
      };
      assistantMessage(c, {
        steps: [[part]],
        answer: "I did not add the tag: you declined the change (\"check which tags they already have first\"). Nothing in your library was modified. I can list the existing tags on both items so you can decide.",
      });
    },
    // 14
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Right — show me which tags these two already have.');
      const tag = (name, type, numItems) => ({
        tag: name,
        links: {
          self: { href: `${API}/tags/${encodeURIComponent(name).replace(/%20/g, '+')}`, type: 'application/json' },
          alternate: { href: `${WEB}/tags/${encodeURIComponent(name).replace(/%20/g, '+')}`, type: 'text/html' },
        },
        meta: { type, numItems },
      });
      const out = [tag('RAG', 0, 6), tag('scientific QA', 0, 4), tag('full text', 0, 1), tag('Question answering', 1, 3), tag('Information retrieval', 1, 5), tag('检索增强生成', 0, 1), tag('科技文献', 0, 1), tag('问答系统', 0, 1)];
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroTags', { itemKeys: [P.grounded.key, P.wang.key] }, out)]],
        answer: `Tags on the two items:

- **Manual tags:** RAG (on 6 items in your library, including both), scientific QA (4), full text (1, Lindqvist only), 检索增强生成, 科技文献, 问答系统 (each 1, Wang et al. only)
- **Automatic tags** (type 1, imported from the publisher): Question answering (3), Information retrieval (5)

So **RAG** already covers both papers and 4 others; a new *rag-survey* tag would largely duplicate it — the *RAG survey* collection does the same job. I have not changed anything.`,
      });
    },
    // 15: tool error, then recovery
    (c) => {
      const s = c.lib.papers.sciqa;
      userMessage(c, 'OK, leave the tags alone. Get the full record of the benchmark paper, SciQA-Long.');
      const wrongKey = c.f.zoteroKey();
      const failed = {
        type: 'tool-zoteroGetItem',
        toolCallId: c.f.toolCallId(),
        state: 'output-error',
        input: { itemKey: wrongKey },
        errorText: `Zotero API error 404: item ${wrongKey} not found in library users/4815162`,
      };
      assistantMessage(c, {
        think: 'I guessed a key from memory and it does not exist. Search by title instead of retrying the same key.',
        steps: [[failed], [toolPart(c, 'zoteroSearch', { q: 'SciQA-Long', qmode: 'titleCreatorYear' }, [webItem(s)])]],
        answer: `My first lookup used a wrong key (${wrongKey}) and Zotero returned 404, so I searched by title instead. The record:

- **Title:** SciQA-Long: A Benchmark of Long-Form Questions over Full Scientific Papers ${cite(s)}
- **Authors:** Hye-jin Park, Marcus Feld, Ines Carvalho
- **Venue:** Advances in Neural Information Processing Systems 35 (Datasets and Benchmarks Track), NeurIPS 2022, New Orleans, pp. 21904–21917
- **DOI:** ${s.doi}
- **Tags:** benchmark, scientific QA, long-form QA; collection *Benchmarks & evaluation*
- **Abstract (short):** 2,140 questions written by domain experts who read the full paper, long-form reference answers with evidence paragraphs; NLP, materials science, epidemiology; 38% need evidence from more than one section.`,
      });
    },
    // 16
    (c) => {
      const s = c.lib.papers.sciqa;
      userMessage(c, 'How were the questions written, exactly? Same annotator problem as Lindqvist?');
      const page = pdfPage(c, 'sciqa', 2, '3.1 Question collection. We recruited 57 annotators with a PhD or an ongoing PhD in the field of the paper. Each annotator read one full paper (median 11 pages) and wrote three to five questions whose answers require the full text, then marked the evidence paragraphs. To reduce lexical overlap, a second annotator who had read only the abstract rephrased 40% of the questions. 2,140 questions over 612 papers remained after validation.', { heading: '3 Dataset construction', bytes: 3000 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: s.attachment.key, pageIndex: 2 }, page)]],
        answer: `Section 3.1, p. ${page.pageLabel} ${cite(s, page.pageLabel)}:

- 57 annotators with a (current) PhD in the paper's field each read one full paper (median 11 pages) and wrote 3–5 questions that need the full text, marking the evidence paragraphs (p. ${page.pageLabel}).
- **Mitigation:** a second annotator who had read only the abstract rephrased 40% of the questions to reduce lexical overlap (p. ${page.pageLabel}).
- 2,140 questions over 612 papers survived validation (p. ${page.pageLabel}).

So it is the same design — questions written after reading — but with a partial mitigation that Lindqvist et al. do not describe. Your underline on Lindqvist p. 1198 asked exactly this; the answer is "yes, but 40% were rephrased".`,
      });
    },
    // 17: EPUB
    (c) => {
      const b = c.lib.papers.guide;
      userMessage(c, "I also have the Practitioner's Guide as an EPUB. Find the chapter on evaluation.");
      const record = { ...itemData(b), children: [attachmentData(b)] };
      const section = {
        attachmentKey: b.attachment.key,
        sectionIndex: 7,
        sectionCount: 15,
        href: 'OEBPS/Text/chapter07.xhtml',
        cfi: 'epubcfi(/6/16!/4/2/1:0)',
        title: '7 Evaluating Retrieval-Augmented Systems',
        text: pageText(c.f.rand, {
          header: '7 Evaluating Retrieval-Augmented Systems',
          heading: '7.1 Three things to measure',
          lead: 'A retrieval-augmented system can fail in three places, and each needs its own metric. Retrieval: did the evidence reach the prompt? Measure recall@k against annotated evidence. Grounding: is each generated sentence supported by what was retrieved? Measure citation precision and recall with an entailment judge, and spot-check the judge by hand. Answer quality: is the answer right and complete? Use exact match only where answers are short; otherwise use reference-based judging with a rubric. Report all three, because a gain in one often hides a loss in another.',
          footer: '',
          bytes: 3800,
        }),
      };
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroGetItem', { itemKey: b.key, includeChildren: true }, record)], [toolPart(c, 'readEpubSection', { attachmentKey: b.attachment.key, sectionIndex: 7 }, section)]],
        answer: `Oduya & de Vries (2024) ${cite(b)} — the EPUB is ${b.attachment.key}. Chapter 7, "Evaluating Retrieval-Augmented Systems", is section 7 of 15 (${section.href}, location ${section.cfi}).

Its core argument (7.1): a RAG system fails in three places, each needing its own metric —
1. **Retrieval:** did the evidence reach the prompt? → recall@k against annotated evidence.
2. **Grounding:** is each sentence supported by what was retrieved? → citation precision and recall with an entailment judge, spot-checked by hand.
3. **Answer quality:** is the answer right and complete? → exact match only for short answers, otherwise reference-based judging with a rubric.

They insist on reporting all three "because a gain in one often hides a loss in another". EPUBs have no fixed pages, so I will cite this as chapter 7, section 7.1, with the CFI.`,
      });
    },
    // 18
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Compare the evaluation metrics in that chapter with what SciQA-Long and Lindqvist actually report.');
      assistantMessage(c, {
        think: 'No new tool call needed: compare what is already on the table. Guide ch. 7: retrieval recall@k, grounding (citation P/R), answer quality. Lindqvist: accuracy + citation precision (Table 3, p. 1195). SciQA-Long: need to be careful; I have only seen its construction page, not its metrics page.',
        answer: `Against the guide's three-part scheme (ch. 7.1, ${P.guide.attachment.key}):

| | Retrieval (recall@k) | Grounding (citation P / R) | Answer quality |
|---|---|---|---|
| Lindqvist et al. ${cite(P.grounded)} | not in Table 3 | precision only, p. 1195 | accuracy, p. 1195 |
| Wang et al. ${cite(P.wang)} | not reported | precision only, p. 57 | accuracy, p. 57 |
| Moreau et al. ${cite(P.reflect)} | — | precision and recall (abstract) | accuracy, p. 4416 |
| SciQA-Long ${cite(P.sciqa)} | not yet checked | not yet checked | not yet checked |

Two observations for your section:
- **Nobody in the set reports citation recall except Moreau et al.**, so the "grounding" column is half-empty; this is a gap worth stating.
- I have only read SciQA-Long's construction page (p. 21906), not its evaluation section, so that row is open — I marked it rather than guessing.`,
      });
    },
    // 19
    (c) => {
      const g = c.lib.papers.grounded;
      userMessage(c, 'Read the limitations section of Lindqvist et al.');
      const page = pdfPage(c, 'grounded', 11, '7 Limitations\n\nFirst, all questions were written by annotators who had read the full paper, which favours questions whose answers are stated explicitly in one place. Second, our entailment-based citation scorer was validated on English only. Third, we index open-access papers; paywalled venues, where much of materials science is published, are under-represented. Finally, the evaluation does not measure whether users notice unsupported sentences.', { bytes: 2700 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: g.attachment.key, pageIndex: 11 }, page)]],
        answer: `Section 7, p. ${page.pageLabel} ${cite(g, page.pageLabel)} lists four limitations:

1. Questions were written by annotators who had read the full paper, favouring answers stated explicitly in one place (p. ${page.pageLabel}) — your underline.
2. The entailment-based citation scorer was validated on English only (p. ${page.pageLabel}). Relevant for Wang et al., who report citation precision on Chinese.
3. Only open-access papers are indexed; paywalled venues (much of materials science) are under-represented (p. ${page.pageLabel}).
4. No measurement of whether users notice unsupported sentences (p. ${page.pageLabel}).`,
        usage: false,
      });
    },
    // 20
    (c) => {
      const p = c.lib.papers.position;
      userMessage(c, 'Now the long-context paper: does position in the prompt matter for scientific text?');
      const page = pdfPage(c, 'position', 4, '4 Results. With twenty retrieved passages, accuracy is highest when the gold passage is first (71.3) or last (68.0) and lowest when it is in positions 9-12 (57.1), a drop of 14.2 points. With eight passages the drop shrinks to 5.6 points. Ordering passages by descending reranker score, so that the most relevant passage comes first, recovers 11.0 of the 14.2 points.', { heading: '4 Results', bytes: 2800 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroGetItem', { itemKey: p.key }, itemData(p))], [toolPart(c, 'readPdfPage', { attachmentKey: p.attachment.key, pageIndex: 4 }, page)]],
        answer: `Yes, substantially. Baumann et al. ${cite(p, page.pageLabel)}:

- With 20 passages, accuracy is 71.3 when the gold passage comes first, 68.0 when last, and 57.1 in positions 9–12 — a 14.2-point drop (p. ${page.pageLabel}).
- With 8 passages the drop shrinks to 5.6 points (p. ${page.pageLabel}).
- Ordering by descending reranker score recovers 11.0 of the 14.2 points (p. ${page.pageLabel}).

This is a third, independent argument for k ≈ 8 alongside Lindqvist (p. 1192) and Moreau (p. 4416): more passages not only add little, they can hurt.`,
      });
    },
    // 21
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Put everything so far into a comparison table. Just the table, markdown.');
      assistantMessage(c, {
        answer: `| Paper | Key | Retrieval unit | Retriever / k | Evaluation | Main result |
|---|---|---|---|---|---|
| Lindqvist et al. 2023 | ${P.grounded.key} | section-aware chunks, 240–320 tokens (p. 1190) | bi-encoder + cross-encoder, k = 8 (p. 1192) | accuracy, citation precision (p. 1195) | +6.8 acc / +11.2 cit. prec. vs abstracts (p. 1195) |
| Moreau et al. 2024 | ${P.reflect.key} | passages | critique tokens decide retrieval; saturates at k ≈ 8 (p. 4416) | accuracy, citation P/R | cit. prec. 61.4 → 78.9 (abstract) |
| Okafor & Natarajan 2022 | ${P.dense.key} | chunks + section path + cited titles | dense | retrieval benchmarks | (not yet read) |
| Wang et al. 2023 | ${P.wang.key} | paragraphs (p. 55) | dense, section + reference enriched | accuracy, citation precision (p. 57) | 55.6 / 65.3 on CSTQA (p. 57) |
| Baumann et al. 2023 | ${P.position.key} | passages | 8 vs 20 passages | accuracy by gold position | −14.2 mid-context at k = 20 (p. 8125) |
| Brandt & Watanabe 2024 | ${P.litagent.key} | abstracts (screening) | tool-using agent | recall of included studies | 83% (abstract) |
| SciQA-Long 2022 | ${P.sciqa.key} | — (benchmark) | — | expert questions, evidence paragraphs (p. 21906) | 2,140 questions, 612 papers |`,
      });
    },
    // 22
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Drop LitAgent from the table — it is a preprint, I said peer-reviewed only.');
      assistantMessage(c, {
        answer: `You're right, that row should not have been there — LitAgent ${cite(P.litagent)} is an arXiv preprint. Removed. The table now has six rows: Lindqvist 2023, Moreau 2024, Okafor & Natarajan 2022, Wang 2023, Baumann 2023 and SciQA-Long 2022, all peer-reviewed and after 2020. I'll check the item type before adding anything else.`,
      });
    },
    // 23
    (c) => {
      const p = c.lib.papers.faithful;
      userMessage(c, 'Find the citation-faithfulness paper — I think by Nakamura?');
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroSearch', { q: 'Nakamura citation faithfulness', qmode: 'titleCreatorYear' }, [webItem(p)])]],
        answer: `Nakamura & Rossi (2021), *Measuring Citation Faithfulness in Machine-Generated Literature Summaries*, Scientometrics 126(11): 209–231 ${cite(p)}. Peer-reviewed, 2021, so it qualifies. From the abstract: they define faithfulness on sentence–citation pairs, annotate 3,900 pairs from four systems, and find that about a third of citations point to a source that does not support the sentence.`,
      });
    },
    // 24
    (c) => {
      const p = c.lib.papers.faithful;
      userMessage(c, 'What is their definition of a faithful citation? Exact words, with the page.');
      const page = pdfPage(c, 'faithful', 3, 'Definition 1 (faithful citation). A citation c attached to a sentence s is faithful if the cited source, read in full, entails every factual statement in s that is not common knowledge and that s does not attribute to another source. A sentence is fully supported if each of its citations is faithful and together they cover all its factual statements.', { heading: '3 Defining citation faithfulness', bytes: 3300 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: p.attachment.key, pageIndex: 3 }, page)]],
        answer: `Definition 1 on p. ${page.pageLabel} ${cite(p, page.pageLabel)}, verbatim:

> "A citation c attached to a sentence s is faithful if the cited source, read in full, entails every factual statement in s that is not common knowledge and that s does not attribute to another source."

And immediately after: "A sentence is fully supported if each of its citations is faithful and together they cover all its factual statements" (p. ${page.pageLabel}). Note "read in full": the source, not a retrieved passage, is the unit — stricter than Lindqvist's passage-level entailment (p. 1195).`,
      });
    },
    // 25
    (c) => {
      const p = c.lib.papers.faithful;
      userMessage(c, 'Do I have notes on it?');
      const notes = [
        { key: c.f.zoteroKey(), type: 'highlight', pageIndex: 3, pageLabel: '212', color: 'yellow', text: 'entails every factual statement in s that is not common knowledge', comment: 'use this definition in the survey' },
        { key: c.f.zoteroKey(), type: 'highlight', pageIndex: 9, pageLabel: '218', color: 'red', text: '34.1% of citations point to a source that does not support the sentence', comment: '' },
        { key: c.f.zoteroKey(), type: 'note', pageIndex: 14, pageLabel: '223', color: 'purple', comment: 'Their judge model is not public — can we reproduce?' },
      ];
      p.annotations = notes;
      const out = notes.map((n) => annotationData(p, n, c.f));
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroAnnotations', { attachmentKey: p.attachment.key }, out)]],
        answer: `Three annotations on ${p.attachment.key}:

1. **Highlight, p. 212** (${notes[0].key}) on the definition — your comment: *use this definition in the survey*.
2. **Highlight, p. 218** (${notes[1].key}): "34.1% of citations point to a source that does not support the sentence" — the precise figure behind "a third" in the abstract.
3. **Note, p. 223** (${notes[2].key}): *Their judge model is not public — can we reproduce?*`,
      });
    },
    // 26
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Which of my papers evaluate on full-text questions rather than abstracts?');
      assistantMessage(c, {
        think: 'From what has been read: Lindqvist (SciQA-Long, full text), Wang (CSTQA written after reading full papers; SciQA-Long-zh), SciQA-Long itself, Moreau (SciWrite-QA — unknown whether full text), Baumann (unknown dataset). Say what is known and what is not.',
        answer: `From what we have read:

- **Full text, confirmed:** Lindqvist et al. ${cite(P.grounded)} (SciQA-Long test, p. 1195); Wang et al. ${cite(P.wang)} (CSTQA and SciQA-Long-zh, both written from full papers, p. 56); SciQA-Long itself ${cite(P.sciqa)} (p. 21906).
- **Unclear:** Moreau et al. ${cite(P.reflect)} use SciWrite-QA (p. 4416) — I have not seen how it was built. Baumann et al. ${cite(P.position)} — the dataset section is not on the page we read (p. 8125).
- **Abstract level:** Nakamura & Rossi ${cite(P.faithful)} evaluate summaries against full sources, but their inputs are abstracts plus sources, not questions.

I'd need one more page each from Moreau and Baumann to settle the two unclear ones.`,
      });
    },
    // 27
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Search for anything on tables and figures as evidence.');
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroSearch', { q: 'tables figures evidence multimodal', qmode: 'everything', itemType: 'journalArticle || conferencePaper', dateFrom: '2021-01-01' }, [webItem(P.tables)])]],
        answer: `One match that passes your filter: Lindgren & Ruiz (2024), *Tables and Figures as Evidence: Multimodal Retrieval for Scientific Question Answering*, Information Processing & Management 61(2): 103622 ${cite(P.tables)}. They index table cells and figure captions next to text passages; multimodal evidence raises accuracy on numeric questions by 12.3 points (abstract). Lindqvist et al. also index captions as chunks (p. 1190), so this extends the same idea to cell level.`,
      });
    },
    // 28
    (c) => {
      const t = c.lib.papers.tables;
      userMessage(c, 'Read its results page.');
      const page = pdfPage(c, 'tables', 8, '6 Results. On the 1,204 numeric questions of our test set, text-only retrieval answers 41.7% correctly; adding figure captions raises this to 46.2% and adding table cells to 54.0% (+12.3). On non-numeric questions the difference is within 0.6 points. Most remaining errors on numeric questions are unit conversions (38%) and values read from the wrong row (29%).', { heading: '6 Results', bytes: 3000 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: t.attachment.key, pageIndex: 8 }, page)]],
        answer: `Section 6, p. ${page.pageLabel} ${cite(t, page.pageLabel)}: on 1,204 numeric questions, text-only retrieval gets 41.7%, + figure captions 46.2%, + table cells 54.0% (the +12.3 of the abstract) (p. ${page.pageLabel}). On non-numeric questions the difference stays within 0.6 points (p. ${page.pageLabel}). Remaining numeric errors: unit conversions 38%, wrong row 29% (p. ${page.pageLabel}) — consistent with the 26% "misread tables or units" category Lindqvist report in their error analysis.`,
      });
    },
    // 29
    (c) => {
      const C = c.lib.collections;
      const t = c.lib.papers.tables;
      userMessage(c, 'Show me the collection tree again and where the new paper sits.');
      const cols = [C.methods, C.benchmarks, C.chinese].map((col, i) => webCollection(col, { collections: 0, items: [7, 2, 1][i] }));
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroCollections', { parentCollection: C.survey.key }, cols)]],
        answer: `RAG survey (${C.survey.key})
├── Methods (${C.methods.key}) — 7 items, including Lindgren & Ruiz ${cite(t)}
├── Benchmarks & evaluation (${C.benchmarks.key}) — 2 items: SciQA-Long, Nakamura & Rossi
└── 中文文献 (${C.chinese.key}) — 1 item: 王 et al.

To read (${C.toRead.key}) — LitAgent, the blog post`,
      });
    },
    // 30
    (c) => {
      const w = c.lib.papers.wang;
      userMessage(c, "Summarize the Chinese paper's method in English for my notes, with page labels.");
      const page = pdfPage(c, 'wang', 3, '3.2 检索单元与索引构建\n\n与固定长度窗口不同，本文以自然段落为检索单元：过长段落（超过 350 字）按句子边界切分，过短段落（少于 60 字）与下一段合并。每个段落前拼接其章节路径（如“4 实验 > 4.2 基线方法”），并附加该段落所引用文献的标题，以缓解段落中“如文献[12]所述”等指代造成的信息缺失。索引采用双塔稠密检索模型，编码器在 CSTQA 训练集上微调。', { heading: '3 方法', bytes: 2500 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: w.attachment.key, pageIndex: 3 }, page)]],
        answer: `Method of 王 et al. ${cite(w, page.pageLabel)}, section 3.2, p. ${page.pageLabel}:

- **Retrieval unit:** the natural paragraph, not a fixed window. Paragraphs over 350 characters are split at sentence boundaries; paragraphs under 60 characters are merged with the next one (p. ${page.pageLabel}).
- **Enrichment:** each paragraph is prefixed with its section path (e.g. "4 实验 > 4.2 基线方法") and followed by the titles of the works it cites, to recover meaning lost in references like "如文献[12]所述" ("as described in [12]") (p. ${page.pageLabel}).
- **Index:** a two-tower dense retriever fine-tuned on the CSTQA training split (p. ${page.pageLabel}).
- **Generation:** the model must mark an evidence paragraph for every conclusion (abstract, p. 51).

It is essentially Lindqvist's section-aware chunking plus Okafor & Natarajan's cited-title enrichment, applied to Chinese.`,
      });
    },
    // 31
    (c) => {
      const w = c.lib.papers.wang;
      userMessage(c, '他们的检索单元为什么选段落而不是句子？文中有解释吗？');
      assistantMessage(c, {
        answer: `就我们已读的第 54 页（3.2 节）${cite(w, '54')} 而言，作者只说明了“以自然段落为检索单元”以及过长、过短段落的处理规则，并没有直接比较段落与句子粒度，也没有给出选择段落的理由。第 54 页提到附加引用文献标题是为了缓解“如文献[12]所述”这类指代造成的信息缺失——这间接说明句子粒度会丢失更多上下文，但这是我的推断，不是原文的结论。

如果需要确认，可以读一下消融实验部分（通常在第 59–60 页），看是否有不同检索粒度的对比。`,
      });
    },
    // 32
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Draft a paragraph on chunking strategies across Lindqvist, Okafor & Natarajan, and Wang et al., citing pages.');
      assistantMessage(c, {
        answer: `**Chunking full text for retrieval.** How a paper is cut into retrievable units turns out to matter as much as the retriever itself. Lindqvist et al. ${cite(P.grounded)} never let a chunk cross a section boundary and cap chunks at 240–320 tokens, prepending the section path to each (p. 1190); against fixed 512-token windows this removes the 17% of windows that mixed two sections (p. 1190) and, relative to abstract-only retrieval, adds 6.8 points of accuracy and 11.2 of citation precision (p. 1195). Okafor and Natarajan ${cite(P.dense)} arrive at a similar design from the retrieval side, showing that the section path and the titles of cited works recover most of the loss dense retrievers suffer on full text (abstract). Wang et al. ${cite(P.wang)} combine both ideas for Chinese scientific text, using natural paragraphs with length rules, section paths and cited titles (p. 54), and report that this beats a re-implementation of Lindqvist et al.'s section-aware chunking on two datasets (p. 57), though by only 0.5 points on translated questions (p. 57). Taken together, these results suggest that respecting document structure is the single most reliable chunking choice, while the best unit size likely depends on language and on how much of a paragraph depends on its citations.`,
      });
    },
    // 33
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Too long. 120 words max, keep the page numbers.');
      assistantMessage(c, {
        answer: `**Chunking full text.** Lindqvist et al. ${cite(P.grounded)} keep chunks inside section boundaries (240–320 tokens, section path prepended, p. 1190), gaining 6.8 accuracy and 11.2 citation-precision points over abstract-only retrieval (p. 1195). Okafor and Natarajan ${cite(P.dense)} show that section paths and cited-work titles recover most of dense retrievers' loss on full text. Wang et al. ${cite(P.wang)} apply both ideas to Chinese paragraphs (p. 54) and slightly outperform section-aware chunking (p. 57). Respecting document structure is the most reliable choice; the best unit size may depend on language.

(98 words.)`,
      });
    },
    // 34
    (c) => {
      const d = c.lib.papers.dense;
      userMessage(c, 'Check page 7 of the dense retrieval paper for the ablation numbers, I want them exact.');
      const page = pdfPage(c, 'dense', 6, 'Table 4: Ablation on the four benchmarks (nDCG@10, mean). Full model: 0.612. Without section path: 0.571 (-0.041). Without cited-work titles: 0.589 (-0.023). Without both: 0.538 (-0.074). Fixed 512-token windows instead of section-bounded chunks: 0.553 (-0.059). The section path contributes most on methods-section queries (-0.067), the cited titles on related-work queries (-0.049).', { heading: '5.3 Ablations', bytes: 3200 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: d.attachment.key, pageIndex: 6 }, page)]],
        answer: `Table 4 on p. ${page.pageLabel} ${cite(d, page.pageLabel)} (nDCG@10, mean over four benchmarks):

| Configuration | nDCG@10 | Δ |
|---|---|---|
| Full model | 0.612 | — |
| − section path | 0.571 | −0.041 |
| − cited-work titles | 0.589 | −0.023 |
| − both | 0.538 | −0.074 |
| fixed 512-token windows | 0.553 | −0.059 |

The section path matters most for methods-section queries (−0.067), cited titles for related-work queries (−0.049) (p. ${page.pageLabel}). Note: PDF page index 6 carries the printed label ${page.pageLabel}, which is what you should cite.`,
      });
    },
    // 35
    (c) => {
      const r = c.lib.papers.reflect;
      userMessage(c, 'What did the Reflect paper find about citation precision vs recall?');
      const page = pdfPage(c, 'reflect', 7, 'Table 2: Citation precision / recall on the three tasks. Retrieve-then-generate baseline: 61.4 / 70.2. + relevance critique: 70.8 / 69.5. + support critique: 76.1 / 68.9. Full model (retrieval, relevance and support tokens): 78.9 / 68.4. Precision rises by 17.5 points while recall falls by 1.8; most of the precision gain comes from the support critique, which removes citations rather than adding new ones.', { heading: '5.3 Citation quality', bytes: 2900 });
      assistantMessage(c, {
        steps: [[toolPart(c, 'readPdfPage', { attachmentKey: r.attachment.key, pageIndex: 7 }, page)]],
        answer: `Table 2, p. ${page.pageLabel} ${cite(r, page.pageLabel)} — citation precision / recall averaged over the three tasks:

- Retrieve-then-generate baseline: 61.4 / 70.2
- + relevance critique: 70.8 / 69.5
- + support critique: 76.1 / 68.9
- Full model: 78.9 / 68.4

Precision +17.5, recall −1.8 (p. ${page.pageLabel}). The important nuance for your survey: "most of the precision gain comes from the support critique, which removes citations rather than adding new ones" (p. ${page.pageLabel}) — i.e. the model gets more precise partly by citing less.`,
      });
    },
    // 36
    (c) => {
      const r = c.lib.papers.reflect;
      userMessage(c, 'Is there an annotation of mine on that page?');
      const notes = [
        { key: c.f.zoteroKey(), type: 'highlight', pageIndex: 7, pageLabel: '4417', color: 'yellow', text: 'removes citations rather than adding new ones', comment: 'precision by omission?' },
        { key: c.f.zoteroKey(), type: 'highlight', pageIndex: 2, pageLabel: '4412', color: 'green', text: 'critique tokens are predicted by the generator itself', comment: '' },
      ];
      r.annotations = notes;
      const out = notes.map((n) => webChild(annotationData(r, n, c.f), r.attachment.key));
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroAnnotations', { attachmentKey: r.attachment.key, pageLabel: '4417' }, out)]],
        answer: `Yes — on p. 4417 you highlighted "removes citations rather than adding new ones" (${notes[0].key}) with the comment *precision by omission?*. There is one more annotation on the PDF, a highlight on p. 4412 (${notes[1].key}): "critique tokens are predicted by the generator itself".`,
      });
    },
    // 37
    (c) => {
      const P = c.lib.papers;
      const C = c.lib.collections;
      userMessage(c, "List everything in the 'RAG survey' collection with item types.");
      const inSurvey = ['grounded', 'reflect', 'dense', 'biomed2019', 'sciqa', 'wang', 'faithful', 'position', 'tables', 'guide'].map((id) => webItem(P[id]));
      assistantMessage(c, {
        steps: [[toolPart(c, 'zoteroSearch', { collection: C.survey.key, recursive: true, limit: 50 }, inSurvey)]],
        answer: `RAG survey (${C.survey.key}), including subcollections — 10 items:

| Key | Type | Item |
|---|---|---|
| ${P.grounded.key} | journalArticle | Lindqvist et al. 2023 |
| ${P.reflect.key} | conferencePaper | Moreau et al. 2024 |
| ${P.dense.key} | journalArticle | Okafor & Natarajan 2022 |
| ${P.biomed2019.key} | journalArticle | Whitfield & Haddad 2019 (excluded: before 2021) |
| ${P.sciqa.key} | conferencePaper | Park et al. 2022 |
| ${P.wang.key} | journalArticle | 王 et al. 2023 |
| ${P.faithful.key} | journalArticle | Nakamura & Rossi 2021 |
| ${P.position.key} | conferencePaper | Baumann et al. 2023 |
| ${P.tables.key} | journalArticle | Lindgren & Ruiz 2024 |
| ${P.guide.key} | book | Oduya & de Vries 2024 (book — not a research paper) |`,
      });
    },
    // 38
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Which of these lack a DOI?');
      assistantMessage(c, {
        answer: `In the records returned: Baumann et al. ${cite(P.position)} has an empty DOI field, but its *Extra* field holds "DOI: ${P.position.extra.replace('DOI: ', '')}" — Zotero puts it there when the item type had no DOI field at import time. The book ${cite(P.guide)} has an ISBN (${P.guide.isbn}) instead. Every other item has a DOI.`,
      });
    },
    // 39
    (c) => {
      const p = c.lib.papers.position;
      userMessage(c, 'Move that DOI into the proper field for me.');
      assistantMessage(c, {
        answer: `I can't do that with the tools I have: I can read items, search and annotations, and add tags (with your approval), but I have no tool that edits item fields. To fix it yourself: open ${p.key} in Zotero, copy "${p.extra.replace('DOI: ', '')}" from *Extra* into the *DOI* field, and delete the line from *Extra*. Zotero 7 also offers this automatically when you edit the item.`,
      });
    },
    // 40
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Write the bibliography entries for the six core papers in APA 7.');
      assistantMessage(c, {
        answer: `Baumann, F., Nwosu, A., & Jiawei, C. (2023). Lost in the long context? Position effects in retrieval-augmented reading of scientific text. In *Proceedings of the 2023 Conference on Empirical Methods in Natural Language Processing* (pp. 8121–8135). Association for Computational Linguistics. https://doi.org/${P.position.extra.replace('DOI: ', '')}

Lindqvist, M., Okafor, T., & Park, H. (2023). Grounded answers from full text: Retrieval-augmented generation for scientific question answering. *Transactions of the Association for Computational Linguistics, 11*, 1187–1204. https://doi.org/${P.grounded.doi}

Moreau, A., Venkataraman, R., Hoffmann, L., & Osei, D. (2024). Reflect before you cite: Self-critique tokens for retrieval-augmented scientific writing. In *Proceedings of the 62nd Annual Meeting of the Association for Computational Linguistics (Volume 1: Long Papers)* (pp. 4410–4426). Association for Computational Linguistics. https://doi.org/${P.reflect.doi}

Okafor, T., & Natarajan, P. (2022). Dense retrieval over full-text scientific articles: Chunking, citations, and section structure. *Journal of the Association for Information Science and Technology, 73*(9), 1265–1281. https://doi.org/${P.dense.doi}

Park, H., Feld, M., & Carvalho, I. (2022). SciQA-Long: A benchmark of long-form questions over full scientific papers. In *Advances in Neural Information Processing Systems 35 (Datasets and Benchmarks Track)* (pp. 21904–21917). Curran Associates. https://doi.org/${P.sciqa.doi}

Wang, X., Li, J., & Chen, Z. (2023). Mianxiang keji wenxian wenda de jiansuo zengqiang shengcheng fangfa yanjiu. *Journal of Chinese Information Processing, 37*(6), 51–62. https://doi.org/${P.wang.doi}

(Keys, in order: ${['position', 'grounded', 'reflect', 'dense', 'sciqa', 'wang'].map((id) => P[id].key).join(', ')}.) Note "Jiawei, C." — Zotero stores Chen Jiawei with the given name as last name; check the record.`,
      });
    },
    // 41
    (c) => {
      const w = c.lib.papers.wang;
      userMessage(c, 'For 王 et al., use the Chinese title with an English translation in brackets, not pinyin.');
      assistantMessage(c, {
        answer: `Wang, X., Li, J., & Chen, Z. (2023). 面向科技文献问答的检索增强生成方法研究 [Retrieval-augmented generation for question answering over scientific literature]. *中文信息学报 [Journal of Chinese Information Processing], 37*(6), 51–62. https://doi.org/${w.doi}

This follows APA 7 for non-English sources (original title, translation in square brackets). ${cite(w)}`,
      });
    },
    // 42: EPUB again
    (c) => {
      const b = c.lib.papers.guide;
      userMessage(c, 'Go back to the book — the section after evaluation. What does it say about cost?');
      const section = {
        attachmentKey: b.attachment.key,
        sectionIndex: 8,
        sectionCount: 15,
        href: 'OEBPS/Text/chapter08.xhtml',
        cfi: 'epubcfi(/6/18!/4/2/1:0)',
        title: '8 Operating Retrieval-Augmented Systems',
        text: pageText(c.f.rand, {
          header: '8 Operating Retrieval-Augmented Systems',
          heading: '8.3 Where the money goes',
          lead: 'In most deployments we have seen, the generator dominates cost: retrieval and reranking account for 5-15% of the cost per question, the prompt tokens of the retrieved passages for 50-70%. Halving k from 16 to 8 cut cost per question by 38% in one deployment with no measurable loss in answer quality. Caching embeddings of the corpus is cheap; caching answers is risky, because the corpus changes underneath them.',
          footer: '',
          bytes: 3600,
        }),
      };
      assistantMessage(c, {
        steps: [[toolPart(c, 'readEpubSection', { attachmentKey: b.attachment.key, sectionIndex: 8 }, section)]],
        answer: `Chapter 8, "Operating Retrieval-Augmented Systems", section 8.3 "Where the money goes" (${section.href}, ${section.cfi}) ${cite(b)}:

- The generator dominates cost: retrieval and reranking are 5–15% of the cost per question, the prompt tokens of retrieved passages 50–70%.
- In one deployment, halving k from 16 to 8 cut cost per question by 38% with no measurable quality loss.
- Caching corpus embeddings is cheap; caching answers is risky because the corpus changes.

That gives a practical, cost-side argument for k ≈ 8 to go with the accuracy-side evidence from Lindqvist (p. 1192), Moreau (p. 4416) and Baumann (p. 8125). As an EPUB it has no page numbers; cite chapter 8.3.`,
      });
    },
    // 43
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Summarize where we are: which claims are still unsupported by a page reference?');
      assistantMessage(c, {
        think: 'Go through the claims collected so far and mark which came only from abstracts or were inferred.',
        answer: `**Supported by a page:** chunking details and results of Lindqvist (pp. 1190, 1192, 1195, 1198); Wang's datasets, method and results (pp. 54, 56, 57); SciQA-Long construction (p. 21906); Moreau's Figure 3 and Table 2 (pp. 4416, 4417); Baumann's position effects (p. 8125); Okafor & Natarajan's ablations (p. 1271); Nakamura & Rossi's definition and the 34.1% figure (pp. 212, 218); Lindgren & Ruiz's results (p. ${pageLabel(P.tables, 8)}).

**Still only from abstracts (need a page):**
1. Okafor & Natarajan: "section path and cited titles recover most of the loss" ${cite(P.dense)} — Table 4 supports it numerically, but the wording is from the abstract.
2. Moreau et al.: how SciWrite-QA was built ${cite(P.reflect)}.
3. Baumann et al.: the dataset used ${cite(P.position)}.
4. SciQA-Long: its evaluation metrics ${cite(P.sciqa)}.

**My inferences, not the authors' claims:** that sentence-level units would lose context in Wang et al.'s setting; that "respecting structure is the most reliable choice" (our synthesis). Mark these as ours in the text.`,
      });
    },
    // 44: the final open request
    (c) => {
      const P = c.lib.papers;
      userMessage(c, 'Now write the full related-work section (~900 words): organise it by retrieval unit, self-critique, and evaluation; cite every claim with key and page; flag the gaps where I still need to read.');
      assistantMessage(c, {
        answer: `## 2 Related Work

### 2.1 What to retrieve: units of scientific full text
Early systems for scientific question answering retrieved abstracts, which answer questions about a paper's main contribution but not about its data, settings or limitations. Working on full text, Lindqvist et al. ${cite(P.grounded, '1190')} show that the unit of retrieval matters: chunks that never cross a section boundary, 240–320 tokens long and prefixed with their section path, raise accuracy by 6.8 points and citation precision by 11.2 points over abstract-only retrieval ${cite(P.grounded, '1195')}. Okafor and Natarajan ${cite(P.dense, '1271')} isolate the signals: removing the section path costs 0.041 nDCG@10 and removing the titles of cited works 0.023, while fixed 512-token windows cost 0.059. Wang et al. ${cite(P.wang, '54')} carry both ideas to Chinese scientific text with paragraph units and report gains over section-aware chunking on two datasets ${cite(P.wang, '57')}. Lindgren and Ruiz ${cite(P.tables, pageLabel(P.tables, 8))} extend the unit to table cells and figure captions, adding 12.3 points on numeric questions.

### 2.2 How much to retrieve
Three independent results put the useful amount of evidence near eight passages: Lindqvist et al. find no gain beyond k = 8 ${cite(P.grounded, '1192')}, Moreau et al. observe saturation after k ≈ 8 ${cite(P.reflect, '4416')}, and Baumann et al. show that with twenty passages a gold passage in the middle costs 14.2 points ${cite(P.position, '8125')}. Oduya and de Vries add a cost argument: halving k from 16 to 8 cut cost per question by 38% in one deployment (ch. 8.3) ${cite(P.guide)}.

### 2.3 Self-critique and citation quality
Moreau et al. ${cite(P.reflect, '4417')} train generators to critique their own retrieval and support; citation precision rises from 61.4 to 78.9 while recall falls by 1.8 points, mostly because unsupported citations are removed. Nakamura and Rossi ${cite(P.faithful, '212')} give the definition of a faithful citation we adopt, and find that 34.1% of citations in generated summaries are unfaithful ${cite(P.faithful, '218')}.

### 2.4 Evaluation
SciQA-Long ${cite(P.sciqa, '21906')} provides 2,140 expert questions over 612 full papers ... [GAP: its evaluation metrics — read the evaluation section]. Following Oduya and de Vries (ch. 7.1), we separate retrieval, grounding and answer quality; only Moreau et al. report citation recall.

**Gaps to read before submission:** SciQA-Long's metrics; how SciWrite-QA was built (Moreau et al.); Baumann et al.'s dataset; wording support for Okafor & Natarajan's main claim. Sentences marked as synthesis in 2.1 are ours.

(This is a first pass at about 560 words; tell me which subsection to expand toward 900.)`,
        usage: false,
      });
    },
  ];
}

/**
 * The demo's research session: a researcher and a Zotero assistant over 44 turns (RAG for
 * scientific QA, an English and a Chinese paper, PDF pages, annotations, an EPUB, collections
 * and tags, a failed tool call, a denied approval, a pasted screenshot, reasoning, usage).
 * `turns` shortens it, or lengthens it with synthetic turns of the same kind.
 * @param {{ turns?: number, seed?: number }} [options]
 * @returns {{ nodes: object[], leafId: string, branchRevision: number }}
 */
export function researchSession({ turns = 44, seed = 1 } = {}) {
  const ctx = newContext(seed);
  const script = researchTurns();
  for (let i = 0; i < turns; i++) {
    if (i < script.length) script[i](ctx);
    else syntheticTurn(ctx, i);
  }
  return { nodes: ctx.nodes, leafId: ctx.leafId, branchRevision: ctx.nodes.length };
}

// ---------------------------------------------------------------------------------------------
// Synthetic sessions for the benchmark

const SHORT_QUESTIONS = [
  'What do they use as the retrieval unit?',
  'Read the next page.',
  'Any numbers on citation precision?',
  'Keep the page numbers in the answer.',
  'Compare that with the previous paper.',
  'Which dataset is that on?',
  'Is this peer-reviewed?',
  'Show my highlights on this PDF.',
  'Summarize the limitations section.',
  '这一节的主要结论是什么？请注明页码。',
  'Search my library for related work on reranking.',
  'List the items in this collection.',
];

function syntheticPaper(ctx, i) {
  const rand = ctx.f.rand;
  const topics = ['Retrieval', 'Reranking', 'Citation Grounding', 'Long-Context Reading', 'Table Evidence', 'Query Rewriting', 'Answer Verification'];
  const domains = ['Scientific Question Answering', 'Biomedical Literature', 'Materials Science Papers', 'Systematic Reviews', 'Patent Search'];
  const last = ['Andersen', 'Banerjee', 'Costa', 'Dubois', 'Eriksson', 'Fujita', 'García', 'Horvat', 'Ivanova', 'Jensen', 'Kowalski', 'Liu', 'Mensah', 'Novak'];
  const first = ['Ana', 'Ben', 'Chloé', 'Dev', 'Eva', 'Farid', 'Greta', 'Hiro', 'Ilse', 'Jon', 'Kira', 'Luis', 'Maya', 'Nils'];
  const year = 2020 + rand.int(1, 5);
  const paper = {
    id: `p${i}`,
    itemType: rand.pick(['journalArticle', 'journalArticle', 'conferencePaper', 'preprint']),
    title: `${rand.pick(topics)} for ${rand.pick(domains)}: ${rand.pick(['An Empirical Study', 'Methods and Benchmarks', 'A Closer Look', 'Lessons from Deployment'])}`,
    creators: Array.from({ length: rand.int(1, 5) }, () => [rand.pick(first), rand.pick(last)]),
    abstract: Array.from({ length: rand.int(2, 5) }, () => rand.pick(FILLER_EN)).join(' '),
    venue: rand.pick(['Information Processing & Management', 'Proceedings of SIGIR', 'Scientometrics', 'arXiv', 'Journal of Documentation']),
    date: `${year}-${String(rand.int(1, 12)).padStart(2, '0')}`,
    doi: `10.5555/synthetic.${year}.${rand.int(10000, 99999)}`,
    tags: [[rand.pick(['RAG', 'retrieval', 'evaluation', 'citation'])], [rand.pick(['Information retrieval', 'Computation and Language']), 1]],
    collections: [],
    pageCount: rand.int(8, 30),
    firstPage: rand.pick([1, rand.int(100, 9000)]),
    key: ctx.f.zoteroKey(),
    version: rand.int(100, 5000),
    added: isoDate(SESSION_START_MS - rand.int(1, 400) * 86400000),
    modified: isoDate(SESSION_START_MS - rand.int(0, 30) * 86400000),
  };
  paper.attachment = { key: ctx.f.zoteroKey(), contentType: 'application/pdf', filename: `${paper.creators[0][1]} - ${year} - paper.pdf`, md5: ctx.f.md5(), size: rand.int(200000, 4000000) };
  return paper;
}

/** A tool result of about `bytes` UTF-8 bytes: search results or a PDF page. */
function syntheticTool(ctx, bytes) {
  const rand = ctx.f.rand;
  const paper = rand.pick(ctx.synthPapers);
  if (rand.next() < 0.45) {
    const items = [];
    let size = 2;
    while (size < bytes) {
      const p = rand.pick(ctx.synthPapers);
      // Repeated results of one paper share one object (JSON-identical; keeps 10k sessions fast).
      p.cachedJson ??= [webItem(p), itemData(p)];
      const item = p.cachedJson[rand.next() < 0.5 ? 0 : 1];
      items.push(item);
      p.cachedSize ??= [JSON.stringify(p.cachedJson[0]).length, JSON.stringify(p.cachedJson[1]).length];
      size += p.cachedSize[item === p.cachedJson[0] ? 0 : 1] + 1;
    }
    return toolPart(ctx, 'zoteroSearch', { q: rand.pick(['retrieval augmented generation', 'citation faithfulness', 'reranking scientific', 'long context position']), limit: items.length }, items);
  }
  const pageIndex = rand.int(0, paper.pageCount - 1);
  const label = pageLabel(paper, pageIndex);
  return toolPart(ctx, 'readPdfPage', { attachmentKey: paper.attachment.key, pageIndex }, {
    attachmentKey: paper.attachment.key,
    pageIndex,
    pageLabel: label,
    pageCount: paper.pageCount,
    text: pageText(rand, { header: `${creatorSummary(paper)} · ${paper.venue}`, heading: '', lead: rand.pick(FILLER_EN), footer: label, bytes }),
  });
}

/** Size of one tool result: mostly small, some PDF-page sized, a few large (1-50 KB). */
function toolResultBytes(rand) {
  const r = rand.next();
  if (r < 0.6) return rand.int(1000, 6000);
  if (r < 0.95) return rand.int(2000, 12000);
  return rand.int(20000, 50000);
}

function syntheticAnswer(ctx, paper) {
  const rand = ctx.f.rand;
  const paragraphs = [];
  const n = rand.int(2, 6);
  for (let i = 0; i < n; i++) {
    const sentences = Array.from({ length: rand.int(3, 6) }, () => rand.pick(FILLER_EN));
    paragraphs.push(`${sentences.join(' ')} (${paper.key}, p. ${pageLabel(paper, rand.int(0, paper.pageCount - 1))})`);
  }
  return paragraphs.join('\n\n');
}

/** One synthetic turn: a short user message and an assistant answer, usually with tools. */
function syntheticTurn(ctx, i, { usage = true } = {}) {
  const rand = ctx.f.rand;
  if (!ctx.synthPapers) ctx.synthPapers = Array.from({ length: 40 }, (_, k) => syntheticPaper(ctx, k));
  userMessage(ctx, rand.pick(SHORT_QUESTIONS));
  const paper = rand.pick(ctx.synthPapers);
  const steps = [];
  const r = rand.next();
  const toolSteps = r < 0.55 ? 1 : r < 0.7 ? 2 : 0;
  for (let s = 0; s < toolSteps; s++) steps.push([syntheticTool(ctx, toolResultBytes(rand))]);
  assistantMessage(ctx, {
    think: rand.next() < 0.3 ? `Turn ${i}: check the source before answering; cite the page label, not the PDF page index.` : undefined,
    steps,
    answer: syntheticAnswer(ctx, paper),
    usage: usage && rand.next() < 0.9,
  });
}

const SUMMARY_SECTIONS = [
  '## Research Goal',
  '## User Requirements and Constraints',
  '## Research Progress',
  '## Findings and Evidence',
  '## Key Zotero Resources',
  '## Decisions',
  '## Next Steps',
  '## Critical Context',
];

function checkpointSummary(ctx, papers, n) {
  const cites = papers.slice(0, 6).map((p) => `- ${p.key}: ${creatorSummary(p)} (${String(p.date).slice(0, 4)}), ${p.title} [tool]`);
  const body = {
    '## Research Goal': '- Survey section on retrieval-augmented generation for scientific question answering [user]',
    '## User Requirements and Constraints': '- Only peer-reviewed papers published after 2020 [user]\n- Every claim taken from a PDF keeps its page label [user]\n- Do not modify the library without approval [user]',
    '## Research Progress': `- ${papers.length} papers examined so far; checkpoint ${n} [tool]`,
    '## Findings and Evidence': papers.slice(0, 4).map((p) => `- ${p.key}, p. ${pageLabel(p, 3)}: section-aware retrieval improves citation precision [tool]`).join('\n'),
    '## Key Zotero Resources': cites.join('\n'),
    '## Decisions': '- Use k = 8 retrieved passages as the reference setting [inferred]',
    '## Next Steps': '- Read the evaluation sections still missing page references [inferred]',
    '## Critical Context': '- Page labels differ from PDF page indices; cite the labels [tool]',
  };
  return SUMMARY_SECTIONS.map((h) => `${h}\n${body[h]}`).join('\n\n');
}

function ledgerFor(papers) {
  const entries = [];
  for (const p of papers) {
    entries.push({ kind: 'item', key: p.key, label: `${creatorSummary(p)} (${String(p.date).slice(0, 4)}) ${p.title}`, detail: p.itemType });
    entries.push({ kind: 'attachment', key: p.attachment.key, label: p.attachment.filename, parentKey: p.key, detail: p.attachment.contentType });
  }
  return { entries };
}

/**
 * A synthetic research session at benchmark scale: `messages` message nodes (abandoned
 * branches included; checkpoint nodes come on top), a realistic mix of short user turns, long
 * assistant answers and Zotero tool results of 1-50 KB.
 * `branches` adds abandoned retries and edits every ~40 turns; `checkpoints` (0-3 sensible)
 * appends that many checkpoint nodes at even intervals of the active branch, each with a
 * boundary at a user message on its own ancestor chain, monotonic.
 * @param {{ messages: number, seed?: number, branches?: boolean, checkpoints?: number }} options
 */
export function syntheticSession({ messages, seed = 1, branches = false, checkpoints = 0 }) {
  if (!Number.isSafeInteger(messages) || messages < 2) throw new RangeError('syntheticSession: messages must be an integer >= 2');
  const ctx = newContext(seed);
  ctx.synthPapers = Array.from({ length: 40 }, (_, k) => syntheticPaper(ctx, k));
  const rand = ctx.f.rand;
  const totalTurns = Math.floor(messages / 2);
  const checkpointTurns = new Set(Array.from({ length: checkpoints }, (_, k) => Math.floor(((k + 1) * totalTurns) / (checkpoints + 1))));
  let messageCount = 0;
  let previousCheckpoint = null;
  let previousBoundaryTurn = 0;
  let checkpointCount = 0;
  const userIdsByTurn = [];
  for (let turn = 0; messageCount + 2 <= messages; turn++) {
    if (branches && turn > 2 && turn % 40 === 0 && messageCount + 4 <= messages) {
      // An abandoned branch left behind as a sibling: a retried answer or an edited question.
      const forkFrom = ctx.leafId;
      const contextTokens = ctx.contextTokens;
      syntheticTurn(ctx, turn);
      const abandonedAnswer = ctx.nodes[ctx.nodes.length - 1];
      ctx.contextTokens = contextTokens;
      if (rand.next() < 0.5) {
        // retry: a second answer to the same question; the main line keeps the new one
        ctx.leafId = abandonedAnswer.parentId;
        ctx.contextTokens += roughTokens(ctx.nodes[ctx.nodes.length - 2].parts);
        assistantMessage(ctx, { answer: syntheticAnswer(ctx, rand.pick(ctx.synthPapers)) });
      } else {
        // edit: a sibling question under the same parent; the main line follows the edit
        ctx.leafId = forkFrom;
        syntheticTurn(ctx, turn);
      }
    } else {
      syntheticTurn(ctx, turn);
    }
    messageCount = ctx.nodes.length - checkpointCount;
    // The main line's user message of this turn: the parent of the newest answer.
    userIdsByTurn.push(ctx.nodes[ctx.nodes.length - 1].parentId);
    if (checkpointTurns.has(turn) && turn >= 2) {
      // Keep the last three turns verbatim, never moving before the previous boundary.
      const boundaryTurn = Math.max(previousBoundaryTurn, turn - 2);
      checkpointCount++;
      const used = ctx.synthPapers.slice(0, 6 + 4 * checkpointCount);
      const tokensBefore = REQUEST_OVERHEAD_TOKENS + ctx.contextTokens;
      const id = ctx.f.messageId();
      appendNode(ctx, {
        id,
        parentId: ctx.leafId,
        createdAt: ctx.f.tick(20),
        checkpoint: {
          summary: checkpointSummary(ctx, used, checkpointCount),
          firstKeptMessageId: userIdsByTurn[boundaryTurn],
          previousCheckpointId: previousCheckpoint,
          mode: 'auto',
          tokensBefore,
          tokensAfter: Math.round(tokensBefore * 0.18),
          ledger: ledgerFor(used),
          basis: { leafId: ctx.leafId, branchRevision: ctx.nodes.length },
        },
      });
      previousCheckpoint = id;
      previousBoundaryTurn = boundaryTurn;
      ctx.contextTokens = Math.round(ctx.contextTokens * 0.18); // later usage reflects the compacted context
    }
  }
  return { nodes: ctx.nodes, leafId: ctx.leafId, branchRevision: ctx.nodes.length };
}
