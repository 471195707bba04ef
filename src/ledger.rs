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

/// The JSON of a part that may hold Zotero data; tool data as its [`lookup_tree`].
fn part_values(part: &Part) -> Vec<Cow<'_, serde_json::Value>> {
    match part {
        Part::Tool(tool) => tool.input.iter().chain(tool.output.iter()).map(|raw| Cow::Owned(lookup_tree(raw.as_str()))).collect(),
        Part::Data { data, .. } => vec![Cow::Borrowed(data)],
        Part::Unknown { value, .. } => vec![Cow::Borrowed(value)],
        _ => Vec::new(),
    }
}

/// Every field whose value or presence `zotero::find` reads (recognition, labels, citations, reader
/// locations, Web API envelopes). Keep in step with `zotero.rs`: `tests/ledger.rs` compares the
/// ledger of [`lookup_tree`] with that of the full tree on every fixture and generated session.
fn is_lookup_field(name: &str) -> bool {
    // By length first: most keys of tool data are compared with a handful of names, not all of them.
    match name.len() {
        3 => matches!(name, "key" | "tag" | "DOI" | "cfi"),
        4 => matches!(name, "name" | "type" | "note" | "href" | "date" | "data" | "meta"),
        5 => matches!(name, "title" | "value" | "links"),
        7 => matches!(name, "subject" | "itemKey" | "library" | "version"),
        8 => matches!(name, "itemType" | "caseName" | "filename" | "lastName" | "numPages" | "creators"),
        9 => matches!(
            name,
            "nameOfAct" | "pageLabel" | "bookTitle" | "blogTitle" | "publisher" | "pageIndex" | "pageCount" | "mediaType"
        ),
        10 => matches!(name, "parentItem" | "forumTitle" | "university" | "repository" | "totalPages" | "spineIndex"),
        11 => matches!(name, "contentType" | "creatorType" | "institution"),
        12 => matches!(name, "websiteTitle" | "sectionIndex"),
        13 => name == "attachmentKey",
        14 => matches!(name, "annotationType" | "annotationText"),
        15 => name == "dictionaryTitle",
        16 => matches!(name, "parentCollection" | "publicationTitle" | "proceedingsTitle"),
        17 => matches!(name, "annotationComment" | "attachmentItemKey" | "encyclopediaTitle"),
        18 => name == "annotationPosition",
        19 => name == "annotationPageLabel",
        _ => false,
    }
}

/// A string `zotero::find` parses as JSON (its `embedded_json` frame).
fn may_hold_json(text: &str) -> bool {
    let trimmed = text.trim();
    (trimmed.starts_with('{') && trimmed.ends_with('}')) || (trimmed.starts_with('[') && trimmed.ends_with(']'))
}

/// Whether `value` can hold anything `zotero::find` finds, outside a [`is_lookup_field`] field.
fn may_hold_objects(value: &serde_json::Value) -> bool {
    match value {
        serde_json::Value::Object(map) => !map.is_empty(),
        serde_json::Value::Array(items) => !items.is_empty(),
        serde_json::Value::String(text) => may_hold_json(text),
        _ => false,
    }
}

/// The tree of JSON `text` as `zotero::find` sees it, without the cost of the full tree: an object
/// keeps its [`is_lookup_field`] fields and whatever may hold objects (every field when it has a
/// `tag`, whose test reads all its keys); an array keeps what may hold objects. The rest (abstracts,
/// page text, URLs, numbers: the bulk of a tool result) is scanned but never stored. Its ledger equals
/// the full tree's; `null` where the full parse fails (as `RawJson::to_value`).
pub fn lookup_tree(text: &str) -> serde_json::Value {
    use serde::de::DeserializeSeed;
    if !may_name_a_zotero_object(text) {
        return serde_json::Value::Null;
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let tree = LookupTree.deserialize(&mut reader);
    tree.and_then(|tree| reader.end().map(|()| tree)).unwrap_or(serde_json::Value::Null)
}

/// Whether JSON `text` can hold anything `zotero::find` recognizes: every Zotero object it knows
/// has a `key` or `tag` field, and a reader location an `attachmentKey`, `itemKey` (or the like) or
/// an enclosing object with one; JSON inside a string shows its fields as `\"key\"`. A `\u` escape
/// could spell any of them, so text with one is read. Tool results of other tools (web pages, code)
/// are then never parsed for the ledger.
fn may_name_a_zotero_object(text: &str) -> bool {
    ["key", "Key", "tag", "\\u"].iter().any(|needle| text.contains(needle))
}

#[derive(Clone, Copy)]
struct LookupTree;

impl<'de> serde::de::DeserializeSeed<'de> for LookupTree {
    type Value = serde_json::Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<serde_json::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for LookupTree {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<serde_json::Value, E> {
        Ok(b.into())
    }
    fn visit_i64<E>(self, n: i64) -> Result<serde_json::Value, E> {
        Ok(n.into())
    }
    fn visit_u64<E>(self, n: u64) -> Result<serde_json::Value, E> {
        Ok(n.into())
    }
    fn visit_f64<E>(self, n: f64) -> Result<serde_json::Value, E> {
        // As serde_json's own tree: a non-finite number (unreachable from JSON text) is `null`.
        Ok(serde_json::Number::from_f64(n).map_or(serde_json::Value::Null, serde_json::Value::Number))
    }
    fn visit_unit<E>(self) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::Null)
    }
    fn visit_str<E>(self, text: &str) -> Result<serde_json::Value, E> {
        Ok(serde_json::Value::String(text.to_string()))
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<serde_json::Value, A::Error> {
        lookup_items(seq, Scalar::Skipped)
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<serde_json::Value, A::Error> {
        let mut fields: Vec<(std::borrow::Cow<'de, str>, Option<serde_json::Value>)> = Vec::new();
        let mut has_tag = false;
        while let Some(key) = map.next_key_seed(Key)? {
            let lookup = is_lookup_field(&key);
            has_tag |= key == "tag";
            let value = map.next_value_seed(if lookup { Scalar::Kept } else { Scalar::Skipped })?;
            fields.push((key, value));
        }
        // The last of duplicate keys wins, as in the full tree (a dropped value removes an earlier
        // one); with a `tag`, every key counts.
        let mut object = serde_json::Map::new();
        for (key, value) in fields {
            match value {
                Some(value) => {
                    object.insert(key.into_owned(), value);
                }
                None if has_tag => {
                    object.insert(key.into_owned(), serde_json::Value::Null);
                }
                None => {
                    object.remove(&*key);
                }
            }
        }
        Ok(serde_json::Value::Object(object))
    }
}

/// A value inside a container: `Kept` whole, or `Skipped` (`None`) unless it may hold objects.
#[derive(Clone, Copy)]
enum Scalar {
    Kept,
    Skipped,
}

impl<'de> serde::de::DeserializeSeed<'de> for Scalar {
    type Value = Option<serde_json::Value>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Scalar {
    type Value = Option<serde_json::Value>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Self::Value, E> {
        Ok(matches!(self, Scalar::Kept).then(|| b.into()))
    }
    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<Self::Value, E> {
        Ok(matches!(self, Scalar::Kept).then(|| n.into()))
    }
    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<Self::Value, E> {
        Ok(matches!(self, Scalar::Kept).then(|| n.into()))
    }
    fn visit_f64<E: serde::de::Error>(self, n: f64) -> Result<Self::Value, E> {
        Ok(matches!(self, Scalar::Kept).then(|| LookupTree.visit_f64::<E>(n).unwrap_or(serde_json::Value::Null)))
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(matches!(self, Scalar::Kept).then_some(serde_json::Value::Null))
    }
    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok((matches!(self, Scalar::Kept) || may_hold_json(text)).then(|| serde_json::Value::String(text.to_string())))
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        // A kept array keeps every item: `zotero::citation` picks creators by what the others are.
        lookup_items(seq, self).map(|items| (matches!(self, Scalar::Kept) || may_hold_objects(&items)).then_some(items))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        LookupTree.visit_map(map).map(|object| (matches!(self, Scalar::Kept) || may_hold_objects(&object)).then_some(object))
    }
}

/// The items of an array, each read as `item` says (`Skipped`: only those that may hold objects).
fn lookup_items<'de, A: serde::de::SeqAccess<'de>>(mut seq: A, item: Scalar) -> Result<serde_json::Value, A::Error> {
    let mut items = Vec::new();
    while let Some(value) = seq.next_element_seed(item)? {
        items.extend(value);
    }
    Ok(serde_json::Value::Array(items))
}

/// An object key, borrowed from the text when it has no escapes.
struct Key;

impl<'de> serde::de::DeserializeSeed<'de> for Key {
    type Value = std::borrow::Cow<'de, str>;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Key {
    type Value = std::borrow::Cow<'de, str>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an object key")
    }

    fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
        Ok(text.into())
    }
    fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
        Ok(text.to_string().into())
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

// ---------------------------------------------------------------------------------------------
// The projected part of the ledger.

/// Rule `ledger-projection-budget`: the ledger lines projected beside a summary take at most the
/// checkpoint's `ledgerBudget`, fixed from the model's capacity when it was made
/// (`capacity::projected_ledger_budget`: an eighth of the estimate of a summary within its budget,
/// about a quarter of that budget), however short the summary is; the checkpoint keeps the whole
/// ledger and `lookup` reaches the rest.
pub const PROJECTED_LEDGER_DIVISOR: u64 = 8;

/// The older rule, for checkpoints without `ledgerBudget`: an eighth of the summary's own estimate.
pub fn projected_budget(summary: &str) -> u64 {
    crate::tokens::estimate_text(summary.trim()) / PROJECTED_LEDGER_DIVISOR
}

/// The ledger lines a projection shows, and how many it left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectedLedger {
    /// Rendered lines (as `render`), plus a last line saying how many were left out, if any.
    pub text: String,
    pub shown: usize,
    pub left_out: usize,
}

/// The line that stands for the entries left out.
pub fn left_out_line(left_out: usize) -> String {
    format!(
        "- {left_out} more entries are kept in this checkpoint's ledger and not shown here; lookupLedger finds them by key, kind or text."
    )
}

/// Where `summary` last names the entry (its key; for a location, the full locator or its
/// attachment key), as a byte offset.
fn last_mention(summary: &str, entry: &LedgerEntry) -> Option<usize> {
    if entry.key.is_empty() {
        return None;
    }
    let attachment = (entry.kind == LedgerKind::Location).then(|| entry.key.split('#').next()).flatten().filter(|k| !k.is_empty());
    [summary.rfind(entry.key.as_str()), attachment.and_then(|k| summary.rfind(k))].into_iter().flatten().max()
}

/// The summary's lines that report what the user said (`- (user)`, `- (user, key)`, ...), joined.
fn user_lines(summary: &str) -> String {
    summary.lines().filter(|l| l.trim_start().starts_with("- (user")).collect::<Vec<_>>().join("\n")
}

/// Picks the entries shown beside `summary` within `budget` tokens: first those the summary names on
/// a line of the user's (`- (user...`: keys the user designated), then the other entries the summary
/// names, in each group the most recently used first (summaries list findings oldest to newest and end with the latest
/// request, so the later the last mention, the more recent the use; the ledger stores no use time),
/// then the others in ledger order (items, attachments, annotations, collections, tags, locations),
/// each taken while its line fits. Everything is shown when the whole ledger fits the budget plus
/// the left-out line, so the projected part is never larger than the whole ledger.
pub fn project_ledger(ledger: &ResourceLedger, summary: &str, budget: u64) -> ProjectedLedger {
    let whole = render(ledger);
    let note_tokens = crate::tokens::estimate_text(&left_out_line(ledger.entries.len()));
    if crate::tokens::estimate_text(&whole) <= budget.saturating_add(note_tokens) {
        return ProjectedLedger { text: whole, shown: ledger.entries.len(), left_out: 0 };
    }
    let line_tokens = |entry: &LedgerEntry| {
        let mut line = String::new();
        render_line(&mut line, entry);
        crate::tokens::estimate_text(&line)
    };
    let mut chosen = vec![false; ledger.entries.len()];
    let mut used = 0u64;
    let mentions: Vec<Option<usize>> = ledger.entries.iter().map(|e| last_mention(summary, e)).collect();
    let user_lines = user_lines(summary);
    let user_named: Vec<bool> = ledger.entries.iter().map(|e| last_mention(&user_lines, e).is_some()).collect();
    let mut order: Vec<usize> = (0..ledger.entries.len()).collect();
    // Keys on the user's lines, then the other named entries, each by latest mention first; the rest
    // keep ledger order (a stable sort).
    order.sort_by_key(|&i| (std::cmp::Reverse(user_named[i]), std::cmp::Reverse(mentions[i].map(|at| at + 1).unwrap_or(0))));
    for i in order {
        let tokens = line_tokens(&ledger.entries[i]);
        if used.saturating_add(tokens) <= budget {
            used += tokens;
            chosen[i] = true;
        }
    }
    let mut text = String::new();
    let mut shown = 0;
    for (entry, _) in ledger.entries.iter().zip(&chosen).filter(|(_, &c)| c) {
        render_line(&mut text, entry);
        shown += 1;
    }
    let left_out = ledger.entries.len() - shown;
    text.push_str(&left_out_line(left_out));
    ProjectedLedger { text, shown, left_out }
}

// ---------------------------------------------------------------------------------------------
// Lookup (for a tool the app may give the model).

/// What `lookup` matches: any given field must match (key exactly, kind exactly, text as a
/// case-insensitive substring of the key, label, detail or parent key).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LedgerQuery {
    pub key: Option<String>,
    pub kind: Option<LedgerKind>,
    pub text: Option<String>,
    /// Most entries returned; `None` is all.
    pub limit: Option<usize>,
}

impl LedgerQuery {
    /// Reads `{ key?, kind?, text?, limit? }`; anything else is `invalid-options`, naming the field.
    pub fn from_value(value: &serde_json::Value) -> crate::error::Result<LedgerQuery> {
        use crate::error::{Error, ErrorCode};
        let invalid = |message: String| Error::new(ErrorCode::InvalidOptions, message);
        let serde_json::Value::Object(map) = value else {
            return Err(invalid("lookupLedger: query must be an object { key?, kind?, text?, limit? }".into()));
        };
        if let Some(field) = map.keys().find(|k| !["key", "kind", "text", "limit"].contains(&k.as_str())) {
            return Err(invalid(format!("lookupLedger: unknown query field {field:?}")));
        }
        let text_field = |name: &str| -> crate::error::Result<Option<String>> {
            match map.get(name) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
                Some(other) => Err(invalid(format!("lookupLedger: query.{name} must be a string, got {other}"))),
            }
        };
        let kind = match text_field("kind")? {
            None => None,
            Some(kind) => Some(
                serde_json::from_str::<LedgerKind>(&serde_json::Value::String(kind.clone()).to_string())
                    .map_err(|_| invalid(format!("lookupLedger: query.kind {kind:?} is not a ledger kind")))?,
            ),
        };
        let limit = match map.get("limit") {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => Some(
                crate::model::parse_count(v)
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| invalid(format!("lookupLedger: query.limit must be a non-negative integer, got {v}")))?,
            ),
        };
        Ok(LedgerQuery { key: text_field("key")?, kind, text: text_field("text")?, limit })
    }
}

/// Lower case for the scripts of most research titles: ASCII, Latin-1, Greek and Cyrillic capitals
/// map by fixed offsets. Not `str::to_lowercase`: its Unicode tables cost about 8 KB of gzipped wasm,
/// and other scripts (Han, kana) have no case anyway.
fn fold_case(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            'A'..='Z' | '\u{C0}'..='\u{DE}' | '\u{391}'..='\u{3A9}' | '\u{410}'..='\u{42F}' if c != '\u{D7}' => {
                char::from_u32(c as u32 + 0x20).unwrap_or(c)
            }
            '\u{400}'..='\u{40F}' => char::from_u32(c as u32 + 0x50).unwrap_or(c),
            _ => c,
        })
        .collect()
}

/// The entries of `ledger` that match `query`, in ledger order.
pub fn lookup<'a>(ledger: &'a ResourceLedger, query: &LedgerQuery) -> Vec<&'a LedgerEntry> {
    let needle = query.text.as_deref().map(fold_case).filter(|t| !t.trim().is_empty());
    let matches = |entry: &&LedgerEntry| {
        query.key.as_deref().is_none_or(|k| entry.key == k)
            && query.kind.is_none_or(|k| entry.kind == k)
            && needle.as_deref().is_none_or(|needle| {
                [Some(entry.key.as_str()), entry.label.as_deref(), entry.detail.as_deref(), entry.parent_key.as_deref()]
                    .into_iter()
                    .flatten()
                    .any(|field| fold_case(field).contains(needle))
            })
    };
    ledger.entries.iter().filter(matches).take(query.limit.unwrap_or(usize::MAX)).collect()
}
