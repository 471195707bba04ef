// One call builds what a chat session needs from one options object: the session's controller and
// the transport over it, so the store, the session and what a request carries cannot disagree.
import { CompactionController } from '../compaction/controller.js';
import { CompactionChatTransport } from './transport.js';
import { requestOverhead } from './overhead.js';

/**
 * @import { UIMessage } from '../ai-types.js'
 * @import { CreateChatOptions } from './turn-types.js'
 */

/**
 * `{ controller, transport }` of a chat session: the controller's options (`store`, `sessionId`,
 * `model`, `summarize`, `onStatus`, `cache`, `now`, `backgroundCompaction`, `resolveItem`) and the transport's
 * (`streamResponse`, `system`, `tools`, `promptCache`, ...) in one object. The controller counts the
 * request's `system` and `tools` too (a manual compaction plans with them).
 * @template {UIMessage} [UI_MESSAGE=UIMessage]
 * @param {CreateChatOptions<UI_MESSAGE>} options
 * @returns {{ controller: CompactionController, transport: CompactionChatTransport<UI_MESSAGE> }}
 */
export function createChat(options) {
  if (!options || typeof options !== 'object') throw Object.assign(new Error('createChat: options must be an object'), { code: 'invalid-options' });
  const { store, sessionId, model, summarize, onStatus, cache, now, backgroundCompaction, resolveItem, ...turn } = options;
  const overhead = requestOverhead(/** @type {any} */ (turn));
  const controller = new CompactionController({
    store, sessionId, model, summarize, onStatus, cache, now, backgroundCompaction, resolveItem, ...(overhead === undefined ? {} : { overhead }),
  });
  const transport = new CompactionChatTransport({ ...turn, controller });
  return { controller, transport };
}
