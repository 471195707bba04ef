// A linear UIMessage list (useChat's messages, an older plugin's history) as a session.

import { isCheckpoint, storeError } from './nodes.js';

/** @typedef {import('../bibgenie_compaction.js').Session} Session */
/** @typedef {import('../bibgenie_compaction.js').SessionNode} SessionNode */

/**
 * A session as a linear UIMessage list (what useChat or an older plugin kept, without
 * parentId): each message becomes the child of the one before it; the last is the leaf.
 * A message may already carry the parentId the order implies; any other parentId, a
 * checkpoint, a missing or repeated id is refused. The input is not mutated.
 * @param {ReadonlyArray<import('../ai-types.js').UIMessage & { parentId?: string | null }>} messages
 * @returns {Session}
 */
export function sessionFromMessages(messages) {
  if (!Array.isArray(messages)) throw storeError('invalid-session', 'sessionFromMessages: messages must be an array');
  const seen = new Set();
  /** @type {string | null} */
  let previous = null;
  const nodes = messages.map((message, i) => {
    const where = `sessionFromMessages: messages[${i}]`;
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      throw storeError('invalid-node', `${where}: a message must be an object`);
    }
    if (isCheckpoint(message)) throw storeError('invalid-node', `${where}: a linear message list holds no checkpoints`);
    if (typeof message.id !== 'string' || message.id === '') throw storeError('invalid-node', `${where}: id must be a non-empty string`);
    if (seen.has(message.id)) throw storeError('duplicate-id', `${where}: id ${message.id} appears twice`);
    if (message.parentId !== undefined && message.parentId !== previous) {
      throw storeError('invalid-node', `${where}: parentId ${String(message.parentId)} is not the previous message (${String(previous)})`);
    }
    seen.add(message.id);
    const node = /** @type {SessionNode} */ ({ ...message, parentId: previous });
    previous = message.id;
    return node;
  });
  return { nodes, leafId: previous, branchRevision: nodes.length };
}
