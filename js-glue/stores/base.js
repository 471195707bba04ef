// Session semantics shared by every store backend: the contract's SessionStore/StoreTx plus the
// app operations a plugin needs. Backends (memory, better-sqlite3, Zotero.DBConnection) only
// implement the small driver interface below; every rule about leaves, revisions, forks and
// validation lives here once.

/**
 * @typedef {{ id: string, parentId: string | null, createdAt?: number, [key: string]: unknown }} SessionNode
 *   A UIMessage plus parentId, or a checkpoint node (it has `checkpoint`).
 * @typedef {{ nodes: SessionNode[], leafId: string | null, branchRevision: number }} Session
 *   leafId is null only for a session with no nodes yet.
 * @typedef {{ node?: SessionNode, sessionId: string, leafId: string | null, branchRevision: number }} Head
 *   What an app operation leaves behind: the node it wrote (if any) and the new head.
 * @typedef {{
 *   load(): Promise<Session>,
 *   appendNode(node: SessionNode): Promise<void>,
 *   setLeaf(leafId: string, branchRevision: number): Promise<void>,
 * }} StoreTx
 * @typedef {{
 *   id: string, leafId: string | null, branchRevision: number,
 *   baseSessionId: string | null, baseNodeId: string | null,
 *   createdAt: number, updatedAt: number,
 * }} SessionRow
 * @typedef {{ id: string, parentId: string | null, kind: 'message' | 'checkpoint', json: string }} NodeRow
 * @typedef {{
 *   init(): Promise<void> | void,
 *   getSession(id: string): Promise<SessionRow | null> | SessionRow | null,
 *   listSessionIds(): Promise<string[]> | string[],
 *   getNodeJsons(sessionId: string): Promise<string[]> | string[],
 *   getNode(sessionId: string, id: string): Promise<NodeRow | null> | NodeRow | null,
 *   insertSession(row: SessionRow): Promise<void> | void,
 *   insertNode(sessionId: string, row: NodeRow, createdAt: number): Promise<void> | void,
 *   updateHead(sessionId: string, leafId: string | null, branchRevision: number, updatedAt: number): Promise<void> | void,
 *   updateNodeJson(sessionId: string, id: string, json: string): Promise<void> | void,
 *   runInTransaction<T>(fn: () => Promise<T>): Promise<T>,
 * }} StoreDriver
 */

/** Tool part states that mean the workflow is still waiting (the contract's "pending" set). */
export const PENDING_TOOL_STATES = Object.freeze([
  'input-streaming',
  'input-available',
  'approval-requested',
  'approval-responded',
]);

/**
 * A JS Error with a stable `code`, like the errors thrown by the wasm core.
 * @param {string} code
 * @param {string} message
 */
export function storeError(code, message) {
  const error = new Error(message);
  /** @type {any} */ (error).code = code;
  return error;
}

/** A random id; crypto.randomUUID where the runtime has it (Node, Firefox, Zotero). */
export function randomId() {
  const c = /** @type {any} */ (globalThis).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') c.getRandomValues(bytes);
  else for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(Math.random() * 256);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Serializes promise-returning jobs: each starts after the previous one settled.
 * Used so two async callers never interleave inside one store transaction.
 */
export class AsyncMutex {
  #tail = Promise.resolve();

  /**
   * @template T
   * @param {() => Promise<T> | T} job
   * @returns {Promise<T>}
   */
  run(job) {
    const result = this.#tail.then(() => job());
    this.#tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

/** @param {unknown} node */
function isCheckpoint(node) {
  return typeof node === 'object' && node !== null && Object.prototype.hasOwnProperty.call(node, 'checkpoint');
}

/** @param {unknown} part */
function isPendingToolPart(part) {
  if (typeof part !== 'object' || part === null) return false;
  const p = /** @type {{ type?: unknown, state?: unknown }} */ (part);
  const isTool = typeof p.type === 'string' && (p.type.startsWith('tool-') || p.type === 'dynamic-tool');
  return isTool && typeof p.state === 'string' && PENDING_TOOL_STATES.includes(p.state);
}

/**
 * Checks the fields the store itself relies on and returns the node's JSON text.
 * The core validates everything else when it reads the session.
 * @param {unknown} node
 * @param {string} where
 */
function nodeJson(node, where) {
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
  let json;
  try {
    json = JSON.stringify(node);
  } catch (cause) {
    throw storeError('invalid-node', `${where}: node ${n.id} is not JSON-serializable: ${String(cause)}`);
  }
  return json;
}

/** @param {string} where @param {unknown} id @param {string} name */
function requireId(where, id, name) {
  if (typeof id !== 'string' || id === '') {
    throw storeError('invalid-argument', `${where}: ${name} must be a non-empty string`);
  }
}

/**
 * The shared store. Subclasses pass a driver; all public methods are serialized through one
 * mutex, so reads see committed state only and transactions never interleave.
 *
 * Do not call store methods from inside a transaction callback: they wait for the running
 * transaction to finish, which is waiting for the callback (a deadlock, as with Zotero's
 * nested executeTransaction). Use the `tx` argument instead.
 */
export class SessionStoreBase {
  /** @type {StoreDriver} */
  #driver;
  #mutex = new AsyncMutex();
  /** @type {Promise<void> | null} */
  #ready = null;

  /** @param {StoreDriver} driver */
  constructor(driver) {
    this.#driver = driver;
  }

  /**
   * Runs `job` alone, after the schema is ready.
   * @template T
   * @param {() => Promise<T>} job
   * @returns {Promise<T>}
   */
  #exclusive(job) {
    return this.#mutex.run(async () => {
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
   * @template T
   * @param {() => Promise<T>} job
   * @returns {Promise<T>}
   */
  #exclusiveTransaction(job) {
    return this.#exclusive(() => this.#driver.runInTransaction(job));
  }

  /** @param {string} sessionId */
  async #row(sessionId) {
    const row = await this.#driver.getSession(sessionId);
    if (!row) throw storeError('unknown-session', `no session with id ${sessionId}`);
    return row;
  }

  /**
   * Every node visible in a session, in insertion order: for a fork, the ancestor chain of
   * its base node (from the base session, recursively) and then its own nodes.
   * @param {SessionRow} row
   * @param {Set<string>} [seen] guards against fork cycles written by hand
   * @returns {Promise<string[]>}
   */
  async #visibleJsons(row, seen = new Set()) {
    const own = await this.#driver.getNodeJsons(row.id);
    if (row.baseSessionId === null || row.baseNodeId === null || seen.has(row.id)) return [...own];
    seen.add(row.id);
    const base = await this.#driver.getSession(row.baseSessionId);
    if (!base) return [...own]; // the base session is gone: load as-is, readBranch reports it
    const baseJsons = await this.#visibleJsons(base, seen);
    const baseNodes = baseJsons.map((json) => /** @type {SessionNode} */ (JSON.parse(json)));
    const byId = new Map(baseNodes.map((node) => [node.id, node]));
    const chain = new Set();
    for (let id = /** @type {string | null} */ (row.baseNodeId); id !== null && byId.has(id) && !chain.has(id); ) {
      chain.add(id);
      const parent = /** @type {SessionNode} */ (byId.get(id)).parentId;
      id = typeof parent === 'string' ? parent : null;
    }
    const inherited = baseJsons.filter((_, i) => chain.has(baseNodes[i].id));
    return [...inherited, ...own];
  }

  /** @param {SessionRow} row @returns {Promise<Session>} */
  async #session(row) {
    const jsons = await this.#visibleJsons(row);
    return {
      nodes: jsons.map((json) => JSON.parse(json)),
      leafId: row.leafId,
      branchRevision: row.branchRevision,
    };
  }

  /**
   * Whether `id` names a node visible in the session (own or inherited through a fork).
   * @param {SessionRow} row @param {string} id
   */
  async #hasVisibleNode(row, id) {
    if (await this.#driver.getNode(row.id, id)) return true;
    if (row.baseSessionId === null) return false;
    const session = await this.#session(row);
    return session.nodes.some((node) => node.id === id);
  }

  /**
   * Appends a node after checking its id is new and its parent exists.
   * @param {SessionRow} row @param {SessionNode} node @param {string} where
   */
  async #append(row, node, where) {
    const json = nodeJson(node, where);
    if (await this.#hasVisibleNode(row, node.id)) {
      throw storeError('duplicate-id', `${where}: session ${row.id} already has a node ${node.id}`);
    }
    if (node.parentId !== null && !(await this.#hasVisibleNode(row, node.parentId))) {
      throw storeError('missing-parent', `${where}: node ${node.id}: parent ${node.parentId} is not in session ${row.id}`);
    }
    const kind = isCheckpoint(node) ? 'checkpoint' : 'message';
    await this.#driver.insertNode(row.id, { id: node.id, parentId: node.parentId, kind, json }, Date.now());
  }

  /**
   * Moves the head; a leaf move must come with a higher revision, so readers can tell.
   * @param {SessionRow} row @param {string | null} leafId @param {number} branchRevision @param {string} where
   */
  async #setHead(row, leafId, branchRevision, where) {
    if (!Number.isSafeInteger(branchRevision) || branchRevision < row.branchRevision) {
      throw storeError('invalid-revision', `${where}: branchRevision ${branchRevision} is not an integer >= ${row.branchRevision}`);
    }
    if (leafId !== row.leafId && branchRevision === row.branchRevision) {
      throw storeError('invalid-revision', `${where}: moving the leaf must increase branchRevision (now ${row.branchRevision})`);
    }
    if (leafId === row.leafId && branchRevision === row.branchRevision) return;
    await this.#driver.updateHead(row.id, leafId, branchRevision, Date.now());
    row.leafId = leafId;
    row.branchRevision = branchRevision;
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
    return this.#exclusive(async () => this.#session(await this.#row(sessionId)));
  }

  /**
   * Runs `fn` in one transaction on the session: everything it wrote is committed when its
   * promise resolves and rolled back when it rejects (the rejection is rethrown). Transactions
   * and app operations on one store run one at a time. `tx` is only valid during `fn`.
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
    return this.#exclusiveTransaction(async () => {
      const row = await this.#row(sessionId);
      let open = true;
      const guard = (/** @type {string} */ name) => {
        if (!open) throw storeError('transaction-closed', `tx.${name}: the transaction has already ended`);
      };
      /** @type {StoreTx} */
      const tx = {
        load: async () => {
          guard('load');
          return this.#session(row);
        },
        appendNode: async (node) => {
          guard('appendNode');
          await this.#append(row, node, 'tx.appendNode');
        },
        setLeaf: async (leafId, branchRevision) => {
          guard('setLeaf');
          requireId('tx.setLeaf', leafId, 'leafId');
          if (!(await this.#hasVisibleNode(row, leafId))) {
            throw storeError('missing-leaf', `tx.setLeaf: node ${leafId} is not in session ${sessionId}`);
          }
          await this.#setHead(row, leafId, branchRevision, 'tx.setLeaf');
        },
      };
      try {
        return await fn(tx);
      } finally {
        open = false;
      }
    });
  }

  // ---- App operations ---------------------------------------------------------------------

  /**
   * Creates an empty session (leafId null, branchRevision 0).
   * @param {{ id?: string }} [options]
   * @returns {Promise<Session & { id: string }>}
   */
  async createSession(options = {}) {
    const id = options.id ?? randomId();
    requireId('createSession', id, 'id');
    return this.#exclusiveTransaction(async () => {
      if (await this.#driver.getSession(id)) throw storeError('session-exists', `createSession: session ${id} already exists`);
      const now = Date.now();
      await this.#driver.insertSession({
        id, leafId: null, branchRevision: 0, baseSessionId: null, baseNodeId: null, createdAt: now, updatedAt: now,
      });
      return { id, nodes: [], leafId: null, branchRevision: 0 };
    });
  }

  /**
   * Stores a whole session as given (nodes verbatim, even a broken chain; leaf and revision
   * copied). For demos, migrations and tests.
   * @param {Session} session
   * @param {{ id?: string }} [options]
   * @returns {Promise<Head>}
   */
  async importSession(session, options = {}) {
    const id = options.id ?? randomId();
    requireId('importSession', id, 'id');
    if (!session || !Array.isArray(session.nodes)) throw storeError('invalid-session', 'importSession: session.nodes must be an array');
    const revision = session.branchRevision ?? 0;
    if (!Number.isSafeInteger(revision) || revision < 0) {
      throw storeError('invalid-session', 'importSession: branchRevision must be a non-negative integer');
    }
    const leafId = session.leafId ?? null;
    const rows = session.nodes.map((node, i) => {
      const json = nodeJson(node, `importSession: nodes[${i}]`);
      return { id: node.id, parentId: node.parentId, kind: isCheckpoint(node) ? 'checkpoint' : 'message', json };
    });
    return this.#exclusiveTransaction(async () => {
      if (await this.#driver.getSession(id)) throw storeError('session-exists', `importSession: session ${id} already exists`);
      const now = Date.now();
      await this.#driver.insertSession({
        id, leafId, branchRevision: revision, baseSessionId: null, baseNodeId: null, createdAt: now, updatedAt: now,
      });
      const seen = new Set();
      for (const row of rows) {
        if (seen.has(row.id)) throw storeError('duplicate-id', `importSession: node ${row.id} appears twice`);
        seen.add(row.id);
        await this.#driver.insertNode(id, /** @type {NodeRow} */ (row), now);
      }
      return { sessionId: id, leafId, branchRevision: revision };
    });
  }

  /** Session ids, most recently changed first. @returns {Promise<string[]>} */
  async listSessions() {
    return this.#exclusive(async () => [...(await this.#driver.listSessionIds())]);
  }

  /**
   * Appends a message under the current leaf (or under `options.parentId` / `message.parentId`
   * when given; null makes a new root), moves the leaf to it and bumps the revision.
   * The input is not mutated; the stored node is `{ ...message, parentId }`.
   * @param {string} sessionId
   * @param {Record<string, unknown>} message a UIMessage (never a checkpoint)
   * @param {{ parentId?: string | null }} [options]
   * @returns {Promise<Head>}
   */
  async appendMessage(sessionId, message, options = {}) {
    requireId('appendMessage', sessionId, 'sessionId');
    if (isCheckpoint(message)) {
      throw storeError('invalid-node', 'appendMessage: checkpoints are written by compaction only (tx.appendNode)');
    }
    return this.#exclusiveTransaction(async () => {
      const row = await this.#row(sessionId);
      return this.#appendMessageIn(row, message, options, 'appendMessage');
    });
  }

  /**
   * @param {SessionRow} row @param {Record<string, unknown>} message
   * @param {{ parentId?: string | null }} options @param {string} where
   * @returns {Promise<Head>}
   */
  async #appendMessageIn(row, message, options, where) {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      throw storeError('invalid-node', `${where}: message must be an object`);
    }
    const parentId = options.parentId !== undefined
      ? options.parentId
      : message.parentId !== undefined ? /** @type {string | null} */ (message.parentId) : row.leafId;
    const node = /** @type {SessionNode} */ ({ ...message, parentId });
    await this.#append(row, node, where);
    await this.#setHead(row, node.id, row.branchRevision + 1, where);
    return { node: JSON.parse(JSON.stringify(node)), sessionId: row.id, leafId: row.leafId, branchRevision: row.branchRevision };
  }

  /**
   * Replaces a message's parts (and, if given, its metadata): a tool result, approval or the
   * final usage arriving. The only in-place update: allowed for the message at the leaf or a
   * message with a pending tool part; bumps the revision only when the stored JSON changes.
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
    return this.#exclusiveTransaction(async () => {
      const row = await this.#row(sessionId);
      const stored = await this.#driver.getNode(sessionId, messageId);
      if (!stored) throw storeError('unknown-node', `updateMessageParts: session ${sessionId} has no own node ${messageId}`);
      const node = JSON.parse(stored.json);
      if (isCheckpoint(node)) throw storeError('not-updatable', `updateMessageParts: node ${messageId} is a checkpoint`);
      const pending = Array.isArray(node.parts) && node.parts.some(isPendingToolPart);
      if (row.leafId !== messageId && !pending) {
        throw storeError('not-updatable', `updateMessageParts: message ${messageId} is neither the leaf nor waiting for a tool`);
      }
      const updated = { ...node, parts };
      if (options.metadata !== undefined) updated.metadata = options.metadata;
      const json = nodeJson(updated, 'updateMessageParts');
      if (json !== stored.json) {
        await this.#driver.updateNodeJson(sessionId, messageId, json);
        await this.#setHead(row, row.leafId, row.branchRevision + 1, 'updateMessageParts');
      }
      return { node: JSON.parse(json), sessionId, leafId: row.leafId, branchRevision: row.branchRevision };
    });
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
    return this.#exclusiveTransaction(async () => {
      const row = await this.#row(sessionId);
      if (!(await this.#hasVisibleNode(row, nodeId))) {
        throw storeError('unknown-node', `moveLeaf: node ${nodeId} is not in session ${sessionId}`);
      }
      if (row.leafId !== nodeId) await this.#setHead(row, nodeId, row.branchRevision + 1, 'moveLeaf');
      return { sessionId, leafId: row.leafId, branchRevision: row.branchRevision };
    });
  }

  /**
   * Retry: the new response becomes a child of `parentId` (from the core's retryTarget).
   * With `message`, it is appended there in the same transaction (one revision bump);
   * without, the leaf moves to `parentId` and the app appends the response later.
   * @param {string} sessionId
   * @param {string} parentId
   * @param {Record<string, unknown>} [message]
   * @returns {Promise<Head>}
   */
  async retry(sessionId, parentId, message) {
    if (message === undefined) return this.moveLeaf(sessionId, parentId);
    requireId('retry', sessionId, 'sessionId');
    requireId('retry', parentId, 'parentId');
    return this.#exclusiveTransaction(async () => {
      const row = await this.#row(sessionId);
      return this.#appendMessageIn(row, message, { parentId }, 'retry');
    });
  }

  /**
   * Edit: the edited user message becomes a sibling of the old one, under `parentId` (from the
   * core's editTarget; null when editing the first message), and the new leaf.
   * @param {string} sessionId
   * @param {string | null} parentId
   * @param {Record<string, unknown>} message
   * @returns {Promise<Head>}
   */
  async edit(sessionId, parentId, message) {
    requireId('edit', sessionId, 'sessionId');
    if (parentId !== null) requireId('edit', parentId, 'parentId');
    return this.#exclusiveTransaction(async () => {
      const row = await this.#row(sessionId);
      return this.#appendMessageIn(row, message, { parentId }, 'edit');
    });
  }

  /**
   * Fork: a new session whose history is the ancestor chain of `nodeId` in `sessionId`.
   * Nothing is copied: the fork records its base (session, node) and load() prepends that
   * chain to the fork's own nodes, so the fork's projection follows its own ancestor chain
   * only. The fork starts at leaf `nodeId`, revision 0; the source session is not changed.
   * Whether a node may be forked is the core's canFork; the store only checks it exists.
   * @param {string} sessionId
   * @param {string} nodeId
   * @param {{ id?: string }} [options]
   * @returns {Promise<Head>}
   */
  async fork(sessionId, nodeId, options = {}) {
    requireId('fork', sessionId, 'sessionId');
    requireId('fork', nodeId, 'nodeId');
    const id = options.id ?? randomId();
    requireId('fork', id, 'id');
    return this.#exclusiveTransaction(async () => {
      const source = await this.#row(sessionId);
      if (!(await this.#hasVisibleNode(source, nodeId))) {
        throw storeError('unknown-node', `fork: node ${nodeId} is not in session ${sessionId}`);
      }
      if (await this.#driver.getSession(id)) throw storeError('session-exists', `fork: session ${id} already exists`);
      const now = Date.now();
      await this.#driver.insertSession({
        id, leafId: nodeId, branchRevision: 0, baseSessionId: sessionId, baseNodeId: nodeId, createdAt: now, updatedAt: now,
      });
      return { sessionId: id, leafId: nodeId, branchRevision: 0 };
    });
  }
}
