// The chat turn as an AI SDK ChatTransport for in-process use (a Zotero item-pane chat: no server).
// Like the SDK's DirectChatTransport, `sendMessages` returns the model's UI message stream, but the
// session store is the history: the transport takes only the newest message from `messages`, and
//   1. preflights it with the controller (compacting first when it would not fit),
//   2. persists the user message once (not when it already is the session's leaf),
//   3. streams the projection (summary message first) through the app's `streamResponse`, with
//      message ids and usage metadata (`usageMetadata`) set,
//   4. persists only the response message (never the projection's summary message),
//   5. starts the controller's automatic check (`afterTurn`).
// What the request carries besides the session (`system`, `tools`) is given to the transport: it
// hands them to `streamResponse` and counts them as overhead in every estimate of the turn, so a
// request that would overflow with them compacts first. One turn at a time per session in the
// process (../session/in-flight.js): a second window's send is refused with `turn-in-flight`.
// `ai` is never imported: the app's own streamText (v5, v6 or v7) makes the stream.

import { stepUsageMetadata, usageMetadata, withUsageMetadata } from './ai-sdk.js';
import { requestOverhead } from './overhead.js';
import { randomHex } from '../util/random-id.js';
import { codedError as turnError } from '../util/coded-error.js';
import { beginTurn } from '../session/in-flight.js';
import { applyCacheBreakpoints, cacheStepMarks, promptCacheCallOptions } from './prompt-cache.js';
import { guardSteps, heldOutputs, releaseOutputs } from './step-guard.js';
import { liveWindow } from '../zotero/live-window.js';
import { TurnStops } from './turn-stop.js';
import { asStored, sendDraft, storeResponse, withDraft } from './turn-steps.js';
import { history } from '../session/calls.js';
import { isCheckpoint } from '../stores/nodes.js';

/** A 24-hex-digit id for the response message (the SDK would otherwise leave it to the client). */
function responseId() {
  return 'msg_' + randomHex(12);
}

/** The window `globals` names now, or null: none, closed, dead, or a getter that throws. @param {() => unknown} globals */
function currentWindow(globals) {
  try {
    return liveWindow(globals());
  } catch {
    return null;
  }
}

/**
 * @import { ChatTransport, UIMessage, UIMessageChunk } from '../ai-types.js'
 * @import { CompactionController } from '../compaction/controller.js'
 * @import { SubmitResult } from '../compaction/controller-types.js'
 * @import { Overhead } from '../bibgenie_compaction.js'
 * @import { CompactionChatTransportOptions, TurnError } from './turn-types.js'
 * @import { SessionStoreBase } from '../stores/base.js'
 * @import { GuardedPrepareStep } from './step-guard.js'
 * @import { PromptCacheCallOptions } from './prompt-cache.js'
 * @typedef {Pick<SessionStoreBase, 'appendMessage' | 'updateMessageParts' | 'retry'>} TransportStore
 */

/**
 * In-process ChatTransport: preflight (compact if needed), persist the user message once, stream
 * the projection, persist only the response, then afterTurn. `reconnectToStream` resolves null.
 * One turn at a time per store and session in the process (`turn-in-flight`). A response cut by
 * Stop is stored with `metadata.aborted = true`; `metadata.finishReason` whenever known (`'error'`
 * when a stream error cut it).
 * A ChatTransport (ai 5, 6 and 7); not `@implements`, whose type argument tsc leaves out of the
 * declaration it emits: consumer.ts checks it against each version's ChatTransport.
 * @template {UIMessage} [UI_MESSAGE=UIMessage]
 */
export class CompactionChatTransport {
  /** @type {CompactionController} */
  #controller;
  /** The page's id of a message useChat edited → the id of the stored edit (`#storeEdit`). @type {Map<string, string>} */
  #edits = new Map();
  /** @type {TransportStore} */
  #store;
  #sessionId;
  #streamResponse;
  #generateMessageId;
  #messageMetadata;
  #onFinish;
  #streamOptions;
  /** @type {{ system?: string, tools?: Record<string, unknown> }} */
  #request;
  /** @type {Overhead | undefined} */
  #overhead;
  /** @type {(() => unknown) | null} a `system` function, asked at each turn */
  #systemOf = null;
  #overheadGiven = false;
  /** @type {(() => unknown) | null} */
  #globals;
  /** `{ provider, cache?, ttl? }`: cache marks on what is sent (prompt-cache.js), or null. */
  /** @type {NonNullable<CompactionChatTransportOptions['promptCache']> | null} */
  #promptCache = null;
  /**
   * streamText's call options for the cache (OpenAI's promptCacheKey of the session, the marks' prepareStep), or `{}`.
   * @type {PromptCacheCallOptions}
   */
  #cacheCallOptions = {};
  /** @type {Function | undefined} the app's own prepareStep, composed with the marks and the step guard */
  #prepareStep;
  /** The turns in flight, for close() and their window's unload (turn-stop.js). */
  #turns = new TurnStops();
  #closed = false;

  /**
   * @param {CompactionChatTransportOptions<UI_MESSAGE>} options `system` and `tools` go to streamResponse and
   *   count as overhead (`overhead` replaces that count: `{ tokens }` or `{ system, tools }`);
   *   `globals` returns the window the turn's web globals come from (no window: `no-main-window`);
   *   the other keys go to toUIMessageStream as they are (sendReasoning, sendSources, onError...)
   */
  constructor(options) {
    if (!options || typeof options !== 'object') throw turnError('invalid-options', 'CompactionChatTransport: options must be an object');
    const {
      controller, streamResponse, generateMessageId, messageMetadata, onFinish,
      system, tools, overhead, globals, prepareStep, ...streamOptions
    } = options;
    if (!controller || typeof controller.submit !== 'function' || typeof controller.afterTurn !== 'function') {
      throw turnError('invalid-options', 'CompactionChatTransport: controller must be the CompactionController of the session');
    }
    for (const name of ['store', 'sessionId']) {
      if (name in options) throw turnError('invalid-options', `CompactionChatTransport: ${name} comes from the controller (createChat builds both from one options object)`);
    }
    const store = /** @type {any} */ (controller.store);
    for (const method of /** @type {const} */ (['appendMessage', 'updateMessageParts', 'retry'])) {
      if (!store || typeof store[method] !== 'function') {
        throw turnError('invalid-options', `CompactionChatTransport: the controller's store must be a session store with ${method}() (MemoryStore, SqliteStore, ZoteroDBStore)`);
      }
    }
    if (typeof streamResponse !== 'function') {
      throw turnError('invalid-options', 'CompactionChatTransport: streamResponse must return streamText(...) for the messages it is given');
    }
    if (system !== undefined && typeof system !== 'string' && typeof system !== 'function') {
      throw turnError('invalid-options', 'CompactionChatTransport: system must be a string, or a function returning one for each turn');
    }
    if (overhead !== undefined && (overhead === null || typeof overhead !== 'object')) {
      throw turnError('invalid-options', 'CompactionChatTransport: overhead must be { system?, tools? } or { tokens }');
    }
    for (const [name, value] of Object.entries({ generateMessageId, messageMetadata, onFinish, globals, prepareStep })) {
      if (value !== undefined && typeof value !== 'function') throw turnError('invalid-options', `CompactionChatTransport: ${name} must be a function`);
    }
    this.#controller = controller;
    this.#store = /** @type {TransportStore} */ (store);
    this.#sessionId = controller.sessionId;
    this.#streamResponse = streamResponse;
    this.#generateMessageId = generateMessageId ?? responseId;
    this.#messageMetadata = messageMetadata ? withUsageMetadata(messageMetadata) : usageMetadata;
    this.#onFinish = onFinish ?? null;
    this.#streamOptions = streamOptions;
    this.#systemOf = typeof system === 'function' ? system : null;
    this.#overheadGiven = overhead !== undefined;
    const fixed = typeof system === 'function' ? undefined : system;
    this.#request = { ...(fixed === undefined ? {} : { system: fixed }), ...(tools === undefined ? {} : { tools }) };
    this.#overhead = requestOverhead({ system, tools, overhead });
    this.#globals = globals ?? null;
    this.#prepareStep = prepareStep;
    this.#takePromptCache();
  }

  /**
   * A `system` function (the app's context of the moment, such as the selected item) is asked at
   * each turn: what it returns is sent and counted as this turn's overhead (unless `overhead` is given).
   */
  async #systemForTurn() {
    if (!this.#systemOf) return;
    const system = await this.#systemOf();
    if (typeof system !== 'string') throw turnError('invalid-options', 'CompactionChatTransport: system() must return a string');
    this.#request = { ...this.#request, system };
    if (!this.#overheadGiven) this.#overhead = { ...this.#overhead, system };
  }

  /** The `promptCache` option, taken out of the toUIMessageStream options. */
  #takePromptCache() {
    const { promptCache, ...rest } = this.#streamOptions;
    if (promptCache === undefined) return;
    if (!promptCache || typeof promptCache !== 'object') throw turnError('invalid-options', 'CompactionChatTransport: promptCache must be { provider, cache?, ttl? }');
    const prepareStep = cacheStepMarks(promptCache.provider, { ttl: promptCache.ttl }); // checks the provider too
    this.#cacheCallOptions = { ...promptCacheCallOptions(promptCache.provider, this.#sessionId), ...(prepareStep ? { prepareStep } : {}) };
    this.#promptCache = promptCache;
    this.#streamOptions = rest;
  }

  /**
   * What streamResponse gets for the cache: `applyCacheBreakpoints(modelMessages)` (the marks the
   * controller's submit placed in the read that made `messages`, the draft as the newest message),
   * the breakpoints and `cacheCallOptions` (OpenAI's promptCacheKey, and `prepareStep`). Marks are an
   * optimization: a send they could not be placed on goes unmarked. `prepareStep` (also in
   * `cacheCallOptions`) is the turn's step guard (step-guard.js), composed with the app's own
   * `prepareStep` option and the cache marks of each step.
   * @param {unknown[]} messages @param {{ cacheBreakpoints?: any[] }} result the controller's SubmitResult
   * @param {GuardedPrepareStep} prepareStep
   */
  #cacheRequest(messages, result, prepareStep) {
    const options = this.#promptCache;
    if (!options) return { applyCacheBreakpoints: (/** @type {any[]} */ m) => m, cacheBreakpoints: [], cacheCallOptions: { prepareStep }, prepareStep };
    const breakpoints = result.cacheBreakpoints ?? [];
    const provider = options.provider;
    return {
      applyCacheBreakpoints: (/** @type {any[]} */ modelMessages) => applyCacheBreakpoints(modelMessages, { provider, breakpoints, messages, ttl: options.ttl }),
      cacheBreakpoints: breakpoints,
      cacheCallOptions: { ...this.#cacheCallOptions, prepareStep }, // the guard composes the marks
      prepareStep,
    };
  }

  /**
   * The options of `cacheBreakpoints` for this transport's cache marks: its `promptCache.cache`, and
   * the request's overhead, which comes before the messages in the cached prefix (the system prompt
   * and tools count toward the provider's minimum cacheable prefix).
   */
  #breakpointOptions() {
    const cache = this.#promptCache?.cache;
    return { ...(cache ? { cache } : {}), ...(this.#overhead === undefined ? {} : { overhead: this.#overhead }) };
  }

  /** The options of the turn's submit: the request's overhead, and the cache marks to place with the send. */
  #submitOptions() {
    return {
      ...(this.#overhead === undefined ? {} : { overhead: this.#overhead }),
      ...(this.#promptCache ? { cacheBreakpoints: this.#breakpointOptions() } : {}),
    };
  }

  /**
   * One turn. `messages` is what useChat holds; only its newest message is read: a new or already
   * stored user message, or (after a client-side tool result) the stored assistant message.
   * Rejects with a coded error when the turn cannot be sent: `too-large` (the draft must be
   * shortened), `cancelled`, the controller's failure reason, `busy` (a regenerate while
   * compacting), `turn-in-flight` (another turn on the session is being answered), `no-main-window`
   * (`globals` found no window), `invalid-messages` (the list itself: no newest UIMessage with an id
   * and parts, a role that cannot be sent) or `invalid-node` (a message the stores would refuse, e.g. a
   * text part without `text`: the same code as `appendMessage` and `submit` give); `error.result` is
   * the controller's SubmitResult.
   * @param {Parameters<ChatTransport<UI_MESSAGE>['sendMessages']>[0]} options
   * @returns {ReturnType<ChatTransport<UI_MESSAGE>['sendMessages']>}
   */
  async sendMessages({ trigger, chatId, messageId, messages, abortSignal }) {
    const last = Array.isArray(messages) ? messages[messages.length - 1] : undefined;
    if (!last || typeof last !== 'object' || typeof last.id !== 'string' || !Array.isArray(last.parts)) {
      throw turnError('invalid-messages', 'sendMessages: the newest message must be a UIMessage with an id and parts');
    }
    if (this.#closed) throw turnError('closed', 'sendMessages: this chat was closed (its window or the plugin); open a new one');
    const window = this.#globals ? currentWindow(this.#globals) : null;
    if (this.#globals && !window) {
      throw turnError('no-main-window', 'sendMessages: no main window is open; the AI SDK takes its streams and abort signals from one. Open a Zotero window and send again');
    }
    const taken = beginTurn(this.#controller.store, this.#sessionId);
    if (!taken) {
      throw turnError('turn-in-flight', 'sendMessages: another turn on this session is still being answered (another window?); send again when it is done');
    }
    // The turn's one end (turn-stop.js): also when its window closes or close() stops it.
    const turn = this.#turns.open({ window, abortSignal, release: taken });
    const release = () => turn.end();
    void turn.ended.then(() => releaseOutputs(this.#store, this.#sessionId)); // the answer is stored by then
    try {
      const stream = await this.#turn(trigger, chatId, last, turn.signal, release, turn, messageId);
      return releasingOnCancel(stream, release, turn);
    } catch (error) {
      release();
      // The message that was not sent, for the app to put back into its input (storedMessages()).
      throw withDraft(error, last);
    }
  }

  /**
   * Stops what this transport started, as Stop does: each turn in flight is aborted, its partial
   * answer stored (`metadata.aborted`) and the session released; later sends reject `closed`. For a
   * window or pane closing and a plugin shutting down. Resolves when every turn has ended.
   * @param {string} [reason]
   */
  close(reason = 'the chat was closed') {
    this.#closed = true;
    return this.#turns.stopAll(reason);
  }

  /**
   * @param {'submit-message' | 'regenerate-message'} trigger @param {string} chatId @param {any} last
   * @param {any} abortSignal @param {() => void} release ends the session's turn
   * @param {import('./turn-stop.js').TurnStop} turn
   * @param {string | undefined} [messageId] useChat's `sendMessage({ messageId })`: the message it edits
   */
  async #turn(trigger, chatId, last, abortSignal, release, turn, messageId) {
    await this.#systemForTurn();
    const store = this.#store;
    const sessionId = this.#sessionId;
    if (trigger === 'regenerate-message') {
      // useChat drops the old response and sends the messages up to its user message: a retry
      // (of the stored edit, when the page's message is one this transport stored as an edit).
      if (last.role !== 'user') throw turnError('invalid-messages', 'sendMessages: a regenerate ends with the user message to answer again');
      if (!this.#controller.can('retry')) throw turnError('busy', 'sendMessages: a compaction is running; regenerate after it');
      const editId = this.#edits.get(last.id);
      if (editId !== undefined) last = { ...last, id: editId };
      await store.retry(sessionId, last.id);
    } else if (last.role === 'user' && typeof messageId === 'string' && messageId === last.id) {
      last = (await this.#storeEdit(last)) ?? last;
    } else if (last.role === 'assistant') {
      // A continuation (a tool result or approval added on the client): the stored message gets the new parts.
      await store.updateMessageParts(sessionId, last.id, last.parts, last.metadata === undefined ? undefined : { metadata: last.metadata });
    } else if (last.role !== 'user') {
      throw turnError('invalid-messages', `sendMessages: cannot send a ${String(last.role)} message`);
    }

    const { messages, parentId, sentAt, result } = await sendDraft(this.#controller, last, {
      abortSignal, submitOptions: this.#submitOptions(), answerInPlace: trigger === 'submit-message',
    });
    // How the response ended, for its stored metadata: the finish part's reason, a stream error, or
    // the step guard's refusal (`step-too-large`: stored as Stop stores it).
    const ending = { finishReason: /** @type {unknown} */ (undefined), errored: false, refused: /** @type {Error | null} */ (null) };
    // The first request as the preflight estimated it (a provider baseline plus estimates), when it planned no compaction.
    const plan = /** @type {any} */ (result.outcome)?.status === 'noop' ? /** @type {any} */ (result.outcome).plan : undefined;
    const guard = guardSteps({
      model: this.#controller.model, overhead: this.#overhead, startTokens: plan?.tokensBefore,
      own: this.#prepareStep, marks: this.#cacheCallOptions.prepareStep,
      onRefused: (error) => (ending.refused = error), keep: heldOutputs(store, sessionId),
    });
    const streamed = await this.#streamResponse({ messages: /** @type {UI_MESSAGE[]} */ (messages), abortSignal, trigger, chatId, ...this.#request, ...this.#cacheRequest(messages, /** @type {any} */ (result), guard.prepareStep) });
    if (!streamed || typeof streamed.toUIMessageStream !== 'function') {
      throw turnError('invalid-options', 'streamResponse must return the result of streamText (with toUIMessageStream)');
    }
    // A continuation's stored message has its steps already; this stream's steps come after them.
    const before = last.role === 'assistant' ? last.parts.filter((/** @type {any} */ p) => p?.type === 'step-start').length : 0;
    const metadata = stepUsageMetadata(this.#messageMetadata, before, guard.hiddenAt);
    const appOnError = /** @type {any} */ (this.#streamOptions).onError;
    const persist = (/** @type {any} */ event) => (turn.claim() ? this.#persist(event, parentId, sentAt, ending, release) : undefined);
    turn.storesPartial(last.role === 'assistant'
      ? async () => release() // a continuation's stored message keeps its parts
      : (answer) => persist({ responseMessage: answer, isContinuation: false, isAborted: true }));
    return streamed.toUIMessageStream({
      ...this.#streamOptions,
      originalMessages: messages,
      generateMessageId: this.#generateMessageId,
      messageMetadata: (/** @type {any} */ options) => {
        if (options?.part?.type === 'finish' && options.part.finishReason !== undefined) ending.finishReason = options.part.finishReason;
        return metadata(options);
      },
      onError: (/** @type {unknown} */ error) => {
        if (!ending.refused) ending.errored = true; // after a refusal, an error is its consequence
        if (typeof appOnError === 'function') return appOnError(error);
        return error instanceof Error ? error.message : String(error);
      },
      onFinish: (/** @type {any} */ event) => persist(event),
    });
  }

  /**
   * useChat's edit (`sendMessage({ text, messageId })`): the page keeps the edited message's id, the
   * store a new sibling of the stored message under the same parent (the old branch kept, its
   * answers too), which then is the session's leaf and is sent as a draft stored before the send
   * (preflight again). The page's id maps to the stored edit for a later regenerate. Null when the
   * message is not stored, or stored with these very parts (a resend, not an edit).
   * @param {any} message @returns {Promise<any>}
   */
  async #storeEdit(message) {
    const session = await this.#controller.store.load(this.#sessionId);
    const stored = /** @type {any[]} */ (session.nodes).find((node) => node.id === message.id);
    if (!stored || JSON.stringify(stored.parts) === JSON.stringify(message.parts)) return null;
    if (!this.#controller.can('edit')) throw turnError('busy', 'sendMessages: a compaction is running; edit after it');
    if (typeof /** @type {any} */ (this.#store).edit !== 'function') throw turnError('invalid-options', 'sendMessages: an edit needs the store\'s edit(sessionId, parentId, message)');
    const edit = { ...message, id: `edit_${randomHex(12)}` };
    await /** @type {any} */ (this.#store).edit(this.#sessionId, stored.parentId ?? null, asStored(edit));
    this.#edits.set(message.id, edit.id);
    return edit;
  }

  /**
   * The session's active branch as `useChat` holds it: the stored UIMessages, root first, without
   * the checkpoints. After a refused turn (`too-large`, `cancelled`, a failure, `draft-already-stored`,
   * `invalid-node`) `useChat` has already put the draft into its list (for an edit, rewritten the
   * old question and dropped what followed): `setMessages(await transport.storedMessages())` brings
   * it back to the stored branch, and the draft (`error.draft`) goes back to the input.
   * @returns {Promise<UI_MESSAGE[]>}
   */
  async storedMessages() {
    const nodes = history(await this.#controller.store.load(this.#sessionId));
    return /** @type {UI_MESSAGE[]} */ (nodes.filter((node) => !isCheckpoint(node)).map(({ parentId, ...message }) => message));
  }

  /**
   * In-process: there is no server stream to resume.
   * @returns {ReturnType<ChatTransport<UI_MESSAGE>['reconnectToStream']>}
   */
  async reconnectToStream() {
    return null;
  }

  /**
   * @param {{ responseMessage: any, isContinuation: boolean, isAborted?: boolean, finishReason?: unknown }} event
   * @param {string} parentId where the response goes (the submit's `responseParentId`: the message
   *   it answers, or the checkpoint a preflight appended after that message; no other turn of this
   *   process moved the leaf meanwhile: the session's turn is held until here)
   * @param {number} sentAt when the request went out (ms): `createdAt` of a response that has none
   * @param {{ finishReason: unknown, errored: boolean, refused: Error | null }} ending
   * @param {() => void} release ends the session's turn
   */
  async #persist(event, parentId, sentAt, ending, release) {
    const { isContinuation } = event;
    // A refused step ends the turn as Stop does: the answer so far, marked aborted, with the code.
    const isAborted = (event.isAborted ?? false) || ending.refused !== null;
    const refusal = /** @type {any} */ (ending.refused)?.code;
    try {
      const stored = await storeResponse(this.#controller, event.responseMessage, {
        parentId, sentAt, isContinuation, isAborted, finishReason: refusal ? undefined : event.finishReason ?? ending.finishReason, errored: ending.errored, refusal,
      });
      if (this.#onFinish) await this.#onFinish({ responseMessage: stored ?? event.responseMessage, isAborted, isContinuation });
    } finally {
      release();
      this.#controller.afterTurn(this.#overhead === undefined ? undefined : { overhead: this.#overhead }); // never rejects
    }
  }
}

/**
 * The UI message stream, ending the session's turn also when the reader cancels it before the end
 * (the answer the app was shown is then stored as Stop stores it). Built with the
 * stream's own class: the plugin sandbox has no ReadableStream of its own. `turn` sees each chunk
 * the app reads (what a stopped turn stores) and can end the stream (turn-stop.js).
 * @param {any} stream @param {() => void} release @param {import('./turn-stop.js').TurnStop} turn
 */
function releasingOnCancel(stream, release, turn) {
  const Readable = stream && stream.constructor;
  if (typeof Readable !== 'function' || typeof stream.getReader !== 'function') return stream;
  const reader = stream.getReader();
  return new Readable({
    start(/** @type {any} */ controller) {
      turn.streaming(reader, controller);
    },
    async pull(/** @type {any} */ controller) {
      try {
        const { done, value } = await reader.read();
        if (turn.stopping) return; // stopped meanwhile: the stream is closed and its answer stored
        if (done) controller.close();
        else {
          turn.saw(value);
          controller.enqueue(value);
        }
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    // The app stopped reading (useChat's Stop cancels its reader, after aborting the request): the
    // turn is stopped as close() stops it, so the answer the app was shown is stored once, marked
    // `metadata.aborted` (an onFinish of the SDK that comes first stores it instead: one end claims
    // the turn). Resolves once it is stored and the session is free.
    cancel() {
      return turn.stop('the app cancelled the stream (Stop)');
    },
  });
}
