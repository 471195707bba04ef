// A Zotero 7 plugin's use of the package, compiled as the community template compiles a plugin
// (build.sh, stage types): zotero-types' sandbox globals, no DOM lib, no @types/node, bundler
// resolution, `skipLibCheck` both ways. Never run. Named imports (tree-shaken) from the slim entry.
import {
  ZoteroDBStore,
  createAiSdkSummarizer,
  createChat,
  initSync,
  installWindowGlobals,
  loadCompaction,
  unloadCompaction,
} from 'bibgenie-compaction/slim';
import type { CompactionState, WasmModule } from 'bibgenie-compaction/slim';
import { convertToModelMessages, generateText, streamText } from 'ai';
import type { ChatTransport, LanguageModel, UIMessage } from 'ai';

declare const addonRef: string;
declare const model: LanguageModel;
declare const wasmBytes: ArrayBuffer;
declare const compiled: WasmModule;
declare const item: Zotero.Item;

// The AI SDK's web globals from the current main window (examples/zotero-research-chat/src/window-globals.js).
const windowGlobals = installWindowGlobals(globalThis, () => Zotero.getMainWindow());

export async function startup(): Promise<() => Promise<void>> {
  await loadCompaction({ wasmURL: `chrome://${addonRef}/content/bibgenie_compaction_bg.wasm` });
  // Zotero.DBConnection is typed by zotero-types; it goes into the store without a cast.
  const store = new ZoteroDBStore(new Zotero.DBConnection(`${addonRef}-sessions`), { closeConnection: true });
  const { sessionId } = await store.getOrCreateSession({ appKey: `zotero:${item.libraryID}/${item.key}` });
  const summarize = createAiSdkSummarizer({ model, generateText, createAbortController: () => new AbortController() });
  const chat = createChat({
    store,
    sessionId,
    model: { id: 'gpt-4.1-mini', contextWindow: 128_000 },
    summarize,
    onStatus: (state: CompactionState) => {
      if (state.status === 'compacting') Zotero.debug(`Compacting ${state.foldedMessages ?? 0} earlier messages`);
    },
    system: 'You are a research assistant inside Zotero.',
    globals: () => Zotero.getMainWindow(),
    streamResponse: async ({ messages, abortSignal, system, tools }) =>
      streamText({ model, system, tools, messages: await convertToModelMessages(messages), abortSignal }),
  });
  const { controller } = chat;
  const transport: ChatTransport<UIMessage> = chat.transport;
  Zotero.debug(String(transport));
  return async () => {
    controller.cancel('shutdown');
    await store.close(); // frees the store's per-session indexes, then closes the connection
    unloadCompaction();
    windowGlobals.uninstall();
  };
}

initSync({ module: wasmBytes });
initSync({ module: compiled });
// @ts-expect-error a string is not wasm bytes
initSync({ module: 'bibgenie_compaction_bg.wasm' });
// @ts-expect-error nor for the loader
loadCompaction({ wasmBytes: 'bibgenie_compaction_bg.wasm' });
