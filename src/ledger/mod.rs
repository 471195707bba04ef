//! The resource ledger: collected from summarized history, merged, rendered, projected within a budget, queried.

mod collect;
mod project;
mod query;
mod render;

pub use collect::{collect, collect_resolved, lookup_tree, merge, Collecting};
pub use project::{PROJECTED_LEDGER_DIVISOR, projected_budget, ProjectedLedger, left_out_line, project_ledger};
pub use query::{LedgerQuery, lookup};
pub use render::{render, render_line};
pub use crate::zotero::{LedgerEntry, LedgerKind, ResourceLedger};
