//! Issue 23, item 2: an interrupted tool call does not block compaction forever. Rule
//! `interrupted-tool` (src/session/types.rs `pending_workflow`): an unfinished tool part is pending only while
//! its message is not cut (`metadata.aborted === true`, `metadata.finishReason === 'error'`) and no
//! user message follows it on the branch; otherwise it is interrupted: never pending for plan, commit
//! check or fork, and serialized as interrupted with no result.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::estimate::ModelProfile;
use bibgenie_compaction::commit::{check_commit, CommitRefusal};
use bibgenie_compaction::session::{can_fork, Mode};
use bibgenie_compaction::plan::{plan, Plan, PlanAction, PlanOptions, SendDecision};
use bibgenie_compaction::summarize::{serialize_ui_messages, SerializeOptions};
use common::*;
use serde_json::{json, Value};

/// Every state a tool part can be left in when its response is cut (and a dynamic tool).
const UNFINISHED: [&str; 5] = ["input-streaming", "input-available", "approval-requested", "approval-responded", "some-future-state"];

fn small_model() -> ModelProfile {
    model(8_192, None)
}

/// An assistant message with one unfinished tool part and the given metadata (the transport's mark).
fn cut_tool(id: &str, parent: &str, state: &str, dynamic: bool, metadata: Option<Value>) -> Value {
    let mut part = json!({ "toolCallId": format!("call-{id}"), "state": state, "input": { "q": "graphene" } });
    if dynamic {
        part["type"] = json!("dynamic-tool");
        part["toolName"] = json!("mcp.search");
    } else {
        part["type"] = json!("tool-zoteroSearch");
    }
    if state.starts_with("approval") {
        part["approval"] = json!({ "id": format!("ap-{id}"), "approved": true });
    }
    let mut node = json!({ "id": id, "parentId": parent, "role": "assistant", "parts": [{ "type": "step-start" }, part] });
    if let Some(metadata) = metadata {
        node["metadata"] = metadata;
    }
    node
}

/// A long session (over the 8k model's limits) whose newest turn holds `tool`, then `after` turns.
fn session_with(tool: impl Fn(&str) -> Value, turns_after: usize) -> (Vec<Value>, String) {
    let (mut nodes, leaf) = linear(150, 20);
    nodes.push(user("UT", Some(&leaf), "search for graphene membranes"));
    nodes.push(tool("UT"));
    let mut leaf = nodes.last().unwrap()["id"].as_str().unwrap().to_string();
    if turns_after > 0 {
        leaf = push_turns(&mut nodes, &leaf, 900, 900 + turns_after - 1, 20);
    }
    (nodes, leaf)
}

fn plans(nodes: &[Value], leaf: &str) -> Vec<Plan> {
    let s = session(nodes.to_vec(), leaf);
    let m = small_model();
    let preflight = PlanOptions::from_value(&json!({ "mode": "preflight", "draft": "and the next one?" })).unwrap();
    [PlanOptions::new(Mode::Manual), PlanOptions::new(Mode::Auto), preflight].iter().map(|o| plan(&s, &m, o).unwrap()).collect()
}

fn marks() -> [Value; 3] {
    [json!({ "aborted": true }), json!({ "finishReason": "error" }), json!({ "aborted": true, "finishReason": "stop" })]
}

#[test]
fn a_response_cut_by_stop_or_an_error_does_not_block_compaction() {
    for state in UNFINISHED {
        for dynamic in [false, true] {
            for mark in marks() {
                let (nodes, leaf) = session_with(|p| cut_tool("AT", p, state, dynamic, Some(mark.clone())), 0);
                for p in plans(&nodes, &leaf) {
                    assert_ne!(p.reason, "workflow-pending", "{state} {dynamic} {mark}: {p:?}");
                    assert_eq!(p.action, PlanAction::Compact, "{state} {dynamic} {mark} {:?}", p.mode);
                    assert_eq!(check_commit(&session(nodes.clone(), &leaf), &p).unwrap(), Ok(()), "{state} {mark}");
                }
            }
        }
    }
}

#[test]
fn a_tool_call_a_newer_user_message_follows_does_not_block_compaction() {
    // The case: a response aborted mid tool call (no mark), then two normal turns.
    for state in UNFINISHED {
        for dynamic in [false, true] {
            let (nodes, leaf) = session_with(|p| cut_tool("AT", p, state, dynamic, None), 2);
            for p in plans(&nodes, &leaf) {
                assert_ne!(p.reason, "workflow-pending", "{state} {dynamic}: {p:?}");
                assert_eq!(p.action, PlanAction::Compact, "{state} {dynamic} {:?}", p.mode);
                assert_eq!(check_commit(&session(nodes.clone(), &leaf), &p).unwrap(), Ok(()));
            }
            // A stored question follows it: the tool is interrupted for the question's preflight too.
            let mut asked = nodes.clone();
            asked.truncate(asked.len() - 4);
            asked.push(user("Q", Some("AT"), "next question"));
            let p = plan(&session(asked, "Q"), &small_model(), &PlanOptions::new(Mode::Preflight)).unwrap();
            assert_eq!(p.send, Some(SendDecision::AfterCompaction), "{state}: {p:?}");
        }
    }
}

#[test]
fn a_tool_call_of_the_newest_turn_that_can_still_complete_blocks_compaction() {
    for state in UNFINISHED {
        // Not cut; `finishReason` other than 'error' and `aborted` other than true are no mark.
        for metadata in [None, Some(json!({ "finishReason": "tool-calls" })), Some(json!({ "aborted": false })), Some(json!({ "aborted": "true" }))] {
            let (mut nodes, leaf) = session_with(|p| cut_tool("AT", p, state, false, metadata.clone()), 0);
            for p in plans(&nodes, &leaf) {
                assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "workflow-pending"), "{state} {metadata:?}");
            }
            // Further assistant messages of the same turn do not interrupt it.
            nodes.push(assistant("AT2", "AT", "still working"));
            let s = session(nodes.clone(), "AT2");
            let p = plan(&s, &small_model(), &PlanOptions::new(Mode::Manual)).unwrap();
            assert_eq!(p.reason, "workflow-pending", "{state}");
        }
    }
}

#[test]
fn the_commit_check_refuses_only_a_workflow_that_can_still_complete() {
    let (nodes, leaf) = linear(3, 5);
    let p = plan(&session(nodes.clone(), &leaf), &small_model(), &PlanOptions::new(Mode::Manual)).unwrap();
    assert_eq!(p.action, PlanAction::Compact);
    let with = |tool: Value| {
        let mut n = nodes.clone();
        let at = n.iter().position(|x| x["id"] == tool["id"]).unwrap();
        n[at] = tool;
        check_commit(&session(n, &leaf), &p).unwrap()
    };
    // A2 is followed by U3: interrupted. A3 is the newest turn: pending unless cut.
    assert_eq!(with(cut_tool("A2", "U2", "input-streaming", false, None)), Ok(()));
    assert_eq!(with(cut_tool("A3", "U3", "input-streaming", false, None)), Err(CommitRefusal::WorkflowPending));
    assert_eq!(with(cut_tool("A3", "U3", "input-streaming", false, Some(json!({ "aborted": true })))), Ok(()));
}

#[test]
fn an_interrupted_tool_call_is_serialized_as_interrupted_with_no_result() {
    let part = |id: &str, state: &str| json!({ "type": "tool-zoteroSearch", "toolCallId": id, "state": state, "input": { "q": id } });
    let messages = json!([
        { "id": "U1", "role": "user", "parts": [{ "type": "text", "text": "search" }] },
        { "id": "A1", "role": "assistant", "parts": [part("c1", "input-streaming"), part("c2", "output-error")] },
        { "id": "U2", "role": "user", "parts": [{ "type": "text", "text": "never mind" }] },
        { "id": "A2", "role": "assistant", "metadata": { "aborted": true }, "parts": [part("c3", "approval-requested")] },
        { "id": "A3", "role": "assistant", "parts": [part("c4", "input-available")] }
    ]);
    let text = serialize_ui_messages(&messages, &SerializeOptions::default()).unwrap();
    assert!(text.contains("--- tool zoteroSearch | call c1 | interrupted, no result ---"), "{text}");
    assert!(text.contains("--- tool zoteroSearch | call c3 | interrupted, no result ---"), "{text}");
    assert!(text.contains("--- tool zoteroSearch | call c4 | no result yet ---"), "the newest, uncut turn: {text}");
    assert!(text.contains("--- tool zoteroSearch | call c2 | error ---"));
}

#[test]
fn the_summary_request_marks_the_interrupted_call_and_the_extractive_summary_says_so() {
    let (nodes, leaf) = session_with(|p| cut_tool("AT", p, "input-streaming", false, None), 80);
    let s = session(nodes, &leaf);
    let p = plan(&s, &small_model(), &PlanOptions::new(Mode::Manual)).unwrap();
    assert!(p.summarize_ids.contains(&"AT".to_string()), "{p:?}");
    // The fold takes rounds (rule `fold-fits-the-summarizer`): the round that folds AT marks it, and
    // the committed (last) summary still says so.
    let rounds = summary_rounds(&s, &p, &small_model());
    let (request, _) = rounds.iter().find(|(r, _)| r.history.contains("id AT ---")).expect("a round folds AT");
    assert!(request.history.contains("--- tool zoteroSearch | call call-AT | interrupted, no result ---"), "{}", request.history);
    assert!(rounds.iter().all(|(r, _)| !r.history.contains("no result yet")));
    assert!(rounds.last().unwrap().1.contains("Interrupted: zoteroSearch ended without a result"));
}

#[test]
fn the_summary_request_marks_a_cut_leaf_response_interrupted() {
    // Nothing follows the cut response: the mark alone says nothing will finish it.
    // An oversized newest turn (a pasted document as the tool input) is summarized whole.
    let oversized = |p: &str| {
        let mut node = cut_tool("AT", p, "input-available", false, Some(json!({ "finishReason": "error" })));
        node["parts"][1]["input"] = json!({ "document": "membrane ".repeat(6_000) });
        node
    };
    let (nodes, leaf) = session_with(oversized, 0);
    let s = session(nodes, &leaf);
    let p = plan(&s, &small_model(), &PlanOptions::new(Mode::Manual)).unwrap();
    assert_eq!((p.action, p.first_kept_message_id.as_deref()), (PlanAction::Compact, None), "{}", p.reason);
    assert!(p.summarize_ids.contains(&"AT".to_string()));
    let (request, _) = summarize_rounds(&s, &p, &small_model());
    assert!(request.history.contains("call-AT | interrupted, no result"), "{}", &request.history[request.history.len() - 300..]);
}

#[test]
fn a_cut_response_can_be_forked_from() {
    let nodes = vec![user("U1", None, "q"), cut_tool("A1", "U1", "input-streaming", false, Some(json!({ "aborted": true })))];
    assert!(can_fork(&session(nodes, "A1"), "A1").ok);
    let nodes = vec![user("U1", None, "q"), cut_tool("A1", "U1", "input-streaming", false, None)];
    assert_eq!(can_fork(&session(nodes, "A1"), "A1").reason, Some("workflow-pending"));
}
