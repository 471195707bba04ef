//! Rule `fold-fits-the-summarizer`: a fold whose history one summary request cannot hold (an imported
//! chat, a switch to a smaller model) is summarized in rounds of whole turns, each request within the
//! model's safe input limit and saying where the next round starts (`continuesAt`); a round folds into
//! the checkpoint built from the one before, and only the last round's summary is committed, with the
//! ledger and registers of every round.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::error::ErrorCode;
use bibgenie_compaction::estimate::{capacity, ModelProfile};
use bibgenie_compaction::plan::{plan, Plan, PlanAction, PlanOptions};
use bibgenie_compaction::session::{Mode, Session};
use bibgenie_compaction::summarize::{summary_request_resolved, Round, SummaryRequest};
use bibgenie_compaction::tokens::estimate_text;
use common::*;
use serde_json::{json, Value};

/// Turns in three languages, of uneven length, with a tool result naming a Zotero item now and then.
fn long_chat(turns: usize) -> (Vec<Value>, String) {
    let questions = [
        "Which cohort studies measure sleep duration with actigraphy rather than questionnaires?",
        "Những nghiên cứu nào đo thời lượng giấc ngủ bằng thiết bị đeo tay, và cỡ mẫu là bao nhiêu?",
        "哪些队列研究用腕动计测量睡眠时长？请保留页码。",
    ];
    let mut nodes = Vec::new();
    let mut parent: Option<String> = None;
    for t in 0..turns {
        let (u, a) = (format!("U{t}"), format!("A{t}"));
        nodes.push(user(&u, parent.as_deref(), &format!("{} (turn {t})", questions[t % 3])));
        let body = "The actigraphy cohort reports shorter sleep in shift workers, with the effect strongest in the first year. ".repeat(3 + (t * 7) % 11);
        if t % 4 == 0 {
            let key = format!("KEY{:05}", t).replace('0', "A").replace('1', "B");
            nodes.push(assistant_tool(&a, &u, "zoteroSearch", "output-available", json!({ "q": "actigraphy" }),
                Some(json!({ "items": [{ "key": &key[..8], "title": format!("Cohort {t}"), "pages": "12-19" }], "note": body }))));
        } else {
            nodes.push(assistant(&a, &u, &body));
        }
        parent = Some(a);
    }
    (nodes, parent.unwrap_or_default())
}

/// What a request sends: its system prompt and its prompt.
fn request_tokens(request: &SummaryRequest) -> u64 {
    estimate_text(&request.system) + estimate_text(&request.prompt)
}

fn manual_plan(session: &Session, model: &ModelProfile) -> Plan {
    let p = plan(session, model, &PlanOptions::new(Mode::Manual)).unwrap();
    assert_eq!(p.action, PlanAction::Compact, "{p:?}");
    p
}

/// `long_chat(turns)` on a `window` model and the manual plan that folds all but its newest turns.
fn long_chat_plan(window: u64, turns: usize) -> (ModelProfile, Session, Plan) {
    let m = model(window, None);
    let (nodes, leaf) = long_chat(turns);
    let s = session(nodes, &leaf);
    let p = manual_plan(&s, &m);
    (m, s, p)
}

fn requests(session: &Session, p: &Plan, model: &ModelProfile) -> Vec<SummaryRequest> {
    summary_rounds(session, p, model).into_iter().map(|(request, _)| request).collect()
}

#[test]
fn a_fold_one_request_cannot_hold_is_summarized_in_rounds_that_each_fit() {
    for window in [8_192, 32_768] {
        let (m, s, p) = long_chat_plan(window, if window == 8_192 { 60 } else { 160 });
        let limit = capacity(&m).unwrap().safe_input_limit;
        let rounds = requests(&s, &p, &m);
        assert!(rounds.len() >= 3, "{window}: {} rounds", rounds.len());
        let mut starts = Vec::new();
        for (r, request) in rounds.iter().enumerate() {
            assert!(request_tokens(request) <= limit, "{window}: round {r} sends {} tokens, over {limit}", request_tokens(request));
            assert_eq!(request.previous_summary.is_some(), r > 0, "{window}: round {r} folds into the round before");
            assert_eq!(request.continues_at.is_some(), r + 1 < rounds.len(), "{window}: only the last round ends the fold");
            if let Some(at) = request.continues_at {
                assert!(p.summarize_ids[at].starts_with('U'), "{window}: a round starts at a user message, not {}", p.summarize_ids[at]);
                starts.push(at);
            }
        }
        assert!(starts.windows(2).all(|w| w[0] < w[1]), "{window}: {starts:?}");
        // Every folded message is in exactly one round's history, in order.
        let histories: String = rounds.iter().map(|r| r.history.as_str()).collect();
        let mut at = 0;
        for id in &p.summarize_ids {
            let found = histories[at..].find(&format!("| id {id} ---")).unwrap_or_else(|| panic!("{window}: {id} is in no round, or out of order"));
            at += found + 1;
            assert_eq!(histories.matches(&format!("| id {id} ---")).count(), 1, "{window}: {id}");
        }
        // The last round carries every round's ledger and user words on (what one request would have).
        let one = bibgenie_compaction::summarize::summary_request_resolved(
            &s, &bibgenie_compaction::session::read_branch(&s), &p, &model(2_000_000, None), &Default::default(), &Round::default(),
        ).unwrap();
        assert_eq!(one.continues_at, None, "a two-million window holds the fold in one request");
        assert!(request_tokens(&one) > limit, "{window}: one request would have been over the limit");
        let last = rounds.last().unwrap();
        assert_eq!(last.ledger, one.ledger, "{window}");
        assert_eq!(last.user_words, one.user_words, "{window}");
        assert_eq!(last.cited_pages, one.cited_pages, "{window}");
    }
}

#[test]
fn a_fold_that_one_request_holds_is_one_round() {
    let (m, s, p) = long_chat_plan(200_000, 40);
    let rounds = requests(&s, &p, &m);
    assert_eq!(rounds.len(), 1);
    assert_eq!(rounds[0].continues_at, None);
}

#[test]
fn a_turn_over_what_a_request_holds_is_a_round_of_its_own() {
    let m = model(8_192, None);
    let mut nodes = Vec::new();
    let mut parent: Option<String> = None;
    for t in 0..6 {
        let (u, a) = (format!("U{t}"), format!("A{t}"));
        nodes.push(user(&u, parent.as_deref(), "Summarize the chapter, please."));
        // Turn 2 alone is over what one request holds.
        let words = if t == 2 { 6_000 } else { 300 };
        nodes.push(assistant(&a, &u, &"sleep ".repeat(words)));
        parent = Some(a);
    }
    let s = session(nodes, parent.as_deref().unwrap());
    let p = manual_plan(&s, &m);
    let rounds = requests(&s, &p, &m);
    let alone = rounds.iter().find(|r| r.history.contains("| id A2 ---")).expect("a round folds turn 2");
    assert!(alone.history.contains("| id U2 ---") && !alone.history.contains("| id A1 ---") && !alone.history.contains("| id U3 ---"), "{}", &alone.history[..200]);
}

#[test]
fn a_round_past_the_fold_or_without_its_previous_checkpoint_is_refused() {
    let (m, s, p) = long_chat_plan(8_192, 60);
    let branch = bibgenie_compaction::session::read_branch(&s);
    let request = |round: &Round| summary_request_resolved(&s, &branch, &p, &m, &Default::default(), round).map_err(|e| e.code);
    let first = request(&Round::default()).unwrap();
    let from = first.continues_at.expect("a second round");
    let node = bibgenie_compaction::commit::checkpoint_node_for_request(&p, &bibgenie_compaction::extractive_summary(&first), &first, "r").unwrap();
    let previous = Some(bibgenie_compaction::session::Checkpoint::from_value(&node["checkpoint"]).unwrap());
    assert!(request(&Round { from, previous: previous.clone() }).is_ok());
    assert_eq!(request(&Round { from, previous: None }).unwrap_err(), ErrorCode::InvalidOptions, "a later round needs the round before");
    assert_eq!(request(&Round { from: 0, previous: previous.clone() }).unwrap_err(), ErrorCode::InvalidOptions);
    assert_eq!(request(&Round { from: p.summarize_ids.len(), previous }).unwrap_err(), ErrorCode::InvalidOptions);
}

/// A Zotero-shaped key for `n` (eight characters of the key alphabet).
fn zotero_key(mut n: usize) -> String {
    const ALPHABET: &[u8] = b"23456789ABCDEFGHIJKLMNPQRSTUVWXYZ";
    let mut key = String::new();
    for _ in 0..8 {
        key.insert(0, ALPHABET[n % ALPHABET.len()] as char);
        n /= ALPHABET.len();
    }
    key
}

#[test]
fn a_ledger_grown_past_the_window_does_not_put_the_request_over_it() {
    // Rule `request-ledger-bounded`: a long research session's ledger (3,000 items) is larger than an
    // 8k window; the request shows this fold's items and says how many more the checkpoint keeps.
    let m = model(8_192, None);
    let limit = capacity(&m).unwrap().safe_input_limit;
    let entries: Vec<Value> = (0..3_000)
        .map(|n| json!({ "kind": "item", "key": zotero_key(n), "label": format!("Sleep and shift work, cohort study {n}"), "detail": "journalArticle" }))
        .collect();
    let summary: String = bibgenie_compaction::summarize::SECTIONS.iter().map(|s| format!("## {s}\n- (user) {} matters\n", zotero_key(42))).collect();
    let mut nodes = vec![
        user("U0", None, "Review sleep studies."),
        json!({ "id": "C0", "parentId": "U0", "checkpoint": { "summary": summary, "firstKeptMessageId": null, "previousCheckpointId": null,
            "mode": "auto", "tokensBefore": 9000, "tokensAfter": 2000, "ledger": { "entries": entries }, "basis": { "leafId": "U0", "branchRevision": 1 } } }),
    ];
    let mut parent = "C0".to_string();
    let mut new_keys = Vec::new();
    for t in 0..8 {
        let (u, a) = (format!("U{}", t + 1), format!("A{}", t + 1));
        nodes.push(user(&u, Some(&parent), "Any cohort with actigraphy?"));
        let key = zotero_key(5_000 + t);
        nodes.push(assistant_tool(&a, &u, "zoteroSearch", "output-available", json!({ "q": "actigraphy" }),
            Some(json!([{ "key": key, "itemType": "journalArticle", "title": format!("Actigraphy cohort {t}"),
                "abstractNote": "Sleep duration measured by wrist actigraphy over fourteen nights in rotating shift workers. ".repeat(12) }]))));
        new_keys.push(key);
        parent = a;
    }
    let s = session(nodes, &parent);
    let p = manual_plan(&s, &m);
    let rounds = requests(&s, &p, &m);
    let last = rounds.last().unwrap();
    // The fold's items: those of the summarized answers (the tail keeps the newest turns).
    let folded: Vec<&String> = new_keys.iter().enumerate().filter(|(t, _)| p.summarize_ids.contains(&format!("A{}", t + 1))).map(|(_, k)| k).collect();
    assert!(folded.len() >= 2, "{:?}", p.summarize_ids);
    assert_eq!(last.ledger.entries.len(), 3_000 + folded.len(), "the request's ledger stays whole");
    let shown: String = rounds.iter().map(|r| r.prompt.as_str()).collect();
    for key in folded {
        assert!(shown.contains(key.as_str()), "{key}: this fold's item is shown");
    }
    for (r, request) in rounds.iter().enumerate() {
        assert!(request_tokens(request) <= limit, "round {r}: {} tokens, over {limit}", request_tokens(request));
        assert!(request.prompt.contains("more entries are kept"), "round {r} says what it leaves out");
    }
}

/// The request with its random delimiter nonce written as NONCE: two builds of one request compare equal.
fn without_nonce(request: &SummaryRequest) -> Value {
    let mut value = serde_json::to_value(request).unwrap();
    let prompt = value["prompt"].as_str().unwrap().to_string();
    let at = prompt.find("The delimiter token of this request is ").unwrap() + "The delimiter token of this request is ".len();
    value["prompt"] = Value::from(prompt.replace(&prompt[at..at + 32], "NONCE"));
    value
}

/// A held session builds a round's request in parts, a call each (`begin_summary_request`, then
/// `continue_summary_request` until none is left: the runner's tasks), and hands it out
/// (`take_summary_request`): the same requests, round after round, as in one call. Parts are taken
/// only when every one is built, by the number they were begun under, on the session they were
/// begun on.
#[test]
fn a_request_built_in_parts_is_the_request_built_in_one() {
    use bibgenie_compaction::SessionIndex;
    let none = Default::default();
    // On 200k the history of a round is about 800 KB: written in several parts.
    for (window, turns) in [(8_000, 120), (32_000, 120), (200_000, 700)] {
        let (m, s, p) = long_chat_plan(window, turns);
        let reference = summary_rounds(&s, &p, &m);
        assert!(reference.len() >= 2, "{window}: rounds");
        let mut index = SessionIndex::from_session(s.clone());
        let mut round = Round::default();
        for (k, (expected, summary)) in reference.iter().enumerate() {
            let number = index.begin_summary_request(&p, &m, &none, &round).unwrap();
            let mut parts = 1;
            while index.continue_summary_request(number).unwrap() {
                assert!(index.take_summary_request(number).is_none(), "{window}: round {k}: taken before its last part");
                parts += 1;
            }
            if k == 0 {
                // The history in one part or more, then the ledger, the cited pages and the other
                // registers (each answering that a part is left), then the request (that none is).
                assert!(parts >= if window == 200_000 { 5 } else { 4 }, "{window}: {parts} parts");
            }
            assert!(index.take_summary_request(number.wrapping_add(1)).is_none(), "{window}: taken under another number");
            let request = index.take_summary_request(number).unwrap();
            assert_eq!(without_nonce(&request), without_nonce(expected), "{window}: round {k}");
            assert!(index.take_summary_request(number).is_none(), "{window}: taken twice");
            let node = bibgenie_compaction::commit::checkpoint_node_for_request(&p, summary, &request, "r").unwrap();
            round = Round { from: request.continues_at.unwrap_or(0), previous: Some(bibgenie_compaction::session::Checkpoint::from_value(&node["checkpoint"]).unwrap()) };
        }
        // Begun again: the parts begun before are neither continued nor taken.
        let first = index.begin_summary_request(&p, &m, &none, &Round::default()).unwrap();
        let second = index.begin_summary_request(&p, &m, &none, &Round::default()).unwrap();
        assert_ne!(first, second, "{window}: a new number for new parts");
        assert!(!index.continue_summary_request(first).unwrap(), "{window}: the older parts go on");
        while index.continue_summary_request(second).unwrap() {}
        assert!(index.take_summary_request(first).is_none(), "{window}: the older parts are taken");
        // Another index's parts: never its own, though begun with the same inputs.
        let mut other = SessionIndex::from_session(s.clone());
        assert!(!other.continue_summary_request(second).unwrap() && other.take_summary_request(second).is_none(), "{window}: another index's parts");
        // Every part built, then a summarized message updated in place: the parts are dropped.
        let (mut nodes, _) = long_chat(turns);
        let at = nodes.iter().position(|n| n["role"] == "assistant").unwrap();
        nodes[at]["parts"] = json!([{ "type": "text", "text": "Updated in place: the pilot found nothing (ABCD2345, p. 4)." }]);
        index.replace_node(bibgenie_compaction::session::Node::parse_strict(nodes[at].clone()).unwrap()).unwrap();
        assert!(!index.continue_summary_request(second).unwrap(), "{window}: nothing to continue after the change");
        assert!(index.take_summary_request(second).is_none(), "{window}: nothing to take after the change");
        let request = index.summary_request(&p, &m, &none, &Round::default()).unwrap();
        assert!(request.history.contains("Updated in place"), "{window}: the history is read again");
    }
    // Begun with the app's item ids resolved: the request with them, as built in one call.
    let quote = json!({ "citations": [{ "itemId": 123, "page": 4, "text": "Fat is the main fuel." }] });
    let nodes = vec![
        user("U1", None, "Quote it."),
        assistant_tool("A1", "U1", "quote", "output-available", json!({}), Some(quote)),
        user("U2", Some("A1"), "And the next one?"),
        assistant("A2", "U2", "Here it is."),
    ];
    let s = session(nodes, "A2");
    let m = model(32_000, None);
    let p = manual_plan(&s, &m);
    let items: bibgenie_compaction::zotero::ResolvedItems = [(123, bibgenie_compaction::zotero::ResolvedItem { library_id: 1, key: "WXYZ2345".into() })].into();
    let mut index = SessionIndex::from_session(s.clone());
    let number = index.begin_summary_request(&p, &m, &items, &Round::default()).unwrap();
    while index.continue_summary_request(number).unwrap() {}
    let request = index.take_summary_request(number).unwrap();
    assert!(request.ledger.entries.iter().any(|e| e.key == "WXYZ2345"), "the resolved item joins the ledger");
    assert!(request.cited_pages.iter().any(|c| c.key == "WXYZ2345"), "and the cited pages");
    let fresh = summary_request_resolved(&s, &bibgenie_compaction::session::read_branch(&s), &p, &m, &items, &Round::default()).unwrap();
    assert_eq!(without_nonce(&request), without_nonce(&fresh));
}
