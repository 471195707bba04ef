//! References to Zotero items that real plugins write instead of Zotero's own JSON: `zotero://` links
//! (in JSON strings, markdown and plain text), `{ libraryID, key }` pairs, and numeric item ids
//! (`itemId`, `itemID`, `contextItemId`) that only the app can turn into keys (`resolveItem`).
//!
//! Links: `zotero://select/library/items/KEY`, `zotero://select/groups/GROUPID/items/KEY`,
//! `zotero://select/items/LIBRARYID_KEY`, and the same paths after `open-pdf` or `open`, with
//! `?page=N` and `annotation=KEY`. A key is exactly eight characters of Zotero's alphabet; anything
//! longer, another scheme, or `zotero://` glued to a word is not a link.

use std::ops::Range;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::entry::{LedgerEntry, LedgerKind};
use super::objects::{embedded_json, entry, MAX_DEPTH};

/// Letters of a Zotero key (no 0, 1, O).
pub const KEY_ALPHABET: &str = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ";
/// Fields that hold an app's numeric item id.
pub const ITEM_ID_FIELDS: [&str; 4] = ["itemId", "itemID", "contextItemId", "contextItemID"];
/// Most unresolved item ids one summary request lists (and so the most `resolveItem` calls per
/// compaction): a bound on the app's work, far above what a folded range names.
pub const MAX_ITEM_IDS: usize = 1_000;
/// Longest page value of a link kept (`page=xiv`, `page=12`); longer is not a page.
const MAX_PAGE_CHARS: usize = 16;
const SCHEME: &str = "zotero://";

/// What the app's `resolveItem(itemID)` answered: the item's library and key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
pub struct ResolvedItem {
    #[serde(rename = "libraryID")]
    pub library_id: u64,
    pub key: String,
}

/// Numeric item ids resolved by the app, by id. A list, not a map: a folded range names a few ids,
/// and a `BTreeMap` of its own would add kilobytes to the wasm.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ResolvedItems(Vec<(u64, ResolvedItem)>);

impl ResolvedItems {
    pub fn new() -> ResolvedItems {
        ResolvedItems::default()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds or replaces the item of `id`.
    pub fn insert(&mut self, id: u64, item: ResolvedItem) {
        match self.0.iter_mut().find(|(known, _)| *known == id) {
            Some(entry) => entry.1 = item,
            None => self.0.push((id, item)),
        }
    }

    pub fn get(&self, id: &u64) -> Option<&ResolvedItem> {
        self.0.iter().find(|(known, _)| known == id).map(|(_, item)| item)
    }
}

impl<const N: usize> From<[(u64, ResolvedItem); N]> for ResolvedItems {
    fn from(items: [(u64, ResolvedItem); N]) -> ResolvedItems {
        let mut resolved = ResolvedItems::new();
        for (id, item) in items {
            resolved.insert(id, item);
        }
        resolved
    }
}

/// Whether `text` is a Zotero key: exactly eight letters of [`KEY_ALPHABET`].
#[inline(never)] // called from six places: one copy
pub fn is_zotero_key(text: &str) -> bool {
    text.len() == 8 && text.bytes().all(|b| KEY_ALPHABET.as_bytes().contains(&b))
}

/// The key-shaped words of `text`, split at every byte that is no ASCII letter or digit: the bytes of
/// a non-ASCII character never are, so the words are those of a split by characters.
pub fn key_words(text: &str) -> impl Iterator<Item = &str> {
    text.as_bytes()
        .split(|b| !b.is_ascii_alphanumeric())
        .filter(|word| word.len() == 8)
        .filter_map(|word| std::str::from_utf8(word).ok())
        .filter(|word| is_zotero_key(word))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LinkAction {
    /// `zotero://select/...`: an item shown in the library.
    Select,
    /// `zotero://open-pdf/...` or `zotero://open/...`: an attachment opened in the reader.
    Open,
}

/// One `zotero://` link found in text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ZoteroLink {
    pub action: LinkAction,
    pub key: String,
    pub group_id: Option<u64>,
    pub library_id: Option<u64>,
    /// The `page` parameter as written (a number or a page label).
    pub page: Option<String>,
    /// The `annotation` parameter, a key.
    pub annotation: Option<String>,
    /// Where the link is in the text (bytes).
    pub range: Range<usize>,
}

impl ZoteroLink {
    /// The ledger entries the link names: the item it selects, or the attachment it opens and the
    /// annotation it points at. No label or detail: the object's own JSON, when seen, adds them.
    pub fn entries(&self) -> Vec<LedgerEntry> {
        let kind = match self.action {
            LinkAction::Select => LedgerKind::Item,
            LinkAction::Open => LedgerKind::Attachment,
        };
        let mut entries = vec![self.located(entry(kind, &self.key, None, None, None))];
        if let Some(annotation) = &self.annotation {
            entries.push(self.located(entry(LedgerKind::Annotation, annotation, None, Some(&self.key), None)));
        }
        entries
    }

    fn located(&self, mut entry: LedgerEntry) -> LedgerEntry {
        entry.group_id = self.group_id;
        entry.library_id = self.library_id;
        entry
    }
}

/// Every `zotero://` link in `text`, in order.
pub fn find_links(text: &str) -> Vec<ZoteroLink> {
    let mut links = Vec::new();
    let mut from = 0;
    while let Some(at) = text[from..].find(SCHEME) {
        let start = from + at;
        from = start + SCHEME.len();
        // `xzotero://` is another scheme (scheme characters are letters, digits, `+`, `-`, `.`).
        if text[..start].chars().next_back().is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) {
            continue;
        }
        if let Some(link) = parse_link(text, start) {
            from = link.range.end;
            links.push(link);
        }
    }
    links
}

fn digits_prefix(text: &str) -> Option<(u64, &str)> {
    let count = text.bytes().take_while(u8::is_ascii_digit).count();
    if count == 0 || count > 15 {
        return None;
    }
    Some((text[..count].parse().ok()?, &text[count..]))
}

fn parse_link(text: &str, start: usize) -> Option<ZoteroLink> {
    let rest = &text[start + SCHEME.len()..];
    let (action, rest) = [("select/", LinkAction::Select), ("open-pdf/", LinkAction::Open), ("open/", LinkAction::Open)]
        .into_iter()
        .find_map(|(prefix, action)| rest.strip_prefix(prefix).map(|r| (action, r)))?;
    let (group_id, library_id, rest) = if let Some(r) = rest.strip_prefix("library/items/") {
        (None, None, r)
    } else if let Some(r) = rest.strip_prefix("groups/") {
        let (group, r) = digits_prefix(r)?;
        (Some(group), None, r.strip_prefix("/items/")?)
    } else if let Some(r) = rest.strip_prefix("items/") {
        // Zotero 5's form: `<libraryID>_<key>`.
        let (library, r) = digits_prefix(r)?;
        (None, Some(library), r.strip_prefix('_')?)
    } else {
        return None;
    };
    let key = rest.get(..8).filter(|k| is_zotero_key(k))?;
    let after = &rest[8..];
    // A ninth letter or digit: the key is part of a longer word.
    if after.chars().next().is_some_and(char::is_alphanumeric) {
        return None;
    }
    let mut end = text.len() - after.len();
    let (mut page, mut annotation) = (None, None);
    if let Some(query) = after.strip_prefix('?') {
        let length = query.find(|c: char| c.is_whitespace() || matches!(c, ')' | ']' | '"' | '\'' | '<' | '>' | '`' | '}')).unwrap_or(query.len());
        end += 1 + length;
        // `&amp;` where the link was written into HTML; trailing punctuation belongs to the sentence.
        for parameter in query[..length].trim_end_matches(['.', ',', ';', ':', '!']).split('&') {
            let parameter = parameter.strip_prefix("amp;").unwrap_or(parameter);
            match parameter.split_once('=') {
                Some(("page", value)) if !value.is_empty() && value.len() <= MAX_PAGE_CHARS && value.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') => {
                    page = Some(value.to_string());
                }
                Some(("annotation", value)) if is_zotero_key(value) => annotation = Some(value.to_string()),
                _ => {}
            }
        }
    }
    Some(ZoteroLink { action, key: key.to_string(), group_id, library_id, page, annotation, range: start..end })
}

/// A numeric item id: a positive JSON integer, or a string of digits.
pub fn item_id(value: &Value) -> Option<u64> {
    match value {
        Value::Number(n) => n.as_u64().filter(|id| *id > 0),
        Value::String(text) => digits_prefix(text.trim()).filter(|(id, rest)| rest.is_empty() && *id > 0).map(|(id, _)| id),
        _ => None,
    }
}

/// The numeric item id of an object (the first of [`ITEM_ID_FIELDS`] it has).
pub fn item_id_of(map: &Map<String, Value>) -> Option<u64> {
    ITEM_ID_FIELDS.iter().find_map(|name| map.get(*name).and_then(item_id))
}

/// What [`find_refs`] found: ledger entries, and the item ids `resolved` did not know (unique, in
/// order, at most [`MAX_ITEM_IDS`]).
#[derive(Debug, Clone, Default)]
pub struct Refs {
    pub entries: Vec<LedgerEntry>,
    /// Keys only a field's name labels (`itemKey`): their kind is a guess, so they add nothing over
    /// an entry of the same key.
    pub named: Vec<LedgerEntry>,
    pub unresolved: Vec<u64>,
}

impl Refs {
    fn item_id(&mut self, id: u64, resolved: &ResolvedItems, label: Option<&str>) {
        match resolved.get(&id).filter(|item| is_zotero_key(&item.key)) {
            Some(item) => {
                let mut found = entry(LedgerKind::Item, &item.key, label, None, None);
                found.library_id = Some(item.library_id);
                self.entries.push(found);
            }
            None if self.unresolved.len() < MAX_ITEM_IDS && !self.unresolved.contains(&id) => self.unresolved.push(id),
            None => {}
        }
    }

    /// The links of `text` (markdown, plain text, a JSON string).
    pub fn text(&mut self, text: &str) {
        if text.contains(SCHEME) {
            self.entries.extend(find_links(text).iter().flat_map(ZoteroLink::entries));
        }
    }

}

/// Rule `labelled-key-is-a-key`: the keys a tool's text labels as keys, as MCP servers print items
/// in markdown ("Item key: `ABCD2345`", "key=ABCD2345", "itemKey ABCD2345"): a word of Zotero's key
/// shape whose previous word is "key" (any case) or ends in "Key". A key-shaped word without that
/// label ("DEADLINE", "ABCD2345" in prose, "keys: ABCD2345") is never taken for a key.
pub fn labelled_keys(text: &str) -> Vec<&str> {
    let mut keys = Vec::new();
    // Most of a tool's text (a PDF's pages) says "key" nowhere: one pass over its bytes, not a split.
    let bytes = text.as_bytes();
    if !(2..bytes.len()).any(|i| bytes[i] | 0x20 == b'y' && bytes[i - 2..i].eq_ignore_ascii_case(b"ke")) {
        return keys;
    }
    let mut previous = "";
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()) {
        if is_zotero_key(word) && (previous.eq_ignore_ascii_case("key") || previous.ends_with("Key")) {
            keys.push(word);
        }
        previous = word;
    }
    keys
}

/// The links, `{ libraryID, key }` pairs and numeric item ids in `value`, JSON in strings included.
pub fn find_refs(value: &Value, resolved: &ResolvedItems, refs: &mut Refs) {
    walk(value, resolved, refs, 0);
}

fn walk(value: &Value, resolved: &ResolvedItems, refs: &mut Refs, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(map) => {
            // A title names the item the object is about, unless the object is Zotero's own JSON
            // (its recognizer labels it: an attachment by its file name).
            let label = (!map.contains_key("itemType")).then(|| map.get("title").and_then(Value::as_str)).flatten();
            if let (Some(library_id), Some(key)) = (map.get("libraryID").and_then(Value::as_u64), map.get("key").and_then(Value::as_str)) {
                if is_zotero_key(key) {
                    let mut found = entry(pair_kind(map), key, label, None, None);
                    found.library_id = Some(library_id);
                    refs.entries.push(found);
                }
            }
            if let Some(id) = item_id_of(map) {
                refs.item_id(id, resolved, label);
            }
            if let Some(link) = attachment_of_item(map) {
                refs.named.push(link);
            }
            // Rule `labelled-key-is-a-key` in JSON: a field named as a key (`itemKey`, `parentKey`,
            // `attachmentKey`: a tool's input names the item it asks about) labels its value.
            for (name, child) in map {
                match child.as_str().filter(|key| is_key_field(name) && is_zotero_key(key)) {
                    Some(key) => refs.named.push(entry(key_field_kind(name), key, None, None, None)),
                    None => walk(child, resolved, refs, depth + 1),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| walk(item, resolved, refs, depth + 1)),
        Value::String(text) => match embedded_json(text) {
            Some(parsed) => walk(&parsed, resolved, refs, depth + 1),
            None => {
                // A tool's text: its links and the keys it labels as keys.
                refs.text(text);
                refs.entries.extend(labelled_keys(text).into_iter().map(|key| entry(LedgerKind::Item, key, None, None, None)));
            }
        },
        _ => {}
    }
}

/// Fields that name an attachment by its key.
const ATTACHMENT_KEY_FIELDS: [&str; 2] = ["attachmentKey", "attachmentItemKey"];

/// Rule `an-attachment-names-its-item`: an object that names an attachment beside its item says
/// which item the attachment belongs to, so a page an annotation of that attachment gives is cited
/// by the item (`registers::collect`'s `citable_key`). Two shapes: a Web API item's
/// `links.attachment.href` (`…/items/<attachment key>`, its best attachment), and a tool's object
/// with an attachment key field and an item key field (`{ itemKey, attachmentKey, content }`).
/// Zotero's own JSON of an attachment says it by its `parentItem`, which its recognizer reads.
fn attachment_of_item(map: &Map<String, Value>) -> Option<LedgerEntry> {
    let key = |names: &[&str]| names.iter().find_map(|name| map.get(*name).and_then(Value::as_str).filter(|k| is_zotero_key(k)));
    let (attachment, item, detail) = match map.get("links").and_then(|links| links.get("attachment")) {
        Some(link) if map.contains_key("data") => {
            let (path, attachment) = link.get("href").and_then(Value::as_str)?.rsplit_once('/')?;
            if !path.ends_with("/items") {
                return None;
            }
            (attachment, key(&["key"])?, link.get("attachmentType").and_then(Value::as_str))
        }
        _ if map.contains_key("itemType") => return None,
        _ => (key(&ATTACHMENT_KEY_FIELDS)?, key(&["itemKey", "parentItem", "parentKey", "parentItemKey"])?, None),
    };
    (is_zotero_key(attachment) && attachment != item).then(|| entry(LedgerKind::Attachment, attachment, None, Some(item), detail))
}

/// A field named as a key (`itemKey`, `parentKey`, `attachmentKey`): its value is one. The ledger's
/// lookup tree keeps every such field, so both ask this.
pub fn is_key_field(name: &str) -> bool {
    name.ends_with("Key")
}

/// The kind of the object a key field names: `attachmentKey` an attachment, `collectionKey` a
/// collection, any other an item.
fn key_field_kind(name: &str) -> LedgerKind {
    match name {
        _ if ATTACHMENT_KEY_FIELDS.contains(&name) => LedgerKind::Attachment,
        "collectionKey" | "parentCollectionKey" => LedgerKind::Collection,
        _ => LedgerKind::Item,
    }
}

/// The kind of a `{ libraryID, key }` object: Zotero's JSON says it, else an item.
fn pair_kind(map: &Map<String, Value>) -> LedgerKind {
    match map.get("itemType").and_then(Value::as_str) {
        Some("attachment") => LedgerKind::Attachment,
        Some("annotation") => LedgerKind::Annotation,
        _ if map.contains_key("parentCollection") => LedgerKind::Collection,
        _ => LedgerKind::Item,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn one(text: &str) -> Option<ZoteroLink> {
        let links = find_links(text);
        assert!(links.len() <= 1, "{text}: {links:?}");
        links.into_iter().next()
    }

    #[test]
    fn select_links() {
        let link = one("see zotero://select/library/items/ABCD2345 there").unwrap();
        assert_eq!((link.action, link.key.as_str(), link.group_id, link.page), (LinkAction::Select, "ABCD2345", None, None));
        assert_eq!(&"see zotero://select/library/items/ABCD2345 there"[link.range], "zotero://select/library/items/ABCD2345");
        let group = one("[Paper](zotero://select/groups/4711/items/WXYZ2345)").unwrap();
        assert_eq!((group.key.as_str(), group.group_id), ("WXYZ2345", Some(4711)));
        let old = one("zotero://select/items/3_QRST6789").unwrap();
        assert_eq!((old.key.as_str(), old.library_id), ("QRST6789", Some(3)));
    }

    #[test]
    fn open_pdf_links() {
        let link = one("\"Quoted.\" ([p. 7](zotero://open-pdf/library/items/ABCD2345?page=7))").unwrap();
        assert_eq!((link.action, link.key.as_str(), link.page.as_deref()), (LinkAction::Open, "ABCD2345", Some("7")));
        let group = one("zotero://open-pdf/groups/12/items/ABCD2345?page=xiv&annotation=HJKL6789.").unwrap();
        assert_eq!((group.group_id, group.page.as_deref(), group.annotation.as_deref()), (Some(12), Some("xiv"), Some("HJKL6789")));
        let html = one("<a href=\"zotero://open-pdf/library/items/ABCD2345?page=3&amp;annotation=HJKL6789\">").unwrap();
        assert_eq!((html.page.as_deref(), html.annotation.as_deref()), (Some("3"), Some("HJKL6789")));
        let open = one("zotero://open/library/items/ABCD2345?page=2").unwrap();
        assert_eq!((open.action, open.page.as_deref()), (LinkAction::Open, Some("2")));
        let entries = group.entries();
        assert_eq!(entries.len(), 2);
        assert_eq!((entries[0].kind, entries[0].group_id), (LedgerKind::Attachment, Some(12)));
        assert_eq!((entries[1].kind, entries[1].key.as_str(), entries[1].parent_key.as_deref()), (LedgerKind::Annotation, "HJKL6789", Some("ABCD2345")));
    }

    #[test]
    fn near_misses_are_not_links() {
        for text in [
            "zotero://select/library/items/ABCD234",          // 7 characters
            "zotero://select/library/items/ABCD23456",        // a longer word
            "zotero://select/library/items/ABCD2345X",        // glued to a word
            "zotero://select/library/items/abcd2345",         // not Zotero's alphabet
            "zotero://select/library/items/ABCD2O45",         // O is not in it
            "https://select/library/items/ABCD2345",          // another scheme
            "xzotero://select/library/items/ABCD2345",        // another scheme, glued
            "zotero:/select/library/items/ABCD2345",          // not a URL
            "zotero://select/groups/items/ABCD2345",          // no group id
            "zotero://attachment/library/items/ABCD2345",     // another action
            "https://www.zotero.org/users/1/items/ABCD2345",  // the web library
            "the key ABCD2345 in prose",
        ] {
            assert_eq!(one(text), None, "{text}");
        }
        // A page that is not one is dropped, the link kept.
        assert_eq!(one("zotero://open-pdf/library/items/ABCD2345?page=&x=1").unwrap().page, None);
        assert_eq!(one("zotero://open-pdf/library/items/ABCD2345?annotation=SHORT").unwrap().annotation, None);
    }

    #[test]
    fn pairs_and_item_ids() {
        let resolved: ResolvedItems = [(123, ResolvedItem { library_id: 1, key: "WXYZ2345".into() })].into();
        let value = json!({
            "results": [
                { "itemId": 123, "title": "Resolved paper" },
                { "itemID": "456" },
                { "contextItemId": 123 },
                { "itemId": 7.5 }, { "itemId": -3 }, { "itemId": true }, { "itemId": "12a" },
                { "libraryID": 2, "key": "QRST6789", "title": "Group paper" },
                { "libraryID": 2, "key": "SHORT" },
                { "libraryID": 1, "key": "MNPQ2345", "itemType": "attachment", "title": "Full Text PDF" }
            ],
            "text": "{\"contextItemID\": 789}",
            "note": "open zotero://select/library/items/ABCD2345 now"
        });
        let mut refs = Refs::default();
        find_refs(&value, &resolved, &mut refs);
        assert_eq!(refs.unresolved, vec![456, 789]);
        let found: Vec<(LedgerKind, &str, Option<&str>, Option<u64>)> =
            refs.entries.iter().map(|e| (e.kind, e.key.as_str(), e.label.as_deref(), e.library_id)).collect();
        assert_eq!(
            found,
            vec![
                (LedgerKind::Item, "ABCD2345", None, None),
                (LedgerKind::Item, "WXYZ2345", Some("Resolved paper"), Some(1)),
                (LedgerKind::Item, "WXYZ2345", None, Some(1)),
                (LedgerKind::Item, "QRST6789", Some("Group paper"), Some(2)),
                (LedgerKind::Attachment, "MNPQ2345", None, Some(1)),
            ]
        );
    }

    #[test]
    fn labelled_keys_in_tool_text() {
        let text = "1. **Nguyen (2019)** Heat and asthma\n   - Item key: `ABCD2345`\n   - key=WXYZ6789; itemKey: QRST6789, item_key \"MNPQ2345\"";
        assert_eq!(labelled_keys(text), vec!["ABCD2345", "WXYZ6789", "QRST6789", "MNPQ2345"]);
        // The label at the very start, in capitals, after text outside ASCII (the pass over bytes).
        for labelled in ["Key ABCD2345", "KEY: ABCD2345", "Schlüssel für Élodie — parentKey ABCD2345"] {
            assert_eq!(labelled_keys(labelled), vec!["ABCD2345"], "{labelled}");
        }
        for prose in ["monkey: ABCD2345", "MONKEY ABCD2345", "the DEADLINE is ABCD2345", "keyword ABCD2345", "keys: ABCD2345", "Item key: ABCD23456", "key ABCD2O45", "keyABCD2345"] {
            assert!(labelled_keys(prose).is_empty(), "{prose}");
        }
        let mut refs = Refs::default();
        find_refs(&json!({ "content": [{ "type": "text", "text": "- Item key: `ABCD2345`" }] }), &ResolvedItems::new(), &mut refs);
        assert_eq!(refs.entries.iter().map(|e| (e.kind, e.key.as_str())).collect::<Vec<_>>(), vec![(LedgerKind::Item, "ABCD2345")]);
    }

    #[test]
    fn resolver_keys_that_are_not_keys_stay_unresolved() {
        let resolved: ResolvedItems = [(5, ResolvedItem { library_id: 1, key: "nope".into() })].into();
        let mut refs = Refs::default();
        find_refs(&json!({ "itemId": 5 }), &resolved, &mut refs);
        assert!(refs.entries.is_empty());
        assert_eq!(refs.unresolved, vec![5]);
    }
}
