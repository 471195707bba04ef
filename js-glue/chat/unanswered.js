// The question a session holds without an answer. A turn stores the user message before the model
// is asked (the store is the history), so a request that fails before any answer (a 429, a missing
// key, a crash, a window closed before the first token) leaves it as the session's leaf, and one a
// stream error cuts leaves it answered only by that cut reply. Sending the same question again
// answers that stored message in place instead of storing it a second time. Read from the
// projection the controller's submit already made (no read of its own): the message before the
// draft there is the session's leaf.

/** Whether two user messages ask the same: equal parts (ids and metadata aside). @param {any} a @param {any} b */
export function sameQuestion(a, b) {
  try {
    return JSON.stringify(a.parts) === JSON.stringify(b.parts);
  } catch {
    return false;
  }
}

/**
 * The stored question a new draft repeats, from the submit's projection `messages` (ending with the
 * draft) and the leaf it was made at: `{ sent, messages, cutAnswerId, parentId }` to answer it in
 * place under `parentId` (`messages` without the draft, and without the cut reply, which stays in
 * the tree as a sibling once the leaf moves back to the question), or null: the draft is a new
 * message (stored after an unanswered one, the model then receives both, in a row). A leaf the
 * projection leaves out is display-only (the core projects every other node, a checkpoint as its
 * summary under its own id): the question before it is still the newest message, and the answer
 * goes under the leaf, so the marker stays on the branch.
 * @param {any[]} messages @param {string | null | undefined} leafId
 * @returns {{ sent: any, messages: any[], cutAnswerId: string | null, parentId: string } | null}
 */
export function storedQuestion(messages, leafId) {
  const n = messages.length;
  const draft = messages[n - 1];
  const before = messages[n - 2];
  if (!leafId || !draft || draft.role !== 'user' || !before) return null;
  if (before.id !== leafId && messages.some((m) => m.id === leafId)) return null;
  if (before.role === 'user' && before.id !== draft.id && sameQuestion(before, draft)) {
    return { sent: before, messages: messages.slice(0, n - 1), cutAnswerId: null, parentId: leafId };
  }
  const asked = messages[n - 3];
  if (before.role === 'assistant' && before.metadata?.finishReason === 'error' && asked?.role === 'user' && sameQuestion(asked, draft)) {
    return { sent: asked, messages: messages.slice(0, n - 2), cutAnswerId: before.id, parentId: asked.id };
  }
  return null;
}
