//! The ledger as text: one line per entry, as the summary message and the summarizer show it.

use crate::zotero::{LedgerEntry, ResourceLedger};

/// One line per entry, for the projected summary message and the summarizer's material.
pub fn render(ledger: &ResourceLedger) -> String {
    let mut out = String::new();
    for entry in &ledger.entries {
        render_line(&mut out, entry);
    }
    out.truncate(out.trim_end().len());
    out
}

/// One entry's line of [`render`], with its line break.
pub fn render_line(out: &mut String, entry: &LedgerEntry) {
    out.push_str("- ");
    out.push_str(entry.kind.as_str());
    out.push(' ');
    out.push_str(&entry.key);
    if let Some(label) = &entry.label {
        out.push_str(": ");
        out.push_str(label);
    }
    if let Some(detail) = &entry.detail {
        out.push_str(" [");
        out.push_str(detail);
        out.push(']');
    }
    if let Some(parent) = &entry.parent_key {
        out.push_str(" (in ");
        out.push_str(parent);
        out.push(')');
    }
    // A group's item is not the user's: the app needs the group to select it.
    if let Some(group) = entry.group_id {
        out.push_str(&format!(" (group {group})"));
    }
    out.push('\n');
}
