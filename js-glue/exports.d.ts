// Types of exports.js, the export list of both entries.
export type {
  AbortListener, AbortSignalLike, Basis, BranchProblem, BranchReadResult, CacheBreakpoint,
  CacheBreakpointOptions, CacheBreakpoints, CacheProfile, CacheProfileName, CacheReport, Capacity,
  CarriedRegisters, Checkpoint, CheckpointNode, CitedPage, CommitCheck, CommitRefusal, CompactionCost,
  CompactionError, CompactionMode, Draft, EditTarget, ErrorCode, Estimate, EstimateOptions, ForkCheck,
  ForkRefusal, InitInput, InitOutput, LedgerEntry, LedgerKind, LedgerQuery, MessageNode, ModelProfile,
  Overhead, Plan, PlanOptions, PlanReason, ProblemCode, Projection, ResourceLedger, RetryTarget, SendDecision,
  SerializeOptions, Session, SessionNode, SessionStore, StoreTx, Summarize, SummaryRequest, SyncInitInput,
  UserWords, WasmBytes, WasmMemory, WasmModule, WasmTable,
} from './bibgenie_compaction.js';
export {
  initSync, version, capacity, estimate, estimateMessage, plan, cacheBreakpoints, cacheProfile, serialize, summaryRequest,
  extractiveSummary, validateSummary, checkCommit, checkpointNode, lookupLedger, retryTarget, editTarget, canFork,
} from './bibgenie_compaction.js';
export * from './glue.js';
export * from './compaction/controller.js';
export * from './chat/transport.js';
