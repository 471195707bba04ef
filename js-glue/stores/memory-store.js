// In-memory SessionStore for tests and the browser. Same semantics as the SQL stores:
// nodes are kept as their JSON text (what the SQL stores keep), so nothing a caller holds
// aliases stored state, and a transaction that throws is undone from a journal.

import { SessionStoreBase } from './base.js';

/** @typedef {import('./base.js').SessionRow} SessionRow */
/** @typedef {import('./base.js').NodeRow} NodeRow */

/**
 * @typedef {{ row: SessionRow, nodes: NodeRow[], byId: Map<string, NodeRow> }} MemorySession
 */

class MemoryDriver {
  /** @type {Map<string, MemorySession>} */
  sessions = new Map();
  /** Undo steps of the open transaction, newest last; null outside a transaction. */
  /** @type {Array<() => void> | null} */
  journal = null;

  init() {}

  /** @param {() => void} undo */
  #record(undo) {
    if (this.journal) this.journal.push(undo);
  }

  /** @param {string} id */
  getSession(id) {
    const s = this.sessions.get(id);
    return s ? { ...s.row } : null;
  }

  listSessionIds() {
    return [...this.sessions.values()]
      .sort((a, b) => b.row.updatedAt - a.row.updatedAt || (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0))
      .map((s) => s.row.id);
  }

  /** @param {string} sessionId */
  getNodeJsons(sessionId) {
    const s = this.sessions.get(sessionId);
    return s ? s.nodes.map((n) => n.json) : [];
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
    if (s.byId.has(row.id)) throw new Error(`memory store: duplicate node ${row.id}`);
    const stored = { id: row.id, parentId: row.parentId, kind: row.kind, json: row.json };
    s.nodes.push(stored);
    s.byId.set(stored.id, stored);
    this.#record(() => {
      s.nodes.pop();
      s.byId.delete(stored.id);
    });
  }

  /** @param {string} sessionId @param {string | null} leafId @param {number} branchRevision @param {number} updatedAt */
  updateHead(sessionId, leafId, branchRevision, updatedAt) {
    const s = this.sessions.get(sessionId);
    if (!s) throw new Error(`memory store: no session ${sessionId}`);
    const before = { ...s.row };
    Object.assign(s.row, { leafId, branchRevision, updatedAt });
    this.#record(() => Object.assign(s.row, before));
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

  /**
   * @template T
   * @param {() => Promise<T>} fn
   * @returns {Promise<T>}
   */
  async runInTransaction(fn) {
    // The store's mutex guarantees one transaction at a time.
    this.journal = [];
    try {
      const result = await fn();
      this.journal = null;
      return result;
    } catch (error) {
      const undo = this.journal ?? [];
      this.journal = null;
      for (let i = undo.length - 1; i >= 0; i--) undo[i]();
      throw error;
    }
  }
}

/** A SessionStore kept in memory; lost when the object is. */
export class MemoryStore extends SessionStoreBase {
  constructor() {
    super(new MemoryDriver());
  }
}
