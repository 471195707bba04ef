// Types of transport.js: the chat turn as an AI SDK ChatTransport (ai 5, 6 and 7).
import type { ChatTransport, UIMessage, UIMessageChunk } from 'ai';
import type { CompactionController, CompactionControllerOptions, SubmitResult } from '../compaction/controller.js';
import type { CacheProvider, MarkableModelMessage, PromptCacheCallOptions } from './prompt-cache.js';
import type { SessionStoreBase } from '../stores/base.js';
import type { CacheBreakpoint, CacheProfile, Overhead } from '../bibgenie_compaction.js';

/** What streamResponse gets: the projection (summary message first) ending with the message to answer. */
export interface TurnRequest<UI_MESSAGE extends UIMessage = UIMessage> {
  messages: UI_MESSAGE[];
  abortSignal: AbortSignal | undefined;
  trigger: 'submit-message' | 'regenerate-message';
  chatId: string;
  /** The transport's `system`, when given: pass it to streamText. */
  system?: string;
  /** The transport's `tools`, when given: pass them to streamText. */
  tools?: any;
  /** The ModelMessages of `messages` with the cache marks of the `promptCache` option (as given without it). */
  applyCacheBreakpoints<M extends MarkableModelMessage>(modelMessages: M[]): M[];
  /** Where the marks go (empty without `promptCache`). */
  cacheBreakpoints: CacheBreakpoint[];
  /** For streamText: OpenAI's promptCacheKey of the session (`{}` for the other providers). */
  cacheCallOptions: PromptCacheCallOptions;
}

/** The part of streamText's result the transport uses. */
export interface UIMessageStreamSource {
  // `any`: the options and chunk types differ slightly between ai 5, 6 and 7.
  toUIMessageStream(options: any): ReadableStream<UIMessageChunk> | ReadableStream<any>;
}

/** What the transport does with a turn: everything of CompactionChatTransportOptions but the controller. */
export interface ChatTurnOptions<UI_MESSAGE extends UIMessage = UIMessage> {
  /**
   * Makes the model request, e.g.
   * `async ({ messages, abortSignal }) => streamText({ model, system, tools, messages: await convertToModelMessages(messages), abortSignal })`.
   */
  streamResponse: (request: TurnRequest<UI_MESSAGE>) => UIMessageStreamSource | PromiseLike<UIMessageStreamSource>;
  /** Id of each response message (default: a random `msg_` id). */
  generateMessageId?: () => string;
  /** The app's own metadata; usage is added (usageMetadata) either way. */
  messageMetadata?: (options: { part: any }) => Record<string, unknown> | undefined | null;
  /** After the response message is persisted, before the automatic compaction check starts. */
  onFinish?: (event: { responseMessage: UI_MESSAGE; isAborted: boolean; isContinuation: boolean }) => unknown;
  /**
   * The system prompt of every request: handed to streamResponse and counted as overhead before
   * sending. A function is asked at each turn (context that changes, such as the selected item's
   * metadata and notes): its text is that turn's system prompt and overhead.
   */
  system?: string | (() => string | PromiseLike<string>);
  /** The tools of every request (streamText's `tools`): handed to streamResponse and counted as overhead. */
  tools?: Record<string, unknown>;
  /** Replaces the overhead counted from `system` and `tools`: `{ system?, tools? }` or `{ tokens }`. */
  overhead?: Overhead;
  /** The window the turn's web globals come from (`() => Zotero.getMainWindow()`); none: `no-main-window`. */
  globals?: () => unknown;
  /**
   * Cache marks on what is sent: streamResponse gets `applyCacheBreakpoints` and `cacheCallOptions`
   * for this provider; `cache` gives the breakpoint limit and minimum prefix (default 4 and 1,024).
   */
  promptCache?: { provider: CacheProvider; cache?: CacheProfile; ttl?: '5m' | '1h' };
  /** Other toUIMessageStream options (sendReasoning, sendSources, onError, ...). */
  [uiMessageStreamOption: string]: unknown;
}

export interface CompactionChatTransportOptions<UI_MESSAGE extends UIMessage = UIMessage> extends ChatTurnOptions<UI_MESSAGE> {
  /** The session's controller: the transport stores the turn in its store and session (`controller.store`, `controller.sessionId`). */
  controller: CompactionController;
}

/** createChat's options: the controller's and the transport's in one object. */
export type CreateChatOptions<UI_MESSAGE extends UIMessage = UIMessage> =
  Omit<CompactionControllerOptions, 'overhead' | 'store'> & { store: CompactionControllerOptions['store'] & Pick<SessionStoreBase, 'appendMessage' | 'updateMessageParts' | 'retry'> } & ChatTurnOptions<UI_MESSAGE>;

/**
 * The session's controller and the chat transport over it, from one options object: the store, the
 * session and what a request carries (`system`, `tools`) are said once. The controller counts
 * `system` and `tools` as overhead too (a manual compaction plans with them).
 */
export function createChat<UI_MESSAGE extends UIMessage = UIMessage>(
  options: CreateChatOptions<UI_MESSAGE>,
): { controller: CompactionController; transport: CompactionChatTransport<UI_MESSAGE> };

/** The coded error sendMessages rejects with when a turn is not sent. */
export interface TurnError extends Error {
  code: 'too-large' | 'cancelled' | 'busy' | 'turn-in-flight' | 'no-main-window' | 'closed' | 'unknown-session' | 'invalid-messages' | 'not-loaded' | string;
  result?: SubmitResult;
}

/**
 * In-process ChatTransport: preflight (compact if needed), persist the user message once, stream
 * the projection, persist only the response, then afterTurn. `reconnectToStream` resolves null.
 * One turn at a time per store and session in the process (`turn-in-flight`). A response cut by
 * Stop is stored with `metadata.aborted = true`; `metadata.finishReason` whenever known (`'error'`
 * when a stream error cut it).
 */
export declare class CompactionChatTransport<UI_MESSAGE extends UIMessage = UIMessage> implements ChatTransport<UI_MESSAGE> {
  constructor(options: CompactionChatTransportOptions<UI_MESSAGE>);
  sendMessages: ChatTransport<UI_MESSAGE>['sendMessages'];
  reconnectToStream: ChatTransport<UI_MESSAGE>['reconnectToStream'];
  /**
   * Stops what this transport started, as Stop does: each turn in flight has its request aborted,
   * its partial answer (what the app was shown) stored with `metadata.aborted`, and the session's
   * turn released; later sends reject with `closed`. Call it when the window or pane that chats
   * closes and at plugin shutdown (a turn is also stopped so when the `globals` window it took its
   * streams from unloads). Resolves when every such turn has ended.
   */
  close(reason?: string): Promise<void>;
}
