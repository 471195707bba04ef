// The package's export list, the same for both entries (index.js and slim.js differ only in how
// they load the wasm), one name per job: the pure session functions, the held session, the
// runner and controller, the stores, the chat turn, and what a Zotero plugin needs.
export {
  initSync, version, capacity, estimateMessage, cacheProfile, serialize, extractiveSummary, validateSummary, checkpointNode, lookupLedger,
} from './bibgenie_compaction.js';
export {
  project, history, readBranch, estimate, plan, cacheBreakpoints, summaryRequest, checkCommit, retryTarget, editTarget, canFork,
} from './session/calls.js';
export { SessionIndex } from './session/session-index.js';
export { compact } from './compaction/runner.js';
export { extractiveSummaryInSlices } from './compaction/extractive-slices.js';
export { CompactionController } from './compaction/controller.js';
export {
  SessionStoreBase, sessionFromMessages, isCheckpoint, MemoryStore, SqliteStore, ZoteroDBStore, SESSION_SCHEMA_VERSION, SESSION_SCHEMA_STATEMENTS,
  sessionSchemaStatements,
} from './stores/index.js';
export { CompactionChatTransport } from './chat/transport.js';
export { createChat } from './chat/create-chat.js';
export { ChatTurn } from './chat/chat-turn.js';
export { createRecall, recallAnswer, recallTool } from './chat/recall.js';
export { createAiSdkSummarizer, usageMetadata, withUsageMetadata } from './chat/ai-sdk.js';
export { applyCacheBreakpoints, cacheStepMarks, promptCacheCallOptions, sessionCacheKey } from './chat/prompt-cache.js';
export { loadCompaction, unloadCompaction } from './zotero/loader.js';
export { WINDOW_GLOBALS, installWindowGlobals } from './zotero/window-globals.js';
export { createAbortSignalLike } from './util/abort-signal.js';
