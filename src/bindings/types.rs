//! The TypeScript declarations of the contract's data (API.md), written once for the whole package.
//!
//! wasm-bindgen puts custom sections at the top of the generated `bibgenie_compaction.d.ts`, so the
//! exports' `unchecked_*_type` attributes, the runner's `Compact*` types and the glue's
//! `js-glue/*.d.ts` (which import from `./bibgenie_compaction.js`) all name these. The shapes follow
//! the serde types of the core (field names camelCase, `Option` as `| null`, skipped-when-`None`
//! fields as `?`). `ai` is a peer dependency: only its types are imported.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const CONTRACT_TYPES: &str = r#"
import type { UIMessage } from 'ai';

// ---- Errors --------------------------------------------------------------------------------

/** The `code` of every Error the wasm exports throw: the union is written from src/error.rs by
 * build/error-codes.mjs when the package is built. */
export type ErrorCode = string;

/** What the exports throw: a JS Error with a stable `code`. */
export type CompactionError = Error & { code: ErrorCode };

// ---- Session data --------------------------------------------------------------------------

export type CompactionMode = 'manual' | 'auto' | 'preflight';

/** A conversational node: an AI SDK UIMessage plus its parent. `checkpoint` is never set on it. */
export type MessageNode = UIMessage & { parentId: string | null; createdAt?: number; checkpoint?: never };

/** A compaction checkpoint: a node with `checkpoint`; it always has a parent. */
export interface CheckpointNode {
  id: string;
  parentId: string;
  /** ms since the epoch (set by checkpointNode and compact). */
  createdAt?: number;
  checkpoint: Checkpoint;
}

/** A durable node of the session tree: a checkpoint iff it has `checkpoint`. */
export type SessionNode = MessageNode | CheckpointNode;

/** The branch state a plan or summary was made from. */
export interface Basis {
  leafId: string;
  branchRevision: number;
}

export interface Checkpoint {
  /** The structured research checkpoint (eight sections). */
  summary: string;
  /** First message kept verbatim; null = no verbatim tail. */
  firstKeptMessageId: string | null;
  /** The checkpoint this one folded in. */
  previousCheckpointId: string | null;
  mode: CompactionMode;
  /** Projected context before, as estimated. */
  tokensBefore: number;
  /** Projected context after, as estimated. */
  tokensAfter: number;
  ledger: ResourceLedger;
  basis: Basis;
  /**
   * Most tokens of ledger lines shown beside the summary, fixed from the model when the checkpoint
   * was made (a quarter of the summary budget: 212 on 8k, 2,056 from 128k up). Absent in older
   * checkpoints: an eighth of the summary's estimate then.
   */
  ledgerBudget?: number;
  /** The user's messages summarized so far, oldest first, carried by code (absent: none, or an older checkpoint). */
  userWords?: UserWords[];
  /** Most tokens of the user's words shown beside the summary, fixed from the model (326 on 8k, 3,276 from 128k up). */
  userWordsBudget?: number;
  /** Sentences naming a ledger key with a page or locator, oldest first, carried by code. */
  citedPages?: CitedPage[];
  /** Most tokens of cited pages shown beside the summary, fixed from the model (163 on 8k, 1,638 from 128k up). */
  citedPagesBudget?: number;
  /**
   * The summary's budget when the checkpoint was made: what the summary leaves of it is shown as more
   * of the user's words and cited pages (still within `tokensAfter`). Absent in older checkpoints.
   */
  summaryBudget?: number;
}

/** One user message's own text (pasted material over 800 characters excerpted). */
export interface UserWords {
  /** The message's node id. */
  id: string;
  text: string;
}

/** A sentence of the assistant or of a tool result naming a ledger key with a page or locator. */
export interface CitedPage {
  key: string;
  /** As written: "p. 14", "S. 22–24", "第14页". */
  locator: string;
  text: string;
  /** The message's node id. */
  id: string;
}

/** What a summary request carried by code for its checkpoint besides the ledger (`checkpointNode`'s last argument). */
export interface CarriedRegisters {
  userWords?: UserWords[];
  citedPages?: CitedPage[];
}

export type LedgerKind = 'item' | 'attachment' | 'annotation' | 'collection' | 'tag' | 'location';

/** One Zotero locator seen in summarized history (src/ledger/). */
export interface LedgerEntry {
  kind: LedgerKind;
  /** Zotero key; the tag name for tags; `<attachmentKey>#<locator>` for locations. */
  key: string;
  /** Latest known title, citation, annotation text or name. */
  label?: string;
  parentKey?: string;
  /** Kind-specific detail: item type, content type, page label, CFI, tag type. */
  detail?: string;
}

/** Every Zotero locator of the summarized history, unique by (kind, key), sorted. */
export interface ResourceLedger {
  entries: LedgerEntry[];
}

/**
 * `{ nodes, leafId, branchRevision }`. `leafId` is null only for a session without nodes yet
 * (what a store's createSession gives); every operation treats it as an empty branch.
 */
export interface Session {
  nodes: SessionNode[];
  leafId: string | null;
  branchRevision: number;
}

export interface ModelProfile {
  id?: string;
  /** Tokens. */
  contextWindow: number;
  /** The model's own output cap. */
  maxOutputTokens?: number;
  /** The provider sends earlier reasoning back (default false). */
  replaysReasoning?: boolean;
  /** Override of the fixed image cost. */
  imageTokens?: number;
}

// ---- Capacity, estimate, plan --------------------------------------------------------------

export interface Capacity {
  contextWindow: number;
  reservedTokens: number;
  /** contextWindow - reservedTokens. */
  safeInputLimit: number;
  autoCompactAt: number;
  tailBudget: number;
  summaryMaxOutputTokens: number;
}

/** What a request carries besides the session: estimated as sent, or a known token count. */
export type Overhead = { system?: string; tools?: unknown } | { tokens: number };

/** The message about to be sent: its text, or a UIMessage (`id` and `role` optional, role defaults to 'user'). */
export type Draft = string | (Omit<UIMessage, 'id' | 'role'> & { id?: string; role?: UIMessage['role'] });

export interface EstimateOptions {
  draft?: Draft;
  overhead?: Overhead;
}

export interface Estimate {
  tokens: number;
  /** 'usage': a provider baseline plus estimates after it; 'estimate': no valid baseline. */
  source: 'usage' | 'estimate';
  baselineMessageId: string | null;
  baselineTokens: number;
  estimatedTokens: number;
  safeInputLimit: number;
  fits: boolean;
}

export interface PlanOptions extends EstimateOptions {
  mode: CompactionMode;
  /** The provider's prompt cache (cacheProfile(name) gives documented defaults): the plan reports `cache` and `cost`. */
  cache?: CacheProfile;
  /** Now, in ms since the epoch (Date.now()): the cache state compares it with the baseline's createdAt. */
  now?: number;
}

/** A provider's prompt cache (src/plan/cache.rs; docs/prompt-cache.md). Prices per million tokens. */
export interface CacheProfile {
  provider?: string;
  inputPrice: number;
  /** Defaults to inputPrice. */
  cacheWritePrice?: number;
  /** Defaults to inputPrice. */
  cacheReadPrice?: number;
  /** Defaults to 0. */
  outputPrice?: number;
  /** How long an unused entry lives, ms. */
  lifetimeMs: number;
  /** Shortest prefix cached (default 1,024). */
  minPrefixTokens?: number;
  /** Explicit breakpoints taken (default 4; 0 for an implicit cache). */
  maxBreakpoints?: number;
}

export type CacheProfileName = 'anthropic-5m' | 'anthropic-1h' | 'bedrock' | 'openai' | 'deepseek' | 'google';

/** `Plan.cache`: warm / cold from the baseline response's createdAt and the profile's lifetime. */
export interface CacheReport {
  state: 'warm' | 'cold' | 'unknown';
  idleMs: number | null;
  /** cacheReadTokens + cacheWriteTokens of the baseline. */
  cachedPrefixTokens: number;
  baselineMessageId: string | null;
}

/** `Plan.cost` of a compacting plan with a cache profile; costs in the profile's currency. */
export interface CompactionCost {
  tokensBefore: number;
  tokensAfter: number;
  cachedPrefixInvalidated: number;
  nextRequestWithout?: number;
  nextRequestWith?: number;
  summaryRequest?: number;
}

export interface CacheBreakpointOptions extends EstimateOptions {
  /** maxBreakpoints and minPrefixTokens come from it (default 4 and 1,024). */
  cache?: CacheProfile;
}

export interface CacheBreakpoint {
  /** Index in the request: the projection's messages, then the draft. */
  index: number;
  messageId: string | null;
  reason: 'summary' | 'previous-request' | 'newest';
  prefixTokens: number;
}

export interface CacheBreakpoints {
  breakpoints: CacheBreakpoint[];
}

/** Stable reason codes of a plan (src/plan/decision.rs). */
export type PlanReason =
  | 'read-only' | 'leaf-is-checkpoint' | 'nothing-to-compact' | 'workflow-pending' | 'under-threshold'
  | 'boundary-cannot-advance' | 'cannot-free-room' | 'over-threshold' | 'requested' | 'refresh'
  | 'fits' | 'over-limit' | 'too-large' | 'cache-cold';

export type SendDecision = 'now' | 'after-compaction' | 'too-large';

export interface Plan {
  action: 'compact' | 'none';
  reason: PlanReason;
  mode: CompactionMode;
  /** The new boundary (for `none`: the current one). */
  firstKeptMessageId: string | null;
  previousCheckpointId: string | null;
  /** Messages newly folded into the summary, in order. */
  summarizeIds: string[];
  basis: Basis;
  tokensBefore: number;
  /** Summary budget + summary frame (preamble, projected ledger within `ledgerBudget`, registers at their budgets) + kept tail (+ overhead, draft). */
  tokensAfterEstimate: number;
  /** Preflight only. */
  send?: SendDecision;
  /** Compact plans: the projected ledger's budget from the model, which the checkpoint keeps. */
  ledgerBudget?: number;
  /** Compact plans: the user's words' budget from the model, which the checkpoint keeps. */
  userWordsBudget?: number;
  /** Compact plans: the cited pages' budget from the model, which the checkpoint keeps. */
  citedPagesBudget?: number;
  /** With options.cache. */
  cache?: CacheReport;
  /** With options.cache, when the plan compacts. */
  cost?: CompactionCost;
}

// ---- Branch, projection, session operations ------------------------------------------------

/** The model's view: summary message, verbatim tail, newer messages. */
export interface Projection {
  messages: UIMessage[];
  checkpointId: string | null;
  keptFromId: string | null;
}

export type ProblemCode = 'missing-leaf' | 'missing-parent' | 'cycle' | 'duplicate-id' | 'invalid-node' | 'dangling-boundary';

export interface BranchProblem {
  code: ProblemCode;
  nodeId: string | null;
  message: string;
}

/** The active branch, root to leaf; with any problem it is read-only and only the safe part. */
export interface BranchReadResult {
  nodes: SessionNode[];
  readOnly: boolean;
  problems: BranchProblem[];
}

/** retryTarget: the new response becomes a child of `parentId`. */
export interface RetryTarget {
  assistantId: string;
  parentId: string | null;
}

/** editTarget: the edit becomes a sibling of `userId` under `parentId`. */
export interface EditTarget {
  userId: string;
  parentId: string | null;
}

export type ForkRefusal = 'not-found' | 'checkpoint' | 'invalid-node' | 'not-assistant' | 'workflow-pending' | 'read-only';
export type ForkCheck = { ok: true } | { ok: false; reason: ForkRefusal };

export type CommitRefusal = 'leaf-moved' | 'revision-changed' | 'workflow-pending' | 'boundary-off-branch' | 'read-only';
export type CommitCheck = { ok: true } | { ok: false; reason: CommitRefusal };

// ---- Summary ------------------------------------------------------------------------------

export interface SerializeOptions {
  /** Longest tool result, data-* part or unknown part kept whole, in characters. */
  maxToolResultChars?: number;
  /** Longest tool input kept whole, in characters. */
  maxToolInputChars?: number;
}

/** A separate request with no tools; resolve it with the summary text. */
export interface SummaryRequest {
  system: string;
  prompt: string;
  maxOutputTokens: number;
  /** Built by code: every Zotero locator so far (previous ledger merged). */
  ledger: ResourceLedger;
  /** The newly excluded history as serialized text (also inside `prompt`). */
  history: string;
  /** The previous checkpoint's summary, when there is one (also inside `prompt`). */
  previousSummary?: string;
  /** Built by code: the user's words the checkpoint will carry (previous checkpoint's merged). */
  userWords: UserWords[];
  /** Built by code: the cited pages the checkpoint will carry (previous checkpoint's merged). */
  citedPages: CitedPage[];
}

// ---- Stores, signals, summarizer (implemented in JS) ----------------------------------------

export interface StoreTx {
  /** The session as this transaction sees it (its own writes included). */
  load(): Promise<Session>;
  /** Appends a node; its id must be new and its parent (unless null) present. Moves nothing. */
  appendNode(node: SessionNode): Promise<void>;
  /** Moves the leaf; a moved leaf needs a higher branchRevision. */
  setLeaf(leafId: string, branchRevision: number): Promise<void>;
}

/** The contract's SessionStore (MemoryStore, SqliteStore and ZoteroDBStore implement it). */
export interface SessionStore {
  load(sessionId: string): Promise<Session>;
  /**
   * Runs fn in one transaction: committed when it resolves, rolled back when it rejects.
   * Never call store methods inside fn (deadlock), use tx.
   */
  transaction<T>(sessionId: string, fn: (tx: StoreTx) => Promise<T>): Promise<T>;
}

export type AbortListener = (event: { type: 'abort'; target: unknown }) => void;

/** An AbortSignal, or anything shaped like one (Zotero's plugin sandbox has no AbortController). */
export interface AbortSignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener(type: 'abort', listener: AbortListener, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: AbortListener): void;
}

/** Makes the summary for a request; the signal aborts when the compaction is cancelled. */
export type Summarize = (request: SummaryRequest, signal: AbortSignalLike) => Promise<string> | string;
"#;
