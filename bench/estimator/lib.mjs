// Shared by fidelity.mjs and tune.mjs: corpora built from packages on this machine, reference counts
// from four real tokenizers (cached under bench/.corpora/, never committed), and the Rust estimator.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
// The crate whose estimator is measured (override to measure another checkout).
export const crateRoot = process.env.BIBGENIE_CRATE ?? repoRoot;
const cacheDir = path.join(repoRoot, 'bench', '.corpora');

// Bump when corpus building or reference counting changes, so stale caches are rebuilt.
const CACHE_VERSION = 4;
const MIN_CHARS = 200;
const MAX_CHARS = 4000;
// Messages per corpus (before the tuning / held-out split) and per source file (for variety).
const MAX_MESSAGES = 2000;
const MAX_PER_FILE = 6;

// ---- deterministic helpers ----

function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Held-out when the message hash is odd: tuning never sees those messages. */
export const isHeldOut = (text) => (fnv1a(text) & 1) === 1;

function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13; s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5; s >>>= 0;
    return s / 0x100000000;
  };
}

function shuffled(list, seed) {
  const r = rng(seed);
  const out = [...list].sort();
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

function walk(dir, keep, out = []) {
  let entries;
  try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return out; }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, keep, out);
    else if (e.isFile() && keep(p)) out.push(p);
  }
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
function readText(file) {
  try {
    let buf = fs.readFileSync(file);
    if (file.endsWith('.gz')) buf = zlib.gunzipSync(buf);
    if (buf.length > 4_000_000) return null;
    return utf8.decode(buf);
  } catch {
    return null; // unreadable or not UTF-8
  }
}

// ---- roff to text ----

const TEXT_MACROS = new Set(['SH', 'SS', 'B', 'I', 'BR', 'IR', 'RB', 'RI', 'BI', 'IB', 'SM', 'SB', 'IP', 'TP', 'TQ',
  'Nm', 'Nd', 'Ar', 'Fl', 'Op', 'It', 'Xr', 'Sh', 'Ss', 'Pa', 'Dv', 'Ev', 'Em', 'Sy', 'Li', 'Cm', 'Va', 'Fn', 'Fa', 'Ql', 'Dq']);
const GLYPHS = { em: '—', en: '–', bu: '•', co: '©', rg: '®', lq: '“', rq: '”', oq: '‘', cq: '’', aq: "'", dq: '"', hy: '-', mi: '-', ti: '~', ha: '^', rs: '\\', 'fo': '«', 'fc': '»', '->': '→', '<-': '←', mu: '×', de: '°' };

// groff accent escapes: \(:a is a with diaeresis, \('e e with acute, ... (groff_char(7)).
const ACCENTS = { ':': '\u0308', "'": '\u0301', '`': '\u0300', '^': '\u0302', '~': '\u0303', ',': '\u0327', o: '\u030a', v: '\u030c' };
const glyph = (g) => GLYPHS[g] ?? (g === 'ss' ? 'ß' : ACCENTS[g[0]] && /[A-Za-z]/.test(g[1]) ? g[1] + ACCENTS[g[0]] : '');

export function roffToText(src) {
  const out = [];
  for (let line of src.split('\n')) {
    if (/^[.']\s*\\"/.test(line)) continue;
    const macro = /^[.']\s*([A-Za-z]{1,3})\b\s*(.*)$/.exec(line);
    if (macro) {
      if (!TEXT_MACROS.has(macro[1])) {
        if (['PP', 'LP', 'P', 'sp', 'br', 'Pp'].includes(macro[1])) out.push('');
        continue;
      }
      line = macro[2].replace(/"/g, '');
      if (macro[1] === 'SH' || macro[1] === 'Sh') out.push('');
    } else if (/^[.']/.test(line)) {
      continue;
    }
    line = line
      .replace(/\\f(\[[^\]]*\]|\(..|.)/g, '')
      .replace(/\\s[+-]?\d+/g, '')
      .replace(/\\\*(\[[^\]]*\]|\(..|.)/g, '')
      .replace(/\\\((..)/g, (_, g) => glyph(g))
      .replace(/\\\[([^\]]*)\]/g, (_, g) => glyph(g))
      .replace(/\\[-]/g, '-')
      .replace(/\\e/g, '\\')
      .replace(/\\ /g, ' ')
      .replace(/\\[&|^c%:]/g, '')
      .replace(/\\"(.*)$/, '');
    out.push(line);
  }
  return out.join('\n').replace(/\n{3,}/g, '\n\n').normalize('NFC');
}

// ---- splitting into messages ----

/** Splits a document into messages of 200-4,000 characters at paragraph, then line, then character limits. */
export function splitMessages(text, r) {
  const messages = [];
  const target = () => Math.round(Math.exp(Math.log(MIN_CHARS) + r() * (Math.log(MAX_CHARS) - Math.log(MIN_CHARS))));
  let want = target();
  let current = '';
  const flush = () => {
    const t = current.trim();
    if (t.length >= MIN_CHARS) messages.push(t);
    current = '';
    want = target();
  };
  const pieces = [];
  for (const para of text.split(/\n\s*\n/)) {
    if (para.length <= MAX_CHARS) { pieces.push(para); continue; }
    let acc = '';
    for (const line of para.split('\n')) {
      if (acc.length + line.length + 1 > MAX_CHARS && acc) { pieces.push(acc); acc = ''; }
      if (line.length > MAX_CHARS) {
        const chars = Array.from(line);
        for (let i = 0; i < chars.length; i += MAX_CHARS / 2) pieces.push(chars.slice(i, i + MAX_CHARS / 2).join(''));
      } else {
        acc += (acc ? '\n' : '') + line;
      }
    }
    if (acc) pieces.push(acc);
  }
  for (const piece of pieces) {
    if (current && current.length + piece.length + 2 > Math.min(want, MAX_CHARS)) flush();
    current += (current ? '\n\n' : '') + piece;
    if (current.length >= want) flush();
  }
  flush();
  return messages.filter((m) => m.length <= MAX_CHARS + 2);
}

// ---- corpora ----

const home = os.homedir();
const man = (dirs) => () => dirs.flatMap((d) => walk(d, (p) => p.endsWith('.gz')));

function cargoMetadata() {
  try {
    return [execFileSync('cargo', ['metadata', '--format-version', '1', '--offline'],
      { cwd: crateRoot, maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] }).toString()];
  } catch {
    return [];
  }
}

/** Compact JSON pieces of a JSON document: what a tool result looks like once `JSON.stringify`-ed. */
function compactPieces(text) {
  let value;
  try { value = JSON.parse(text); } catch { return []; }
  const out = [];
  // Groups entries of an oversized array or object into pieces that fit; an entry that alone is too
  // large is opened in turn (a long string alone is left out).
  const visit = (v, depth) => {
    const s = JSON.stringify(v);
    if (s === undefined) return;
    if (s.length <= MAX_CHARS) { if (s.length >= MIN_CHARS) out.push(s); return; }
    if (depth > 40 || !v || typeof v !== 'object') return;
    const entries = Array.isArray(v) ? v.map((x) => [null, x]) : Object.entries(v);
    const make = (group) => (Array.isArray(v) ? group.map(([, x]) => x) : Object.fromEntries(group));
    let group = [];
    let size = 2;
    for (const entry of entries) {
      const len = (JSON.stringify(entry[1]) ?? '').length + (entry[0]?.length ?? 0) + 4;
      if (len > MAX_CHARS) { visit(entry[1], depth + 1); continue; }
      if (size + len > MAX_CHARS && group.length) { visit(make(group), depth + 1); group = []; size = 2; }
      group.push(entry);
      size += len;
    }
    if (group.length) visit(make(group), depth + 1);
  };
  visit(value, 0);
  return out;
}

/**
 * Man pages of one language directory from the system and from a Debian package's files: the package
 * is fetched with `apt-get download` and unpacked under bench/.corpora/ (no root, the system untouched)
 * when it is not installed. A page the system has from another package as well is read once.
 */
function debianMan(pkg, lang) {
  return () => {
    const unpacked = path.join(cacheDir, 'debs', pkg);
    const installed = spawnSync('dpkg-query', ['-W', '-f=${Status}', pkg]).stdout?.toString().includes('ok installed');
    if (!installed && !fs.existsSync(unpacked)) {
      const work = fs.mkdtempSync(path.join(cacheDir, 'deb-'));
      const got = spawnSync('apt-get', ['download', pkg], { cwd: work, stdio: 'ignore' });
      const deb = fs.readdirSync(work).find((f) => f.endsWith('.deb'));
      if (got.status === 0 && deb) {
        fs.mkdirSync(path.dirname(unpacked), { recursive: true });
        execFileSync('dpkg-deb', ['-x', path.join(work, deb), unpacked]);
      }
      fs.rmSync(work, { recursive: true, force: true });
    }
    const byName = new Map();
    for (const root of [path.join(unpacked, 'usr/share/man', lang), `/usr/share/man/${lang}`]) {
      for (const f of walk(root, (p) => p.endsWith('.gz'))) {
        const rel = path.relative(root, f);
        if (!byName.has(rel)) byName.set(rel, f);
      }
    }
    return [...byName.values()];
  };
}

const poetryDir = path.join(here, 'node_modules', 'chinese-poetry', 'dist');
/** A file of chinese-poetry (a JSON array of poems) as text: title, author, then the lines, as published. */
function poemsText(json) {
  let poems;
  try { poems = JSON.parse(json); } catch { return ''; }
  if (!Array.isArray(poems)) return '';
  return poems
    .filter((p) => Array.isArray(p?.paragraphs))
    .map((p) => [p.title ?? p.rhythmic, p.author, ...p.paragraphs].filter((l) => typeof l === 'string' && l).join('\n'))
    .join('\n\n');
}

/** The translations of a gettext .mo file, one paragraph each (plural forms too); the header is left out. */
function moText(buf) {
  if (buf.length < 28) return '';
  const magic = buf.readUInt32LE(0);
  const le = magic === 0x950412de;
  if (!le && magic !== 0xde120495) return '';
  const u32 = (at) => (le ? buf.readUInt32LE(at) : buf.readUInt32BE(at));
  const [count, , table] = [u32(8), u32(12), u32(16)];
  const out = [];
  for (let k = 0; k < count && table + 8 * k + 8 <= buf.length; k++) {
    const [len, at] = [u32(table + 8 * k), u32(table + 8 * k + 4)];
    if (len === 0 || at + len > buf.length) continue;
    let text;
    try { text = utf8.decode(buf.subarray(at, at + len)); } catch { continue; }
    if (/^Project-Id-Version:|^Content-Type:/m.test(text)) continue;
    out.push(...text.split('\0').filter((t) => t.trim()));
  }
  return out.join('\n\n').normalize('NFC');
}

/** gettext catalogues of the given locales in /usr/share/locale (as shipped by Debian packages). */
const locales = (langs) => () => langs.flatMap((l) => walk(`/usr/share/locale/${l}/LC_MESSAGES`, (p) => p.endsWith('.mo')));

// ---- encoded payloads, as tools embed files: built from real files on this machine ----

function payloadSources() {
  const found = [];
  const visit = (dir, depth) => {
    if (depth > 6 || found.length > 600) return;
    let entries;
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) visit(p, depth + 1);
      else if (e.isFile() && /\.(png|jpe?g|pdf|gz|mo)$/.test(e.name)) found.push(p);
    }
  };
  // Different files from those script-costs.mjs measures the payload price on (/usr/share, /usr/bin):
  for (const d of ['/usr/lib/python3', '/usr/share/locale', '/usr/share/doc', '/usr/lib/node_modules']) visit(d, 0);
  return found;
}

/**
 * Messages that carry payloads the way tool results do: a data URL in a JSON part, a file's bytes in a JSON
 * string of a tool output (Zotero attachment-like), MIME base64 lines in plain text, base64url tokens, hex
 * digests and hex dumps. `kind` is 'base64' or 'hex'.
 */
function payloadMessages(kind) {
  return () => {
    const r = rng(fnv1a(`payload-${kind}`));
    const pick = (list) => list[Math.floor(r() * list.length)];
    const slice = (buf, n) => { const at = Math.floor(r() * Math.max(1, buf.length - n)); return buf.subarray(at, at + n); };
    const files = payloadSources().filter((f) => fs.statSync(f).size >= 256);
    const out = [];
    for (const file of shuffled(files, 11)) {
      if (out.length >= 1200) break;
      const buf = fs.readFileSync(file);
      const name = path.basename(file);
      const bytes = Math.round(Math.exp(Math.log(40) + r() * (Math.log(2800) - Math.log(40))));
      const part = slice(buf, bytes);
      const type = /\.png$/.test(name) ? 'image/png' : /\.jpe?g$/.test(name) ? 'image/jpeg' : /\.pdf$/.test(name) ? 'application/pdf' : 'application/octet-stream';
      const key = Array.from({ length: 8 }, () => pick('ABCDEFGHIJKLMNPQRSTUVWXYZ23456789')).join('');
      let text;
      if (kind === 'base64') {
        const b64 = part.toString('base64');
        text = pick([
          () => JSON.stringify({ type: 'file', mediaType: type, filename: name, url: `data:${type};base64,${b64}` }),
          () => JSON.stringify({ key, itemType: 'attachment', contentType: type, filename: name, content: b64, md5: createHash('md5').update(part).digest('hex') }),
          () => `Attachment ${name} (${type}, ${part.length} bytes), base64:\n${b64.replace(/.{76}/g, '$&\n')}`,
          () => `![${name}](data:${type};base64,${b64})`,
          () => JSON.stringify({ result: { token: part.subarray(0, 48).toString('base64url'), payload: part.toString('base64url') } }),
          () => `-----BEGIN CERTIFICATE-----\n${b64.replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----`,
        ])();
      } else {
        const hex = part.toString('hex');
        text = pick([
          () => hex.slice(0, 2 * Math.min(part.length, 600)).replace(/.{64}/g, '$&\n'),
          () => JSON.stringify({ file: name, sha256: createHash('sha256').update(part).digest('hex'), sha1: createHash('sha1').update(part).digest('hex'), bytes: hex.slice(0, 1200) }),
          () => Array.from({ length: 4 + Math.floor(r() * 20) }, (_, k) => `${createHash('sha256').update(part.subarray(k)).digest('hex')}  ${name}.${k}`).join('\n'),
          () => `Hex of ${name}: 0x${hex.slice(0, 1600).toUpperCase()}`,
        ])();
      }
      if (text.length >= MIN_CHARS && text.length <= MAX_CHARS) out.push(text);
    }
    return out;
  };
}

export const CORPORA = [
  { name: 'zh-man', about: 'Simplified Chinese man pages (zh_CN, Debian manpages-zh)', files: debianMan('manpages-zh', 'zh_CN'),
    roff: true, version: 5 },
  { name: 'zh-tw-man', about: 'Traditional Chinese man pages (zh_TW, Debian manpages-zh)', files: debianMan('manpages-zh', 'zh_TW'),
    roff: true },
  { name: 'zh-classical', about: 'Tang and Song poetry (npm chinese-poetry: quantangshi poet.tang/poet.song, songci)',
    files: () => [
      ...walk(path.join(poetryDir, 'quantangshi'), (p) => /\/poet\.(tang|song)\.\d+\.json$/.test(p)),
      ...walk(path.join(poetryDir, 'songci'), (p) => /\/ci\.song\.\d+\.json$/.test(p)),
    ],
    toText: poemsText },
  { name: 'ja-man', about: 'Japanese man pages (Debian manpages-ja)', files: debianMan('manpages-ja', 'ja'), roff: true, optional: true },
  { name: 'ko-man', about: 'Korean man pages (shipped by several packages)', files: man(['/usr/share/man/ko']), roff: true, optional: true },
  { name: 'ru-man', about: 'Russian man pages (Debian manpages-ru)', files: debianMan('manpages-ru', 'ru'), roff: true, optional: true },
  { name: 'latin-man', about: 'Man pages in Latin-script languages (de, fr, es, pl, cs, ...; shipped by many packages)',
    files: man(['cs', 'da', 'de', 'es', 'fi', 'fr', 'hr', 'hu', 'id', 'it', 'nl', 'pl', 'pt', 'pt_BR', 'ro', 'sl', 'sv', 'tr']
      .map((l) => `/usr/share/man/${l}`)), roff: true, optional: true },
  { name: 'en-man', about: 'English man pages', files: man([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `/usr/share/man/man${n}`)), roff: true },
  { name: 'en-doc', about: '/usr/share/doc text (README, NEWS, copyright, *.txt)',
    files: () => walk('/usr/share/doc', (p) => /\/(README[^/]*|NEWS[^/]*|copyright|[^/]*\.txt(\.gz)?)$/.test(p)) },
  { name: 'rust', about: 'Rust sources from the cargo registry',
    files: () => walk(path.join(home, '.cargo', 'registry', 'src'), (p) => p.endsWith('.rs')) },
  { name: 'json', about: 'package.json files, JSON in crates, `cargo metadata` (as on disk and compact)',
    files: () => [
      ...['/usr/lib/node_modules', path.join(repoRoot, 'tests', 'node_modules'), path.join(here, 'node_modules')]
        .flatMap((d) => walk(d, (p) => p.endsWith('/package.json'))),
      ...walk(path.join(home, '.cargo', 'registry', 'src'), (p) => p.endsWith('.json')),
    ],
    extra: cargoMetadata, json: true, maxPerFile: 20 },
  // Issue 25: scripts and payloads. Man pages where Debian has them in the language (prose), gettext
  // catalogues (UI strings and help texts) for the others.
  { name: 'vi-man', about: 'Vietnamese man pages (Debian manpages-vi)', files: debianMan('manpages-vi', 'vi'), roff: true, optional: true },
  { name: 'vi-mo', about: 'Vietnamese UI strings (gettext catalogues in /usr/share/locale/vi)', files: locales(['vi']), mo: true, maxPerFile: 40, optional: true },
  { name: 'pl-man', about: 'Polish man pages (Debian manpages-pl)', files: debianMan('manpages-pl', 'pl'), roff: true, optional: true },
  { name: 'cs-tr-mo', about: 'Czech and Turkish UI strings (/usr/share/locale/{cs,tr})', files: locales(['cs', 'tr']), mo: true, maxPerFile: 40, optional: true },
  { name: 'el-mo', about: 'Greek UI strings (/usr/share/locale/el)', files: locales(['el']), mo: true, maxPerFile: 40, optional: true },
  { name: 'uk-mo', about: 'Ukrainian and Bulgarian UI strings (/usr/share/locale/{uk,bg})', files: locales(['uk', 'bg']), mo: true, maxPerFile: 40, optional: true },
  { name: 'ar-mo', about: 'Arabic and Persian UI strings (/usr/share/locale/{ar,fa})', files: locales(['ar', 'fa']), mo: true, maxPerFile: 40, optional: true },
  { name: 'he-mo', about: 'Hebrew UI strings (/usr/share/locale/he)', files: locales(['he']), mo: true, maxPerFile: 40, optional: true },
  { name: 'hi-mo', about: 'Hindi, Marathi and Nepali UI strings (Devanagari; /usr/share/locale/{hi,mr,ne})', files: locales(['hi', 'mr', 'ne']), mo: true, maxPerFile: 40, optional: true },
  { name: 'indic-mo', about: 'Bengali, Gujarati, Punjabi, Tamil, Telugu, Kannada, Malayalam UI strings', files: locales(['bn', 'gu', 'pa', 'ta', 'te', 'kn', 'ml']), mo: true, maxPerFile: 40, optional: true },
  { name: 'th-mo', about: 'Thai UI strings (/usr/share/locale/th)', files: locales(['th']), mo: true, maxPerFile: 40, optional: true },
  { name: 'ko-mo', about: 'Korean UI strings (/usr/share/locale/ko)', files: locales(['ko']), mo: true, maxPerFile: 40, optional: true },
  { name: 'ja-mo', about: 'Japanese UI strings (/usr/share/locale/ja)', files: locales(['ja']), mo: true, maxPerFile: 40, optional: true },
  { name: 'base64', about: 'base64 and base64url of real files in data URLs, JSON tool output, MIME and PEM text', files: () => [],
    extraMessages: payloadMessages('base64') },
  { name: 'hex', about: 'hex digests and dumps of real files, in plain text and JSON', files: () => [], extraMessages: payloadMessages('hex') },
  { name: 'zotero-json', about: 'Zotero Web API responses (shared/reference), compact as tool results',
    // shared/ sits beside the main checkout (/work/main) and two levels above a worktree (/work/wt/NAME).
    files: () => walk([path.resolve(repoRoot, '..', 'shared'), path.resolve(repoRoot, '..', '..', 'shared')]
      .map((d) => path.join(d, 'reference', 'zotero-web-api')).find((d) => fs.existsSync(d)) ?? '', (p) => p.endsWith('.json')),
    json: true, compactOnly: true, optional: true, maxPerFile: 400 },
];

function buildCorpus(corpus) {
  const r = rng(fnv1a(corpus.name));
  const seen = new Set();
  const messages = [];
  const add = (list, limit) => {
    for (const m of list.slice(0, limit)) {
      if (messages.length >= MAX_MESSAGES) return;
      const h = createHash('sha1').update(m).digest('hex');
      if (!seen.has(h)) { seen.add(h); messages.push(m); }
    }
  };
  const perFile = corpus.maxPerFile ?? MAX_PER_FILE;
  for (const text of corpus.extra?.() ?? []) add(shuffled(compactPieces(text), 7), 200);
  add(corpus.extraMessages?.() ?? [], MAX_MESSAGES);
  for (const file of shuffled(corpus.files(), fnv1a(corpus.name))) {
    if (messages.length >= MAX_MESSAGES) break;
    let text = corpus.mo ? moText(fs.readFileSync(file)) : readText(file);
    if (!text) continue;
    if (corpus.roff) text = roffToText(text);
    if (corpus.toText) text = corpus.toText(text);
    if (corpus.json) {
      const compact = shuffled(compactPieces(text), fnv1a(file));
      if (corpus.compactOnly) { add(compact, perFile); continue; }
      add(compact, Math.ceil(perFile / 2));
    }
    add(shuffled(splitMessages(text, r), fnv1a(file)), perFile);
  }
  return messages;
}

// ---- reference tokenizers ----

let tokenizers;
export async function loadTokenizers() {
  if (tokenizers) return tokenizers;
  // countTokens() would build the Claude tokenizer anew for every call; build it once (same counting).
  const { getTokenizer } = await import('@anthropic-ai/tokenizer');
  const claudeTokenizer = getTokenizer();
  const { default: o200k } = await import('gpt-tokenizer/encoding/o200k_base');
  const { default: cl100k } = await import('gpt-tokenizer/encoding/cl100k_base');
  const { default: llama3 } = await import('llama3-tokenizer-js');
  tokenizers = {
    o200k: (t) => o200k.countTokens(t),
    cl100k: (t) => cl100k.countTokens(t),
    claude: (t) => claudeTokenizer.encode(t.normalize('NFKC'), 'all').length,
    llama3: (t) => llama3.encode(t, { bos: false, eos: false }).length,
  };
  return tokenizers;
}
export const TOKENIZERS = ['o200k', 'cl100k', 'claude', 'llama3'];

/** The corpora with reference counts, from the cache or built now. Corpora with no source files are skipped. */
export async function loadCorpora({ log = console.error } = {}) {
  fs.mkdirSync(cacheDir, { recursive: true });
  const out = [];
  for (const corpus of CORPORA) {
    // A corpus's own version is bumped when only its building changed.
    const file = path.join(cacheDir, `${corpus.name}.v${corpus.version ?? CACHE_VERSION}.json`);
    let rows;
    if (fs.existsSync(file)) {
      rows = JSON.parse(fs.readFileSync(file, 'utf8'));
    } else {
      const started = Date.now();
      const texts = buildCorpus(corpus);
      if (texts.length === 0) {
        log(`${corpus.name}: no source files on this machine, skipped${corpus.optional ? '' : ' (install its package)'}`);
        continue;
      }
      const tk = await loadTokenizers();
      rows = texts.map((text) => {
        const refs = Object.fromEntries(TOKENIZERS.map((k) => [k, tk[k](text)]));
        return { text, refs };
      });
      fs.writeFileSync(file, JSON.stringify(rows));
      log(`${corpus.name}: ${rows.length} messages built and counted in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    for (const row of rows) {
      row.ref = Math.max(...TOKENIZERS.map((k) => row.refs[k]));
      row.heldOut = isHeldOut(row.text);
    }
    out.push({ ...corpus, rows });
  }
  return out;
}

// ---- the Rust estimator ----

/** Runs `examples/estimate_stdin.rs` (native, release) over the texts; `counts` gives run counts instead. */
export function runEstimator(texts, { counts = false } = {}) {
  execFileSync('cargo', ['build', '--quiet', '--release', '--example', 'estimate_stdin'], { cwd: crateRoot, stdio: 'inherit' });
  const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(crateRoot, 'target');
  const bin = path.join(targetDir, 'release', 'examples', 'estimate_stdin');
  const input = texts.map((t) => JSON.stringify(t)).join('\n') + '\n';
  const run = spawnSync(bin, counts ? ['--counts'] : [], { input, maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(`estimate_stdin failed: ${run.stderr}`);
  const lines = run.stdout.toString().trim().split('\n');
  return lines.map((l) => JSON.parse(l));
}

/** Native throughput of estimate_text over the texts, in bytes per second (`bin`: another estimate_stdin). */
export function estimatorThroughput(texts, bin = path.join(process.env.CARGO_TARGET_DIR ?? path.join(crateRoot, 'target'), 'release', 'examples', 'estimate_stdin')) {
  const input = texts.map((t) => JSON.stringify(t)).join('\n') + '\n';
  const { bytes, seconds } = JSON.parse(execFileSync(bin, ['--throughput'], { input, maxBuffer: 1 << 28 }).toString());
  return bytes / seconds;
}

export function estimatorFeatures() {
  const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(crateRoot, 'target');
  const bin = path.join(targetDir, 'release', 'examples', 'estimate_stdin');
  return JSON.parse(execFileSync(bin, ['--features']).toString());
}

// ---- estimators other agents ship, for contrast ----

const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/u;
export const BASELINES = {
  'chars/4': (t) => Math.ceil(t.length / 4),
  'CJK/2+other/4 (llm-for-zotero)': (t) => {
    let cjk = 0, other = 0;
    for (const ch of t) (CJK.test(ch) ? cjk++ : other++);
    return Math.ceil(cjk / 2 + other / 4);
  },
  'ASCII/4+non-ASCII*1.5 (gemini-cli)': (t) => {
    let ascii = 0, wide = 0;
    for (const ch of t) (ch.codePointAt(0) < 128 ? ascii++ : wide++);
    return Math.ceil(ascii / 4 + wide * 1.5);
  },
};

// ---- statistics ----

export function quantile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))));
  return sorted[i];
}

/** Share underestimated, p1 / median / p99 of estimate / reference, and total estimate / total reference. */
export function fidelity(estimates, refs) {
  const ratios = estimates.map((e, i) => e / refs[i]).sort((a, b) => a - b);
  const under = estimates.filter((e, i) => e < refs[i]).length;
  const sum = (xs) => xs.reduce((a, b) => a + b, 0);
  return {
    n: refs.length,
    under: under / refs.length,
    p1: quantile(ratios, 0.01),
    median: quantile(ratios, 0.5),
    p99: quantile(ratios, 0.99),
    total: sum(estimates) / sum(refs),
  };
}

/**
 * The words and Rust rows of a generated per-character cost table (han-costs.mjs, script-costs.mjs): costs 1-4
 * as two bits a character, 32 characters a u64 word, and each segment's (first, last, offset).
 * @param {number[]} costs @param {{ first: number, last: number }[]} segments
 */
export function packCostTable(costs, segments) {
  const charsPerWord = 32;
  const hex = (n) => n.toString(16).toUpperCase().padStart(4, '0');
  const words = [];
  for (let i = 0; i < costs.length; i += charsPerWord) {
    let w = 0n;
    for (let j = 0; j < charsPerWord && i + j < costs.length; j++) w |= BigInt(costs[i + j] - 1) << BigInt(2 * j);
    words.push(w);
  }
  let offset = 0;
  const segmentRows = segments.map((s) => {
    const row = `    (0x${hex(s.first)}, 0x${hex(s.last)}, ${offset}),`;
    offset += s.last - s.first + 1;
    return row;
  });
  const lines = [];
  for (let i = 0; i < words.length; i += 4) {
    lines.push('    ' + words.slice(i, i + 4).map((w) => `0x${w.toString(16).padStart(16, '0')}`).join(', ') + ',');
  }
  return { words, segmentRows, lines };
}
