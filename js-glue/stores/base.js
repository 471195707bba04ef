// Session semantics shared by every store backend: the contract's SessionStore/StoreTx plus the
// app operations a plugin needs. Backends (memory, better-sqlite3, Zotero.DBConnection) only
// implement the small driver interface below; every rule about leaves, revisions, forks and
// validation lives here once (node checks in nodes.js, a transaction's buffer in tx-buffer.js).
//
// Concurrency model (docs/stores.md):
// - No database transaction is ever open while the caller's code runs. Every operation is a
//   generator over driver calls, run inside one driver write (or read) transaction; with a
//   synchronous driver (better-sqlite3, memory) it runs in one synchronous stretch, so the
//   SQLite write lock is held for microseconds and never across an `await`.
// - `transaction(sessionId, fn)` reads a snapshot, runs the async `fn` against it with its
//   writes buffered, then in one write transaction re-reads the session and applies the buffer
//   only if nothing fn read has changed (another process may have written meanwhile); otherwise
//   fn runs again on the fresh state, a bounded number of times.
// - Calls on one store (and on stores sharing one driver) still run one at a time, in order.

// The public types are the declarations' (src/bindings/types.rs, glue.d.ts); the rows are the stores' own.
/**
 * @import { Session, SessionNode, StoreTx } from '../bibgenie_compaction.js'
 * @import { AppendExpectation as Expectation, SessionHead as Head, SessionInfo } from '../glue.js'
 * @import { SessionStoreBase as DeclaredStore } from '../glue.js'
 */
/**
 * @typedef {{
 *   id: string, leafId: string | null, branchRevision: number,
 *   baseSessionId: string | null, baseNodeId: string | null,
 *   createdAt: number, updatedAt: number, title: string | null, appKey: string | null,
 *   generation: string | null,
 * }} SessionRow
 *   `generation`: random per created row (null in rows older versions wrote); a recreation changes it.
 * @typedef {{ id: string, parentId: string | null, kind: 'message' | 'checkpoint', json: string }} NodeRow
 */

/**
 * The driver interface. Data methods return a value (synchronous drivers) or a promise
 * (Zotero); `read`/`write` run `body` in one consistent read / one write transaction.
 * @typedef {{
 *   mutex: import('./sequencing.js').AsyncMutex,
 *   init(): Promise<void> | void,
 *   read<T>(body: () => T | Promise<T>): Promise<T> | T,
 *   write<T>(body: () => T | Promise<T>): Promise<T> | T,
 *   getSession(id: string): Promise<SessionRow | null> | SessionRow | null,
 *   getSessionByAppKey(appKey: string): Promise<SessionRow | null> | SessionRow | null,
 *   listSessions(): Promise<SessionRow[]> | SessionRow[],
 *   listForks(baseSessionId: string): Promise<SessionRow[]> | SessionRow[],
 *   getNodeJsons(sessionId: string): Promise<string[]> | string[],
 *   getNode(sessionId: string, id: string): Promise<NodeRow | null> | NodeRow | null,
 *   getNodeRowsAfter(sessionId: string, seq: number): Promise<SeqRow[]> | SeqRow[],
 *   changeToken?(): Promise<unknown> | unknown,
 *   insertSession(row: SessionRow): Promise<void> | void,
 *   insertNode(sessionId: string, row: NodeRow, createdAt: number): Promise<void> | void,
 *   updateHead(sessionId: string, leafId: string | null, branchRevision: number, updatedAt: number): Promise<void> | void,
 *   updateNodeJson(sessionId: string, id: string, json: string): Promise<void> | void,
 *   updateInfo(sessionId: string, title: string | null, appKey: string | null, updatedAt: number): Promise<void> | void,
 *   deleteSession(sessionId: string): Promise<void> | void,
 *   release(): Promise<void> | void,
 * }} StoreDriver
 * `changeToken`: a value that moves when another connection committed (absent: nothing else writes).
 * @typedef {import('./session-indexes.js').SeqRow} SeqRow
 */

import { drive } from './sequencing.js';
import {
  ancestorChain, checkHeadMove, isCheckpoint, mayStillCompleteTool, nodeFields, nodeJson, nodeRow, optionalText, randomId, requireId, storeError,
} from './nodes.js';
import { sessionFromMessages } from './linear-import.js';
import { TxBuffer } from './tx-buffer.js';
import { noteNodeUpdated, noteSessionDeleted, releaseIndex, releaseIndexes, syncedView } from './session-indexes.js';

/** How often `transaction` runs fn when another writer keeps changing what fn read. */
export const MAX_TRANSACTION_ATTEMPTS = 4;

/** @param {SessionRow} row @returns {SessionInfo} */
function sessionInfo(row) {
  return {
    id: row.id,
    title: row.title ?? null,
    appKey: row.appKey ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    leafId: row.leafId,
    branchRevision: row.branchRevision,
    baseSessionId: row.baseSessionId,
    baseNodeId: row.baseNodeId,
  };
}

/**
 * The shared store. Subclasses pass a driver; all public methods are serialized through the
 * driver's mutex, so reads see committed state only and operations never interleave.
 *
 * Do not call store methods from inside a transaction callback: they wait for the running
 * transaction to finish, which is waiting for the callback. Use the `tx` argument instead.
 */
/** @implements {DeclaredStore} */
export class SessionStoreBase {
  /** @type {StoreDriver} */
  #driver;
  /** @type {Promise<void> | null} */
  #ready = null;
  #closed = false;

  /** @param {StoreDriver} driver */
  constructor(driver) {
    this.#driver = driver;
  }

  /**
   * Runs `job` alone, after the schema is ready.
   * @template T
   * @param {() => Promise<T> | T} job
   * @returns {Promise<T>}
   */
  #exclusive(job) {
    if (this.#closed) return Promise.reject(storeError('store-closed', 'the store has been closed'));
    return this.#driver.mutex.run(async () => {
      if (!this.#ready) {
        this.#ready = Promise.resolve(this.#driver.init());
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
  #read(op) {
    return this.#exclusive(() => this.#driver.read(() => drive(op())));
  }

  /**
   * An operation in one write transaction: everything it wrote is undone when it throws.
   * @template T @param {() => Generator<unknown, T, any>} op @returns {Promise<T>}
   */
  #write(op) {
    return this.#exclusive(() => this.#driver.write(() => drive(op())));
  }

  /** @param {string} sessionId @returns {Generator<unknown, SessionRow, any>} */
  *#row(sessionId) {
    const row = yield this.#driver.getSession(sessionId);
    if (!row) throw storeError('unknown-session', `no session with id ${sessionId}`);
    return row;
  }

  /**
   * Every node visible in a session, in insertion order: for a fork, the ancestor chain of
   * its base node (from the base session, recursively) and then its own nodes.
   * @param {SessionRow} row
   * @param {Set<string>} [seen] guards against fork cycles written by hand
   * @returns {Generator<unknown, string[], any>}
   */
  *#visibleJsons(row, seen = new Set()) {
    /** @type {string[]} */
    const own = yield this.#driver.getNodeJsons(row.id);
    if (row.baseSessionId === null || row.baseNodeId === null || seen.has(row.id)) return [...own];
    seen.add(row.id);
    const base = yield this.#driver.getSession(row.baseSessionId);
    if (!base) return [...own]; // the base session is gone: load as-is, readBranch reports it
    const baseJsons = yield* this.#visibleJsons(base, seen);
    const baseNodes = baseJsons.map((json) => /** @type {SessionNode} */ (JSON.parse(json)));
    const chain = ancestorChain(new Map(baseNodes.map((node) => [node.id, node])), row.baseNodeId);
    const inherited = baseJsons.filter((_, i) => chain.has(baseNodes[i].id));
    return [...inherited, ...own];
  }

  /** @param {SessionRow} row @returns {Generator<unknown, Session, any>} */
  *#session(row) {
    const jsons = yield* this.#visibleJsons(row);
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
  *#hasVisibleNode(row, id) {
    if (yield this.#driver.getNode(row.id, id)) return true;
    if (row.baseSessionId === null) return false;
    const session = yield* this.#session(row);
    return session.nodes.some((node) => node.id === id);
  }

  /**
   * Appends a node after checking its id is new and its parent exists.
   * @param {SessionRow} row @param {SessionNode} node @param {string} where
   * @returns {Generator<unknown, void, any>}
   */
  *#append(row, node, where) {
    nodeFields(node, where);
    if (yield* this.#hasVisibleNode(row, node.id)) {
      throw storeError('duplicate-id', `${where}: session ${row.id} already has a node ${node.id}`);
    }
    if (node.parentId !== null && !(yield* this.#hasVisibleNode(row, node.parentId))) {
      throw storeError('missing-parent', `${where}: node ${node.id}: parent ${node.parentId} is not in session ${row.id}`);
    }
    // The core's node rules after the session's: a duplicate or an orphan says so first.
    const json = nodeJson(node, where);
    yield this.#driver.insertNode(row.id, nodeRow(node, json), Date.now());
  }

  /**
   * Moves the head; a leaf move must come with a higher revision, so readers can tell.
   * @param {SessionRow} row @param {string | null} leafId @param {number} branchRevision @param {string} where
   * @returns {Generator<unknown, void, any>}
   */
  *#setHead(row, leafId, branchRevision, where) {
    checkHeadMove(row, leafId, branchRevision, where);
    if (leafId === row.leafId && branchRevision === row.branchRevision) return;
    yield this.#driver.updateHead(row.id, leafId, branchRevision, Date.now());
    row.leafId = leafId;
    row.branchRevision = branchRevision;
  }

  /**
   * A node seen through forks changed: every fork whose inherited chain holds it gets a higher
   * revision (and so do forks of those forks), so a compaction planned on the fork's old
   * content fails its commit check instead of committing a summary of the old text.
   * @param {string} sessionId the session owning the view `byId` describes
   * @param {() => Generator<unknown, Map<string, SessionNode>, any>} viewOf the session's visible nodes by id
   * @param {string} changedId
   * @param {Set<string>} [seen]
   * @returns {Generator<unknown, string[], any>} the sessions bumped
   */
  *#bumpForksHolding(sessionId, viewOf, changedId, seen = new Set([sessionId])) {
    /** @type {SessionRow[]} */
    const forks = yield this.#driver.listForks(sessionId);
    if (!forks.length) return [];
    const byId = yield* viewOf();
    /** @type {string[]} */
    const bumped = [];
    for (const fork of forks) {
      if (seen.has(fork.id)) continue;
      seen.add(fork.id);
      const chain = ancestorChain(byId, fork.baseNodeId);
      if (!chain.has(changedId)) continue;
      yield this.#driver.updateHead(fork.id, fork.leafId, fork.branchRevision + 1, Date.now());
      bumped.push(fork.id);
      const forkView = function* (/** @type {SessionStoreBase} */ self) {
        /** @type {Map<string, SessionNode>} */
        const view = new Map([...chain].map((id) => [id, /** @type {SessionNode} */ (byId.get(id))]));
        /** @type {string[]} */
        const own = yield self.#driver.getNodeJsons(fork.id);
        for (const json of own) {
          const node = JSON.parse(json);
          view.set(node.id, node);
        }
        return view;
      };
      bumped.push(...(yield* this.#bumpForksHolding(fork.id, () => forkView(this), changedId, seen)));
    }
    return bumped;
  }

  /**
   * What `transaction` compares before applying fn's writes: the head and every visible node.
   * @param {string} sessionId @returns {Generator<unknown, { row: SessionRow, jsons: string[], text: string }, any>}
   */
  *#snapshot(sessionId) {
    const row = yield* this.#row(sessionId);
    const jsons = yield* this.#visibleJsons(row);
    const head = JSON.stringify([row.leafId, row.branchRevision, row.baseSessionId, row.baseNodeId]);
    return { row, jsons, text: `${head}\n${jsons.join('\n')}` };
  }

  // ---- The contract's SessionStore -------------------------------------------------------

  /**
   * The durable session: nodes in insertion order, exactly as stored (a corrupt parent chain
   * is returned as it is; readBranch reports it and nothing is repaired).
   * @param {string} sessionId
   * @returns {Promise<Session>}
   */
  async load(sessionId) {
    requireId('load', sessionId, 'sessionId');
    const self = this;
    return this.#read(function* () {
      return yield* self.#session(yield* self.#row(sessionId));
    });
  }

  /**
   * The stored JSON text of a session's visible nodes, as one JSON array, with the head: for a
   * caller that keeps its own parsed index (no object per node is built here).
   * @param {string} sessionId
   * @returns {Promise<{ nodesJson: string, leafId: string | null, branchRevision: number }>}
   */
  async loadJson(sessionId) {
    requireId('loadJson', sessionId, 'sessionId');
    const self = this;
    return this.#read(function* () {
      const { row, jsons } = yield* self.#snapshot(sessionId);
      return { nodesJson: `[${jsons.join(',')}]`, leafId: row.leafId, branchRevision: row.branchRevision };
    });
  }

  /**
   * Runs `use(view)` on the session's store-held index, brought up to date with the durable state
   * first, inside one read (no store write runs meanwhile): `view` has the head (`leafId`,
   * `branchRevision`), `has(id)`, `index` (plan and estimate on the held index), `project()`
   * (messages parsed from the stored text) and `lazySession()`; it is valid only during `use`,
   * which must not await. `view` is null when the index cannot hold the session (no leaf yet, a node
   * the index reads only within a whole session, the wasm not loaded): then use load().
   * One index per session, per connection, at most HELD_SESSION_INDEXES (least recently used freed);
   * freed by close(), deleteSession and releaseSessionIndex.
   * @template T
   * @param {string} sessionId
   * @param {(view: import('./session-indexes.js').SessionView | null) => T} use
   * @returns {Promise<T>}
   */
  async withSessionIndex(sessionId, use) {
    requireId('withSessionIndex', sessionId, 'sessionId');
    if (typeof use !== 'function') throw storeError('invalid-argument', 'withSessionIndex: use must be a function');
    const self = this;
    return this.#read(function* () {
      const view = yield* syncedView(self.#driver, sessionId, (_driver, id) => self.#row(id));
      return use(view);
    });
  }

  /**
   * Frees the session's store-held index (the session's pane closed); a later use rebuilds it.
   * @param {string} sessionId
   * @returns {Promise<void>}
   */
  async releaseSessionIndex(sessionId) {
    requireId('releaseSessionIndex', sessionId, 'sessionId');
    return this.#exclusive(() => releaseIndex(this.#driver, sessionId));
  }

  /**
   * Runs `fn` as one transaction on the session: everything it wrote is committed when its
   * promise resolves and discarded when it rejects (the rejection is rethrown). `tx.load()`
   * shows the session as of the transaction's start plus its own writes.
   *
   * No database transaction is open while fn runs: its writes are buffered and applied in one
   * write transaction after it resolved, only if the session (head and every visible node) is
   * still what fn read. If another writer (another process) changed it, fn runs again on the
   * fresh state, up to MAX_TRANSACTION_ATTEMPTS times, then `store-conflict` (retryable).
   * A fn that wrote nothing is never re-run. `tx` is only valid during `fn`.
   * `tx.appendNode` does not move the leaf or bump the revision: the caller does that with
   * `tx.setLeaf(leafId, revision)` where a moved leaf needs a higher revision.
   * @template T
   * @param {string} sessionId
   * @param {(tx: StoreTx) => Promise<T>} fn
   * @returns {Promise<T>}
   */
  async transaction(sessionId, fn) {
    requireId('transaction', sessionId, 'sessionId');
    if (typeof fn !== 'function') throw storeError('invalid-argument', 'transaction: fn must be a function');
    const self = this;
    return this.#exclusive(async () => {
      for (let attempt = 1; ; attempt++) {
        const basis = await this.#driver.read(() => drive(self.#snapshot(sessionId)));
        const buffer = new TxBuffer(sessionId, basis.row, basis.jsons);
        let result;
        try {
          result = await fn(buffer.api);
        } finally {
          buffer.close();
        }
        if (!buffer.wrote) return result;
        const applied = await this.#driver.write(() => drive((function* () {
          const now = yield* self.#snapshot(sessionId);
          if (now.text !== basis.text) return false;
          const at = Date.now();
          for (const row of buffer.nodes) yield self.#driver.insertNode(sessionId, row, at);
          if (buffer.headMoved) yield self.#driver.updateHead(sessionId, buffer.row.leafId, buffer.row.branchRevision, at);
          return true;
        })()));
        if (applied) return result;
        if (attempt >= MAX_TRANSACTION_ATTEMPTS) {
          throw storeError('store-conflict', `transaction: session ${sessionId} kept changing under ${attempt} attempts`, { retryable: true });
        }
      }
    });
  }

  // ---- App operations ---------------------------------------------------------------------

  /**
   * Creates an empty session (leafId null, branchRevision 0). Its id is `sessionId`, the name fork,
   * importSession and importMessages use; `id` is the same, its older name.
   * @param {{ id?: string, title?: string | null, appKey?: string | null }} [options]
   * @returns {Promise<Session & { sessionId: string, id: string }>}
   */
  async createSession(options = {}) {
    const id = options.id ?? randomId();
    requireId('createSession', id, 'id');
    const title = optionalText('createSession', options.title, 'title');
    const appKey = optionalText('createSession', options.appKey, 'appKey');
    const self = this;
    return this.#write(function* () {
      yield* self.#insertSession('createSession', { id, title, appKey, leafId: null, branchRevision: 0 });
      return { sessionId: id, id, nodes: [], leafId: null, branchRevision: 0 };
    });
  }

  /**
   * @param {string} where
   * @param {{ id: string, title: string | null, appKey: string | null, leafId: string | null, branchRevision: number,
   *   baseSessionId?: string, baseNodeId?: string }} fields
   * @returns {Generator<unknown, SessionRow, any>}
   */
  *#insertSession(where, fields) {
    if (yield this.#driver.getSession(fields.id)) throw storeError('session-exists', `${where}: session ${fields.id} already exists`);
    if (fields.appKey !== null && (yield this.#driver.getSessionByAppKey(fields.appKey))) {
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
    yield this.#driver.insertSession(row);
    return row;
  }

  /**
   * Stores a whole session as given (nodes verbatim, even a broken chain; leaf and revision
   * copied). For demos, migrations and tests.
   * @param {Session} session
   * @param {{ id?: string, title?: string | null, appKey?: string | null }} [options]
   * @returns {Promise<Head>}
   */
  async importSession(session, options = {}) {
    const id = options.id ?? randomId();
    requireId('importSession', id, 'id');
    const title = optionalText('importSession', options.title, 'title');
    const appKey = optionalText('importSession', options.appKey, 'appKey');
    if (!session || !Array.isArray(session.nodes)) throw storeError('invalid-session', 'importSession: session.nodes must be an array');
    const revision = session.branchRevision ?? 0;
    if (!Number.isSafeInteger(revision) || revision < 0) {
      throw storeError('invalid-session', 'importSession: branchRevision must be a non-negative integer');
    }
    const leafId = session.leafId ?? null;
    const rows = session.nodes.map((node, i) => nodeRow(node, nodeJson(node, `importSession: nodes[${i}]`)));
    const seen = new Set();
    for (const row of rows) {
      if (seen.has(row.id)) throw storeError('duplicate-id', `importSession: node ${row.id} appears twice`);
      seen.add(row.id);
    }
    const self = this;
    return this.#write(function* () {
      yield* self.#insertSession('importSession', { id, title, appKey, leafId, branchRevision: revision });
      const now = Date.now();
      for (const row of rows) yield self.#driver.insertNode(id, row, now);
      return { sessionId: id, leafId, branchRevision: revision };
    });
  }

  /**
   * Imports a linear UIMessage list (useChat's `messages`, an older plugin's history) as a new
   * session: see sessionFromMessages.
   * @param {Parameters<DeclaredStore['importMessages']>[0]} messages
   * @param {{ id?: string, title?: string | null, appKey?: string | null }} [options]
   * @returns {Promise<Head>}
   */
  async importMessages(messages, options = {}) {
    return this.importSession(sessionFromMessages(messages), options);
  }

  /**
   * Session ids, most recently changed first; with `{ details: true }` the sessions' metadata
   * (title, appKey, createdAt, updatedAt, head, fork base) instead.
   * @overload
   * @param {{ details?: false }} [options]
   * @returns {Promise<string[]>}
   */
  /**
   * @overload
   * @param {{ details: true }} options
   * @returns {Promise<SessionInfo[]>}
   */
  /**
   * @param {{ details?: boolean }} [options]
   * @returns {Promise<string[] | SessionInfo[]>}
   */
  async listSessions(options = {}) {
    const self = this;
    return this.#read(function* () {
      /** @type {SessionRow[]} */
      const rows = yield self.#driver.listSessions();
      return options?.details ? rows.map(sessionInfo) : rows.map((row) => row.id);
    });
  }

  /**
   * One session's metadata.
   * @param {string} sessionId
   * @returns {Promise<SessionInfo>}
   */
  async getSessionInfo(sessionId) {
    requireId('getSessionInfo', sessionId, 'sessionId');
    const self = this;
    return this.#read(function* () {
      return sessionInfo(yield* self.#row(sessionId));
    });
  }

  /**
   * Sets a session's title and/or appKey (null clears one). Not a branch change: the revision
   * stays, updatedAt moves.
   * @param {string} sessionId
   * @param {{ title?: string | null, appKey?: string | null }} info
   * @returns {Promise<SessionInfo>}
   */
  async setSessionInfo(sessionId, info) {
    requireId('setSessionInfo', sessionId, 'sessionId');
    if (typeof info !== 'object' || info === null) throw storeError('invalid-argument', 'setSessionInfo: info must be an object');
    const title = optionalText('setSessionInfo', info.title, 'title');
    const appKey = optionalText('setSessionInfo', info.appKey, 'appKey');
    const self = this;
    return this.#write(function* () {
      const row = yield* self.#row(sessionId);
      const nextTitle = info.title === undefined ? row.title : title;
      const nextKey = info.appKey === undefined ? row.appKey : appKey;
      if (nextKey !== null && nextKey !== row.appKey) {
        const other = yield self.#driver.getSessionByAppKey(nextKey);
        if (other) throw storeError('app-key-exists', `setSessionInfo: session ${other.id} already has appKey ${nextKey}`);
      }
      const now = Date.now();
      yield self.#driver.updateInfo(sessionId, nextTitle, nextKey, now);
      return sessionInfo({ ...row, title: nextTitle, appKey: nextKey, updatedAt: now });
    });
  }

  /**
   * The session kept for an app key (e.g. a Zotero item key), created empty when there is
   * none yet; one check-and-insert in one write transaction, so two windows get one session.
   * @param {{ appKey: string, title?: string | null, id?: string }} options
   * @returns {Promise<SessionInfo & { created: boolean }>}
   */
  async getOrCreateSession(options) {
    const appKey = options?.appKey;
    requireId('getOrCreateSession', appKey, 'appKey');
    const title = optionalText('getOrCreateSession', options.title, 'title');
    const id = options.id ?? randomId();
    requireId('getOrCreateSession', id, 'id');
    const self = this;
    return this.#write(function* () {
      const existing = yield self.#driver.getSessionByAppKey(appKey);
      if (existing) return { ...sessionInfo(existing), created: false };
      const row = yield* self.#insertSession('getOrCreateSession', { id, title, appKey, leafId: null, branchRevision: 0 });
      return { ...sessionInfo(row), created: true };
    });
  }

  /**
   * Deletes a session and its own nodes. A session other sessions were forked from is refused
   * (`has-forks`, their ids in `forks`) unless `withForks`, which deletes those forks too.
   * @param {string} sessionId
   * @param {{ withForks?: boolean }} [options]
   * @returns {Promise<{ deleted: string[] }>}
   */
  async deleteSession(sessionId, options = {}) {
    requireId('deleteSession', sessionId, 'sessionId');
    const self = this;
    return this.#write(function* () {
      yield* self.#row(sessionId);
      /** @type {string[]} */
      const order = [];
      /** @param {string} id @returns {Generator<unknown, void, any>} */
      const collect = function* (id) {
        if (order.includes(id)) return;
        /** @type {SessionRow[]} */
        const forks = yield self.#driver.listForks(id);
        if (forks.length && !options.withForks) {
          throw storeError('has-forks', `deleteSession: sessions ${forks.map((f) => f.id).join(', ')} are forked from ${id}`, {
            forks: forks.map((f) => f.id),
          });
        }
        for (const fork of forks) yield* collect(fork.id);
        order.push(id); // forks first: nothing is left pointing at a deleted session
      };
      yield* collect(sessionId);
      for (const id of order) {
        yield self.#driver.deleteSession(id);
        noteSessionDeleted(self.#driver, id);
      }
      return { deleted: order };
    });
  }

  /**
   * The checkpoints on a branch (ending at `leafId`, the session's leaf by default), oldest
   * first: what a UI shows as "earlier context summarized here".
   * @param {string} sessionId
   * @param {{ leafId?: string }} [options]
   * @returns {Promise<SessionNode[]>}
   */
  async listCheckpoints(sessionId, options = {}) {
    requireId('listCheckpoints', sessionId, 'sessionId');
    if (options.leafId !== undefined) requireId('listCheckpoints', options.leafId, 'leafId');
    const self = this;
    return this.#read(function* () {
      const row = yield* self.#row(sessionId);
      const session = yield* self.#session(row);
      const byId = new Map(session.nodes.map((node) => [node.id, node]));
      const leafId = options.leafId ?? row.leafId;
      if (options.leafId !== undefined && !byId.has(options.leafId)) {
        throw storeError('unknown-node', `listCheckpoints: node ${options.leafId} is not in session ${sessionId}`);
      }
      const chain = ancestorChain(byId, leafId);
      return session.nodes.filter((node) => chain.has(node.id) && isCheckpoint(node));
    });
  }

  /**
   * Appends a message under the current leaf (or under `options.parentId` / `message.parentId`
   * when given; null makes a new root), moves the leaf to it and bumps the revision.
   * `options.expectedLeafId` / `options.expectedRevision` say what the caller saw: the append
   * is refused with `session-moved` (the current head in `leafId`, `branchRevision`) when the
   * session moved since, e.g. another window answered meanwhile.
   * The input is not mutated; the stored node is `{ ...message, parentId }`.
   * @param {string} sessionId
   * @param {Parameters<DeclaredStore['appendMessage']>[1]} message a UIMessage (never a checkpoint)
   * @param {{ parentId?: string | null } & Expectation} [options]
   * @returns {Promise<Head>}
   */
  async appendMessage(sessionId, message, options = {}) {
    requireId('appendMessage', sessionId, 'sessionId');
    if (isCheckpoint(message)) {
      throw storeError('invalid-node', 'appendMessage: checkpoints are written by compaction only (tx.appendNode)');
    }
    checkExpectation('appendMessage', options);
    const self = this;
    return this.#write(function* () {
      const row = yield* self.#row(sessionId);
      return yield* self.#appendMessageIn(row, message, options, 'appendMessage');
    });
  }

  /**
   * @param {SessionRow} row @param {Parameters<DeclaredStore['appendMessage']>[1]} message
   * @param {{ parentId?: string | null } & Expectation} options @param {string} where
   * @returns {Generator<unknown, Head, any>}
   */
  *#appendMessageIn(row, message, options, where) {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      throw storeError('invalid-node', `${where}: message must be an object`);
    }
    refuseIfMoved(row, options, where);
    const parentId = options.parentId !== undefined
      ? options.parentId
      : message.parentId !== undefined ? /** @type {string | null} */ (message.parentId) : row.leafId;
    const node = /** @type {SessionNode} */ ({ ...message, parentId });
    yield* this.#append(row, node, where);
    yield* this.#setHead(row, node.id, row.branchRevision + 1, where);
    return { node: JSON.parse(JSON.stringify(node)), sessionId: row.id, leafId: row.leafId, branchRevision: row.branchRevision };
  }

  /**
   * Replaces a message's parts (and, if given, its metadata): a tool result, approval or the
   * final usage arriving. The only in-place update: allowed for the message at the leaf or a
   * message of the newest turn with a tool part that can still complete (not cut, no user message
   * after it on the branch: rule `interrupted-tool`); bumps the revision only when the stored JSON changes,
   * and then also the revision of every fork whose inherited chain holds the message.
   * Nodes inherited from a fork's base session cannot be updated through the fork.
   * @param {string} sessionId
   * @param {string} messageId
   * @param {unknown[]} parts
   * @param {{ metadata?: unknown }} [options]
   * @returns {Promise<Head>}
   */
  async updateMessageParts(sessionId, messageId, parts, options = {}) {
    requireId('updateMessageParts', sessionId, 'sessionId');
    requireId('updateMessageParts', messageId, 'messageId');
    if (!Array.isArray(parts)) throw storeError('invalid-argument', 'updateMessageParts: parts must be an array');
    const self = this;
    return this.#write(function* () {
      const row = yield* self.#row(sessionId);
      /** @type {NodeRow | null} */
      const stored = yield self.#driver.getNode(sessionId, messageId);
      if (!stored) throw storeError('unknown-node', `updateMessageParts: session ${sessionId} has no own node ${messageId}`);
      const node = JSON.parse(stored.json);
      if (isCheckpoint(node)) throw storeError('not-updatable', `updateMessageParts: node ${messageId} is a checkpoint`);
      if (row.leafId !== messageId && !(yield* self.#keptBelowLeafCheckpoints(row, messageId)) && !(yield* self.#pendingInNewestTurn(row, node))) {
        throw storeError('not-updatable', `updateMessageParts: message ${messageId} is neither the leaf (nor kept verbatim under the checkpoints at the leaf) nor waiting for a tool`);
      }
      const updated = { ...node, parts };
      if (options.metadata !== undefined) updated.metadata = options.metadata;
      const json = nodeJson(updated, 'updateMessageParts');
      if (json !== stored.json) {
        yield self.#driver.updateNodeJson(sessionId, messageId, json);
        noteNodeUpdated(self.#driver, sessionId, messageId);
        yield* self.#setHead(row, row.leafId, row.branchRevision + 1, 'updateMessageParts');
        const viewOf = function* () {
          const visible = yield* self.#session(row);
          return new Map(visible.nodes.map((n) => [n.id, n]));
        };
        yield* self.#bumpForksHolding(sessionId, viewOf, messageId);
      }
      return { node: JSON.parse(json), sessionId, leafId: row.leafId, branchRevision: row.branchRevision };
    });
  }

  /**
   * Whether only checkpoints follow message `messageId` to the leaf and the newest of them keeps it
   * verbatim (its `firstKeptMessageId` is the message or above it): the newest message as the
   * model sees it, e.g. a tool continuation whose preflight compacted. Updating it changes no
   * summary. Own nodes only, as for every update.
   * @param {SessionRow} row @param {string} messageId @returns {Generator<unknown, boolean, any>}
   */
  *#keptBelowLeafCheckpoints(row, messageId) {
    /** @type {string | null | undefined} the newest checkpoint's first kept message, once one is passed */
    let firstKept;
    let at = row.leafId;
    const seen = new Set();
    for (; at !== null && at !== messageId && !seen.has(at); ) {
      seen.add(at);
      /** @type {NodeRow | null} */
      const stored = yield this.#driver.getNode(row.id, at);
      if (!stored || stored.kind !== 'checkpoint') return false;
      if (firstKept === undefined) firstKept = JSON.parse(stored.json).checkpoint?.firstKeptMessageId ?? null;
      at = stored.parentId;
    }
    if (at !== messageId || typeof firstKept !== 'string') return false;
    for (; at !== null && !seen.has(at); ) {
      if (at === firstKept) return true;
      seen.add(at);
      /** @type {NodeRow | null} */
      const stored = yield this.#driver.getNode(row.id, at);
      if (!stored) return false;
      at = stored.parentId;
    }
    return false;
  }

  /**
   * Rule `interrupted-tool` (the core's `pending_workflow`): `node`, an own message that is not the
   * leaf, has a tool workflow that can still complete: not cut, and on the branch with no user
   * message after it. The walk up from the leaf stops at the first user message (one turn).
   * @param {SessionRow} row @param {Record<string, any>} node @returns {Generator<unknown, boolean, any>}
   */
  *#pendingInNewestTurn(row, node) {
    if (!mayStillCompleteTool(node)) return false;
    const seen = new Set();
    for (let at = row.leafId; at !== null && !seen.has(at); ) {
      if (at === node.id) return true;
      seen.add(at);
      /** @type {NodeRow | null} */
      const stored = yield this.#driver.getNode(row.id, at);
      // Not an own node: the chain left the session's own nodes before reaching the message.
      if (!stored) return false;
      if (stored.kind === 'message' && JSON.parse(stored.json).role === 'user') return false;
      at = stored.parentId;
    }
    return false;
  }

  /**
   * Makes `nodeId` the leaf (switching to another branch of the tree). Bumps the revision
   * unless it already is the leaf.
   * @param {string} sessionId
   * @param {string} nodeId
   * @returns {Promise<Head>}
   */
  async moveLeaf(sessionId, nodeId) {
    requireId('moveLeaf', sessionId, 'sessionId');
    requireId('moveLeaf', nodeId, 'nodeId');
    const self = this;
    return this.#write(function* () {
      const row = yield* self.#row(sessionId);
      if (!(yield* self.#hasVisibleNode(row, nodeId))) {
        throw storeError('unknown-node', `moveLeaf: node ${nodeId} is not in session ${sessionId}`);
      }
      if (row.leafId !== nodeId) yield* self.#setHead(row, nodeId, row.branchRevision + 1, 'moveLeaf');
      return { sessionId, leafId: row.leafId, branchRevision: row.branchRevision };
    });
  }

  /**
   * Retry: the new response becomes a child of `parentId` (from the core's retryTarget).
   * With `message`, it is appended there in the same transaction (one revision bump);
   * without, the leaf moves to `parentId` and the app appends the response later.
   * `options` as for appendMessage (expectedLeafId / expectedRevision).
   * @param {string} sessionId
   * @param {string} parentId
   * @param {Parameters<DeclaredStore['retry']>[2]} [message]
   * @param {Expectation} [options]
   * @returns {Promise<Head>}
   */
  async retry(sessionId, parentId, message, options = {}) {
    if (message === undefined) return this.moveLeaf(sessionId, parentId);
    requireId('retry', sessionId, 'sessionId');
    requireId('retry', parentId, 'parentId');
    checkExpectation('retry', options);
    const self = this;
    return this.#write(function* () {
      const row = yield* self.#row(sessionId);
      return yield* self.#appendMessageIn(row, message, { ...options, parentId }, 'retry');
    });
  }

  /**
   * Edit: the edited user message becomes a sibling of the old one, under `parentId` (from the
   * core's editTarget; null when editing the first message), and the new leaf.
   * `options` as for appendMessage (expectedLeafId / expectedRevision).
   * @param {string} sessionId
   * @param {string | null} parentId
   * @param {Parameters<DeclaredStore['edit']>[2]} message
   * @param {Expectation} [options]
   * @returns {Promise<Head>}
   */
  async edit(sessionId, parentId, message, options = {}) {
    requireId('edit', sessionId, 'sessionId');
    if (parentId !== null) requireId('edit', parentId, 'parentId');
    checkExpectation('edit', options);
    const self = this;
    return this.#write(function* () {
      const row = yield* self.#row(sessionId);
      return yield* self.#appendMessageIn(row, message, { ...options, parentId }, 'edit');
    });
  }

  /**
   * Fork: a new session whose history is the ancestor chain of `nodeId` in `sessionId`.
   * Nothing is copied: the fork records its base (session, node) and load() prepends that
   * chain to the fork's own nodes, so the fork's projection follows its own ancestor chain
   * only. The fork starts at leaf `nodeId`, revision 0; the source session is not changed.
   * A later in-place update of a shared node bumps the fork's revision too.
   * Whether a node may be forked is the core's canFork; the store only checks it exists.
   * @param {string} sessionId
   * @param {string} nodeId
   * @param {{ id?: string, title?: string | null, appKey?: string | null }} [options]
   * @returns {Promise<Head>}
   */
  async fork(sessionId, nodeId, options = {}) {
    requireId('fork', sessionId, 'sessionId');
    requireId('fork', nodeId, 'nodeId');
    const id = options.id ?? randomId();
    requireId('fork', id, 'id');
    const title = optionalText('fork', options.title, 'title');
    const appKey = optionalText('fork', options.appKey, 'appKey');
    const self = this;
    return this.#write(function* () {
      const source = yield* self.#row(sessionId);
      if (!(yield* self.#hasVisibleNode(source, nodeId))) {
        throw storeError('unknown-node', `fork: node ${nodeId} is not in session ${sessionId}`);
      }
      yield* self.#insertSession('fork', {
        id, title, appKey, leafId: nodeId, branchRevision: 0, baseSessionId: sessionId, baseNodeId: nodeId,
      });
      return { sessionId: id, leafId: nodeId, branchRevision: 0 };
    });
  }

  /** True once close() was called. */
  get closed() {
    return this.#closed;
  }

  /**
   * Closes the store: later calls reject with `store-closed`; resolves once the calls already
   * made have settled and the backend let go of what this store opened.
   * @returns {Promise<void>}
   */
  close() {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    const driver = this.#driver;
    const release = () => {
      const result = driver.release();
      // The indexes belong to the connection: freed with its last store.
      if (!(/** @type {any} */ (driver).users > 0)) releaseIndexes(driver);
      return result;
    };
    if (driver.mutex.idle) return Promise.resolve(release());
    return driver.mutex.drain().then(release);
  }
}

/** @param {string} where @param {Expectation} options */
function checkExpectation(where, options) {
  if (typeof options !== 'object' || options === null) throw storeError('invalid-argument', `${where}: options must be an object`);
  const { expectedLeafId, expectedRevision } = options;
  if (expectedLeafId !== undefined && expectedLeafId !== null && (typeof expectedLeafId !== 'string' || expectedLeafId === '')) {
    throw storeError('invalid-argument', `${where}: expectedLeafId must be a non-empty string or null`);
  }
  if (expectedRevision !== undefined && (!Number.isSafeInteger(expectedRevision) || expectedRevision < 0)) {
    throw storeError('invalid-argument', `${where}: expectedRevision must be a non-negative integer`);
  }
}

/** @param {SessionRow} row @param {Expectation} options @param {string} where */
function refuseIfMoved(row, options, where) {
  const leafMoved = options.expectedLeafId !== undefined && options.expectedLeafId !== row.leafId;
  const revisionMoved = options.expectedRevision !== undefined && options.expectedRevision !== row.branchRevision;
  if (leafMoved || revisionMoved) {
    throw storeError(
      'session-moved',
      `${where}: session ${row.id} is now at leaf ${row.leafId}, revision ${row.branchRevision}` +
        ` (expected ${options.expectedLeafId !== undefined ? `leaf ${options.expectedLeafId}` : ''}` +
        `${options.expectedRevision !== undefined ? ` revision ${options.expectedRevision}` : ''}); reload and decide again`,
      { leafId: row.leafId, branchRevision: row.branchRevision },
    );
  }
}
