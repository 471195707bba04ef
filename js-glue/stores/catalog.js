// The operations on whole sessions: create, import, list, describe, key by an app key, delete and
// fork. Each runs in one read or write transaction of the store's core (store-core.js).
import { optionalText, nodeJson, nodeRow, randomId, requireId, storeError } from './nodes.js';
import { sessionFromMessages } from './linear-import.js';
import { noteSessionDeleted } from './session-indexes.js';

/**
 * @import { Session } from '../bibgenie_compaction.js'
 * @import { SessionHead as Head, SessionInfo } from './base.js'
 * @import { StoreCore, SessionRow } from './store-core.js'
 */

/** @param {SessionRow} row @returns {SessionInfo} */
function sessionInfo(row) {
  return {
    sessionId: row.id,
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
 * Creates an empty session (leafId null, branchRevision 0), with a random `sessionId` unless given.
 * @param {StoreCore} core
 * @param {{ sessionId?: string, title?: string | null, appKey?: string | null }} [options]
 * @returns {Promise<Session & { sessionId: string }>}
 */
export async function createSession(core, options = {}) {
  const id = options.sessionId ?? randomId();
  requireId('createSession', id, 'sessionId');
  const title = optionalText('createSession', options.title, 'title');
  const appKey = optionalText('createSession', options.appKey, 'appKey');
  return core.write(function* () {
    yield* core.insertSession('createSession', { id, title, appKey, leafId: null, branchRevision: 0 });
    return { sessionId: id, nodes: [], leafId: null, branchRevision: 0 };
  });
}

/**
 * Stores a whole session as given (nodes verbatim, even a broken chain; leaf and revision
 * copied). For demos, migrations and tests.
 * @param {StoreCore} core
 * @param {Session} session
 * @param {{ sessionId?: string, title?: string | null, appKey?: string | null }} [options]
 * @returns {Promise<Head>}
 */
export async function importSession(core, session, options = {}) {
  const id = options.sessionId ?? randomId();
  requireId('importSession', id, 'sessionId');
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
  return core.write(function* () {
    yield* core.insertSession('importSession', { id, title, appKey, leafId, branchRevision: revision });
    const now = Date.now();
    for (const row of rows) yield core.driver.insertNode(id, row, now);
    return { sessionId: id, leafId, branchRevision: revision };
  });
}

/**
 * Imports a linear UIMessage list (useChat's `messages`, an older plugin's history) as a new
 * session: see sessionFromMessages.
 * @param {StoreCore} core
 * @param {ReadonlyArray<import('../ai-types.js').UIMessage & { parentId?: string | null }>} messages
 * @param {{ sessionId?: string, title?: string | null, appKey?: string | null }} [options]
 * @returns {Promise<Head>}
 */
export async function importMessages(core, messages, options = {}) {
  return importSession(core, sessionFromMessages(messages), options);
}

/**
 * Session ids, most recently changed first; with `{ details: true }` the sessions' metadata
 * (title, appKey, createdAt, updatedAt, head, fork base) instead.
 * @param {StoreCore} core
 * @param {{ details?: boolean }} [options]
 * @returns {Promise<string[] | SessionInfo[]>}
 */
export async function listSessions(core, options = {}) {
  return core.read(function* () {
    /** @type {SessionRow[]} */
    const rows = yield core.driver.listSessions();
    return options?.details ? rows.map(sessionInfo) : rows.map((row) => row.id);
  });
}

/**
 * One session's metadata.
 * @param {StoreCore} core
 * @param {string} sessionId
 * @returns {Promise<SessionInfo>}
 */
export async function getSessionInfo(core, sessionId) {
  requireId('getSessionInfo', sessionId, 'sessionId');
  return core.read(function* () {
    return sessionInfo(yield* core.row(sessionId));
  });
}

/**
 * Sets a session's title and/or appKey (null clears one). Not a branch change: the revision
 * stays, updatedAt moves.
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {{ title?: string | null, appKey?: string | null }} info
 * @returns {Promise<SessionInfo>}
 */
export async function setSessionInfo(core, sessionId, info) {
  requireId('setSessionInfo', sessionId, 'sessionId');
  if (typeof info !== 'object' || info === null) throw storeError('invalid-argument', 'setSessionInfo: info must be an object');
  const title = optionalText('setSessionInfo', info.title, 'title');
  const appKey = optionalText('setSessionInfo', info.appKey, 'appKey');
  return core.write(function* () {
    const row = yield* core.row(sessionId);
    const nextTitle = info.title === undefined ? row.title : title;
    const nextKey = info.appKey === undefined ? row.appKey : appKey;
    if (nextKey !== null && nextKey !== row.appKey) {
      const other = yield core.driver.getSessionByAppKey(nextKey);
      if (other) throw storeError('app-key-exists', `setSessionInfo: session ${other.id} already has appKey ${nextKey}`);
    }
    const now = Date.now();
    yield core.driver.updateInfo(sessionId, nextTitle, nextKey, now);
    return sessionInfo({ ...row, title: nextTitle, appKey: nextKey, updatedAt: now });
  });
}

/**
 * The session kept for an app key (e.g. a Zotero item key), created empty when there is
 * none yet; one check-and-insert in one write transaction, so two windows get one session.
 * @param {StoreCore} core
 * @param {{ appKey: string, title?: string | null, sessionId?: string }} options
 * @returns {Promise<SessionInfo & { created: boolean }>}
 */
export async function getOrCreateSession(core, options) {
  const appKey = options?.appKey;
  requireId('getOrCreateSession', appKey, 'appKey');
  const title = optionalText('getOrCreateSession', options.title, 'title');
  const id = options.sessionId ?? randomId();
  requireId('getOrCreateSession', id, 'sessionId');
  return core.write(function* () {
    const existing = yield core.driver.getSessionByAppKey(appKey);
    if (existing) return { ...sessionInfo(existing), created: false };
    const row = yield* core.insertSession('getOrCreateSession', { id, title, appKey, leafId: null, branchRevision: 0 });
    return { ...sessionInfo(row), created: true };
  });
}

/**
 * Deletes a session and its own nodes. A session other sessions were forked from is refused
 * (`has-forks`, their ids in `forks`) unless `withForks`, which deletes those forks too.
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {{ withForks?: boolean }} [options]
 * @returns {Promise<{ deleted: string[] }>}
 */
export async function deleteSession(core, sessionId, options = {}) {
  requireId('deleteSession', sessionId, 'sessionId');
  return core.write(function* () {
    yield* core.row(sessionId);
    /** @type {string[]} */
    const order = [];
    /** @param {string} id @returns {Generator<unknown, void, any>} */
    const collect = function* (id) {
      if (order.includes(id)) return;
      /** @type {SessionRow[]} */
      const forks = yield core.driver.listForks(id);
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
      yield core.driver.deleteSession(id);
      noteSessionDeleted(core.driver, id);
    }
    return { deleted: order };
  });
}

/**
 * Fork: a new session whose history is the ancestor chain of `nodeId` in `sessionId`.
 * Nothing is copied: the fork records its base (session, node) and load() prepends that
 * chain to the fork's own nodes, so the fork's projection follows its own ancestor chain
 * only. The fork starts at leaf `nodeId`, revision 0; the source session is not changed.
 * A later in-place update of a shared node bumps the fork's revision too.
 * Whether a node may be forked is the core's canFork; the store only checks it exists.
 * @param {StoreCore} core
 * @param {string} sessionId
 * @param {string} nodeId
 * @param {{ sessionId?: string, title?: string | null, appKey?: string | null }} [options]
 * @returns {Promise<Head>}
 */
export async function fork(core, sessionId, nodeId, options = {}) {
  requireId('fork', sessionId, 'sessionId');
  requireId('fork', nodeId, 'nodeId');
  const id = options.sessionId ?? randomId();
  requireId('fork', id, 'sessionId');
  const title = optionalText('fork', options.title, 'title');
  const appKey = optionalText('fork', options.appKey, 'appKey');
  return core.write(function* () {
    const source = yield* core.row(sessionId);
    if (!(yield* core.hasVisibleNode(source, nodeId))) {
      throw storeError('unknown-node', `fork: node ${nodeId} is not in session ${sessionId}`);
    }
    yield* core.insertSession('fork', {
      id, title, appKey, leafId: nodeId, branchRevision: 0, baseSessionId: sessionId, baseNodeId: nodeId,
    });
    return { sessionId: id, leafId: nodeId, branchRevision: 0 };
  });
}
