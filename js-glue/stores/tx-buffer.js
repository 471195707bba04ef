// The view and the write buffer of one run of a store transaction's callback.

import { checkHeadMove, nodeJson, nodeRow, requireId, storeError } from './nodes.js';

/** @typedef {import('./store-core.js').SessionRow} SessionRow */
/** @typedef {import('./store-core.js').NodeRow} NodeRow */
/** @typedef {import('../bibgenie_compaction.js').StoreTx} StoreTx */

/**
 * What a transaction's fn wrote, kept in memory until fn resolved, and the view it reads.
 * Validation happens at the call (so fn gets the same errors as before) against the snapshot
 * plus its own writes; the apply step writes only if the snapshot is still current.
 */
export class TxBuffer {
  /** @type {NodeRow[]} */
  nodes = [];
  headMoved = false;
  #open = true;

  /** @param {string} sessionId @param {SessionRow} row @param {string[]} jsons */
  constructor(sessionId, row, jsons) {
    this.sessionId = sessionId;
    this.row = { ...row };
    this.jsons = jsons;
    /** @type {Map<string, string | null>} id -> parentId of every visible node */
    this.visible = new Map();
    for (const json of jsons) {
      const node = JSON.parse(json);
      this.visible.set(node.id, node.parentId);
    }
    const guard = (/** @type {string} */ name) => {
      if (!this.#open) throw storeError('transaction-closed', `tx.${name}: the transaction has already ended`);
    };
    /** @type {StoreTx} */
    this.api = {
      load: async () => {
        guard('load');
        return {
          nodes: [...this.jsons, ...this.nodes.map((n) => n.json)].map((json) => JSON.parse(json)),
          leafId: this.row.leafId,
          branchRevision: this.row.branchRevision,
        };
      },
      appendNode: async (node) => {
        guard('appendNode');
        const json = nodeJson(node, 'tx.appendNode');
        if (this.visible.has(node.id)) {
          throw storeError('duplicate-id', `tx.appendNode: session ${sessionId} already has a node ${node.id}`);
        }
        if (node.parentId !== null && !this.visible.has(node.parentId)) {
          throw storeError('missing-parent', `tx.appendNode: node ${node.id}: parent ${node.parentId} is not in session ${sessionId}`);
        }
        this.nodes.push(nodeRow(node, json));
        this.visible.set(node.id, node.parentId);
      },
      setLeaf: async (leafId, branchRevision) => {
        guard('setLeaf');
        requireId('tx.setLeaf', leafId, 'leafId');
        if (!this.visible.has(leafId)) {
          throw storeError('missing-leaf', `tx.setLeaf: node ${leafId} is not in session ${sessionId}`);
        }
        checkHeadMove(this.row, leafId, branchRevision, 'tx.setLeaf');
        if (leafId === this.row.leafId && branchRevision === this.row.branchRevision) return;
        this.row.leafId = leafId;
        this.row.branchRevision = branchRevision;
        this.headMoved = true;
      },
    };
  }

  get wrote() {
    return this.nodes.length > 0 || this.headMoved;
  }

  close() {
    this.#open = false;
  }
}
