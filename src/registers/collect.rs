//! Collecting the registers from summarized messages, and merging them across checkpoints.

use std::collections::HashSet;

use serde_json::Value;

use crate::session::{CitedPage, Message, Node, Part, Role, UserWords};
use crate::zotero::{self, ResolvedItems, ResourceLedger, ZoteroLink};

use super::locator::{find_locator, names_a_page, names_a_pinpoint};

/// A user message longer than this (characters) is excerpted: pasted material (an abstract, a table)
/// keeps its opening and its end, where the user's own instruction usually is.
pub const USER_WORDS_MAX_CHARS: usize = 800;
const EXCERPT_HEAD_CHARS: usize = 520;
const EXCERPT_TAIL_CHARS: usize = 220;
/// Between an annotation's highlight and the reader's comment on it, in one cited page.
pub const COMMENT_JOIN: &str = " — ";
/// Longest cited sentence kept, in characters.
const CITED_SENTENCE_MAX_CHARS: usize = 320;
/// Longest quote (characters) of a tool data object that is read as a statement citing its page; a
/// longer one is the page's text (a page read), not a statement about it.
const CITED_QUOTE_MAX_CHARS: usize = 600;
/// Most cited pages a checkpoint keeps (the newest); a projection shows far fewer.
const MAX_CITED_PAGES: usize = 2_000;
/// A sentence with a reader link but fewer letters than this outside it (`[p. 7](zotero://…)`) is the
/// link of the sentence before it: the quote it accompanies.
const LINK_ONLY_LETTERS: usize = 16;
/// A sentence with fewer letters than this besides its locator and keys names a place, not a claim.
const LOCATOR_ONLY_LETTERS: usize = 4;

/// Every user message's own text, in order (messages with no text, such as approvals, give none).
pub fn collect_user_words(nodes: &[&Node]) -> Vec<UserWords> {
    nodes
        .iter()
        .filter_map(|node| {
            let message = node.message().filter(|m| m.role == Role::User)?;
            let text = crate::text::single_line(&message_text(message));
            (!text.is_empty()).then(|| UserWords { id: node.id.clone(), text: excerpt(&text) })
        })
        .collect()
}

/// The previous checkpoint's words, then the newer ones (a message already carried keeps its place).
pub fn merge_user_words(previous: &[UserWords], newer: Vec<UserWords>) -> Vec<UserWords> {
    let mut merged = previous.to_vec();
    let known: HashSet<String> = merged.iter().map(|w| w.id.clone()).collect();
    merged.extend(newer.into_iter().filter(|w| !known.contains(&w.id)));
    merged
}

/// Sentences of the assistant's text and of tool results that name a key of `ledger` with a page
/// or locator; tool data objects that carry a ledger key and a page field count too.
pub fn collect_cited_pages(nodes: &[&Node], ledger: &ResourceLedger) -> Vec<CitedPage> {
    collect_cited_pages_resolved(nodes, ledger, &ResolvedItems::new())
}

/// [`collect_cited_pages`], where tool data objects may name their item by a numeric id `resolved`
/// maps to a key, and a `zotero://open-pdf/…?page=N` link is the page of the sentence it is in (or,
/// standing alone, of the sentence before it).
pub fn collect_cited_pages_resolved(nodes: &[&Node], ledger: &ResourceLedger, resolved: &ResolvedItems) -> Vec<CitedPage> {
    let keys = ledger_keys(ledger);
    let mut found = Vec::new();
    if keys.is_empty() {
        return found;
    }
    for node in nodes {
        let Some(message) = node.message() else { continue };
        for part in &message.parts {
            match part {
                // A researcher's own "as KEY shows on p. 14" cites a page as the assistant's does.
                Part::Text { text } => cite_sentences(text, &keys, None, &node.id, &mut found),
                Part::Tool(tool) => {
                    if let Some(output) = &tool.output {
                        // Rule `a-tool-result-is-about-its-input`: what a tool returns for an item
                        // (its notes, its text) is about the item its input names.
                        let input = tool.input.as_ref().map(|i| i.to_value());
                        let asked = input.as_ref().and_then(|i| i.as_object()).and_then(|i| key_of(i, &keys, ledger, resolved));
                        cite_value(&output.to_value(), &Citing { keys: &keys, ledger, resolved, id: &node.id }, asked, &mut found);
                    }
                }
                _ => {}
            }
        }
    }
    found
}

/// The previous checkpoint's cited pages, then the newer ones; the same sentence for the same key
/// and locator is kept once, the newest kept when over `MAX_CITED_PAGES`.
pub fn merge_cited_pages(previous: &[CitedPage], newer: Vec<CitedPage>) -> Vec<CitedPage> {
    let mut merged = previous.to_vec();
    let key = |c: &CitedPage| crate::text::tuple_key(&[&c.key, &c.locator, &c.text]);
    let mut seen: HashSet<String> = merged.iter().map(key).collect();
    for page in newer {
        if seen.insert(key(&page)) {
            merged.push(page);
        }
    }
    let over = merged.len().saturating_sub(MAX_CITED_PAGES);
    merged.drain(..over);
    merged
}

/// Most recall handles a checkpoint keeps (the newest); a projection shows far fewer.
const MAX_RECALL_HANDLES: usize = 2_000;

/// Rule `recall-handles`: the previous checkpoint's handles, then one per finished tool output of
/// the newly summarized messages (`"<toolName> <toolCallId>"`, what the recall tool reads back by
/// its call id), oldest first, each once, the newest kept when over `MAX_RECALL_HANDLES`.
pub fn merge_recall_handles(previous: &[String], nodes: &[&Node]) -> Vec<String> {
    let mut merged = previous.to_vec();
    for message in nodes.iter().filter_map(|node| node.message()) {
        for part in &message.parts {
            if let Part::Tool(tool) = part {
                let handle = format!("{} {}", tool.tool_name, tool.tool_call_id);
                // A linear check, no set of its own (wasm size): a message is folded once.
                if (tool.output.is_some() || tool.error_text.is_some()) && !merged.contains(&handle) {
                    merged.push(handle);
                }
            }
        }
    }
    let over = merged.len().saturating_sub(MAX_RECALL_HANDLES);
    merged.drain(..over);
    merged
}

fn message_text(message: &Message) -> String {
    let texts: Vec<&str> = message.parts.iter().filter_map(|p| if let Part::Text { text } = p { Some(text.as_str()) } else { None }).collect();
    texts.join("\n")
}

/// `text` whole when short, else its head and tail around a note of what was left out.
fn excerpt(text: &str) -> String {
    let count = text.chars().count();
    if count <= USER_WORDS_MAX_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(EXCERPT_HEAD_CHARS).collect();
    let tail: String = text.chars().skip(count - EXCERPT_TAIL_CHARS).collect();
    let left_out = count - EXCERPT_HEAD_CHARS - EXCERPT_TAIL_CHARS;
    format!("{} […{left_out} characters left out…] {}", head.trim_end(), tail.trim_start())
}

fn is_key_shaped(word: &str) -> bool {
    zotero::is_zotero_key(word)
}

/// The item, attachment and annotation keys of the ledger (a location's attachment key, parents).
fn ledger_keys(ledger: &ResourceLedger) -> HashSet<String> {
    let mut keys = HashSet::new();
    for entry in &ledger.entries {
        for key in [entry.key.split('#').next(), entry.parent_key.as_deref()].into_iter().flatten() {
            if is_key_shaped(key) {
                keys.insert(key.to_string());
            }
        }
    }
    keys
}

/// Rule `cited-by-its-item`: a page an annotation, an attachment or a child note cites is cited by
/// the item they belong to, the key a researcher cites, through the ledger's parents (an annotation
/// is a child of its PDF, the PDF of the item; a Zotero annotation object names its own key first).
/// Looked up in the ledger's entries in turn: only an object with a quote and a page asks, and a map
/// of every key would be one more hash table type in the wasm (1.5 KB).
fn citable_key<'a>(key: &'a str, ledger: &'a ResourceLedger) -> &'a str {
    let mut key = key;
    // Zotero nests at most annotation -> attachment -> item; the bound also stops a cycle.
    for _ in 0..3 {
        match ledger.entries.iter().find(|e| e.key == key && e.parent_key.is_some()).and_then(|e| e.parent_key.as_deref()).filter(|p| is_key_shaped(p)) {
            Some(parent) => key = parent,
            None => break,
        }
    }
    key
}

fn named_keys<'a>(text: &'a str, keys: &HashSet<String>) -> Vec<&'a str> {
    let mut named: Vec<&str> = Vec::new();
    for word in zotero::key_words(text) {
        if keys.contains(word) && !named.contains(&word) {
            named.push(word);
        }
    }
    named
}

/// The key a text without keys of its own cites: of the object it is part of, or of a child note,
/// where a pinpoint the reader wrote (a paragraph, an article, not only a page) is one into its item
/// (rule `a-note-pinpoints-its-item`).
#[derive(Clone, Copy)]
enum Own<'a> {
    Text(&'a str),
    Note(&'a str),
}

/// Sentences of `text` that cite a page: those naming a key of `keys` with a locator, and with a
/// reader link; with `own`, the key of the object `text` belongs to, a sentence that gives a locator
/// and names no key cites it for `own` (rule `a-note-cites-its-item`).
fn cite_sentences<'a>(text: &'a str, keys: &HashSet<String>, own: Option<Own<'a>>, id: &str, found: &mut Vec<CitedPage>) {
    let in_note = matches!(own, Some(Own::Note(_)));
    let own = own.map(|(Own::Text(key) | Own::Note(key))| key);
    // Most texts name no key: skip the sentence split for them. A text without a space is a token
    // (a colour, a date, a position), no sentence of its object.
    let own = own.filter(|_| text.contains(char::is_whitespace));
    if own.is_none() && named_keys(text, keys).is_empty() {
        return;
    }
    let all = sentences(text);
    for (at, span) in all.iter().enumerate() {
        // Only a sentence with a key or a link can cite, or any of its object's own text. Folding
        // whitespace neither makes nor splits either: the others are never folded, and the span names
        // the keys its sentence does.
        let mut named = named_keys(span, keys);
        if named.is_empty() && own.is_none() && !span.contains("zotero://") {
            continue;
        }
        let sentence = crate::text::single_line(span);
        let links: Vec<ZoteroLink> = zotero::find_links(&sentence).into_iter().filter(|l| l.page.is_some() && keys.contains(&l.key)).collect();
        if !links.is_empty() {
            let before = at.checked_sub(1).map(|b| all[b]);
            cite_links(&sentence, before, &links, keys, id, found);
            continue;
        }
        let by_own = named.is_empty();
        if by_own {
            named.extend(own);
        }
        let Some(locator) = (!named.is_empty()).then(|| find_locator(&sentence)).flatten() else { continue };
        // Without its key, only a page cites it: "Fig. 3" or "Vol. 2" of a text is no citation. A
        // note's "Lord Scott, para 18: …" is the reader's pinpoint into the note's item.
        let cites_own = if in_note { names_a_pinpoint(&locator) } else { names_a_page(&locator) };
        if by_own && !cites_own || says_only_where(&sentence, &locator, &named) {
            continue;
        }
        let text = crate::text::clip(&sentence, CITED_SENTENCE_MAX_CHARS);
        for key in named {
            found.push(CitedPage { key: key.to_string(), locator: locator.clone(), text: text.clone(), id: id.to_string() });
        }
    }
}

/// Rule `a-locator-alone-cites-nothing`: a sentence with no words besides its locator and keys (a
/// page read's "[[page 711]]" marker, "ABCD2345, p. 14.") says nothing of the page; the page's text
/// after a marker is the page read, no statement either.
fn says_only_where(sentence: &str, locator: &str, keys: &[&str]) -> bool {
    let letters = |text: &str| text.chars().filter(|c| c.is_alphabetic()).count();
    let of_keys: usize = zotero::key_words(sentence).filter(|w| keys.contains(w)).map(letters).sum();
    letters(sentence).saturating_sub(letters(locator) + of_keys) < LOCATOR_ONLY_LETTERS
}

/// The pages of the reader links of `sentence` (whitespace folded): each link's key at `p. <page>`, with
/// the sentence's text (links written as their keys), or `before` it when the link stands alone.
/// Other keys the sentence names get its written locator, as without links.
fn cite_links(sentence: &str, before: Option<&str>, links: &[ZoteroLink], keys: &HashSet<String>, id: &str, found: &mut Vec<CitedPage>) {
    let mut text = String::new();
    let mut letters = 0;
    let mut from = 0;
    for link in &zotero::find_links(sentence) {
        letters += sentence[from..link.range.start].chars().filter(|c| c.is_alphabetic()).count();
        text.push_str(&sentence[from..link.range.start]);
        text.push_str(&link.key);
        from = link.range.end;
    }
    letters += sentence[from..].chars().filter(|c| c.is_alphabetic()).count();
    text.push_str(&sentence[from..]);
    // Other keys as the sentence names them outside its links (a link's annotation key is its own).
    let others: Vec<String> = named_keys(&text, keys).into_iter().filter(|k| !links.iter().any(|l| l.key == *k)).map(str::to_string).collect();
    if let Some(before) = before.filter(|_| letters < LINK_ONLY_LETTERS) {
        text = format!("{} {text}", crate::text::single_line(before));
    }
    let text = crate::text::clip(&text, CITED_SENTENCE_MAX_CHARS);
    for link in links {
        let page = link.page.as_deref().unwrap_or_default();
        found.push(CitedPage { key: link.key.clone(), locator: format!("p. {page}"), text: text.clone(), id: id.to_string() });
    }
    if let Some(locator) = (!others.is_empty()).then(|| find_locator(sentence)).flatten() {
        for key in others {
            found.push(CitedPage { key, locator: locator.clone(), text: text.clone(), id: id.to_string() });
        }
    }
}

/// Field names that hold a page or locator in tool data. A name that ends in "pages" after another
/// word ("indexedPages", "total_pages") counts them: a full-text tool's `indexedPages: 1` is no page.
fn is_page_field(name: &str) -> bool {
    // Compared in place, ignoring ASCII case: every key of every object of a tool result is asked.
    let has = |part: &str| name.as_bytes().windows(part.len()).any(|w| w.eq_ignore_ascii_case(part.as_bytes()));
    let counts = name.len() > 5 && name.as_bytes()[name.len() - 5..].eq_ignore_ascii_case(b"pages");
    has("page") && !counts && !has("count") && !has("num") && !has("total") || name.eq_ignore_ascii_case("locator")
}

const KEY_FIELDS: [&str; 5] = ["key", "itemKey", "parentItem", "parentKey", "attachmentKey"];
/// What a page says: a highlight, a snippet; then the reader's own words about it.
const QUOTE_FIELDS: [&str; 4] = ["annotationText", "text", "quote", "snippet"];
const COMMENT_FIELDS: [&str; 2] = ["annotationComment", "comment"];
/// Zotero's objects that are not a bibliographic record: their text is what someone wrote about
/// their item, where a record's fields (a title's "Vol. 3", `pages`) are metadata.
const CHILD_ITEM_TYPES: [&str; 3] = ["note", "annotation", "attachment"];

fn is_quote_field(name: &str) -> bool {
    QUOTE_FIELDS.contains(&name) || COMMENT_FIELDS.contains(&name)
}

/// What cited pages of one tool result are looked up with.
struct Citing<'a> {
    keys: &'a HashSet<String>,
    ledger: &'a ResourceLedger,
    resolved: &'a ResolvedItems,
    id: &'a str,
}

/// The citable key an object names (`KEY_FIELDS`, or an item id `resolved` maps to a key).
fn key_of<'a>(map: &'a serde_json::Map<String, Value>, keys: &HashSet<String>, ledger: &'a ResourceLedger, resolved: &'a ResolvedItems) -> Option<&'a str> {
    let resolved_key = || zotero::item_id_of(map).and_then(|n| resolved.get(&n)).map(|item| item.key.as_str());
    KEY_FIELDS
        .iter()
        .filter_map(|f| map.get(*f).and_then(Value::as_str))
        .chain(resolved_key())
        .find(|k| keys.contains(*k))
        .map(|k| citable_key(k, ledger))
}

/// Cited pages of a tool result's `value`; `own` is the key of the object it belongs to (the
/// enclosing object's, or the item the tool was asked about), which a text giving a page cites.
fn cite_value<'a>(value: &'a Value, citing: &Citing<'a>, own: Option<&'a str>, found: &mut Vec<CitedPage>) {
    let (keys, id) = (citing.keys, citing.id);
    match value {
        Value::String(text) => cite_sentences(text, keys, own.map(Own::Text), id, found),
        Value::Array(items) => items.iter().for_each(|v| cite_value(v, citing, own, found)),
        Value::Object(map) => {
            let key = key_of(map, keys, citing.ledger, citing.resolved);
            let page = map.iter().find(|(name, v)| is_page_field(name) && (v.is_string() || v.is_u64())).map(|(_, v)| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            });
            // Rule `cited-page-is-a-statement`: an object cites a page only with what the page says, in
            // a quote of statement length (an annotation, a snippet). An item record's `pages` field
            // (bibliographic metadata) has no quote; a page read's whole text is no statement.
            let stated = statement(map);
            let cited = matches!((key, &page, &stated), (Some(_), Some(p), Some(_)) if !p.trim().is_empty());
            if let (true, Some(key), Some(page), Some(quote)) = (cited, key, &page, &stated) {
                found.push(CitedPage { key: key.to_string(), locator: format!("p. {page}"), text: quote.clone(), id: id.to_string() });
            }
            // A quote beside a reader link (`{ text, url: "zotero://open-pdf/…?page=7" }`): the link's page.
            let mut linked_fields: Vec<&str> = Vec::new();
            if let Some(quote) = stated.as_ref().filter(|_| key.is_none()) {
                for (name, v) in map {
                    let Some(text) = v.as_str().filter(|t| t.contains("zotero://") && !is_quote_field(name)) else { continue };
                    for link in zotero::find_links(text).into_iter().filter(|l| keys.contains(&l.key)) {
                        if let Some(page) = &link.page {
                            found.push(CitedPage { key: link.key.clone(), locator: format!("p. {page}"), text: quote.clone(), id: id.to_string() });
                            linked_fields.push(name);
                        }
                    }
                }
            }
            // Rule `a-note-cites-its-item`: a child note's "Table 3 on p. 12: …" cites its item's page.
            let record = map.get("itemType").and_then(Value::as_str).is_some_and(|t| !CHILD_ITEM_TYPES.contains(&t));
            let own = if record { None } else { key.or(own) };
            for (name, v) in map {
                // A quote already taken with its object is not read again as a sentence, nor its link.
                if (cited || !linked_fields.is_empty()) && is_quote_field(name) || linked_fields.contains(&name.as_str()) {
                    continue;
                }
                match v {
                    Value::String(text) if own.is_some() && name == "note" => cite_sentences(&crate::text::strip_html(text), keys, own.map(Own::Note), id, found),
                    _ => cite_value(v, citing, own, found),
                }
            }
        }
        _ => {}
    }
}

/// What a tool data object says of its page, clipped: its quote of statement length (an
/// annotation's highlight, a snippet) and the reader's comment on it, either alone or both. A longer
/// quote is the page's text (a page read), not a statement about it.
fn statement(map: &serde_json::Map<String, Value>) -> Option<String> {
    let first = |fields: &[&str]| fields.iter().filter_map(|f| map.get(*f).and_then(Value::as_str)).find(|q| !q.trim().is_empty());
    // Folding whitespace keeps every other character: a text with more of them than the bound is
    // never folded.
    let short = |q: &&str| q.chars().filter(|c| !c.is_whitespace()).count() <= CITED_QUOTE_MAX_CHARS;
    let stated = |fields: &[&str]| first(fields).filter(short).map(crate::text::single_line).filter(|q| q.chars().count() <= CITED_QUOTE_MAX_CHARS);
    let (quote, comment) = (stated(&QUOTE_FIELDS), stated(&COMMENT_FIELDS));
    let text = match (quote, comment) {
        // Rule `a-comment-is-a-statement`: the reader's comment is kept whole, the quote clipped first.
        (Some(quote), Some(comment)) => {
            let room = CITED_SENTENCE_MAX_CHARS.saturating_sub(comment.chars().count() + COMMENT_JOIN.chars().count() + 1).max(CITED_SENTENCE_MAX_CHARS / 4);
            format!("{}{COMMENT_JOIN}{comment}", crate::text::clip(&quote, room))
        }
        (quote, comment) => quote.or(comment)?,
    };
    Some(crate::text::clip(&text, CITED_SENTENCE_MAX_CHARS))
}

/// Sentences of `text`, not split after a short abbreviation ("p. 14", "S. 3", "et al. 2020"): the
/// spans of `text` with more than whitespace, whitespace not yet folded (`single_line`).
fn sentences(text: &str) -> Vec<&str> {
    crate::text::sentence_spans(text, true).into_iter().filter(|s| !s.trim().is_empty()).collect()
}
