// A Zotero 7 plugin's use of the package, compiled as the community template compiles a plugin
// (build.sh, stage types): zotero-types' sandbox globals, no DOM lib, no @types/node, bundler
// resolution, `skipLibCheck` both ways. Never run. Named imports (tree-shaken) from the slim entry.
import {
  CompactionChatTransport,
  CompactionController,
  ZoteroDBStore,
  createAiSdkSummarizer,
  initSync,
  loadCompaction,
  resetWasmState,
  unloadCompaction,
  version,
} from 'bibgenie-compaction/slim';
import type { CompactionState, WasmModule } from 'bibgenie-compaction/slim';
import { convertToModelMessages, generateText, streamText } from 'ai';
import type { ChatTransport, LanguageModel, UIMessage } from 'ai';

declare const addonRef: string;
declare const model: LanguageModel;
declare const wasmBytes: ArrayBuffer;
declare const compiled: WasmModule;

export async function startup(): Promise<() => Promise<void>> {
  await loadCompaction({
    bindings: { initSync, version, resetWasmState },
    wasmURL: `chrome://${addonRef}/content/bibgenie_compaction_bg.wasm`,
  });
  // Zotero.DBConnection is typed by zotero-types; it goes into the store without a cast.
  const db = new Zotero.DBConnection(`${addonRef}-sessions`);
  const store = new ZoteroDBStore(db);
  const win = Zotero.getMainWindow();
  const summarize = createAiSdkSummarizer({ model, generateText, createAbortController: () => new win.AbortController() });
  const controller = new CompactionController({
    store,
    sessionId: 'ABCD2345',
    model: { id: 'gpt-4.1-mini', contextWindow: 128_000 },
    summarize,
    onStatus: (state: CompactionState) => {
      if (state.status === 'compacting') Zotero.debug(`Compacting ${state.foldedMessages ?? 0} earlier messages`);
    },
  });
  const transport: ChatTransport<UIMessage> = new CompactionChatTransport({
    controller,
    store,
    sessionId: 'ABCD2345',
    streamResponse: async ({ messages, abortSignal }) =>
      streamText({ model, messages: await convertToModelMessages(messages), abortSignal }),
  });
  Zotero.debug(String(transport));
  return async () => {
    controller.cancel('shutdown');
    await store.close(); // frees the store's per-session indexes
    await db.closeDatabase(true);
    unloadCompaction();
  };
}

initSync({ module: wasmBytes });
initSync({ module: compiled });
// @ts-expect-error a string is not wasm bytes
initSync({ module: 'bibgenie_compaction_bg.wasm' });
// @ts-expect-error nor for the loader
loadCompaction({ bindings: { initSync, version }, wasmBytes: 'bibgenie_compaction_bg.wasm' });
