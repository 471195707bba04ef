//! Branch reading, integrity, projection, history and session operations (issue 3).

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::error::ErrorCode;
use bibgenie_compaction::session::{can_fork, edit_target, history, read_branch, retry_target, Session};
use bibgenie_compaction::projection::{project, Projected};
use bibgenie_compaction::session_index::SessionIndex;
use common::*;
use serde_json::{json, Value};

fn seed_nodes() -> Vec<Value> {
    let mut nodes = three_turns();
    nodes.push(checkpoint("C1", "A3", Some("U3"), None, "summary one"));
    nodes
}

/// Ids of the projected messages; the summary shows as `summary:<checkpoint id>`.
fn projected_ids(session: &Session) -> Vec<String> {
    let projection = project(session).expect("projects");
    projection
        .items
        .iter()
        .map(|item| match *item {
            Projected::Summary(i) => format!("summary:{}", session.nodes[i].id),
            Projected::Message(i) => session.nodes[i].id.clone(),
        })
        .collect()
}

#[test]
fn seed_example_projects_summary_then_kept_tail() {
    let s = session(seed_nodes(), "C1");
    assert_eq!(projected_ids(&s), ["summary:C1", "U3", "A3"]);
    let projection = project(&s).unwrap();
    let json = projection.to_json(&s);
    assert_eq!(json["checkpointId"], "C1");
    assert_eq!(json["keptFromId"], "U3");
    let summary = &json["messages"][0];
    assert_eq!(summary["role"], "user");
    assert_eq!(summary["metadata"]["checkpoint"], true);
    assert!(summary["parts"][0]["text"].as_str().unwrap().contains("summary one"));
}

#[test]
fn seed_example_after_a_new_user_message() {
    let mut nodes = seed_nodes();
    nodes.push(user("U4", Some("C1"), "now the third paper"));
    let s = session(nodes, "U4");
    assert_eq!(projected_ids(&s), ["summary:C1", "U3", "A3", "U4"]);
    // The durable history still holds every node, checkpoint in place.
    let ids: Vec<_> = history(&s).as_array().unwrap().iter().map(|n| n["id"].as_str().unwrap().to_string()).collect();
    assert_eq!(ids, ["U1", "A1", "U2", "A2", "U3", "A3", "C1", "U4"]);
}

#[test]
fn null_boundary_means_no_verbatim_tail() {
    let mut nodes = seed_nodes();
    nodes[6] = checkpoint("C1", "A3", None, None, "all of it");
    nodes.push(user("U4", Some("C1"), "next"));
    let s = session(nodes, "U4");
    assert_eq!(projected_ids(&s), ["summary:C1", "U4"]);
    assert_eq!(project(&s).unwrap().to_json(&s)["keptFromId"], Value::Null);
}

#[test]
fn only_the_newest_checkpoint_counts() {
    let mut nodes = seed_nodes();
    nodes.push(user("U4", Some("C1"), "q4"));
    nodes.push(assistant("A4", "U4", "a4"));
    nodes.push(user("U5", Some("A4"), "q5"));
    nodes.push(assistant("A5", "U5", "a5"));
    nodes.push(checkpoint("C2", "A5", Some("U5"), Some("C1"), "summary two"));
    nodes.push(user("U6", Some("C2"), "q6"));
    let s = session(nodes, "U6");
    assert_eq!(projected_ids(&s), ["summary:C2", "U5", "A5", "U6"]);
}

#[test]
fn kept_tail_skips_an_older_checkpoint_inside_it() {
    // C2 keeps from U3, which is before C1: C1 sits inside the tail and must not appear.
    let mut nodes = seed_nodes();
    nodes.push(user("U4", Some("C1"), "q4"));
    nodes.push(assistant("A4", "U4", "a4"));
    nodes.push(checkpoint("C2", "A4", Some("U3"), Some("C1"), "summary two"));
    let s = session(nodes, "C2");
    assert_eq!(projected_ids(&s), ["summary:C2", "U3", "A3", "U4", "A4"]);
}

#[test]
fn fork_before_a_checkpoint_does_not_see_it_and_after_does() {
    let mut nodes = seed_nodes();
    // Fork from A2 (before C1): a new user message under A2.
    nodes.push(user("F1", Some("A2"), "forked question"));
    // Continue after C1 and fork from A4 (after C1).
    nodes.push(user("U4", Some("C1"), "q4"));
    nodes.push(assistant("A4", "U4", "a4"));
    nodes.push(user("F2", Some("A4"), "another fork"));
    let before = session(nodes.clone(), "F1");
    assert_eq!(projected_ids(&before), ["U1", "A1", "U2", "A2", "F1"]);
    let after = session(nodes.clone(), "F2");
    assert_eq!(projected_ids(&after), ["summary:C1", "U3", "A3", "U4", "A4", "F2"]);
    let s = session(nodes, "F2");
    assert!(can_fork(&s, "A2").ok);
    assert!(can_fork(&s, "A4").ok);
    assert_eq!(can_fork(&s, "C1").reason, Some("checkpoint"));
    assert_eq!(can_fork(&s, "U4").reason, Some("not-assistant"));
    assert_eq!(can_fork(&s, "nope").reason, Some("not-found"));
}

#[test]
fn fork_refuses_a_pending_tool_call() {
    let nodes = vec![
        user("U1", None, "search"),
        assistant_tool("A1", "U1", "zoteroSearch", "approval-requested", json!({"q": "x"}), None),
    ];
    let s = session(nodes, "A1");
    assert_eq!(can_fork(&s, "A1").reason, Some("workflow-pending"));
}

#[test]
fn retry_takes_a_following_checkpoint_off_the_branch() {
    let s = session(seed_nodes(), "C1");
    let target = retry_target(&s).unwrap().unwrap();
    assert_eq!(target.assistant_id, "A3");
    assert_eq!(target.parent_id.as_deref(), Some("U3"));
    // The store appends the new response under U3 and moves the leaf: C1 is no longer on the branch.
    let mut nodes = seed_nodes();
    nodes.push(assistant("A3b", "U3", "retried"));
    let retried = session(nodes, "A3b");
    assert_eq!(projected_ids(&retried), ["U1", "A1", "U2", "A2", "U3", "A3b"]);
}

#[test]
fn edit_targets_the_newest_user_message() {
    let mut nodes = seed_nodes();
    nodes.push(user("U4", Some("C1"), "q4"));
    let s = session(nodes, "U4");
    let target = edit_target(&s).unwrap().unwrap();
    assert_eq!(target.user_id, "U4");
    assert_eq!(target.parent_id.as_deref(), Some("C1"));
    let s = session(seed_nodes(), "C1");
    let target = edit_target(&s).unwrap().unwrap();
    assert_eq!((target.user_id.as_str(), target.parent_id.as_deref()), ("U3", Some("A2")));
    // Editing U3 creates a sibling under A2: C1 leaves the branch.
    let mut nodes = seed_nodes();
    nodes.push(user("U3b", Some("A2"), "edited"));
    assert_eq!(projected_ids(&session(nodes, "U3b")), ["U1", "A1", "U2", "A2", "U3b"]);
}

#[test]
fn empty_session_has_no_targets() {
    let s = Session::from_value(json!({ "nodes": [], "leafId": null, "branchRevision": 0 })).unwrap();
    assert!(retry_target(&s).unwrap().is_none());
    assert!(edit_target(&s).unwrap().is_none());
    assert!(project(&s).unwrap().items.is_empty());
    assert!(!read_branch(&s).read_only);
}

fn problem_case(nodes: Vec<Value>, leaf: &str) -> (Vec<String>, Vec<(String, Option<String>)>, bool) {
    let s = session(nodes, leaf);
    let branch = read_branch(&s);
    let ids = branch.nodes.iter().map(|&i| s.nodes[i].id.clone()).collect();
    let problems = branch.problems.iter().map(|p| (p.code.as_str().to_string(), p.node_id.clone())).collect();
    (ids, problems, branch.read_only)
}

#[test]
fn missing_leaf_reads_nothing() {
    let (ids, problems, read_only) = problem_case(seed_nodes(), "ZZ");
    assert!(ids.is_empty());
    assert_eq!(problems, [("missing-leaf".to_string(), Some("ZZ".to_string()))]);
    assert!(read_only);
}

#[test]
fn missing_parent_keeps_the_part_below_the_break() {
    let mut nodes = seed_nodes();
    nodes.remove(1); // A1 gone: U2's parent is missing
    let (ids, problems, read_only) = problem_case(nodes, "C1");
    assert_eq!(ids, ["U2", "A2", "U3", "A3", "C1"]);
    assert_eq!(problems, [("missing-parent".to_string(), Some("U2".to_string()))]);
    assert!(read_only);
}

#[test]
fn cycle_is_reported_and_not_followed() {
    let nodes = vec![user("U1", Some("A2"), "a"), assistant("A1", "U1", "b"), user("U2", Some("A1"), "c"), assistant("A2", "U2", "d")];
    let (ids, problems, read_only) = problem_case(nodes, "A2");
    assert_eq!(ids, ["U1", "A1", "U2", "A2"]);
    assert_eq!(problems, [("cycle".to_string(), Some("U1".to_string()))]);
    assert!(read_only);
}

#[test]
fn duplicate_id_stops_the_readable_part_at_the_ambiguous_node() {
    let mut nodes = seed_nodes();
    nodes.push(user("U2", Some("A1"), "a second U2"));
    let (ids, problems, read_only) = problem_case(nodes, "C1");
    assert_eq!(ids, ["A2", "U3", "A3", "C1"]);
    assert_eq!(problems, [("duplicate-id".to_string(), Some("U2".to_string()))]);
    assert!(read_only);
}

#[test]
fn invalid_node_is_reported_with_its_id() {
    let mut nodes = seed_nodes();
    nodes[2] = json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": "not an array" });
    let (ids, problems, read_only) = problem_case(nodes, "C1");
    assert_eq!(ids, ["A2", "U3", "A3", "C1"]);
    assert_eq!(problems, [("invalid-node".to_string(), Some("U2".to_string()))]);
    assert!(read_only);
    let s = session(
        vec![user("U1", None, "x"), json!({ "id": "U2", "parentId": "U1", "role": "user", "parts": "x" })],
        "U1",
    );
    let e = project(&s).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidNode);
    assert!(e.message.contains("U2"), "{}", e.message);
}

#[test]
fn dangling_boundary_is_reported() {
    let mut nodes = seed_nodes();
    nodes[6] = checkpoint("C1", "A3", Some("X9"), None, "s");
    let (ids, problems, read_only) = problem_case(nodes.clone(), "C1");
    assert_eq!(ids.len(), 7);
    assert_eq!(problems, [("dangling-boundary".to_string(), Some("C1".to_string()))]);
    assert!(read_only);
    // A boundary on another branch is dangling too.
    nodes[6] = checkpoint("C1", "A3", Some("F1"), None, "s");
    nodes.push(user("F1", Some("A1"), "elsewhere"));
    let (_, problems, _) = problem_case(nodes, "C1");
    assert_eq!(problems[0].0, "dangling-boundary");
    let s = session(vec![user("U1", None, "x"), checkpoint("C1", "U1", Some("Q"), None, "s")], "C1");
    assert_eq!(project(&s).unwrap_err().code, ErrorCode::DanglingBoundary);
}

#[test]
fn reading_never_changes_the_input() {
    let value = session_value(seed_nodes(), "C1", 3);
    let s = Session::from_value(value.clone()).unwrap();
    let first = (read_branch(&s), project(&s).unwrap().to_json(&s), history(&s));
    // The session the reads were handed still is the input, node by node, and reads again the same.
    let after: Value = serde_json::from_str(&s.to_json_text()).unwrap();
    assert_eq!(after, value);
    for (node, given) in s.nodes.iter().zip(value["nodes"].as_array().unwrap()) {
        assert_eq!(&node.raw.to_value(), given, "node {} keeps its JSON", node.id);
    }
    assert_eq!(format!("{:?}", (read_branch(&s), project(&s).unwrap().to_json(&s), history(&s))), format!("{first:?}"));
    // Projected messages are the nodes exactly as given.
    assert_eq!(first.1["messages"][1], value["nodes"][4]);
}

#[test]
fn node_order_does_not_matter() {
    let ordered = session(seed_nodes(), "C1");
    let mut shuffled_nodes = seed_nodes();
    // A fixed permutation plus its reverse stand in for "random order" deterministically.
    shuffled_nodes.swap(0, 5);
    shuffled_nodes.swap(2, 6);
    shuffled_nodes.swap(1, 3);
    let shuffled = session(shuffled_nodes.clone(), "C1");
    assert_eq!(projected_ids(&ordered), projected_ids(&shuffled));
    shuffled_nodes.reverse();
    assert_eq!(projected_ids(&ordered), projected_ids(&session(shuffled_nodes, "C1")));
}

#[test]
fn session_index_follows_appends_and_leaf_moves() {
    let nodes = seed_nodes();
    let mut index = SessionIndex::from_session(session(nodes.clone(), "C1"));
    index.append(user("U4", Some("C1"), "q4")).unwrap();
    index.set_leaf("U4", 1).unwrap();
    let mut all = nodes.clone();
    all.push(user("U4", Some("C1"), "q4"));
    let stateless = session(all.clone(), "U4");
    let ids = |s: &Session, b: &[usize]| b.iter().map(|&i| s.nodes[i].id.clone()).collect::<Vec<_>>();
    assert_eq!(ids(index.session(), &index.branch().nodes), ids(&stateless, &read_branch(&stateless).nodes));
    // Moving the leaf to a non-child (a retry) re-reads the branch.
    index.append(assistant("A3b", "U3", "retry")).unwrap();
    index.set_leaf("A3b", 2).unwrap();
    assert_eq!(ids(index.session(), &index.branch().nodes), ["U1", "A1", "U2", "A2", "U3", "A3b"]);
    assert_eq!(index.append(user("U4", None, "dup")).unwrap_err().code, ErrorCode::InvalidNode);
    assert_eq!(index.append(json!({"id": "", "role": "user", "parts": []})).unwrap_err().code, ErrorCode::InvalidNode);
    assert_eq!(index.set_leaf("nope", 3).unwrap_err().code, ErrorCode::NotFound);
}

#[test]
fn unknown_part_types_are_kept_verbatim() {
    let nodes = vec![json!({ "id": "U1", "parentId": null, "role": "user",
        "parts": [{ "type": "text", "text": "hi" }, { "type": "x-future", "payload": [1, 2] }] })];
    let s = session(nodes.clone(), "U1");
    assert_eq!(project(&s).unwrap().to_json(&s)["messages"][0], nodes[0]);
}

/// Nodes are handed back exactly as given: serde_json without `float_roundtrip` reads some 17-digit
/// numbers one unit off, so the outputs the bindings send to JS are written from the node texts.
#[test]
fn outputs_hand_back_numbers_exactly_as_written() {
    let number = "123.45678901234567";
    let text = format!(
        r#"{{"nodes":[{{"id":"U1","parentId":null,"role":"user","parts":[{{"type":"text","text":"x"}}],"metadata":{{"w":{number}}}}},{{"id":"A1","parentId":"U1","role":"assistant","parts":[{{"type":"tool-zotero_search","toolCallId":"t1","state":"output-available","input":{{"q":"a"}},"output":{{"score":{number},"big":1e300}}}}]}}],"leafId":"A1","branchRevision":4}}"#
    );
    let s = Session::from_json_str(&text).unwrap();
    let outputs = [
        project(&s).unwrap().to_json_text(&s),
        bibgenie_compaction::session::history_text(&s),
        read_branch(&s).to_json_text(&s),
        s.to_json_text(),
    ];
    for output in &outputs {
        assert_eq!(output.matches(number).count(), 2, "both numbers verbatim in {output}");
        assert!(output.contains("1e300"), "{output}");
        serde_json::from_str::<Value>(output).expect("valid JSON");
    }
    assert!(s.to_json_text().ends_with(r#""leafId":"A1","branchRevision":4}"#));
    // The Value outputs agree with the text ones on everything else.
    assert_eq!(project(&s).unwrap().to_json(&s), serde_json::from_str::<Value>(&outputs[0]).unwrap());
}
