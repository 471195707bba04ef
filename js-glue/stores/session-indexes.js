// The store-held index of an open session: a wasm SessionIndex fed with each node's stored JSON text
// (the rows' text: no parse + stringify round trip), kept beside the texts it was fed, per driver
// (stores sharing one connection share them). It is brought up to date before every use:
// - own writes (through any store on the driver): appended rows are read after the last seq seen;
//   a node updated in place (updateMessageParts) is replaced from its row (`replaceText`);
//   a deleted session frees the indexes seeing it;
// - other connections (another store object on its own connection, another process): the driver's
//   change token (SQLite `PRAGMA data_version`) read before and after the rows; when it moved,
//   a changed head is not explained by own writes, so the index is rebuilt from the rows' text.
// Anything that cannot be caught up rebuilds; a session the index cannot hold (a node the typed
// reader leaves to the whole session's read, no leaf, wasm not loaded) gives no view.
import { SessionIndex } from '../bibgenie_compaction.js';
import { ancestorChain } from './nodes.js';

/** The wasm class with the text appends the stores use (declared in wasm-internals.d.ts). */
const WasmIndex = /** @type {import('../wasm-internals.js').InternalSessionIndexClass} */ (/** @type {unknown} */ (SessionIndex));

/** Sessions from this many characters of text reserve wasm memory before a build. */
const RESERVE_FROM_CHARS = 1 << 20;
/**
 * Wasm memory reserved per character of text: the index of the 10,000-message bench session takes
 * about 1.7 (tool data are ranges of the node text); more only raises the peak, less grows the rest.
 */
const HELD_BYTES_PER_CHAR = 1.6;

/** Indexes held per driver; the least recently used is freed beyond this. */
export const HELD_SESSION_INDEXES = 4;

/**
 * @typedef {{ seq: number, id: string, parentId: string | null, json: string, session?: string }} SeqRow
 * @typedef {{
 *   index: import('../wasm-internals.js').InternalSessionIndex, texts: string[], ids: Map<string, number>, owners: Map<string, string>, chain: Set<string>,
 *   seq: number, leafId: string | null, branchRevision: number, createdAt: number, generation: string | null,
 *   baseSessionId: string | null, baseNodeId: string | null, token: unknown,
 *   replaced: Map<string, string>, lastOwnId: string | null, parsed: Map<number, { text: string, value: unknown }>,
 * }} Held
 *   `owners`: the session each held node is a row of (a fork's inherited nodes are its base's);
 *   `replaced`: nodes updated in place through this connection since the last use (id -> owning session);
 *   `parsed`: the last projection's messages as parsed from their text (never handed out: copies are).
 */

/**
 * Keyed by the connection (`driver.db`; the driver itself when it has none), not the driver: stores
 * on one connection see each other's writes only through these notes (SQLite's `data_version` does
 * not move for the connection's own writes), and two stores may wrap one connection each in a driver.
 * @type {WeakMap<object, Map<string, Held>>} connection -> session id -> held index (most recent last)
 */
const HELD = new WeakMap();

/** @param {any} driver */
function heldOf(driver) {
  const connection = driver.db && typeof driver.db === 'object' ? driver.db : driver;
  let map = HELD.get(connection);
  if (!map) HELD.set(connection, (map = new Map()));
  return map;
}

/** A view whose read another connection wrote into: tried again, then left to load(). */
const MOVED = Symbol('moved');
const SYNC_ATTEMPTS = 3;

/** @param {Map<string, Held>} map @param {string} sessionId */
function drop(map, sessionId) {
  const held = map.get(sessionId);
  if (!held) return;
  map.delete(sessionId);
  held.index.free();
}

/**
 * An own in-place update of node `nodeId` of `sessionId`: every index holding it replaces it at its
 * next use, from the row's durable text then (so a write that rolled back replaces it with itself).
 */
export function noteNodeUpdated(/** @type {object} */ driver, /** @type {string} */ sessionId, /** @type {string} */ nodeId) {
  for (const held of heldOf(driver).values()) {
    // The node of that session only: a fork may hold its own node under the same id.
    if (held.owners.get(nodeId) === sessionId) held.replaced.set(nodeId, sessionId);
  }
}

/** A deleted session: its index, and those of sessions seeing its nodes, are freed. */
export function noteSessionDeleted(/** @type {object} */ driver, /** @type {string} */ sessionId) {
  const map = heldOf(driver);
  for (const [id, held] of [...map]) if (held.chain.has(sessionId)) drop(map, id);
}

/** Frees every index held for `driver` (the store closed). */
export function releaseIndexes(/** @type {object} */ driver) {
  const map = heldOf(driver);
  for (const id of [...map.keys()]) drop(map, id);
}

/** Frees the index of one session, if held. */
export function releaseIndex(/** @type {object} */ driver, /** @type {string} */ sessionId) {
  drop(heldOf(driver), sessionId);
}

/**
 * The rows visible in a session, in load() order: for a fork, the ancestor chain of its base node
 * (recursively) and then its own rows; as SessionStoreBase#visibleJsons, from the id columns.
 * `lastSeq`: the seq of the session's own last row (0 for none).
 * @param {any} driver @param {import('./base.js').SessionRow} row @param {Set<string>} chain sessions read (filled)
 * @returns {Generator<unknown, { rows: SeqRow[], lastSeq: number, lastOwnId: string | null }, any>}
 */
function* visibleRows(driver, row, chain) {
  /** @type {SeqRow[]} */
  const own = yield driver.getNodeRowsAfter(row.id, 0);
  for (const r of own) r.session = row.id;
  const lastSeq = own.length ? own[own.length - 1].seq : 0;
  const lastOwnId = own.length ? own[own.length - 1].id : null;
  const seen = chain.has(row.id);
  chain.add(row.id);
  if (row.baseSessionId === null || row.baseNodeId === null || seen) return { rows: own, lastSeq, lastOwnId };
  const base = yield driver.getSession(row.baseSessionId);
  if (!base) return { rows: own, lastSeq, lastOwnId };
  const { rows: baseRows } = yield* visibleRows(driver, base, chain);
  const kept = ancestorChain(new Map(baseRows.map((r) => [r.id, r])), row.baseNodeId);
  return { rows: [...baseRows.filter((r) => kept.has(r.id)), ...own], lastSeq, lastOwnId };
}

/**
 * @param {any} driver @param {import('./base.js').SessionRow} row
 * @returns {Generator<unknown, Held | null, any>}
 */
function* build(driver, row) {
  const chain = new Set();
  const { rows, lastSeq, lastOwnId } = yield* visibleRows(driver, row, chain);
  let index;
  try {
    index = WasmIndex.from({ nodes: [], leafId: null, branchRevision: 0 });
  } catch {
    return null; // wasm not loaded
  }
  const texts = [];
  const ids = new Map();
  const owners = new Map();
  try {
    let chars = 0;
    for (const r of rows) chars += r.json.length;
    // What the index holds of a node is about twice its text (the text and what is read from it).
    if (chars > RESERVE_FROM_CHARS) WasmIndex.reserveText(Math.floor(chars * HELD_BYTES_PER_CHAR));
    for (const r of rows) {
      index.appendText(r.json);
      ids.set(r.id, texts.length);
      owners.set(r.id, /** @type {string} */ (r.session));
      texts.push(r.json);
    }
    index.setLeaf(/** @type {string} */ (row.leafId), row.branchRevision); // not null: syncOnce returns first
  } catch {
    index.free();
    return null;
  }
  return {
    index, texts, ids, owners, chain, seq: lastSeq,
    leafId: row.leafId, branchRevision: row.branchRevision, createdAt: row.createdAt, generation: row.generation ?? null,
    baseSessionId: row.baseSessionId, baseNodeId: row.baseNodeId, token: undefined,
    replaced: new Map(), lastOwnId, parsed: new Map(),
  };
}

/**
 * A deep copy of what JSON.parse made (plain objects, arrays, primitives): own keys in their order,
 * `__proto__` kept as an own key as JSON.parse keeps it.
 * @param {unknown} value @returns {unknown}
 */
function copyJson(value) {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = [];
    for (let i = 0; i < value.length; i++) out.push(copyJson(value[i]));
    return out;
  }
  /** @type {Record<string, unknown>} */
  const out = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const copied = copyJson(/** @type {Record<string, unknown>} */ (value)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: copied, enumerable: true, configurable: true, writable: true });
    else out[key] = copied;
  }
  return out;
}

/**
 * The view of a session through its held index, brought up to date (or built) inside the caller's
 * read; null when the index cannot hold the session. Throws `unknown-session` as load() does.
 * @param {any} driver
 * @param {string} sessionId
 * @param {(driver: any, sessionId: string) => Generator<unknown, import('./base.js').SessionRow, any>} readRow
 * @returns {Generator<unknown, SessionView | null, any>}
 */
export function* syncedView(driver, sessionId, readRow) {
  for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
    const view = yield* syncOnce(driver, sessionId, readRow);
    if (view !== MOVED) return view;
  }
  return null; // another connection keeps writing meanwhile: the caller reads through load()
}

/**
 * @param {any} driver @param {string} sessionId
 * @param {(driver: any, sessionId: string) => Generator<unknown, import('./base.js').SessionRow, any>} readRow
 * @returns {Generator<unknown, SessionView | null | typeof MOVED, any>}
 */
function* syncOnce(driver, sessionId, readRow) {
  const tokenBefore = driver.changeToken ? yield driver.changeToken() : null;
  let row;
  try {
    row = yield* readRow(driver, sessionId);
  } catch (error) {
    releaseIndex(driver, sessionId); // e.g. deleted through another connection
    throw error;
  }
  const map = heldOf(driver);
  /** @type {Held | null | undefined} */
  let held = map.get(sessionId);
  if (row.leafId === null) {
    if (held) drop(map, sessionId);
    return null;
  }
  if (held && !(yield* caughtUp(driver, held, row, tokenBefore))) {
    drop(map, sessionId);
    held = undefined;
  }
  if (!held) {
    held = yield* build(driver, row);
    if (!held) return null;
    map.set(sessionId, held);
    for (const id of [...map.keys()].slice(0, Math.max(0, map.size - HELD_SESSION_INDEXES))) drop(map, id);
  } else {
    map.delete(sessionId);
    map.set(sessionId, held); // most recently used last
  }
  // Read after every row this call read: a token that moved meanwhile says nothing certain about
  // what was read (a driver without one read transaction, e.g. Zotero's), so this view is not
  // handed out; the next attempt checks as for a foreign write.
  const tokenAfter = driver.changeToken ? yield driver.changeToken() : null;
  if (tokenBefore !== tokenAfter) {
    held.token = undefined;
    return MOVED;
  }
  held.token = tokenAfter;
  return new SessionView(held);
}

/**
 * Brings `held` up to `row` incrementally; false when only a rebuild can (a foreign write that
 * moved the head, another session under the same id, a replaced node gone, a refused node).
 * @param {any} driver @param {Held} held @param {import('./base.js').SessionRow} row @param {unknown} tokenBefore
 * @returns {Generator<unknown, boolean, any>}
 */
function* caughtUp(driver, held, row, tokenBefore) {
  // Another generation is another session under this id (deleted and created again, anywhere).
  if (held.generation !== (row.generation ?? null) || held.createdAt !== row.createdAt || held.baseSessionId !== row.baseSessionId || held.baseNodeId !== row.baseNodeId) return false;
  const foreign = held.token === undefined || tokenBefore !== held.token;
  const headMoved = held.leafId !== row.leafId || held.branchRevision !== row.branchRevision;
  // Another connection may have updated a node in place (which bumps the revision): not incremental.
  if (foreign && headMoved) return false;
  if (foreign && held.lastOwnId !== null) {
    // The same head yet another session under this id (deleted and recreated elsewhere)?
    /** @type {import('./base.js').NodeRow | null} */
    const last = yield driver.getNode(row.id, held.lastOwnId);
    if (!last || last.json !== held.texts[/** @type {number} */ (held.ids.get(held.lastOwnId))]) return false;
  }
  let copied = false;
  for (const [id, owner] of held.replaced) {
    /** @type {import('./base.js').NodeRow | null} */
    const stored = yield driver.getNode(owner, id);
    if (!stored) return false;
    try {
      held.index.replaceText(stored.json);
    } catch {
      return false;
    }
    // Copied, never changed in place: a session handed out earlier keeps the texts it was given.
    if (!copied) held.texts = held.texts.slice();
    copied = true;
    held.texts[/** @type {number} */ (held.ids.get(id))] = stored.json;
  }
  held.replaced.clear();
  /** @type {SeqRow[]} */
  const added = yield driver.getNodeRowsAfter(row.id, held.seq);
  try {
    for (const r of added) {
      held.index.appendText(r.json);
      held.ids.set(r.id, held.texts.length);
      held.owners.set(r.id, row.id);
      held.lastOwnId = r.id;
      held.texts.push(r.json);
      held.seq = r.seq;
    }
    if (headMoved || added.length) {
      const from = held.leafId;
      held.leafId = null; // a failed move leaves the branch unknown
      // Down a chain of new rows one child at a time: the index extends its branch in place then,
      // instead of walking the whole branch again (11 ms at 10,000 messages for one turn's two rows).
      const leafId = /** @type {string} */ (row.leafId); // not null: syncOnce returns first
      for (const id of newChainTo(added, from, leafId)) held.index.setLeaf(id, row.branchRevision);
      held.index.setLeaf(leafId, row.branchRevision);
      held.leafId = row.leafId;
      held.branchRevision = row.branchRevision;
    }
  } catch {
    return false;
  }
  return true;
}

/**
 * The new rows from the child of `from` down to the parent of `leafId`, when `leafId` is a new row
 * that descends from `from` through new rows only; else none.
 * @param {SeqRow[]} added @param {string | null} from @param {string | null} leafId
 * @returns {string[]}
 */
function newChainTo(added, from, leafId) {
  if (added.length < 2 || from === null) return [];
  const byId = new Map(added.map((r) => [r.id, r]));
  /** @type {string[]} a null parent ends the walk before it is returned */
  const chain = [];
  for (let at = byId.get(/** @type {string} */ (leafId)); at; at = at.parentId === null ? undefined : byId.get(at.parentId)) {
    if (at.parentId === from) return chain.reverse();
    chain.push(/** @type {string} */ (at.parentId));
    if (chain.length > added.length) break; // a cycle written by hand
  }
  return [];
}

/**
 * What a caller of `withSessionIndex` gets: the session as durably stored now, through its index.
 * Valid only inside the callback (the index may be caught up, rebuilt or freed afterwards); what it
 * hands out (messages, sessions) are fresh objects, equal to a parse of the stored text.
 */
export class SessionView {
  #held;
  #count;

  /** @param {Held} held */
  constructor(held) {
    this.#held = held;
    this.#count = held.texts.length;
    this.leafId = /** @type {string} */ (held.leafId);
    this.branchRevision = held.branchRevision;
  }

  /**
   * `plan`, `estimate`, `summaryRequest`, `cacheBreakpoints` and `checkCommit` of the wasm index (the index stays the store's: never freed here).
   * @returns {import('../glue.js').SessionView['index']}
   */
  get index() {
    const index = this.#held.index;
    return {
      plan: (model, options) => index.plan(model, options),
      estimate: (model, options) => index.estimate(model, options),
      summaryRequest: (plan, model) => index.summaryRequest(plan, model),
      cacheBreakpoints: (model, options) => index.cacheBreakpoints(model, options),
      checkCommit: (plan) => index.checkCommit(plan),
    };
  }

  /** Nodes visible in the session. */
  get size() {
    return this.#count;
  }

  /** Whether a node with this id is visible in the session. */
  has(/** @type {string} */ id) {
    const at = this.#held.ids.get(id);
    return at !== undefined && at < this.#count;
  }

  /**
   * The model projection with the messages parsed from the stored text (the positions projected only).
   * Each projected text is parsed once while it stays projected and unchanged; every call hands out
   * deep copies of that parse (fresh objects, equal to a parse of the text, strings shared).
   * @returns {ReturnType<import('../glue.js').SessionView['project']>}
   */
  project() {
    const held = this.#held;
    const { items, checkpointId, keptFromId } = held.index.projectPositions();
    const texts = held.texts;
    /** @type {Map<number, { text: string, value: unknown }>} */
    const parsed = new Map();
    const messages = items.map((item) => {
      if (typeof item !== 'number') return item.summary;
      const text = texts[item];
      let entry = held.parsed.get(item);
      if (entry === undefined || entry.text !== text) entry = { text, value: JSON.parse(text) };
      parsed.set(item, entry);
      return /** @type {any} */ (copyJson(entry.value));
    });
    held.parsed = parsed; // only what this projection holds is kept
    return { checkpointId, keptFromId, messages };
  }

  /**
   * The session as load() returns it, with `nodes` parsed when first read (from the texts held now,
   * which are never changed in place: a later update rebuilds with new texts).
   * @returns {import('../bibgenie_compaction.js').Session}
   */
  lazySession() {
    const texts = this.#held.texts;
    const count = this.#count;
    const session = { leafId: this.leafId, branchRevision: this.branchRevision };
    Object.defineProperty(session, 'nodes', {
      enumerable: true,
      configurable: true,
      get() {
        const nodes = texts.slice(0, count).map((text) => JSON.parse(text));
        Object.defineProperty(session, 'nodes', { value: nodes, enumerable: true, configurable: true, writable: true });
        return nodes;
      },
    });
    return /** @type {any} */ (session);
  }
}
