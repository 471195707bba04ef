//! The resource ledger's entries: one per Zotero object (item, attachment, annotation, note, collection,
//! tag, reader location) a session used, unique by (kind, key) and sorted by (kind, key), so equal input
//! gives an equal ledger.

use std::collections::BTreeMap;

use serde::Serialize;

/// Every Zotero locator of the summarized history, unique by (kind, key), sorted.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct ResourceLedger {
    #[serde(default)]
    pub entries: Vec<LedgerEntry>,
}

/// What kind of Zotero object a ledger entry names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
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

/// One Zotero locator seen in summarized history (`ledger`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(optional_fields))]
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
    /// Zotero's `libraryID`, when a `{ libraryID, key }` pair or the app's `resolveItem` gave it.
    #[serde(default, rename = "libraryID", skip_serializing_if = "Option::is_none")]
    pub library_id: Option<u64>,
    /// The group of a `zotero://…/groups/<groupID>/items/<key>` link (a group library's item).
    #[serde(default, rename = "groupID", skip_serializing_if = "Option::is_none")]
    pub group_id: Option<u64>,
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
    /// Adds `entry`, or updates the entry with its kind and key: the newer label, parent,
    /// detail and library win where they are known, the older ones stay where the newer entry has none.
    pub fn insert(&mut self, entry: LedgerEntry) {
        let mut by_key = Upserts::default();
        for known in std::mem::take(&mut self.entries) {
            by_key.upsert(known);
        }
        by_key.upsert(entry);
        *self = by_key.into_ledger();
    }

    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|e| e.key.as_str())
    }
}

/// Positions by (kind, key): the one B-tree type of the core (`Upserts` and the estimator's
/// `FrameCache` both use it; a B-tree of entries and one of lines would each instantiate the
/// standard library's B-tree code, docs/performance.md, "Where the wasm's bytes go").
pub(crate) type KeyPositions = BTreeMap<(LedgerKind, String), usize>;

/// Ledger entries being merged: unique by (kind, key), in (kind, key) order once done.
#[derive(Debug, Clone, Default)]
pub(crate) struct Upserts {
    by_key: KeyPositions,
    entries: Vec<LedgerEntry>,
}

impl Upserts {
    /// Adds `entry`, or updates the entry with its kind and key: the newer label, parent,
    /// detail and library win where they are known, the older ones stay where the newer entry has none.
    pub(crate) fn upsert(&mut self, entry: LedgerEntry) {
        match self.by_key.get(&(entry.kind, entry.key.clone())) {
            Some(&at) => {
                let known = &mut self.entries[at];
                if entry.label.is_some() {
                    known.label = entry.label;
                }
                if entry.parent_key.is_some() {
                    known.parent_key = entry.parent_key;
                }
                if entry.detail.is_some() {
                    known.detail = entry.detail;
                }
                if entry.library_id.is_some() {
                    known.library_id = entry.library_id;
                }
                if entry.group_id.is_some() {
                    known.group_id = entry.group_id;
                }
            }
            None => {
                self.by_key.insert((entry.kind, entry.key.clone()), self.entries.len());
                self.entries.push(entry);
            }
        }
    }

    /// Adds `entry` when no item, attachment, annotation or collection has its key (a key whose
    /// kind is a guess), or updates the entry of its own kind and key. Looked up by kind: a long
    /// session's tool inputs name thousands of keys.
    pub(crate) fn add_unless_known(&mut self, entry: LedgerEntry) {
        let mut probe = (LedgerKind::Item, entry.key.clone());
        for kind in [LedgerKind::Item, LedgerKind::Attachment, LedgerKind::Annotation, LedgerKind::Collection] {
            probe.0 = kind;
            if kind != entry.kind && self.by_key.contains_key(&probe) {
                return;
            }
        }
        self.upsert(entry);
    }

    /// The entries sorted by (kind, key).
    pub(crate) fn into_ledger(self) -> ResourceLedger {
        let mut entries: Vec<Option<LedgerEntry>> = self.entries.into_iter().map(Some).collect();
        ResourceLedger { entries: self.by_key.into_values().filter_map(|at| entries[at].take()).collect() }
    }
}
