// The public type names of both entries (index.d.ts, slim.d.ts), one line per module: the contract's
// (generated from the Rust types into contract.d.ts, re-exported by the wasm module's declarations)
// and the glue's (emitted from the JSDoc of each .js, or still written by hand in a .d.ts).
import './session/dispose.js';
export type {
  AbortListener, AbortSignalLike, Basis, BranchProblem, BranchReadResult, CacheBreakpoint,
  CacheBreakpointOptions, CacheBreakpoints, CacheProfile, CacheProfileName, CacheReport, Capacity,
  CarriedRegisters, Checkpoint, CheckpointNode, CitedPage, CommitCheck, CommitRefusal, CompactionCost,
  CompactionError, CompactionMode, DisplayOnly, Draft, EditTarget, ErrorCode, Estimate, EstimateOptions, ForkCheck,
  ForkRefusal, InitInput, InitOutput, LedgerEntry, LedgerKind, LedgerQuery, MessageNode, ModelProfile,
  Overhead, Plan, PlanOptions, PlanReason, ProblemCode, Projection, ResolvedItem, ResourceLedger, RetryTarget, SendDecision,
  SerializeOptions, Session, SessionNode, SessionStore, StoreTx, Summarize, SummaryRepair, SummaryRequest, SummaryRequestOptions, SyncInitInput,
  UserWords, WasmBytes, WasmMemory, WasmModule, WasmTable,
} from './bibgenie_compaction.js';
export type {
  SessionHead, StoreErrorCode, SessionInfo, SessionInfoInput, AppendExpectation, StoreError, StoreInTransaction,
} from './stores/base.js';
export type { SqliteDatabaseLike, SqliteStoreOptions } from './stores/sqlite-store.js';
export type { CompactOptions, CompactStatus, CompactOutcome } from './compaction/runner.js';
export type { ResolveItem } from './compaction/resolve-items.js';
export type { ZoteroDBConnectionLike, ZoteroDBStoreOptions } from './stores/zotero-db-store.js';
export type {
  CompactionState, SubmitResult, ControllerAction, SubmitOptions, CompactionControllerOptions,
} from './compaction/controller-types.js';
export type {
  TurnRequest, UIMessageStreamSource, ChatTurnOptions, CompactionChatTransportOptions, CreateChatOptions, TurnError,
} from './chat/turn-types.js';
export type { BeginTurnOptions, TurnResponse } from './chat/chat-turn.js';
export type { AbortSignalLikeController } from './util/abort-signal.js';
export type { WasmSource, LoadCompactionOptions } from './zotero/loader.js';
export type { WindowGlobals } from './zotero/window-globals.js';
export type {
  SummaryRequestLike, AiSdkSummarize, AiSdkSummaryCall, AiSdkSummarizerOptions, AbortControllerLike, RecordedUsage,
} from './chat/ai-sdk.js';
export type { CacheProvider, MarkableModelMessage, CacheStepMarks, PromptCacheCallOptions } from './chat/prompt-cache.js';
