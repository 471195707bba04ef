//! Zotero objects inside arbitrary JSON, and the ledger entries that name them.

mod entry;
mod objects;

pub use entry::{ResourceLedger, LedgerKind, LedgerEntry};
pub use objects::{MAX_DEPTH, LABEL_MAX_CHARS, EMBEDDED_JSON_MAX_BYTES, ZoteroKind, ZoteroObject, find, compact, render, render_line, citation};
pub(crate) use entry::upsert;
