//! bibgenie-compaction: the context-compaction core of a Zotero research assistant.
//!
//! Pure modules (no wasm types) hold every rule; `bindings` converts at the wasm edge.
//! Data flow: model -> tree -> projection -> estimate -> plan -> prompt -> (summarizer) -> summary -> commit.

pub mod boundary;
pub mod cache;
pub mod capacity;
pub mod commit;
pub mod error;
pub mod estimate;
pub mod json_text;
pub mod ledger;
pub mod model;
pub mod node_text;
pub mod plan;
pub mod projection;
pub mod prompt;
pub mod serialize;
pub mod session_index;
pub mod session_ops;
pub mod summary;
pub mod summary_frame;
pub mod tokens;
pub mod tree;
pub mod usage;
pub mod zotero;

// Public so the browser tests (tests/web/) can call the exports as Rust functions.
#[cfg(target_arch = "wasm32")]
pub mod bindings;
