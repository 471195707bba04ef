//! Zotero objects inside arbitrary JSON (tool inputs and outputs, `data-*` parts): recognized by
//! shape wherever they occur, rendered compactly with Zotero's own field names, and turned into
//! ledger entries.
//!
//! Shapes (`Zotero.Item#toJSON()` and the Web API, which wraps the same object in
//! `{ key, version, library, links, meta, data }`):
//! - item: `key` + `itemType`; `attachment`, `annotation` and `note` are item types of their own;
//! - collection: `key` + `name` + `parentCollection` (`false` at the top level);
//! - tag: `{ tag, type? }` (the Web API puts `type` in `meta`);
//! - PDF reader location: `pageIndex` (0-based) with the attachment key (`attachmentKey`,
//!   `attachmentItemKey`, `itemKey`, `key`, or inherited from the enclosing attachment or
//!   object), `pageLabel`, `pageCount` / `numPages`;
//! - EPUB reader location: `cfi` (`epubcfi(...)`) or `href` + `sectionIndex` / `spineIndex`,
//!   with the attachment key found the same way.
//!
//! JSON held in a string (an MCP text result) is parsed and searched too.

use crate::text::{clip, single_line, strip_data_payloads, strip_html};

use std::borrow::Cow;

use serde_json::{Map, Value};

use super::entry::{LedgerEntry, LedgerKind};

/// Deepest nesting searched; deeper values are rendered as they are but not recognized.
pub const MAX_DEPTH: usize = 64;
/// Longest ledger label (title, annotation text) kept, in characters: enough to recognize a
/// paper or a passage, short enough that a ledger of hundreds of entries stays small.
pub const LABEL_MAX_CHARS: usize = 160;
/// Longest embedded JSON string parsed in search of Zotero data (bytes): tool results larger
/// than this are truncated by the serializer anyway, and parsing them twice would cost time.
pub const EMBEDDED_JSON_MAX_BYTES: usize = 4 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ZoteroKind {
    Item,
    Note,
    Attachment,
    Annotation,
    Collection,
    Tag,
    PdfLocation,
    EpubLocation,
}

impl ZoteroKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ZoteroKind::Item => "item",
            ZoteroKind::Note => "note",
            ZoteroKind::Attachment => "attachment",
            ZoteroKind::Annotation => "annotation",
            ZoteroKind::Collection => "collection",
            ZoteroKind::Tag => "tag",
            ZoteroKind::PdfLocation => "pdf-location",
            ZoteroKind::EpubLocation => "epub-location",
        }
    }

    fn is_location(self) -> bool {
        matches!(self, ZoteroKind::PdfLocation | ZoteroKind::EpubLocation)
    }
}

/// One recognized Zotero object.
#[derive(Debug, Clone, PartialEq)]
pub struct ZoteroObject {
    pub kind: ZoteroKind,
    /// What resuming needs, under Zotero's field names, in rendering order.
    pub fields: Vec<(&'static str, Value)>,
    pub entry: LedgerEntry,
}

/// What an enclosing object tells about the objects inside it.
#[derive(Debug, Clone, Default)]
struct Context {
    attachment_key: Option<String>,
    page_count: Option<u64>,
}

/// Fields of a recognized object that are never searched for nested objects: metadata whose
/// inner shapes (item tags, creators, Web API links) are not resources of their own.
const OPAQUE_FIELDS: [&str; 9] =
    ["tags", "creators", "collections", "relations", "links", "library", "meta", "annotationPosition", "data"];

/// Every Zotero object in `value`, in document order.
pub fn find(value: &Value) -> Vec<ZoteroObject> {
    let mut found = Vec::new();
    walk(value, &Context::default(), 0, &mut found);
    found
}

fn walk(value: &Value, context: &Context, depth: usize, found: &mut Vec<ZoteroObject>) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::Object(map) => {
            let data = unwrap_web_api(map);
            if let Some(object) = recognize(data, context) {
                let inner = context_inside(&object, data, context);
                found.push(object);
                for (name, child) in data {
                    if !OPAQUE_FIELDS.contains(&name.as_str()) && (child.is_object() || child.is_array()) {
                        walk(child, &inner, depth + 1, found);
                    }
                }
            } else {
                let inner = context_from_fields(map, context);
                for child in map.values() {
                    walk(child, &inner, depth + 1, found);
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|item| walk(item, context, depth + 1, found)),
        Value::String(text) => {
            if let Some(parsed) = embedded_json(text) {
                walk(&parsed, context, depth + 1, found);
            }
        }
        _ => {}
    }
}

/// `value` with every recognized object reduced to what resuming needs (see `ZoteroObject::fields`),
/// reader locations kept with their other fields (the page text is content), JSON strings holding
/// Zotero data replaced by their reduced form, and `data:` payloads and inline media data dropped.
pub fn compact(value: &Value) -> Value {
    compact_in(value, &Context::default(), 0)
}

fn compact_in(value: &Value, context: &Context, depth: usize) -> Value {
    if depth > MAX_DEPTH {
        return value.clone();
    }
    match value {
        Value::Object(map) => {
            let data = unwrap_web_api(map);
            if let Some(object) = recognize(data, context) {
                let inner = context_inside(&object, data, context);
                let mut reduced = Map::new();
                for (name, field) in &object.fields {
                    reduced.insert((*name).to_string(), field.clone());
                }
                for (name, child) in data {
                    if reduced.contains_key(name) || OPAQUE_FIELDS.contains(&name.as_str()) {
                        continue;
                    }
                    // Locations keep everything (page text); other objects only nested containers
                    // (an item's embedded attachments or annotations).
                    if object.kind.is_location() || child.is_object() || child.is_array() {
                        if !object.kind.is_location() && find_in(child, &inner, depth + 1).is_empty() {
                            continue;
                        }
                        reduced.insert(name.clone(), compact_in(child, &inner, depth + 1));
                    }
                }
                Value::Object(reduced)
            } else {
                let inner = context_from_fields(map, context);
                let media = map.get("mediaType").is_some_and(Value::is_string);
                let mut out = Map::new();
                for (name, child) in map {
                    let compacted = match child {
                        // AI SDK media content (`{ type: 'media', data, mediaType }`): base64, not content.
                        Value::String(data) if media && name == "data" && data.len() > 64 => {
                            Value::String(format!("[{} characters of media data omitted]", data.chars().count()))
                        }
                        _ => compact_in(child, &inner, depth + 1),
                    };
                    out.insert(name.clone(), compacted);
                }
                Value::Object(out)
            }
        }
        Value::Array(items) => Value::Array(items.iter().map(|item| compact_in(item, context, depth + 1)).collect()),
        Value::String(text) => {
            if let Some(parsed) = embedded_json(text) {
                if !find_in(&parsed, context, depth + 1).is_empty() {
                    return compact_in(&parsed, context, depth + 1);
                }
            }
            match strip_data_payloads(text) {
                Cow::Borrowed(_) => value.clone(),
                Cow::Owned(stripped) => Value::String(stripped),
            }
        }
        _ => value.clone(),
    }
}

fn find_in(value: &Value, context: &Context, depth: usize) -> Vec<ZoteroObject> {
    let mut found = Vec::new();
    walk(value, context, depth, &mut found);
    found
}

/// Text for the summarizer: one line per object when `value` is a Zotero object or a list of
/// them (`[item] key=J489T6X3 itemType=journalArticle title="..." citation="..."`), otherwise
/// the compact JSON of `compact(value)`.
pub fn render(value: &Value) -> String {
    if let Some(lines) = render_lines(value, 0) {
        return lines;
    }
    serde_json::to_string(&compact(value)).unwrap_or_default()
}

fn render_lines(value: &Value, depth: usize) -> Option<String> {
    let context = Context::default();
    match value {
        Value::Object(map) => {
            let data = unwrap_web_api(map);
            recognize(data, &context).map(|object| render_line(&object, data))
        }
        Value::Array(items) if !items.is_empty() => {
            let mut lines = Vec::with_capacity(items.len());
            for item in items {
                let map = item.as_object()?;
                let data = unwrap_web_api(map);
                let object = recognize(data, &context)?;
                lines.push(render_line(&object, data));
            }
            Some(lines.join("\n"))
        }
        Value::String(text) if depth == 0 => embedded_json(text).and_then(|parsed| render_lines(&parsed, depth + 1)),
        _ => None,
    }
}

/// `[kind] field=value ...`; a value is quoted as a JSON string when it has spaces or quotes.
pub fn render_line(object: &ZoteroObject, data: &Map<String, Value>) -> String {
    let mut line = format!("[{}]", object.kind.as_str());
    let mut push = |name: &str, value: &Value| {
        line.push(' ');
        line.push_str(name);
        line.push('=');
        line.push_str(&inline_value(value));
    };
    for (name, value) in &object.fields {
        push(name, value);
    }
    if object.kind.is_location() {
        let context = Context::default();
        for (name, value) in data {
            if !object.fields.iter().any(|(field, _)| field == name) && !LOCATION_KEY_FIELDS.contains(&name.as_str()) {
                push(name, &compact_in(value, &context, 1));
            }
        }
    }
    line
}

fn inline_value(value: &Value) -> String {
    match value {
        Value::String(text) => {
            let simple = !text.is_empty()
                && text.chars().all(|c| !c.is_whitespace() && !c.is_control() && c != '"' && c != '\\' && c != '=');
            if simple {
                text.clone()
            } else {
                serde_json::to_string(text).unwrap_or_default()
            }
        }
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// The object inside a Web API envelope (`{ key, version, library, data }`), else the object itself.
fn unwrap_web_api(map: &Map<String, Value>) -> &Map<String, Value> {
    match map.get("data") {
        Some(Value::Object(data))
            if map.get("key").is_some_and(Value::is_string)
                && (map.contains_key("library") || map.contains_key("version") || map.contains_key("links")) =>
        {
            data
        }
        _ => map,
    }
}

fn text<'a>(map: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    map.get(name).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// A Zotero key or other identifier usable as a ledger key: one short line.
fn key_field<'a>(map: &'a Map<String, Value>, name: &str) -> Option<&'a str> {
    text(map, name).filter(|k| k.len() <= 64 && !k.contains(char::is_whitespace))
}

fn index_field(map: &Map<String, Value>, names: &[&str]) -> Option<u64> {
    names.iter().find_map(|name| {
        let value = map.get(*name)?;
        value.as_u64().or_else(|| value.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0 && *f < 1e15).map(|f| f as u64))
    })
}

const LOCATION_KEY_FIELDS: [&str; 4] = ["attachmentKey", "attachmentItemKey", "itemKey", "key"];
const PAGE_COUNT_FIELDS: [&str; 3] = ["pageCount", "numPages", "totalPages"];

fn recognize(map: &Map<String, Value>, context: &Context) -> Option<ZoteroObject> {
    if let (Some(key), Some(item_type)) = (key_field(map, "key"), text(map, "itemType")) {
        return Some(match item_type {
            "attachment" => attachment(map, key),
            "annotation" => annotation(map, key),
            "note" => note(map, key),
            _ => item(map, key, item_type),
        });
    }
    if let (Some(key), Some(name)) = (key_field(map, "key"), text(map, "name")) {
        if map.contains_key("parentCollection") {
            return Some(collection(map, key, name));
        }
    }
    if let Some(tag) = tag(map) {
        return Some(tag);
    }
    location(map, context)
}

fn item(map: &Map<String, Value>, key: &str, item_type: &str) -> ZoteroObject {
    // `title` is the base field; case, statute and email items name it differently.
    let title = ["title", "caseName", "nameOfAct", "subject"].iter().find_map(|name| text(map, name));
    let citation = citation(map);
    let mut fields = vec![("key", str_value(key)), ("itemType", str_value(item_type))];
    push_text(&mut fields, "title", title);
    push_text(&mut fields, "citation", citation.as_deref());
    push_text(&mut fields, "DOI", text(map, "DOI"));
    let detail = match &citation {
        Some(c) => format!("{item_type}; {c}"),
        None => item_type.to_string(),
    };
    let entry = entry(LedgerKind::Item, key, title, None, Some(&detail));
    ZoteroObject { kind: ZoteroKind::Item, fields, entry }
}

fn note(map: &Map<String, Value>, key: &str) -> ZoteroObject {
    let preview = text(map, "note").map(|html| clip(&single_line(&strip_html(html)), LABEL_MAX_CHARS));
    let mut fields = vec![("key", str_value(key)), ("itemType", str_value("note"))];
    push_text(&mut fields, "parentItem", key_field(map, "parentItem"));
    push_text(&mut fields, "note", preview.as_deref());
    let entry = entry(LedgerKind::Item, key, preview.as_deref(), key_field(map, "parentItem"), Some("note"));
    ZoteroObject { kind: ZoteroKind::Note, fields, entry }
}

fn attachment(map: &Map<String, Value>, key: &str) -> ZoteroObject {
    let mut fields = vec![("key", str_value(key))];
    push_text(&mut fields, "parentItem", key_field(map, "parentItem"));
    push_text(&mut fields, "title", text(map, "title"));
    push_text(&mut fields, "filename", text(map, "filename"));
    push_text(&mut fields, "contentType", text(map, "contentType"));
    let label = text(map, "filename").or_else(|| text(map, "title"));
    let entry = entry(LedgerKind::Attachment, key, label, key_field(map, "parentItem"), text(map, "contentType"));
    ZoteroObject { kind: ZoteroKind::Attachment, fields, entry }
}

fn annotation(map: &Map<String, Value>, key: &str) -> ZoteroObject {
    let position = annotation_position(map);
    let page_index = position.as_ref().and_then(|p| index_field(p, &["pageIndex"]));
    let cfi = position.as_ref().and_then(|p| {
        let value = text(p, "value")?;
        value.starts_with("epubcfi(").then(|| value.to_string())
    });
    let annotation_type = text(map, "annotationType");
    let page_label = text(map, "annotationPageLabel");
    let mut fields = vec![("key", str_value(key))];
    push_text(&mut fields, "parentItem", key_field(map, "parentItem"));
    push_text(&mut fields, "annotationType", annotation_type);
    push_text(&mut fields, "annotationPageLabel", page_label);
    if let Some(index) = page_index {
        fields.push(("pageIndex", Value::from(index)));
    }
    push_text(&mut fields, "cfi", cfi.as_deref());
    push_text(&mut fields, "annotationText", text(map, "annotationText"));
    push_text(&mut fields, "annotationComment", text(map, "annotationComment"));
    let label = text(map, "annotationText").or_else(|| text(map, "annotationComment"));
    let detail = match (annotation_type, page_label) {
        (Some(t), Some(p)) => Some(format!("{t}, page {p}")),
        (Some(t), None) => Some(t.to_string()),
        (None, Some(p)) => Some(format!("page {p}")),
        (None, None) => None,
    };
    let entry = entry(LedgerKind::Annotation, key, label, key_field(map, "parentItem"), detail.as_deref());
    ZoteroObject { kind: ZoteroKind::Annotation, fields, entry }
}

/// `annotationPosition` is a JSON string in Zotero's own JSON; some tools pass the object.
fn annotation_position(map: &Map<String, Value>) -> Option<Map<String, Value>> {
    match map.get("annotationPosition")? {
        Value::Object(position) => Some(position.clone()),
        Value::String(text) => match serde_json::from_str(text) {
            Ok(Value::Object(position)) => Some(position),
            _ => None,
        },
        _ => None,
    }
}

fn collection(map: &Map<String, Value>, key: &str, name: &str) -> ZoteroObject {
    let parent = key_field(map, "parentCollection");
    let mut fields = vec![("key", str_value(key)), ("name", str_value(name))];
    push_text(&mut fields, "parentCollection", parent);
    let entry = entry(LedgerKind::Collection, key, Some(name), parent, None);
    ZoteroObject { kind: ZoteroKind::Collection, fields, entry }
}

/// Fields a tag object may have besides `tag` (Zotero JSON, Web API tag listing, tag colors).
const TAG_FIELDS: [&str; 6] = ["tag", "type", "links", "meta", "numItems", "color"];

fn tag(map: &Map<String, Value>) -> Option<ZoteroObject> {
    let name = map.get("tag")?.as_str()?.trim();
    if name.is_empty() || map.keys().any(|k| !TAG_FIELDS.contains(&k.as_str())) {
        return None;
    }
    let tag_type = map.get("type").or_else(|| map.get("meta").and_then(|m| m.get("type"))).and_then(Value::as_u64);
    let mut fields = vec![("tag", str_value(name))];
    if let Some(t) = tag_type {
        fields.push(("type", Value::from(t)));
    }
    let detail = tag_type.map(|t| format!("type {t}"));
    let entry = entry(LedgerKind::Tag, &single_line(name), None, None, detail.as_deref());
    Some(ZoteroObject { kind: ZoteroKind::Tag, fields, entry })
}

fn location(map: &Map<String, Value>, context: &Context) -> Option<ZoteroObject> {
    let own_key = LOCATION_KEY_FIELDS.iter().find_map(|name| key_field(map, name));
    let attachment = own_key.or(context.attachment_key.as_deref())?;
    if let Some(page_index) = index_field(map, &["pageIndex"]) {
        let page_label = text(map, "pageLabel").map(str::to_string).or_else(|| index_field(map, &["pageLabel"]).map(|n| n.to_string()));
        let page_count = index_field(map, &PAGE_COUNT_FIELDS).or(context.page_count);
        let mut fields = vec![("attachmentKey", str_value(attachment)), ("pageIndex", Value::from(page_index))];
        push_text(&mut fields, "pageLabel", page_label.as_deref());
        if let Some(count) = page_count {
            fields.push(("pageCount", Value::from(count)));
        }
        let label = format!("page {}", page_label.clone().unwrap_or_else(|| (page_index + 1).to_string()));
        let mut detail = format!("pageIndex {page_index}");
        if let Some(count) = page_count {
            detail.push_str(&format!(" of {count} pages"));
        }
        let key = format!("{attachment}#pageIndex={page_index}");
        let entry = entry(LedgerKind::Location, &key, Some(&label), Some(attachment), Some(&detail));
        return Some(ZoteroObject { kind: ZoteroKind::PdfLocation, fields, entry });
    }
    let cfi = text(map, "cfi").filter(|c| c.starts_with("epubcfi("));
    let href = text(map, "href");
    let section = index_field(map, &["sectionIndex", "spineIndex"]);
    if cfi.is_none() && !(href.is_some() && section.is_some()) {
        return None;
    }
    let mut fields = vec![("attachmentKey", str_value(attachment))];
    if let Some(section) = section {
        fields.push(("sectionIndex", Value::from(section)));
    }
    push_text(&mut fields, "href", href);
    push_text(&mut fields, "cfi", cfi);
    let locator = match (cfi, href, section) {
        (Some(cfi), _, _) => format!("cfi={cfi}"),
        (None, Some(href), _) => format!("href={href}"),
        (None, None, Some(section)) => format!("sectionIndex={section}"),
        (None, None, None) => return None,
    };
    let label = match (href, section) {
        (Some(href), _) => href.to_string(),
        (None, Some(section)) => format!("section {section}"),
        (None, None) => "EPUB position".to_string(),
    };
    let detail = [section.map(|s| format!("sectionIndex {s}")), href.map(|h| format!("href {h}")), cfi.map(|c| format!("cfi {c}"))]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ");
    let key = single_line(&format!("{attachment}#{locator}"));
    let entry = entry(LedgerKind::Location, &key, Some(&label), Some(attachment), Some(&detail));
    Some(ZoteroObject { kind: ZoteroKind::EpubLocation, fields, entry })
}

/// What the children of a recognized object inherit: an attachment is the attachment of the
/// reader locations inside it.
fn context_inside(object: &ZoteroObject, data: &Map<String, Value>, outer: &Context) -> Context {
    match object.kind {
        ZoteroKind::Attachment => Context {
            attachment_key: Some(object.entry.key.clone()),
            page_count: index_field(data, &PAGE_COUNT_FIELDS).or(outer.page_count),
        },
        _ => context_from_fields(data, outer),
    }
}

/// An unrecognized object naming an attachment (`{ attachmentKey, pageCount, pages: [...] }`)
/// is the context of the locations inside it.
fn context_from_fields(map: &Map<String, Value>, outer: &Context) -> Context {
    let key = ["attachmentKey", "attachmentItemKey", "itemKey"].iter().find_map(|name| key_field(map, name));
    let page_count = index_field(map, &PAGE_COUNT_FIELDS);
    if key.is_none() && page_count.is_none() {
        return outer.clone();
    }
    Context {
        attachment_key: key.map(str::to_string).or_else(|| outer.attachment_key.clone()),
        page_count: page_count.or(outer.page_count),
    }
}

pub(crate) fn embedded_json(text: &str) -> Option<Value> {
    let trimmed = text.trim();
    let framed = (trimmed.starts_with('{') && trimmed.ends_with('}')) || (trimmed.starts_with('[') && trimmed.ends_with(']'));
    if !framed || trimmed.len() < 2 || trimmed.len() > EMBEDDED_JSON_MAX_BYTES {
        return None;
    }
    serde_json::from_str(trimmed).ok().filter(|v: &Value| v.is_object() || v.is_array())
}

/// Short citation text: "Foead et al. 2021, Procedia Computer Science".
pub fn citation(map: &Map<String, Value>) -> Option<String> {
    let names = creator_names(map);
    let authors = match names.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        [one, two] => Some(format!("{one} and {two}")),
        [one, ..] => Some(format!("{one} et al.")),
    };
    let year = text(map, "date").and_then(year_of);
    let container = [
        "publicationTitle",
        "proceedingsTitle",
        "bookTitle",
        "encyclopediaTitle",
        "dictionaryTitle",
        "websiteTitle",
        "blogTitle",
        "forumTitle",
        "university",
        "institution",
        "repository",
        "publisher",
    ]
    .iter()
    .find_map(|name| text(map, name));
    let head = match (authors, year) {
        (Some(a), Some(y)) => Some(format!("{a} {y}")),
        (Some(a), None) => Some(a),
        (None, Some(y)) => Some(y.to_string()),
        (None, None) => None,
    };
    let citation = match (head, container) {
        (Some(h), Some(c)) => format!("{h}, {c}"),
        (Some(h), None) => h,
        (None, Some(c)) => c.to_string(),
        (None, None) => return None,
    };
    Some(single_line(&citation))
}

/// Last names of the primary creators (authors when there are any).
fn creator_names(map: &Map<String, Value>) -> Vec<String> {
    let Some(Value::Array(creators)) = map.get("creators") else { return Vec::new() };
    let creators: Vec<&Map<String, Value>> = creators.iter().filter_map(Value::as_object).collect();
    let is_type = |c: &&Map<String, Value>, wanted: &str| text(c, "creatorType") == Some(wanted);
    let secondary = ["editor", "seriesEditor", "translator", "contributor", "reviewedAuthor", "bookAuthor"];
    let primary: Vec<&Map<String, Value>> = if creators.iter().any(|c| is_type(c, "author")) {
        creators.iter().filter(|c| is_type(c, "author")).copied().collect()
    } else {
        let others: Vec<_> = creators.iter().filter(|c| !secondary.iter().any(|s| is_type(c, s))).copied().collect();
        if others.is_empty() {
            creators
        } else {
            others
        }
    };
    primary.iter().filter_map(|c| text(c, "lastName").or_else(|| text(c, "name")).map(str::to_string)).collect()
}

/// The first four-digit year in a Zotero date ("2002-11-01", "November 2002", "2021").
fn year_of(date: &str) -> Option<&str> {
    let bytes = date.as_bytes();
    (0..bytes.len().saturating_sub(3)).find_map(|i| {
        let window = &bytes[i..i + 4];
        let before_ok = i == 0 || !bytes[i - 1].is_ascii_digit();
        let after_ok = bytes.get(i + 4).is_none_or(|b| !b.is_ascii_digit());
        (window.iter().all(u8::is_ascii_digit) && before_ok && after_ok).then(|| &date[i..i + 4])
    })
}

fn str_value(text: &str) -> Value {
    Value::String(text.to_string())
}

fn push_text(fields: &mut Vec<(&'static str, Value)>, name: &'static str, value: Option<&str>) {
    if let Some(value) = value {
        fields.push((name, str_value(value)));
    }
}

pub(crate) fn entry(kind: LedgerKind, key: &str, label: Option<&str>, parent: Option<&str>, detail: Option<&str>) -> LedgerEntry {
    LedgerEntry {
        kind,
        key: key.to_string(),
        label: label.map(|l| clip(&single_line(l), LABEL_MAX_CHARS)).filter(|l| !l.is_empty()),
        parent_key: parent.map(str::to_string),
        detail: detail.map(|d| clip(&single_line(d), LABEL_MAX_CHARS)).filter(|d| !d.is_empty()),
        library_id: None,
        group_id: None,
    }
}
