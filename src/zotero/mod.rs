//! Zotero objects inside arbitrary JSON, and the ledger entries that name them.

mod entry;
mod objects;

pub use entry::{ResourceLedger, LedgerKind, LedgerEntry};
pub use objects::{ZoteroKind, ZoteroObject, find, compact, render, render_line, citation};
pub(crate) use entry::upsert;
