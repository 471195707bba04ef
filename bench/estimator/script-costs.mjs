// Regenerates src/tokens/script_costs.rs from the reference tokenizers themselves, not from any corpus:
// 1. per character of the alphabetic and syllabic script blocks below (Latin with diacritics, Greek,
//    Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts, Thai and Lao, Georgian, Vietnamese and Greek
//    extended, kana, Hangul syllables) its cost: the largest number of tokens o200k_base, cl100k_base,
//    the Claude tokenizer or Llama 3 give it standing alone, two bits a character (1-4);
// 2. the price of encoded payloads (base64, base64url, hex) as the tokenizers' measured worst case:
//    slices of 32-4,000 characters of real files on this machine (PNG, JPEG, PDF, gzip, ELF, text)
//    encoded each way; per payload kind a rate per character (the worst tokens per character of any
//    and a constant per run: of the bounds over every slice, the one with the least mean ratio to their counts.
// Usage: npm ci --prefix bench/estimator && node bench/estimator/script-costs.mjs [--write]
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { loadTokenizers, packCostTable, repoRoot, TOKENIZERS } from './lib.mjs';

// In lookup order (the scanner searches them in turn); each lies inside one class of `classify`.
export const SCRIPT_SEGMENTS = [
  { first: 0x00c0, last: 0x024f, about: 'Latin-1 letters, Latin Extended-A and -B (Polish, Czech, Turkish, ...)' },
  { first: 0x0370, last: 0x03ff, about: 'Greek and Coptic' },
  { first: 0x0400, last: 0x052f, about: 'Cyrillic and Cyrillic Supplement' },
  { first: 0x0530, last: 0x058f, about: 'Armenian' },
  { first: 0x0590, last: 0x05ff, about: 'Hebrew' },
  { first: 0x0600, last: 0x06ff, about: 'Arabic' },
  { first: 0x0900, last: 0x0dff, about: 'Devanagari, Bengali, Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Sinhala' },
  { first: 0x0e00, last: 0x0eff, about: 'Thai and Lao' },
  { first: 0x10a0, last: 0x10ff, about: 'Georgian' },
  { first: 0x1e00, last: 0x1eff, about: 'Latin Extended Additional (Vietnamese)' },
  { first: 0x1f00, last: 0x1fff, about: 'Greek Extended' },
  { first: 0x3040, last: 0x30ff, about: 'Hiragana and Katakana' },
  { first: 0xac00, last: 0xd7a3, about: 'Hangul syllables' },
];
const PAYLOAD_MIN = 32;

const tk = await loadTokenizers();
const hex = (n) => n.toString(16).toUpperCase().padStart(4, '0');

const costs = [];
const stats = [];
for (const seg of SCRIPT_SEGMENTS) {
  const classes = [0, 0, 0, 0, 0];
  for (let cp = seg.first; cp <= seg.last; cp++) {
    const ch = String.fromCodePoint(cp);
    // Unassigned code points cost their UTF-8 bytes in every byte-level tokenizer; capped at 4.
    const cost = Math.min(4, Math.max(1, ...TOKENIZERS.map((k) => tk[k](ch))));
    costs.push(cost);
    classes[cost]++;
  }
  stats.push(`${seg.about} (U+${hex(seg.first)}-U+${hex(seg.last)}): ${classes.slice(1).map((n, i) => `${n} cost ${i + 1}`).join(', ')}`);
}

// ---- payloads ----
function sampleFiles() {
  const found = [];
  const walk = (dir, depth) => {
    if (depth > 6 || found.length > 400) return;
    let entries;
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch { return; }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p, depth + 1);
      else if (e.isFile() && /\.(png|jpe?g|pdf|gz)$/.test(e.name)) found.push(p);
    }
  };
  walk('/usr/share', 0);
  for (const bin of ['/usr/bin/ls', '/usr/bin/cat', '/usr/bin/env']) if (fs.existsSync(bin)) found.push(bin);
  // Text files too: base64 of text (a .bib, a .txt attachment) splits finer than of compressed bytes.
  for (const text of fs.readdirSync('/usr/share/common-licenses').sort()) found.push(path.join('/usr/share/common-licenses', text));
  return found;
}
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 0x100000000; };
}
const ENCODINGS = {
  base64: (b) => b.toString('base64'),
  base64url: (b) => b.toString('base64url'),
  hex: (b) => b.toString('hex'),
  HEX: (b) => b.toString('hex').toUpperCase(),
};
const files = sampleFiles();
const r = rng(0x5eed);
const samples = { base64: [], hex: [] };
for (const file of files) {
  const buf = fs.readFileSync(file);
  if (buf.length < 64) continue;
  for (const [enc, encode] of Object.entries(ENCODINGS)) {
    const kind = enc.toLowerCase() === 'hex' ? 'hex' : 'base64';
    // A slice of the file at a random place, at log-uniform length.
    const len = Math.round(Math.exp(Math.log(PAYLOAD_MIN) + r() * (Math.log(4000) - Math.log(PAYLOAD_MIN))));
    const at = Math.floor(r() * Math.max(1, buf.length - len));
    const text = encode(buf.subarray(at, at + len)).slice(0, len);
    if (text.length < PAYLOAD_MIN) continue;
    samples[kind].push({ file: path.basename(file) + ":" + enc, len: text.length, tokens: Math.max(...TOKENIZERS.map((k) => tk[k](text))) });
  }
}
const payload = {};
for (const [kind, list] of Object.entries(samples)) {
  // The bound rate * characters + run over every slice with the least mean ratio to the slices' counts.
  let best;
  for (let run = 0; run <= 20000; run += 100) {
    const rate = Math.ceil(Math.max(...list.map((s) => (1000 * s.tokens - run) / s.len)));
    const total = list.reduce((a, s) => a + (rate * s.len + run) / s.tokens, 0);
    if (!best || total < best.total) best = { rate, run, total };
  }
  payload[kind] = { rate: best.rate, run: best.run, n: list.length };
}
if (process.env.DEBUG) for (const [k, l] of Object.entries(samples)) console.error(k, l.map((s) => ({ ...s, ex: s.tokens - payload[k].rate * s.len / 1000 })).sort((a, b) => b.ex - a.ex).slice(0, 8).map((s) => `${s.file} ${s.len} ${s.tokens} ${s.ex.toFixed(1)}`).join("\n"));
const digest = createHash('sha1').update(JSON.stringify(Object.values(samples).map((l) => l.map((s) => [s.len, s.tokens])))).digest('hex').slice(0, 12);

const { words, segmentRows, lines } = packCostTable(costs, SCRIPT_SEGMENTS);
const file = [
  '// Generated by `node bench/estimator/script-costs.mjs --write`, do not edit.',
  '// Per character of the blocks below: the largest number of tokens o200k_base, cl100k_base, the Claude',
  '// tokenizer and Llama 3 give it standing alone (capped at 4), minus one, two bits a character',
  '// (character k of a segment is bits 2 * (k % 32) of word k / 32 after the segment\'s offset).',
  ...stats.map((s) => `// ${s}.`),
  '',
  '/// (first, last, offset in characters into [`SCRIPT_COST_BITS`]) of each block the table covers.',
  `pub(crate) const SCRIPT_COST_SEGMENTS: [(u32, u32, usize); ${SCRIPT_SEGMENTS.length}] = [`,
  ...segmentRows,
  '];',
  '',
  `pub(crate) const SCRIPT_COST_BITS: [u64; ${words.length}] = [`,
  ...lines,
  '];',
  '',
  `// Encoded payloads, the worst case of the four tokenizers on ${samples.base64.length} base64 / base64url and`,
  `// ${samples.hex.length} hex slices (${PAYLOAD_MIN}-4,000 characters) of ${files.length} files under /usr/share and /usr/bin`,
  `// (PNG, JPEG, PDF, gzip, ELF, license texts; samples ${digest}): thousandths of a token per character and`,
  `// per run: of the bounds over every slice, the one with the least mean ratio to their counts.`,
  `pub(crate) const BASE64_CHAR_MILLI: u64 = ${payload.base64.rate};`,
  `pub(crate) const BASE64_RUN_MILLI: u64 = ${payload.base64.run};`,
  `pub(crate) const HEX_CHAR_MILLI: u64 = ${payload.hex.rate};`,
  `pub(crate) const HEX_RUN_MILLI: u64 = ${payload.hex.run};`,
  '',
].join('\n');

console.error(stats.join('\n'));
console.error(`payloads: ${JSON.stringify(payload)}`);
if (process.argv.includes('--write')) {
  const out = path.join(repoRoot, 'src', 'tokens', 'script_costs.rs');
  fs.writeFileSync(out, file);
  console.error(`wrote ${costs.length} characters in ${words.length} words (${words.length * 8} bytes) into ${out}`);
}
