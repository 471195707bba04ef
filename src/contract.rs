//! The TypeScript declarations of the contract's data (API.md), written from the Rust types that
//! define it (ts-rs, a native dev-dependency: nothing here reaches the wasm).
//!
//! `cargo test --lib contract` checks that every declaration is written; with
//! `BIBGENIE_CONTRACT_OUT=<file>` it also writes them there. build.sh runs it into the package's
//! `contract.d.ts` (build/contract.mjs formats it), which the wasm-bindgen declarations re-export
//! (`src/bindings/types.rs`), so the exports' `unchecked_*_type` attributes and the glue name these.
//! Field names are camelCase as serde writes them, `Option` is `| null` and a field serde skips when
//! `None` is `?`. A type whose serde shape is not the contract's carries a `#[ts(type = ...)]`
//! override; the few declarations with no Rust type of their own are [`HAND_WRITTEN`].

use ts_rs::{Config, TS};

use crate::commit::{Carried, CommitRefusal};
use crate::estimate::{Capacity, Draft, Estimate, ModelProfile};
use crate::ledger::{LedgerEntry, LedgerKind, LedgerQuery, ResourceLedger};
use crate::plan::{Breakpoint, CacheProfile, CacheReport, CompactionCost, Plan, SendDecision};
use crate::projection::Projection;
use crate::session::{Basis, Branch, Checkpoint, CitedPage, DisplayOnly, EditTarget, Message, Mode, Node, Problem, RetryTarget, Session, UserWords};
use crate::summarize::{RepairKind, Round, SerializeOptions, SummaryRepair, SummaryRequest, SummaryRequestOptions};
use crate::zotero::ResolvedItem;

/// The declarations no Rust type defines: `ErrorCode` (build/error-codes.mjs writes its union from
/// `src/error.rs`), the checkpoint node (the Rust `Node` reads it apart), the options read field by
/// field, the reason codes written as strings, and what the app implements in JS.
const HAND_WRITTEN: &str = r#"import type { UIMessage } from './ai-types.js';

/** The `code` of every Error the wasm exports throw (written from src/error.rs when the package is built). */
export type ErrorCode = string;
/** What the exports throw: a JS Error with a stable `code`. */
export type CompactionError = Error & { code: ErrorCode };
/** A compaction checkpoint: a node with `checkpoint`; it always has a parent. */
export interface CheckpointNode {
  id: string;
  parentId: string;
  /** ms since the epoch (set by checkpointNode and compact). */
  createdAt?: number;
  checkpoint: Checkpoint;
}
/** What a request carries besides the session: estimated as sent, or a known token count. */
export type Overhead = { system?: string; tools?: unknown } | { tokens: number };
export interface EstimateOptions {
  draft?: Draft;
  overhead?: Overhead;
}
export interface PlanOptions extends EstimateOptions {
  mode: CompactionMode;
  /** The provider's prompt cache (cacheProfile(name) gives documented defaults): the plan reports `cache` and `cost`. */
  cache?: CacheProfile;
  /** Now, in ms since the epoch (Date.now()): the cache state compares it with the baseline's createdAt. */
  now?: number;
}
export interface CacheBreakpointOptions extends EstimateOptions {
  /** maxBreakpoints and minPrefixTokens come from it (default 4 and 1,024). */
  cache?: CacheProfile;
}
export type CacheBreakpoints = { breakpoints: CacheBreakpoint[] };
export type CacheProfileName = 'anthropic-5m' | 'anthropic-1h' | 'bedrock' | 'openai' | 'deepseek' | 'google';
/** Stable reason codes of a plan (src/plan/decision.rs). */
export type PlanReason =
  | 'read-only' | 'leaf-is-checkpoint' | 'nothing-to-compact' | 'workflow-pending' | 'under-threshold'
  | 'boundary-cannot-advance' | 'cannot-free-room' | 'over-threshold' | 'requested' | 'refresh'
  | 'fits' | 'over-limit' | 'too-large' | 'cache-cold';
export type ProblemCode = 'missing-leaf' | 'missing-parent' | 'cycle' | 'duplicate-id' | 'invalid-node' | 'dangling-boundary';
export type ForkRefusal = 'not-found' | 'checkpoint' | 'invalid-node' | 'not-assistant' | 'workflow-pending' | 'read-only';
export type ForkCheck = { ok: true } | { ok: false; reason: ForkRefusal };
export type CommitCheck = { ok: true } | { ok: false; reason: CommitRefusal };

// ---- Implemented in JS: the stores, the abort signal, the summarizer ------------------------
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
  /** Runs fn in one transaction: committed when it resolves, rolled back when it rejects. Never call store methods inside fn (deadlock), use tx. */
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
/** Makes the summary for a request (with a provider's own compaction: its text and the part the checkpoint keeps); the signal aborts when the compaction is cancelled. */
export type Summarize = (request: SummaryRequest, signal: AbortSignalLike) => Promise<string | { summary: string; providerPart: object }> | string;
"#;

/// One declaration: its doc comment and `export type Name = ...;`.
fn declaration<T: TS>(config: &Config) -> String {
    format!("{}export {}\n", T::docs().unwrap_or_default(), T::decl(config))
}

/// The whole contract, as build.sh writes it into the package.
pub fn contract_declarations() -> String {
    let config = Config::default().with_large_int("number");
    let generated = [
        declaration::<Mode>(&config),
        declaration::<Message>(&config),
        declaration::<DisplayOnly>(&config),
        declaration::<Node>(&config),
        declaration::<Basis>(&config),
        declaration::<Checkpoint>(&config),
        declaration::<UserWords>(&config),
        declaration::<CitedPage>(&config),
        declaration::<Carried>(&config),
        declaration::<LedgerKind>(&config),
        declaration::<LedgerEntry>(&config),
        declaration::<ResourceLedger>(&config),
        declaration::<LedgerQuery>(&config),
        declaration::<Session>(&config),
        declaration::<ModelProfile>(&config),
        declaration::<Capacity>(&config),
        declaration::<Draft>(&config),
        declaration::<Estimate>(&config),
        declaration::<CacheProfile>(&config),
        declaration::<CacheReport>(&config),
        declaration::<CompactionCost>(&config),
        declaration::<Breakpoint>(&config),
        declaration::<SendDecision>(&config),
        declaration::<Plan>(&config),
        declaration::<Projection>(&config),
        declaration::<Problem>(&config),
        declaration::<Branch>(&config),
        declaration::<RetryTarget>(&config),
        declaration::<EditTarget>(&config),
        declaration::<CommitRefusal>(&config),
        declaration::<SerializeOptions>(&config),
        declaration::<SummaryRequest>(&config),
        declaration::<RepairKind>(&config),
        declaration::<SummaryRepair>(&config),
        declaration::<ResolvedItem>(&config),
        declaration::<SummaryRequestOptions>(&config),
        declaration::<Round>(&config),
    ];
    format!(
        "// Generated from the Rust types of src/ by src/contract.rs (ts-rs): do not edit.\n{HAND_WRITTEN}\n{}",
        generated.join("\n")
    )
}

#[test]
fn contract() {
    let text = contract_declarations();
    // Every type the exports' `unchecked_*_type` attributes name is declared.
    for name in [
        "Session", "SessionNode", "MessageNode", "CheckpointNode", "ModelProfile", "Plan", "PlanOptions", "Estimate",
        "SummaryRequest", "Projection", "BranchReadResult", "BranchProblem", "RetryTarget", "EditTarget", "ForkCheck",
        "CommitCheck", "CacheBreakpoints", "Capacity", "CacheProfile", "CacheProfileName", "ResourceLedger",
        "LedgerEntry", "LedgerQuery", "SummaryRepair", "ResolvedItem", "SummaryRequestOptions", "SummaryRound", "DisplayOnly",
    ] {
        assert!(text.contains(&format!("export type {name} ")) || text.contains(&format!("export interface {name} ")), "{name} is not declared");
    }
    assert!(!text.contains("bigint"), "a u64 must be a number");
    if let Some(out) = std::env::var_os("BIBGENIE_CONTRACT_OUT") {
        std::fs::write(&out, text).expect("write the contract declarations");
    }
}
