// What is in flight on a session, shared by every CompactionController and CompactionChatTransport
// of the process that uses the same store object: the running compaction (one at a time per
// session, whichever controller started it) and the chat turn being answered (one at a time per
// session, whichever window sent it). Across processes the store's expectedLeafId check is what
// guards a turn (session-moved); nothing here is persisted.

/** @type {WeakMap<object, Map<string, { run: any, turn: object | null }>>} */
const byStore = new WeakMap();

/**
 * The shared slot of one session of one store: `run` (the compaction running, or null) and `turn`
 * (the token of the chat turn in flight, or null). Same object for every caller.
 * @param {object} store @param {string} sessionId
 * @returns {{ run: any, turn: object | null }}
 */
export function sessionSlot(store, sessionId) {
  let sessions = byStore.get(store);
  if (!sessions) byStore.set(store, (sessions = new Map()));
  let slot = sessions.get(sessionId);
  if (!slot) sessions.set(sessionId, (slot = { run: null, turn: null }));
  return slot;
}

/**
 * Takes the session's turn: a release function (idempotent), or null when another turn is in flight.
 * @param {object} store @param {string} sessionId
 * @returns {(() => void) | null}
 */
export function beginTurn(store, sessionId) {
  const slot = sessionSlot(store, sessionId);
  if (slot.turn) return null;
  const token = {};
  slot.turn = token;
  return () => {
    if (slot.turn === token) slot.turn = null;
  };
}
