//! The resource ledger: every Zotero locator seen in summarized history, built by code, never by the model.
//! Collection walks the summarized messages' tool inputs, tool outputs and `data-*` parts before
//! any truncation, so a huge tool result loses no key; merging folds in the previous checkpoint's
//! ledger. Entries are unique by (kind, key) and sorted by (kind, key), so equal input gives an
//! equal ledger.

use std::borrow::Cow;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::model::{Message, Part};
use crate::zotero;

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

impl ResourceLedger {
    /// Adds `entry`, or updates the entry with its kind and key: the newer label, parent and
    /// detail win where they are known, the older ones stay where the newer entry has none.
    pub fn insert(&mut self, entry: LedgerEntry) {
        let mut by_key = self.take_map();
        upsert(&mut by_key, entry);
        self.entries = by_key.into_values().collect();
    }

    fn take_map(&mut self) -> BTreeMap<(LedgerKind, String), LedgerEntry> {
        let mut by_key = BTreeMap::new();
        for entry in std::mem::take(&mut self.entries) {
            upsert(&mut by_key, entry);
        }
        by_key
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.key.as_str())
    }
}

fn upsert(by_key: &mut BTreeMap<(LedgerKind, String), LedgerEntry>, entry: LedgerEntry) {
    match by_key.get_mut(&(entry.kind, entry.key.clone())) {
        Some(known) => {
            if entry.label.is_some() {
                known.label = entry.label;
            }
            if entry.parent_key.is_some() {
                known.parent_key = entry.parent_key;
            }
            if entry.detail.is_some() {
                known.detail = entry.detail;
            }
        }
        None => {
            by_key.insert((entry.kind, entry.key.clone()), entry);
        }
    }
}

/// Every Zotero locator in `messages` (in order, so a later mention updates an earlier one).
pub fn collect<'a>(messages: impl IntoIterator<Item = &'a Message>) -> ResourceLedger {
    let mut by_key = BTreeMap::new();
    for message in messages {
        for part in &message.parts {
            for value in part_values(part) {
                for object in zotero::find(&value) {
                    upsert(&mut by_key, object.entry);
                }
            }
        }
    }
    ResourceLedger { entries: by_key.into_values().collect() }
}

/// The JSON of a part that may hold Zotero data.
fn part_values(part: &Part) -> Vec<Cow<'_, serde_json::Value>> {
    match part {
        Part::Tool(tool) => tool.input.iter().chain(tool.output.iter()).map(|raw| Cow::Owned(raw.to_value())).collect(),
        Part::Data { data, .. } => vec![Cow::Borrowed(data)],
        Part::Unknown { value, .. } => vec![Cow::Borrowed(value)],
        _ => Vec::new(),
    }
}

/// `previous` updated by `newer`: unique by (kind, key), sorted by (kind, key).
pub fn merge(previous: &ResourceLedger, newer: &ResourceLedger) -> ResourceLedger {
    let mut by_key = BTreeMap::new();
    for entry in previous.entries.iter().chain(newer.entries.iter()) {
        upsert(&mut by_key, entry.clone());
    }
    ResourceLedger { entries: by_key.into_values().collect() }
}

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
    out.push('\n');
}
