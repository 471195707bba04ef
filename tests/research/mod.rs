//! A realistic research session with Zotero data of every kind, for the serialization, ledger,
//! prompt and summary tests. The fixtures follow Zotero's Web API / `Zotero.Item#toJSON()` JSON.
#![allow(dead_code)]

use bibgenie_compaction::estimate::ModelProfile;
use bibgenie_compaction::session::{Node, Session};
use bibgenie_compaction::plan::Plan;
use serde_json::{json, Value};

pub const SEARCH_RESULTS: &str = include_str!("../fixtures/zotero/search-results.json");
pub const ITEM_TOJSON: &str = include_str!("../fixtures/zotero/item-tojson.json");
pub const CHILDREN: &str = include_str!("../fixtures/zotero/children.json");
pub const ANNOTATIONS: &str = include_str!("../fixtures/zotero/annotations.json");
pub const COLLECTIONS: &str = include_str!("../fixtures/zotero/collections.json");
pub const TAGS: &str = include_str!("../fixtures/zotero/tags.json");
pub const READER_LOCATIONS: &str = include_str!("../fixtures/zotero/reader-locations.json");

// Keys of the fixtures, by kind.
pub const ITEM_KEYS: [&str; 6] = ["TSFWQTH5", "IQJRGFBU", "5R3NSQ8T", "VN59D5KM", "F2N3HHQQ", "U4B6II2W"];
pub const PDF_KEY: &str = "IA7HMPVW";
pub const EPUB_KEY: &str = "R56KGCYT";
pub const SNAPSHOT_KEY: &str = "DDK55VN6";
pub const NOTE_KEY: &str = "RQT8K2QE";
pub const ANNOTATION_KEYS: [&str; 6] = ["CFMBT6PM", "UJ74TXLL", "HTC7LLZG", "DURQEUW3", "H28QAMPH", "WU358VD3"];
pub const COLLECTION_KEYS: [&str; 3] = ["NIBQQN3G", "L95TPL7D", "93EM2HLL"];
pub const TAG_NAMES: [&str; 3] = ["to read", "longevity", "auto-imported"];

/// The alphabet of Zotero keys (no 0, 1 or O).
pub const KEY_ALPHABET: &str = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ";

pub fn fixture(text: &str) -> Value {
    serde_json::from_str(text).expect("fixture is JSON")
}

pub fn reader(name: &str) -> Value {
    fixture(READER_LOCATIONS)[name].clone()
}

pub const SECRET_REASONING: &str = "PRIVATE-CHAIN-OF-THOUGHT: the user seems impatient";
pub const SCREENSHOT_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

fn tool(name: &str, call: &str, state: &str, input: Value, output: Option<Value>) -> Value {
    let mut part = json!({ "type": format!("tool-{name}"), "toolCallId": call, "state": state, "input": input });
    if let Some(output) = output {
        part["output"] = output;
    }
    part
}

/// U1 A1 U2 A2 U3 A3 U4 A4: searches, page reads, annotations, collections, tags, children, a
/// denied call, a failed call, data parts, reasoning and a pasted screenshot.
pub fn research_nodes() -> Vec<Value> {
    vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text":
            "I am writing a review on diet restriction and longevity in dogs. Only peer-reviewed studies published after 2015 must be included. Don't include rodent studies." }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [
            { "type": "step-start" },
            { "type": "reasoning", "text": SECRET_REASONING },
            tool("zoteroSearch", "call-1", "output-available", json!({ "q": "diet restriction dogs longevity" }), Some(fixture(SEARCH_RESULTS))),
            { "type": "text", "text": "I found 6 items in your library; Ostrowski et al. 2019 is the main cohort study." } ] }),
        json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": [
            { "type": "text", "text": "Read page 213 of the Ostrowski paper. Here is a screenshot of my notes." },
            { "type": "file", "mediaType": "image/png", "filename": "notes-screenshot.png", "url": format!("data:image/png;base64,{SCREENSHOT_BASE64}") } ] }),
        json!({ "id": "A2", "parentId": "U2", "role": "assistant", "parts": [
            { "type": "step-start" },
            tool("readPdfPages", "call-2", "output-available", json!({ "attachmentKey": PDF_KEY, "pageIndex": 2 }), Some(reader("pdfPageRead"))),
            tool("getAnnotations", "call-3", "output-available", json!({ "parentItem": PDF_KEY }), Some(fixture(ANNOTATIONS))),
            tool("getChildren", "call-4", "output-available", json!({ "itemKey": ITEM_KEYS[0] }), Some(fixture(CHILDREN))),
            tool("listCollections", "call-5", "output-available", json!({}), Some(fixture(COLLECTIONS))),
            tool("listTags", "call-6", "output-available", json!({}), Some(fixture(TAGS))),
            { "type": "text", "text": "Page 213 reports a median life span of 13.0 vs 11.2 years." } ] }),
        json!({ "id": "U3", "parentId": "A2", "role": "user", "parts": [{ "type": "text", "text":
            "Let's focus on the cohort studies. Delete the duplicate items, then fetch the full text of the preprint." }] }),
        json!({ "id": "A3", "parentId": "U3", "role": "assistant", "parts": [
            { "type": "step-start" },
            { "type": "tool-deleteItems", "toolCallId": "call-7", "state": "output-denied", "input": { "keys": [ITEM_KEYS[1]] },
              "approval": { "id": "approval-7", "approved": false, "reason": "Not now, I will check duplicates myself" } },
            tool("fetchFullText", "call-8", "output-error", json!({ "itemKey": ITEM_KEYS[4] }), None),
            { "type": "data-zoteroItem", "id": "d1", "data": fixture(ITEM_TOJSON) },
            { "type": "data-readerLocation", "id": "d2", "data": reader("epubLocation") },
            { "type": "text", "text": "The deletion was not approved and the publisher did not answer." } ] }),
        json!({ "id": "U4", "parentId": "A3", "role": "user", "parts": [{ "type": "text", "text": "Now compare with chapter 2 of the EPUB." }] }),
        json!({ "id": "A4", "parentId": "U4", "role": "assistant", "parts": [{ "type": "text", "text": "Chapter 2 introduces small worlds and large worlds." }] }),
    ]
}

/// The research nodes with the failed tool's error text filled in.
pub fn research_session() -> Session {
    let mut nodes = research_nodes();
    nodes[5]["parts"][2]["errorText"] = json!("HTTP 503 from publisher while fetching the PDF");
    Session::from_value(json!({ "nodes": nodes, "leafId": "A4", "branchRevision": 7 })).expect("session parses")
}

pub fn session_of(nodes: Vec<Value>, leaf: &str) -> Session {
    Session::from_value(json!({ "nodes": nodes, "leafId": leaf, "branchRevision": 1 })).expect("session parses")
}

/// A compact plan folding `summarize` into a checkpoint on top of `leaf`.
pub fn plan(summarize: &[&str], first_kept: Option<&str>, previous: Option<&str>, leaf: &str) -> Plan {
    Plan::from_value(&json!({
        "action": "compact", "reason": "manual", "mode": "manual",
        "firstKeptMessageId": first_kept, "previousCheckpointId": previous,
        "summarizeIds": summarize, "basis": { "leafId": leaf, "branchRevision": 7 },
        "tokensBefore": 50_000, "tokensAfterEstimate": 9_000
    }))
    .expect("plan deserializes")
}

pub fn model(context_window: u64, max_output_tokens: Option<u64>) -> ModelProfile {
    ModelProfile { id: None, context_window, max_output_tokens, replays_reasoning: false, image_tokens: None, auto_compact_ratio: None, tail_share: None }
}

pub fn nodes_of<'a>(session: &'a Session, ids: &[&str]) -> Vec<&'a Node> {
    ids.iter().map(|id| session.nodes.iter().find(|n| n.id == *id).expect("node exists")).collect()
}

/// A search result of `count` Web API items with distinct valid keys, each with a long abstract.
pub fn huge_search(count: usize) -> (Value, Vec<String>) {
    let alphabet: Vec<char> = KEY_ALPHABET.chars().collect();
    let mut keys = Vec::with_capacity(count);
    let items: Vec<Value> = (0..count)
        .map(|i| {
            // "Q" and `i` in base 33 over Zotero's alphabet: distinct, valid keys.
            let mut n = i;
            let mut digits: Vec<char> = (0..7).map(|_| { let c = alphabet[n % alphabet.len()]; n /= alphabet.len(); c }).collect();
            digits.reverse();
            let key: String = std::iter::once('Q').chain(digits).collect();
            keys.push(key.clone());
            json!({ "key": key, "version": 900, "library": { "type": "group", "id": 4242, "name": "Lab" },
                    "links": {}, "meta": { "creatorSummary": "Author", "parsedDate": "2020", "numChildren": 1 },
                    "data": { "key": key, "version": 900, "itemType": "journalArticle", "title": format!("Study number {i} of canine metabolism"),
                              "creators": [{ "creatorType": "author", "firstName": "Sam", "lastName": format!("Author{i}") }],
                              "abstractNote": "Lorem ipsum dolor sit amet. ".repeat(20), "publicationTitle": "Vet Journal",
                              "date": "2020", "tags": [], "collections": [], "relations": {} } })
        })
        .collect();
    (Value::Array(items), keys)
}
