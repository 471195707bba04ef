// The package's estimate of what an AI SDK request sends (issue 38): ModelMessages (what streamText's
// prepareStep gets, what convertToModelMessages makes) or a provider's prompt, each message priced as
// the stored UIMessage it came from is priced, so a step's request and the session's estimate agree.

import { estimateMessage } from '../bibgenie_compaction.js';
import { estimate } from '../session/calls.js';

/** @import { ModelProfile, Overhead } from '../bibgenie_compaction.js' */

/** A tool-result's output as a UIMessage tool part holds it. @param {any} output */
function outputValue(output) {
  if (!output || typeof output !== 'object') return output ?? null;
  return 'value' in output ? output.value : output.reason ?? output;
}

/**
 * The URL of a file or image part's data: a link as it is, base64 text or bytes as a data URL.
 * @param {unknown} data @param {string} mediaType
 */
function fileUrl(data, mediaType) {
  const g = /** @type {any} */ (globalThis); // a plugin sandbox may lack URL and btoa
  if (typeof g.URL === 'function' && data instanceof g.URL) return String(/** @type {any} */ (data).href);
  if (typeof data === 'string') return /^(https?:|data:)/i.test(data) ? data : `data:${mediaType};base64,${data}`;
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : null;
  if (!bytes || typeof g.btoa !== 'function') return 'https://unknown.invalid/'; // priced as a remote file
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return `data:${mediaType};base64,${g.btoa(binary)}`;
}

/**
 * One content part of a ModelMessage (or of a provider prompt) as a UIMessage part, priced the same
 * way (a file or an image as a file part: an image priced by its size, not by its base64 text).
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
    case 'image':
    case 'file': {
      // As the stored file part: a data URL is priced by its content (an image by its size), a link as a remote file.
      const mediaType = String(part.mediaType ?? part.mimeType ?? (part.type === 'image' ? 'image/*' : 'application/octet-stream'));
      return { type: 'file', mediaType, url: fileUrl(part.type === 'image' ? part.image : part.data, mediaType) };
    }
    default:
      return { type: 'data-part', data: JSON.parse(JSON.stringify(part) ?? 'null') };
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

