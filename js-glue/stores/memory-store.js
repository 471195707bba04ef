// In-memory SessionStore for tests and the browser. Same semantics as the SQL stores:
// nodes are kept as their JSON text (what the SQL stores keep), so nothing a caller holds
// aliases stored state, and a write that throws is undone from a journal.

import { SessionStoreBase } from './base.js';
import { AsyncMutex } from './sequencing.js';
import { storeError } from './nodes.js';

/** @typedef {import('./store-core.js').SessionRow} SessionRow */
/** @typedef {import('./store-core.js').NodeRow} NodeRow */

/**
 * @typedef {{ row: SessionRow, nodes: NodeRow[], byId: Map<string, NodeRow> }} MemorySession
 */

/** @param {MemorySession} a @param {MemorySession} b */
function newestFirst(a, b) {
  return b.row.updatedAt - a.row.updatedAt || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0);
}

class MemoryDriver {
  mutex = new AsyncMutex();
  /** @type {Map<string, MemorySession>} */
  sessions = new Map();
  /** Undo steps of the open write, newest last; null outside a write. */
  /** @type {Array<() => void> | null} */
  journal = null;

  init() {}

  /** Undoes the journal's writes, newest first. */
  #rollBack() {
    const undo = this.journal ?? [];
    this.journal = null;
    for (let i = undo.length - 1; i >= 0; i--) undo[i]();
  }

  /** @param {() => void} undo */
  #record(undo) {
    if (this.journal) this.journal.push(undo);
  }

  /** @template T @param {() => T} body */
  read(body) {
    return body();
  }

  /**
   * Synchronous: the store runs every operation on this driver in one synchronous stretch.
   * @template T @param {() => T} body
   */
  write(body) {
    this.journal = [];
    try {
      const result = body();
      if (result && typeof (/** @type {{ then?: unknown }} */ (result).then) === 'function') {
        throw new Error('memory store: a write must run synchronously');
      }
      this.journal = null;
      return result;
    } catch (error) {
      this.#rollBack();
      throw error;
    }
  }

  /**
   * An async body (withinTransaction): the store's queue is held meanwhile, so the journal sees
   * only the body's writes.
   * @template T @param {() => Promise<T>} body @returns {Promise<T>}
   */
  async writeAsync(body) {
    this.journal = [];
    try {
      const result = await body();
      this.journal = null;
      return result;
    } catch (error) {
      this.#rollBack();
      throw error;
    }
  }

  /** @param {string} id */
  getSession(id) {
    const s = this.sessions.get(id);
    return s ? { ...s.row } : null;
  }

  /** @param {string} appKey */
  getSessionByAppKey(appKey) {
    for (const s of this.sessions.values()) if (s.row.appKey === appKey) return { ...s.row };
    return null;
  }

  listSessions() {
    return [...this.sessions.values()].sort(newestFirst).map((s) => ({ ...s.row }));
  }

  /** @param {string} baseSessionId */
  listForks(baseSessionId) {
    return [...this.sessions.values()].filter((s) => s.row.baseSessionId === baseSessionId).map((s) => ({ ...s.row }));
  }

  /** @param {string} sessionId */
  getNodeJsons(sessionId) {
    const s = this.sessions.get(sessionId);
    return s ? s.nodes.map((n) => n.json) : [];
  }

  /** @param {string} sessionId @param {number} seq @returns {import('./visible-rows.js').SeqRow[]} */
  getNodeRowsAfter(sessionId, seq) {
    const s = this.sessions.get(sessionId);
    if (!s) return [];
    return s.nodes.slice(seq).map((n, i) => ({ seq: seq + i + 1, id: n.id, parentId: n.parentId, json: n.json }));
  }

  /** The seq of the session's last own row (0 for none). @param {string} sessionId */
  lastSeq(sessionId) {
    return this.sessions.get(sessionId)?.nodes.length ?? 0;
  }

  /** @param {string} sessionId @param {string} id */
  getNode(sessionId, id) {
    const n = this.sessions.get(sessionId)?.byId.get(id);
    return n ? { ...n } : null;
  }

  /** @param {SessionRow} row */
  insertSession(row) {
    this.sessions.set(row.id, { row: { ...row }, nodes: [], byId: new Map() });
    this.#record(() => this.sessions.delete(row.id));
  }

  /** @param {string} sessionId @param {NodeRow} row */
  insertNode(sessionId, row) {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`memory store: no session ${sessionId}`);
    if (s.byId.has(row.id)) throw storeError('duplicate-id', `memory store: duplicate node ${row.id}`);
    const stored = { id: row.id, parentId: row.parentId, kind: row.kind, json: row.json };
    s.nodes.push(stored);
    s.byId.set(stored.id, stored);
    this.#record(() => {
      s.nodes.pop();
      s.byId.delete(stored.id);
    });
  }

  /** @param {string} sessionId @param {Partial<SessionRow>} fields */
  #updateRow(sessionId, fields) {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`memory store: no session ${sessionId}`);
    const before = { ...s.row };
    Object.assign(s.row, fields);
    this.#record(() => Object.assign(s.row, before));
  }

  /** @param {string} sessionId @param {string | null} leafId @param {number} branchRevision @param {number} updatedAt */
  updateHead(sessionId, leafId, branchRevision, updatedAt) {
    this.#updateRow(sessionId, { leafId, branchRevision, updatedAt });
  }

  /** @param {string} sessionId @param {string | null} title @param {string | null} appKey @param {number} updatedAt */
  updateInfo(sessionId, title, appKey, updatedAt) {
    this.#updateRow(sessionId, { title, appKey, updatedAt });
  }

  /** @param {string} sessionId @param {string} id @param {string} json */
  updateNodeJson(sessionId, id, json) {
    const n = this.sessions.get(sessionId)?.byId.get(id);
    if (!n) throw new Error(`memory store: no node ${id} in ${sessionId}`);
    const before = n.json;
    n.json = json;
    this.#record(() => {
      n.json = before;
    });
  }

  /** @param {string} sessionId */
  deleteSession(sessionId) {
    const s = this.sessions.get(sessionId);
    if (!s) return;
    this.sessions.delete(sessionId);
    this.#record(() => this.sessions.set(sessionId, s));
  }

  release() {}
}

/** A SessionStore kept in memory; lost when the object is. */
export class MemoryStore extends SessionStoreBase {
  constructor() {
    super(new MemoryDriver());
  }
}
