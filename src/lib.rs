//! bibgenie-compaction: the context-compaction core of a Zotero research assistant.
//!
//! The folders are the pipeline, each a stage that uses only the stages above it in this list:
//!
//! - `text` (crate-private) and [`error`]: JSON and plain-text helpers, the coded [`Error`];
//! - [`tokens`]: the token scanner (text, payloads, files and images to a conservative count);
//! - [`zotero`]: Zotero objects inside arbitrary JSON and the ledger entries that name them;
//! - [`session`]: the session tree read from JSON text, the active branch, retry / edit / fork;
//! - [`ledger`]: the resource ledger collected from summarized history, rendered and projected;
//! - [`registers`]: the user's words and the cited pages a checkpoint carries by code beside its summary;
//! - [`projection`]: what the model is sent, `summary -> kept tail -> newer messages`;
//! - [`estimate`]: what that costs, against the model's [`capacity`] and the provider's usage;
//! - [`plan`]: when and where to compact, and what the prompt cache makes it cost;
//! - [`summarize`]: what the summarizer sees (serialization, request) and what it must give back;
//! - [`commit`]: whether a finished summary may be committed, and the checkpoint node it becomes;
//! - [`session_index`]: one session held in memory and every stage run on it without re-reading.
//!
//! Each stage folder is a face: private files and a curated `pub use`. The names below are the
//! pipeline's entry points; `bindings` (wasm only) converts at the JS edge and holds no rule.

pub mod error;
pub(crate) mod text;
pub(crate) mod order;

pub mod tokens;
pub mod zotero;
pub mod session;
pub mod ledger;
pub mod registers;
pub mod projection;
pub mod estimate;
pub mod plan;
pub mod summarize;
pub mod commit;
pub mod session_index;

pub use commit::{check_commit, checkpoint_node, CommitRefusal};
pub use error::{Error, ErrorCode, Result};
pub use estimate::{capacity, estimate, estimate_message, Estimate, EstimateOptions, EstimateRequest, ModelProfile};
pub use ledger::{LedgerEntry, LedgerKind, ResourceLedger};
pub use plan::{plan, Plan, PlanAction, PlanOptions, SendDecision};
pub use projection::{project, Projected};
pub use session::{read_branch, Branch, Message, Mode, Node, Part, Session};
pub use session_index::SessionIndex;
pub use summarize::{extractive_summary, summary_request, validate_summary, SummaryRequest};
pub use tokens::estimate_text;

// The TypeScript declarations of the contract's data, written from the types above by a native test
// (`cargo test --lib contract`; build.sh runs it into the package's contract.d.ts).
#[cfg(all(test, not(target_arch = "wasm32")))]
mod contract;

// Public so the browser tests (tests/web/) can call the exports as Rust functions.
#[cfg(target_arch = "wasm32")]
pub mod bindings;
