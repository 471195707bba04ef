// Recall (issue 38): the model reads back, by handle, a tool output or a message that compaction
// folded or the step guard showed as a handle (the summary message lists the folded outputs' handles
// and numbers the user's words), looks a Zotero key (and a page) up in the ledger, the cited pages and
// the turns, and searches the text of the session's turns. It reads only the session's active branch
// as stored (and the tool outputs of the turn in flight, which are not stored yet: the step's
// messages, those the step guard kept): never another branch or another session. Every answer is
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
 * What `search` answers: the newest matches first, each with the handle `read` takes; `nextOffset`
 * (the `offset` of the next page) null when nothing was left out.
 * @typedef {{ results: Array<{ handle: string, role: string, snippet: string }>, more: boolean, nextOffset: number | null }} RecallSearch
 */
/**
 * What `lookup` answers: the newest checkpoint's ledger entries and cited pages of the key, and the
 * turns that name it (newest first, paged like `search`).
 * @typedef {RecallSearch & { key: string, ledger: any[], citedPages: any[] }} RecallLookup
 */
/** @typedef {{ handle: string, role: string, text: string, input?: string }} Entry */

/** Bounds of an answer, in estimated tokens. */
const MIN_TOKENS = 50;
const MAX_TOKENS = 8_000;
const DEFAULT_TOKENS = 2_000;

/** @param {string} text */
const tokensOf = (text) => estimateMessage({ id: 'r', role: 'user', parts: [{ type: 'text', text }] });

/** A ModelMessage's tool output (`{ type: 'json', value }`) holds the value the stored part holds. */
const OUTPUT_TYPES = new Set(['text', 'json', 'error-text', 'error-json']);

/** @param {unknown} value */
function asText(value) {
  if (typeof value === 'string') return value;
  const v = /** @type {any} */ (value);
  if (v && typeof v === 'object' && 'value' in v && (typeof v.value === 'string' || OUTPUT_TYPES.has(v.type))) return asText(v.value);
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
 * and per tool output (its call id as the handle, its input kept for a key or page lookup).
 * @param {any[]} nodes
 */
function entries(nodes) {
  /** @type {Entry[]} */
  const out = [];
  for (const node of nodes) {
    if (!node || 'checkpoint' in node || !Array.isArray(node.parts)) continue;
    const text = node.parts.filter((/** @type {any} */ p) => p?.type === 'text').map((/** @type {any} */ p) => p.text).join('\n');
    if (text) out.push({ handle: String(node.id), role: String(node.role), text });
    for (const part of node.parts) {
      if (typeof part?.toolCallId === 'string' && (part.output !== undefined || part.errorText !== undefined)) {
        out.push({ handle: part.toolCallId, role: 'tool', text: part.output !== undefined ? asText(part.output) : String(part.errorText), input: JSON.stringify(part.input ?? null) });
      }
    }
  }
  return out;
}

/** The newest checkpoint of the branch (its ledger and registers), if any. @param {any[]} nodes */
function newestCheckpoint(nodes) {
  for (let i = nodes.length - 1; i >= 0; i--) if (nodes[i] && 'checkpoint' in nodes[i]) return nodes[i].checkpoint;
  return undefined;
}

/**
 * The ids a handle may mean, as the model writes it: a call id or a message id, `"<toolName>
 * <callId>"` as the summary lists folded outputs, or `[n]`: the user's n-th message as the summary
 * numbers their words (the newest checkpoint's `userWords`).
 * @param {string} handle @param {any} checkpoint
 */
function handleIds(handle, checkpoint) {
  const trimmed = handle.trim();
  const number = /^\[(\d+)\]$|^(\d+)$/.exec(trimmed);
  const words = checkpoint?.userWords;
  const nth = number ? Number(number[1] ?? number[2]) - 1 : -1;
  const ids = [trimmed];
  if (nth >= 0 && Array.isArray(words) && words[nth]) ids.push(String(words[nth].id));
  const pieces = trimmed.split(/\s+/);
  if (pieces.length === 2) ids.push(pieces[1]);
  return ids;
}

/** @param {string} text */
const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Does the entry name the page: a page field of its tool input or JSON output (`page`, `pageLabel`,
 * `pageNumber`, `locator`; `pageIndex` one less, Zotero's is 0-based), or "p. 7", "pp. 7",
 * "page 7", "S. 7" in its text?
 * @param {Entry} entry @param {string} page
 */
function namesPage(entry, page) {
  const p = escaped(page);
  const field = new RegExp(`"(page|pageLabel|pageNumber|locator)"\\s*:\\s*"?${p}"?\\s*[,}]`, 'i');
  const index = /^[1-9][0-9]*$/.test(page) ? new RegExp(`"pageIndex"\\s*:\\s*${Number(page) - 1}\\s*[,}]`) : null;
  if ([entry.input ?? '', entry.text].some((text) => field.test(text) || index?.test(text))) return true;
  return new RegExp(`(\\bpp?\\.|\\bpages?|\\bS\\.)\\s*${p}(?![0-9])`, 'i').test(entry.text);
}

/**
 * The matching entries, newest first, as snippets of about 400 characters within `maxTokens`, from
 * the `offset`-th match on.
 * @param {Entry[]} all oldest first
 * @param {(entry: Entry) => number} at where the entry matches (-1: not)
 * @param {{ length: number, maxResults?: number, maxTokens?: number, offset?: number }} options
 * @returns {RecallSearch}
 */
function listed(all, at, { length, maxResults = 5, maxTokens, offset = 0 }) {
  const room = budget(maxTokens, 1_000);
  const limit = Math.max(1, Math.min(20, Math.floor(Number(maxResults) || 5)));
  const skip = Math.max(0, Math.floor(Number(offset) || 0));
  /** @type {RecallSearch['results']} */
  const results = [];
  let used = 0;
  let matched = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const entry = all[i];
    const where = at(entry);
    if (where < 0 || matched++ < skip) continue;
    const snippet = entry.text.slice(Math.max(0, where - 200), where + length + 200);
    const tokens = tokensOf(snippet);
    if (results.length >= limit || used + tokens > room) return { results, more: true, nextOffset: skip + results.length };
    results.push({ handle: entry.handle, role: entry.role, snippet });
    used += tokens;
  }
  return { results, more: false, nextOffset: null };
}

/**
 * The tool outputs of the step a tool is called from (the AI SDK passes the step's messages to
 * `execute`): the current turn's, not stored yet.
 * @param {unknown} messages
 */
function stepEntries(messages) {
  /** @type {Entry[]} */
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
 * Recall over one session's active branch:
 * - `read({ handle, offset?, maxTokens? }, stepMessages?)`: a tool call id (as a handle shows it, or
 *   `"<toolName> <callId>"` as the summary lists it), a message id, or `[n]` (the user's n-th message
 *   as the summary numbers their words);
 * - `search({ query, maxResults?, maxTokens?, offset? })`: case-insensitive, over the text of every
 *   message and tool output of the branch;
 * - `lookup({ key, page?, maxResults?, maxTokens?, offset? })`: a Zotero key through the newest
 *   checkpoint's ledger and cited pages, and the turns that name it (at that page).
 * Errors: `recall-not-found` (no such handle on the branch), `invalid-argument`.
 * @param {{ store: Pick<SessionStoreBase, 'load'>, sessionId: string }} options e.g. the controller
 */
export function createRecall({ store, sessionId }) {
  if (!store || typeof store.load !== 'function') throw codedError('invalid-argument', 'createRecall: pass { store, sessionId } (the controller has both)');
  const branch = async () => history(await store.load(sessionId));
  return {
    /**
     * @param {{ handle: string, offset?: number, maxTokens?: number }} request @param {unknown} [stepMessages]
     * @returns {Promise<RecallPage>}
     */
    async read({ handle, offset = 0, maxTokens }, stepMessages) {
      if (typeof handle !== 'string' || handle.trim() === '') throw codedError('invalid-argument', 'recall: handle must be the id a handle shows');
      // The step's own outputs first, then those the guard showed as handles (neither stored yet), then the stored branch, newest first.
      const kept = heldOutputs(store, sessionId);
      const nodes = await branch();
      const stored = entries(nodes).reverse();
      const step = stepEntries(stepMessages);
      /** @type {Entry | undefined} */
      let found;
      for (const id of handleIds(handle, newestCheckpoint(nodes))) {
        found ??= step.find((e) => e.handle === id)
          ?? (kept.has(id) ? { handle: id, role: 'tool', text: asText(kept.get(id)) } : undefined)
          ?? stored.find((e) => e.handle === id);
      }
      if (!found) throw codedError('recall-not-found', `recall: nothing on this session's branch has the handle ${handle}`);
      const from = Math.min(Math.max(0, Math.floor(Number(offset) || 0)), found.text.length);
      const length = fitting(found.text.slice(from), budget(maxTokens, DEFAULT_TOKENS));
      const text = found.text.slice(from, from + length);
      const end = from + length;
      return { handle: found.handle, text, tokens: tokensOf(text), offset: from, nextOffset: end < found.text.length ? end : null, length: found.text.length };
    },
    /**
     * Newest first; `offset` skips that many matches (the last answer's `nextOffset`).
     * @param {{ query: string, maxResults?: number, maxTokens?: number, offset?: number }} request
     * @returns {Promise<RecallSearch>}
     */
    async search({ query, maxResults, maxTokens, offset }) {
      if (typeof query !== 'string' || query.trim() === '') throw codedError('invalid-argument', 'recall: query must be a non-empty string');
      const needle = query.trim().toLowerCase();
      return listed(entries(await branch()), (e) => e.text.toLowerCase().indexOf(needle), { length: needle.length, maxResults, maxTokens, offset });
    },
    /**
     * The newest checkpoint's ledger entries of the key (or of its children) and its cited pages (at
     * the page), in at most half of `maxTokens`; then the turns whose text or tool input names the key
     * (and the page), newest first, paged as `search` pages.
     * @param {{ key: string, page?: string | number, maxResults?: number, maxTokens?: number, offset?: number }} request
     * @returns {Promise<RecallLookup>}
     */
    async lookup({ key, page, maxResults, maxTokens, offset }) {
      if (typeof key !== 'string' || !/^[A-Za-z0-9]{2,32}$/.test(key)) throw codedError('invalid-argument', 'recall: key must be a Zotero key such as ABCD2345');
      const at = page === undefined || page === null || String(page).trim() === '' ? undefined : String(page).trim();
      const nodes = await branch();
      const checkpoint = newestCheckpoint(nodes);
      const room = budget(maxTokens, 1_000);
      const ledger = (checkpoint?.ledger?.entries ?? []).filter((/** @type {any} */ e) => e.key === key || e.parentKey === key || String(e.key).startsWith(`${key}#`)).slice(0, 10);
      const onPage = at === undefined ? null : new RegExp(`(^|[^0-9])${escaped(at)}([^0-9]|$)`);
      const citedPages = (checkpoint?.citedPages ?? []).filter((/** @type {any} */ c) => c.key === key && (!onPage || onPage.test(String(c.locator)))).slice(-10);
      while (tokensOf(JSON.stringify({ ledger, citedPages })) > room / 2 && (citedPages.length || ledger.length)) (citedPages.length ? citedPages : ledger).shift();
      const head = tokensOf(JSON.stringify({ ledger, citedPages }));
      const turns = listed(entries(nodes), (e) => {
        const where = e.text.indexOf(key);
        const named = where >= 0 || (e.input?.includes(key) ?? false);
        return named && (at === undefined || namesPage(e, at)) ? Math.max(0, where) : -1;
      }, { length: key.length, maxResults, maxTokens: Math.max(MIN_TOKENS, room - head), offset });
      return { key, ledger, citedPages, ...turns };
    },
  };
}

/**
 * The recall as an AI SDK tool (`tool` and `jsonSchema` from the app's `ai`, v5, v6 or v7): the model
 * reads a handle (`handle`, paged by `offset`), looks up a key (`key`, `page`) or searches (`query`);
 * answers are bounded by `maxTokens` (at most 8,000). Errors come back to the model as `{ error }`.
 * @param {{ tool: (definition: any) => any, jsonSchema: (schema: any) => any }} ai
 * @param {ReturnType<typeof createRecall>} recall
 */
export function recallTool({ tool, jsonSchema }, recall) {
  return tool({
    description: 'Reads back what compaction folded or a step left out: a tool output by its call id (as the summary or "[tool output of ... (call <id>) is stored ...]" shows it) or a user message by its [number], paged with offset; a Zotero key (key, page) in the ledger, cited pages and turns; a phrase (query) in earlier turns.',
    inputSchema: jsonSchema({
      type: 'object',
      properties: {
        handle: { type: 'string', description: 'call id, [number] or message id' },
        key: { type: 'string', description: 'a Zotero key' },
        page: { type: 'string', description: 'with key: a page' },
        query: { type: 'string', description: 'a phrase to search for' },
        offset: { type: 'number', description: 'nextOffset of the previous answer' },
        maxTokens: { type: 'number', description: 'answer size limit (default 2000)' },
      },
    }),
    execute: (/** @type {any} */ input, /** @type {any} */ options) => recallAnswer(recall, input, options?.messages),
  });
}

/**
 * The recall tool's answer to one call, for an app with its own tool loop (the AI SDK tool runs the
 * same): `{ query }` searches, `{ key, page? }` looks up, `{ handle }` reads; `offset` and
 * `maxTokens` as each takes them. Never rejects: an error is `{ error: code, message }` for the model.
 * @param {ReturnType<typeof createRecall>} recall @param {any} input the model's arguments
 * @param {unknown} [stepMessages] the step's ModelMessages (the AI SDK passes them)
 * @returns {Promise<RecallPage | RecallSearch | RecallLookup | { error: string, message: string }>}
 */
export async function recallAnswer(recall, input, stepMessages) {
  try {
    if (typeof input?.query === 'string') return await recall.search({ query: input.query, maxTokens: input.maxTokens, offset: input.offset });
    if (typeof input?.key === 'string') return await recall.lookup({ key: input.key, page: input.page, maxTokens: input.maxTokens, offset: input.offset });
    return await recall.read({ handle: input?.handle, offset: input?.offset, maxTokens: input?.maxTokens }, stepMessages);
  } catch (error) {
    return { error: /** @type {any} */ (error)?.code ?? 'recall-failed', message: String(/** @type {any} */ (error)?.message) };
  }
}
