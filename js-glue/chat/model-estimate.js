// The package's estimate of what an AI SDK request sends (issue 38): ModelMessages (what streamText's
// prepareStep gets, what convertToModelMessages makes) or a provider's prompt, each message priced as
// the stored UIMessage it came from is priced, so a step's request and the session's estimate agree.

import { estimate, estimateMessage } from '../bibgenie_compaction.js';

/** @import { ModelProfile, Overhead } from '../bibgenie_compaction.js' */

/** A tool-result's output as a UIMessage tool part holds it. @param {any} output */
function outputValue(output) {
  if (!output || typeof output !== 'object') return output ?? null;
  return 'value' in output ? output.value : output.reason ?? output;
}

/**
 * One content part of a ModelMessage (or of a provider prompt) as a UIMessage part, priced the same
 * way. Files and images that are not text go as opaque JSON without their bytes (a data string stays).
 * @param {any} part
 */
export function asUIPart(part) {
  if (!part || typeof part !== 'object') return { type: 'text', text: String(part ?? '') };
  switch (part.type) {
    case 'text':
      return { type: 'text', text: String(part.text ?? '') };
    case 'reasoning':
      return { type: 'reasoning', text: String(part.text ?? '') };
    case 'tool-call':
      return { type: 'dynamic-tool', toolName: String(part.toolName), toolCallId: String(part.toolCallId), state: 'input-available', input: part.input ?? part.args ?? {} };
    case 'tool-result': {
      // The call's part prices the pair's framing (as a stored tool part is priced once): here the id and the output.
      const value = outputValue(part.output ?? part.result);
      return { type: 'text', text: `${String(part.toolCallId)}\n${typeof value === 'string' ? value : JSON.stringify(value) ?? ''}` };
    }
    default: {
      const data = part.data ?? part.image;
      const bytes = data && typeof data === 'object' && typeof data.byteLength === 'number';
      if (bytes) return { type: 'data-file', data: { mediaType: part.mediaType ?? part.mimeType, bytes: data.byteLength } };
      return { type: 'data-part', data: JSON.parse(JSON.stringify(part) ?? 'null') };
    }
  }
}

/** @param {any} message @param {number} index */
function asUIMessage(message, index) {
  const content = message?.content;
  const parts = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content.map(asUIPart) : [];
  const role = message?.role === 'assistant' || message?.role === 'system' ? message.role : 'user'; // a tool message is a user turn
  return { id: `m${index}`, role, parts };
}

/**
 * The estimate of each message of a request (ModelMessages, or a provider's prompt), in the
 * package's conservative tokens (what the step guard sums).
 * @param {readonly any[]} messages @param {ModelProfile} [model]
 * @returns {number[]}
 */
export function estimateModelMessages(messages, model) {
  return messages.map((message, i) => estimateMessage(/** @type {any} */ (asUIMessage(message, i)), model));
}

/** The tokens of a request's overhead (system prompt, tools) as the session estimate counts it. @param {Overhead | undefined} overhead @param {ModelProfile} model */
export function overheadTokens(overhead, model) {
  if (overhead === undefined) return 0;
  return estimate(/** @type {any} */ ({ nodes: [], leafId: null, branchRevision: 0 }), model, { overhead }).tokens;
}

