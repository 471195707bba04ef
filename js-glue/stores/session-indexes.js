// The store-held index of an open session: the package's SessionIndex fed with each node's stored
// JSON text (the rows' text: no parse + stringify round trip), per connection (stores sharing one
// connection share them), lent to `withSessionIndex` callbacks. It is brought up to date before every use:
// - own writes (through any store on the driver): appended rows are read after the last seq seen
//   (SqliteStore takes its committed appends and head moves in as it writes them, and a use with
//   nothing moved since reads nothing else: ./own-writes.js);
//   a node updated in place (updateMessageParts) is replaced from its row (`replaceText`);
//   a deleted session frees the indexes seeing it;
// - other connections (another store object on its own connection, another process): the driver's
//   change token (SQLite `PRAGMA data_version`) read before and after the rows; when it moved,
//   a changed head is not explained by own writes, so the index is rebuilt from the rows' text.
// Anything that cannot be caught up rebuilds; a session the index cannot hold (a node the typed
// reader leaves to the whole session's read, no leaf, wasm not loaded) gives no index (null).
import { storeHeldIndex } from '../session/session-index.js';
import { FIRST_PAGE_ROWS, readOnInPages, visibleRows } from './visible-rows.js';
import { SLICE_MS, clock, pause } from '../util/pause.js';

/** @import { SessionIndex } from '../session/session-index.js' */
/** @typedef {import('./visible-rows.js').SeqRow} SeqRow */

/** Indexes held per driver; the least recently used is freed beyond this. */
export const HELD_SESSION_INDEXES = 4;

/**
 * @typedef {{
 *   index: SessionIndex, owners: Map<string, string>, chain: Set<string>,
 *   seq: number, leafId: string | null, branchRevision: number, createdAt: number, generation: string | null,
 *   baseSessionId: string | null, baseNodeId: string | null, token: unknown,
 *   replaced: Map<string, string>, lastOwnId: string | null, changes: unknown, tentative: boolean,
 * }} Held
 *   `index`: the store's SessionIndex of the session (its nodes are the rows' text);
 *   `owners`: the session each held node is a row of (a fork's inherited nodes are its base's);
 *   `replaced`: nodes updated in place through this connection since the last use (id -> owning session);
 *   `token` / `changes`: the driver's change token and own-change count when the index was last
 *   known current (undefined: unknown), for the use that reads nothing (./own-writes.js);
 *   `tentative`: last caught up inside the app's own transaction (rebuilt at the next use).
 */

/**
 * Keyed by the connection (`driver.db`; the driver itself when it has none) and the table prefix,
 * not the driver: stores on one connection see each other's writes only through these notes
 * (SQLite's `data_version` does not move for the connection's own writes), and two stores may wrap
 * one connection each in a driver. Two prefixes are two sets of sessions (an id may be in both).
 * @type {WeakMap<object, Map<string, Map<string, Held>>>} connection -> prefix -> session id -> held index (most recent last)
 */
const HELD = new WeakMap();

/** @param {any} driver @returns {Map<string, Held>} */
export function heldOf(driver) {
  const connection = driver.db && typeof driver.db === 'object' ? driver.db : driver;
  let byPrefix = HELD.get(connection);
  if (!byPrefix) HELD.set(connection, (byPrefix = new Map()));
  const prefix = typeof driver.prefix === 'string' ? driver.prefix : '';
  let map = byPrefix.get(prefix);
  if (!map) byPrefix.set(prefix, (map = new Map()));
  return map;
}

/** What a sync answers when another connection wrote into its read: tried again, then left to load(). */
const MOVED = Object.freeze({ moved: true });
const SYNC_ATTEMPTS = 3;

/** @param {Map<string, Held>} map @param {string} sessionId */
export function drop(map, sessionId) {
  const held = map.get(sessionId);
  if (!held) return;
  map.delete(sessionId);
  storeHeldIndex.free(held.index);
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
 * @typedef {{ row: import('./store-core.js').SessionRow, chain: Set<string>, rows: SeqRow[], lastSeq: number, lastOwnId: string | null }} BuildRead
 *   what a build reads of a session in one read
 */

/**
 * @param {any} driver @param {import('./store-core.js').SessionRow} row
 * @returns {Generator<unknown, Held | null, any>}
 */
function* build(driver, row) {
  const chain = new Set();
  const read = { row, chain, ...(yield* visibleRows(driver, row, chain)) };
  const index = newIndex(read.rows);
  if (!index) return null;
  const owners = new Map();
  try {
    appendRows(index, owners, read.rows, 0, read.rows.length);
    return finishHeld(read, index, owners);
  } catch {
    storeHeldIndex.free(index);
    return null;
  }
}

/** An empty index with room for `rows`' text; null when wasm is not loaded. @param {SeqRow[]} rows */
function newIndex(rows) {
  let index;
  try {
    index = storeHeldIndex.create();
  } catch {
    return null; // wasm not loaded
  }
  let chars = 0;
  for (const r of rows) chars += r.json.length;
  try {
    storeHeldIndex.reserve(chars);
  } catch {
    storeHeldIndex.free(index);
    return null;
  }
  return index;
}

/** Appends `rows[from..to)`; throws what the index refuses. @param {SessionIndex} index @param {Map<string, string>} owners @param {SeqRow[]} rows @param {number} from @param {number} to */
function appendRows(index, owners, rows, from, to) {
  for (let i = from; i < to; i++) {
    const r = rows[i];
    storeHeldIndex.append(index, r.id, r.json);
    owners.set(r.id, /** @type {string} */ (r.session));
  }
}

/** The held index once every row is in: its leaf set. @param {BuildRead} read @param {SessionIndex} index @param {Map<string, string>} owners @returns {Held} */
function finishHeld(read, index, owners) {
  const { row } = read;
  storeHeldIndex.setLeaf(index, /** @type {string} */ (row.leafId), row.branchRevision); // not null: callers return first
  return {
    index, owners, chain: read.chain, seq: read.lastSeq,
    leafId: row.leafId, branchRevision: row.branchRevision, createdAt: row.createdAt, generation: row.generation ?? null,
    baseSessionId: row.baseSessionId, baseNodeId: row.baseNodeId, token: undefined,
    replaced: new Map(), lastOwnId: read.lastOwnId, changes: undefined, tentative: false,
  };
}

/** Nodes estimated per call between two looks at the clock. */
const WARM_NODES = 32;
/** Sessions from this many characters of text are built in slices. */
export const SLICED_FROM_CHARS = 1 << 18;


/**
 * Before a read that would build the index of a large session in one piece: reads its rows
 * (`readInPages`; `readInside` runs a generator in one read of the caller's queue), fills the index
 * and estimates its branch in slices of SLICE_MS with a pause between them, and holds it as a build
 * inside the read would have; the
 * read after this only catches up (a write from another connection meanwhile: as after any use).
 * Does nothing when the index is held, the session small, no timer exists, or anything fails: the
 * read after this then builds as before. Runs inside the store's queue: no write of this process
 * interleaves (stores on one connection share the queue), so only another connection's is caught up.
 * @param {any} driver @param {string} sessionId
 * @param {(driver: any, sessionId: string) => Generator<unknown, import('./store-core.js').SessionRow, any>} readRow
 * @param {(op: () => Generator<unknown, any, any>) => any} readInside
 * @returns {Promise<void>}
 */
export async function buildInSlices(driver, sessionId, readRow, readInside) {
  const map = heldOf(driver);
  if (map.has(sessionId) || typeof setTimeout !== 'function') return;
  /** @type {(BuildRead & { token: unknown }) | null} */
  let read;
  try {
    read = await readInPages(driver, sessionId, readRow, readInside);
  } catch {
    return; // the read after this reports it (e.g. unknown-session)
  }
  if (!read) return;
  let chars = 0;
  for (const r of read.rows) chars += r.json.length;
  if (chars < SLICED_FROM_CHARS) return;
  const index = newIndex(read.rows);
  if (!index) return;
  const owners = new Map();
  /** @type {Held | null} */
  let held = null;
  try {
    const { rows } = read;
    for (let from = 0; from < rows.length;) {
      const start = clock();
      while (from < rows.length && clock() - start < SLICE_MS) {
        const to = Math.min(rows.length, from + 16);
        appendRows(index, owners, rows, from, to);
        from = to;
      }
      await pause();
    }
    held = finishHeld(read, index, owners);
    // The token estimate of the branch, the first plan's work, in slices too (for a model without
    // replaysReasoning or imageTokens; another model's first plan estimates again, in one piece).
    for (let done = false; !done;) {
      const start = clock();
      while (!done && clock() - start < SLICE_MS) done = storeHeldIndex.warm(index, WARM_NODES);
      if (!done) await pause();
    }
  } catch {
    held = null; // a row the index refuses: the read after this finds it as before
  }
  // Writes wait for the store's queue this runs in, so nothing else built it meanwhile; if it did, that one stays.
  if (!held || map.has(sessionId)) {
    storeHeldIndex.free(index);
    return;
  }
  held.token = read.token;
  map.set(sessionId, held);
  for (const id of [...map.keys()].slice(0, Math.max(0, map.size - HELD_SESSION_INDEXES))) drop(map, id);
}

/**
 * The rows of a session for a build: in pages with a pause between them when the driver reads
 * in pages (`getNodeRowsPage`: SQLite, Zotero) and the session is no fork (a fork's base
 * rows are read in one read, as before); null without a leaf. Rows are only appended, by seq, so
 * the pages are the session as of the last one; the change token read before the first and after
 * the last says whether another connection committed meanwhile (`token` undefined then: the next
 * use checks the session as after a foreign write).
 * @param {any} driver @param {string} sessionId
 * @param {(driver: any, sessionId: string) => Generator<unknown, import('./store-core.js').SessionRow, any>} readRow
 * @param {(op: () => Generator<unknown, any, any>) => any} readInside
 * @returns {Promise<(BuildRead & { token: unknown }) | null>}
 */
async function readInPages(driver, sessionId, readRow, readInside) {
  const paged = typeof driver.getNodeRowsPage === 'function';
  const limit = FIRST_PAGE_ROWS;
  const started = clock();
  const first = await readInside(function* () {
    const tokenBefore = driver.changeToken ? yield driver.changeToken() : null;
    const row = yield* readRow(driver, sessionId);
    if (row.leafId === null) return null;
    const chain = new Set();
    if (!paged || row.baseSessionId !== null) return { row, chain, ...(yield* visibleRows(driver, row, chain)), tokenBefore, more: false };
    chain.add(row.id);
    /** @type {SeqRow[]} */
    const rows = yield driver.getNodeRowsPage(row.id, 0, limit);
    return { row, chain, rows, lastSeq: 0, lastOwnId: null, tokenBefore, more: rows.length === limit };
  });
  if (!first) return null;
  const { row, chain, rows, tokenBefore } = first;
  let { lastSeq, lastOwnId } = first;
  if (paged && row.baseSessionId === null) {
    // A session still under SLICED_FROM_CHARS is read on without a pause (the sync then builds it in one piece).
    await readOnInPages(driver, row.id, readInside, { rows, more: first.more, limit, started }, SLICED_FROM_CHARS);
    for (const r of rows) r.session = row.id;
    lastSeq = rows.length ? rows[rows.length - 1].seq : 0;
    lastOwnId = rows.length ? rows[rows.length - 1].id : null;
  }
  const tokenAfter = driver.changeToken ? await readInside(function* () {
    return yield driver.changeToken();
  }) : null;
  return { row, chain, rows, lastSeq, lastOwnId, token: tokenBefore === tokenAfter ? tokenAfter : undefined };
}

/**
 * The store's SessionIndex of a session, brought up to date (or built) inside the caller's read;
 * null when the index cannot hold the session. Throws `unknown-session` as load() does.
 * @param {any} driver
 * @param {string} sessionId
 * @param {(driver: any, sessionId: string) => Generator<unknown, import('./store-core.js').SessionRow, any>} readRow
 * @returns {Generator<unknown, SessionIndex | null, any>}
 */
export function* syncedView(driver, sessionId, readRow) {
  for (let attempt = 0; attempt < SYNC_ATTEMPTS; attempt++) {
    const index = yield* syncOnce(driver, sessionId, readRow);
    if (index !== MOVED) return /** @type {SessionIndex | null} */ (index);
  }
  return null; // another connection keeps writing meanwhile: the caller reads through load()
}

/**
 * @param {any} driver @param {string} sessionId
 * @param {(driver: any, sessionId: string) => Generator<unknown, import('./store-core.js').SessionRow, any>} readRow
 * @returns {Generator<unknown, SessionIndex | null | typeof MOVED, any>}
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
  // Caught up inside a transaction the store does not end (the app's): it may have rolled back since.
  if (held && (held.tentative || !(yield* caughtUp(driver, held, row, tokenBefore)))) {
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
  // What this connection has changed so far is in the index now, as far as a catch-up sees it.
  held.changes = driver.ownChanges ? yield driver.ownChanges() : undefined;
  held.tentative = driver.uncommitted?.() === true;
  return held.index;
}

/**
 * Brings `held` up to `row` incrementally; false when only a rebuild can (a foreign write that
 * moved the head, another session under the same id, a replaced node gone, a refused node).
 * @param {any} driver @param {Held} held @param {import('./store-core.js').SessionRow} row @param {unknown} tokenBefore
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
    /** @type {import('./store-core.js').NodeRow | null} */
    const last = yield driver.getNode(row.id, held.lastOwnId);
    if (!last || last.json !== storeHeldIndex.textOf(held.index, held.lastOwnId)) return false;
  }
  for (const [id, owner] of held.replaced) {
    /** @type {import('./store-core.js').NodeRow | null} */
    const stored = yield driver.getNode(owner, id);
    if (!stored) return false;
    try {
      storeHeldIndex.replace(held.index, id, stored.json);
    } catch {
      return false;
    }
  }
  held.replaced.clear();
  /** @type {SeqRow[]} */
  const added = yield driver.getNodeRowsAfter(row.id, held.seq);
  try {
    takeRows(held, row.id, added, /** @type {string} */ (row.leafId), row.branchRevision); // not null: syncOnce returns first
  } catch {
    return false;
  }
  return true;
}

/**
 * Appends `added` (rows of session `sessionId` after `held.seq`, by seq) and moves the leaf to
 * `leafId` at `branchRevision`; throws what the index refuses (the index is then to be dropped).
 * @param {Held} held @param {string} sessionId @param {SeqRow[]} added @param {string} leafId @param {number} branchRevision
 */
export function takeRows(held, sessionId, added, leafId, branchRevision) {
  for (const r of added) {
    storeHeldIndex.append(held.index, r.id, r.json);
    held.owners.set(r.id, sessionId);
    held.lastOwnId = r.id;
    held.seq = r.seq;
  }
  if (held.leafId === leafId && held.branchRevision === branchRevision && !added.length) return;
  const from = held.leafId;
  held.leafId = null; // a failed move leaves the branch unknown
  // Down a chain of new rows one child at a time: the index extends its branch in place then,
  // instead of walking the whole branch again (11 ms at 10,000 messages for one turn's two rows).
  for (const id of newChainTo(added, from, leafId)) storeHeldIndex.setLeaf(held.index, id, branchRevision);
  storeHeldIndex.setLeaf(held.index, leafId, branchRevision);
  held.leafId = leafId;
  held.branchRevision = branchRevision;
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
