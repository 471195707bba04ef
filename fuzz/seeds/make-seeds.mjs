// Writes the committed seed corpora of the fuzz targets (fuzz/seeds/<target>/). Run from the
// repository root: node fuzz/seeds/make-seeds.mjs. Sources: the sample research session
// (tests/fixtures/sample-session.json), shorter ones and the benchmark's synthetic sessions from its
// generator (tests/fixtures/session-generator.mjs), the Zotero fixtures of the
// tests (tests/fixtures/zotero/), and minimal PNG/GIF/WebP/JPEG headers.
// Long strings are clipped so each seed stays small (libFuzzer mutates small inputs far faster);
// the shapes (every part type, tool state, Zotero object) are kept.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { researchSession, syntheticSession } from '../../tests/fixtures/session-generator.mjs';

/** The 44-turn research session of the demo, as the fixture holds it (a fresh copy per call). */
const sampleSession = () => JSON.parse(readFileSync(new URL('../../tests/fixtures/sample-session.json', import.meta.url), 'utf8'));

const root = new URL('.', import.meta.url).pathname;
const fixtures = new URL('../../tests/fixtures/zotero/', import.meta.url).pathname;

/** Clips every string longer than `max` (data URLs keep their header and a valid base64 prefix) and
 * every array to its first `items` entries. */
function clip(value, max, items = 2) {
  if (typeof value === 'string') {
    if (value.length <= max) return value;
    if (value.startsWith('data:')) return value.slice(0, value.indexOf(',') + 1 + 64);
    return value.slice(0, max);
  }
  if (Array.isArray(value)) return value.slice(0, items).map((v) => clip(v, max, items));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clip(v, max, items)]));
  return value;
}

function writeSeeds(target, seeds) {
  const dir = join(root, target);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [name, content] of Object.entries(seeds)) writeFileSync(join(dir, name), content);
  console.log(`${target}: ${Object.keys(seeds).length} seeds`);
}

const json = (v) => JSON.stringify(v);
/** A session with every node kept and each node clipped. */
const clipSession = (session, max, items = 2) => ({ ...session, nodes: session.nodes.map((node) => clip(node, max, items)) });

function longNumbers() {
  const long = `1${'8'.repeat(125)}741597419000`;
  const tool = `{"type":"tool-zoteroSearch","toolCallId":"c1","state":"output-available","input":{"limit":1${'8'.repeat(125)}e-200},"output":{"n":${long},"p":0.30000000000000004441}}`;
  return `{"nodes":[{"id":"u1","parentId":null,"role":"user","createdAt":${long},"parts":[{"type":"text","text":"numbers as written"}]},{"id":"a1","parentId":"u1","role":"assistant","parts":[${tool}]}],"leafId":"a1","branchRevision":2}`;
}

// ---- session_json
const research = clipSession(sampleSession(), 24, 1);
const sessions = {
  'research-2.json': json(clipSession(researchSession({ turns: 2 }), 200)),
  'research-6.json': json(clipSession(researchSession({ turns: 6 }), 80)),
  'research-44.json': json(research),
  'synthetic-branches.json': json(clipSession(syntheticSession({ messages: 10, branches: true, checkpoints: 1 }), 60)),
  'synthetic-checkpoints.json': json(clipSession(syntheticSession({ messages: 16, checkpoints: 2 }), 60)),
  'empty.json': json({ nodes: [], leafId: null, branchRevision: 0 }),
  // Numbers with more digits than a double holds, as text (JSON.stringify cannot write them): both
  // reads must keep them as written (no float_roundtrip: a re-serialized double can read back one unit off).
  'long-numbers.json': longNumbers(),
  'problems.json': json({
    nodes: [
      { id: 'a', parentId: null, role: 'user', parts: [{ type: 'text', text: 'hi' }] },
      { id: 'b', parentId: 'c', role: 'assistant', parts: [] },
      { id: 'c', parentId: 'b', role: 'user', parts: [] },
      { id: 'a', parentId: null, role: 'user', parts: [] },
      { id: 'k', parentId: 'a', checkpoint: { summary: '## Research Goal', firstKeptMessageId: 'x', previousCheckpointId: null, mode: 'manual', tokensBefore: 1, tokensAfter: 1, ledger: { entries: [] }, basis: { leafId: 'a', branchRevision: 1 } } },
    ],
    leafId: 'k',
    branchRevision: 3,
  }),
};
writeSeeds('session_json', sessions);

// ---- parts: each message of the research session, the parts alone, Zotero fixtures as tool output
const parts = {};
const full = clipSession(sampleSession(), 200, 3);
const seenTypes = new Set();
for (const node of full.nodes) {
  for (const part of node.parts ?? []) {
    const kind = part.type + (part.state ? `-${part.state}` : '');
    if (seenTypes.has(kind)) continue;
    seenTypes.add(kind);
    parts[`part-${kind}.json`] = json([part]);
  }
}
parts['messages-research-4.json'] = json(clipSession(researchSession({ turns: 4 }), 120).nodes);
for (const file of readdirSync(fixtures)) {
  const data = clip(JSON.parse(readFileSync(join(fixtures, file), 'utf8')), 120);
  parts[`zotero-${file}`] = json([{ type: 'tool-zotero', toolCallId: 'call_1', state: 'output-available', input: { q: 'x' }, output: data }]);
}
writeSeeds('parts', parts);

// ---- summary_text: checkpoint summaries, a serialized-looking history, markdown heading variants
const summaries = {};
let n = 0;
for (const node of syntheticSession({ messages: 16, checkpoints: 2 }).nodes) {
  if (node.checkpoint) summaries[`checkpoint-${n++}.md`] = node.checkpoint.summary.slice(0, 3000);
}
summaries['headings.md'] = [
  '# Research Goal:', '**User Requirements and Constraints**', '1. Research Progress (completed, active)',
  '__Findings and Evidence__', '### Key Zotero Resources', '2) Decisions', 'Next Steps:', '###### CRITICAL CONTEXT', '- (user) x',
].join('\n');
summaries['history.txt'] = '--- message 1 | user | id u1 ---\nKeep page numbers. We decided to use BM25.\n--- message 2 | assistant | id a1 ---\n[item] key=ABCD2345 title=x\n--- end of history ---';
writeSeeds('summary_text', summaries);

// ---- data_url: raw image headers (the target base64-encodes them) and raw data URLs
const bytes = (...b) => Buffer.from(b.flat());
const u32be = (v) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
const u16le = (v) => [v & 255, (v >>> 8) & 255];
const u24le = (v) => [v & 255, (v >>> 8) & 255, (v >>> 16) & 255];
const ascii = (s) => [...s].map((c) => c.charCodeAt(0));
writeSeeds('data_url', {
  'png.bin': bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], u32be(13), ascii('IHDR'), u32be(1280), u32be(800), [1, 0, 0, 0, 0]),
  'gif.bin': bytes(ascii('GIF89a'), u16le(640), u16le(480), [0, 0, 0]),
  'webp-vp8.bin': bytes(ascii('RIFF'), u32be(0), ascii('WEBPVP8 '), u32be(0), [0, 0, 0, 0x9d, 0x01, 0x2a], u16le(1024), u16le(768)),
  'webp-vp8l.bin': bytes(ascii('RIFF'), u32be(0), ascii('WEBPVP8L'), u32be(0), [0x2f, 0xff, 0x3f, 0xc0, 0x3f]),
  'webp-vp8x.bin': bytes(ascii('RIFF'), u32be(0), ascii('WEBPVP8X'), u32be(10), [0, 0, 0, 0], u24le(1999), u24le(2999)),
  'jpeg.bin': bytes([0xff, 0xd8, 0xff, 0xe0], [0, 16], ascii('JFIF'), [0, 1, 1, 0, 0, 1, 0, 1, 0, 0], [0xff, 0xff, 0xc0, 0, 17, 8], [0x03, 0x20], [0x05, 0x00], [3]),
  'url-png.txt': 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAABQAAAAMgAQAAAABU4/JW',
  'url-text.txt': 'data:text/plain;charset=utf-8,caf%C3%A9 %E4%B8%AD',
  'url-json.txt': 'data:application/json;base64,eyJrZXkiOiJBQkNEMjM0NSJ9',
});
