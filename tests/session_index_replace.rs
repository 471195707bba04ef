//! `SessionIndex::replace_node`: a message updated in place (a tool result or an approval arriving)
//! gives the answers of an index built afresh from the updated session, and re-reads that message
//! only.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

use bibgenie_compaction::estimate::{Draft, EstimateRequest, ModelProfile};
use bibgenie_compaction::session::{Mode, Node};
use bibgenie_compaction::plan::PlanOptions;
use bibgenie_compaction::session_index::SessionIndex;
use common::*;
use serde_json::{json, Value};

fn preflight(draft: &str) -> PlanOptions {
    PlanOptions { mode: Mode::Preflight, draft: Some(Draft::Text(draft.to_string())), overhead: 0 }
}

/// Every answer an index gives, for comparing two indexes.
fn answers(index: &mut SessionIndex, m: &ModelProfile) -> Value {
    let auto = index.plan(m, &PlanOptions::new(Mode::Auto)).expect("auto plan");
    let pre = index.plan(m, &preflight("and the second paper?")).expect("preflight");
    let estimate = index.estimate(m, &EstimateRequest { draft: None, overhead: 50 }).expect("estimate");
    json!({
        "auto": serde_json::to_value(auto).unwrap(),
        "preflight": serde_json::to_value(pre).unwrap(),
        "estimate": serde_json::to_value(estimate).unwrap(),
        "branch": index.branch().nodes,
    })
}

/// A session whose middle assistant message calls a tool, still waiting for its result.
fn with_pending_tool(turns: usize) -> (Vec<Value>, String) {
    let (mut nodes, leaf) = linear(turns, 30);
    let at = nodes.len() / 2 + 1; // an assistant message
    let (id, parent) = (nodes[at]["id"].as_str().unwrap().to_string(), nodes[at]["parentId"].as_str().unwrap().to_string());
    nodes[at] = assistant_tool(&id, &parent, "zoteroSearch", "input-available", json!({ "q": "sleep" }), None);
    (nodes, leaf)
}

fn done(node: &Value) -> Value {
    let id = node["id"].as_str().unwrap();
    let output = json!({ "items": [{ "key": "ABCD2345", "title": "Sleep and memory" }], "text": "word ".repeat(400) });
    assistant_tool(id, node["parentId"].as_str().unwrap(), "zoteroSearch", "output-available", json!({ "q": "sleep" }), Some(output))
}

#[test]
fn a_replaced_message_answers_as_a_fresh_index() {
    for m in [model(8_192, None), model(200_000, Some(32_000))] {
        let (mut nodes, leaf) = with_pending_tool(40);
        let mut index = SessionIndex::from_session(session(nodes.clone(), &leaf));
        answers(&mut index, &m); // fill the caches
        let at = nodes.iter().position(|n| n["parts"][1]["state"] == "input-available").unwrap();
        nodes[at] = done(&nodes[at]);
        index.replace_node(Node::parse_strict(nodes[at].clone()).unwrap()).unwrap();
        let mut fresh = SessionIndex::from_session(session(nodes.clone(), &leaf));
        assert_eq!(answers(&mut index, &m), answers(&mut fresh, &m));
        // The leaf replaced too (the final usage arriving), then a turn appended.
        let last = nodes.len() - 1;
        nodes[last] = assistant_with_usage(&leaf, nodes[last]["parentId"].as_str().unwrap(), "final answer", json!({ "inputTokens": 3000, "outputTokens": 40 }));
        index.replace_node(Node::parse_strict(nodes[last].clone()).unwrap()).unwrap();
        nodes.push(user("U-next", Some(&leaf), "next question"));
        index.append(nodes[last + 1].clone()).unwrap();
        index.set_leaf("U-next", 3).unwrap();
        let mut fresh = SessionIndex::from_session(session_at(nodes.clone(), "U-next", 3));
        assert_eq!(answers(&mut index, &m), answers(&mut fresh, &m));
    }
}

#[test]
fn a_replacement_reads_that_message_again_and_sums_from_it() {
    let m = model(8_192, None);
    let (mut nodes, leaf) = with_pending_tool(500);
    let mut index = SessionIndex::from_session(session(nodes.clone(), &leaf));
    index.plan(&m, &preflight("q")).unwrap();
    let (estimated, summed) = index.branch_tokens().work();
    assert_eq!(estimated, 1_000);
    let at = nodes.iter().position(|n| n["parts"][1]["state"] == "input-available").unwrap();
    nodes[at] = done(&nodes[at]);
    index.replace_node(Node::parse_strict(nodes[at].clone()).unwrap()).unwrap();
    index.plan(&m, &preflight("q")).unwrap();
    let (estimated_after, summed_after) = index.branch_tokens().work();
    assert_eq!(estimated_after, estimated + 1, "only the replaced message is estimated again");
    assert_eq!(summed_after - summed, nodes.len() - at, "the sums are extended from its position");
    // The update's revision bump keeps the leaf: nothing is walked or summed again.
    index.set_leaf(&leaf, 7).unwrap();
    let planned = index.plan(&m, &preflight("q")).unwrap();
    assert_eq!(index.branch_tokens().work(), (estimated_after, summed_after));
    assert_eq!(planned.basis.branch_revision, 7);
    let mut fresh = SessionIndex::from_session(session_at(nodes, &leaf, 7));
    assert_eq!(answers(&mut index, &m), answers(&mut fresh, &m));
}

#[test]
fn only_a_message_keeping_its_parent_is_replaced() {
    let (nodes, leaf) = linear(3, 5);
    let mut index = SessionIndex::from_session(session(nodes.clone(), &leaf));
    let moved = user("U2", Some("U1"), "moved under another parent");
    assert_eq!(index.replace_node(Node::parse_strict(moved).unwrap()).unwrap_err().code.as_str(), "invalid-node");
    let unknown = user("nope", None, "not in the session");
    assert_eq!(index.replace_node(Node::parse_strict(unknown).unwrap()).unwrap_err().code.as_str(), "not-found");
    let as_checkpoint = checkpoint("A1", "U1", Some("U1"), None, "summary");
    assert!(index.replace_node(Node::parse_strict(as_checkpoint).unwrap()).is_err());
    let mut fresh = SessionIndex::from_session(session(nodes, &leaf));
    let m = model(8_192, None);
    assert_eq!(answers(&mut index, &m), answers(&mut fresh, &m), "a refused replacement changes nothing");
}

fn session_at(nodes: Vec<Value>, leaf: &str, revision: u64) -> bibgenie_compaction::session::Session {
    bibgenie_compaction::session::Session::from_json_str(&session_value(nodes, leaf, revision).to_string()).expect("parses")
}
