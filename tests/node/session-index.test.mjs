// The pure calls and the held session: the stateless project/history/readBranch/estimate/plan read
// the session they are given and hold nothing between calls; SessionIndex holds one and answers
// with the node objects it was handed. Here every answer is compared with the text path (the wasm
// SessionIndex of the installed package's bibgenie_compaction.js reading the whole session's text,
// one per call, where the package reads node by node), after repeats, appends, leaf moves, replaced
// and removed nodes and bad nodes; and the message objects answered must be the caller's own
// (identity, not copies).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as compaction from 'bibgenie-compaction';
import { resolveInstalled } from './consumer-env.mjs';

await compaction.init();
const packageDir = dirname(resolveInstalled('bibgenie-compaction'));
// The same module instance the package uses (same URL), so it is initialized already.
const text = await import(pathToFileURL(join(packageDir, 'bibgenie_compaction.js')).href);
const { syntheticSession } = await import('../fixtures/session-generator.mjs');

/** `use` on the generated module's SessionIndex of the session's whole text, freed after. */
function onWholeText(session, use) {
  const index = text.SessionIndex.from(session);
  try {
    return use(index);
  } finally {
    index.free();
  }
}
/** The text path's calls, each reading the whole session. */
const wholeText = {
  projectPositions: (session) => onWholeText(session, (index) => index.projectPositions()),
  historyPositions: (session) => onWholeText(session, (index) => index.historyPositions()),
  readBranchPositions: (session) => onWholeText(session, (index) => index.readBranchPositions()),
  estimate: (session, model, options) => onWholeText(session, (index) => index.estimate(model, options)),
  plan: (session, model, options) => onWholeText(session, (index) => index.plan(model, options)),
};

const SMALL = Object.freeze({ id: 'small', contextWindow: 16_000, maxOutputTokens: 2_000 });
const LARGE = Object.freeze({ id: 'large', contextWindow: 200_000, maxOutputTokens: 32_000, replaysReasoning: true });
const DRAFT = { role: 'user', parts: [{ type: 'text', text: 'And the page label of that claim?' }] };

/** The outcome of `fn`: its value, or the code and message of what it threw. */
function outcome(fn) {
  try {
    return { value: fn() };
  } catch (e) {
    return { code: e.code, message: e.message };
  }
}

/** Text-path answers, arrays built from `session.nodes` (what the package answered before the cache). */
function reference(session) {
  const nodes = session.nodes;
  return {
    project: outcome(() => {
      const { items, checkpointId, keptFromId } = wholeText.projectPositions(session);
      return { checkpointId, keptFromId, messages: items.map((i) => (typeof i === 'number' ? nodes[i] : i.summary)) };
    }),
    history: outcome(() => wholeText.historyPositions(session).map((i) => nodes[i])),
    readBranch: outcome(() => {
      const { nodes: positions, problems, readOnly } = wholeText.readBranchPositions(session);
      return { nodes: positions.map((i) => nodes[i]), problems, readOnly };
    }),
    estimate: outcome(() => wholeText.estimate(session, SMALL, { draft: DRAFT })),
    estimateLarge: outcome(() => wholeText.estimate(session, LARGE)),
    auto: outcome(() => wholeText.plan(session, SMALL, { mode: 'auto' })),
    manual: outcome(() => wholeText.plan(session, LARGE, { mode: 'manual' })),
    preflight: outcome(() => wholeText.plan(session, SMALL, { mode: 'preflight', draft: DRAFT })),
  };
}

function cached(session) {
  return {
    project: outcome(() => compaction.project(session)),
    history: outcome(() => compaction.history(session)),
    readBranch: outcome(() => compaction.readBranch(session)),
    estimate: outcome(() => compaction.estimate(session, SMALL, { draft: DRAFT })),
    estimateLarge: outcome(() => compaction.estimate(session, LARGE)),
    auto: outcome(() => compaction.plan(session, SMALL, { mode: 'auto' })),
    manual: outcome(() => compaction.plan(session, LARGE, { mode: 'manual' })),
    preflight: outcome(() => compaction.plan(session, SMALL, { mode: 'preflight', draft: DRAFT })),
  };
}

/** Cached answers equal the text path's, and every node answered is one of `session.nodes` itself. */
function assertSame(session, label) {
  const want = reference(session);
  const got = cached(session);
  assert.deepStrictEqual(got, want, label);
  const own = new Set(Array.isArray(session?.nodes) ? session.nodes : []);
  for (const node of got.history.value ?? []) assert.ok(own.has(node), `${label}: history answers the caller's objects`);
  for (const node of got.readBranch.value?.nodes ?? []) assert.ok(own.has(node), `${label}: readBranch answers the caller's objects`);
  const messages = got.project.value?.messages ?? [];
  const fromNodes = messages.filter((m) => own.has(m));
  // Every projected message but the summary is a node object of the session.
  assert.ok(fromNodes.length >= messages.length - 1, `${label}: project answers the caller's objects`);
  return got;
}

const user = (id, parentId, words) => ({ id, parentId, role: 'user', parts: [{ type: 'text', text: words }] });
const assistant = (id, parentId, words) => ({ id, parentId, role: 'assistant', parts: [{ type: 'text', text: words }] });

test('repeated calls, appends and leaf moves answer as a fresh read of the text', () => {
  const base = syntheticSession({ messages: 120, seed: 7, branches: true, checkpoints: 2 });
  let session = { ...base, nodes: [...base.nodes] };
  const first = assertSame(session, 'first call');
  assert.equal(first.project.code, undefined, 'the sample session projects');
  assertSame(session, 'same objects again');
  assertSame({ ...session }, 'a new session object around the same nodes');

  // Appends: a new array with the same objects plus new ones, the leaf on the newest.
  let leaf = session.leafId;
  for (let k = 0; k < 6; k++) {
    const node = k % 2 === 0 ? user(`x-u${k}`, leaf, `follow-up question ${k} `.repeat(40)) : assistant(`x-a${k}`, leaf, `answer ${k} (p. 12) `.repeat(60));
    session = { nodes: [...session.nodes, node], leafId: node.id, branchRevision: session.branchRevision + 1 };
    leaf = node.id;
    assertSame(session, `after append ${k}`);
  }
  // Two appends at once, the leaf moving two steps.
  const a = user('x-two-u', leaf, 'two at once');
  const b = assistant('x-two-a', a.id, 'both sent in one call');
  session = { nodes: [...session.nodes, a, b], leafId: b.id, branchRevision: session.branchRevision + 1 };
  assertSame(session, 'after two appends');

  // The leaf moves back to an older node (another branch), then forward again.
  const older = session.nodes.find((n) => n.role === 'assistant' && n.id !== session.leafId && !n.checkpoint);
  assertSame({ ...session, leafId: older.id, branchRevision: session.branchRevision + 1 }, 'leaf moved to an older node');
  assertSame({ ...session, branchRevision: session.branchRevision + 2 }, 'leaf back');
  // Only the revision changed.
  assertSame({ ...session, branchRevision: session.branchRevision + 3 }, 'revision only');
  // A leaf that is not a node: the same error as the text path.
  const missing = assertSame({ ...session, leafId: 'no-such-node', branchRevision: session.branchRevision + 4 }, 'missing leaf');
  assert.equal(missing.readBranch.value.readOnly, true);
  assertSame(session, 'back to the real leaf');
});

test('a replaced node object is new: the session is read again and answers change with it', () => {
  const base = syntheticSession({ messages: 60, seed: 11 });
  const session = { ...base, nodes: [...base.nodes] };
  const before = assertSame(session, 'before');
  const position = session.nodes.findIndex((n, i) => i > 40 && n.role === 'assistant');
  const old = session.nodes[position];
  const edited = { ...old, parts: [...old.parts, { type: 'text', text: 'A long correction of the answer. '.repeat(300) }] };
  const replaced = { ...session, nodes: session.nodes.map((n, i) => (i === position ? edited : n)) };
  const after = assertSame(replaced, 'after replacing a node object');
  assert.notDeepStrictEqual(after.manual.value, before.manual.value, 'the new object was read (its tokens count)');
  assert.ok(after.history.value.includes(edited) && !after.history.value.includes(old), 'history holds the new object');
  // The original objects still answer as before (its index may have been dropped: read again).
  assert.deepStrictEqual(cached(session), before);
  // Fewer nodes than an index holds: the shorter session is read as it is.
  const cut = position - 1;
  assertSame({ nodes: session.nodes.slice(0, cut), leafId: session.nodes[cut - 1].id, branchRevision: 3 }, 'shorter session');
});

test('bad nodes, duplicate ids and invalid sessions give the text path answers and errors', () => {
  const base = syntheticSession({ messages: 30, seed: 5 });
  const session = { ...base, nodes: [...base.nodes] };
  assertSame(session, 'good');
  const leaf = session.leafId;
  const duplicate = user(session.nodes[3].id, leaf, 'same id as an older node');
  assertSame({ nodes: [...session.nodes, duplicate], leafId: duplicate.id, branchRevision: 99 }, 'duplicate id appended');
  const invalid = { id: 'bad', parentId: leaf, role: 'user', parts: 'not an array' };
  assertSame({ nodes: [...session.nodes, invalid], leafId: 'bad', branchRevision: 99 }, 'invalid node appended');
  const orphan = user('orphan', 'nobody', 'parent missing');
  assertSame({ nodes: [...session.nodes, orphan], leafId: 'orphan', branchRevision: 99 }, 'missing parent');
  assertSame(session, 'good again');
  for (const [label, bad] of [
    ['leafId number', { ...session, leafId: 5 }],
    ['leafId empty', { ...session, leafId: '' }],
    ['leafId null', { ...session, leafId: null }],
    ['revision negative', { ...session, branchRevision: -1 }],
    ['revision fraction', { ...session, branchRevision: 1.5 }],
    ['revision string', { ...session, branchRevision: '3' }],
    ['nodes not an array', { ...session, nodes: {} }],
    ['no nodes', { nodes: [], leafId: null, branchRevision: 0 }],
    ['a hole', { ...session, nodes: [...session.nodes, undefined] }],
  ]) assertSame(bad, label);
  assert.deepStrictEqual(outcome(() => compaction.plan(null, SMALL, { mode: 'auto' })), outcome(() => wholeText.plan(null, SMALL, { mode: 'auto' })));
  assert.deepStrictEqual(outcome(() => compaction.plan(session, { contextWindow: -1 }, { mode: 'auto' })), outcome(() => wholeText.plan(session, { contextWindow: -1 }, { mode: 'auto' })));
  assert.deepStrictEqual(outcome(() => compaction.plan(session, SMALL, { mode: 'sideways' })), outcome(() => wholeText.plan(session, SMALL, { mode: 'sideways' })));
});

test('deeply nested nodes, appended or in the first read, answer as the text path', () => {
  const base = syntheticSession({ messages: 16, seed: 3 });
  const nested = (levels) => { let v = 'core'; for (let i = 0; i < levels; i++) v = [v]; return v; };
  for (const levels of [55, 58, 59, 60, 61, 62, 63, 64, 90, 120, 122, 123, 124, 125, 126, 127, 130]) {
    const deep = { id: `deep${levels}`, parentId: base.leafId, role: 'user', parts: [{ type: 'data-nested', data: nested(levels) }] };
    const session = { ...base, nodes: [...base.nodes] };
    assertSame(session, 'before');
    // Appended to a held index, and read fresh (a new index built node by node).
    const grown = { nodes: [...session.nodes, deep], leafId: deep.id, branchRevision: base.branchRevision + 1 };
    assertSame(grown, `appended, ${levels} levels`);
    assertSame({ ...grown, nodes: grown.nodes.map((n) => ({ ...n })) }, `fresh objects, ${levels} levels`);
  }
});

test('several sessions at once each keep their answers', () => {
  const sessions = [1, 2, 3, 4, 5, 6].map((seed) => syntheticSession({ messages: 20 + 4 * seed, seed }));
  const want = sessions.map(reference);
  for (let round = 0; round < 3; round++) {
    sessions.forEach((s, i) => assert.deepStrictEqual(cached(s), want[i], `session ${i}, round ${round}`));
  }
});

test('SessionIndex answers with the node objects it was handed', () => {
  const base = syntheticSession({ messages: 40, seed: 9, checkpoints: 1 });
  const session = { ...base, nodes: [...base.nodes] };
  const index = compaction.SessionIndex.from(session);
  try {
    const own = new Set(session.nodes);
    const history = index.history();
    assert.deepStrictEqual(history, reference(session).history.value);
    assert.ok(history.every((n) => own.has(n)));
    const projected = index.project();
    assert.deepStrictEqual(projected, reference(session).project.value);
    const node = user('si-u', session.leafId, 'one more');
    index.append(node);
    index.setLeaf(node.id, session.branchRevision + 1);
    assert.equal(index.history().at(-1), node, 'the appended object itself');
    assert.equal(index.project().messages.at(-1), node);
    assert.equal(index.readBranch().nodes.at(-1), node);
    const grown = { nodes: [...session.nodes, node], leafId: node.id, branchRevision: session.branchRevision + 1 };
    assert.deepStrictEqual(index.plan(SMALL, { mode: 'preflight', draft: DRAFT }), reference(grown).preflight.value);
    const held = index.toSession();
    assert.deepStrictEqual(held, grown);
    assert.ok(held.nodes.every((n, i) => n === grown.nodes[i]), 'toSession answers the objects handed in');
    assert.throws(() => index.append(node), (e) => e.code === 'invalid-node', 'a refused append keeps nothing');
    assert.equal(index.history().length, history.length + 1);
  } finally {
    index.free();
  }
  assert.throws(() => new compaction.SessionIndex(), TypeError);
});

test('SessionIndex.summaryRequest gives the stateless summaryRequest of the same plan', () => {
  const session = syntheticSession({ messages: 60, seed: 4, checkpoints: 1 });
  const index = compaction.SessionIndex.from(session);
  try {
    const plan = index.plan(SMALL, { mode: 'manual' });
    assert.equal(plan.action, 'compact', 'the case needs a compacting plan');
    // The nonce is fresh per request: compared with it masked.
    const masked = (request) => ({ ...request, prompt: request.prompt.replace(/[0-9a-f]{32}/g, 'NONCE') });
    const held = index.summaryRequest(plan, SMALL);
    assert.deepStrictEqual(masked(held), masked(compaction.summaryRequest(session, plan, SMALL)));
    assert.ok(held.prompt.length > 0 && held.maxOutputTokens > 0);
  } finally {
    index.free();
  }
});

test('the held summary message follows the newest checkpoint: a new one appended, and the leaf moved back', () => {
  const whole = syntheticSession({ messages: 80, seed: 11, checkpoints: 2 });
  const checkpoints = whole.nodes.flatMap((n, i) => ('checkpoint' in n ? [i] : []));
  assert.equal(checkpoints.length, 2, 'the case needs two checkpoints');
  const before = whole.nodes.slice(0, checkpoints[1]);
  const early = before.at(-1).id;
  const index = compaction.SessionIndex.from({ nodes: before, leafId: early, branchRevision: 0 });
  try {
    const summaryOf = (session) => wholeText.projectPositions(session).items.find((i) => typeof i !== 'number')?.summary;
    const heldSummary = () => index.project().messages.find((m) => m.metadata?.checkpoint === true);
    assert.deepStrictEqual(heldSummary(), summaryOf({ nodes: before, leafId: early, branchRevision: 0 }));
    for (const node of whole.nodes.slice(checkpoints[1])) index.append(node);
    index.setLeaf(whole.leafId, 1);
    const newest = heldSummary();
    assert.deepStrictEqual(newest, summaryOf({ ...whole, branchRevision: 1 }));
    assert.equal(newest.id, whole.nodes[checkpoints[1]].id);
    index.setLeaf(early, 2);
    assert.deepStrictEqual(heldSummary(), summaryOf({ nodes: whole.nodes, leafId: early, branchRevision: 2 }));
    assert.equal(heldSummary().id, whole.nodes[checkpoints[0]].id);
  } finally {
    index.free();
  }
});

test('a session read node by node grows the wasm heap as its text doubles, not page by page, and not far past its need', () => {
  // Each growth of wasm memory makes V8 collect a JS heap that holds the session: page by page, the
  // first cold estimate of a long session spent most of its time there (docs/performance.md).
  const original = Object.getOwnPropertyDescriptor(text.SessionIndex, 'reserveText');
  /** @type {number[]} */
  const reserved = [];
  text.SessionIndex.reserveText = (bytes) => {
    reserved.push(bytes);
    return original.value.call(text.SessionIndex, bytes);
  };
  try {
    const read = (session) => {
      reserved.length = 0;
      const estimate = compaction.estimate(session, SMALL);
      assert.deepStrictEqual(estimate, onWholeText(session, (index) => index.estimate(SMALL)), 'the same answer');
      return [...reserved];
    };
    const textBytes = (session) => session.nodes.reduce((sum, node) => sum + Buffer.byteLength(JSON.stringify(node)), 0);
    const small = syntheticSession({ messages: 40, seed: 5 });
    assert.ok(textBytes(small) < 1 << 20);
    assert.deepStrictEqual(read(small), [], 'a session under 1 MiB of text reserves nothing');
    const long = syntheticSession({ messages: 1500, seed: 5 });
    const bytes = textBytes(long);
    const reservations = read(long);
    assert.ok(reservations.length >= 1, `a ${bytes}-byte session reserves room as it is read`);
    assert.ok(reservations.length <= Math.ceil(Math.log2(bytes / (1 << 20))) + 1, `a few reservations, not one per page: ${reservations}`);
    assert.ok(Math.max(...reservations) >= bytes / 4, `room made in large steps: ${reservations} for ${bytes}`);
    // Not past what the rest of the session needs (its nodes are of like size here): reserving as much
    // again at each doubling asked 2.3 times this session's text, and a wasm heap never shrinks.
    const sum = reservations.reduce((a, b) => a + b, 0);
    assert.ok(sum <= 2 * bytes, `no more than the session needs: ${reservations} for ${bytes}`);
  } finally {
    Object.defineProperty(text.SessionIndex, 'reserveText', original);
  }
});
