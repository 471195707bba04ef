// A chat turn for an app that calls its model itself (its own fetch, its own message format, no AI
// SDK): the turn object owns the rules an app would otherwise get wrong silently. `ChatTurn.begin`
// takes the session's turn, preflights the question (compacting first when needed) and stores it
// once; the app sends `turn.messages` to its model; then exactly one of `finish` (the answer),
// `stop` (what was shown before the user stopped it) or `fail` (the call failed: the question stays
// stored unanswered, and beginning a turn with the same question again answers it in place) ends it.
// The AI SDK transport runs the same steps (turn-steps.js).

import { codedError } from '../util/coded-error.js';
import { randomHex } from '../util/random-id.js';
import { beginTurn } from '../session/in-flight.js';
import { requestOverhead } from './overhead.js';
import { sendDraft, storeResponse, withDraft } from './turn-steps.js';
import { usageMetadata } from './ai-sdk.js';
import { guardParts, heldOutputs, releaseOutputs } from './step-guard.js';
import { estimate } from '../session/calls.js';

/**
 * @import { CompactionController } from '../compaction/controller.js'
 * @import { CacheBreakpointOptions, Overhead } from '../bibgenie_compaction.js'
 * @import { SentDraft } from './turn-steps.js'
 */

/**
 * @typedef {object} BeginTurnOptions
 * @property {any} [signal] aborts the preflight (a compaction it started is cancelled): `cancelled`, nothing stored
 * @property {string} [system] the request's system prompt, counted before sending
 * @property {Record<string, unknown>} [tools] the request's tool definitions (name → { description, inputSchema }), counted
 * @property {Overhead} [overhead] replaces the count of `system` and `tools`
 * @property {CacheBreakpointOptions} [cacheBreakpoints] place cache marks on `turn.messages` (`turn.cacheBreakpoints`)
 */

/**
 * The model's answer for `finish`, or what was shown for `stop`.
 * @typedef {object} TurnResponse
 * @property {string} [id] the answer's id (default: a new one)
 * @property {string} [text] the answer's text (one text part), or
 * @property {any[]} [parts] its UIMessage parts
 * @property {{ inputTokens?: number | null, outputTokens?: number | null, cachedInputTokens?: number | null }} [usage]
 *   what the provider reported for this request (the next estimate starts from it)
 * @property {Record<string, any>} [providerMetadata] as the AI SDK names it: with Anthropic's
 *   `anthropic.iterations` after its own compaction, the final iteration's usage is recorded
 *   (docs/provider-compaction.md)
 * @property {string} [finishReason] e.g. 'stop', 'length'
 * @property {Record<string, unknown>} [metadata] stored with the answer
 */

export class ChatTurn {
  #controller;
  /** @type {SentDraft} */
  #sent;
  #release;
  /** @type {Overhead | undefined} */
  #overhead;
  #ended = false;
  /** @type {ReturnType<typeof guardParts> | null} */
  #guard = null;

  /**
   * Begins a turn: one at a time per session in the process (`turn-in-flight`). Rejects with a coded
   * error when the question is not sent: `too-large` (shorten it), `cancelled`, `turn-in-flight`, the
   * compaction's failure reason, `invalid-node` (a message the stores refuse); `error.result` is the
   * controller's SubmitResult and `error.draft` the question, for the app to put back in its input.
   * @param {CompactionController} controller the session's controller
   * @param {string | { id?: string, role?: 'user', parts: any[], metadata?: unknown }} question text, or a user UIMessage
   * @param {BeginTurnOptions} [options]
   * @returns {Promise<ChatTurn>}
   */
  static async begin(controller, question, options = {}) {
    if (!controller || typeof controller.submit !== 'function' || !controller.store) {
      throw codedError('invalid-options', 'ChatTurn.begin: controller must be the CompactionController of the session');
    }
    if (!options || typeof options !== 'object') throw codedError('invalid-options', 'ChatTurn.begin: options must be an object');
    const { signal, system, tools, overhead: given, cacheBreakpoints } = options;
    if (system !== undefined && typeof system !== 'string') throw codedError('invalid-options', 'ChatTurn.begin: system must be a string');
    const draft = questionMessage(question);
    const release = beginTurn(controller.store, controller.sessionId);
    if (!release) throw codedError('turn-in-flight', 'ChatTurn.begin: another turn on this session is still being answered; begin again when it is done', { draft });
    const overhead = requestOverhead({ system, tools, overhead: given });
    try {
      const submitOptions = { ...(overhead === undefined ? {} : { overhead }), ...(cacheBreakpoints ? { cacheBreakpoints } : {}) };
      const sent = await sendDraft(controller, draft, { abortSignal: signal, submitOptions });
      return new ChatTurn(controller, sent, release, overhead);
    } catch (error) {
      release();
      throw withDraft(error, draft);
    }
  }

  /** @private use ChatTurn.begin @param {CompactionController} controller @param {SentDraft} sent @param {() => void} release @param {Overhead | undefined} overhead */
  constructor(controller, sent, release, overhead) {
    this.#controller = controller;
    this.#sent = sent;
    this.#release = release;
    this.#overhead = overhead;
  }

  /** What to send, in order: the checkpoint's summary message first (when there is one), the verbatim tail, the question last. */
  get messages() {
    return this.#sent.messages;
  }

  /** The question as stored. */
  get question() {
    return this.#sent.sent;
  }

  /** Where the cache marks go on `messages` (empty unless `cacheBreakpoints` was given). */
  get cacheBreakpoints() {
    return /** @type {any} */ (this.#sent.result).cacheBreakpoints ?? [];
  }

  /**
   * Guards one request of the app's own tool loop (issue 38), before it is sent: `parts` is the
   * answer so far as UIMessage parts (as `finish` would store them: tool parts with their outputs,
   * text). When `turn.messages` plus them would pass the model's safe input limit, the oldest tool
   * outputs of the turn come back as recall handles (`output` a short text naming the call id; the
   * recall tool reads them while the turn runs, and `finish` stores the outputs verbatim) in
   * `parts`, their ids in `folded`. A request that cannot fit even so rejects with `step-too-large`
   * (`tokens`, `limit`): do not send it; end the turn with `stop(shown)`, which stores what there is.
   * @param {any[]} parts
   * @returns {Promise<{ parts: any[], folded: string[] }>}
   */
  async guard(parts) {
    if (this.#ended) throw codedError('turn-ended', 'ChatTurn.guard: this turn has already ended');
    if (!this.#guard) {
      const controller = this.#controller;
      // The first request as the preflight estimated it; after a compaction, the projection sent.
      const plan = /** @type {any} */ (this.#sent.result.outcome)?.status === 'noop' ? /** @type {any} */ (this.#sent.result.outcome).plan : undefined;
      const nodes = this.#sent.messages.map((m, i, all) => ({ ...m, parentId: i ? all[i - 1].id : null }));
      const startTokens = plan?.tokensBefore ?? estimate(/** @type {any} */ ({ nodes, leafId: nodes.at(-1)?.id ?? null, branchRevision: 0 }), controller.model, this.#overhead ? { overhead: this.#overhead } : undefined).tokens;
      this.#guard = guardParts({ model: controller.model, overhead: this.#overhead, startTokens, keep: heldOutputs(controller.store, controller.sessionId) });
    }
    return this.#guard(parts);
  }

  /** Whether finish, stop or fail has ended the turn. */
  get ended() {
    return this.#ended;
  }

  /**
   * Stores the answer under the question (or the checkpoint a preflight appended after it), ends the
   * turn, and starts the automatic compaction check. Resolves with the answer as stored.
   * @param {TurnResponse} response
   */
  async finish(response) {
    return this.#end(response, false);
  }

  /**
   * The user stopped the answer: what was shown is stored with `metadata.aborted = true` (nothing when
   * nothing was shown), and the turn ends. Resolves with the stored answer, or null.
   * @param {TurnResponse} [shown]
   */
  async stop(shown) {
    const hasContent = shown && ((typeof shown.text === 'string' && shown.text !== '') || (Array.isArray(shown.parts) && shown.parts.length > 0));
    return this.#end(hasContent ? shown : null, true);
  }

  /**
   * The model call failed before any answer: nothing more is stored (the question stays, unanswered;
   * beginning a turn with the same question answers it in place), and the turn ends.
   * @param {unknown} [error] for the app's own records; not stored
   */
  async fail(error) {
    void error;
    this.#claim('fail');
    releaseOutputs(this.#controller.store, this.#controller.sessionId);
    this.#release();
  }

  /** @param {string} step */
  #claim(step) {
    if (this.#ended) throw codedError('turn-ended', `ChatTurn.${step}: this turn has already ended (finish, stop and fail end it once)`);
    this.#ended = true;
  }

  /** @param {TurnResponse | null} response @param {boolean} isAborted */
  async #end(response, isAborted) {
    const message = response === null ? null : responseMessage(response, isAborted ? 'stop' : 'finish');
    this.#claim(isAborted ? 'stop' : 'finish');
    try {
      if (message === null) return null;
      return await storeResponse(this.#controller, message, {
        parentId: this.#sent.parentId, sentAt: this.#sent.sentAt, isAborted, finishReason: response?.finishReason,
      });
    } finally {
      releaseOutputs(this.#controller.store, this.#controller.sessionId);
      this.#release();
      this.#controller.afterTurn(this.#overhead === undefined ? undefined : { overhead: this.#overhead }); // never rejects
    }
  }
}

/** The question as a user message: text becomes one text part. @param {unknown} question */
function questionMessage(question) {
  if (typeof question === 'string') {
    if (question === '') throw codedError('invalid-options', 'ChatTurn.begin: the question is empty');
    return { id: 'msg_' + randomHex(12), role: 'user', parts: [{ type: 'text', text: question }] };
  }
  const q = /** @type {any} */ (question);
  if (!q || typeof q !== 'object' || !Array.isArray(q.parts) || (q.role !== undefined && q.role !== 'user')) {
    throw codedError('invalid-options', 'ChatTurn.begin: the question must be text or a user message { id?, role: "user", parts }');
  }
  return { ...q, id: typeof q.id === 'string' ? q.id : 'msg_' + randomHex(12), role: 'user' };
}

/**
 * The assistant message for the response, its usage where the estimate reads it (`metadata.usage`).
 * @param {TurnResponse} response @param {string} step
 */
function responseMessage(response, step) {
  if (!response || typeof response !== 'object') throw codedError('invalid-options', `ChatTurn.${step}: the response must be { text } or { parts }`);
  const { id, text, parts, usage, metadata, providerMetadata } = response;
  const given = Array.isArray(parts) ? parts : typeof text === 'string' ? [{ type: 'text', text }] : null;
  if (given === null) throw codedError('invalid-options', `ChatTurn.${step}: the response must have text or parts`);
  if (id !== undefined && typeof id !== 'string') throw codedError('invalid-options', `ChatTurn.${step}: the response id must be a string`);
  if (usage !== undefined && (usage === null || typeof usage !== 'object')) {
    throw codedError('invalid-options', `ChatTurn.${step}: usage must be { inputTokens, outputTokens, cachedInputTokens? }`);
  }
  const recorded = usage ? usageMetadata({ part: { type: 'finish-step', usage, providerMetadata } }) : undefined;
  return {
    id: id ?? 'msg_' + randomHex(12),
    role: 'assistant',
    parts: given,
    metadata: { ...(metadata && typeof metadata === 'object' ? metadata : {}), ...(recorded ?? {}) },
  };
}
