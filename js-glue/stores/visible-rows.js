// Which rows a session sees, written once: its own rows, and for a fork the ancestor chain of its
// base node in the base session (recursively). load(), transactions and the store-held index all
// read a session through this walk; ids and parents come from the row columns, no text is parsed.
import { ancestorChain } from './nodes.js';
import { SLICE_MS, clock, pause } from '../util/pause.js';

/**
 * @typedef {{ seq: number, id: string, parentId: string | null, json: string, session?: string }} SeqRow
 *   `session`: the session whose row it is (a fork's inherited rows are its base's)
 */

/**
 * The rows visible in a session, in load() order. `lastSeq`: the seq of the session's own last row
 * (0 for none); `chain` collects the sessions read (a fork cycle written by hand stops there; a base
 * session that is gone leaves the fork's own rows, and readBranch reports the missing parent).
 * @param {any} driver @param {import('./store-core.js').SessionRow} row @param {Set<string>} [chain]
 * @returns {Generator<unknown, { rows: SeqRow[], lastSeq: number, lastOwnId: string | null }, any>}
 */
export function* visibleRows(driver, row, chain = new Set()) {
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

/** Rows of the first page of a paged read; the next pages are sized to take about SLICE_MS. */
export const FIRST_PAGE_ROWS = 64;

/**
 * Reads on the own rows of session `sessionId` after the last of `rows` (appended to it) while
 * `more`, in pages of one read each (`getNodeRowsPage`: SQLite, Zotero),
 * each sized by the last to take about SLICE_MS, with a pause before it once `pauseFrom` characters
 * were read. Rows are only appended, by seq, so the pages are the session as of the last one.
 * @param {any} driver @param {string} sessionId
 * @param {(op: () => Generator<unknown, any, any>) => any} readInside runs a generator in one read
 * @param {{ rows: SeqRow[], more: boolean, limit: number, started: number }} first the first page, its size and when it was asked for
 * @param {number} pauseFrom
 * @returns {Promise<SeqRow[]>} `first.rows`
 */
export async function readOnInPages(driver, sessionId, readInside, first, pauseFrom) {
  const { rows } = first;
  let { limit, started } = first;
  let chars = 0;
  for (const r of rows) chars += r.json.length;
  for (let more = first.more && rows.length > 0; more;) {
    limit = Math.max(16, Math.min(1 << 12, Math.floor((limit * SLICE_MS) / Math.max(clock() - started, 0.5))));
    if (chars >= pauseFrom) await pause();
    started = clock();
    const after = rows[rows.length - 1].seq;
    /** @type {SeqRow[]} */
    const page = await readInside(function* () {
      return yield driver.getNodeRowsPage(sessionId, after, limit);
    });
    for (const r of page) {
      rows.push(r);
      chars += r.json.length;
    }
    more = page.length === limit;
  }
  return rows;
}
