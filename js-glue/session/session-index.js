// The one held session: a wasm index of a session's nodes plus the nodes themselves, answering every
// decision (plan, estimate, projection, summary request, cache marks, commit check) without the
// session crossing into wasm again. An app holds one with `SessionIndex.from(session)` (its own node
// objects are handed back: no JSON copy); a store holds one per open session, fed with its rows'
// JSON text (./node-source.js), and lends it to `withSessionIndex` callbacks.
// Node objects are treated as immutable once handed in (docs/performance.md): a changed node must be
// a new object in a new index.
import { SessionIndex as WasmIndex } from '../bibgenie_compaction.js';
import { codedError } from '../util/coded-error.js';
import { ObjectNodes, TextNodes } from './node-source.js';

/**
 * @import { BranchReadResult, CacheBreakpointOptions, CommitCheck, EstimateOptions, ModelProfile, Plan, PlanOptions, Projection, Session, SessionNode, SummaryRequestOptions } from '../bibgenie_compaction.js'
 * @import { InternalSessionIndex } from '../wasm-internals.js'
 */

/** Store-side operations on a held index (./stores/session-indexes.js); set in the class's static block. */
/** @type {() => SessionIndex} */
let heldByStore;
/** @type {(index: SessionIndex, id: string, text: string) => void} */
let appendStoredText;
/** @type {(index: SessionIndex, id: string, text: string) => void} */
let replaceStoredText;
/** @type {(index: SessionIndex, leafId: string, branchRevision: number) => void} */
let moveStoredLeaf;
/** @type {(index: SessionIndex) => void} */
let freeStored;
/** @type {(index: SessionIndex, count: number) => boolean} */
let warmStored;
/** @type {(index: SessionIndex, id: string) => string | undefined} */
let storedTextOf;
/**
 * The wasm index's request in parts (`skip_typescript`: the runner's alone).
 * @typedef {{ beginSummaryRequest(plan: Plan, model: ModelProfile, options?: SummaryRequestOptions): number,
 *   continueSummaryRequest(number: number): boolean,
 *   takeSummaryRequest(number: number): [fieldsText: string, history: string, prompt: string] | undefined }} WasmRequestParts
 */
/** @type {(index: SessionIndex) => WasmRequestParts} */
let wasmOf;

const dispose = typeof Symbol === 'function' && Symbol.dispose;

/**
 * A session held in wasm for repeated calls; `free()` it when the session closes. An index lent by
 * a store (`store.withSessionIndex`) is valid only inside that callback and stays the store's: its
 * `append`, `setLeaf` and `free` throw `store-held`.
 */
export class SessionIndex {
  /** @type {InternalSessionIndex} */
  #index;
  /** @type {ObjectNodes | TextNodes} */
  #nodes;
  /** @type {string | null} */
  #leafId = null;
  #branchRevision = 0;
  #storeHeld = false;

  /** Use `SessionIndex.from(session)`. @param {InternalSessionIndex} index @param {ObjectNodes | TextNodes} nodes */
  constructor(index, nodes) {
    if (!(index instanceof WasmIndex)) throw new TypeError('SessionIndex: use SessionIndex.from(session)');
    this.#index = index;
    this.#nodes = nodes;
  }

  /**
   * The index of a session. Node by node when it can (each node crosses as its own small JSON text,
   * so the whole session's text never sits in wasm memory beside what is read from it), else from
   * the session's whole text, which throws the session's errors (`invalid-session`, `invalid-node`).
   * @param {Session} session
   */
  static from(session) {
    const index = nodeByNode(session) ?? new SessionIndex(/** @type {InternalSessionIndex} */ (WasmIndex.from(session)), new ObjectNodes(Array.from(session.nodes)));
    index.#leafId = session.leafId ?? null;
    index.#branchRevision = session.branchRevision ?? 0;
    return index;
  }

  /** The leaf of the active branch (null: an empty session). */
  get leafId() {
    return this.#leafId;
  }

  get branchRevision() {
    return this.#branchRevision;
  }

  /** Nodes held (every node of the session, in order). */
  get size() {
    return this.#nodes.size;
  }

  /** Whether a node with this id is in the session. @param {string} id */
  has(id) {
    return this.#nodes.has(id);
  }

  /** Appends a durable node (the leaf does not move); the index keeps this object. @param {SessionNode} node */
  append(node) {
    this.#own('append');
    this.#index.append(node);
    /** @type {ObjectNodes} */ (this.#nodes).push(node);
  }

  /** @param {string} leafId @param {number} branchRevision */
  setLeaf(leafId, branchRevision) {
    this.#own('setLeaf');
    this.#index.setLeaf(leafId, branchRevision);
    this.#leafId = leafId;
    this.#branchRevision = branchRevision;
  }

  /** The model projection: the summary message, then the session's messages. @returns {Projection} */
  project() {
    const { items, checkpointId, keptFromId } = this.#index.projectPositions();
    return { checkpointId, keptFromId, messages: this.#nodes.messages(items) };
  }

  /** The active branch, root first, checkpoints in place. @returns {SessionNode[]} */
  history() {
    const nodes = this.#nodes;
    return this.#index.historyPositions().map((i) => nodes.node(i));
  }

  /** The active branch with its integrity problems. @returns {BranchReadResult} */
  readBranch() {
    const { nodes: positions, problems, readOnly } = this.#index.readBranchPositions();
    const nodes = this.#nodes;
    return { nodes: positions.map((i) => nodes.node(i)), problems, readOnly };
  }

  /** @param {ModelProfile} model @param {EstimateOptions} [options] */
  estimate(model, options) {
    return this.#index.estimate(model, options);
  }

  /** @param {ModelProfile} model @param {PlanOptions} options */
  plan(model, options) {
    return this.#index.plan(model, options);
  }

  /**
   * The summary request of a compacting `plan` made on this index; `options.items`: the app's numeric
   * item ids resolved (`resolveItem`). @param {Plan} plan @param {ModelProfile} model @param {SummaryRequestOptions} [options]
   */
  summaryRequest(plan, model, options) {
    return this.#index.summaryRequest(plan, model, options);
  }

  /** Whether a summary made on `plan` may be committed onto the session as held now. @param {Plan} plan @returns {CommitCheck} */
  checkCommit(plan) {
    return this.#index.checkCommit(plan);
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

  /**
   * The session as held now: `nodes` are the objects handed in (an index a store lent: parsed from
   * the stored text when first read, a snapshot that later writes do not change).
   * @returns {Session}
   */
  toSession() {
    return this.#nodes.session(this.#leafId, this.#branchRevision);
  }

  free() {
    this.#own('free');
    this.#index.free();
  }

  /** @param {string} method */
  #own(method) {
    if (this.#storeHeld) throw codedError('store-held', `SessionIndex.${method}: this index is the store's; it changes with the store's writes`);
  }

  static {
    heldByStore = () => {
      const index = new SessionIndex(/** @type {InternalSessionIndex} */ (WasmIndex.from({ nodes: [], leafId: null, branchRevision: 0 })), new TextNodes());
      index.#storeHeld = true;
      return index;
    };
    appendStoredText = (index, id, text) => {
      index.#index.appendText(text);
      /** @type {TextNodes} */ (index.#nodes).push(id, text);
    };
    replaceStoredText = (index, id, text) => {
      index.#index.replaceText(text);
      /** @type {TextNodes} */ (index.#nodes).replace(id, text);
    };
    moveStoredLeaf = (index, leafId, branchRevision) => {
      index.#leafId = null; // a failed move leaves the branch unknown
      index.#index.setLeaf(leafId, branchRevision);
      index.#leafId = leafId;
      index.#branchRevision = branchRevision;
    };
    freeStored = (index) => index.#index.free();
    warmStored = (index, count) => /** @type {any} */ (index.#index).warmTokens(count);
    storedTextOf = (index, id) => /** @type {TextNodes} */ (index.#nodes).textOf(id);
    wasmOf = (index) => /** @type {WasmRequestParts} */ (/** @type {unknown} */ (index.#index));
  }
}
if (dispose) /** @type {Record<symbol, unknown>} */ (/** @type {object} */ (SessionIndex.prototype))[dispose] = SessionIndex.prototype.free;

/** What a store does with the index it holds for an open session (never exported by the package). */
export const storeHeldIndex = {
  /** A new, empty index the store feeds with its rows' text. */
  create: () => heldByStore(),
  /** Appends one node from its stored JSON text. */
  append: (/** @type {SessionIndex} */ index, /** @type {string} */ id, /** @type {string} */ text) => appendStoredText(index, id, text),
  /** Replaces the node of the same id from its stored JSON text (a node updated in place). */
  replace: (/** @type {SessionIndex} */ index, /** @type {string} */ id, /** @type {string} */ text) => replaceStoredText(index, id, text),
  /** Moves the leaf (the index's leaf is null while it moves: a failed move leaves it unknown). */
  setLeaf: (/** @type {SessionIndex} */ index, /** @type {string} */ leafId, /** @type {number} */ revision) => moveStoredLeaf(index, leafId, revision),
  free: (/** @type {SessionIndex} */ index) => freeStored(index),
  /** Grows the wasm heap once for an index of about `chars` of stored node text (`reserveFor`). */
  reserve: (/** @type {number} */ chars) => reserveFor(chars),
  /** Estimates up to `count` more nodes of the branch (the first plan's work, in parts); true once all are. */
  warm: (/** @type {SessionIndex} */ index, /** @type {number} */ count) => warmStored(index, count),
  /** The stored JSON text of node `id` as held (undefined: not held). */
  textOf: (/** @type {SessionIndex} */ index, /** @type {string} */ id) => storedTextOf(index, id),
};

/**
 * `index.summaryRequest(plan, model, options)` built in parts, a call each (a step of its serialized
 * history, its ledger, its registers, the request), so that the runner builds a large request in
 * several tasks; the request is the same either way (never exported by the package). `begin` answers
 * the number `next` (true while a part is left) and `take` (the request's JSON text once every part
 * is built, else undefined) name the parts by; a change to the session drops them.
 */
export const requestParts = {
  /** @param {SessionIndex} index @param {Plan} plan @param {ModelProfile} model @param {SummaryRequestOptions} [options] */
  begin: (index, plan, model, options) => wasmOf(index).beginSummaryRequest(plan, model, options),
  /** @param {SessionIndex} index @param {number} number */
  next: (index, number) => wasmOf(index).continueSummaryRequest(number),
  /** @param {SessionIndex} index @param {number} number */
  take: (index, number) => wasmOf(index).takeSummaryRequest(number),
};

/** Reservations for less node text than this (bytes, or UTF-16 units of stored text) are not made. */
const RESERVE_FROM_BYTES = 1 << 20;
/**
 * Wasm memory an index holds per byte of node text: about 1.7 for the 10,000-message bench session
 * (tool data are ranges of the node text); more only raises the peak, less grows the rest.
 */
const HELD_BYTES_PER_TEXT_BYTE = 1.6;

/**
 * Grows the wasm heap once for an index of about `textBytes` of node text. Grown page by page as an
 * index fills, each growth made V8 account for more external memory and collect its JS heap, which
 * holds the session's objects: a cold `estimate` of a 47 MB session in a fresh process spent about a
 * second on it (docs/performance.md, "The first call in a fresh process"). A reservation the heap
 * cannot make is skipped: the index then grows as it goes.
 * @param {number} textBytes
 */
function reserveFor(textBytes) {
  if (textBytes > RESERVE_FROM_BYTES) /** @type {any} */ (WasmIndex).reserveText(Math.floor(textBytes * HELD_BYTES_PER_TEXT_BYTE));
}

const utf8 = new TextEncoder();
/** The UTF-8 of the node being appended; grown as needed, reused for every node. */
let nodeBytes = new Uint8Array(1 << 16);
/** The largest encoding buffer kept between nodes (nodes up to 1 Mi UTF-16 units). */
const KEPT_BUFFER_BYTES = 3 << 20;

/**
 * `appendShallow` of `node`: its text encoded into a reused buffer and copied into wasm from there,
 * so a session read node by node leaves no `Uint8Array` per node behind. Throws (the caller reads the
 * whole session) for what `JSON.stringify` does not turn into a text, as `appendShallow` does.
 * @param {InternalSessionIndex} index @param {unknown} node @returns {number} the bytes appended
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
  index.appendShallowUtf8(bytes.subarray(0, written));
  return written;
}

const isNodeId = (/** @type {unknown} */ id) => typeof id === 'string' && id !== '';
const isCount = (/** @type {unknown} */ n) => Number.isSafeInteger(n) && /** @type {number} */ (n) >= 0;

/**
 * The index of `session` built node by node, or null when the session's whole read must decide:
 * not plain data (a `toJSON` of its own), no leaf, or a node the strict append refuses (invalid, a
 * duplicate id, deep nesting).
 * @param {any} session
 */
function nodeByNode(session) {
  if (typeof session !== 'object' || session === null || typeof session.toJSON === 'function') return null;
  const { nodes, leafId, branchRevision } = session;
  if (!Array.isArray(nodes) || typeof (/** @type {{ toJSON?: unknown }} */ (nodes)).toJSON === 'function' || nodes.length === 0) return null;
  if (!isNodeId(leafId) || !isCount(branchRevision)) return null;
  const index = /** @type {InternalSessionIndex} */ (WasmIndex.from({ nodes: [], leafId: null, branchRevision: 0 }));
  try {
    // The session's size is known only as it is read: each time the text read doubles, the heap is
    // grown for as much again, or for the rest of the nodes at the size of those read so far (a
    // quarter more: the estimate that follows allocates too) when that is less, so that a session
    // ending just after a doubling does not leave the heap near twice what it needs.
    let read = 0;
    let roomFor = 0;
    for (let i = 0; i < nodes.length; i++) {
      read += appendShallow(index, nodes[i]);
      if (read > roomFor) {
        reserveFor(Math.min(read, (read / (i + 1)) * (nodes.length - i - 1) * 1.25));
        roomFor = read * 2;
      }
    }
    index.setLeaf(leafId, branchRevision);
  } catch {
    index.free();
    return null;
  }
  return new SessionIndex(index, new ObjectNodes(Array.from(nodes)));
}
