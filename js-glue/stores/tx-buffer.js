// The view and the write buffer of one run of a store transaction's callback.

import { checkHeadMove, nodeJson, nodeRow, requireId, storeError } from './nodes.js';
import { drive } from './sequencing.js';
import { FIRST_PAGE_ROWS, readOnInPages, visibleRows } from './visible-rows.js';
import { SLICED_FROM_CHARS } from './session-indexes.js';
import { SLICE_MS, clock, pause } from '../util/pause.js';

/** @typedef {import('./store-core.js').StoreCore} StoreCore */
/** @typedef {import('./store-core.js').Basis} Basis */
/** @typedef {import('./store-core.js').NodeRow} NodeRow */
/** @typedef {import('./visible-rows.js').SeqRow} SeqRow */
/** @typedef {import('../bibgenie_compaction.js').StoreTx} StoreTx */
/** @typedef {import('../bibgenie_compaction.js').SessionNode} SessionNode */

/** Nodes parsed between two looks at the clock. */
const PARSE_NODES = 16;

/**
 * What a transaction's fn wrote, kept in memory until fn resolved, and the view it reads: the
 * session as at the transaction's basis plus fn's own writes. Nothing of the session is read until
 * fn asks: a check reads the nodes it names; `tx.load()` reads and parses the session in slices with
 * pauses (a long session must not hold the page's or Zotero's thread), then checks that the session
 * is still as at the basis, else the transaction runs fn again (`torn`). Validation happens at the
 * call, so fn gets the same errors as before; the apply step writes only if the basis is still current.
 */
export class TxBuffer {
  /** @type {NodeRow[]} */
  nodes = [];
  headMoved = false;
  /** Set when `load()` found the session changed since the basis: fn's view was not one state, so fn runs again. */
  torn = false;
  #open = true;
  /** @type {Map<string, string | null>} id -> parentId of fn's own appends */
  #appended = new Map();

  /** @param {StoreCore} core @param {string} sessionId @param {Basis} basis */
  constructor(core, sessionId, basis) {
    this.sessionId = sessionId;
    this.core = core;
    this.basis = basis;
    this.row = { ...basis.row };
    const guard = (/** @type {string} */ name) => {
      if (!this.#open) throw storeError('transaction-closed', `tx.${name}: the transaction has already ended`);
    };
    /** @type {StoreTx} */
    this.api = {
      load: async () => {
        guard('load');
        const rows = await this.#rows();
        const nodes = await parsedInSlices([...rows.map((r) => r.json), ...this.nodes.map((n) => n.json)]);
        return { nodes, leafId: this.row.leafId, branchRevision: this.row.branchRevision };
      },
      appendNode: async (node) => {
        guard('appendNode');
        const json = nodeJson(node, 'tx.appendNode');
        if (await this.#sees(node.id)) {
          throw storeError('duplicate-id', `tx.appendNode: session ${sessionId} already has a node ${node.id}`);
        }
        if (node.parentId !== null && !(await this.#sees(node.parentId))) {
          throw storeError('missing-parent', `tx.appendNode: node ${node.id}: parent ${node.parentId} is not in session ${sessionId}`);
        }
        guard('appendNode');
        this.nodes.push(nodeRow(node, json));
        this.#appended.set(node.id, node.parentId);
      },
      setLeaf: async (leafId, branchRevision) => {
        guard('setLeaf');
        requireId('tx.setLeaf', leafId, 'leafId');
        if (!(await this.#sees(leafId))) {
          throw storeError('missing-leaf', `tx.setLeaf: node ${leafId} is not in session ${sessionId}`);
        }
        guard('setLeaf');
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

  /**
   * `op` in one read of the driver (the transaction runs in the store's queue: no write of this
   * process interleaves; another connection's is caught by the basis check).
   * @template T @param {() => Generator<unknown, T, any>} op @returns {Promise<T>}
   */
  #read(op) {
    return Promise.resolve(this.core.driver.read(() => drive(op())));
  }

  /** Whether fn's view holds node `id`. @param {string} id @returns {Promise<boolean>} */
  async #sees(id) {
    if (this.#appended.has(id)) return true;
    const { core, basis } = this;
    return this.#read(() => core.hasVisibleNode(basis.row, id));
  }

  /**
   * The rows the session saw at the basis: a session of its own read in pages when the driver reads
   * in pages (SQLite, Zotero), a fork in one read; `torn` (and a retryable `store-conflict`
   * that ends fn) when the session changed since the basis.
   * @returns {Promise<SeqRow[]>}
   */
  async #rows() {
    const { core, basis } = this;
    const { driver } = core;
    const readInside = (/** @type {() => Generator<unknown, any, any>} */ op) => this.#read(op);
    /** @type {SeqRow[]} */
    let rows;
    const page = driver.getNodeRowsPage?.bind(driver);
    if (page && basis.row.baseSessionId === null) {
      const started = clock();
      /** @type {SeqRow[]} */
      const first = await readInside(function* () {
        return yield page(basis.row.id, 0, FIRST_PAGE_ROWS);
      });
      rows = await readOnInPages(driver, basis.row.id, readInside, { rows: first, more: first.length === FIRST_PAGE_ROWS, limit: FIRST_PAGE_ROWS, started }, SLICED_FROM_CHARS);
    } else {
      rows = (await readInside(() => visibleRows(driver, basis.row))).rows;
    }
    if (!(await readInside(() => core.isCurrent(basis)))) {
      this.torn = true;
      throw storeError('store-conflict', `tx.load: session ${this.sessionId} changed while it was read`, { retryable: true });
    }
    return rows;
  }
}

/**
 * The parsed nodes of `jsons`, in slices of SLICE_MS with a pause between them: a session small
 * enough to parse within one slice is parsed without a pause.
 * @param {string[]} jsons @returns {Promise<SessionNode[]>}
 */
async function parsedInSlices(jsons) {
  const nodes = new Array(jsons.length);
  let start = clock();
  for (let k = 0; k < jsons.length;) {
    const to = Math.min(jsons.length, k + PARSE_NODES);
    for (; k < to; k++) nodes[k] = JSON.parse(jsons[k]);
    if (k < jsons.length && clock() - start >= SLICE_MS) {
      await pause();
      start = clock();
    }
  }
  return nodes;
}
