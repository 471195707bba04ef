// The sample sessions of the tests and benchmarks (tests/fixtures/): the research session the demo
// and several tests read from sample-session.json, and the generator's synthetic ones: shapes,
// Zotero keys, the pasted PNG, and determinism (the JSON fixture is what the generator writes).
// Neither ships in the package; both are imported relative to this file, which works from the
// repository and from the copy of tests/ that ./build.sh test runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';

import { researchSession, syntheticSession, SCREENSHOT_WIDTH, SCREENSHOT_HEIGHT, SUMMARY_SECTIONS as SECTIONS } from '../fixtures/session-generator.mjs';
const sampleSession = () => JSON.parse(readFileSync(new URL('../fixtures/sample-session.json', import.meta.url), 'utf8'));

const ZOTERO_KEY = /^[23456789ABCDEFGHIJKLMNPQRSTUVWXYZ]{8}$/;
/** Root-to-leaf branch by parentId; fails on a missing parent or a cycle. */
function branchOf(session) {
  const byId = new Map(session.nodes.map((n) => [n.id, n]));
  const branch = [];
  const seen = new Set();
  for (let id = session.leafId; id !== null; ) {
    assert.ok(!seen.has(id), `cycle at ${id}`);
    seen.add(id);
    const node = byId.get(id);
    assert.ok(node, `node ${id} on the parent chain is missing`);
    branch.push(node);
    id = node.parentId;
  }
  return branch.reverse();
}

const allParts = (nodes) => nodes.filter((n) => !n.checkpoint).flatMap((n) => n.parts);
const toolParts = (nodes) => allParts(nodes).filter((p) => p.type.startsWith('tool-'));

/** Every Zotero key-valued field anywhere inside a value. */
function zoteroKeys(value, out = []) {
  if (Array.isArray(value)) for (const v of value) zoteroKeys(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (['key', 'parentItem', 'attachmentKey', 'itemKey'].includes(k) && typeof v === 'string') out.push([k, v]);
      else if (k === 'parentCollection' && typeof v === 'string') out.push([k, v]);
      else if ((k === 'collections' || k === 'itemKeys') && Array.isArray(v)) for (const c of v) out.push([k, c]);
      else zoteroKeys(v, out);
    }
  }
  return out;
}

/** Zotero items (toJSON form), whether bare or inside a Web API wrapper. */
function zoteroObjects(value, out = []) {
  if (Array.isArray(value)) for (const v of value) zoteroObjects(v, out);
  else if (value && typeof value === 'object') {
    if (typeof value.itemType === 'string' && typeof value.key === 'string') out.push(value);
    for (const v of Object.values(value)) zoteroObjects(v, out);
  }
  return out;
}

// CRC-32 (PNG chunk checksum), small enough to inline; node:zlib has crc32 only from Node 22.
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const b of bytes) {
    crc ^= b;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const session = sampleSession();

test('the research session is a well-formed tree of unique ids whose leaf reaches the root', () => {
  const ids = session.nodes.map((n) => n.id);
  assert.equal(new Set(ids).size, ids.length, 'ids are unique');
  const branch = branchOf(session);
  assert.equal(branch[0].parentId, null);
  assert.equal(branch.length, session.nodes.length, 'the demo session is one linear branch');
  assert.ok(Number.isSafeInteger(session.branchRevision) && session.branchRevision > 0);
  for (const node of session.nodes) {
    assert.ok(['user', 'assistant'].includes(node.role), `${node.id} has a role`);
    assert.ok(Array.isArray(node.parts) && node.parts.length > 0, `${node.id} has parts`);
    assert.equal(typeof node.createdAt, 'number');
  }
});

test('it has 40+ user turns, alternating with assistant responses, ending with an answered open request', () => {
  const branch = branchOf(session);
  const users = branch.filter((n) => n.role === 'user');
  assert.ok(users.length >= 40, `${users.length} user turns`);
  branch.forEach((n, i) => assert.equal(n.role, i % 2 === 0 ? 'user' : 'assistant', `node ${i}`));
  const lastUser = users.at(-1).parts.find((p) => p.type === 'text').text;
  assert.match(lastUser, /related-work section/);
  assert.equal(branch.at(-1).role, 'assistant');
});

test('every required kind of content is present', () => {
  const parts = allParts(session.nodes);
  const tools = toolParts(session.nodes);
  const types = new Set(tools.map((p) => p.type));
  for (const type of [
    'tool-zoteroSearch', 'tool-zoteroGetItem', 'tool-readPdfPage', 'tool-zoteroAnnotations',
    'tool-readEpubSection', 'tool-zoteroCollections', 'tool-zoteroTags', 'tool-zoteroAddTag',
  ]) {
    assert.ok(types.has(type), `${type} missing`);
  }
  const failed = tools.filter((p) => p.state === 'output-error');
  assert.equal(failed.length, 1);
  assert.ok(failed[0].errorText.length > 0 && failed[0].output === undefined);
  const denied = tools.filter((p) => p.state === 'output-denied');
  assert.equal(denied.length, 1);
  assert.equal(denied[0].type, 'tool-zoteroAddTag');
  assert.equal(denied[0].approval.approved, false);
  assert.ok(denied[0].approval.id);
  assert.ok(tools.every((p) => ['output-available', 'output-error', 'output-denied'].includes(p.state)), 'no pending tool part');
  assert.ok(parts.some((p) => p.type === 'reasoning' && p.text.length > 0));
  assert.ok(parts.some((p) => p.type === 'step-start'));
  assert.ok(parts.some((p) => p.type === 'file' && p.mediaType === 'image/png' && p.url.startsWith('data:image/png;base64,')));

  const userTexts = session.nodes.filter((n) => n.role === 'user').flatMap((n) => n.parts.filter((p) => p.type === 'text').map((p) => p.text));
  assert.ok(userTexts.includes('no, only peer-reviewed papers after 2020'));
  assert.ok(userTexts.some((t) => t.startsWith('keep the page numbers')));
  assert.ok(userTexts.some((t) => /^[\u4e00-\u9fff]/.test(t)), 'a question in Chinese');
  const items = zoteroObjects(tools.map((p) => p.output));
  assert.ok(items.some((i) => i.language === 'zh-CN' && /[\u4e00-\u9fff]/.test(i.title) && /[\u4e00-\u9fff]/.test(i.abstractNote)));
  assert.ok(items.some((i) => i.itemType === 'journalArticle' && i.language === 'en'));

  const epub = tools.find((p) => p.type === 'tool-readEpubSection').output;
  assert.equal(typeof epub.sectionIndex, 'number');
  assert.match(epub.href, /\.xhtml$/);
  assert.match(epub.cfi, /^epubcfi\(\/6\/\d+!/);
});

test('PDF pages carry attachment, page index, label, count and 1-4 KB of text', () => {
  const pages = toolParts(session.nodes).filter((p) => p.type === 'tool-readPdfPage');
  assert.ok(pages.length >= 10);
  for (const { input, output } of pages) {
    assert.equal(output.attachmentKey, input.attachmentKey);
    assert.equal(output.pageIndex, input.pageIndex);
    assert.ok(output.pageIndex < output.pageCount);
    assert.equal(typeof output.pageLabel, 'string');
    const bytes = Buffer.byteLength(output.text);
    assert.ok(bytes >= 1024 && bytes <= 4096, `page text of ${bytes} bytes`);
  }
});

test('annotations, attachments, collections and tags have Zotero shapes', () => {
  const objects = zoteroObjects(toolParts(session.nodes).map((p) => p.output));
  const annotations = objects.filter((o) => o.itemType === 'annotation');
  assert.ok(annotations.length >= 8);
  const types = new Set(annotations.map((a) => a.annotationType));
  for (const t of ['highlight', 'underline', 'note', 'ink']) assert.ok(types.has(t), `annotation type ${t}`);
  for (const a of annotations) {
    assert.match(a.annotationColor, /^#[0-9a-f]{6}$/);
    assert.equal(typeof a.annotationPageLabel, 'string');
    const position = JSON.parse(a.annotationPosition);
    assert.ok(Number.isInteger(position.pageIndex));
    assert.ok(Array.isArray(position.rects) || Array.isArray(position.paths));
    if (a.annotationType === 'highlight' || a.annotationType === 'underline') assert.ok(a.annotationText);
    else assert.equal(a.annotationText, undefined);
  }
  const attachments = objects.filter((o) => o.itemType === 'attachment');
  assert.ok(attachments.some((a) => a.contentType === 'application/pdf'));
  assert.ok(attachments.some((a) => a.contentType === 'application/epub+zip'));
  const wrapped = toolParts(session.nodes).flatMap((p) => (Array.isArray(p.output) ? p.output : [p.output]))
    .filter((o) => o && o.data && o.library && o.links && o.meta);
  assert.ok(wrapped.length > 0, 'some results in the Web API wrapper');
  for (const w of wrapped) assert.equal(w.key, w.data.key);
  const collections = toolParts(session.nodes).find((p) => p.type === 'tool-zoteroCollections').output;
  assert.ok(collections.every((c) => typeof c.data.name === 'string' && 'parentCollection' in c.data));
  const tags = toolParts(session.nodes).find((p) => p.type === 'tool-zoteroTags').output;
  assert.ok(tags.every((t) => typeof t.tag === 'string' && [0, 1].includes(t.meta.type)));
});

test('every Zotero key is 8 characters of Zotero\'s alphabet', () => {
  const keys = zoteroKeys(toolParts(session.nodes).map((p) => [p.input, p.output]));
  assert.ok(keys.length > 50);
  for (const [field, key] of keys) assert.match(key, ZOTERO_KEY, `${field} ${key}`);
});

test('the pasted screenshot is a real PNG whose IHDR gives its size', () => {
  const file = allParts(session.nodes).find((p) => p.type === 'file');
  const bytes = Buffer.from(file.url.slice('data:image/png;base64,'.length), 'base64');
  assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  assert.equal(bytes.readUInt32BE(8), 13);
  assert.equal(bytes.subarray(12, 16).toString('latin1'), 'IHDR');
  assert.equal(bytes.readUInt32BE(16), SCREENSHOT_WIDTH);
  assert.equal(bytes.readUInt32BE(20), SCREENSHOT_HEIGHT);
  assert.deepEqual([SCREENSHOT_WIDTH, SCREENSHOT_HEIGHT], [1280, 800]);
  assert.equal(bytes.readUInt32BE(29), crc32(bytes.subarray(12, 29)), 'IHDR CRC');
  assert.equal(bytes.subarray(bytes.length - 8, bytes.length - 4).toString('latin1'), 'IEND');
});

test('usage is on most but not all responses, plausible and growing with the context', () => {
  const assistants = session.nodes.filter((n) => n.role === 'assistant');
  const withUsage = assistants.filter((n) => n.metadata?.usage);
  assert.ok(withUsage.length >= assistants.length * 0.8 && withUsage.length < assistants.length);
  let previous = 0;
  for (const { metadata: { usage } } of withUsage) {
    for (const field of ['inputTokens', 'outputTokens', 'totalTokens', 'reasoningTokens', 'cachedInputTokens']) {
      assert.ok(Number.isSafeInteger(usage[field]) && usage[field] >= 0, field);
    }
    assert.equal(usage.totalTokens, usage.inputTokens + usage.outputTokens);
    assert.ok(usage.reasoningTokens <= usage.outputTokens);
    assert.ok(usage.cachedInputTokens <= usage.inputTokens);
    assert.ok(usage.inputTokens >= previous, 'input grows with the context');
    previous = usage.inputTokens;
  }
  assert.ok(previous > 32000, `the last baseline (${previous} tokens) is over a 32k window`);
});

test('the generator is deterministic per seed, and sample-session.json is its default research session', () => {
  assert.equal(JSON.stringify(researchSession()), JSON.stringify(session));
  assert.deepStrictEqual(researchSession(), session);
  assert.notEqual(JSON.stringify(researchSession({ seed: 2 })), JSON.stringify(session));
  const short = researchSession({ turns: 5 });
  assert.equal(short.nodes.filter((n) => n.role === 'user').length, 5);
  const long = researchSession({ turns: 50 });
  assert.equal(long.nodes.filter((n) => n.role === 'user').length, 50);
  branchOf(long);
});

test('synthetic sessions: exact message count, realistic sizes, no shared ids', () => {
  const s = syntheticSession({ messages: 300, seed: 3 });
  assert.equal(s.nodes.length, 300);
  assert.equal(new Set(s.nodes.map((n) => n.id)).size, 300);
  assert.equal(branchOf(s).length, 300);
  const sizes = toolParts(s.nodes).map((p) => Buffer.byteLength(JSON.stringify(p.output)));
  assert.ok(sizes.length > 50);
  assert.ok(Math.min(...sizes) >= 900 && Math.max(...sizes) <= 52 * 1024, `tool results ${Math.min(...sizes)}-${Math.max(...sizes)} bytes`);
  assert.equal(JSON.stringify(syntheticSession({ messages: 300, seed: 3 })), JSON.stringify(s));
});

test('synthetic sessions with branches and three checkpoints follow the contract', () => {
  const s = syntheticSession({ messages: 1000, seed: 5, branches: true, checkpoints: 3 });
  const messages = s.nodes.filter((n) => !n.checkpoint);
  assert.equal(messages.length, 1000);
  assert.equal(new Set(s.nodes.map((n) => n.id)).size, s.nodes.length);
  const branch = branchOf(s);
  assert.ok(branch.length < s.nodes.length, 'abandoned branches are off the active branch');
  const children = new Map();
  for (const n of s.nodes) children.set(n.parentId, (children.get(n.parentId) ?? 0) + 1);
  assert.ok([...children.values()].some((c) => c > 1), 'some node has siblings');

  const checkpoints = branch.filter((n) => n.checkpoint);
  assert.equal(checkpoints.length, 3);
  let previousId = null;
  let previousBoundary = -1;
  for (const node of checkpoints) {
    const c = node.checkpoint;
    const at = branch.indexOf(node);
    assert.equal(c.previousCheckpointId, previousId);
    assert.equal(c.basis.leafId, node.parentId);
    assert.equal(c.mode, 'auto');
    assert.ok(c.tokensAfter < c.tokensBefore);
    let last = -1;
    for (const heading of SECTIONS) {
      const i = c.summary.indexOf(heading);
      assert.ok(i > last, `${heading} in order`);
      last = i;
    }
    const boundary = branch.findIndex((n) => n.id === c.firstKeptMessageId);
    assert.ok(boundary >= 0 && boundary < at, 'the boundary is on the ancestor chain');
    assert.equal(branch[boundary].role, 'user');
    assert.ok(boundary >= previousBoundary, 'boundaries are monotonic');
    assert.ok(c.ledger.entries.length > 0);
    for (const e of c.ledger.entries) assert.match(e.key, ZOTERO_KEY);
    previousId = node.id;
    previousBoundary = boundary;
  }
});

test('the wasm core reads the sample sessions without problems', async (t) => {
  if (!process.env.BIBGENIE_PKG) {
    t.skip('needs the packed package (./build.sh test)');
    return;
  }
  const compaction = await import(process.env.BIBGENIE_PKG);
  await compaction.init();
  const synthetic = syntheticSession({ messages: 400, seed: 9, branches: true, checkpoints: 3 });
  for (const s of [session, synthetic]) {
    const { problems, readOnly } = compaction.readBranch(s);
    assert.deepEqual(problems, []);
    assert.equal(readOnly, false);
  }
  // The newest checkpoint governs the projection: its summary, then its kept tail.
  const newest = branchOf(synthetic).findLast((n) => n.checkpoint);
  const projection = compaction.project(synthetic);
  assert.equal(projection.checkpointId, newest.id);
  assert.equal(projection.messages[1].id, newest.checkpoint.firstKeptMessageId);
});

/** ../shared/reference/zotero-web-api beside the repository, or beside its main checkout when this is
 * a git worktree elsewhere; BIBGENIE_REFERENCE_DIR names another. */
function sharedReferenceDir() {
  const root = process.env.BIBGENIE_REPO_ROOT ?? new URL('../..', import.meta.url).pathname;
  const candidates = [process.env.BIBGENIE_REFERENCE_DIR, join(root, '..', 'shared', 'reference', 'zotero-web-api')];
  try {
    const common = execFileSync('git', ['-C', root, 'rev-parse', '--path-format=absolute', '--git-common-dir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    candidates.push(join(dirname(common), '..', 'shared', 'reference', 'zotero-web-api'));
  } catch {
    // not a git checkout: only the paths above
  }
  return candidates.find((dir) => dir && existsSync(dir));
}

test('field names match the real Zotero responses in the shared reference (when present)', (t) => {
  const dir = sharedReferenceDir();
  if (!dir) {
    // Allowed in tests/allowed-skips.txt: a fresh clone has no ../shared (its README: tests must not depend on it).
    t.skip('no ../shared/reference/zotero-web-api beside the repository');
    return;
  }
  const reference = zoteroObjects(readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8'))));
  const known = new Map();
  for (const o of reference) {
    const set = known.get(o.itemType) ?? new Set();
    for (const k of Object.keys(o)) set.add(k);
    known.set(o.itemType, set);
  }
  const ours = zoteroObjects(toolParts(session.nodes).map((p) => p.output));
  let compared = 0;
  for (const o of ours) {
    const set = known.get(o.itemType);
    if (!set) continue;
    compared++;
    for (const k of Object.keys(o)) if (k !== 'children') assert.ok(set.has(k), `${o.itemType}.${k} is not a field Zotero uses there`);
  }
  assert.ok(compared > 10);
});
