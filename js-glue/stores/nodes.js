// What every store checks about nodes, ids and head moves, and the errors it throws: the rules
// that need no database.

import { SessionIndex } from '../bibgenie_compaction.js';
import { codedError as storeError } from '../util/coded-error.js';
import { randomHex } from '../util/random-id.js';

const WasmIndex = /** @type {import('../wasm-internals.js').InternalSessionIndexClass} */ (/** @type {unknown} */ (SessionIndex));

/** @typedef {import('../bibgenie_compaction.js').SessionNode} SessionNode */
/** @typedef {import('./store-core.js').NodeRow} NodeRow */

/** A JS Error with a stable `code` (and fields such as `retryable`), like the wasm core's. */
export { storeError };

/** A random id; crypto.randomUUID where the runtime has it (Node, Firefox, Zotero). */
export function randomId() {
  const c = /** @type {Partial<typeof globalThis>} */ (globalThis).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  return randomHex(16);
}

/**
 * Whether a node is a compaction checkpoint (`{ id, parentId, createdAt?, checkpoint }`): `history()`
 * and a store's `load()` return checkpoints in place, which a chat UI (`useChat`) does not show.
 * `history(session).filter((node) => !isCheckpoint(node))` is then `MessageNode[]`.
 * @param {unknown} node
 * @returns {node is import('../bibgenie_compaction.js').CheckpointNode}
 */
export function isCheckpoint(node) {
  return typeof node === 'object' && node !== null && Object.prototype.hasOwnProperty.call(node, 'checkpoint');
}

/**
 * Rule `interrupted-tool`, as the core applies it (src/session/workflow.rs): the message stored as
 * `json` has an unfinished tool part that can still complete as far as the message tells (not cut).
 * It is pending only while no user message follows it on the branch (the store checks that part).
 * @param {string} json
 */
export function mayStillCompleteTool(json) {
  return WasmIndex.mayStillCompleteTool(json);
}

/**
 * Checks the node and returns its JSON text: first the fields the store itself relies on, then the
 * text by the core's own node rules (what the session's read would call invalid, and make the
 * session read-only with, is refused before it is written), then the AI SDK 4 shapes the core would
 * keep as unknown parts.
 * @param {unknown} node
 * @param {string} where
 */
export function nodeJson(node, where) {
  const n = nodeFields(node, where);
  let json;
  try {
    json = JSON.stringify(node);
  } catch (cause) {
    throw storeError('invalid-node', `${where}: node ${n.id} is not JSON-serializable: ${String(cause)}`);
  }
  const legacy = aiSdk4Shape(n);
  try {
    WasmIndex.checkNodeText(json);
  } catch (cause) {
    const error = /** @type {{ code?: unknown, message?: unknown }} */ (cause);
    // A store used before the wasm is loaded keeps the checks above and the AI SDK 4 one below.
    if (error?.code === 'not-loaded') return checkedLegacy(n, legacy, where, json);
    if (error?.code !== 'invalid-node') throw cause;
    throw storeError('invalid-node', `${where}: ${String(error.message)}${legacy ? ` (${legacy})` : ''}`, { nodeId: n.id });
  }
  return checkedLegacy(n, legacy, where, json);
}

/**
 * The fields the store itself relies on (an object, its id, its parentId), checked before the
 * session's state is read; returns the node as a record.
 * @param {unknown} node @param {string} where
 */
export function nodeFields(node, where) {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) {
    throw storeError('invalid-node', `${where}: a node must be an object`);
  }
  const n = /** @type {Record<string, unknown>} */ (node);
  if (typeof n.id !== 'string' || n.id === '') {
    throw storeError('invalid-node', `${where}: node.id must be a non-empty string`);
  }
  if (n.parentId !== null && typeof n.parentId !== 'string') {
    throw storeError('invalid-node', `${where}: node ${n.id}: parentId must be a string or null`);
  }
  // The node's text keeps them (JSON escapes them), but the id columns could not.
  for (const field of /** @type {const} */ (['id', 'parentId'])) {
    const value = n[field];
    if (typeof value === 'string' && !keepsExactly(value)) {
      throw storeError('invalid-node', `${where}: node.${field} ${JSON.stringify(value)} ${NOT_KEPT}`);
    }
  }
  return n;
}

/**
 * `json`, unless the node is in AI SDK 4's shape (whose tool calls the core would keep as unknown parts).
 * @param {Record<string, unknown>} n @param {string | null} legacy @param {string} where @param {string} json
 */
function checkedLegacy(n, legacy, where, json) {
  if (legacy) throw storeError('invalid-node', `${where}: node ${n.id}: ${legacy}`, { nodeId: n.id });
  return json;
}

const AI_SDK_4 = 'an AI SDK 4 message: since AI SDK 5 a UIMessage keeps its text and tool calls in `parts` '
  + "({ type: 'text', text }, { type: 'tool-<name>', toolCallId, state, input, output }), not in `content` or `toolInvocations`";

/** @param {Record<string, unknown>} n */
function hasToolInvocationPart(n) {
  return Array.isArray(n.parts) && n.parts.some((p) => typeof p === 'object' && p !== null && /** @type {{ type?: unknown }} */ (p).type === 'tool-invocation');
}

/** The hint for a node in AI SDK 4's message shape, or null. @param {Record<string, unknown>} n */
function aiSdk4Shape(n) {
  const legacy = n.toolInvocations !== undefined || hasToolInvocationPart(n) || (typeof n.content === 'string' && n.parts === undefined);
  return legacy ? AI_SDK_4 : null;
}

/** @param {SessionNode} node @param {string} json @returns {NodeRow} */
export function nodeRow(node, json) {
  return { id: node.id, parentId: node.parentId, kind: isCheckpoint(node) ? 'checkpoint' : 'message', json };
}

/**
 * A UTF-16 surrogate without its pair. SQLite keeps text as UTF-8, where one becomes U+FFFD: an id
 * holding one would be stored as another id (a session row its nodes no longer refer to).
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a store keeps `text` exactly, on every backend. @param {string} text */
export function keepsExactly(text) {
  return !LONE_SURROGATE.test(text);
}

const NOT_KEPT = 'has a lone UTF-16 surrogate, which a store cannot keep exactly';

/** @param {string} where @param {unknown} id @param {string} name */
export function requireId(where, id, name) {
  if (typeof id !== 'string' || id === '') {
    throw storeError('invalid-argument', `${where}: ${name} must be a non-empty string`);
  }
  if (!keepsExactly(id)) throw storeError('invalid-argument', `${where}: ${name} ${JSON.stringify(id)} ${NOT_KEPT}`);
}

/** @param {string} where @param {unknown} value @param {string} name */
export function optionalText(where, value, name) {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw storeError('invalid-argument', `${where}: ${name} must be a string or null`);
  }
  if (typeof value === 'string' && !keepsExactly(value)) {
    throw storeError('invalid-argument', `${where}: ${name} ${JSON.stringify(value)} ${NOT_KEPT}`);
  }
  return value ?? null;
}

/**
 * The ids on the chain from `id` up to its root in `byId` (a broken chain stops where it breaks).
 * @param {Map<string, { parentId: string | null }>} byId @param {string | null} id
 */
export function ancestorChain(byId, id) {
  const chain = new Set();
  for (let at = id; at !== null && byId.has(at) && !chain.has(at); ) {
    chain.add(at);
    const parent = /** @type {{ parentId: unknown }} */ (byId.get(at)).parentId;
    at = typeof parent === 'string' ? parent : null;
  }
  return chain;
}

/**
 * A head move's rules: never a lower revision; a leaf move needs a higher one.
 * @param {{ leafId: string | null, branchRevision: number }} row
 * @param {string | null} leafId @param {number} branchRevision @param {string} where
 */
export function checkHeadMove(row, leafId, branchRevision, where) {
  if (!Number.isSafeInteger(branchRevision) || branchRevision < row.branchRevision) {
    throw storeError('invalid-revision', `${where}: branchRevision ${branchRevision} is not an integer >= ${row.branchRevision}`);
  }
  if (leafId !== row.leafId && branchRevision === row.branchRevision) {
    throw storeError('invalid-revision', `${where}: moving the leaf must increase branchRevision (now ${row.branchRevision})`);
  }
}
