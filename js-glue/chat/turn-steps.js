// The two steps of a chat turn around the model call, the same for every way a turn is driven (the
// AI SDK transport, or an app's own model call through ChatTurn):
//   - sendDraft: the controller's preflight (compacting first when needed), then the question stored
//     once under the leaf the projection was made at (or the stored, unanswered one answered in place);
//   - storeResponse: the answer stored under the submit's `responseParentId`, with `createdAt` and
//     how it ended in its metadata (or a continuation's parts updated in place).
// The caller holds the session's turn (../session/in-flight.js) from before sendDraft until after
// storeResponse, so no other turn of this process moves the leaf in between.

import { codedError } from '../util/coded-error.js';
import { storedQuestion } from './unanswered.js';

/**
 * @import { CompactionController } from '../compaction/controller.js'
 * @import { SubmitResult, SubmitOptions } from '../compaction/controller-types.js'
 */

/** The message as the store keeps it: no tree position (the store puts it where it is told). @param {any} message */
export function asStored(message) {
  const { parentId, ...rest } = message;
  return rest;
}

/**
 * A refusal with the message that was not sent (`error.draft`), for the app to put back into its
 * input; an error that already says one, or a frozen one, is left as it is.
 * @param {unknown} error @param {unknown} draft
 */
export function withDraft(error, draft) {
  if (error && typeof error === 'object' && !('draft' in error)) {
    try {
      /** @type {any} */ (error).draft = draft;
    } catch {
      // frozen: the app still has the message it sent
    }
  }
  return error;
}

/**
 * What a send needs after the preflight: the messages to send (the projection, the question last),
 * the question as stored, where the response goes, when the request went out, the submit's result.
 * @typedef {object} SentDraft
 * @property {any[]} messages
 * @property {any} sent
 * @property {string} parentId
 * @property {number} sentAt ms, the stored response's `createdAt` unless it has its own
 * @property {Extract<SubmitResult, { status: 'send' }>} result
 */

/**
 * Preflights `draft` with the controller and stores it (once). Throws a coded error when it is not
 * sent: `cancelled` (the signal aborted before or during the preflight: nothing sent or stored),
 * `too-large`, or the failure's reason; `error.result` is the SubmitResult.
 * @param {CompactionController} controller
 * @param {any} draft the question (or, after a client-side tool result, the stored assistant message)
 * @param {{ abortSignal?: any, submitOptions?: SubmitOptions, answerInPlace?: boolean }} [options]
 *   `answerInPlace` (default true): a resend of the session's unanswered question answers it in place
 * @returns {Promise<SentDraft>}
 */
export async function sendDraft(controller, draft, { abortSignal, submitOptions, answerInPlace = true } = {}) {
  const aborted = () => {
    if (abortSignal?.aborted) throw codedError('cancelled', 'the request was aborted; nothing was sent or stored');
  };
  aborted();
  const cancel = () => controller.cancel('the request was aborted');
  abortSignal?.addEventListener?.('abort', cancel);
  /** @type {SubmitResult} */
  let result;
  try {
    result = await controller.submit(draft, submitOptions);
  } finally {
    abortSignal?.removeEventListener?.('abort', cancel);
  }
  if (result.status !== 'send') {
    const r = /** @type {any} */ (result);
    const code = r.status === 'failed' ? r.reason : r.status;
    throw codedError(code, r.message ?? `the message was not sent: ${r.status} (${r.reason})`, { result });
  }
  aborted();
  const store = /** @type {any} */ (controller.store);
  const sessionId = controller.sessionId;
  let messages = result.messages;
  let sent = messages[messages.length - 1];
  // Stored only if the session is still where the projection was made (another process may have
  // answered meanwhile): else `session-moved`, and the model was not asked.
  const seen = /** @type {any} */ (result.outcome)?.session;
  const expected = seen ? { expectedLeafId: seen.leafId, expectedRevision: seen.branchRevision } : {};
  const open = answerInPlace && !result.stored ? storedQuestion(messages, seen?.leafId) : null;
  if (open) {
    ({ messages, sent } = open);
    if (open.cutAnswerId) await store.retry(sessionId, sent.id); // the leaf back on the question; the cut reply stays
  } else if (!result.stored) {
    await store.appendMessage(sessionId, asStored(sent), expected);
  }
  // Under the stored question answered in place, or the markers after it (no compaction ran), else where submit says.
  const parentId = open ? open.parentId : /** @type {any} */ (result).responseParentId;
  // When the request went out: the response's `createdAt`, from which the next plan tells a warm
  // prompt cache from a cold one (a UIMessage has no time of its own).
  return { messages, sent, parentId, sentAt: controller.now(), result };
}

/**
 * Stores the response: appended under `parentId` (a new answer), or its parts and metadata updated
 * in place (a continuation). `createdAt` is `sentAt` unless the message has its own; the metadata
 * says how it ended: `aborted: true` when Stop cut it, `finishReason` whenever known (`'error'` when
 * a stream error cut it), `refusal` the code of a step the guard refused (`step-too-large`). A message
 * without parts is not stored. Returns the message as stored, or null.
 * @param {CompactionController} controller
 * @param {any} responseMessage
 * @param {{ parentId: string, sentAt: number, isContinuation?: boolean, isAborted?: boolean, finishReason?: unknown, errored?: boolean, refusal?: string }} how
 */
export async function storeResponse(controller, responseMessage, { parentId, sentAt, isContinuation = false, isAborted = false, finishReason, errored = false, refusal }) {
  if (!responseMessage || !Array.isArray(responseMessage.parts) || responseMessage.parts.length === 0) return null;
  const store = /** @type {any} */ (controller.store);
  const message = {
    ...responseMessage,
    ...(typeof responseMessage.createdAt === 'number' ? {} : { createdAt: sentAt }),
    metadata: endingMetadata(responseMessage.metadata, { isAborted, finishReason, errored, refusal }),
  };
  if (isContinuation) {
    await store.updateMessageParts(controller.sessionId, message.id, message.parts, { metadata: message.metadata });
  } else {
    await store.appendMessage(controller.sessionId, asStored(message), { parentId });
  }
  return message;
}

/**
 * The response's metadata with how it ended.
 * @param {unknown} metadata @param {{ isAborted: boolean, finishReason: unknown, errored: boolean, refusal?: string }} ending
 */
function endingMetadata(metadata, { isAborted, finishReason, errored, refusal }) {
  const base = metadata && typeof metadata === 'object' ? /** @type {Record<string, unknown>} */ (metadata) : {};
  const reason = errored ? 'error' : typeof finishReason === 'string' ? finishReason : /** @type {any} */ (finishReason)?.unified;
  return {
    ...base,
    ...(isAborted ? { aborted: true } : {}),
    ...(typeof refusal === 'string' ? { refusal } : {}),
    ...(typeof reason === 'string' ? { finishReason: reason } : {}),
  };
}
