//! The resource ledger: every Zotero locator of the summarized history, collected by code before
//! truncation, merged with the previous checkpoint's, unique by (kind, key), in a fixed order.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../research/mod.rs"]
mod research;

use bibgenie_compaction::ledger;

use bibgenie_compaction::zotero::{LedgerEntry, LedgerKind, ResourceLedger};
use bibgenie_compaction::session::{Message, Session};
use bibgenie_compaction::summarize::{serialize, summary_request, SerializeOptions};
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
        library_id: None,
        group_id: None,
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

// ---- Issue 14: the ledger cannot crowd out the window ----

fn numbered_ledger(count: usize) -> ResourceLedger {
    let entries = (0..count)
        .map(|n| LedgerEntry {
            kind: if n % 10 == 0 { LedgerKind::Collection } else { LedgerKind::Item },
            key: format!("K{n:07}"),
            label: Some(format!("Canine nutrition study {n}")),
            parent_key: None,
            detail: Some("journalArticle".into()),
            library_id: None,
            group_id: None,
        })
        .collect();
    ResourceLedger { entries }
}

fn checkpoint_with(summary: &str, ledger: &ResourceLedger) -> bibgenie_compaction::session::Checkpoint {
    bibgenie_compaction::session::Checkpoint::from_value(&json!({ "summary": summary, "firstKeptMessageId": null, "previousCheckpointId": null, "mode": "auto",
        "tokensBefore": 1, "tokensAfter": 1, "ledger": ledger, "basis": { "leafId": "A1", "branchRevision": 1 } }))
    .unwrap()
}

#[test]
fn the_projected_part_has_its_own_budget_and_says_how_many_it_left_out_while_the_checkpoint_keeps_the_whole_ledger() {
    use bibgenie_compaction::projection::summary_message_text;
    use bibgenie_compaction::tokens::estimate_text;
    let whole = numbered_ledger(5_000);
    let summary = format!("## Research Goal\n{}", "- (user) review canine nutrition\n".repeat(40));
    let budget = ledger::projected_budget(&summary);
    let projected = ledger::project_ledger(&whole, &summary, budget);
    assert!(projected.shown > 0 && projected.left_out > 0);
    assert_eq!(projected.shown + projected.left_out, 5_000);
    let lines: Vec<&str> = projected.text.lines().collect();
    assert_eq!(lines.len(), projected.shown + 1);
    assert!(estimate_text(&lines[..projected.shown].join("\n")) <= budget, "the shown lines keep the budget of {budget}");
    assert_eq!(*lines.last().unwrap(), ledger::left_out_line(projected.left_out));
    assert!(lines.last().unwrap().starts_with(&format!("- {} more entries", projected.left_out)));
    // The summary message carries exactly that part; the checkpoint the message comes from keeps all 5,000.
    let checkpoint = checkpoint_with(&summary, &whole);
    assert!(summary_message_text(&checkpoint).ends_with(&projected.text));
    assert_eq!(checkpoint.ledger.entries.len(), 5_000);
    assert!(estimate_text(&summary_message_text(&checkpoint)) < estimate_text(&summary) * 2, "the ledger does not dominate the message");
}

#[test]
fn entries_the_summary_mentions_are_projected_first() {
    let whole = numbered_ledger(2_000);
    let named = ["K0001999", "K0001500", "K0000777"];
    let padding = "- (user) a review of canine nutrition in senior dogs, cohort studies only\n".repeat(30);
    let summary = format!("## Research Goal\n{padding}## Findings and Evidence\n{}", named.iter().map(|k| format!("- (tool) {k} reports lower protein needs\n")).collect::<String>());
    let projected = ledger::project_ledger(&whole, &summary, ledger::projected_budget(&summary));
    assert!(projected.left_out > 1_900, "{projected:?}");
    for key in named {
        assert!(projected.text.contains(&format!(" {key}: ")), "{key} is named by the summary: {}", projected.text);
    }
}

#[test]
fn a_ledger_that_fits_its_budget_is_projected_whole_without_a_note() {
    let small = numbered_ledger(3);
    let summary = "## Research Goal\n- (user) a review of canine nutrition with enough words to give the ledger some room\n".repeat(8);
    let projected = ledger::project_ledger(&small, &summary, ledger::projected_budget(&summary));
    assert_eq!((projected.shown, projected.left_out), (3, 0));
    assert_eq!(projected.text, ledger::render(&small));
}

#[test]
fn lookup_finds_entries_by_key_kind_or_text() {
    use bibgenie_compaction::ledger::{lookup, LedgerQuery};
    let whole = numbered_ledger(5_000);
    let by_key = lookup(&whole, &LedgerQuery { key: Some("K0004321".into()), ..Default::default() });
    assert_eq!(by_key.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["K0004321"]);
    let collections = lookup(&whole, &LedgerQuery { kind: Some(LedgerKind::Collection), ..Default::default() });
    assert_eq!(collections.len(), 500);
    assert!(collections.iter().all(|e| e.kind == LedgerKind::Collection));
    let text = lookup(&whole, &LedgerQuery { text: Some("STUDY 4999".into()), ..Default::default() });
    assert_eq!(text.iter().map(|e| e.key.as_str()).collect::<Vec<_>>(), ["K0004999"]);
    let limited = lookup(&whole, &LedgerQuery { kind: Some(LedgerKind::Item), text: Some("study 12".into()), limit: Some(5), ..Default::default() });
    assert_eq!(limited.len(), 5);
    assert!(limited.iter().all(|e| e.kind == LedgerKind::Item && e.label.as_deref().unwrap().contains("study 12")));
    assert!(lookup(&whole, &LedgerQuery { key: Some("NOPE".into()), ..Default::default() }).is_empty());
    // The query is read from JSON with codes.
    let q = LedgerQuery::from_value(&json!({ "kind": "tag", "text": "x", "limit": 2 })).unwrap();
    assert_eq!((q.kind, q.limit), (Some(LedgerKind::Tag), Some(2)));
    for bad in [json!("x"), json!({ "kind": "planet" }), json!({ "limit": -1 }), json!({ "key": 7 }), json!({ "title": "x" })] {
        assert_eq!(LedgerQuery::from_value(&bad).unwrap_err().code.as_str(), "invalid-options", "{bad}");
    }
}

#[test]
fn among_the_entries_the_summary_names_the_most_recently_used_are_projected_first() {
    // Findings are listed oldest to newest: the later a key's last mention, the more recent its use.
    let whole = numbered_ledger(1_000);
    let order: Vec<usize> = (0..60).map(|n| (n * 37) % 1_000).collect();
    let findings: String = order.iter().map(|n| format!("- (tool) K{n:07} was read\n")).collect();
    let summary = format!("## Findings and Evidence\n{findings}");
    let projected = ledger::project_ledger(&whole, &summary, ledger::projected_budget(&summary));
    assert!(projected.shown >= 3 && projected.shown < 60, "{projected:?}");
    let newest: Vec<String> = order.iter().rev().take(projected.shown).map(|n| format!("K{n:07}")).collect();
    for key in &newest {
        assert!(projected.text.contains(&format!(" {key}: ")), "{key} is among the newest mentions: {}", projected.text);
    }
}

#[test]
fn lookup_text_ignores_case_in_latin_greek_and_cyrillic_titles() {
    use bibgenie_compaction::ledger::{lookup, LedgerQuery};
    let titled = |key: &str, label: &str| LedgerEntry {
        kind: LedgerKind::Item,
        key: key.into(),
        label: Some(label.into()),
        parent_key: None,
        detail: None,
        library_id: None,
        group_id: None,
    };
    let ledger = ResourceLedger {
        entries: vec![
            titled("AAAA2345", "Ökologie des Waldes"),
            titled("BBBB2345", "ΑΡΧΑΙΑ ΙΣΤΟΡΙΑ"),
            titled("CCCC2345", "Ёжик и ИСТОРИЯ"),
            titled("DDDD2345", "唐詩三百首"),
        ],
    };
    let keys = |text: &str| {
        lookup(&ledger, &LedgerQuery { text: Some(text.into()), ..Default::default() })
            .iter()
            .map(|e| e.key.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(keys("ökologie"), ["AAAA2345"]);
    assert_eq!(keys("ÖKOLOGIE DES"), ["AAAA2345"]);
    assert_eq!(keys("αρχαια"), ["BBBB2345"]);
    assert_eq!(keys("ёжик и история"), ["CCCC2345"]);
    assert_eq!(keys("三百"), ["DDDD2345"]);
    assert_eq!(keys("aaaa2345"), ["AAAA2345"]);
    assert!(keys("×").is_empty());
}

// ---- The ledger's lookup tree (tool data read without its full tree) ----

/// The ledger entries `zotero::find` gives for `text` read as the full tree and as `lookup_tree`.
fn both_ledgers(text: &str) -> (Vec<LedgerEntry>, Vec<LedgerEntry>) {
    let full: serde_json::Value = serde_json::from_str(text).unwrap_or(serde_json::Value::Null);
    let entries = |value: &serde_json::Value| bibgenie_compaction::zotero::find(value).into_iter().map(|o| o.entry).collect::<Vec<_>>();
    (entries(&full), entries(&ledger::lookup_tree(text)))
}

fn assert_same_ledger(text: &str) {
    let (full, lookup) = both_ledgers(text);
    assert_eq!(lookup, full, "lookup tree of {}", &text[..text.len().min(200)]);
}

#[test]
fn the_lookup_tree_finds_what_the_full_tree_finds_in_every_fixture() {
    let fixtures = [SEARCH_RESULTS, ITEM_TOJSON, CHILDREN, ANNOTATIONS, COLLECTIONS, TAGS, READER_LOCATIONS];
    let mut found = 0;
    for text in fixtures {
        let value = fixture(text);
        // As given, compact, and each top-level field or element alone (tool results are often one of them).
        assert_same_ledger(text);
        assert_same_ledger(&value.to_string());
        let children: Vec<serde_json::Value> = match &value {
            serde_json::Value::Object(map) => map.values().cloned().collect(),
            serde_json::Value::Array(items) => items.clone(),
            _ => Vec::new(),
        };
        for child in children {
            assert_same_ledger(&child.to_string());
            // JSON held in a string (an MCP text result).
            assert_same_ledger(&serde_json::Value::String(format!("  {child}\n")).to_string());
        }
        found += both_ledgers(text).0.len();
    }
    assert!(found > 20, "the fixtures hold Zotero objects ({found})");
    for node in research_nodes() {
        for part in node["parts"].as_array().into_iter().flatten() {
            for field in ["input", "output", "data"] {
                if let Some(value) = part.get(field) {
                    assert_same_ledger(&value.to_string());
                }
            }
        }
    }
}

#[test]
fn the_lookup_tree_keeps_the_full_trees_edge_cases() {
    let cases = [
        // Duplicate keys: the last wins, whichever of them the lookup tree would drop.
        r#"{"a":[{"key":"AAAA2222","itemType":"book"}],"a":"plain"}"#,
        r#"{"a":"plain","a":[{"key":"AAAA2222","itemType":"book"}]}"#,
        r#"{"key":"AAAA2222","itemType":"book","title":"First","title":"Second"}"#,
        // A tag object with a field a tag may not have is not a tag; with allowed fields it is.
        r#"[{"tag":"x","abstract":"long"},{"tag":"y","type":1,"numItems":3,"color":"red"},{"tag":"z","meta":{"type":0}}]"#,
        // Escaped keys and values (a key or tag spelled only with escapes is read too).
        r#"{"\u006bey":"AAAA2222","itemType":"journal\u0041rticle","title":"T\u00e9"}"#,
        r#"[{"t\u0061g":"escaped"}]"#,
        r#"{"result":"{\"\\u006bey\":\"LLLL2222\",\"itemType\":\"book\"}"}"#,
        // Web API envelopes and locations inheriting their attachment.
        r#"{"key":"BBBB3333","version":4,"library":{"id":1},"data":{"key":"BBBB3333","itemType":"attachment","contentType":"application/pdf","pageCount":12,"pages":[{"pageIndex":2,"pageLabel":"3"}]}}"#,
        r#"{"attachmentKey":"CCCC4444","numPages":"9","pages":[{"pageIndex":1,"text":"{not json"},{"pageIndex":"2"}]}"#,
        r#"{"items":["{\"key\":\"DDDD5555\",\"itemType\":\"book\"}"," [{\"tag\":\"q\"}] ","[plain]"]}"#,
        r#"{"key":"EEEE6666","itemType":"annotation","annotationPosition":"{\"pageIndex\":4}","annotationText":"x"}"#,
        r#"{"key":"EEEE7777","itemType":"annotation","annotationPosition":{"value":"epubcfi(/6/4)","pageIndex":1}}"#,
        r#"{"key":"FFFF8888","name":"Coll","parentCollection":false,"extra":[]}"#,
        r#"{"cfi":"epubcfi(/6/2)","itemKey":"GGGG9999","href":"ch1.xhtml","sectionIndex":2.0}"#,
        r#"[1, true, null, "s", 2.5, {"key":"HHHH2222","itemType":"book","creators":[{"creatorType":"editor","name":"Org"}],"date":"May 2001","publisher":"P"}]"#,
        // Creators: the primary ones are chosen by what the others are, empty or odd entries included.
        r#"{"key":"KKKK2222","itemType":"book","creators":[{"creatorType":"editor","lastName":"Ed"},{}],"date":"1999"}"#,
        r#"{"key":"KKKK3333","itemType":"book","creators":[{"creatorType":"editor","lastName":"Ed"},7,"x",[]]}"#,
        r#"{"key":"KKKK4444","itemType":"book","creators":[{"creatorType":"editor","lastName":"Ed"},{"firstName":"Only"}]}"#,
        r#"{"key":"KKKK5555","itemType":"book","creators":[[{"creatorType":"author","lastName":"Nested"}],{"creatorType":"translator","name":"T"}]}"#,
        // Not JSON, or nested past the tree's limit: nothing found either way.
        r#"{"key":"AAAA2222","itemType":"book""#,
        "\"just a string\"",
    ];
    for text in cases {
        assert_same_ledger(text);
    }
    let deep = |levels: usize| format!("{}{{\"key\":\"JJJJ2222\",\"itemType\":\"book\"}}{}", "[".repeat(levels), "]".repeat(levels));
    for levels in [10, 63, 64, 65, 126, 127, 128, 200] {
        assert_same_ledger(&deep(levels));
    }
    assert_eq!(both_ledgers(&deep(10)).0.len(), 1);
    // What the escapes spell is found, by both trees.
    assert_eq!(both_ledgers(r#"[{"t\u0061g":"escaped"}]"#).1.len(), 1);
    assert_eq!(both_ledgers(r#"{"result":"{\"\\u006bey\":\"LLLL2222\",\"itemType\":\"book\"}"}"#).1.len(), 1);
    // A result naming no key or tag has no ledger entries and is not read for them.
    assert_eq!(ledger::lookup_tree(r#"{"url":"https://example.org","text":"a web page"}"#), serde_json::Value::Null);
}

#[cfg(not(target_arch = "wasm32"))] // proptest is a native-only dev-dependency
mod lookup_tree_property {
    use super::both_ledgers;
    use proptest::prelude::*;
    use serde_json::{Map, Value};

    /// Field names `zotero::find` reads and others, strings that are Zotero keys, item types, creator
    /// types, locators and JSON, so generated values often are (or almost are) Zotero objects.
    const NAMES: [&str; 24] = [
        "key", "itemType", "title", "creators", "creatorType", "lastName", "name", "date", "parentItem", "contentType",
        "tag", "type", "meta", "data", "library", "version", "annotationPosition", "pageIndex", "attachmentKey", "cfi",
        "href", "sectionIndex", "abstractNote", "extra",
    ];
    const STRINGS: [&str; 16] = [
        "ABCD2345", "EFGH6789", "journalArticle", "book", "attachment", "annotation", "note", "author", "editor",
        "epubcfi(/6/4)", "ch1.xhtml", "2019", "", " x ", r#"{"key":"JJJJ2222","itemType":"book"}"#, r#"[{"tag":"t"}]"#,
    ];

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            prop_oneof![Just(0.0), Just(2.0), Just(3.5), Just(-1.0)].prop_map(|n: f64| Value::from(n)),
            (0u64..5).prop_map(Value::from),
            prop::sample::select(&STRINGS[..]).prop_map(|s| Value::String(s.to_string())),
        ];
        leaf.prop_recursive(5, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((prop::sample::select(&NAMES[..]), inner), 0..7)
                    .prop_map(|fields| Value::Object(fields.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<_, _>>())),
            ]
        })
    }

    /// An item with creators of any shape (primary creators are chosen by what the others are).
    fn item() -> impl Strategy<Value = Value> {
        let creator = prop::collection::vec(
            (prop::sample::select(&["creatorType", "lastName", "name", "firstName"][..]), prop::sample::select(&STRINGS[..])),
            0..3,
        )
        .prop_map(|fields| Value::Object(fields.into_iter().map(|(k, v)| (k.to_string(), Value::String(v.to_string()))).collect()));
        let creators = prop::collection::vec(prop_oneof![4 => creator, 1 => value()], 0..4);
        (prop::sample::select(&["journalArticle", "book", "attachment", "note"][..]), creators, value()).prop_map(|(item_type, creators, extra)| {
            serde_json::json!({ "key": "ABCD2345", "itemType": item_type, "creators": creators, "date": "2019", "extra": extra })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(10_000))]
        #[test]
        fn the_lookup_tree_finds_what_the_full_tree_finds(value in prop_oneof![value(), item(), prop::collection::vec(item(), 1..3).prop_map(Value::Array)]) {
            let text = value.to_string();
            let (full, lookup) = both_ledgers(&text);
            prop_assert_eq!(lookup, full, "{}", text);
        }
    }
}

// ---- Issue 23, item 3: the projected ledger's budget comes from the model ----

/// A manual compaction of the research session on `model` with `summary`, committed as the runner
/// does (`checkpointNode` with the request's `maxOutputTokens`): the plan, the checkpoint, the ledger.
fn committed_checkpoint(model: &bibgenie_compaction::estimate::ModelProfile, summary: &str) -> (bibgenie_compaction::plan::Plan, bibgenie_compaction::session::Checkpoint) {
    use bibgenie_compaction::commit::checkpoint_node_within;
    use bibgenie_compaction::session::Mode;
    use bibgenie_compaction::plan::{plan, PlanAction, PlanOptions};
    let session = research_session();
    let p = plan(&session, model, &PlanOptions::new(Mode::Manual)).expect("plan");
    assert_eq!(p.action, PlanAction::Compact, "{p:?}");
    let request = summary_request(&session, &p, model).expect("summary request");
    let node = checkpoint_node_within(&p, summary, &request.ledger, &Default::default(), "ckpt_test", Some(request.max_output_tokens)).expect("checkpoint");
    (p, bibgenie_compaction::session::Checkpoint::from_value(&node["checkpoint"]).expect("checkpoint reads back"))
}

/// The eight sections, one line each: about 150 estimated tokens.
fn concise_summary() -> String {
    bibgenie_compaction::summarize::SECTIONS.iter().map(|s| format!("## {s}\n- (user) dogs, diet.\n")).collect()
}

/// The ledger lines of a summary message (after the heading).
fn projected_lines(text: &str) -> &str {
    text.split_once(bibgenie_compaction::projection::LEDGER_HEADING).map_or("", |(_, lines)| lines)
}

#[test]
fn a_concise_summary_on_a_128k_model_projects_every_zotero_locator_of_the_compacted_turns() {
    use bibgenie_compaction::projection::summary_message_text;
    use bibgenie_compaction::tokens::estimate_text;
    let summary = concise_summary();
    assert!(estimate_text(&summary) < 200, "a concise summary: {}", estimate_text(&summary));
    let (_, checkpoint) = committed_checkpoint(&model(128_000, None), &summary);
    assert_eq!(checkpoint.ledger_budget, Some(2_056), "a quarter of the 8,192-token summary budget, stored on the checkpoint");
    let ledger = &checkpoint.ledger;
    let kinds: std::collections::BTreeSet<_> = ledger.entries.iter().map(|e| e.kind).collect();
    assert_eq!(kinds.len(), 6, "items, attachments, annotations, collections, tags and locations: {kinds:?}");
    let text = summary_message_text(&checkpoint);
    assert_eq!(projected_lines(&text), ledger::render(ledger), "the whole ledger is shown, without a left-out line");
    for entry in &ledger.entries {
        assert!(text.contains(&entry.key), "{} is projected", entry.key);
    }
}

#[test]
fn an_accepted_long_summary_on_an_8k_model_projects_no_more_ledger_than_the_documented_budget() {
    use bibgenie_compaction::estimate::{capacity, projected_ledger_budget};
    use bibgenie_compaction::commit::check_summary_budget;
    use bibgenie_compaction::projection::summary_message_text;
    use bibgenie_compaction::tokens::estimate_text;
    let model = model(8_192, None);
    let budget = capacity(&model).unwrap().summary_max_output_tokens;
    let line = "- (tool) the cohort of 412 dogs on restricted diets lived longer; see page 213 of the PDF.\n";
    let summary: String = bibgenie_compaction::summarize::SECTIONS.iter().map(|s| format!("## {s}\n{}", line.repeat(22))).collect();
    let tokens = estimate_text(&summary);
    assert!((3_500..6_000).contains(&tokens), "a long summary: {tokens}");
    assert_eq!(check_summary_budget(&summary, budget), Ok(()), "the runner accepts it");
    let (p, checkpoint) = committed_checkpoint(&model, &summary);
    assert_eq!(checkpoint.ledger_budget, Some(212));
    assert_eq!(p.ledger_budget, Some(projected_ledger_budget(&capacity(&model).unwrap())), "the plan carries the same budget");
    let text = summary_message_text(&checkpoint);
    let lines = projected_lines(&text);
    let (shown, left_out) = lines.rsplit_once('\n').expect("some entries are left out");
    assert!(left_out.contains("more entries are kept"), "{left_out}");
    assert!(estimate_text(shown) <= 212, "the shown lines keep the 212-token budget: {}", estimate_text(shown));
}

#[test]
fn a_checkpoint_without_a_stored_budget_projects_as_before() {
    use bibgenie_compaction::projection::summary_message_text;
    let whole = numbered_ledger(400);
    let summary = concise_summary();
    let old = checkpoint_with(&summary, &whole);
    assert_eq!(old.ledger_budget, None);
    let before = ledger::project_ledger(&whole, &summary, ledger::projected_budget(&summary));
    assert_eq!(projected_lines(&summary_message_text(&old)), before.text, "an old file reads the same");
    let mut stored = old.clone();
    stored.ledger_budget = Some(2_056);
    assert!(ledger::project_ledger(&whole, &summary, 2_056).shown > before.shown);
    assert_eq!(projected_lines(&summary_message_text(&stored)), ledger::project_ledger(&whole, &summary, 2_056).text);
}
#[test]
fn keys_the_user_designated_are_projected_before_the_ones_tools_named_later() {
    // Issue 22: the designated keys are named once, early, on a user line; sixty tool findings name
    // other keys after them. With room for a few entries the designated ones come first.
    let whole = numbered_ledger(1_000);
    let designated = ["K0000004", "K0000005"];
    let findings: String = (100..160).map(|n| format!("- (tool) K{n:07} was read\n")).collect();
    let summary = format!(
        "## User Requirements and Constraints\n- (user, key) Build the review on {} and {}.\n## Findings and Evidence\n{findings}",
        designated[0], designated[1]
    );
    let projected = ledger::project_ledger(&whole, &summary, ledger::projected_budget(&summary));
    assert!(projected.shown >= 2 && projected.shown < 60, "{projected:?}");
    for key in designated {
        assert!(projected.text.contains(&format!(" {key}: ")), "{key} was designated by the user: {}", projected.text);
    }
}

/// A plugin's tool output as issue 41 found it: numeric item ids, `zotero://` links in markdown and in
/// JSON fields, `{ libraryID, key }` pairs; none of it Zotero's own JSON (the ledger held 0 entries).
fn plugin_nodes() -> Vec<serde_json::Value> {
    let search = json!({ "results": [
        { "itemId": 123, "title": "Protein needs of working dogs" },
        { "itemID": 456, "title": "Unresolved paper" },
        { "libraryID": 3, "key": "QRST6789", "title": "A group's paper" },
        { "quote": "Protein intake rose by a third.", "url": "zotero://open-pdf/library/items/MNPQ2345?page=12" }
    ] });
    let quotes = "> \"Working dogs need 30 % more protein.\" ([p. 7](zotero://open-pdf/library/items/ABCD2345?page=7))\n\
                  See also [the group copy](zotero://select/groups/4711/items/HJKL6789).";
    vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "What do working dogs eat? Look at zotero://select/library/items/ABCD234 first." }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [
            { "type": "tool-search_library", "toolCallId": "c1", "state": "output-available", "input": { "contextItemId": 789 }, "output": search },
            { "type": "tool-read_quotes", "toolCallId": "c2", "state": "output-available", "input": {}, "output": quotes },
            { "type": "text", "text": "Dogs in hard work need more fat.\n[p. 3](zotero://open-pdf/groups/4711/items/HJKL6789?page=3&annotation=WXYZ6789)" } ] }),
        json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": [{ "type": "text", "text": "And cats?" }] }),
        json!({ "id": "A2", "parentId": "U2", "role": "assistant", "parts": [{ "type": "text", "text": "Later." }] }),
    ]
}

#[test]
fn plugin_references_feed_the_ledger_and_the_cited_pages() {
    use bibgenie_compaction::session::read_branch;
    use bibgenie_compaction::summarize::summary_request_resolved;
    use bibgenie_compaction::zotero::{ResolvedItem, ResolvedItems};
    let session = session_of(plugin_nodes(), "A2");
    let p = plan(&["U1", "A1"], Some("U2"), None, "A2");
    let m = model(128_000, None);

    // Without the app's resolver: the links and pairs by code, the numeric ids listed for it.
    let unresolved = summary_request(&session, &p, &m).unwrap();
    assert_eq!(unresolved.item_ids, vec![789, 123, 456], "ids in the folded range, each once, tool input first");
    let keys = |ledger: &ResourceLedger| ledger.entries.iter().map(|e| (e.kind, e.key.clone())).collect::<Vec<_>>();
    assert_eq!(
        keys(&unresolved.ledger),
        vec![
            (LedgerKind::Item, "HJKL6789".to_string()),
            (LedgerKind::Item, "QRST6789".to_string()),
            (LedgerKind::Attachment, "ABCD2345".to_string()),
            (LedgerKind::Attachment, "HJKL6789".to_string()),
            (LedgerKind::Attachment, "MNPQ2345".to_string()),
            (LedgerKind::Annotation, "WXYZ6789".to_string()),
        ],
        "the user's 7-character key is no link"
    );
    let group = entry(&unresolved.ledger, LedgerKind::Item, "HJKL6789");
    assert_eq!(group.group_id, Some(4711));
    assert_eq!(entry(&unresolved.ledger, LedgerKind::Item, "QRST6789").library_id, Some(3));
    assert_eq!(entry(&unresolved.ledger, LedgerKind::Annotation, "WXYZ6789").parent_key.as_deref(), Some("HJKL6789"));
    assert!(ledger::render(&unresolved.ledger).contains("- item HJKL6789 (group 4711)"), "{}", ledger::render(&unresolved.ledger));

    let pages: Vec<(&str, &str, &str)> = unresolved.cited_pages.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    assert!(pages.contains(&("MNPQ2345", "p. 12", "Protein intake rose by a third.")), "{pages:?}");
    assert!(pages.contains(&("ABCD2345", "p. 7", "> \"Working dogs need 30 % more protein.\" ([p. 7](ABCD2345))")), "{pages:?}");
    assert!(pages.contains(&("HJKL6789", "p. 3", "Dogs in hard work need more fat. [p. 3](HJKL6789)")), "the link alone cites the sentence before: {pages:?}");
    assert_eq!(pages.len(), 3, "{pages:?}");

    // With the app's answers: the resolved keys join the ledger; what it could not resolve stays listed.
    let resolved: ResolvedItems = [
        (123, ResolvedItem { library_id: 1, key: "WXYZ2345".into() }),
        (789, ResolvedItem { library_id: 1, key: "not a key".into() }),
    ]
    .into();
    let request = summary_request_resolved(&session, &read_branch(&session), &p, &m, &resolved, &Default::default()).unwrap();
    assert_eq!(request.item_ids, vec![789, 456]);
    let paper = entry(&request.ledger, LedgerKind::Item, "WXYZ2345");
    assert_eq!((paper.label.as_deref(), paper.library_id), (Some("Protein needs of working dogs"), Some(1)));
    assert_eq!(request.ledger.entries.len(), unresolved.ledger.entries.len() + 1);
}

#[test]
fn resolved_item_ids_cite_pages_of_tool_data() {
    use bibgenie_compaction::registers::collect_cited_pages_resolved;
    use bibgenie_compaction::zotero::{ResolvedItem, ResolvedItems};
    let output = json!({ "citations": [{ "itemId": 123, "page": 4, "text": "Fat is the main fuel." }] });
    let nodes = vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "Quote it." }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [
            { "type": "tool-quote", "toolCallId": "c1", "state": "output-available", "input": {}, "output": output } ] }),
    ];
    let session = session_of(nodes, "A1");
    let resolved: ResolvedItems = [(123, ResolvedItem { library_id: 1, key: "WXYZ2345".into() })].into();
    let messages = messages(&session);
    let (ledger, unresolved) = ledger::collect_resolved(messages.iter().copied(), &resolved);
    assert!(unresolved.is_empty());
    let cited = collect_cited_pages_resolved(&nodes_of(&session, &["U1", "A1"]), &ledger, &resolved);
    let pages: Vec<(&str, &str, &str)> = cited.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    assert_eq!(pages, vec![("WXYZ2345", "p. 4", "Fat is the main fuel.")]);
}

#[test]
fn links_in_tool_data_survive_the_lookup_tree() {
    // The lookup tree drops long strings of tool data; a link in any field is kept, as the full tree has it.
    let text = json!({ "abstract": "long text", "url": "zotero://select/library/items/ABCD2345", "n": { "itemID": 9 } }).to_string();
    let mut from_lookup = bibgenie_compaction::zotero::Refs::default();
    bibgenie_compaction::zotero::find_refs(&ledger::lookup_tree(&text), &Default::default(), &mut from_lookup);
    let mut from_full = bibgenie_compaction::zotero::Refs::default();
    bibgenie_compaction::zotero::find_refs(&serde_json::from_str(&text).unwrap(), &Default::default(), &mut from_full);
    assert_eq!(from_lookup.entries, from_full.entries);
    assert_eq!((from_lookup.unresolved, from_lookup.entries.len()), (vec![9], 1));
}

#[test]
fn a_ledger_collected_in_steps_is_the_ledger_collected_at_once() {
    // A long fold's summary request collects its ledger a part per task: every split of the
    // messages, fed in order, gives the ledger and the unresolved ids of one pass.
    let session = research_session();
    let messages = messages(&session);
    let resolved: bibgenie_compaction::zotero::ResolvedItems =
        [(123, bibgenie_compaction::zotero::ResolvedItem { library_id: 1, key: "WXYZ2345".into() })].into();
    let whole = ledger::collect_resolved(messages.iter().copied(), &resolved);
    assert!(whole.0.entries.len() >= 5, "a session with several objects: {}", whole.0.entries.len());
    for step in 1..=messages.len() {
        let mut collecting = ledger::Collecting::default();
        for chunk in messages.chunks(step) {
            collecting.feed(chunk.iter().copied(), &resolved);
        }
        assert_eq!(collecting.finish(), whole, "steps of {step} messages");
    }
}

/// Rule `labelled-key-is-a-key`, in JSON: a tool asked about an item by a field named as a key
/// (`{ itemKey }`, `{ attachmentKey }`) names that item, though nothing it returns is Zotero's JSON;
/// a key-shaped value of any other field is no key.
#[test]
fn a_field_named_as_a_key_labels_its_value() {
    let nodes = vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "read it" }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [
            { "type": "tool-fulltext", "toolCallId": "c1", "state": "output-available", "input": { "itemKey": "ABCD2345" },
              "output": { "content": "Heat pumps kept the flats warm.", "indexedPages": 12, "totalPages": 12 } },
            { "type": "tool-read_page", "toolCallId": "c2", "state": "output-available", "input": { "attachmentKey": "WXYZ6789", "page": 3 }, "output": "page text" },
            { "type": "tool-status", "toolCallId": "c3", "state": "output-available", "input": { "mode": "DEADLINE", "itemKey": "not a key" }, "output": { "state": "HJKL6789" } },
            { "type": "text", "text": "Read." } ] }),
    ];
    let session = session_of(nodes, "A1");
    let ledger = ledger::collect(messages(&session));
    entry(&ledger, LedgerKind::Item, "ABCD2345");
    entry(&ledger, LedgerKind::Attachment, "WXYZ6789");
    assert_eq!(ledger.entries.len(), 2, "{ledger:#?}");
    assert_same_ledger(&serde_json::to_string(&json!({ "itemKey": "ABCD2345", "nested": [{ "parentKey": "WXYZ6789" }] })).unwrap());
}
