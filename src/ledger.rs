//! The resource ledger: every Zotero locator seen in summarized history, built by code, never by the model.
//! (Types here; collection and merging live beside them.)

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceLedger {
    #[serde(default)]
    pub entries: Vec<LedgerEntry>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LedgerKind {
    Item,
    Attachment,
    Annotation,
    Collection,
    Tag,
    /// A reader location (PDF page or EPUB position) inside an attachment.
    Location,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LedgerEntry {
    pub kind: LedgerKind,
    /// Zotero key; the tag name for tags; for locations `<attachmentKey>#<locator>`.
    pub key: String,
    /// Latest known title, citation, annotation text or name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_key: Option<String>,
    /// Kind-specific detail: item type, content type, page label, CFI, tag type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl LedgerKind {
    pub fn as_str(self) -> &'static str {
        match self {
            LedgerKind::Item => "item",
            LedgerKind::Attachment => "attachment",
            LedgerKind::Annotation => "annotation",
            LedgerKind::Collection => "collection",
            LedgerKind::Tag => "tag",
            LedgerKind::Location => "location",
        }
    }
}

/// One line per entry, for the projected summary message and the summarizer's material.
pub fn render(ledger: &ResourceLedger) -> String {
    let mut out = String::new();
    for entry in &ledger.entries {
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
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out
}
