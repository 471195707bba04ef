// The question a session holds without an answer. A turn stores the user message before the model
// is asked (the store is the history), so a request that fails before any answer (a 429, a missing
// key, a crash, a window closed before the first token) leaves it as the session's leaf, and one a
// stream error cuts leaves it answered only by that cut reply. Sending the same question again
// answers that stored message in place instead of storing it a second time.

import { readSession } from '../session/session-read.js';

/**
 * The session's unanswered question: `{ message, cutAnswerId }` when the leaf is a user message
 * (`cutAnswerId` null), or an answer a stream error cut (`metadata.finishReason` 'error') under one;
 * else null. A store that cannot be read answers null (the send goes on as it would have).
 * @param {any} store @param {string} sessionId
 * @returns {Promise<{ message: any, cutAnswerId: string | null } | null>}
 */
export async function unansweredQuestion(store, sessionId) {
  let read;
  try {
    read = await readSession(store, sessionId, (view) => {
      if (!view.leafId) return null;
      const { messages } = view.project();
      const last = messages[messages.length - 1];
      if (!last || last.id !== view.leafId) return null; // the leaf is a checkpoint
      if (last.role === 'user') return { message: last, cutAnswerId: null };
      const asked = messages[messages.length - 2];
      if (last.role === 'assistant' && last.metadata?.finishReason === 'error' && asked?.role === 'user') {
        return { message: asked, cutAnswerId: last.id };
      }
      return null;
    });
  } catch {
    return null;
  }
  return 'value' in read && read.value && typeof read.value === 'object' ? /** @type {any} */ (read.value) : null;
}

/** Whether two user messages ask the same: equal parts (ids and metadata aside). @param {any} a @param {any} b */
export function sameQuestion(a, b) {
  try {
    return JSON.stringify(a.parts) === JSON.stringify(b.parts);
  } catch {
    return false;
  }
}

/**
 * The message a new send of `message` should answer: the stored unanswered question when `message`
 * asks the same (a resend after a failure; for a cut answer the leaf moves back to the question, the
 * cut reply stays a sibling in the tree), else `message` itself (stored after the unanswered one:
 * the model then receives both, in a row).
 * @param {any} store @param {string} sessionId @param {any} message the newest user message of the send
 */
export async function questionToAnswer(store, sessionId, message) {
  const open = await unansweredQuestion(store, sessionId);
  if (!open || open.message.id === message.id || !sameQuestion(open.message, message)) return message;
  if (open.cutAnswerId) await store.retry(sessionId, open.message.id); // no message: the leaf moves back
  return open.message;
}
