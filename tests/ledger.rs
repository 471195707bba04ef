//! The resource ledger: every Zotero locator of the summarized history, collected by code before
//! truncation, merged with the previous checkpoint's, unique by (kind, key), in a fixed order.

mod research;

use bibgenie_compaction::ledger::{self, LedgerEntry, LedgerKind, ResourceLedger};
use bibgenie_compaction::model::{Message, Session};
use bibgenie_compaction::prompt::summary_request;
use bibgenie_compaction::serialize::{serialize, SerializeOptions};
use research::*;
use serde_json::json;

fn messages(session: &Session) -> Vec<&Message> {
    session.nodes.iter().filter_map(|n| n.message()).collect()
}

fn entry<'a>(ledger: &'a ResourceLedger, kind: LedgerKind, key: &str) -> &'a LedgerEntry {
    ledger
        .entries
        .iter()
        .find(|e| e.kind == kind && e.key == key)
        .unwrap_or_else(|| panic!("{kind:?} {key} missing from {ledger:#?}"))
}

#[test]
fn every_zotero_kind_lands_in_the_ledger() {
    let session = research_session();
    let ledger = ledger::collect(messages(&session));

    for key in ITEM_KEYS {
        entry(&ledger, LedgerKind::Item, key);
    }
    let item = entry(&ledger, LedgerKind::Item, ITEM_KEYS[0]);
    assert_eq!(item.label.as_deref(), Some("Diet restriction and longevity in domestic dogs: a 14-year cohort"));
    assert_eq!(item.detail.as_deref(), Some("journalArticle; Ostrowski et al. 2019, Journal of Veterinary Gerontology"));

    let pdf = entry(&ledger, LedgerKind::Attachment, PDF_KEY);
    assert_eq!(pdf.parent_key.as_deref(), Some(ITEM_KEYS[0]));
    assert_eq!(pdf.detail.as_deref(), Some("application/pdf"));
    assert_eq!(pdf.label.as_deref(), Some("Ostrowski et al. - 2019 - Diet restriction and longevity in domestic dogs.pdf"));
    entry(&ledger, LedgerKind::Attachment, EPUB_KEY);
    entry(&ledger, LedgerKind::Attachment, SNAPSHOT_KEY);

    let note = entry(&ledger, LedgerKind::Item, NOTE_KEY);
    assert_eq!(note.detail.as_deref(), Some("note"));
    assert_eq!(note.parent_key.as_deref(), Some(ITEM_KEYS[0]));

    for key in ANNOTATION_KEYS {
        entry(&ledger, LedgerKind::Annotation, key);
    }
    let highlight = entry(&ledger, LedgerKind::Annotation, ANNOTATION_KEYS[0]);
    assert_eq!(highlight.parent_key.as_deref(), Some(PDF_KEY));
    assert_eq!(highlight.detail.as_deref(), Some("highlight, page 213"));
    assert!(highlight.label.as_deref().unwrap().starts_with("Median life span was 13.0 years"));
    // A note annotation has no text: its comment is the label.
    assert_eq!(
        entry(&ledger, LedgerKind::Annotation, ANNOTATION_KEYS[1]).label.as_deref(),
        Some("Check whether the sample excludes neutered males")
    );

    for key in COLLECTION_KEYS {
        entry(&ledger, LedgerKind::Collection, key);
    }
    assert_eq!(entry(&ledger, LedgerKind::Collection, COLLECTION_KEYS[1]).parent_key.as_deref(), Some(COLLECTION_KEYS[0]));
    for tag in TAG_NAMES {
        entry(&ledger, LedgerKind::Tag, tag);
    }
    assert_eq!(entry(&ledger, LedgerKind::Tag, "auto-imported").detail.as_deref(), Some("type 1"));

    // Reader locations: the pages read (tool output and tool input), the EPUB position of a data part.
    let page = entry(&ledger, LedgerKind::Location, &format!("{PDF_KEY}#pageIndex=2"));
    assert_eq!(page.label.as_deref(), Some("page 213"));
    assert_eq!(page.detail.as_deref(), Some("pageIndex 2 of 19 pages"));
    assert_eq!(page.parent_key.as_deref(), Some(PDF_KEY));
    entry(&ledger, LedgerKind::Location, &format!("{PDF_KEY}#pageIndex=3"));
    let epub = entry(&ledger, LedgerKind::Location, &format!("{EPUB_KEY}#cfi=epubcfi(/6/8!/4/2/6/1:0)"));
    assert_eq!(epub.label.as_deref(), Some("OEBPS/ch02.xhtml"));
    assert_eq!(epub.detail.as_deref(), Some("sectionIndex 3, href OEBPS/ch02.xhtml, cfi epubcfi(/6/8!/4/2/6/1:0)"));

    // Item tags and collection membership inside items are not separate resources.
    assert!(!ledger.entries.iter().any(|e| e.kind == LedgerKind::Tag && e.key == "NER"));
}

#[test]
fn truncation_loses_no_key() {
    // A search returning 500 items: the serialized result is cut, the ledger keeps every key.
    let (search, keys) = huge_search(500);
    let unique: std::collections::HashSet<_> = keys.iter().collect();
    assert_eq!(unique.len(), 500);
    let nodes = vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "Search everything about canine metabolism." }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "c1", "state": "output-available", "input": { "q": "canine metabolism" }, "output": search } ] }),
        json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": [{ "type": "text", "text": "Which are reviews?" }] }),
    ];
    let session = session_of(nodes, "U2");
    let serialized = serialize(&nodes_of(&session, &["U1", "A1"]), &SerializeOptions::default());
    assert!(serialized.contains("--- cut "));
    let missing_from_text = keys.iter().filter(|k| !serialized.contains(k.as_str())).count();
    assert!(missing_from_text > 400, "the text keeps only head and tail ({missing_from_text} keys cut)");

    let request = summary_request(&session, &plan(&["U1", "A1"], Some("U2"), None, "U2"), &model(128_000, Some(16_000))).unwrap();
    let ledger_keys: std::collections::HashSet<&str> = request.ledger.keys().collect();
    for key in &keys {
        assert!(ledger_keys.contains(key.as_str()), "{key} lost");
    }
    assert_eq!(request.ledger.entries.len(), 500);
}

#[test]
fn merge_deduplicates_by_kind_and_key_keeping_the_latest_label() {
    let e = |kind, key: &str, label: Option<&str>, detail: Option<&str>| LedgerEntry {
        kind,
        key: key.into(),
        label: label.map(Into::into),
        parent_key: None,
        detail: detail.map(Into::into),
    };
    let previous = ResourceLedger {
        entries: vec![
            e(LedgerKind::Item, "ZZZZ2222", Some("Old title"), Some("book")),
            e(LedgerKind::Item, "AAAA2222", Some("Kept as is"), None),
            e(LedgerKind::Tag, "AAAA2222", None, None),
        ],
    };
    let newer = ResourceLedger {
        entries: vec![
            e(LedgerKind::Item, "ZZZZ2222", Some("New title"), None),
            e(LedgerKind::Collection, "MMMM3333", Some("Reviews"), None),
        ],
    };
    let merged = ledger::merge(&previous, &newer);
    let summary: Vec<(LedgerKind, &str, Option<&str>, Option<&str>)> =
        merged.entries.iter().map(|x| (x.kind, x.key.as_str(), x.label.as_deref(), x.detail.as_deref())).collect();
    assert_eq!(
        summary,
        [
            (LedgerKind::Item, "AAAA2222", Some("Kept as is"), None),
            // the newer label wins; the older detail stays where the newer entry has none
            (LedgerKind::Item, "ZZZZ2222", Some("New title"), Some("book")),
            (LedgerKind::Collection, "MMMM3333", Some("Reviews"), None),
            // same key, other kind: a separate entry
            (LedgerKind::Tag, "AAAA2222", None, None),
        ]
    );
    // Merging is idempotent and its order does not depend on the input order.
    assert_eq!(ledger::merge(&merged, &merged), merged);
    let mut reversed = newer.clone();
    reversed.entries.reverse();
    assert_eq!(ledger::merge(&previous, &reversed), merged);
    let mut inserted = previous.clone();
    for x in newer.entries {
        inserted.insert(x);
    }
    assert_eq!(inserted, merged);
}

#[test]
fn a_later_mention_updates_the_label_and_labels_are_single_lines() {
    let item = |title: &str| json!({ "key": "K7Q2ZB4M", "itemType": "journalArticle", "title": title });
    let nodes = vec![
        json!({ "id": "A1", "parentId": null, "role": "assistant", "parts": [
            { "type": "data-zoteroItem", "data": item("Draft title") },
            { "type": "data-zoteroItem", "data": item("Final title\nwith a  line break") } ] }),
    ];
    let session = session_of(nodes, "A1");
    let ledger = ledger::collect(messages(&session));
    assert_eq!(ledger.entries.len(), 1);
    assert_eq!(ledger.entries[0].label.as_deref(), Some("Final title with a line break"));
    assert_eq!(ledger::render(&ledger), "- item K7Q2ZB4M: Final title with a line break [journalArticle]");
}

#[test]
fn the_previous_checkpoints_ledger_is_merged_on_the_next_compaction() {
    let mut nodes = research_nodes();
    nodes.push(json!({ "id": "C1", "parentId": "A4", "checkpoint": {
        "summary": "## Research Goal\n- (user) dogs", "firstKeptMessageId": "U4", "previousCheckpointId": null,
        "mode": "manual", "tokensBefore": 9000, "tokensAfter": 3000,
        "ledger": { "entries": [
            { "kind": "item", "key": "OLDK2345", "label": "An item only the old ledger knows" },
            { "kind": "item", "key": ITEM_KEYS[0], "label": "Stale title" } ] },
        "basis": { "leafId": "A4", "branchRevision": 7 } } }));
    nodes.push(json!({ "id": "U5", "parentId": "C1", "role": "user", "parts": [{ "type": "text", "text": "Next question." }] }));
    nodes.push(json!({ "id": "A5", "parentId": "U5", "role": "assistant", "parts": [{ "type": "text", "text": "Answer." }] }));
    nodes.push(json!({ "id": "U6", "parentId": "A5", "role": "user", "parts": [{ "type": "text", "text": "And another." }] }));
    let session = session_of(nodes, "U6");
    let request = summary_request(&session, &plan(&["U4", "A4", "U5", "A5"], Some("U6"), Some("C1"), "U6"), &model(32_000, None)).unwrap();
    let old = entry(&request.ledger, LedgerKind::Item, "OLDK2345");
    assert_eq!(old.label.as_deref(), Some("An item only the old ledger knows"));
    // U4..A5 mention no Zotero data: the previous ledger carries over unchanged.
    assert_eq!(entry(&request.ledger, LedgerKind::Item, ITEM_KEYS[0]).label.as_deref(), Some("Stale title"));
    assert_eq!(request.ledger.entries.len(), 2);
}
