// The AI SDK types the package's declarations name: `ai`'s own when it is installed (v5, v6, v7),
// else the package's shapes of them, so an app that never uses the AI SDK need not install it.
// @ts-ignore -- `ai` is an optional peer: unresolved, its types are `any` and the shapes below apply
import type * as Ai from 'ai';
type Or<T, Shape> = unknown extends T ? Shape : T;
export type UIMessage = Or<Ai.UIMessage, { id: string; role: 'system' | 'user' | 'assistant'; metadata?: unknown; parts: Array<{ type: string; [key: string]: unknown }> }>;
export type UIMessageChunk = Or<Ai.UIMessageChunk, { type: string; [key: string]: unknown }>;
export type ChatTransport<M extends UIMessage> = Or<Ai.ChatTransport<M>, { sendMessages(options: { messages: M[]; abortSignal: AbortSignal | undefined; [key: string]: unknown }): Promise<ReadableStream<UIMessageChunk>>; reconnectToStream(options: { chatId: string }): Promise<ReadableStream<UIMessageChunk> | null> }>;
export type LanguageModel = Or<Ai.LanguageModel, unknown>;
