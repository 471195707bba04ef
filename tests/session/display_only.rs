//! Issue 41, item 5: display-only nodes (`displayOnly: { kind }`). On the branch and in the history,
//! with their kind; never projected, counted, summarized, a boundary, a turn start or a pending workflow.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::error::ErrorCode;
use bibgenie_compaction::estimate::{estimate, estimate_one_message, EstimateRequest, ModelProfile};
use bibgenie_compaction::plan::{cache_breakpoints, plan, CacheOptions, Plan, PlanAction, PlanOptions};
use bibgenie_compaction::projection::project;
use bibgenie_compaction::session::{can_fork, edit_target, history, read_branch, retry_target, Mode, Node, NodeKind, Session};
use bibgenie_compaction::session_index::SessionIndex;
use bibgenie_compaction::summarize::summary_request;
use common::*;
use serde_json::{json, Value};

const SHOWN: &str = "MARKER-ONLY-FOR-THE-EYES";

fn marker(id: &str, parent: Option<&str>, role: &str, kind: &str) -> Value {
    json!({ "id": id, "parentId": parent, "role": role, "displayOnly": { "kind": kind },
            "parts": [{ "type": "text", "text": format!("{SHOWN} {} ", "notice ".repeat(40)) }] })
}

/// `turns` turns of `words` words; with `markers`, a marker after every assistant message (roles
/// cycling through user, system and assistant), the next question under it, the leaf a marker.
fn conversation(turns: usize, words: usize, markers: bool) -> (Vec<Value>, String) {
    let mut nodes = Vec::new();
    let mut parent: Option<String> = None;
    for t in 1..=turns {
        let (u, a) = (format!("U{t}"), format!("A{t}"));
        nodes.push(user(&u, parent.as_deref(), &format!("question {t} {}", "word ".repeat(words))));
        nodes.push(assistant(&a, &u, &format!("answer {t} {}", "word ".repeat(words))));
        parent = Some(a.clone());
        if markers {
            let m = format!("M{t}");
            let role = ["user", "system", "assistant"][t % 3];
            nodes.push(marker(&m, Some(&a), role, if t % 2 == 0 { "model-switch" } else { "context-compacted" }));
            parent = Some(m);
        }
    }
    (nodes, parent.unwrap_or_default())
}

fn small_model() -> ModelProfile {
    model(8_192, None)
}

fn is_marker(id: &str) -> bool {
    id.starts_with('M')
}

/// What a plan decides, without its basis (whose leaf is a marker in one session and not the other).
fn decision(p: &Plan) -> (PlanAction, String, Option<String>, Vec<String>, u64, u64) {
    (p.action, p.reason.clone(), p.first_kept_message_id.clone(), p.summarize_ids.clone(), p.tokens_before, p.tokens_after_estimate)
}

#[test]
fn both_readers_read_a_marker_with_its_kind() {
    let (nodes, leaf) = conversation(3, 5, true);
    let s = session(nodes, &leaf); // also checks the text reader against the value reader
    let m = s.nodes.iter().find(|n| n.id == "M2").unwrap();
    assert_eq!(m.display_only().map(|d| d.kind.as_str()), Some("model-switch"));
    assert!(m.message().is_none(), "a display-only node is no message the model receives");
    assert!(matches!(&m.kind, NodeKind::DisplayOnly(message, _) if message.parts.len() == 1));
    // The history and the branch show it, exactly as given.
    let shown = history(&s);
    let row = shown.as_array().unwrap().iter().find(|n| n["id"] == "M2").unwrap();
    assert_eq!(row["displayOnly"], json!({ "kind": "model-switch" }));
    assert_eq!(read_branch(&s).nodes.len(), 9);
}

#[test]
fn a_malformed_display_only_is_an_invalid_node() {
    let base = marker("M", Some("A"), "system", "x");
    for (display, why) in [
        (json!(null), "displayOnly must be an object { kind }"),
        (json!("model-switch"), "displayOnly must be an object { kind }"),
        (json!([]), "displayOnly must be an object { kind }"),
        (json!({}), "displayOnly.kind is missing"),
        (json!({ "kind": "" }), "displayOnly.kind is empty"),
        (json!({ "kind": 3 }), "displayOnly.kind must be a string"),
    ] {
        let mut node = base.clone();
        node["displayOnly"] = display.clone();
        let error = Node::parse_strict_text(&node.to_string()).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidNode, "{display}");
        assert_eq!(error.message, format!("node M: {why}"), "{display}");
        let read = Session::from_json_str(&session_value(vec![node], "M", 0).to_string()).unwrap();
        assert!(matches!(read.nodes[0].kind, NodeKind::Invalid(_)), "{display}");
    }
    // Extra fields are the app's; the rest of the message's rules still hold.
    let mut extra = base.clone();
    extra["displayOnly"] = json!({ "kind": "notice", "level": "warning" });
    assert!(Node::parse_strict_text(&extra.to_string()).unwrap().display_only().is_some());
    let mut no_parts = base.clone();
    no_parts.as_object_mut().unwrap().remove("parts");
    assert_eq!(Node::parse_strict_text(&no_parts.to_string()).unwrap_err().code, ErrorCode::InvalidNode);
    let mut display_checkpoint = checkpoint("C", "A", None, None, "s");
    display_checkpoint["displayOnly"] = json!({ "kind": "x" });
    let error = Node::parse_strict_text(&display_checkpoint.to_string()).unwrap_err();
    assert_eq!(error.message, "node C: a checkpoint cannot be displayOnly");
}

#[test]
fn projection_skips_markers() {
    let (nodes, leaf) = conversation(4, 5, true);
    let s = session(nodes, &leaf);
    let projected = project(&s).unwrap().to_json(&s);
    let ids: Vec<&str> = projected["messages"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["U1", "A1", "U2", "A2", "U3", "A3", "U4", "A4"]);
    assert!(!projected.to_string().contains(SHOWN));
}

#[test]
fn markers_change_no_estimate_and_no_plan() {
    let m = small_model();
    for turns in [2, 6, 40] {
        let (plain, plain_leaf) = conversation(turns, 60, false);
        let (marked, marked_leaf) = conversation(turns, 60, true);
        let (plain, marked) = (session(plain, &plain_leaf), session(marked, &marked_leaf));
        let request = EstimateRequest::default();
        assert_eq!(estimate(&plain, &m, &request).unwrap(), estimate(&marked, &m, &request).unwrap(), "{turns} turns");
        let draft = EstimateRequest { draft: Some(bibgenie_compaction::estimate::Draft::Text("next".into())), overhead: 100 };
        assert_eq!(estimate(&plain, &m, &draft).unwrap(), estimate(&marked, &m, &draft).unwrap());
        for mode in [Mode::Manual, Mode::Auto, Mode::Preflight] {
            let a = plan(&plain, &m, &PlanOptions::new(mode)).unwrap();
            let b = plan(&marked, &m, &PlanOptions::new(mode)).unwrap();
            assert_eq!(decision(&a), decision(&b), "{turns} turns, {mode:?}");
            assert!(b.first_kept_message_id.as_deref().is_none_or(|id| !is_marker(id)));
            assert!(b.summarize_ids.iter().all(|id| !is_marker(id)));
        }
        // The held index answers the same.
        let mut index = SessionIndex::from_session(marked.clone());
        assert_eq!(index.estimate(&m, &request).unwrap(), estimate(&plain, &m, &request).unwrap());
    }
    // A marker by itself is free.
    assert_eq!(estimate_one_message(&marker("M", None, "system", "x"), None).unwrap(), 0);
}

#[test]
fn a_user_role_marker_never_starts_a_turn_nor_a_tail() {
    let m = small_model();
    // Every marker with role user: were it a turn start, boundaries would land on it.
    let (mut nodes, _) = conversation(60, 60, true);
    for node in nodes.iter_mut().filter(|n| is_marker(n["id"].as_str().unwrap())) {
        node["role"] = json!("user");
    }
    let s = session(nodes.clone(), "M60");
    for mode in [Mode::Manual, Mode::Auto, Mode::Preflight] {
        let p = plan(&s, &m, &PlanOptions::new(mode)).unwrap();
        assert_eq!(p.action, PlanAction::Compact, "{mode:?}: {}", p.reason);
        let kept = p.first_kept_message_id.clone().unwrap_or_default();
        assert!(kept.is_empty() || kept.starts_with('U'), "{mode:?}: boundary {kept}");
    }
    // After a compaction, the next one's boundary is never a marker either.
    let p = plan(&s, &m, &PlanOptions::new(Mode::Manual)).unwrap();
    nodes.push(checkpoint_from_plan("C1", &p, "summary"));
    nodes.push(marker("MC", Some("C1"), "user", "context-compacted"));
    let leaf = push_turns(&mut nodes, "MC", 61, 80, 60);
    let s = session(nodes, &leaf);
    let p = plan(&s, &m, &PlanOptions::new(Mode::Manual)).unwrap();
    assert!(p.first_kept_message_id.as_deref().is_none_or(|id| id.starts_with('U')));
    assert!(p.summarize_ids.iter().all(|id| !is_marker(id)));
}

#[test]
fn the_summary_request_never_holds_a_marker() {
    let m = small_model();
    let (plain, plain_leaf) = conversation(12, 60, false);
    let (marked, marked_leaf) = conversation(12, 60, true);
    let (plain, marked) = (session(plain, &plain_leaf), session(marked, &marked_leaf));
    let p = plan(&marked, &m, &PlanOptions::new(Mode::Manual)).unwrap();
    assert_eq!(p.action, PlanAction::Compact);
    let with = summary_request(&marked, &p, &m).unwrap();
    let without = summary_request(&plain, &plan(&plain, &m, &PlanOptions::new(Mode::Manual)).unwrap(), &m).unwrap();
    assert!(!with.prompt.contains(SHOWN) && !with.history.contains(SHOWN));
    assert!(!with.history.contains("id M"), "no marker id in the history");
    assert_eq!(with.history, without.history, "the same history, numbered the same");
    assert_eq!(with.ledger, without.ledger);
}

#[test]
fn a_marker_after_a_checkpoint_still_ends_the_branch_in_it() {
    let m = small_model();
    let (mut nodes, leaf) = conversation(6, 60, false);
    let p = plan(&session(nodes.clone(), &leaf), &m, &PlanOptions::new(Mode::Manual)).unwrap();
    nodes.push(checkpoint_from_plan("C1", &p, "summary"));
    nodes.push(marker("MC", Some("C1"), "system", "context-compacted"));
    let s = session(nodes, "MC");
    assert_eq!(plan(&s, &m, &PlanOptions::new(Mode::Manual)).unwrap().reason, "leaf-is-checkpoint");
    let projected = project(&s).unwrap().to_json(&s);
    assert!(!projected.to_string().contains(SHOWN));
    // No cache mark lands on it.
    let marks = cache_breakpoints(&s, &m, &EstimateRequest::default(), None, &CacheOptions::default()).unwrap();
    assert!(marks.iter().all(|b| b.message_id.as_deref() != Some("MC")));
}

#[test]
fn a_checkpoint_kept_from_a_marker_is_dangling() {
    let (mut nodes, _) = conversation(2, 5, true);
    nodes.push(checkpoint("C1", "M2", Some("M1"), None, "summary"));
    let branch = read_branch(&session(nodes, "C1"));
    assert_eq!(branch.problems[0].code, ErrorCode::DanglingBoundary);
}

#[test]
fn retry_edit_and_fork_look_past_markers() {
    let (nodes, leaf) = conversation(2, 5, true);
    let s = session(nodes, &leaf);
    let retry = retry_target(&s).unwrap().unwrap();
    assert_eq!((retry.assistant_id.as_str(), retry.parent_id.as_deref()), ("A2", Some("U2")));
    // M1 has role user (1 % 3): it is never the message an edit replaces.
    let edit = edit_target(&s).unwrap().unwrap();
    assert_eq!(edit.user_id, "U2");
    assert_eq!(can_fork(&s, "M2").reason, Some("not-assistant"));
    assert!(can_fork(&s, "A2").ok);
}

#[test]
fn a_marker_holding_a_pending_tool_blocks_nothing() {
    let m = small_model();
    let (mut nodes, leaf) = conversation(12, 60, false);
    let mut pending = assistant_awaiting_approval("MT", &leaf);
    pending["displayOnly"] = json!({ "kind": "tool-preview" });
    nodes.push(pending);
    let p = plan(&session(nodes, "MT"), &m, &PlanOptions::new(Mode::Manual)).unwrap();
    assert_eq!(p.action, PlanAction::Compact, "{}", p.reason);
}

#[test]
fn a_marker_is_no_draft() {
    let request = EstimateRequest::from_value(Some(&json!({ "draft": marker("D", None, "user", "x") }))).unwrap_err();
    assert_eq!(request.code, ErrorCode::InvalidOptions);
}

#[test]
fn a_held_index_replaces_a_marker_only_with_a_marker() {
    let (nodes, leaf) = conversation(2, 5, true);
    let mut index = SessionIndex::from_session(session(nodes, &leaf));
    let mut changed = marker("M2", Some("A2"), "system", "model-switch");
    changed["parts"] = json!([{ "type": "text", "text": "switched" }]);
    index.replace_node(Node::parse_strict(changed.clone()).unwrap()).unwrap();
    changed.as_object_mut().unwrap().remove("displayOnly");
    assert_eq!(index.replace_node(Node::parse_strict(changed).unwrap()).unwrap_err().code, ErrorCode::InvalidNode);
}
