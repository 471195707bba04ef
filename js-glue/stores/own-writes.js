// The store's own committed writes taken into its held indexes as they are written, and the use
// that then reads nothing (issue 42: a send through SqliteStore paid a read transaction for rows
// it had just written itself).
//
// A held index is current at (`token`, `changes`): the driver's change token (SQLite's
// `data_version`: moves when another connection commits) and the connection's own change count
// (`total_changes()`: moves with every row this connection changes, the app's own statements and
// rolled-back ones included). A use whose driver reads the same pair now finds the index current
// without a read; anything else (another connection, a write this connection made that was not
// taken in, a node to replace) is caught up as before (./session-indexes.js).
//
// A write is taken in only after it committed, only into indexes current just before it, and only
// when it appended rows to or moved the head of the index's own session; a write that touched
// anything else an index sees (a fork's base, a node in place, a session created or deleted)
// leaves that index to the next use's catch-up.
import { drop, heldOf, takeRows } from './session-indexes.js';

/**
 * @typedef {{ session: string, seq: number, id: string, parentId: string | null, json: string }} AppendedRow
 * @typedef {{ session: string, leafId: string | null, branchRevision: number }} MovedHead
 * @typedef {AppendedRow | MovedHead | { session: string, other: true }} OwnWrite
 *   what one committed write transaction did, in order
 * @typedef {{ token: unknown, changes: unknown }} QuietState
 */

/**
 * The held index of `sessionId` when nothing changed since it was last current (one read of the
 * driver's `quietState`, no transaction); null otherwise (the caller catches up in a read).
 * @param {any} driver @param {string} sessionId
 * @returns {import('../session/session-index.js').SessionIndex | null}
 */
export function quietView(driver, sessionId) {
  if (typeof driver.quietState !== 'function') return null;
  const map = heldOf(driver);
  const held = map.get(sessionId);
  if (!held || held.token === undefined || held.changes === undefined || held.replaced.size) return null;
  /** @type {QuietState | null} */
  let now;
  try {
    now = driver.quietState();
  } catch {
    return null; // e.g. a busy file: the read retries it
  }
  if (!now || now.token !== held.token || now.changes !== held.changes) return null;
  map.delete(sessionId);
  map.set(sessionId, held); // most recently used last
  return held.index;
}

/**
 * After a write transaction of the driver committed: its writes taken into the indexes that were
 * current at `before` (read inside the transaction, before its first write); those it does not
 * concern stay current at `changesAfter`. Never throws: an index that refuses a row is dropped.
 * @param {any} driver @param {OwnWrite[]} writes @param {QuietState} before @param {unknown} changesAfter
 */
export function takeOwnWrites(driver, writes, before, changesAfter) {
  const map = heldOf(driver);
  for (const [sessionId, held] of [...map]) {
    if (held.token === undefined || held.token !== before.token || held.changes !== before.changes || held.replaced.size) continue;
    const seen = writes.filter((w) => held.chain.has(w.session));
    const appended = seen.length ? ownAppends(seen, sessionId) : null;
    if (seen.length && !appended) continue; // the next use catches up
    try {
      if (appended) takeRows(held, sessionId, appended.rows, appended.leafId ?? /** @type {string} */ (held.leafId), appended.branchRevision ?? held.branchRevision);
      held.changes = changesAfter;
    } catch {
      drop(map, sessionId);
    }
  }
}

/**
 * The rows appended to session `sessionId` and its last head, when that is all `writes` did.
 * @param {OwnWrite[]} writes @param {string} sessionId
 * @returns {{ rows: AppendedRow[], leafId: string | null, branchRevision: number | null } | null}
 */
function ownAppends(writes, sessionId) {
  /** @type {AppendedRow[]} */
  const rows = [];
  /** @type {MovedHead | null} */
  let head = null;
  for (const w of writes) {
    if (w.session !== sessionId || 'other' in w) return null;
    if ('seq' in w) rows.push(w);
    else if (w.leafId === null) return null;
    else head = w;
  }
  return { rows, leafId: head ? head.leafId : null, branchRevision: head ? head.branchRevision : null };
}
