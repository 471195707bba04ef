// The writes that move a session's branch: appending messages (append, retry, edit), the one
// in-place update (a message's parts), moving the leaf, and the checkpoints on a branch. Each is a
// generator over driver calls run in one write (or read) transaction of the store's core
// (store-core.js); the rules about leaves, revisions and forks live here once.
import {
  ancestorChain, checkHeadMove, isCheckpoint, mayStillCompleteTool, nodeFields, nodeJson, nodeRow, requireId, storeError,
} from './nodes.js';
import { noteNodeUpdated } from './session-indexes.js';

/**
 * @import { SessionNode } from '../bibgenie_compaction.js'
 * @import { AppendExpectation as Expectation, SessionHead as Head } from './base.js'
 * @import { StoreCore, SessionRow, NodeRow } from './store-core.js'
 */

/**
 * Appends a message under the current leaf (or under `options.parentId` / `message.parentId`
 * when given; null makes a new root), moves the leaf to it and bumps the revision.
 * `options.expectedLeafId` / `options.expectedRevision` say what the caller saw: the append
 * is refused with `session-moved` (the current head in `leafId`, `branchRevision`) when the
 * session moved since, e.g. another window answered meanwhile.
 * The input is not mutated; the stored node is `{ ...message, parentId }`.
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {import('../ai-types.js').UIMessage & { parentId?: string | null }} message a UIMessage (never a checkpoint)
 * @param {{ parentId?: string | null } & Expectation} [options]
 * @returns {Promise<Head>}
 */
export async function appendMessage(core, sessionId, message, options = {}) {
  requireId('appendMessage', sessionId, 'sessionId');
  if (isCheckpoint(message)) {
    throw storeError('invalid-node', 'appendMessage: checkpoints are written by compaction only (tx.appendNode)');
  }
  checkExpectation('appendMessage', options);
  return core.write(function* () {
    const row = yield* core.row(sessionId);
    return yield* appendMessageIn(core, row, message, options, 'appendMessage');
  });
}

/**
 * Replaces a message's parts (and, if given, its metadata): a tool result, approval or the
 * final usage arriving. The only in-place update: allowed for the message at the leaf or a
 * message of the newest turn with a tool part that can still complete (not cut, no user message
 * after it on the branch: rule `interrupted-tool`); bumps the revision only when the stored JSON changes,
 * and then also the revision of every fork whose inherited chain holds the message.
 * Nodes inherited from a fork's base session cannot be updated through the fork.
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {string} messageId
 * @param {unknown[]} parts
 * @param {{ metadata?: unknown }} [options]
 * @returns {Promise<Head>}
 */
export async function updateMessageParts(core, sessionId, messageId, parts, options = {}) {
  requireId('updateMessageParts', sessionId, 'sessionId');
  requireId('updateMessageParts', messageId, 'messageId');
  if (!Array.isArray(parts)) throw storeError('invalid-argument', 'updateMessageParts: parts must be an array');
  return core.write(function* () {
    const row = yield* core.row(sessionId);
    /** @type {NodeRow | null} */
    const stored = yield core.driver.getNode(sessionId, messageId);
    if (!stored) throw storeError('unknown-node', `updateMessageParts: session ${sessionId} has no own node ${messageId}`);
    const node = JSON.parse(stored.json);
    if (isCheckpoint(node)) throw storeError('not-updatable', `updateMessageParts: node ${messageId} is a checkpoint`);
    if (row.leafId !== messageId && !(yield* keptBelowLeafCheckpoints(core, row, messageId)) && !(yield* pendingInNewestTurn(core, row, messageId, stored.json))) {
      throw storeError('not-updatable', `updateMessageParts: message ${messageId} is neither the leaf (nor followed only by display-only nodes and checkpoints that keep it verbatim) nor waiting for a tool`);
    }
    const updated = { ...node, parts };
    if (options.metadata !== undefined) updated.metadata = options.metadata;
    const json = nodeJson(updated, 'updateMessageParts');
    if (json !== stored.json) {
      yield core.driver.updateNodeJson(sessionId, messageId, json);
      noteNodeUpdated(core.driver, sessionId, messageId);
      yield* setHead(core, row, row.leafId, row.branchRevision + 1, 'updateMessageParts');
      const viewOf = function* () {
        const visible = yield* core.session(row);
        return new Map(visible.nodes.map((n) => [n.id, n]));
      };
      yield* bumpForksHolding(core, sessionId, viewOf, messageId);
    }
    return { node: JSON.parse(json), sessionId, leafId: row.leafId, branchRevision: row.branchRevision };
  });
}

/**
 * Makes `nodeId` the leaf (switching to another branch of the tree). Bumps the revision
 * unless it already is the leaf.
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {string} nodeId
 * @returns {Promise<Head>}
 */
export async function moveLeaf(core, sessionId, nodeId) {
  requireId('moveLeaf', sessionId, 'sessionId');
  requireId('moveLeaf', nodeId, 'nodeId');
  return core.write(function* () {
    const row = yield* core.row(sessionId);
    if (!(yield* core.hasVisibleNode(row, nodeId))) {
      throw storeError('unknown-node', `moveLeaf: node ${nodeId} is not in session ${sessionId}`);
    }
    if (row.leafId !== nodeId) yield* setHead(core, row, nodeId, row.branchRevision + 1, 'moveLeaf');
    return { sessionId, leafId: row.leafId, branchRevision: row.branchRevision };
  });
}

/**
 * Retry: the new response becomes a child of `parentId` (from the core's retryTarget).
 * With `message`, it is appended there in the same transaction (one revision bump);
 * without, the leaf moves to `parentId` and the app appends the response later.
 * `options` as for appendMessage (expectedLeafId / expectedRevision).
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {string} parentId
 * @param {import('../ai-types.js').UIMessage} [message]
 * @param {Expectation} [options]
 * @returns {Promise<Head>}
 */
export async function retry(core, sessionId, parentId, message, options = {}) {
  if (message === undefined) return moveLeaf(core, sessionId, parentId);
  requireId('retry', sessionId, 'sessionId');
  requireId('retry', parentId, 'parentId');
  checkExpectation('retry', options);
  return core.write(function* () {
    const row = yield* core.row(sessionId);
    return yield* appendMessageIn(core, row, message, { ...options, parentId }, 'retry');
  });
}

/**
 * Edit: the edited user message becomes a sibling of the old one, under `parentId` (from the
 * core's editTarget; null when editing the first message), and the new leaf.
 * `options` as for appendMessage (expectedLeafId / expectedRevision).
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {string | null} parentId
 * @param {import('../ai-types.js').UIMessage} message
 * @param {Expectation} [options]
 * @returns {Promise<Head>}
 */
export async function edit(core, sessionId, parentId, message, options = {}) {
  requireId('edit', sessionId, 'sessionId');
  if (parentId !== null) requireId('edit', parentId, 'parentId');
  checkExpectation('edit', options);
  return core.write(function* () {
    const row = yield* core.row(sessionId);
    return yield* appendMessageIn(core, row, message, { ...options, parentId }, 'edit');
  });
}

/**
 * The checkpoints on a branch (ending at `leafId`, the session's leaf by default), oldest
 * first: what a UI shows as "earlier context summarized here".
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {{ leafId?: string }} [options]
 * @returns {Promise<SessionNode[]>}
 */
export async function listCheckpoints(core, sessionId, options = {}) {
  requireId('listCheckpoints', sessionId, 'sessionId');
  if (options.leafId !== undefined) requireId('listCheckpoints', options.leafId, 'leafId');
  return core.read(function* () {
    const row = yield* core.row(sessionId);
    const session = yield* core.session(row);
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
 * @param {StoreCore} core
 * @param {SessionRow} row @param {import('../ai-types.js').UIMessage & { parentId?: string | null }} message
 * @param {{ parentId?: string | null } & Expectation} options @param {string} where
 * @returns {Generator<unknown, Head, any>}
 */
function* appendMessageIn(core, row, message, options, where) {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    throw storeError('invalid-node', `${where}: message must be an object`);
  }
  refuseIfMoved(row, options, where);
  const parentId = options.parentId !== undefined
    ? options.parentId
    : message.parentId !== undefined ? /** @type {string | null} */ (message.parentId) : row.leafId;
  const node = /** @type {SessionNode} */ ({ ...message, parentId });
  yield* appendNode(core, row, node, where);
  yield* setHead(core, row, node.id, row.branchRevision + 1, where);
  return { node: JSON.parse(JSON.stringify(node)), sessionId: row.id, leafId: row.leafId, branchRevision: row.branchRevision };
}

/**
 * Whether only checkpoints and display-only nodes follow message `messageId` to the leaf and the
 * newest checkpoint, if any, keeps it verbatim (its `firstKeptMessageId` is the message or above
 * it): the newest message as the model sees it, e.g. a tool continuation whose preflight compacted,
 * or an answer the app put a marker after. Updating it changes no summary. Own nodes only, as for
 * every update.
 * @param {StoreCore} core
 * @param {SessionRow} row @param {string} messageId @returns {Generator<unknown, boolean, any>}
 */
function* keptBelowLeafCheckpoints(core, row, messageId) {
  /** @type {string | null | undefined} the newest checkpoint's first kept message, once one is passed */
  let firstKept;
  let at = row.leafId;
  const seen = new Set();
  for (; at !== null && at !== messageId && !seen.has(at); ) {
    seen.add(at);
    /** @type {NodeRow | null} */
    const stored = yield core.driver.getNode(row.id, at);
    if (!stored) return false;
    const node = JSON.parse(stored.json);
    // A display-only node is never projected (the core's rule): the walk goes on past it.
    if (stored.kind !== 'checkpoint' && node.displayOnly === undefined) return false;
    if (stored.kind === 'checkpoint' && firstKept === undefined) firstKept = node.checkpoint?.firstKeptMessageId ?? null;
    at = stored.parentId;
  }
  if (at === messageId && firstKept === undefined) return true; // only display-only nodes after it
  if (at !== messageId || typeof firstKept !== 'string') return false;
  for (; at !== null && !seen.has(at); ) {
    if (at === firstKept) return true;
    seen.add(at);
    /** @type {NodeRow | null} */
    const stored = yield core.driver.getNode(row.id, at);
    if (!stored) return false;
    at = stored.parentId;
  }
  return false;
}

/**
 * Rule `interrupted-tool` (the core's `pending_workflow`): `node`, an own message that is not the
 * leaf, has a tool workflow that can still complete: not cut, and on the branch with no user
 * message after it. The walk up from the leaf stops at the first user message (one turn).
 * @param {StoreCore} core
 * @param {SessionRow} row @param {string} messageId @param {string} json its stored text @returns {Generator<unknown, boolean, any>}
 */
function* pendingInNewestTurn(core, row, messageId, json) {
  if (!mayStillCompleteTool(json)) return false;
  const seen = new Set();
  for (let at = row.leafId; at !== null && !seen.has(at); ) {
    if (at === messageId) return true;
    seen.add(at);
    /** @type {NodeRow | null} */
    const stored = yield core.driver.getNode(row.id, at);
    // Not an own node: the chain left the session's own nodes before reaching the message.
    if (!stored) return false;
    if (stored.kind === 'message') {
      const node = JSON.parse(stored.json);
      // A display-only node starts no turn, whatever its role (the core's rule).
      if (node.role === 'user' && node.displayOnly === undefined) return false;
    }
    at = stored.parentId;
  }
  return false;
}

/**
 * Appends a node after checking its id is new and its parent exists.
 * @param {StoreCore} core
 * @param {SessionRow} row @param {SessionNode} node @param {string} where
 * @returns {Generator<unknown, void, any>}
 */
function* appendNode(core, row, node, where) {
  nodeFields(node, where);
  if (yield* core.hasVisibleNode(row, node.id)) {
    throw storeError('duplicate-id', `${where}: session ${row.id} already has a node ${node.id}`);
  }
  if (node.parentId !== null && !(yield* core.hasVisibleNode(row, node.parentId))) {
    throw storeError('missing-parent', `${where}: node ${node.id}: parent ${node.parentId} is not in session ${row.id}`);
  }
  // The core's node rules after the session's: a duplicate or an orphan says so first.
  const json = nodeJson(node, where);
  yield core.driver.insertNode(row.id, nodeRow(node, json), Date.now());
}

/**
 * Moves the head; a leaf move must come with a higher revision, so readers can tell.
 * @param {StoreCore} core
 * @param {SessionRow} row @param {string | null} leafId @param {number} branchRevision @param {string} where
 * @returns {Generator<unknown, void, any>}
 */
function* setHead(core, row, leafId, branchRevision, where) {
  checkHeadMove(row, leafId, branchRevision, where);
  if (leafId === row.leafId && branchRevision === row.branchRevision) return;
  yield core.driver.updateHead(row.id, leafId, branchRevision, Date.now());
  row.leafId = leafId;
  row.branchRevision = branchRevision;
}

/**
 * A node seen through forks changed: every fork whose inherited chain holds it gets a higher
 * revision (and so do forks of those forks), so a compaction planned on the fork's old
 * content fails its commit check instead of committing a summary of the old text.
 * @param {StoreCore} core
 * @param {string} sessionId the session owning the view `byId` describes
 * @param {() => Generator<unknown, Map<string, SessionNode>, any>} viewOf the session's visible nodes by id
 * @param {string} changedId
 * @param {Set<string>} [seen]
 * @returns {Generator<unknown, string[], any>} the sessions bumped
 */
function* bumpForksHolding(core, sessionId, viewOf, changedId, seen = new Set([sessionId])) {
  /** @type {SessionRow[]} */
  const forks = yield core.driver.listForks(sessionId);
  if (!forks.length) return [];
  const byId = yield* viewOf();
  /** @type {string[]} */
  const bumped = [];
  for (const fork of forks) {
    if (seen.has(fork.id)) continue;
    seen.add(fork.id);
    const chain = ancestorChain(byId, fork.baseNodeId);
    if (!chain.has(changedId)) continue;
    yield core.driver.updateHead(fork.id, fork.leafId, fork.branchRevision + 1, Date.now());
    bumped.push(fork.id);
    const forkView = function* () {
      /** @type {Map<string, SessionNode>} */
      const view = new Map([...chain].map((id) => [id, /** @type {SessionNode} */ (byId.get(id))]));
      /** @type {string[]} */
      const own = yield core.driver.getNodeJsons(fork.id);
      for (const json of own) {
        const node = JSON.parse(json);
        view.set(node.id, node);
      }
      return view;
    };
    bumped.push(...(yield* bumpForksHolding(core, fork.id, forkView, changedId, seen)));
  }
  return bumped;
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
