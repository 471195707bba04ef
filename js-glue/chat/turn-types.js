// The types of the chat turn (written once here; the build emits their declarations): what
// streamResponse gets, the transport's and createChat's options, the coded error of a refused turn.
export {};

/**
 * @import { UIMessage, UIMessageChunk } from '../ai-types.js'
 * @import { CompactionController } from '../compaction/controller.js'
 * @import { CompactionControllerOptions, SubmitResult } from '../compaction/controller-types.js'
 * @import { CacheProvider, MarkableModelMessage, PromptCacheCallOptions } from './prompt-cache.js'
 * @import { GuardedPrepareStep } from './step-guard.js'
 * @import { CacheBreakpoint, CacheProfile, Overhead } from '../bibgenie_compaction.js'
 * @import { SessionStoreBase } from '../stores/base.js'
 */
/**
 * What streamResponse gets: the projection (summary message first) ending with the message to answer;
 * the transport's `system` and `tools` when given (pass them to streamText); `applyCacheBreakpoints`:
 * the ModelMessages of `messages` with the cache marks of the `promptCache` option (as given without
 * it); `cacheBreakpoints`: where the marks go (empty without `promptCache`); `cacheCallOptions`: for
 * streamText, OpenAI's promptCacheKey of the session and `prepareStep`; `prepareStep`: the turn's
 * step guard (each step of a tool loop estimated before it is sent; the oldest tool outputs of the
 * turn shown as handles when it would not fit; `step-too-large` when it still would not), composed
 * with the app's own `prepareStep` option and the cache marks of each step.
 * @template {UIMessage} [UI_MESSAGE=UIMessage]
 * @typedef {{
 *   messages: UI_MESSAGE[],
 *   abortSignal: AbortSignal | undefined,
 *   trigger: 'submit-message' | 'regenerate-message',
 *   chatId: string,
 *   system?: string,
 *   tools?: any,
 *   applyCacheBreakpoints<M extends MarkableModelMessage>(modelMessages: M[]): M[],
 *   cacheBreakpoints: CacheBreakpoint[],
 *   cacheCallOptions: Omit<PromptCacheCallOptions, 'prepareStep'> & { prepareStep: GuardedPrepareStep },
 *   prepareStep: GuardedPrepareStep,
 * }} TurnRequest
 */
/**
 * The part of streamText's result the transport uses (`any`: the options and chunk types differ
 * slightly between ai 5, 6 and 7).
 * @typedef {{ toUIMessageStream(options: any): ReadableStream<UIMessageChunk> | ReadableStream<any> }} UIMessageStreamSource
 */
/**
 * What the transport does with a turn: everything of CompactionChatTransportOptions but the controller.
 * @template {UIMessage} [UI_MESSAGE=UIMessage]
 * @typedef {object} ChatTurnOptions
 * @property {(request: TurnRequest<UI_MESSAGE>) => UIMessageStreamSource | PromiseLike<UIMessageStreamSource>} streamResponse
 *   Makes the model request, e.g. `async ({ messages, abortSignal }) => streamText({ model, system, tools,
 *   messages: await convertToModelMessages(messages), abortSignal })`.
 * @property {() => string} [generateMessageId] Id of each response message (default: a random `msg_` id).
 * @property {(options: { part: any }) => Record<string, unknown> | undefined | null} [messageMetadata]
 *   The app's own metadata; usage is added (usageMetadata) either way.
 * @property {(event: { responseMessage: UI_MESSAGE, isAborted: boolean, isContinuation: boolean }) => unknown} [onFinish]
 *   After the response message is persisted, before the automatic compaction check starts.
 * @property {string | (() => string | PromiseLike<string>)} [system] The system prompt of every request:
 *   handed to streamResponse and counted as overhead before sending. A function is asked at each turn
 *   (context that changes, such as the selected item's metadata and notes): its text is that turn's
 *   system prompt and overhead.
 * @property {Record<string, unknown>} [tools] The tools of every request (streamText's `tools`): handed to streamResponse and counted as overhead.
 * @property {Overhead} [overhead] Replaces the overhead counted from `system` and `tools`: `{ system?, tools? }` or `{ tokens }`.
 * @property {(step: any) => any} [prepareStep] The app's own streamText `prepareStep`: the transport
 *   composes it with the cache marks and the step guard into the request's `prepareStep` (pass that one).
 * @property {() => unknown} [globals] The window the turn's web globals come from (`() => Zotero.getMainWindow()`); none: `no-main-window`.
 * @property {{ provider: CacheProvider, cache?: CacheProfile, ttl?: '5m' | '1h' }} [promptCache] Cache marks on what is sent:
 *   streamResponse gets `applyCacheBreakpoints` and `cacheCallOptions` for this provider; `cache` gives the
 *   breakpoint limit and minimum prefix (default 4 and 1,024). Other keys are toUIMessageStream options
 *   (sendReasoning, sendSources, onError, ...).
 */
/**
 * The transport's options: the turn's, plus the session's controller (the transport stores the turn in
 * its store and session, `controller.store` and `controller.sessionId`).
 * @template {UIMessage} [UI_MESSAGE=UIMessage]
 * @typedef {ChatTurnOptions<UI_MESSAGE> & { controller: CompactionController, [uiMessageStreamOption: string]: unknown }} CompactionChatTransportOptions
 */
/**
 * createChat's options: the controller's and the transport's in one object.
 * @template {UIMessage} [UI_MESSAGE=UIMessage]
 * @typedef {Omit<CompactionControllerOptions, 'overhead' | 'store'>
 *   & { store: CompactionControllerOptions['store'] & Pick<SessionStoreBase, 'appendMessage' | 'updateMessageParts' | 'retry'> }
 *   & ChatTurnOptions<UI_MESSAGE> & { [uiMessageStreamOption: string]: unknown }} CreateChatOptions
 */
/**
 * The coded error sendMessages rejects with when a turn is not sent.
 * @typedef {Error & {
 *   code: 'too-large' | 'step-too-large' | 'cancelled' | 'busy' | 'turn-in-flight' | 'no-main-window' | 'closed' | 'unknown-session' | 'invalid-messages' | 'invalid-node' | 'not-loaded' | (string & {}),
 *   result?: SubmitResult,
 *   draft?: UIMessage,
 * }} TurnError
 */

