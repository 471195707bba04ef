// The chat logic of the plugin: the recipe of docs/zotero-plugin.md (its blocks are quoted from
// this file; tests/node/zotero-recipe.test.mjs checks that they agree).
import {
  ZoteroDBStore, createAiSdkSummarizer, createChat, createRecall, history, loadCompaction, recallTool, unloadCompaction,
} from "bibgenie-compaction/slim";
import { convertToModelMessages, generateText, jsonSchema, readUIMessageStream, stepCountIs, streamText, tool } from "ai";
import { itemContext } from "./item-context.js";

export const SYSTEM_PROMPT = [
  "You are a research assistant inside Zotero. You help the user with the item they selected:",
  "its metadata, notes and attachments, related literature, and their research questions.",
  "Cite the items you rely on by title. Say so when you are unsure; never invent references.",
].join(" ");

// #region load
export async function loadChatCore(addonRef) {
  await loadCompaction({ wasmURL: `chrome://${addonRef}/content/bibgenie_compaction_bg.wasm` });
}
// #endregion load

/** Undoes loadChatCore (a startup that a shutdown cancelled). */
export function unloadChatCore() {
  unloadCompaction();
}

// #region store
export function openStore(addonRef) {
  // <Zotero data dir>/<addonRef>-sessions.sqlite; store.close() closes it too.
  return new ZoteroDBStore(new Zotero.DBConnection(`${addonRef}-sessions`), { closeConnection: true });
}
// #endregion store

/**
 * One chat of one item pane: a controller and a transport on the item's session. Two windows on
 * one item each have their own ItemChat on the same session: the package shares the running
 * compaction and the turn in flight between them (a second send gets `turn-in-flight`).
 */
export class ItemChat {
  constructor({ store, models, item, onStatus }) {
    this.store = store;
    this.models = models;
    this.item = item;
    this.onStatus = onStatus ?? (() => {});
    this.stopController = null;
    this.closing = null;
    // Settles a send whose stream died with its window: close() resolves it once the turn ended.
    this.closed = new Promise((resolve) => (this.endSends = resolve));
  }

  // #region session
  async open() {
    this.configKey = this.models().configKey;
    // Item keys are unique within a library only: the app key names both.
    const { sessionId } = await this.store.getOrCreateSession({
      appKey: `zotero:${this.item.libraryID}/${this.item.key}`,
      title: this.item.getField("title") || null,
    });
    this.sessionId = sessionId;
    // #endregion session
    // #region chat
    const { chatModel, summaryModel, contextWindow, modelId, cacheProvider = "implicit" } = this.models();
    const summarize = createAiSdkSummarizer({
      model: summaryModel,
      generateText,
      // From the current main window (window-globals.js): cancel() stops the provider request.
      createAbortController: () => new AbortController(),
    });
    // The session's controller and the chat transport over it, from one options object.
    ({ controller: this.controller, transport: this.transport } = createChat({
      store: this.store, sessionId, model: { id: modelId, contextWindow }, summarize,
      onStatus: (state) => this.onStatus(state),
      // Asked at each turn: the instructions and the item as it is now (metadata, notes, indexed
      // full text, within a share of the window); sent and counted before it is sent.
      system: async () => `${SYSTEM_PROMPT}\n\n${await itemContext(this.item, { contextWindow })}`,
      // Handed to streamResponse and counted in every request (the recall tool's definition: about
      // 260 tokens): the model reads back what compaction folded (docs/chat-turn.md#recall).
      tools: { recall: recallTool({ tool, jsonSchema }, createRecall({ store: this.store, sessionId })) },
      globals: () => Zotero.getMainWindow(), // no window: `no-main-window`, not a hang
      // Cache marks for the model's provider (docs/prompt-cache.md); "implicit" marks nothing.
      promptCache: { provider: cacheProvider },
      streamResponse: async ({ messages, abortSignal, system, tools, applyCacheBreakpoints, cacheCallOptions }) =>
        streamText({
          model: chatModel, system, tools, abortSignal, ...cacheCallOptions,
          stopWhen: stepCountIs(4), // a recall, then the answer
          messages: applyCacheBreakpoints(await convertToModelMessages(messages)),
        }),
    }));
    // #endregion chat
    return this;
  }

  // #region send
  /**
   * One turn: `render` gets the answer as it streams. Rejects with a coded error when it failed;
   * the question is then stored unanswered, and sending the same text again answers it in place.
   */
  async send(text, render) {
    const models = this.models();
    // Said at once, before anything is stored (else: three network retries, then "NetworkError").
    if (models.missingKey) throw Object.assign(new Error(models.missingKey), { code: "missing-api-key" });
    if (models.configKey !== this.configKey) await this.open(); // the prefs changed: use them from now on
    const message = { id: `u_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`, role: "user", parts: [{ type: "text", text }] };
    this.stopController = new AbortController();
    try {
      const stream = await this.transport.sendMessages({
        trigger: "submit-message", chatId: this.sessionId, messageId: undefined, messages: [message],
        abortSignal: this.stopController.signal,
      });
      let last;
      let failure;
      const reading = (async () => {
        for await (last of readUIMessageStream({ stream, onError: (error) => (failure = error) })) render?.(last);
      })();
      reading.catch(() => {}); // read below, or dropped when close() ended the turn first
      await Promise.race([reading, this.closed]); // a closed window's stream never settles
      if (failure) throw failure;
      return last;
    } finally {
      this.stopController = null;
    }
  }

  /** Stop: ends the stream; the partial answer is stored with `metadata.aborted = true`. */
  stop() {
    this.stopController?.abort();
  }
  // #endregion send

  /** The chat so far (the active branch, root first, checkpoints in place), for the pane to show. */
  async history() {
    return history(await this.store.load(this.sessionId));
  }

  // #region close
  /**
   * The pane's window closed, or the plugin shuts down: a compaction it runs is cancelled, the turn
   * in flight stopped as Stop does (the request aborted, the partial answer stored). Resolves when
   * that turn has ended.
   */
  close() {
    this.closing ??= (async () => {
      this.controller?.cancel("the chat was closed");
      const ended = this.transport?.close("the chat was closed");
      this.endSends(ended);
      await ended;
    })();
    return this.closing;
  }
  // #endregion close
}

// #region shutdown
export async function closeChatCore({ chats, store }) {
  // Each chat's compaction cancelled (writes nothing), its request in flight aborted and its
  // partial answer stored: awaited, so nothing runs on the store or the web globals after this.
  await Promise.all(chats.map((chat) => chat.close()));
  await store.close(); // frees the store's per-session indexes, then closes the connection
  unloadCompaction();
}
// #endregion shutdown
