// Session semantics shared by every store backend: the contract's SessionStore/StoreTx plus the
// app operations a plugin needs. Backends (memory, better-sqlite3, Zotero.DBConnection) only
// implement the small driver interface of store-core.js; every rule about leaves, revisions, forks
// and validation lives once: whole sessions in catalog.js, branch writes in branch-writes.js, node
// checks in nodes.js, a transaction's buffer in tx-buffer.js.
//
// Concurrency model (docs/stores.md):
// - No database transaction is ever open while the caller's code runs. Every operation is a
//   generator over driver calls, run inside one driver write (or read) transaction; with a
//   synchronous driver (better-sqlite3, memory) it runs in one synchronous stretch, so the
//   SQLite write lock is held for microseconds and never across an `await`.
// - `transaction(sessionId, fn)` notes the session's head and last row, runs the async `fn` with
//   its writes buffered (its `tx.load()` reads the session then), then in one write transaction
//   applies the buffer only if the session is still as noted (another process may have written
//   meanwhile); otherwise fn runs again on the fresh state, a bounded number of times.
// - Calls on one store (and on stores sharing one driver) still run one at a time, in order.

// The rows are the stores' own (store-core.js).
/**
 * @import { Session, SessionNode, SessionStore, StoreTx } from '../bibgenie_compaction.js'
 * @import { SessionIndex } from '../session/session-index.js'
 * @import { StoreDriver } from './store-core.js'
 */
/**
 * What an app operation leaves behind: the node it wrote (if any) and the new head.
 * @typedef {{ node?: SessionNode, sessionId: string, leafId: string | null, branchRevision: number }} SessionHead
 */
/**
 * Error codes thrown by the stores (as `error.code`): invalid-argument, invalid-node,
 * invalid-session, duplicate-id, missing-parent, missing-leaf, unknown-session, unknown-node,
 * session-exists, not-updatable, invalid-revision, transaction-closed, unsupported-schema;
 * session-moved (an append's expectedLeafId / expectedRevision no longer hold), app-key-exists,
 * has-forks (deleteSession without withForks), store-closed; and the retryable store-busy (the
 * file stayed locked by another connection) and store-conflict (a transaction's session kept
 * changing under every attempt), both with `retryable: true`; store-open-failed (SqliteStore given
 * the Database class could not open its file: a missing folder, no permission, not a database);
 * invalid-options (a store's constructor options, e.g. a tablePrefix that is no short identifier).
 * @typedef {'invalid-argument' | 'invalid-node' | 'invalid-session' | 'duplicate-id' | 'missing-parent'
 *   | 'missing-leaf' | 'unknown-session' | 'unknown-node' | 'session-exists' | 'not-updatable'
 *   | 'invalid-revision' | 'transaction-closed' | 'unsupported-schema'
 *   | 'session-moved' | 'app-key-exists' | 'has-forks' | 'store-closed' | 'store-busy' | 'store-conflict'
 *   | 'store-open-failed' | 'invalid-options'} StoreErrorCode
 */
/**
 * A session's metadata, as `listSessions({ details: true })` lists it.
 * @typedef {object} SessionInfo
 * @property {string} sessionId
 * @property {string | null} title The app's title for the session (null when none was set).
 * @property {string | null} appKey The app's key for it, unique in the store, e.g. the Zotero item key (null when none).
 * @property {number} createdAt Milliseconds since 1970 (Date.now()) at creation.
 * @property {number} updatedAt Milliseconds since 1970 at the last change.
 * @property {string | null} leafId
 * @property {number} branchRevision
 * @property {string | null} baseSessionId For a fork: the session it continues.
 * @property {string | null} baseNodeId For a fork: the node it continues.
 */
/**
 * Metadata a new session may be given.
 * @typedef {{ title?: string | null, appKey?: string | null }} SessionInfoInput
 */
/**
 * What the caller saw before appending: the append is refused with `session-moved` (the
 * current head in the error's `leafId` and `branchRevision`) when the session moved since.
 * @typedef {{ expectedLeafId?: string | null, expectedRevision?: number }} AppendExpectation
 */
/**
 * A refusal with a stable code, as the stores throw it.
 * @typedef {Error & {
 *   code: StoreErrorCode,
 *   retryable?: boolean,
 *   leafId?: string | null,
 *   branchRevision?: number,
 *   forks?: string[],
 * }} StoreError `retryable`: true for store-busy and store-conflict (the same call may succeed later);
 *   `leafId`, `branchRevision`: for session-moved, the head as it is now; `forks`: for has-forks, the
 *   sessions forked from the one to delete.
 */

import { drive } from './sequencing.js';
import { requireId, storeError } from './nodes.js';
import { TxBuffer } from './tx-buffer.js';
import { JoinedCore, StoreCore } from './store-core.js';
import { buildInSlices, releaseIndex, releaseIndexes, syncedView } from './session-indexes.js';
import { quietView } from './own-writes.js';
import * as catalog from './catalog.js';
import * as branch from './branch-writes.js';

/** How often `transaction` runs fn when another writer keeps changing what fn read. */
export const MAX_TRANSACTION_ATTEMPTS = 4;

/**
 * The store as a withinTransaction callback gets it: its reads and writes, each running inside the
 * open transaction, none that opens a transaction of its own or holds state across it; only valid
 * while the callback runs (later: `transaction-closed`).
 * @typedef {Pick<SessionStoreBase, 'load' | 'loadJson' | 'createSession' | 'importSession' | 'importMessages'
 *   | 'listSessions' | 'getSessionInfo' | 'setSessionInfo' | 'getOrCreateSession' | 'deleteSession' | 'fork'
 *   | 'listCheckpoints' | 'appendMessage' | 'updateMessageParts' | 'moveLeaf' | 'retry' | 'edit'>} StoreInTransaction
 */
/** The names of StoreInTransaction, for building `tx`. @type {ReadonlyArray<keyof StoreInTransaction>} */
const IN_TRANSACTION = [
  'load', 'loadJson', 'createSession', 'importSession', 'importMessages', 'listSessions', 'getSessionInfo', 'setSessionInfo',
  'getOrCreateSession', 'deleteSession', 'fork', 'listCheckpoints', 'appendMessage', 'updateMessageParts', 'moveLeaf', 'retry', 'edit',
];

/** The core the next SessionStoreBase is built on instead of its own (the `tx` of withinTransaction). */
/** @type {StoreCore | null} */
let joinedCore = null;

/**
 * The shared store. Subclasses pass a driver; all public methods are serialized through the
 * driver's mutex, so reads see committed state only and operations never interleave.
 *
 * Do not call store methods from inside a transaction callback: they wait for the running
 * transaction to finish, which is waiting for the callback. Use the `tx` argument instead.
 */
/** @implements {SessionStore} */
export class SessionStoreBase {
  /** @type {StoreCore} */
  #core;

  /** @param {StoreDriver} driver */
  constructor(driver) {
    this.#core = joinedCore ?? new StoreCore(driver);
    joinedCore = null;
  }

  // ---- The contract's SessionStore -------------------------------------------------------

  /**
   * The durable session: nodes in insertion order, exactly as stored (a corrupt parent chain
   * is returned as it is; readBranch reports it and nothing is repaired).
   * @param {string} sessionId
   * @returns {Promise<Session>}
   */
  async load(sessionId) {
    const core = this.#core;
    requireId('load', sessionId, 'sessionId');
    return core.read(function* () {
      return yield* core.session(yield* core.row(sessionId));
    });
  }

  /**
   * The stored JSON text of a session's visible nodes, as one JSON array, with the head: for a
   * caller that keeps its own parsed index (no object per node is built here).
   * @param {string} sessionId
   * @returns {Promise<{ nodesJson: string, leafId: string | null, branchRevision: number }>}
   */
  async loadJson(sessionId) {
    const core = this.#core;
    requireId('loadJson', sessionId, 'sessionId');
    return core.read(function* () {
      const row = yield* core.row(sessionId);
      const jsons = yield* core.visibleJsons(row);
      return { nodesJson: `[${jsons.join(',')}]`, leafId: row.leafId, branchRevision: row.branchRevision };
    });
  }

  /**
   * Runs `use(index)` on the session's SessionIndex that the store holds, brought up to date with
   * the durable state first, inside one read (no store write runs meanwhile). Its sessions are
   * parsed from the stored text (fresh objects); `project().messages` are a fresh message, `parts`
   * array and parts on every call over one parse, what the parts hold and the message's metadata
   * shared and frozen (../session/node-source.js); it is valid only during `use`, which
   * must not await, and stays the store's. `index` is null when it cannot hold the session (no leaf
   * yet, a node the index reads only within a whole session, the wasm not loaded): then use load().
   * One index per session, per connection, at most HELD_SESSION_INDEXES (least recently used freed);
   * freed by close(), deleteSession and releaseSessionIndex.
   * @template T
   * @param {string} sessionId
   * @param {(index: SessionIndex | null) => T} use
   * @returns {Promise<T>}
   */
  async withSessionIndex(sessionId, use) {
    const core = this.#core;
    requireId('withSessionIndex', sessionId, 'sessionId');
    if (typeof use !== 'function') throw storeError('invalid-argument', 'withSessionIndex: use must be a function');
    const readRow = (/** @type {any} */ _driver, /** @type {string} */ id) => core.row(id);
    return core.exclusive(async () => {
      // A large session's first use builds its index in slices first (the thread is not held for it).
      await buildInSlices(core.driver, sessionId, readRow, (op) => core.readInside(op));
      // Nothing written since the index was last current (own writes are taken in as committed): no read.
      const quiet = quietView(core.driver, sessionId);
      if (quiet) return use(/** @type {any} */ (quiet));
      return core.readInside(function* () {
        const index = yield* syncedView(core.driver, sessionId, readRow);
        return use(/** @type {any} */ (index)); // the class session-index.js declares
      });
    });
  }

  /**
   * Frees the session's store-held index (the session's pane closed); a later use rebuilds it.
   * @param {string} sessionId
   * @returns {Promise<void>}
   */
  async releaseSessionIndex(sessionId) {
    const core = this.#core;
    requireId('releaseSessionIndex', sessionId, 'sessionId');
    return core.exclusive(() => releaseIndex(core.driver, sessionId));
  }

  /**
   * Runs `fn` as one transaction on the session: everything it wrote is committed when its
   * promise resolves and discarded when it rejects (the rejection is rethrown). `tx.load()`
   * shows the session as of the transaction's start plus its own writes.
   *
   * No database transaction is open while fn runs: its writes are buffered and applied in one
   * write transaction after it resolved, only if the session (head and every visible node) is
   * still as when the transaction began. If another writer (another process) changed it, fn runs
   * again on the fresh state, up to MAX_TRANSACTION_ATTEMPTS times, then `store-conflict`
   * (retryable). A fn that wrote nothing is not re-run, unless its `tx.load()` found the session
   * changed while reading it (a long session is read and parsed in slices, with pauses between
   * them). `tx` is only valid during `fn`.
   * `tx.appendNode` does not move the leaf or bump the revision: the caller does that with
   * `tx.setLeaf(leafId, revision)` where a moved leaf needs a higher revision.
   * @template T
   * @param {string} sessionId
   * @param {(tx: StoreTx) => Promise<T>} fn
   * @returns {Promise<T>}
   */
  async transaction(sessionId, fn) {
    const core = this.#core;
    requireId('transaction', sessionId, 'sessionId');
    if (typeof fn !== 'function') throw storeError('invalid-argument', 'transaction: fn must be a function');
    return core.exclusive(async () => {
      for (let attempt = 1; ; attempt++) {
        const basis = await core.driver.read(() => drive(core.basis(sessionId)));
        const buffer = new TxBuffer(core, sessionId, basis);
        let result;
        try {
          result = await fn(buffer.api);
        } catch (error) {
          // A load that found the session changed under it ends fn: it runs again on the fresh state.
          if (!buffer.torn) throw error;
        } finally {
          buffer.close();
        }
        if (!buffer.torn) {
          // Assigned: fn resolved (a throw other than the torn load's was rethrown above).
          const done = /** @type {T} */ (result);
          if (!buffer.wrote) return done;
          const applied = await core.driver.write(() => drive((function* () {
            if (!(yield* core.isCurrent(basis))) return false;
            const at = Date.now();
            for (const row of buffer.nodes) yield core.driver.insertNode(sessionId, row, at);
            if (buffer.headMoved) yield core.driver.updateHead(sessionId, buffer.row.leafId, buffer.row.branchRevision, at);
            return true;
          })()));
          if (applied) return done;
        }
        if (attempt >= MAX_TRANSACTION_ATTEMPTS) {
          throw storeError('store-conflict', `transaction: session ${sessionId} kept changing under ${attempt} attempts`, { retryable: true });
        }
      }
    });
  }

  /**
   * Runs `fn` inside one write transaction of the store's database, so that the app's own
   * statements on the same connection (its own tables, e.g. `chats`) and the store writes it makes
   * through `tx` commit together, or roll back together when fn rejects (the rejection is rethrown
   * as it is). On Zotero it is the store's `executeTransaction` on its connection: inside fn run the
   * app's statements with `connection.queryAsync` and never call `executeTransaction` (Zotero would
   * wait for this one: a deadlock until its timeout). Other store calls wait until fn settled; do
   * not call the store itself inside fn (it waits for fn), use `tx`, and keep fn short (no model
   * call: the database stays locked meanwhile). A rollback also drops the store-held session
   * indexes, so nothing the store holds keeps a write that did not happen.
   * @template T
   * @param {(tx: StoreInTransaction) => Promise<T> | T} fn
   * @returns {Promise<T>}
   */
  async withinTransaction(fn) {
    const core = this.#core;
    if (typeof fn !== 'function') throw storeError('invalid-argument', 'withinTransaction: fn must be a function');
    return core.exclusive(async () => {
      const joined = new JoinedCore(core.driver);
      joinedCore = joined;
      const inner = new SessionStoreBase(core.driver);
      const tx = /** @type {StoreInTransaction} */ (Object.freeze(Object.fromEntries(IN_TRANSACTION.map((name) => [name, /** @type {Function} */ (inner[name]).bind(inner)]))));
      try {
        return await core.driver.writeAsync(async () => {
          let outcome;
          try {
            outcome = { result: await fn(tx) };
          } catch (error) {
            outcome = { error };
          }
          joined.ended = true;
          await joined.settled(); // a tx call fn did not await still runs inside, before the end
          if ('error' in outcome) throw outcome.error;
          if (joined.failure !== undefined) throw joined.failure;
          return outcome.result;
        });
      } catch (error) {
        releaseIndexes(core.driver);
        throw error;
      }
    });
  }

  // ---- App operations (catalog.js: whole sessions; branch-writes.js: the branch) ------------

  /**
   * An empty session (leafId null, revision 0); a random `sessionId` unless given.
   * @param {{ sessionId?: string } & SessionInfoInput} [options]
   * @returns {Promise<Session & { sessionId: string }>}
   */
  createSession(options) {
    return catalog.createSession(this.#core, options);
  }

  /**
   * Stores a whole session verbatim (nodes, leaf, revision), e.g. the demo's bundled session.
   * @param {Session} session
   * @param {{ sessionId?: string } & SessionInfoInput} [options]
   * @returns {Promise<SessionHead>}
   */
  importSession(session, options) {
    return catalog.importSession(this.#core, session, options);
  }

  /**
   * Imports a linear UIMessage list (no parentId) as a new session: see sessionFromMessages.
   * @param {ReadonlyArray<import('../ai-types.js').UIMessage & { parentId?: string | null }>} messages
   * @param {{ sessionId?: string } & SessionInfoInput} [options]
   * @returns {Promise<SessionHead>}
   */
  importMessages(messages, options) {
    return catalog.importMessages(this.#core, messages, options);
  }

  /**
   * @overload
   * @param {{ details?: false }} [options]
   * @returns {Promise<string[]>}
   */
  /**
   * @overload
   * @param {{ details: true }} options
   * @returns {Promise<SessionInfo[]>}
   */
  /** @param {{ details?: boolean }} [options] */
  listSessions(options) {
    return /** @type {any} */ (catalog.listSessions(this.#core, options));
  }

  /**
   * @param {string} sessionId
   * @returns {Promise<SessionInfo>}
   */
  getSessionInfo(sessionId) {
    return catalog.getSessionInfo(this.#core, sessionId);
  }

  /**
   * Sets the title and/or app key (null clears); the revision stays, updatedAt moves.
   * @param {string} sessionId
   * @param {SessionInfoInput} info
   * @returns {Promise<SessionInfo>}
   */
  setSessionInfo(sessionId, info) {
    return catalog.setSessionInfo(this.#core, sessionId, info);
  }

  /**
   * The session of an app key (e.g. a Zotero item key), created empty if there is none.
   * @param {{ appKey: string, title?: string | null, sessionId?: string }} options
   * @returns {Promise<SessionInfo & { created: boolean }>}
   */
  getOrCreateSession(options) {
    return catalog.getOrCreateSession(this.#core, options);
  }

  /**
   * Deletes a session and its nodes; one with forks only with `withForks` (forks deleted first).
   * @param {string} sessionId
   * @param {{ withForks?: boolean }} [options]
   * @returns {Promise<{ deleted: string[] }>}
   */
  deleteSession(sessionId, options) {
    return catalog.deleteSession(this.#core, sessionId, options);
  }

  /**
   * A new session continuing the ancestor chain of nodeId (nothing copied; load() prepends the
   * chain). Starts at leaf nodeId, revision 0. Check the core's canFork first.
   * @param {string} sessionId
   * @param {string} nodeId
   * @param {{ sessionId?: string } & SessionInfoInput} [options]
   * @returns {Promise<SessionHead>}
   */
  fork(sessionId, nodeId, options) {
    return catalog.fork(this.#core, sessionId, nodeId, options);
  }

  /**
   * The checkpoints on the branch ending at leafId (the session's leaf by default), oldest first.
   * @param {string} sessionId
   * @param {{ leafId?: string }} [options]
   * @returns {Promise<SessionNode[]>}
   */
  listCheckpoints(sessionId, options) {
    return branch.listCheckpoints(this.#core, sessionId, options);
  }

  /**
   * Appends under the leaf (or options.parentId / message.parentId), moves the leaf, bumps the revision.
   * @param {string} sessionId
   * @param {import('../ai-types.js').UIMessage & { parentId?: string | null }} message
   * @param {{ parentId?: string | null } & AppendExpectation} [options]
   * @returns {Promise<SessionHead>}
   */
  appendMessage(sessionId, message, options) {
    return branch.appendMessage(this.#core, sessionId, message, options);
  }

  /**
   * A tool result (or final metadata) arriving: only for the leaf or a message of the newest turn with
   * a tool part that can still complete (not cut by `metadata.aborted` / `finishReason: 'error'`, no
   * user message after it). A change also bumps the revision of every fork whose inherited chain holds the message.
   * @param {string} sessionId
   * @param {string} messageId
   * @param {import('../ai-types.js').UIMessage['parts']} parts
   * @param {{ metadata?: unknown }} [options]
   * @returns {Promise<SessionHead>}
   */
  updateMessageParts(sessionId, messageId, parts, options) {
    return branch.updateMessageParts(this.#core, sessionId, messageId, parts, options);
  }

  /**
   * Makes nodeId the leaf (branch switch); bumps the revision unless it already was.
   * @param {string} sessionId
   * @param {string} nodeId
   * @returns {Promise<SessionHead>}
   */
  moveLeaf(sessionId, nodeId) {
    return branch.moveLeaf(this.#core, sessionId, nodeId);
  }

  /**
   * Retry under parentId (core's retryTarget): moves the leaf there, or appends `message` there.
   * @param {string} sessionId
   * @param {string} parentId
   * @param {import('../ai-types.js').UIMessage} [message]
   * @param {AppendExpectation} [options]
   * @returns {Promise<SessionHead>}
   */
  retry(sessionId, parentId, message, options) {
    return branch.retry(this.#core, sessionId, parentId, message, options);
  }

  /**
   * Edit: `message` becomes a sibling under parentId (core's editTarget) and the leaf.
   * @param {string} sessionId
   * @param {string | null} parentId
   * @param {import('../ai-types.js').UIMessage} message
   * @param {AppendExpectation} [options]
   * @returns {Promise<SessionHead>}
   */
  edit(sessionId, parentId, message, options) {
    return branch.edit(this.#core, sessionId, parentId, message, options);
  }

  /** True once close() was called. */
  get closed() {
    return this.#core.closed;
  }

  /**
   * Closes the store: later calls reject with `store-closed`; resolves once the calls already
   * made have settled and the backend let go of what this store opened.
   * @returns {Promise<void>}
   */
  close() {
    const core = this.#core;
    if (core.closed) return Promise.resolve();
    core.closed = true;
    const driver = core.driver;
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
