//! The bad-input catalogue (issue 9), native half: every kind of bad input against the core's public
//! functions gets an error with a stable code or a documented safe result; nothing panics, hangs or
//! writes (the core never writes: a `Session` is read only, and refusals leave the caller nothing to
//! write). The JS half, through the packed package, is tests/node/bad-input.test.mjs; README's
//! "Bad input" table lists both.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

use bibgenie_compaction::estimate::{capacity, estimate, estimate_one_message, EstimateRequest, ModelProfile, Source};
use bibgenie_compaction::commit::{check_commit, checkpoint_node, CommitRefusal};
use bibgenie_compaction::error::ErrorCode;
use bibgenie_compaction::zotero::ResourceLedger;
use bibgenie_compaction::session::{can_fork, edit_target, history, read_branch, retry_target, Mode, Node, NodeKind, Session};
use bibgenie_compaction::plan::{plan, PlanAction, PlanOptions};
use bibgenie_compaction::projection::project;
use bibgenie_compaction::session_index::SessionIndex;
use common::*;
use serde_json::{json, Value};

fn parse(value: Value) -> Session {
    Session::from_value(value).expect("the session object itself is well formed")
}

/// The problem codes `readBranch` reports, in order.
fn problem_codes(session: &Session) -> Vec<&'static str> {
    read_branch(session).problems.iter().map(|p| p.code.as_str()).collect()
}

/// A session with problems is read-only everywhere: `project`, `estimate`, `retryTarget` and
/// `editTarget` fail with the first problem's code, `plan` answers `none`/`read-only`, `checkCommit`
/// refuses with `read-only`. `history` and `readBranch` still show the readable part.
fn assert_read_only(session: &Session, code: ErrorCode) {
    let branch = read_branch(session);
    assert!(branch.read_only);
    assert_eq!(project(session).unwrap_err().code, code);
    assert_eq!(estimate(session, &model(8_192, None), &EstimateRequest::default()).unwrap_err().code, code);
    assert_eq!(retry_target(session).unwrap_err().code, code);
    assert_eq!(edit_target(session).unwrap_err().code, code);
    let _ = history(session);
    for mode in [Mode::Manual, Mode::Auto, Mode::Preflight] {
        let p = plan(session, &model(8_192, None), &PlanOptions::new(mode)).unwrap();
        assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "read-only"));
    }
    // A plan made on the sound session is refused on the broken one.
    let (nodes, leaf) = linear(3, 5);
    let sound = common::session(nodes, &leaf);
    let p = plan(&sound, &model(8_192, None), &PlanOptions::new(Mode::Manual)).unwrap();
    assert_eq!(p.action, PlanAction::Compact);
    assert_eq!(check_commit(session, &p).unwrap(), Err(CommitRefusal::ReadOnly));
}

#[test]
fn a_session_that_is_not_an_object_is_invalid_session() {
    for bad in [json!(null), json!([]), json!("session"), json!(42), json!(true)] {
        assert_eq!(Session::from_value(bad.clone()).unwrap_err().code, ErrorCode::InvalidSession, "{bad}");
    }
    for text in ["", "not json", "{", "[1,2", "{\"nodes\": []}x"] {
        assert_eq!(Session::from_json_str(text).unwrap_err().code, ErrorCode::InvalidSession, "{text:?}");
    }
}

#[test]
fn wrong_session_fields_are_invalid_session() {
    let cases = [
        json!({ "leafId": null, "branchRevision": 0 }),
        json!({ "nodes": {}, "leafId": null, "branchRevision": 0 }),
        json!({ "nodes": "[]", "leafId": null, "branchRevision": 0 }),
        json!({ "nodes": [], "branchRevision": 0 }),
        json!({ "nodes": [], "leafId": 7, "branchRevision": 0 }),
        json!({ "nodes": [], "leafId": "", "branchRevision": 0 }),
        json!({ "nodes": [], "leafId": null }),
        json!({ "nodes": [], "leafId": null, "branchRevision": -1 }),
        json!({ "nodes": [], "leafId": null, "branchRevision": 1.5 }),
        json!({ "nodes": [], "leafId": null, "branchRevision": "3" }),
        json!({ "nodes": [], "leafId": null, "branchRevision": null }),
        json!({ "nodes": [], "leafId": null, "branchRevision": 1e300 }),
        json!({ "nodes": [], "leafId": null, "branchRevision": 9_007_199_254_740_992u64 }),
    ];
    for bad in cases {
        let error = Session::from_value(bad.clone()).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidSession, "{bad}");
        assert!(error.message.starts_with("session."), "the message names the field: {}", error.message);
    }
}

#[test]
fn missing_empty_and_duplicate_ids() {
    for (bad, why) in [
        (json!({ "parentId": null, "role": "user", "parts": [] }), "id is missing"),
        (json!({ "id": "", "parentId": null, "role": "user", "parts": [] }), "id is empty"),
        (json!({ "id": 7, "parentId": null, "role": "user", "parts": [] }), "id must be a string"),
    ] {
        let s = parse(json!({ "nodes": [user("U1", None, "hi"), bad], "leafId": "U1", "branchRevision": 0 }));
        assert_eq!(problem_codes(&s), ["invalid-node"]);
        assert!(read_branch(&s).problems[0].message.contains(why), "{why}");
        assert_read_only(&s, ErrorCode::InvalidNode);
    }
    let s = parse(session_value(vec![user("U1", None, "a"), assistant("A1", "U1", "b"), user("A1", Some("U1"), "twin")], "A1", 0));
    assert_eq!(problem_codes(&s), ["duplicate-id"]);
    assert_eq!(read_branch(&s).nodes.len(), 0, "an ambiguous leaf is not followed");
    assert_read_only(&s, ErrorCode::DuplicateId);
}

#[test]
fn parent_cycles_missing_parents_and_a_missing_leaf() {
    let cycle = parse(session_value(
        vec![user("U1", Some("A2"), "a"), assistant("A1", "U1", "b"), user("U2", Some("A1"), "c"), assistant("A2", "U2", "d")],
        "A2",
        0,
    ));
    assert_eq!(problem_codes(&cycle), ["cycle"]);
    assert_eq!(read_branch(&cycle).nodes.len(), 4, "the walk stops where the cycle closes");
    assert_read_only(&cycle, ErrorCode::Cycle);

    let own_parent = parse(session_value(vec![user("U1", Some("U1"), "me")], "U1", 0));
    assert_eq!(problem_codes(&own_parent), ["invalid-node"]);

    let orphan = parse(session_value(vec![user("U1", None, "a"), assistant("A1", "nowhere", "b")], "A1", 0));
    assert_eq!(problem_codes(&orphan), ["missing-parent"]);
    assert_read_only(&orphan, ErrorCode::MissingParent);

    let lost = parse(session_value(vec![user("U1", None, "a")], "ghost", 0));
    assert_eq!(problem_codes(&lost), ["missing-leaf"]);
    assert_read_only(&lost, ErrorCode::MissingLeaf);
    let no_leaf = parse(json!({ "nodes": [user("U1", None, "a")], "leafId": null, "branchRevision": 0 }));
    assert_eq!(problem_codes(&no_leaf), ["missing-leaf"]);
    // An empty session with no leaf is sound and empty.
    let empty = parse(json!({ "nodes": [], "leafId": null, "branchRevision": 0 }));
    assert!(problem_codes(&empty).is_empty());
    assert_eq!(project(&empty).unwrap().items.len(), 0);
}

/// A valid message node with `field` set to `value` (or removed when `value` is `None`).
fn with_field(mut node: Value, field: &str, value: Option<Value>) -> Value {
    match value {
        Some(v) => node[field] = v,
        None => {
            node.as_object_mut().unwrap().remove(field);
        }
    }
    node
}

#[test]
fn wrong_types_in_every_node_field() {
    let base = assistant("A1", "U1", "answer");
    let cases: Vec<(&str, Option<Value>, &str)> = vec![
        ("id", Some(json!(["A1"])), "id must be a string"),
        ("parentId", Some(json!(12)), "parentId must be a string or null"),
        ("parentId", Some(json!("")), "parentId is empty"),
        ("createdAt", Some(json!(true)), "createdAt must be a number"),
        ("createdAt", Some(json!({})), "createdAt must be a number"),
        ("role", Some(json!(1)), "role must be a string"),
        ("role", None, "role must be a string"),
        ("role", Some(json!("tool")), "is not user, assistant or system"),
        ("parts", Some(json!({ "0": {} })), "parts must be an array"),
        ("parts", Some(json!("text")), "parts must be an array"),
        ("parts", None, "parts is missing"),
        ("parts", Some(json!([7])), "parts[0]: a part must be an object"),
    ];
    for (field, value, why) in cases {
        let node = with_field(base.clone(), field, value.clone());
        let s = parse(session_value(vec![user("U1", None, "q"), node.clone()], "U1", 0));
        let problems = read_branch(&s).problems;
        assert_eq!(problems.len(), 1, "{field} = {value:?}");
        assert_eq!(problems[0].code, ErrorCode::InvalidNode);
        assert!(problems[0].message.contains(why), "{field} = {value:?}: {}", problems[0].message);
        // The same node handed over on its own (SessionIndex.append) is an invalid-node error.
        let mut index = SessionIndex::from_session(session(vec![user("U1", None, "q")], "U1"));
        assert_eq!(index.append(node).unwrap_err().code, ErrorCode::InvalidNode);
    }
    // Accepted as documented: an ISO date string for createdAt, and any metadata (unread unless usage).
    for (field, value) in [("createdAt", json!("2025-01-01T00:00:00Z")), ("metadata", json!("free text")), ("metadata", json!([1, 2]))] {
        let s = parse(session_value(vec![user("U1", None, "q"), with_field(base.clone(), field, Some(value))], "A1", 0));
        assert!(problem_codes(&s).is_empty(), "{field}");
    }
}

#[test]
fn wrong_types_in_every_part_field() {
    let tool = json!({ "type": "tool-search", "toolCallId": "c1", "state": "output-available", "input": {}, "output": [] });
    let cases: Vec<(Value, &str)> = vec![
        (json!({ "text": "no type" }), "type is missing"),
        (json!({ "type": 3 }), "type must be a string"),
        (json!({ "type": "text" }), "text is missing"),
        (json!({ "type": "text", "text": 5 }), "text must be a string"),
        (json!({ "type": "reasoning", "text": null }), "text must be a string"),
        (json!({ "type": "file", "url": "data:,x" }), "mediaType is missing"),
        (json!({ "type": "file", "mediaType": "image/png", "url": 1 }), "url must be a string"),
        (json!({ "type": "file", "mediaType": "image/png", "url": "data:,x", "filename": 9 }), "filename must be a string"),
        (json!({ "type": "source-url", "url": "https://x" }), "sourceId is missing"),
        (json!({ "type": "source-url", "sourceId": "s", "url": "https://x", "title": [] }), "title must be a string"),
        (json!({ "type": "source-document", "sourceId": "s", "mediaType": "application/pdf" }), "title is missing"),
        (json!({ "type": "dynamic-tool", "toolCallId": "c", "state": "input-available" }), "toolName is missing"),
        (with_field(tool.clone(), "toolCallId", None), "toolCallId is missing"),
        (with_field(tool.clone(), "toolCallId", Some(json!(4))), "toolCallId must be a string"),
        (with_field(tool.clone(), "state", None), "state is missing"),
        (with_field(tool.clone(), "state", Some(json!(true))), "state must be a string"),
        (with_field(tool.clone(), "errorText", Some(json!({ "message": "x" }))), "errorText must be a string"),
        (with_field(tool.clone(), "approval", Some(json!("yes"))), "approval must be an object"),
        (with_field(tool.clone(), "approval", Some(json!({}))), "approval.id is missing"),
        (with_field(tool.clone(), "approval", Some(json!({ "id": "a", "approved": "yes" }))), "approval.approved must be a boolean"),
        (with_field(tool.clone(), "approval", Some(json!({ "id": "a", "reason": 1 }))), "approval.reason must be a string"),
        (json!({ "type": "data-zoteroItem", "id": 5, "data": {} }), "id must be a string"),
    ];
    for (part, why) in cases {
        let node = json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [{ "type": "step-start" }, part] });
        let error = Node::parse_strict(node.clone()).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidNode);
        assert!(error.message.contains("parts[1]") && error.message.contains(why), "{why}: {}", error.message);
        let s = parse(session_value(vec![user("U1", None, "q"), node], "A1", 0));
        assert_eq!(problem_codes(&s), ["invalid-node"]);
        assert_read_only(&s, ErrorCode::InvalidNode);
        assert_eq!(estimate_one_message(&json!({ "role": "assistant", "parts": [part_of(&s)] }), None).map(|_| ()).unwrap_err().code, ErrorCode::InvalidMessage);
    }
}

/// The bad part of the single invalid node of `s`.
fn part_of(s: &Session) -> Value {
    s.nodes.iter().find(|n| matches!(n.kind, NodeKind::Invalid(_))).map(|n| n.raw.to_value()["parts"][1].clone()).unwrap()
}

#[test]
fn unknown_part_types_and_states_are_kept_and_counted() {
    // Documented safe result: an unknown part type is kept verbatim and estimated as JSON; an unknown
    // tool state counts as pending (the safe side: no automatic compaction, no commit).
    let future = json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [
        { "type": "future-part", "payload": "word ".repeat(200) }
    ] });
    let s = parse(session_value(vec![user("U1", None, "q"), future.clone()], "A1", 0));
    assert!(problem_codes(&s).is_empty());
    assert_eq!(project(&s).unwrap().to_json(&s)["messages"][1], future, "kept verbatim");
    assert!(estimate_one_message(&future, None).unwrap() >= 200);
    let odd = assistant_tool("A1", "U1", "search", "awaiting-quantum-state", json!({}), None);
    let (mut nodes, leaf) = linear(40, 30);
    nodes[0] = user("U1", None, "start");
    let mut nodes2 = nodes.clone();
    nodes2.push(json!({ "id": "X1", "parentId": leaf, "role": "assistant", "parts": odd["parts"] }));
    let s = parse(session_value(nodes2, "X1", 0));
    let p = plan(&s, &model(4_096, None), &PlanOptions::new(Mode::Auto)).unwrap();
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "workflow-pending"));
}

#[test]
fn lone_surrogates_read_as_replacement_characters() {
    // JSON.stringify writes a lone UTF-16 surrogate as an escape serde_json rejects; the session is read
    // with U+FFFD in its place (documented), never rejected, and nothing is written back.
    let text = r#"{"nodes":[{"id":"U1","parentId":null,"role":"user","parts":[{"type":"text","text":"a\ud800b\udc00c\ud83d\ude00"}]}],"leafId":"U1","branchRevision":0}"#;
    let s = Session::from_json_str(text).unwrap();
    let projected = project(&s).unwrap().to_json(&s);
    assert_eq!(projected["messages"][0]["parts"][0]["text"], "a\u{FFFD}b\u{FFFD}c\u{1F600}");
    assert!(estimate(&s, &model(8_192, None), &EstimateRequest::default()).unwrap().tokens > 0);
}

#[test]
fn nesting_beyond_the_parser_limit_is_an_error_not_a_crash() {
    // serde_json stops at 128 levels; 100,000 levels in a tool output is `invalid-session`, no stack overflow.
    let depth = 100_000;
    let nested = format!("{}{}", "[".repeat(depth), "]".repeat(depth));
    let text = format!(
        r#"{{"nodes":[{{"id":"A1","parentId":null,"role":"assistant","parts":[{{"type":"tool-x","toolCallId":"c","state":"output-available","output":{nested}}}]}}],"leafId":"A1","branchRevision":0}}"#
    );
    let error = Session::from_json_str(&text).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidSession);
    assert!(error.message.contains("recursion limit"), "{}", error.message);
    // 100 levels is fine everywhere (estimate, ledger, serialization walk it).
    let shallow = format!("{}1{}", "[".repeat(100), "]".repeat(100));
    let ok = text.replace(&nested, &shallow);
    let s = Session::from_json_str(&ok).unwrap();
    assert!(estimate(&s, &model(8_192, None), &EstimateRequest::default()).unwrap().tokens > 0);
}

#[test]
fn a_ten_megabyte_string_is_estimated_and_planned() {
    // The JS test feeds 100 MB through the package; here 10 MB keeps `cargo test` quick.
    let big = "word ".repeat(2_000_000);
    let s = session(vec![user("U1", None, "q"), assistant("A1", "U1", "a"), user("U2", Some("A1"), &big)], "U2");
    let e = estimate(&s, &model(200_000, None), &EstimateRequest::default()).unwrap();
    assert!(e.tokens > 1_000_000 && !e.fits);
    let p = plan(&s, &model(200_000, None), &PlanOptions::new(Mode::Manual)).unwrap();
    assert_eq!(p.action, PlanAction::Compact, "{}", p.reason);
    assert_eq!(p.first_kept_message_id, None, "the oversized newest turn is not kept verbatim");
    // In preflight it is the question being answered (rule `draft-verbatim`): never summarized.
    let p = plan(&s, &model(200_000, None), &PlanOptions { mode: Mode::Preflight, draft: None, overhead: 0 }).unwrap();
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "too-large"));
}

#[test]
fn defective_usage_is_never_a_baseline() {
    // NaN and Infinity arrive as null through JSON.stringify.
    let defects = [
        json!({ "inputTokens": null, "outputTokens": 10 }),
        json!({ "inputTokens": -100, "outputTokens": 10 }),
        json!({ "inputTokens": 1e300, "outputTokens": 10 }),
        json!({ "inputTokens": 9_007_199_254_740_993u64, "outputTokens": 10 }),
        json!({ "inputTokens": 0, "outputTokens": 0, "totalTokens": 0 }),
        json!({ "inputTokens": "1000", "outputTokens": 10 }),
        json!({ "inputTokens": 1000, "outputTokens": 10, "outputTokenDetails": { "reasoningTokens": -1 } }),
        json!("usage"),
        json!([1000, 10]),
    ];
    for usage in defects {
        let s = session(vec![user("U1", None, "q"), assistant_with_usage("A1", "U1", "a", usage.clone())], "A1");
        let e = estimate(&s, &model(8_192, None), &EstimateRequest::default()).unwrap();
        assert_eq!((e.source, e.baseline_message_id.as_deref()), (Source::Estimate, None), "{usage}");
    }
    // Huge but valid (larger than the window): a baseline that says the session does not fit.
    let s = session(vec![user("U1", None, "q"), assistant_with_usage("A1", "U1", "a", json!({ "inputTokens": 5_000_000, "outputTokens": 10 }))], "A1");
    let e = estimate(&s, &model(8_192, None), &EstimateRequest::default()).unwrap();
    assert_eq!((e.source, e.fits), (Source::Usage, false));
}

#[test]
fn bad_context_windows_are_invalid_model() {
    let bad = [
        json!({ "contextWindow": 0 }),
        json!({ "contextWindow": -8192 }),
        json!({ "contextWindow": null }),
        json!({}),
        json!({ "contextWindow": 1023 }),
        json!({ "contextWindow": 8192.5 }),
        json!({ "contextWindow": "8192" }),
        json!({ "contextWindow": 1e300 }),
        json!({ "contextWindow": 8192, "maxOutputTokens": 0 }),
        json!({ "contextWindow": 8192, "maxOutputTokens": -1 }),
        json!({ "contextWindow": 8192, "replaysReasoning": "yes" }),
        json!({ "contextWindow": 8192, "imageTokens": -5 }),
        json!({ "contextWindow": 8192, "id": 4 }),
        json!({ "contextWindow": 8192, "autoCompactRatio": 0 }),
        json!({ "contextWindow": 8192, "autoCompactRatio": 0.9 }),
        json!({ "contextWindow": 8192, "autoCompactRatio": 0.5 }),
        json!({ "contextWindow": 8192, "tailShare": 1.01 }),
        json!({ "contextWindow": 8192, "tailShare": "0.2" }),
        json!({ "contextWindow": 8192, "tailShare": 0.4 }),
        json!(8192),
        json!(null),
    ];
    for model in bad {
        assert_eq!(ModelProfile::from_value(&model).unwrap_err().code, ErrorCode::InvalidModel, "{model}");
    }
    // Documented: an output cap larger than the window is accepted; the window bounds everything.
    let wide = ModelProfile::from_value(&json!({ "contextWindow": 4096, "maxOutputTokens": 64_000 })).unwrap();
    let c = capacity(&wide).unwrap();
    assert!(c.reserved_tokens <= 4096 / 4 && c.safe_input_limit > 0 && c.summary_max_output_tokens <= c.reserved_tokens);
    // A profile built in Rust bypasses parsing; capacity, estimate and plan still refuse it.
    let zero = model(0, None);
    assert_eq!(capacity(&zero).unwrap_err().code, ErrorCode::InvalidModel);
    let (nodes, leaf) = linear(2, 3);
    let s = session(nodes, &leaf);
    assert_eq!(estimate(&s, &zero, &EstimateRequest::default()).unwrap_err().code, ErrorCode::InvalidModel);
    assert_eq!(plan(&s, &zero, &PlanOptions::new(Mode::Auto)).unwrap_err().code, ErrorCode::InvalidModel);
}

#[test]
fn a_checkpoint_whose_boundary_is_off_its_branch_is_dangling() {
    // C1 keeps "U9", which is not on its ancestor chain (it is on another branch).
    let (mut nodes, _) = linear(3, 5);
    nodes.push(user("U9", Some("A1"), "a sibling branch"));
    nodes.push(checkpoint("C1", "A3", Some("U9"), None, "summary"));
    let s = parse(session_value(nodes.clone(), "C1", 0));
    assert_eq!(problem_codes(&s), ["dangling-boundary"]);
    assert_eq!(read_branch(&s).problems[0].node_id.as_deref(), Some("C1"));
    assert_read_only(&s, ErrorCode::DanglingBoundary);
    // A boundary that names no node at all, or a checkpoint, is dangling too.
    for kept in ["nowhere", "C0"] {
        let (mut nodes, _) = linear(3, 5);
        nodes.push(checkpoint("C0", "A3", Some("U3"), None, "summary"));
        nodes.push(checkpoint("C1", "C0", Some(kept), Some("C0"), "summary"));
        let s = parse(session_value(nodes, "C1", 0));
        assert_eq!(problem_codes(&s), ["dangling-boundary"], "{kept}");
    }
    // checkCommit refuses a plan whose boundary is not a user message of the fresh branch.
    let (nodes, leaf) = linear(3, 5);
    let fresh = session(nodes, &leaf);
    let mut p = plan(&fresh, &model(8_192, None), &PlanOptions::new(Mode::Manual)).unwrap();
    for kept in ["U9", "A2"] {
        p.first_kept_message_id = Some(kept.to_string());
        assert_eq!(check_commit(&fresh, &p).unwrap(), Err(CommitRefusal::BoundaryOffBranch), "{kept}");
    }
}

#[test]
fn wrong_checkpoint_fields_are_invalid_nodes() {
    let good = checkpoint("C1", "A2", Some("U2"), None, "summary");
    let mutations: Vec<(&str, Value)> = vec![
        ("summary", json!(5)),
        ("firstKeptMessageId", json!(3)),
        ("previousCheckpointId", json!(false)),
        ("mode", json!("sometimes")),
        ("tokensBefore", json!(-1)),
        ("tokensAfter", json!("200")),
        ("ledger", json!("none")),
        ("ledger", json!({ "entries": [{ "kind": "planet", "key": "X" }] })),
        ("basis", json!({ "leafId": "A2" })),
        ("basis", json!("A2")),
    ];
    for (field, value) in mutations {
        let mut node = good.clone();
        node["checkpoint"][field] = value.clone();
        let (mut nodes, _) = linear(2, 3);
        nodes.push(node);
        let s = parse(session_value(nodes, "C1", 0));
        let problems = read_branch(&s).problems;
        assert_eq!(problems.len(), 1, "{field} = {value}");
        assert_eq!(problems[0].code, ErrorCode::InvalidNode);
        assert!(problems[0].message.contains("checkpoint"), "{}", problems[0].message);
    }
    let (mut nodes, _) = linear(2, 3);
    let mut rootless = good.clone();
    rootless["parentId"] = Value::Null;
    nodes.push(rootless);
    assert_eq!(problem_codes(&parse(session_value(nodes, "C1", 0))), ["invalid-node"]);
}

#[test]
fn bad_plans_and_summaries_at_commit() {
    let (nodes, leaf) = linear(3, 5);
    let s = session(nodes, &leaf);
    let p = plan(&s, &model(8_192, None), &PlanOptions::new(Mode::Manual)).unwrap();
    let none = plan(&s, &model(8_192, None), &PlanOptions::new(Mode::Auto)).unwrap();
    assert_eq!(none.action, PlanAction::None);
    assert_eq!(check_commit(&s, &none).unwrap_err().code, ErrorCode::InvalidPlan);
    let ledger = ResourceLedger::default();
    assert_eq!(checkpoint_node(&none, "x", &ledger, "C1").unwrap_err().code, ErrorCode::InvalidPlan);
    for summary in ["", "   \n", "## Research Goal\nonly one section"] {
        assert_eq!(checkpoint_node(&p, summary, &ledger, "C1").unwrap_err().code, ErrorCode::InvalidSummary, "{summary:?}");
    }
    assert_eq!(checkpoint_node(&p, "x", &ledger, "").unwrap_err().code, ErrorCode::InvalidOptions);
    let mut no_leaf = p.clone();
    no_leaf.basis.leaf_id.clear();
    assert_eq!(checkpoint_node(&no_leaf, "x", &ledger, "C1").unwrap_err().code, ErrorCode::InvalidPlan);
    // Plans arriving as JSON with wrong fields do not deserialize (the bindings answer invalid-plan).
    let mut json_plan = serde_json::to_value(&p).unwrap();
    json_plan["basis"]["branchRevision"] = json!(-1);
    assert_eq!(bibgenie_compaction::plan::Plan::from_value(&json_plan).unwrap_err(), "invalid value: integer `-1`, expected u64");
}

#[test]
fn session_operations_on_odd_targets() {
    let (nodes, leaf) = linear(2, 3);
    let s = session(nodes, &leaf);
    assert_eq!(can_fork(&s, "nope").reason, Some("not-found"));
    assert_eq!(can_fork(&s, "U1").reason, Some("not-assistant"));
    assert_eq!(can_fork(&s, "").reason, Some("not-found"));
    let mut index = SessionIndex::from_session(s);
    assert_eq!(index.set_leaf("ghost", 3).unwrap_err().code, ErrorCode::NotFound);
    assert_eq!(index.append(user("U1", None, "again")).unwrap_err().code, ErrorCode::InvalidNode, "a duplicate id is refused");
    let empty = parse(json!({ "nodes": [], "leafId": null, "branchRevision": 0 }));
    assert_eq!(retry_target(&empty).unwrap(), None);
    assert_eq!(edit_target(&empty).unwrap(), None);
}

#[test]
fn summaries_over_their_budget_and_bad_ledger_queries() {
    use bibgenie_compaction::commit::{check_summary_budget, summary_estimate_ceiling};
    use bibgenie_compaction::ledger::LedgerQuery;
    // summary-over-budget: the runner's check before anything is written.
    let huge: String = bibgenie_compaction::summarize::SECTIONS.iter().map(|s| format!("## {s}\n{}\n", "- (user) word ".repeat(2_000))).collect();
    let error = check_summary_budget(&huge, 1_638).unwrap_err();
    assert_eq!(error.code, ErrorCode::SummaryOverBudget);
    assert_eq!(error.code.as_str(), "summary-over-budget");
    assert!(error.message.contains("1638") && error.message.contains("nothing was written"), "{}", error.message);
    assert_eq!(check_summary_budget("## Research Goal\n- x", 1_638), Ok(()));
    assert_eq!(summary_estimate_ceiling(u64::MAX), u64::MAX, "no overflow");
    // lookupLedger's query: invalid-options naming the field.
    for (bad, names) in [
        (json!(null), "query must be an object"),
        (json!({ "kind": "planet" }), "query.kind"),
        (json!({ "limit": 1.5 }), "query.limit"),
        (json!({ "text": ["a"] }), "query.text"),
        (json!({ "keys": "A" }), "unknown query field"),
    ] {
        let error = LedgerQuery::from_value(&bad).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidOptions, "{bad}");
        assert!(error.message.contains(names), "{bad}: {}", error.message);
    }
}
