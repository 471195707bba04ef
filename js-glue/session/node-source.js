// Where a SessionIndex finds the nodes it answers with, by position: the caller's own node objects
// (handed back as given), or a store's rows' JSON text (parsed on the way out, never handed out twice).

/** @import { Session, SessionNode } from '../bibgenie_compaction.js' */
/** @typedef {number | { summary: import('../ai-types.js').UIMessage }} ProjectedItem a position, or the summary message */

/** The caller's node objects. */
export class ObjectNodes {
  /** @type {SessionNode[]} */
  #nodes;
  /** @type {Map<string, number> | null} made on the first `has` */
  #ids = null;

  /** @param {SessionNode[]} nodes */
  constructor(nodes) {
    this.#nodes = nodes;
  }

  get size() {
    return this.#nodes.length;
  }

  /** @param {SessionNode} node */
  push(node) {
    this.#ids?.set(node.id, this.#nodes.length);
    this.#nodes.push(node);
  }

  /** @param {string} id */
  has(id) {
    if (!this.#ids) this.#ids = new Map(this.#nodes.map((node, i) => [node?.id, i]));
    return this.#ids.has(id);
  }

  /** @param {number} i */
  node(i) {
    return this.#nodes[i];
  }

  /** @param {ProjectedItem[]} items @returns {import('../ai-types.js').UIMessage[]} */
  messages(items) {
    const nodes = this.#nodes;
    return items.map((item) => (typeof item === 'number' ? /** @type {import('../ai-types.js').UIMessage} */ (nodes[item]) : item.summary));
  }

  /** @param {string | null} leafId @param {number} branchRevision @returns {Session} */
  session(leafId, branchRevision) {
    return /** @type {Session} */ ({ nodes: this.#nodes.slice(), leafId, branchRevision });
  }
}

/**
 * A store's rows: each node's stored JSON text. What it hands out are fresh objects, equal to a
 * parse of the text; the texts array is copied before a replace, so a session handed out earlier
 * keeps the texts it was given.
 */
export class TextNodes {
  /** @type {string[]} */
  #texts = [];
  /** @type {Map<string, number>} */
  #ids = new Map();
  /** The last projection's messages as parsed from their text (never handed out: copies are). */
  /** @type {Map<number, { text: string, value: unknown }>} */
  #parsed = new Map();

  get size() {
    return this.#texts.length;
  }

  /** @param {string} id @param {string} text */
  push(id, text) {
    this.#ids.set(id, this.#texts.length);
    this.#texts.push(text);
  }

  /** @param {string} id @param {string} text */
  replace(id, text) {
    const at = this.#ids.get(id);
    if (at === undefined) return;
    this.#texts = this.#texts.slice();
    this.#texts[at] = text;
  }

  /** @param {string} id */
  has(id) {
    return this.#ids.has(id);
  }

  /** The stored text of node `id` (undefined: not held). @param {string} id */
  textOf(id) {
    const at = this.#ids.get(id);
    return at === undefined ? undefined : this.#texts[at];
  }

  /** @param {number} i @returns {SessionNode} */
  node(i) {
    return JSON.parse(this.#texts[i]);
  }

  /**
   * The projected messages. Each projected text is parsed once while it stays projected and
   * unchanged; every call hands out a fresh message, `parts` array and part objects over that parse,
   * sharing what they hold (tool inputs and outputs, provider metadata, the message's metadata),
   * which is frozen (`sharedMessage`).
   * @param {ProjectedItem[]} items @returns {import('../ai-types.js').UIMessage[]}
   */
  messages(items) {
    const texts = this.#texts;
    /** @type {Map<number, { text: string, value: unknown }>} */
    const parsed = new Map();
    const messages = items.map((item) => {
      if (typeof item !== 'number') return item.summary;
      const text = texts[item];
      let entry = this.#parsed.get(item);
      if (entry === undefined || entry.text !== text) entry = { text, value: freezeBelowParts(JSON.parse(text)) };
      parsed.set(item, entry);
      return /** @type {any} */ (sharedMessage(entry.value));
    });
    this.#parsed = parsed; // only what this projection holds is kept
    return messages;
  }

  /**
   * The session as load() returns it, with `nodes` parsed when first read (from the texts held now).
   * @param {string | null} leafId @param {number} branchRevision @returns {Session}
   */
  session(leafId, branchRevision) {
    const texts = this.#texts;
    const count = texts.length;
    const session = { leafId, branchRevision };
    Object.defineProperty(session, 'nodes', {
      enumerable: true,
      configurable: true,
      get() {
        const nodes = texts.slice(0, count).map((text) => JSON.parse(text));
        Object.defineProperty(session, 'nodes', { value: nodes, enumerable: true, configurable: true, writable: true });
        return nodes;
      },
    });
    return /** @type {any} */ (session);
  }
}

const hasOwn = Object.prototype.hasOwnProperty;

// A send through a store hands out the projected messages on every call. Deep copies of them cost
// more than the rest of a send at 1,000 messages (~2,300 objects for 80 messages of Zotero tool
// output, ~85 ns each in V8 whatever the copy; issue 42), so only the levels a chat changes are
// fresh: the message, its `parts` array and each part. The AI SDK's stream and tool-result code
// assigns at those levels (`part.state`, `part.output = ...`, `parts.push`, `message.metadata = ...`)
// and never changes an input, an output or metadata in place; what is below them is shared between
// calls and frozen, so a change in place throws (strict code) or is ignored, and never reaches the
// stored state.

/**
 * Freezes, deeply, every object a message holds except the message and its `parts` array and parts
 * (made fresh by `sharedMessage` on every call). @param {any} message what JSON.parse made @returns {any}
 */
function freezeBelowParts(message) {
  if (typeof message !== 'object' || message === null) return message;
  for (const key in message) {
    if (!hasOwn.call(message, key)) continue;
    const value = message[key];
    if (key === 'parts' && Array.isArray(value)) {
      for (const part of value) {
        if (Array.isArray(part)) deepFreeze(part); // not a part: handed out shared, so frozen whole
        else if (typeof part === 'object' && part !== null) for (const name in part) if (hasOwn.call(part, name)) deepFreeze(part[name]);
      }
    } else {
      deepFreeze(value);
    }
  }
  return message;
}

/** @param {unknown} value @returns {unknown} */
function deepFreeze(value) {
  if (typeof value !== 'object' || value === null) return value;
  for (const key in value) if (hasOwn.call(value, key)) deepFreeze(/** @type {any} */ (value)[key]);
  return Object.freeze(value);
}

/**
 * A fresh message over a parse that `freezeBelowParts` froze: the message, its `parts` array and
 * each part copied (own keys in their order, `__proto__` kept an own key as JSON.parse keeps it:
 * object spread defines, never sets), what they hold shared. @param {any} message @returns {any}
 */
function sharedMessage(message) {
  if (typeof message !== 'object' || message === null) return message;
  const out = { ...message };
  const parts = message.parts;
  if (hasOwn.call(message, 'parts') && Array.isArray(parts)) {
    const n = parts.length;
    const copied = new Array(n);
    for (let i = 0; i < n; i++) {
      const part = parts[i];
      copied[i] = typeof part === 'object' && part !== null && !Array.isArray(part) ? { ...part } : part;
    }
    out.parts = copied;
  }
  return out;
}
