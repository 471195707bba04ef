// Recall (issue 38, a first cut): the model reads back, by handle, a tool output or a message that
// compaction folded or the step guard showed as a handle, and searches the text of the session's
// turns. It reads only the session's active branch as stored (and the tool outputs of the turn in
// flight, which are not stored yet: the step's messages, those the step guard kept): never another
// branch or another session. Every answer is
// bounded (`maxTokens`, paged with `offset`), and counted in the next request like any tool output.

import { estimateMessage } from '../bibgenie_compaction.js';
import { history } from '../session/calls.js';
import { heldOutputs } from './step-guard.js';
import { codedError } from '../util/coded-error.js';

/** @import { SessionStoreBase } from '../stores/base.js' */
/**
 * What `read` answers: `text` from `offset` (characters), `nextOffset` null at the end.
 * @typedef {{ handle: string, text: string, tokens: number, offset: number, nextOffset: number | null, length: number }} RecallPage
 */
/**
 * What `search` answers: the newest matches first, each with the handle `read` takes.
 * @typedef {{ results: Array<{ handle: string, role: string, snippet: string }>, more: boolean }} RecallSearch
 */

/** Bounds of an answer, in estimated tokens. */
const MIN_TOKENS = 50;
const MAX_TOKENS = 8_000;
const DEFAULT_TOKENS = 2_000;

/** @param {string} text */
const tokensOf = (text) => estimateMessage({ id: 'r', role: 'user', parts: [{ type: 'text', text }] });

/** @param {unknown} value */
function asText(value) {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'value' in value && typeof (/** @type {any} */ (value)).value === 'string') return /** @type {any} */ (value).value;
  return JSON.stringify(value) ?? '';
}

/** @param {unknown} n @param {number} fallback */
function budget(n, fallback) {
  return typeof n === 'number' && Number.isFinite(n) ? Math.min(MAX_TOKENS, Math.max(MIN_TOKENS, Math.floor(n))) : fallback;
}

/** The longest prefix of `text` within `maxTokens` (a few estimates: the ratio narrows it). @param {string} text @param {number} maxTokens */
function fitting(text, maxTokens) {
  let length = Math.min(text.length, maxTokens * 4);
  for (let tries = 0; tries < 12 && length > 0; tries++) {
    const tokens = tokensOf(text.slice(0, length));
    if (tokens <= maxTokens) return length;
    length = Math.floor(length * Math.min(0.95, maxTokens / tokens));
  }
  return 0;
}

/**
 * The texts of the active branch's messages, oldest first: one entry per message (its text parts)
 * and per tool output (its call id as the handle).
 * @param {any[]} nodes
 */
function entries(nodes) {
  /** @type {Array<{ handle: string, role: string, text: string }>} */
  const out = [];
  for (const node of nodes) {
    if (!node || 'checkpoint' in node || !Array.isArray(node.parts)) continue;
    const text = node.parts.filter((/** @type {any} */ p) => p?.type === 'text').map((/** @type {any} */ p) => p.text).join('\n');
    if (text) out.push({ handle: String(node.id), role: String(node.role), text });
    for (const part of node.parts) {
      if (typeof part?.toolCallId === 'string' && (part.output !== undefined || part.errorText !== undefined)) {
        out.push({ handle: part.toolCallId, role: 'tool', text: part.output !== undefined ? asText(part.output) : String(part.errorText) });
      }
    }
  }
  return out;
}

/**
 * The tool outputs of the step a tool is called from (the AI SDK passes the step's messages to
 * `execute`): the current turn's, not stored yet.
 * @param {unknown} messages
 */
function stepEntries(messages) {
  /** @type {Array<{ handle: string, role: string, text: string }>} */
  const out = [];
  for (const message of Array.isArray(messages) ? messages : []) {
    for (const part of Array.isArray(message?.content) ? message.content : []) {
      if (part?.type !== 'tool-result' || typeof part.toolCallId !== 'string') continue;
      const text = asText(part.output ?? part.result);
      if (!/^\[tool output of .* is stored; \d+ tokens/.test(text)) out.push({ handle: part.toolCallId, role: 'tool', text }); // ai 7 passes the guarded messages
    }
  }
  return out;
}

/**
 * Recall over one session's active branch: `read({ handle, offset?, maxTokens? }, stepMessages?)`
 * (a tool call id, as a handle shows it, or a message id) and `search({ query, maxResults?,
 * maxTokens? })` (case-insensitive, over the text of every message and tool output of the branch).
 * Errors: `recall-not-found` (no such handle on the branch), `invalid-argument`.
 * @param {{ store: Pick<SessionStoreBase, 'load'>, sessionId: string }} options e.g. the controller
 */
export function createRecall({ store, sessionId }) {
  if (!store || typeof store.load !== 'function') throw codedError('invalid-argument', 'createRecall: pass { store, sessionId } (the controller has both)');
  const branch = async () => entries(history(await store.load(sessionId)));
  return {
    /**
     * @param {{ handle: string, offset?: number, maxTokens?: number }} request @param {unknown} [stepMessages]
     * @returns {Promise<RecallPage>}
     */
    async read({ handle, offset = 0, maxTokens }, stepMessages) {
      if (typeof handle !== 'string' || handle === '') throw codedError('invalid-argument', 'recall: handle must be the id a handle shows');
      // The step's own outputs first, then those the guard showed as handles (neither stored yet), then the stored branch, newest first.
      const kept = heldOutputs(store, sessionId);
      const found = stepEntries(stepMessages).find((e) => e.handle === handle)
        ?? (kept.has(handle) ? { handle, role: 'tool', text: asText(kept.get(handle)) } : undefined)
        ?? (await branch()).reverse().find((e) => e.handle === handle);
      if (!found) throw codedError('recall-not-found', `recall: nothing on this session's branch has the handle ${handle}`);
      const from = Math.min(Math.max(0, Math.floor(Number(offset) || 0)), found.text.length);
      const length = fitting(found.text.slice(from), budget(maxTokens, DEFAULT_TOKENS));
      const text = found.text.slice(from, from + length);
      const end = from + length;
      return { handle, text, tokens: tokensOf(text), offset: from, nextOffset: end < found.text.length ? end : null, length: found.text.length };
    },
    /**
     * @param {{ query: string, maxResults?: number, maxTokens?: number }} request
     * @returns {Promise<RecallSearch>}
     */
    async search({ query, maxResults = 5, maxTokens }) {
      if (typeof query !== 'string' || query.trim() === '') throw codedError('invalid-argument', 'recall: query must be a non-empty string');
      const needle = query.trim().toLowerCase();
      const room = budget(maxTokens, 1_000);
      const limit = Math.max(1, Math.min(20, Math.floor(Number(maxResults) || 5)));
      /** @type {RecallSearch['results']} */
      const results = [];
      let used = 0;
      let more = false;
      for (const entry of (await branch()).reverse()) {
        const at = entry.text.toLowerCase().indexOf(needle);
        if (at < 0) continue;
        const snippet = entry.text.slice(Math.max(0, at - 200), at + needle.length + 200);
        const tokens = tokensOf(snippet);
        if (results.length >= limit || used + tokens > room) {
          more = true;
          break;
        }
        results.push({ handle: entry.handle, role: entry.role, snippet });
        used += tokens;
      }
      return { results, more };
    },
  };
}

/**
 * The recall as an AI SDK tool (`tool` and `jsonSchema` from the app's `ai`, v5, v6 or v7): the model
 * reads a handle (`handle`, paged by `offset`) or searches (`query`); answers are bounded by
 * `maxTokens` (at most 8,000). Errors come back to the model as `{ error }`.
 * @param {{ tool: (definition: any) => any, jsonSchema: (schema: any) => any }} ai
 * @param {ReturnType<typeof createRecall>} recall
 */
export function recallTool({ tool, jsonSchema }, recall) {
  return tool({
    description: 'Reads back what the conversation no longer shows in full: a stored tool output or message by the handle shown in its place (e.g. the call id in "[tool output of ... (call <id>) is stored ...]"), paged with offset; or searches earlier turns for a phrase (query).',
    inputSchema: jsonSchema({
      type: 'object',
      properties: {
        handle: { type: 'string', description: 'the call id or message id to read' },
        offset: { type: 'number', description: 'where to continue reading (nextOffset of the previous page)' },
        query: { type: 'string', description: 'a phrase to search the earlier turns for' },
        maxTokens: { type: 'number', description: 'the most this answer may hold (default 2000)' },
      },
    }),
    execute: async (/** @type {any} */ input, /** @type {any} */ options) => {
      try {
        if (typeof input?.query === 'string') return await recall.search({ query: input.query, maxTokens: input.maxTokens });
        return await recall.read({ handle: input?.handle, offset: input?.offset, maxTokens: input?.maxTokens }, options?.messages);
      } catch (error) {
        return { error: /** @type {any} */ (error)?.code ?? 'recall-failed', message: /** @type {any} */ (error)?.message };
      }
    },
  });
}
