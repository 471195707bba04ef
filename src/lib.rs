//! bibgenie-compaction: the context-compaction core of a Zotero research assistant.
//!
//! Pure modules (no wasm types) hold every rule; `bindings` converts at the wasm edge.

pub mod error;
pub mod json_text;
pub mod ledger;
pub mod model;

#[cfg(target_arch = "wasm32")]
pub mod bindings; // pub so tests/web.rs can call the exports as Rust functions
pub mod projection;
pub mod session_index;
pub mod session_ops;
pub mod tree;
pub mod capacity;
pub mod commit;
pub mod plan;
pub mod tokens;
pub mod zotero;
pub mod serialize;
pub mod prompt;
pub mod summary;
pub mod summary_frame;
pub mod usage;
pub mod estimate;
pub mod boundary;
