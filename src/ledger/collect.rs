//! Collecting the resource ledger: every Zotero locator seen in summarized history, built by code, never
//! by the model. Collection walks the summarized messages' tool inputs, tool outputs and `data-*` parts before
//! any truncation, so a huge tool result loses no key; merging folds in the previous checkpoint's
//! ledger.


use std::borrow::Cow;


use crate::session::{Message, Part};
use crate::zotero::{Refs, ResolvedItems, ResourceLedger, Upserts};
use crate::zotero;
/// Every Zotero locator in `messages` (in order, so a later mention updates an earlier one).
pub fn collect<'a>(messages: impl IntoIterator<Item = &'a Message>) -> ResourceLedger {
    collect_resolved(messages, &ResolvedItems::new()).0
}

/// [`collect`] with the references plugins write (`zotero://` links in text and tool data,
/// `{ libraryID, key }` pairs, numeric item ids `resolved` maps to keys), and the item ids it did not
/// map (unique, in order, at most `zotero::MAX_ITEM_IDS`).
pub fn collect_resolved<'a>(messages: impl IntoIterator<Item = &'a Message>, resolved: &ResolvedItems) -> (ResourceLedger, Vec<u64>) {
    let mut collecting = Collecting::default();
    collecting.feed(messages, resolved);
    collecting.finish()
}

/// [`collect_resolved`] in steps: the messages fed in order, in as many calls as the caller likes
/// (a long fold's summary request, a part per task), give the ledger fed at once.
#[derive(Debug, Clone, Default)]
pub struct Collecting {
    by_key: Upserts,
    refs: Refs,
}

impl Collecting {
    pub fn feed<'a>(&mut self, messages: impl IntoIterator<Item = &'a Message>, resolved: &ResolvedItems) {
        let Collecting { by_key, refs } = self;
        for message in messages {
            for part in &message.parts {
                if let Part::Text { text } = part {
                    refs.text(text);
                }
                for value in part_values(part) {
                    for object in zotero::find(&value) {
                        by_key.upsert(object.entry);
                    }
                    zotero::find_refs(&value, resolved, refs);
                }
                // After the part's objects: a bare reference adds no label over the object's own.
                for entry in refs.entries.drain(..) {
                    by_key.upsert(entry);
                }
                for entry in refs.named.drain(..) {
                    by_key.add_unless_known(entry);
                }
            }
        }
    }

    /// The ledger and the item ids not resolved.
    pub fn finish(self) -> (ResourceLedger, Vec<u64>) {
        (self.by_key.into_ledger(), self.refs.unresolved)
    }
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

/// Every field whose value or presence `zotero::find` and `zotero::find_refs` read (recognition, labels,
/// citations, reader locations, Web API envelopes, `libraryID` and item ids). Keep in step with `zotero/`: `tests/ledger.rs` compares the
/// ledger of [`lookup_tree`] with that of the full tree on every fixture and generated session.
fn is_lookup_field(name: &str) -> bool {
    // A field named as a key labels its value (`zotero::find_refs`).
    if zotero::is_key_field(name) {
        return true;
    }
    // By length first: most keys of tool data are compared with a handful of names, not all of them.
    match name.len() {
        3 => matches!(name, "key" | "tag" | "DOI" | "cfi"),
        4 => matches!(name, "name" | "type" | "note" | "href" | "date" | "data" | "meta"),
        5 => matches!(name, "title" | "value" | "links"),
        6 => matches!(name, "itemId" | "itemID"),
        7 => matches!(name, "subject" | "itemKey" | "library" | "version"),
        8 => matches!(name, "itemType" | "caseName" | "filename" | "lastName" | "numPages" | "creators"),
        9 => matches!(
            name,
            "nameOfAct" | "pageLabel" | "bookTitle" | "blogTitle" | "publisher" | "pageIndex" | "pageCount" | "mediaType"
                | "libraryID"
        ),
        10 => matches!(name, "parentItem" | "forumTitle" | "university" | "repository" | "totalPages" | "spineIndex"),
        11 => matches!(name, "contentType" | "creatorType" | "institution"),
        12 => matches!(name, "websiteTitle" | "sectionIndex"),
        13 => matches!(name, "attachmentKey" | "contextItemId" | "contextItemID"),
        14 => matches!(name, "annotationType" | "annotationText" | "attachmentType"),
        15 => name == "dictionaryTitle",
        16 => matches!(name, "parentCollection" | "publicationTitle" | "proceedingsTitle"),
        17 => matches!(name, "annotationComment" | "attachmentItemKey" | "encyclopediaTitle"),
        18 => name == "annotationPosition",
        19 => name == "annotationPageLabel",
        _ => false,
    }
}

/// A string `zotero::find` parses as JSON (its `embedded_json` frame), one with a `zotero://` link,
/// or one that labels a key (`zotero::labelled_keys`).
fn may_hold_json(text: &str) -> bool {
    text.contains("zotero://") || frames_json(text) || !zotero::labelled_keys(text).is_empty()
}

fn frames_json(text: &str) -> bool {
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
/// are then never parsed for the ledger. A `zotero://` link or an item id field is read too.
fn may_name_a_zotero_object(text: &str) -> bool {
    // `temI`: `itemId`, `itemID`, `contextItemId`; a `{ libraryID, key }` pair has a `key`.
    ["key", "Key", "tag", "zotero:", "temI", "\\u"].iter().any(|needle| text.contains(needle))
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
    let mut by_key = Upserts::default();
    for entry in previous.entries.iter().chain(newer.entries.iter()) {
        by_key.upsert(entry.clone());
    }
    by_key.into_ledger()
}
