// Model-based test of the packed package's session stores (MemoryStore, SqliteStore on a temp
// file, ZoteroDBStore through the Zotero.DBConnection shim): random sequences of store operations
// and compactions, replayed against a reference model written here in plain JS, checked after
// every step. docs/stores.md ("Model-based test") has the figures.
//
// Operations: sessions and forks of forks; appends with and without parentId and
// expectedLeafId/expectedRevision; updateMessageParts of leaf messages and of pending tool parts
// (mostly in sessions that have forks, so shared nodes change); retry (with a message, and
// without: a leaf move); edit (also as a new root); moveLeaf; and compactions through the real
// `compact` runner whose summarizer is held open across the next 0..MAX_HOLD operations (then
// resolved, rejected, or the compaction cancelled through its signal). Some operations are
// made to be refused (a stale expectation, an unknown or duplicate id, a non-updatable node).
//
// The reference model: every session's own nodes, fork base (session, node), leaf and revision.
// A session's visible nodes are the ancestor chain of its base node among the base session's
// visible nodes, then its own nodes. A write that changes a session's visible nodes or leaf
// raises its revision by one; an update of a node raises the revision of every session that
// sees the node. A compaction commits exactly when the session's leaf and revision are still
// those it was planned on, else it is `stale` (`leaf-moved` / `revision-changed`).
//
// Invariants, checked after every step:
//   1. A committed checkpoint was summarized from exactly the current text of every node it
//      folds in: each message text carries a marker `@@<id>~<version>@@`; every node of the
//      plan's summarizeIds appears in the summary request with its version at commit time, and
//      no marker in the request is of an older version (forks included: no stale quote).
//   2. Revisions only grow, and grow exactly when a session's visible content (nodes or leaf)
//      changed since the previous step (checked on what the store returns, without the model).
//   3. Every refusal is an error with the code the model predicts, and writes nothing: every
//      session loads as before the call.
//   4. load() of every session equals the reference (nodes in order, leaf, revision), and so
//      do the heads the calls return and the sessions a compaction outcome carries.
//   5. readBranch on every session with a leaf reports no problem.
//   6. The store-held index of every session with a leaf (withSessionIndex) gives the session and
//      the projection load() gives.
//
// The seed is printed; BIBGENIE_STORE_MODEL_SEED replays it (sequence i uses seed + i),
// BIBGENIE_STORE_MODEL_SEQUENCES sets the number of sequences per store, and
// BIBGENIE_STORE_MODEL_ONLY=<i> runs only sequence i. A failure names seed, sequence and step
// and prints the last operations.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';

const pkgSpec = process.env.BIBGENIE_PKG ?? new URL('../../pkg/index.js', import.meta.url).href;
const compaction = await import(pkgSpec);
await compaction.init();
const { MemoryStore, SqliteStore, ZoteroDBStore, compact, readBranch, project } = compaction;
const { prng: mulberry32 } = await import('../fixtures/session-generator.mjs');

const SEED = Number(process.env.BIBGENIE_STORE_MODEL_SEED ?? Math.floor(Math.random() * 2 ** 31));
const SEQUENCES = Number(process.env.BIBGENIE_STORE_MODEL_SEQUENCES ?? 100);
const ONLY = process.env.BIBGENIE_STORE_MODEL_ONLY === undefined ? null : Number(process.env.BIBGENIE_STORE_MODEL_ONLY);
const MIN_OPS = 30;
const MAX_OPS = 60;
/** A summarizer is held open across at most this many later operations. */
const MAX_HOLD = 8;
const MAX_SESSIONS = 7;
const MODEL = { id: 'test-8k', contextWindow: 8192 };
const AUTO_MODEL = { id: 'test-1k', contextWindow: 1024 };
const SECTIONS = ['Research Goal', 'User Requirements and Constraints', 'Research Progress', 'Findings and Evidence',
  'Key Zotero Resources', 'Decisions', 'Next Steps', 'Critical Context'];
const SUMMARY = SECTIONS.map((s) => `## ${s}\n- (user said) ${s.toLowerCase()} as discussed`).join('\n');
const WORDS = ['citation', 'annotation', 'zotero', 'evidence', 'method', 'sample', 'cohort', 'review', 'figure',
  'page', 'collection', 'tag', 'claim', 'source', 'abstract', 'dataset', 'result', 'limitation'];
const MARKER = /@@([^~@\s]+)~(\d+)@@/g;

console.log(`store-model: seed ${SEED} (BIBGENIE_STORE_MODEL_SEED=${SEED} replays), ${SEQUENCES} sequences per store`);

/** Picks operations from the package's own mulberry32 (tests/fixtures/session-generator.mjs, as the crash-safety test). */
function prng(seed) {
  const { next } = mulberry32(seed);
  const int = (n) => Math.floor(next() * n);
  return { next, int, pick: (list) => list[int(list.length)], chance: (p) => next() < p };
}

const clone = (value) => JSON.parse(JSON.stringify(value));
const marker = (id, version) => `@@${id}~${version}@@`;
const versionOf = (node) => {
  const found = /@@[^~@\s]+~(\d+)@@/.exec(node.parts?.[0]?.text ?? '');
  return found ? Number(found[1]) : null;
};
const isCheckpoint = (node) => Object.prototype.hasOwnProperty.call(node, 'checkpoint');
const FINISHED = new Set(['output-available', 'output-error', 'output-denied']);
/** As js-glue/stores/nodes.js: static `tool-*` and `dynamic-tool` parts; any state but a finished one waits. */
const isToolPart = (p) => typeof p.type === 'string' && (p.type.startsWith('tool-') || p.type === 'dynamic-tool');
const isUnfinished = (p) => isToolPart(p) && typeof p.state === 'string' && !FINISHED.has(p.state);
const isPending = (node) => Array.isArray(node.parts) && node.parts.some(isUnfinished);
const hasPendingDynamic = (node) => Array.isArray(node.parts) && node.parts.some((p) => p.type === 'dynamic-tool' && isUnfinished(p));
/** Cut by Stop or an error (the transport's mark): its tool parts are interrupted. */
const isCut = (node) => node.metadata?.aborted === true || node.metadata?.finishReason === 'error';

/** Parts of a message: a marked text, and for a tool turn a tool part (static or `dynamic-tool`)
 * carrying the marker too. */
function partsOf(id, version, kind, rng) {
  const words = Array.from({ length: 15 + rng.int(25) }, () => rng.pick(WORDS)).join(' ');
  const parts = [{ type: 'text', text: `${marker(id, version)} ${words}` }];
  if (kind === 'text') return parts;
  const type = rng.chance(0.5) ? { type: 'dynamic-tool', toolName: 'search_library' } : { type: 'tool-search_library' };
  const tool = { ...type, toolCallId: `call-${id}`, input: { query: `${marker(id, version)} ${rng.pick(WORDS)}` } };
  if (kind === 'pending') parts.push({ ...tool, state: 'input-available' });
  else parts.push({ ...tool, state: 'output-available', output: { items: [`${marker(id, version)} item ${rng.int(100)}`] } });
  return parts;
}

/** The ids on the chain from `id` to its root among `nodes` (a broken chain stops where it breaks). */
function ancestorChain(nodes, id) {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const chain = new Set();
  for (let at = id; at !== null && byId.has(at) && !chain.has(at); at = byId.get(at).parentId) chain.add(at);
  return chain;
}

/** The reference: what each session must load as. */
class Reference {
  /** @type {Map<string, { id: string, base: { sessionId: string, nodeId: string } | null, own: object[], leafId: string | null, rev: number }>} */
  sessions = new Map();

  visible(id) {
    const s = this.sessions.get(id);
    if (!s.base) return [...s.own];
    const baseNodes = this.visible(s.base.sessionId);
    const chain = ancestorChain(baseNodes, s.base.nodeId);
    return [...baseNodes.filter((n) => chain.has(n.id)), ...s.own];
  }

  view(id) {
    const s = this.sessions.get(id);
    return { nodes: clone(this.visible(id)), leafId: s.leafId, branchRevision: s.rev };
  }

  /** What an append (appendMessage, retry, edit) must do: a refusal code, or the head it leaves. */
  append(sessionId, message, options) {
    const s = this.sessions.get(sessionId);
    if (options.expectedLeafId !== undefined && options.expectedLeafId !== s.leafId) return { code: 'session-moved' };
    if (options.expectedRevision !== undefined && options.expectedRevision !== s.rev) return { code: 'session-moved' };
    const parentId = options.parentId !== undefined ? options.parentId : s.leafId;
    const visible = this.visible(sessionId);
    if (visible.some((n) => n.id === message.id)) return { code: 'duplicate-id' };
    if (parentId !== null && !visible.some((n) => n.id === parentId)) return { code: 'missing-parent' };
    return { apply: () => this.#appendOwn(s, { ...clone(message), parentId }) };
  }

  #appendOwn(s, node) {
    s.own.push(node);
    s.leafId = node.id;
    s.rev += 1;
    return { node: clone(node), sessionId: s.id, leafId: s.leafId, branchRevision: s.rev };
  }

  /**
   * Rule `interrupted-tool`: an own message whose unfinished tool part can still complete: not cut,
   * on the branch with no user message after it.
   */
  pendingInNewestTurn(sessionId, node) {
    const s = this.sessions.get(sessionId);
    if (!isPending(node) || isCut(node)) return false;
    const byId = new Map(this.visible(sessionId).map((n) => [n.id, n]));
    for (let at = s.leafId, steps = 0; at !== null && byId.has(at) && steps <= byId.size; steps++) {
      if (at === node.id) return true;
      const n = byId.get(at);
      if (!isCheckpoint(n) && n.role === 'user') return false;
      at = n.parentId;
    }
    return false;
  }

  /**
   * Only own checkpoints between the message and the leaf, the newest keeping it verbatim (its first
   * kept message is the message or above it, reached through own nodes).
   */
  keptBelowLeafCheckpoints(sessionId, messageId) {
    const s = this.sessions.get(sessionId);
    const own = new Map(s.own.map((n) => [n.id, n]));
    let at = s.leafId;
    let firstKept;
    while (at !== messageId) {
      const n = own.get(at);
      if (!n || !isCheckpoint(n)) return false;
      firstKept ??= n.checkpoint.firstKeptMessageId ?? null;
      at = n.parentId;
    }
    if (typeof firstKept !== 'string') return false;
    for (let steps = 0; at !== null && steps <= own.size; steps++) {
      if (at === firstKept) return true;
      if (!own.has(at)) return false;
      at = own.get(at).parentId;
    }
    return false;
  }

  update(sessionId, messageId, parts, options) {
    const s = this.sessions.get(sessionId);
    const node = s.own.find((n) => n.id === messageId);
    if (!node) return { code: 'unknown-node' };
    if (isCheckpoint(node)) return { code: 'not-updatable' };
    if (s.leafId !== messageId && !this.keptBelowLeafCheckpoints(sessionId, messageId) && !this.pendingInNewestTurn(sessionId, node)) {
      return { code: 'not-updatable' };
    }
    const updated = { ...node, parts: clone(parts) };
    if (options.metadata !== undefined) updated.metadata = clone(options.metadata);
    if (JSON.stringify(updated) === JSON.stringify(node)) {
      return { apply: () => ({ node: clone(node), sessionId, leafId: s.leafId, branchRevision: s.rev }) };
    }
    return {
      apply: () => {
        // Every session that sees the node (its owner and the forks whose chain holds it) moves.
        const seeing = [...this.sessions.keys()].filter((id) => this.visible(id).includes(node));
        Object.assign(node, updated);
        for (const id of seeing) {
          const seer = this.sessions.get(id);
          seer.rev += 1;
          if (id !== sessionId) seer.sharedChanges.push(node.id);
        }
        return { node: clone(node), sessionId, leafId: s.leafId, branchRevision: s.rev };
      },
    };
  }

  moveLeaf(sessionId, nodeId) {
    const s = this.sessions.get(sessionId);
    if (!this.visible(sessionId).some((n) => n.id === nodeId)) return { code: 'unknown-node' };
    return {
      apply: () => {
        if (s.leafId !== nodeId) {
          s.leafId = nodeId;
          s.rev += 1;
        }
        return { sessionId, leafId: s.leafId, branchRevision: s.rev };
      },
    };
  }

  fork(sessionId, nodeId, id) {
    if (!this.visible(sessionId).some((n) => n.id === nodeId)) return { code: 'unknown-node' };
    if (this.sessions.has(id)) return { code: 'session-exists' };
    return {
      apply: () => {
        this.sessions.set(id, { id, base: { sessionId, nodeId }, own: [], leafId: nodeId, rev: 0, sharedChanges: [] });
        return { sessionId: id, leafId: nodeId, branchRevision: 0 };
      },
    };
  }

  create(id) {
    if (this.sessions.has(id)) return { code: 'session-exists' };
    return {
      apply: () => {
        this.sessions.set(id, { id, base: null, own: [], leafId: null, rev: 0, sharedChanges: [] });
        return { sessionId: id, nodes: [], leafId: null, branchRevision: 0 };
      },
    };
  }

  commitCheckpoint(sessionId, node) {
    this.#appendOwn(this.sessions.get(sessionId), clone(node));
  }
}

/** Counts for the report. */
function newFigures() {
  return { sequences: 0, ops: 0, compactions: 0, modes: {}, committed: 0, committedModes: {}, stale: {}, staleByShared: 0, staleFoldedShared: 0, noop: 0, noopReasons: {},
    cancelled: 0, summarizerFailed: 0, refusals: {}, updatesShared: 0, dynamicPendingUpdates: 0, dynamicPendingRefusedForks: 0,
    updatesBelowLeafCheckpoint: 0 };
}

/** What every backend's sequences must have exercised; the names of what they missed. */
function missedCoverage(figures) {
  const wanted = {
    'a committed compaction': figures.committed,
    'a committed auto compaction': figures.committedModes.auto ?? 0,
    'a fork compaction made stale by a shared node\'s change': figures.staleByShared,
    'one of those whose summary folded the changed node in': figures.staleFoldedShared,
    'an update of a shared node': figures.updatesShared,
    'a noop compaction': figures.noop,
    'a cancelled compaction': figures.cancelled,
    'a summarizer failure': figures.summarizerFailed,
    'an in-place update of a message with a pending dynamic-tool part': figures.dynamicPendingUpdates,
    'an in-place update of the message under the checkpoint at the leaf': figures.updatesBelowLeafCheckpoint,
    ...Object.fromEntries(REFUSALS.map((code) => [`a ${code} refusal`, figures.refusals[code] ?? 0])),
  };
  return Object.entries(wanted).filter(([, count]) => count === 0).map(([what]) => what);
}
const REFUSALS = ['session-moved', 'unknown-node', 'not-updatable', 'missing-parent', 'duplicate-id'];
const bump = (map, key) => (map[key] = (map[key] ?? 0) + 1);

/**
 * One random sequence on its own sessions (ids starting with `prefix`) of a store that also holds
 * the earlier sequences' sessions. Throws (with the op log) on any broken invariant.
 */
async function runSequence(store, seed, figures, prefix, { commitAuto = false } = {}) {
  const rng = prng(seed);
  const ref = new Reference();
  const log = [];
  let counter = 0;
  const newId = (prefix) => `${prefix}${++counter}`;
  /** Compactions whose summarizer is being held: { sessionId, basis, prompt, deferred, controller, dueAt, fate, outcome } */
  let held = [];
  let step = 0;
  /** What the store returned at the previous step, per session: for invariant 2. */
  let previous = new Map();

  const fail = (message) => {
    throw new Error(`${message}\n  seed ${seed}, step ${step}; last operations:\n    ${log.slice(-15).join('\n    ')}`);
  };

  /** Invariants 2, 4 and 5 over every session; returns the loaded state. */
  const checkAll = async () => {
    const loaded = new Map();
    for (const id of ref.sessions.keys()) {
      const got = await store.load(id);
      loaded.set(id, got);
      const before = previous.get(id);
      if (before) {
        const changed = JSON.stringify([before.nodes, before.leafId]) !== JSON.stringify([got.nodes, got.leafId]);
        if (got.branchRevision < before.branchRevision) fail(`${id}: revision fell from ${before.branchRevision} to ${got.branchRevision}`);
        if (changed && got.branchRevision === before.branchRevision) fail(`${id}: visible content changed but the revision stayed ${got.branchRevision}`);
        if (!changed && got.branchRevision !== before.branchRevision) fail(`${id}: revision moved to ${got.branchRevision} with no change`);
      }
      try {
        assert.deepStrictEqual(got, ref.view(id));
      } catch (error) {
        fail(`load(${id}) differs from the reference: ${error.message}`);
      }
      if (got.leafId !== null) {
        const branch = readBranch(got);
        if (branch.problems.length) fail(`readBranch(${id}) reports ${JSON.stringify(branch.problems)}`);
        // 6. The store-held index answers as load() does (never from a stale state).
        const held = await store.withSessionIndex(id, (view) => view && {
          session: { nodes: view.toSession().nodes, leafId: view.leafId, branchRevision: view.branchRevision },
          messages: view.project().messages,
        });
        if (!held) fail(`withSessionIndex(${id}) gives no view of a session with a leaf`);
        try {
          assert.deepStrictEqual(held.session, got);
          assert.deepStrictEqual(held.messages, project(got).messages);
        } catch (error) {
          fail(`withSessionIndex(${id}) differs from load(): ${error.message}`);
        }
      }
    }
    previous = loaded;
    return loaded;
  };

  /** Runs a store call the model predicted: same refusal code (and nothing written), or the same head. */
  const expect = async (label, predicted, call) => {
    log.push(label);
    let result;
    try {
      result = await call();
    } catch (error) {
      if (predicted.code === undefined) fail(`${label}: refused with ${error?.code ?? 'no code'} (${error?.message}), the model expected success`);
      if (typeof error?.code !== 'string') fail(`${label}: refusal without a code: ${error}`);
      if (error.code !== predicted.code) fail(`${label}: refused with ${error.code}, the model expected ${predicted.code}`);
      bump(figures.refusals, error.code);
      log[log.length - 1] += ` -> ${error.code}`;
      // Invariant 3: no session appeared (a refused fork or create); checkAll() after the step
      // compares every session with the unchanged model.
      const listed = (await store.listSessions()).filter((id) => id.startsWith(prefix)).sort();
      if (JSON.stringify(listed) !== JSON.stringify(sessionIds().sort())) fail(`${label}: refused, but the sessions are now ${listed}`);
      return null;
    }
    if (predicted.code !== undefined) fail(`${label}: succeeded, the model expected refusal ${predicted.code}`);
    const head = predicted.apply();
    try {
      assert.deepStrictEqual(result, head);
    } catch (error) {
      fail(`${label}: returned a head other than the model's: ${error.message}`);
    }
    return result;
  };

  // ---- operation generators -------------------------------------------------------------
  const sessionIds = () => [...ref.sessions.keys()];
  const withForks = () => sessionIds().filter((id) => sessionIds().some((f) => ref.sessions.get(f).base?.sessionId === id));
  const messagesOf = (id) => ref.visible(id).filter((n) => !isCheckpoint(n));
  const leafNode = (id) => ref.visible(id).find((n) => n.id === ref.sessions.get(id).leafId);
  const nextRole = (id, parentId) => {
    const parent = ref.visible(id).find((n) => n.id === parentId);
    const natural = !parent || isCheckpoint(parent) || parent.role === 'assistant' ? 'user' : 'assistant';
    return rng.chance(0.85) ? natural : natural === 'user' ? 'assistant' : 'user';
  };
  const newMessage = (sessionId, parentId) => {
    const id = newId('m');
    const role = nextRole(sessionId, parentId);
    const kind = role === 'assistant' && rng.chance(0.25) ? (rng.chance(0.6) ? 'pending' : 'done') : 'text';
    return { id, role, parts: partsOf(id, 1, kind, rng) };
  };

  const opAppend = async () => {
    // Often a fork with no turn of its own yet: once it has one, its compaction folds in the shared nodes.
    const fresh = sessionIds().filter((id) => ref.sessions.get(id).base && ref.sessions.get(id).own.length < 2);
    const sessionId = fresh.length && rng.chance(0.3) ? rng.pick(fresh) : rng.pick(sessionIds());
    const s = ref.sessions.get(sessionId);
    const visible = ref.visible(sessionId);
    const options = {};
    const variant = rng.int(10);
    let message;
    if (variant <= 3) {
      // plain append under the leaf
    } else if (variant <= 5) {
      options.expectedLeafId = s.leafId;
      options.expectedRevision = s.rev;
    } else if (variant === 6) {
      if (rng.chance(0.5)) options.expectedRevision = Math.max(0, s.rev - 1 - rng.int(2));
      else options.expectedLeafId = visible.length ? rng.pick(visible).id : 'nowhere';
      if (options.expectedRevision === s.rev) options.expectedRevision = s.rev + 1;
    } else if (variant === 7 && visible.length) {
      options.parentId = rng.pick(visible).id;
    } else if (variant === 8) {
      options.parentId = rng.chance(0.3) ? null : `ghost-${counter}`;
    } else {
      // An id used before: refused when this session sees it, allowed when only another session does.
      const hidden = sessionIds().flatMap((id) => ref.sessions.get(id).own).filter((n) => !visible.includes(n) && !visible.some((v) => v.id === n.id));
      const pool = hidden.length && rng.chance(0.4) ? hidden : visible;
      if (pool.length) {
        const other = rng.pick(pool);
        message = { id: other.id, role: 'user', parts: partsOf(other.id, 1, 'text', rng) };
      }
    }
    message ??= newMessage(sessionId, options.parentId !== undefined ? options.parentId : s.leafId);
    await expect(`appendMessage(${sessionId}, ${message.id}, ${JSON.stringify(options)})`, ref.append(sessionId, message, options),
      () => store.appendMessage(sessionId, message, options));
  };

  const opUpdate = async () => {
    const forked = withForks();
    let sessionId = forked.length && rng.chance(0.7) ? rng.pick(forked) : rng.pick(sessionIds());
    const s = ref.sessions.get(sessionId);
    const visible = ref.visible(sessionId);
    const leaf = s.own.find((n) => n.id === s.leafId);
    const pending = s.own.filter((n) => !isCheckpoint(n) && ref.pendingInNewestTurn(sessionId, n));
    // Updatable nodes other sessions see: the shared nodes whose change must reach every fork.
    const sharedUpdatable = sessionIds().flatMap((id) => {
      const owner = ref.sessions.get(id);
      return owner.own.filter((n) => !isCheckpoint(n) && (n.id === owner.leafId || ref.pendingInNewestTurn(id, n)) &&
        sessionIds().some((other) => other !== id && ref.visible(other).includes(n))).map((n) => [id, n]);
    });
    // ... and of those, the ones a held compaction of another session planned on.
    const underHeld = sharedUpdatable.filter(([owner, n]) => held.some((e) => e.sessionId !== owner && ref.visible(e.sessionId).includes(n)));
    // ... and of those, the ones such a compaction folds into its summary (rare otherwise: an updatable
    // node is a leaf or in the newest turn, which a summary seldom reaches).
    const foldedUnderHeld = underHeld.filter(([owner, n]) => held.some((e) => e.sessionId !== owner && e.prompt?.includes(`@@${n.id}~`)));
    // The message under the checkpoints at the leaf (a tool continuation after its preflight compacted).
    let belowLeaf = leaf;
    while (belowLeaf && isCheckpoint(belowLeaf)) belowLeaf = s.own.find((n) => n.id === belowLeaf.parentId);
    if (belowLeaf === leaf) belowLeaf = undefined;
    let target;
    const r = rng.int(10);
    if (r <= 5 && foldedUnderHeld.length && rng.chance(0.5)) [sessionId, target] = rng.pick(foldedUnderHeld);
    else if (r <= 5 && underHeld.length) [sessionId, target] = rng.pick(underHeld);
    else if (r <= 3 && sharedUpdatable.length) [sessionId, target] = rng.pick(sharedUpdatable);
    else if (r <= 5 && leaf) target = leaf;
    else if (r <= 6 && pending.length) target = rng.pick(pending.some(hasPendingDynamic) && rng.chance(0.7) ? pending.filter(hasPendingDynamic) : pending);
    else if (r >= 8 && belowLeaf && rng.chance(0.6)) target = belowLeaf;
    else if (r === 7 && visible.length > s.own.length) target = rng.pick(visible.slice(0, visible.length - s.own.length)); // inherited
    else target = visible.length ? rng.pick(visible) : null;
    if (!target) return opAppend();
    let parts;
    if (isCheckpoint(target)) parts = [{ type: 'text', text: 'not for a checkpoint' }];
    else if (rng.chance(0.15)) parts = clone(target.parts); // the same parts: no change, no revision
    else {
      const version = (versionOf(target) ?? 0) + 1;
      const kind = isPending(target) ? (rng.chance(0.6) ? 'done' : 'pending') : target.parts.length > 1 ? 'done' : 'text';
      parts = partsOf(target.id, version, kind, rng);
    }
    // Sometimes the final usage arrives with it (metadata), sometimes the same usage again.
    const options = {};
    if (rng.chance(0.25)) options.metadata = target.metadata !== undefined && rng.chance(0.3) ? clone(target.metadata) : { usage: { inputTokens: 100 + rng.int(900), outputTokens: rng.int(300) } };
    const predicted = ref.update(sessionId, target.id, parts, options);
    const changes = predicted.apply !== undefined &&
      JSON.stringify([parts, options.metadata ?? target.metadata]) !== JSON.stringify([target.parts, target.metadata]);
    const owned = ref.sessions.get(sessionId).own.find((n) => n.id === target.id);
    const shared = changes && sessionIds().some((id) => id !== sessionId && ref.visible(id).includes(owned));
    const result = await expect(`updateMessageParts(${sessionId}, ${target.id}, v${versionOf({ parts }) ?? '-'}${options.metadata ? ', metadata' : ''})`, predicted,
      () => store.updateMessageParts(sessionId, target.id, parts, options));
    if (result && shared) figures.updatesShared += 1;
    if (result && hasPendingDynamic(target)) figures.dynamicPendingUpdates += 1;
    if (result && target === belowLeaf) figures.updatesBelowLeafCheckpoint += 1;
  };

  const opFork = async () => {
    if (ref.sessions.size >= MAX_SESSIONS) return opUpdate();
    const sessionId = rng.pick(sessionIds());
    const visible = ref.visible(sessionId);
    const leaf = leafNode(sessionId);
    const assistants = visible.filter((n) => !isCheckpoint(n) && n.role === 'assistant');
    let nodeId;
    const r = rng.int(10);
    if (r <= 4 && leaf && !isCheckpoint(leaf)) nodeId = leaf.id; // the usual: fork at the last answer
    else if (r <= 7 && assistants.length) nodeId = rng.pick(assistants).id;
    else if (r === 8 && visible.length) nodeId = rng.pick(visible).id;
    else nodeId = `ghost-${counter}`;
    const id = rng.chance(0.05) ? rng.pick(sessionIds()) : `${prefix}${newId('F')}`;
    await expect(`fork(${sessionId}, ${nodeId}, ${id})`, ref.fork(sessionId, nodeId, id), () => store.fork(sessionId, nodeId, { sessionId: id }));
  };

  const opRetry = async () => {
    const sessionId = rng.pick(sessionIds());
    const s = ref.sessions.get(sessionId);
    const users = messagesOf(sessionId).filter((n) => n.role === 'user');
    const parentId = users.length && rng.chance(0.9) ? rng.pick(users).id : `ghost-${counter}`;
    if (rng.chance(0.3)) {
      await expect(`retry(${sessionId}, ${parentId})`, ref.moveLeaf(sessionId, parentId), () => store.retry(sessionId, parentId));
      return;
    }
    const options = rng.chance(0.4) ? { expectedLeafId: s.leafId, expectedRevision: rng.chance(0.8) ? s.rev : s.rev + 1 } : {};
    const id = newId('r');
    const message = { id, role: 'assistant', parts: partsOf(id, 1, 'text', rng) };
    await expect(`retry(${sessionId}, ${parentId}, ${id}, ${JSON.stringify(options)})`, ref.append(sessionId, message, { ...options, parentId }),
      () => store.retry(sessionId, parentId, message, options));
  };

  const opEdit = async () => {
    const sessionId = rng.pick(sessionIds());
    const s = ref.sessions.get(sessionId);
    const users = messagesOf(sessionId).filter((n) => n.role === 'user');
    const parentId = users.length && rng.chance(0.85) ? rng.pick(users).parentId : null;
    const options = rng.chance(0.3) ? { expectedLeafId: s.leafId } : {};
    const id = newId('e');
    const message = { id, role: 'user', parts: partsOf(id, 1, 'text', rng) };
    await expect(`edit(${sessionId}, ${parentId}, ${id}, ${JSON.stringify(options)})`, ref.append(sessionId, message, { ...options, parentId }),
      () => store.edit(sessionId, parentId, message, options));
  };

  const opMoveLeaf = async () => {
    const sessionId = rng.pick(sessionIds());
    const visible = ref.visible(sessionId);
    const nodeId = visible.length && rng.chance(0.9) ? rng.pick(visible).id : `ghost-${counter}`;
    await expect(`moveLeaf(${sessionId}, ${nodeId})`, ref.moveLeaf(sessionId, nodeId), () => store.moveLeaf(sessionId, nodeId));
  };

  const opCreate = async () => {
    if (ref.sessions.size >= MAX_SESSIONS) return opAppend();
    const id = `${prefix}${newId('S')}`;
    await expect(`createSession(${id})`, ref.create(id), () => store.createSession({ sessionId: id }));
  };

  /**
   * Starts a compaction and waits until it planned: its summarizer was called, or it ended (noop).
   * `forced` fixes the session, mode and fate instead of drawing them (a sequence built to reach a case).
   */
  const opCompactStart = async (forced = null) => {
    const branchLength = (id) => ancestorChain(ref.visible(id), ref.sessions.get(id).leafId).size;
    const forks = sessionIds().filter((id) => ref.sessions.get(id).base && branchLength(id) >= 4);
    const long = sessionIds().filter((id) => branchLength(id) >= 4);
    // Forks that see a node its owner may still update (its leaf, a pending tool part): issue 18's case.
    const exposed = forks.filter((id) => ref.visible(id).some((n) => ref.sessions.get(id).own.indexOf(n) < 0 &&
      sessionIds().some((owner) => ref.sessions.get(owner).own.includes(n) && ref.sessions.get(owner).leafId === n.id)));
    const sessionId = forced ? forced.sessionId : exposed.length && rng.chance(0.5) ? rng.pick(exposed)
      : forks.length && rng.chance(0.6) ? rng.pick(forks) : long.length && rng.chance(0.7) ? rng.pick(long) : rng.pick(sessionIds());
    const s = ref.sessions.get(sessionId);
    const entry = {
      sessionId,
      label: `compact#${++counter}(${sessionId})`,
      basis: { leafId: s.leafId, branchRevision: s.rev },
      sharedChanges: s.sharedChanges.length,
      controller: new AbortController(),
      dueAt: forced ? step : step + rng.int(MAX_HOLD + 1),
      fate: forced ? 'resolve' : rng.chance(0.8) ? 'resolve' : rng.chance(0.6) ? 'cancel' : 'reject',
    };
    let called;
    const summarizerCalled = new Promise((resolve) => (called = resolve));
    const summarize = (request) => {
      entry.prompt = request.prompt;
      called(true);
      return new Promise((resolve, reject) => (entry.deferred = { resolve, reject }));
    };
    log.push(`${entry.label} started on ${JSON.stringify(entry.basis)}`);
    figures.compactions += 1;
    // Mostly manual; auto on a small window, where these short sessions cross its threshold (and meet
    // its pending-workflow and free-room rules).
    const [mode, model] = forced?.mode === 'auto' || (!forced && rng.chance(0.3)) ? ['auto', AUTO_MODEL] : ['manual', MODEL];
    entry.mode = mode;
    bump(figures.modes, mode);
    entry.outcome = compact({ store, sessionId, model, mode, summarize, signal: entry.controller.signal });
    const planned = await Promise.race([summarizerCalled, entry.outcome.then(() => false)]);
    if (!planned) {
      const outcome = await entry.outcome;
      if (outcome.status !== 'noop') fail(`${entry.label}: ${outcome.status} without summarizing (${outcome.reason}, ${outcome.error?.message ?? ''})`);
      assert.deepStrictEqual(outcome.session, ref.view(sessionId), `${entry.label}: the noop session differs from the reference`);
      figures.noop += 1;
      bump(figures.noopReasons, outcome.reason);
      log.push(`${entry.label} noop ${outcome.reason}`);
      return;
    }
    held.push(entry);
  };

  /** Ends a held compaction as its fate says and checks the outcome against the model. */
  const settle = async (entry) => {
    const { sessionId, label } = entry;
    if (entry.fate === 'cancel') {
      entry.controller.abort();
      const outcome = await entry.outcome;
      if (outcome.status !== 'cancelled') fail(`${label}: cancelled but ended ${outcome.status}`);
      figures.cancelled += 1;
      log.push(`${label} cancelled`);
      return;
    }
    if (entry.fate === 'reject') {
      entry.deferred.reject(new Error('the summarizer failed'));
      const outcome = await entry.outcome;
      if (outcome.status !== 'failed' || outcome.reason !== 'summarizer-failed') fail(`${label}: summarizer failed but ended ${outcome.status} ${outcome.reason}`);
      figures.summarizerFailed += 1;
      log.push(`${label} summarizer failed`);
      return;
    }
    const s = ref.sessions.get(sessionId);
    const atCommit = ref.view(sessionId);
    entry.deferred.resolve(SUMMARY);
    const outcome = await entry.outcome;
    log.push(`${label} resolved at ${JSON.stringify({ leafId: s.leafId, branchRevision: s.rev })}: ${outcome.status} ${outcome.reason ?? ''}`);
    if (outcome.status === 'committed') {
      // Invariant 1: summarized from the current text of every node it folds in.
      const current = new Map(atCommit.nodes.filter((n) => !isCheckpoint(n)).map((n) => [n.id, versionOf(n)]));
      for (const [, id, version] of entry.prompt.matchAll(MARKER)) {
        if (current.get(id) !== Number(version)) fail(`${label}: committed a summary quoting ${id} v${version}, current is v${current.get(id)}`);
      }
      for (const id of outcome.plan.summarizeIds) {
        if (!current.has(id)) fail(`${label}: summarized ${id}, which is not a message of the session`);
        if (!entry.prompt.includes(marker(id, current.get(id)))) fail(`${label}: ${id} is folded in but its current text v${current.get(id)} is not in the request`);
      }
    }
    assert.deepStrictEqual(outcome.plan?.basis, entry.basis, `${label}: planned on a basis other than the model's`);
    const unchanged = s.leafId === entry.basis.leafId && s.rev === entry.basis.branchRevision;
    if (!unchanged) {
      const reason = s.leafId !== entry.basis.leafId ? 'leaf-moved' : 'revision-changed';
      if (outcome.status !== 'stale' || outcome.reason !== reason) {
        fail(`${label}: the session moved (now ${JSON.stringify({ leafId: s.leafId, branchRevision: s.rev })}), expected stale ${reason}, got ${outcome.status} ${outcome.reason ?? ''}`);
      }
      bump(figures.stale, reason);
      const changedShared = s.sharedChanges.slice(entry.sharedChanges);
      if (changedShared.length) figures.staleByShared += 1;
      if (changedShared.some((id) => outcome.plan.summarizeIds.includes(id))) figures.staleFoldedShared += 1;
      assert.deepStrictEqual(outcome.session, atCommit, `${label}: the stale outcome's session differs from the reference`);
      return;
    }
    if (outcome.status !== 'committed') fail(`${label}: nothing moved, expected committed, got ${outcome.status} ${outcome.reason ?? ''} ${outcome.error?.message ?? ''}`);
    const node = outcome.checkpoint;
    assert.equal(node.parentId, entry.basis.leafId, `${label}: checkpoint parent`);
    assert.deepStrictEqual(node.checkpoint.basis, entry.basis, `${label}: checkpoint basis`);
    ref.commitCheckpoint(sessionId, node);
    assert.deepStrictEqual(outcome.session, ref.view(sessionId), `${label}: the committed outcome's session differs from the reference`);
    figures.committed += 1;
    bump(figures.committedModes, entry.mode);
  };

  const settleDue = async (all) => {
    const due = held.filter((e) => all || e.dueAt <= step);
    held = held.filter((e) => !due.includes(e));
    for (const entry of due) {
      await settle(entry);
      await checkAll();
    }
  };

  // ---- the sequence ---------------------------------------------------------------------
  const root = `${prefix}${newId('S')}`;
  await expect(`createSession(${root})`, ref.create(root), () => store.createSession({ sessionId: root }));
  for (let i = 0; i < 4; i++) {
    const message = newMessage(root, ref.sessions.get(root).leafId);
    message.parts = partsOf(message.id, 1, 'text', rng); // a clean start: two turns, no pending tool
    await expect(`appendMessage(${root}, ${message.id})`, ref.append(root, message, {}), () => store.appendMessage(root, message));
  }
  await checkAll();
  if (commitAuto) {
    // Built to reach a committed auto compaction: the root grows (clean turns) until the small
    // window's automatic plan compacts, which then runs alone and commits.
    while (compaction.plan(ref.view(root), AUTO_MODEL, { mode: 'auto' }).action !== 'compact') {
      const message = newMessage(root, ref.sessions.get(root).leafId);
      message.parts = partsOf(message.id, 1, 'text', rng);
      await expect(`appendMessage(${root}, ${message.id})`, ref.append(root, message, {}), () => store.appendMessage(root, message));
    }
    const before = figures.committedModes.auto ?? 0;
    await opCompactStart({ sessionId: root, mode: 'auto' });
    await settleDue(true);
    if ((figures.committedModes.auto ?? 0) !== before + 1) fail(`the built auto compaction of ${root} did not commit`);
    await checkAll();
  }
  const ops = [
    [30, opAppend], [22, opUpdate], [12, opFork], [6, opRetry], [5, opEdit], [6, opMoveLeaf], [3, opCreate], [20, opCompactStart],
  ];
  const total = ops.reduce((sum, [w]) => sum + w, 0);
  const count = MIN_OPS + rng.int(MAX_OPS - MIN_OPS + 1);
  for (step = 1; step <= count; step++) {
    await settleDue(false);
    let r = rng.int(total);
    const [, op] = ops.find(([w]) => (r -= w) < 0);
    await op();
    await checkAll();
    figures.ops += 1;
  }
  await settleDue(true);
  figures.sequences += 1;
}

// ZoteroDBStore (its asynchronous driver, through the Zotero.DBConnection shim the store tests
// use) runs half the sequences: each statement is a promise there, so it is the slow one.
// One store (one file) per backend for all its sequences.
const BACKENDS = {
  MemoryStore: { sequences: SEQUENCES, open: () => ({ store: new MemoryStore(), close: (store) => store.close() }) },
  SqliteStore: {
    sequences: SEQUENCES,
    open: (dir) => ({ store: new SqliteStore(Database, join(dir, 'sqlite.sqlite')), close: (store) => store.close() }),
  },
  ZoteroDBStore: {
    sequences: Math.ceil(SEQUENCES / 2),
    open: (dir) => {
      const connection = new ZoteroDBConnectionShim(Database, join(dir, 'zotero.sqlite'));
      return { store: new ZoteroDBStore(connection), close: async (store) => (await store.close(), await connection.closeDatabase()) };
    },
  },
};

describe('store model: random sequences against a reference model', () => {
  // On a RAM disk where there is one: this test is about the stores' logic, not fsync's speed.
  const dir = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'bibgenie-store-model-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const [name, backend] of Object.entries(BACKENDS)) {
    it(`${name}: forks, shared-node updates, retries, edits, leaf moves and held compactions keep every invariant`, async (t) => {
      const figures = newFigures();
      const started = Date.now();
      const { store, close } = backend.open(dir);
      try {
        // Past its count, a backend runs more sequences (up to twice its count, at least 100) until it has reached
        // every case it claims to test; then a case still missed fails the test below.
        for (let i = 0; i < backend.sequences || (ONLY === null && i < Math.max(2 * backend.sequences, 100) && missedCoverage(figures).length); i++) {
          if (ONLY !== null && i !== ONLY) continue;
          try {
            // Past the drawn sequences, a case still missed is reached by construction where one is built for it.
            const commitAuto = i >= backend.sequences && missedCoverage(figures).includes('a committed auto compaction');
            await runSequence(store, SEED + i, figures, `q${i}-`, { commitAuto });
          } catch (error) {
            error.message = `${name}, sequence ${i} (BIBGENIE_STORE_MODEL_SEED=${SEED} BIBGENIE_STORE_MODEL_ONLY=${i}): ${error.message}`;
            throw error;
          }
        }
      } finally {
        await close(store);
      }
      const line = `${name}: ${figures.sequences} sequences, ${figures.ops} ops, ${figures.compactions} compactions ${JSON.stringify(figures.modes)}` +
        ` (${figures.committed} committed ${JSON.stringify(figures.committedModes)}, stale ${JSON.stringify(figures.stale)} (${figures.staleByShared} after a shared node changed, ${figures.staleFoldedShared} of them one the summary folded in), ${figures.noop} noop ${JSON.stringify(figures.noopReasons)}, ${figures.cancelled} cancelled,` +
        ` ${figures.summarizerFailed} summarizer failures), ${figures.updatesShared} updates of shared nodes,` +
        ` ${figures.dynamicPendingUpdates} updates of a message with a pending dynamic-tool part,` +
        ` refusals ${JSON.stringify(figures.refusals)}, ${((Date.now() - started) / 1000).toFixed(1)} s`;
      t.diagnostic(line);
      console.log(`store-model: ${line}`);
      // The sequences must exercise what they claim to, on every backend (BIBGENIE_STORE_MODEL_ONLY
      // replays one sequence, which cannot).
      if (ONLY === null) assert.deepEqual(missedCoverage(figures), [], line);
    });
  }
});
