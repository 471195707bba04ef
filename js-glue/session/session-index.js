// A node crosses into wasm once. The package's SessionIndex keeps the node objects it was handed
// beside the wasm index, so its answers are those objects (positions mapped here, no JSON copies);
// and the stateless calls keep a few hidden indexes, keyed by the identity of the node objects: a
// later call on the same objects (plus new ones appended) sends only the new nodes and the leaf.
// Node objects are treated as immutable once handed in (docs/performance.md): a changed node must be
// a new object, which makes the call re-read the session from scratch.
import { SessionIndex as WasmIndex } from '../bibgenie_compaction.js';

/**
 * @import { BranchReadResult, CacheBreakpointOptions, EstimateOptions, ModelProfile, Plan, PlanOptions, Projection, Session, SessionNode } from '../bibgenie_compaction.js'
 * @import { SessionIndex as DeclaredIndex } from '../bibgenie_compaction.js'
 * @import { InternalSessionIndex } from '../wasm-internals.js'
 * @typedef {{ index: SessionIndex, leafId: string | null, branchRevision: number }} HeldEntry
 */

/** Whether `nodes` starts with the node objects an index holds (same objects, same order); their count. */
/** @type {(index: SessionIndex, nodes: readonly SessionNode[]) => boolean} */
let heldPrefixOf;
/** @type {(index: SessionIndex) => number} */
let heldCount;
/** @type {(index: SessionIndex) => SessionNode | undefined} */
let firstNode;
/** Appends a node as the session's own read would take it (`appendShallow`), or throws. */
/** @type {(index: SessionIndex, node: SessionNode) => void} */
let appendHeld;

const dispose = typeof Symbol === 'function' && Symbol.dispose;

/**
 * A session held in wasm for repeated calls; `free()` it when the session closes. Its type is the
 * wasm class's declaration (the package exports this class under that name), but for
 * `[Symbol.dispose]`, set below where the runtime has it.
 * @implements {Omit<DeclaredIndex, typeof Symbol.dispose>}
 */
export class SessionIndex {
  #index;
  #nodes;

  /** Use `SessionIndex.from(session)`. @param {WasmIndex} index @param {SessionNode[]} nodes */
  constructor(index, nodes) {
    if (!(index instanceof WasmIndex)) throw new TypeError('SessionIndex: use SessionIndex.from(session)');
    this.#index = index;
    this.#nodes = nodes;
  }

  /** @param {Session} session */
  static from(session) {
    return fromNodes(session) ?? new SessionIndex(WasmIndex.from(session), Array.from(session.nodes));
  }

  /** Appends a durable node (the leaf does not move); the index keeps this object. @param {SessionNode} node */
  append(node) {
    this.#index.append(node);
    this.#nodes.push(node);
  }

  /** @param {string} leafId @param {number} branchRevision */
  setLeaf(leafId, branchRevision) {
    this.#index.setLeaf(leafId, branchRevision);
  }

  /** The model projection: the summary message, then the node objects handed in. @returns {Projection} */
  project() {
    return projectionFrom(this.#index.projectPositions(), this.#nodes);
  }

  /** The active branch, root first: the node objects handed in. @returns {SessionNode[]} */
  history() {
    const nodes = this.#nodes;
    return this.#index.historyPositions().map((i) => nodes[i]);
  }

  /** @returns {BranchReadResult} */
  readBranch() {
    return branchFrom(this.#index.readBranchPositions(), this.#nodes);
  }

  /** @param {ModelProfile} model @param {EstimateOptions} [options] */
  estimate(model, options) {
    return this.#index.estimate(model, options);
  }

  /** @param {ModelProfile} model @param {PlanOptions} options */
  plan(model, options) {
    return this.#index.plan(model, options);
  }

  /** The summary request of a compacting `plan` made on this index. @param {Plan} plan @param {ModelProfile} model */
  summaryRequest(plan, model) {
    return this.#index.summaryRequest(plan, model);
  }

  /** @param {ModelProfile} model @param {CacheBreakpointOptions} [options] */
  cacheBreakpoints(model, options) {
    return this.#index.cacheBreakpoints(model, options);
  }

  retryTarget() {
    return this.#index.retryTarget();
  }

  editTarget() {
    return this.#index.editTarget();
  }

  /** @param {string} nodeId */
  canFork(nodeId) {
    return this.#index.canFork(nodeId);
  }

  toSession() {
    return this.#index.toSession();
  }

  free() {
    this.#index.free();
  }

  projectPositions() {
    return this.#index.projectPositions();
  }

  historyPositions() {
    return this.#index.historyPositions();
  }

  readBranchPositions() {
    return this.#index.readBranchPositions();
  }

  static {
    appendHeld = (index, node) => {
      appendShallow(index.#index, node);
      index.#nodes.push(node);
    };
    heldCount = (index) => index.#nodes.length;
    firstNode = (index) => index.#nodes[0];
    heldPrefixOf = (index, nodes) => {
      const held = index.#nodes;
      if (nodes.length < held.length) return false;
      for (let i = held.length - 1; i >= 0; i--) if (nodes[i] !== held[i]) return false;
      return true;
    };
  }
}
if (dispose) /** @type {Record<symbol, unknown>} */ (/** @type {object} */ (SessionIndex.prototype))[dispose] = SessionIndex.prototype.free;

const utf8 = new TextEncoder();
/** The UTF-8 of the node being appended; grown as needed, reused for every node. */
let nodeBytes = new Uint8Array(1 << 16);
/** The largest encoding buffer kept between nodes (nodes up to 1 Mi UTF-16 units). */
const KEPT_BUFFER_BYTES = 3 << 20;

/**
 * `appendShallow` of `node`: its text encoded into a reused buffer and copied into wasm from there,
 * so a session read node by node leaves no `Uint8Array` per node behind. Throws (the caller reads the
 * whole session) for what `JSON.stringify` does not turn into a text, as `appendShallow` does.
 * @param {WasmIndex} index @param {unknown} node
 */
function appendShallow(index, node) {
  const text = JSON.stringify(node);
  if (typeof text !== 'string') throw new TypeError('node is not JSON data');
  // UTF-8 takes at most three bytes per UTF-16 unit. A node larger than the kept buffer's limit (a
  // long tool output) gets a buffer of its own, so one such node does not hold memory for good.
  const needed = text.length * 3;
  let bytes = nodeBytes;
  if (bytes.length < needed) {
    bytes = new Uint8Array(Math.max(needed, Math.min(bytes.length * 2, KEPT_BUFFER_BYTES)));
    if (bytes.length <= KEPT_BUFFER_BYTES) nodeBytes = bytes;
  }
  const { written } = utf8.encodeInto(text, bytes);
  /** @type {InternalSessionIndex} */ (index).appendShallowUtf8(bytes.subarray(0, written));
}

/**
 * Plain session data whose JSON text is its fields (no `toJSON` of its own), with a leaf.
 * @param {any} session @returns {session is Session & { leafId: string }}
 */
function plainSession(session) {
  if (typeof session !== 'object' || session === null || typeof session.toJSON === 'function') return false;
  const { nodes, leafId, branchRevision } = session;
  return Array.isArray(nodes) && typeof (/** @type {{ toJSON?: unknown }} */ (nodes)).toJSON !== 'function' && nodes.length > 0 && isNodeId(leafId) && isCount(branchRevision);
}

/**
 * The index of `session` built node by node: each node crosses as its own small JSON text, so the
 * whole session's text never sits in wasm memory beside the nodes read from it (the peak of a
 * large session). Null when a node is one the whole session's read must decide (invalid, a
 * duplicate id, deep nesting) or the leaf is not a node: the caller reads the session's text.
 * @param {unknown} session
 */
function fromNodes(session) {
  if (!plainSession(session)) return null;
  const index = WasmIndex.from({ nodes: [], leafId: null, branchRevision: 0 });
  try {
    for (const node of session.nodes) appendShallow(index, node);
    index.setLeaf(session.leafId, session.branchRevision);
  } catch {
    index.free();
    return null;
  }
  return new SessionIndex(index, Array.from(session.nodes));
}

/**
 * The projection with the caller's node objects at the positions the wasm answered (the positions
 * of message nodes: the wasm projects no checkpoint node itself).
 * @param {ReturnType<WasmIndex['projectPositions']>} positions @param {readonly SessionNode[]} nodes
 * @returns {Projection}
 */
export function projectionFrom({ items, checkpointId, keptFromId }, nodes) {
  return { checkpointId, keptFromId, messages: items.map((item) => (typeof item === 'number' ? /** @type {import('ai').UIMessage} */ (nodes[item]) : item.summary)) };
}

/**
 * The branch read with the caller's node objects at the positions the wasm answered.
 * @param {ReturnType<WasmIndex['readBranchPositions']>} positions @param {readonly SessionNode[]} nodes
 * @returns {BranchReadResult}
 */
export function branchFrom({ nodes: positions, problems, readOnly }, nodes) {
  return { nodes: positions.map((i) => nodes[i]), problems, readOnly };
}

// ---------------------------------------------------------------------------------------------
// The hidden indexes of the stateless calls

/** Sessions held at once (each a wasm index); the least recently used is freed first. */
const HELD_SESSIONS = 2;
/** Most recently used last: { index, leafId, branchRevision }. @type {HeldEntry[]} */
const held = [];

const isNodeId = (/** @type {unknown} */ id) => typeof id === 'string' && id !== '';
const isCount = (/** @type {unknown} */ n) => Number.isSafeInteger(n) && /** @type {number} */ (n) >= 0;

/** @param {HeldEntry} entry */
function drop(entry) {
  held.splice(held.indexOf(entry), 1);
  entry.index.free();
}

/**
 * The hidden index for `session`, brought up to date, or null when the session is not one it can
 * hold (not plain data, no leaf, or a node the index refuses): the caller then answers from the
 * session text as before, with the same errors. Answers through the index equal those of a fresh
 * read of the session (tests/node/session-cache.test.mjs).
 * @param {unknown} session
 */
export function heldIndexFor(session) {
  if (!plainSession(session)) return null;
  const { nodes, leafId, branchRevision } = session;
  let entry = held.find((e) => heldPrefixOf(e.index, nodes));
  if (entry) {
    held.splice(held.indexOf(entry), 1);
    held.push(entry);
    try {
      for (let i = heldCount(entry.index); i < nodes.length; i++) appendHeld(entry.index, nodes[i]);
      if (entry.leafId !== leafId || entry.branchRevision !== branchRevision) {
        // Marked stale first: a failed move leaves the index's branch unknown.
        entry.leafId = null;
        entry.index.setLeaf(leafId, branchRevision);
        entry.leafId = leafId;
        entry.branchRevision = branchRevision;
      }
      return entry.index;
    } catch {
      // A node the strict append refuses (or a leaf it cannot move to): read the whole session.
      drop(entry);
    }
  }
  // Indexes of this session's earlier objects (a node was replaced) will not match again.
  for (const stale of held.filter((e) => firstNode(e.index) === nodes[0])) drop(stale);
  let index;
  try {
    index = SessionIndex.from(session);
  } catch {
    return null;
  }
  entry = { index, leafId, branchRevision };
  held.push(entry);
  if (held.length > HELD_SESSIONS) drop(held[0]);
  return index;
}

/** Frees every hidden index (e.g. when the plugin unloads); later calls start afresh. */
export function releaseHeldSessions() {
  while (held.length) drop(held[held.length - 1]);
}
