// What every store operation runs on: the driver (the backend's few calls), one call at a time
// after the schema is ready, each a generator over driver calls in one read or write transaction,
// and the reads every operation shares (a session's row, its visible nodes, what a transaction starts from). Held in a
// private field of SessionStoreBase: never exported by the package.
import { AsyncMutex, drive } from './sequencing.js';
import { randomId, storeError } from './nodes.js';
import { visibleRows } from './visible-rows.js';

/** @import { Session } from '../bibgenie_compaction.js' */
/**
 * @typedef {{
 *   id: string, leafId: string | null, branchRevision: number,
 *   baseSessionId: string | null, baseNodeId: string | null,
 *   createdAt: number, updatedAt: number, title: string | null, appKey: string | null,
 *   generation: string | null,
 * }} SessionRow
 *   `generation`: random per created row (null in rows older versions wrote); a recreation changes it.
 * @typedef {{ id: string, parentId: string | null, kind: 'message' | 'checkpoint', json: string }} NodeRow
 * @typedef {{ row: SessionRow, lastSeq: number }} Basis what a transaction started from
 */

/**
 * The driver interface. Data methods return a value (synchronous drivers) or a promise
 * (Zotero); `read`/`write` run `body` in one consistent read / one write transaction.
 * @typedef {{
 *   mutex: import('./sequencing.js').AsyncMutex,
 *   init(): Promise<void> | void,
 *   read<T>(body: () => T | Promise<T>): Promise<T> | T,
 *   write<T>(body: () => T | Promise<T>): Promise<T> | T,
 *   writeAsync<T>(body: () => Promise<T>): Promise<T>,
 *   getSession(id: string): Promise<SessionRow | null> | SessionRow | null,
 *   getSessionByAppKey(appKey: string): Promise<SessionRow | null> | SessionRow | null,
 *   listSessions(): Promise<SessionRow[]> | SessionRow[],
 *   listForks(baseSessionId: string): Promise<SessionRow[]> | SessionRow[],
 *   getNodeJsons(sessionId: string): Promise<string[]> | string[],
 *   getNode(sessionId: string, id: string): Promise<NodeRow | null> | NodeRow | null,
 *   getNodeRowsAfter(sessionId: string, seq: number): Promise<SeqRow[]> | SeqRow[],
 *   getNodeRowsPage?(sessionId: string, seq: number, limit: number): Promise<SeqRow[]> | SeqRow[],
 *   lastSeq(sessionId: string): Promise<number> | number,
 *   changeToken?(): Promise<unknown> | unknown,
 *   insertSession(row: SessionRow): Promise<void> | void,
 *   insertNode(sessionId: string, row: NodeRow, createdAt: number): Promise<void> | void,
 *   updateHead(sessionId: string, leafId: string | null, branchRevision: number, updatedAt: number): Promise<void> | void,
 *   updateNodeJson(sessionId: string, id: string, json: string): Promise<void> | void,
 *   updateInfo(sessionId: string, title: string | null, appKey: string | null, updatedAt: number): Promise<void> | void,
 *   deleteSession(sessionId: string): Promise<void> | void,
 *   release(): Promise<void> | void,
 * }} StoreDriver
 * `writeAsync`: one write transaction around a body that awaits (withinTransaction: the app's statements and the store's).
 * `changeToken`: a value that moves when another connection committed (absent: nothing else writes).
 * `getNodeRowsPage`: at most `limit` of the rows after `seq` (absent: a large session is read in one query).
 * @typedef {import('./visible-rows.js').SeqRow} SeqRow
 */


export class StoreCore {
  /** @type {Promise<void> | null} */
  #ready = null;
  /** True once the store was closed: every later call rejects `store-closed`. */
  closed = false;

  /** @param {StoreDriver} driver */
  constructor(driver) {
    this.driver = driver;
  }

  /**
   * Runs `job` alone, after the schema is ready.
   * @template T
   * @param {() => Promise<T> | T} job
   * @returns {Promise<T>}
   */
  exclusive(job) {
    if (this.closed) return Promise.reject(storeError('store-closed', 'the store has been closed'));
    return this.driver.mutex.run(async () => {
      if (!this.#ready) {
        this.#ready = Promise.resolve(this.driver.init());
        this.#ready.catch(() => {
          this.#ready = null; // a failed init may be retried by the next call
        });
      }
      await this.#ready;
      return job();
    });
  }

  /**
   * A read-only operation in one consistent read.
   * @template T @param {() => Generator<unknown, T, any>} op @returns {Promise<T>}
   */
  read(op) {
    return this.exclusive(() => this.readInside(op));
  }

  /**
   * `op` in one read, inside a job of the queue already running (`exclusive`).
   * @template T @param {() => Generator<unknown, T, any>} op @returns {Promise<T> | T}
   */
  readInside(op) {
    return this.driver.read(() => drive(op()));
  }

  /**
   * An operation in one write transaction: everything it wrote is undone when it throws.
   * @template T @param {() => Generator<unknown, T, any>} op @returns {Promise<T>}
   */
  write(op) {
    return this.exclusive(() => this.driver.write(() => drive(op())));
  }

  /** @param {string} sessionId @returns {Generator<unknown, SessionRow, any>} */
  *row(sessionId) {
    const row = yield this.driver.getSession(sessionId);
    if (!row) throw storeError('unknown-session', `no session with id ${sessionId}`);
    return row;
  }

  /** The stored text of every node visible in a session, in load() order (visible-rows.js). @param {SessionRow} row @returns {Generator<unknown, string[], any>} */
  *visibleJsons(row) {
    return (yield* visibleRows(this.driver, row)).rows.map((r) => r.json);
  }

  /** @param {SessionRow} row @returns {Generator<unknown, Session, any>} */
  *session(row) {
    const jsons = yield* this.visibleJsons(row);
    return {
      nodes: jsons.map((json) => JSON.parse(json)),
      leafId: row.leafId,
      branchRevision: row.branchRevision,
    };
  }

  /**
   * Whether `id` names a node visible in the session (own or inherited through a fork).
   * @param {SessionRow} row @param {string} id @returns {Generator<unknown, boolean, any>}
   */
  *hasVisibleNode(row, id) {
    if (yield this.driver.getNode(row.id, id)) return true;
    if (row.baseSessionId === null) return false;
    // A fork's inherited nodes: ids from the row columns, no text parsed.
    return (yield* visibleRows(this.driver, row)).rows.some((r) => r.id === id);
  }

  /**
   * What a transaction starts from: the session's row and the seq of its last own row.
   * @param {string} sessionId @returns {Generator<unknown, Basis, any>}
   */
  *basis(sessionId) {
    const row = yield* this.row(sessionId);
    const lastSeq = /** @type {number} */ (yield this.driver.lastSeq(sessionId));
    return { row, lastSeq };
  }

  /**
   * Whether every node the session sees and its head are still as at `basis`, without reading a
   * node's text: rows are only appended (a seq after the basis's last is a new one), the one
   * in-place update raises the revision of the session and of every fork that sees the node
   * (updateMessageParts), and a session deleted and created again has another generation.
   * @param {Basis} basis @returns {Generator<unknown, boolean, any>}
   */
  *isCurrent(basis) {
    const was = basis.row;
    /** @type {SessionRow | null} */
    const now = yield this.driver.getSession(was.id);
    if (!now || now.leafId !== was.leafId || now.branchRevision !== was.branchRevision || now.generation !== was.generation
      || now.baseSessionId !== was.baseSessionId || now.baseNodeId !== was.baseNodeId) return false;
    return (yield this.driver.lastSeq(was.id)) === basis.lastSeq;
  }

  /**
   * @param {string} where
   * @param {{ id: string, title: string | null, appKey: string | null, leafId: string | null, branchRevision: number,
   *   baseSessionId?: string, baseNodeId?: string }} fields
   * @returns {Generator<unknown, SessionRow, any>}
   */
  *insertSession(where, fields) {
    if (yield this.driver.getSession(fields.id)) throw storeError('session-exists', `${where}: session ${fields.id} already exists`);
    if (fields.appKey !== null && (yield this.driver.getSessionByAppKey(fields.appKey))) {
      throw storeError('app-key-exists', `${where}: a session with appKey ${fields.appKey} already exists`);
    }
    const now = Date.now();
    /** @type {SessionRow} */
    const row = {
      id: fields.id, leafId: fields.leafId, branchRevision: fields.branchRevision,
      baseSessionId: fields.baseSessionId ?? null, baseNodeId: fields.baseNodeId ?? null,
      createdAt: now, updatedAt: now, title: fields.title, appKey: fields.appKey,
      // Another session under a reused id is another generation, even within the same millisecond.
      generation: randomId(),
    };
    yield this.driver.insertSession(row);
    return row;
  }
}

/** The store's refusals: each is thrown by a check before the operation writes anything. */
const REFUSED_BEFORE_WRITING = new Set([
  'invalid-argument', 'invalid-node', 'invalid-session', 'duplicate-id', 'missing-parent', 'missing-leaf', 'unknown-session',
  'unknown-node', 'session-exists', 'not-updatable', 'invalid-revision', 'session-moved', 'app-key-exists', 'has-forks',
]);

/**
 * The core of a withinTransaction's `tx`: its operations run straight on the driver, inside the
 * transaction the store opened (a nested driver transaction would wait for that one: Zotero's
 * executeTransaction times out), one at a time in call order, and only until the callback settled.
 */
export class JoinedCore extends StoreCore {
  /** Set when fn settled: later calls through `tx` are refused (`transaction-closed`). */
  ended = false;
  /** A driver error inside an operation: its writes may be partial, so the transaction must not commit. */
  /** @type {unknown} */
  failure = undefined;
  #queue = new AsyncMutex();

  /**
   * @template T
   * @param {() => Promise<T> | T} job
   * @returns {Promise<T>}
   */
  exclusive(job) {
    if (this.ended) return Promise.reject(storeError('transaction-closed', 'the withinTransaction callback has already ended: tx is only valid during it'));
    return this.#queue.run(job);
  }

  /** @template T @param {() => Generator<unknown, T, any>} op @returns {Promise<T>} */
  read(op) {
    return this.exclusive(() => drive(op()));
  }

  /** @template T @param {() => Generator<unknown, T, any>} op @returns {Promise<T> | T} */
  readInside(op) {
    return drive(op());
  }

  /** @template T @param {() => Generator<unknown, T, any>} op @returns {Promise<T>} */
  write(op) {
    return this.exclusive(async () => {
      try {
        return await drive(op());
      } catch (error) {
        // The store's own refusals come before its writes; anything else may have written part.
        if (!REFUSED_BEFORE_WRITING.has(/** @type {any} */ (error)?.code)) this.failure ??= error;
        throw error;
      }
    });
  }

  /** Resolves once every operation started through `tx` has settled. */
  settled() {
    return this.#queue.drain();
  }
}
