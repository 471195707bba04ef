//! Branch reading, projection and SessionIndex across the boundary: every call that takes a
//! session is a `SessionIndex` method (the glue's pure calls hold one index for a call), answered by
//! node position.

use bibgenie_compaction::bindings::session_index::SessionIndex;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::support::*;

const SEED: &str = r#"{ "leafId": "C1", "branchRevision": 7, "nodes": [
  { "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "find papers" }] },
  { "id": "A1", "parentId": "U1", "role": "assistant", "parts": [{ "type": "text", "text": "found" }] },
  { "id": "U2", "parentId": "A1", "role": "user", "parts": [{ "type": "text", "text": "compare" }] },
  { "id": "A2", "parentId": "U2", "role": "assistant", "parts": [{ "type": "text", "text": "done" }] },
  { "id": "C1", "parentId": "A2", "checkpoint": { "summary": "earlier work", "firstKeptMessageId": "U2",
    "previousCheckpointId": null, "mode": "manual", "tokensBefore": 100, "tokensAfter": 50,
    "ledger": { "entries": [{ "kind": "item", "key": "ABCD2345", "label": "A paper" }] },
    "basis": { "leafId": "A2", "branchRevision": 6 } } } ] }"#;

fn index(session: JsValue) -> SessionIndex {
    SessionIndex::from_session(session).expect("a session the index reads")
}

/// The error of reading `session` into an index.
fn read_error(session: JsValue) -> JsValue {
    match SessionIndex::from_session(session) {
        Ok(_) => panic!("the session was read"),
        Err(error) => error,
    }
}

/// The positions of a projection's kept messages (its first item, the summary, apart).
fn kept_positions(projection: &JsValue) -> Vec<f64> {
    js_sys::Array::from(&get(projection, "items")).iter().skip(1).map(|item| item.as_f64().expect("a position")).collect()
}

fn code(error: JsValue) -> String {
    assert!(error.dyn_ref::<js_sys::Error>().is_some(), "a JS Error instance");
    get(&error, "code").as_string().unwrap_or_default()
}

#[wasm_bindgen_test]
fn project_gives_summary_then_kept_tail_with_the_ledger() {
    let session = parse(SEED);
    let before = js_sys::JSON::stringify(&session).unwrap();
    let projection = index(session.clone()).project_positions().unwrap();
    assert_eq!(kept_positions(&projection), [2.0, 3.0], "U2 and A2, by their place in `nodes`");
    assert_eq!(get(&projection, "keptFromId").as_string().as_deref(), Some("U2"));
    assert_eq!(get(&projection, "checkpointId").as_string().as_deref(), Some("C1"));
    let summary = get(&js_sys::Array::from(&get(&projection, "items")).get(0), "summary");
    let text = get(&js_sys::Array::from(&get(&summary, "parts")).get(0), "text").as_string().unwrap();
    assert!(text.contains("earlier work") && text.contains("ABCD2345"), "{text}");
    // The input object is not mutated.
    assert_eq!(js_sys::JSON::stringify(&session).unwrap(), before);
}

#[wasm_bindgen_test]
fn read_branch_reports_problems_and_project_throws_their_code() {
    let held = index(parse(&SEED.replace(r#""parentId": "U1""#, r#""parentId": "GONE""#)));
    let branch = held.read_branch_positions().unwrap();
    assert_eq!(get(&branch, "readOnly").as_bool(), Some(true));
    let problem = js_sys::Array::from(&get(&branch, "problems")).get(0);
    assert_eq!(get(&problem, "code").as_string().as_deref(), Some("missing-parent"));
    assert_eq!(get(&problem, "nodeId").as_string().as_deref(), Some("A1"));
    assert_eq!(code(held.project_positions().unwrap_err()), "missing-parent");
}

#[wasm_bindgen_test]
fn bad_sessions_throw_stable_codes() {
    assert_eq!(code(read_error(JsValue::from_str("nope"))), "invalid-session");
    assert_eq!(code(read_error(JsValue::UNDEFINED)), "invalid-session");
    assert_eq!(code(read_error(parse(r#"{"nodes": 1, "leafId": "a", "branchRevision": 0}"#))), "invalid-session");
    let bad_node = SEED.replace(r#""parts": [{ "type": "text", "text": "compare" }]"#, r#""parts": "x""#);
    // An invalid node is the branch's problem: the projection of a branch holding it throws.
    let error = index(parse(&bad_node)).project_positions().unwrap_err();
    assert!(get(&error, "message").as_string().unwrap().contains("U2"));
    assert_eq!(code(error), "invalid-node");
}

#[wasm_bindgen_test]
fn lone_surrogates_are_read_not_rejected() {
    let session = parse(SEED);
    let nodes = js_sys::Array::from(&get(&session, "nodes"));
    let part = js_sys::Array::from(&get(&nodes.get(0), "parts")).get(0);
    js_sys::Reflect::set(&part, &"text".into(), &js_sys::JSON::parse(r#""bad \ud800 text""#).unwrap()).unwrap();
    let history = index(session).history_positions().unwrap();
    assert_eq!(js_sys::Array::from(&history).length(), 5);
}

#[wasm_bindgen_test]
fn session_index_appends_and_projects_as_an_index_of_the_whole_session() {
    const NEXT: &str = r#"{ "id": "U3", "parentId": "C1", "role": "user", "parts": [{ "type": "text", "text": "next" }] }"#;
    let mut held = index(parse(SEED));
    held.append(parse(NEXT)).unwrap();
    held.set_leaf(JsValue::from_str("U3"), JsValue::from_f64(8.0)).unwrap();
    assert_eq!(kept_positions(&held.project_positions().unwrap()), [2.0, 3.0, 5.0]);
    let whole = SEED.replace(r#""leafId": "C1", "branchRevision": 7"#, r#""leafId": "U3", "branchRevision": 8"#).replace("} } } ] }", &format!("}} }} }}, {NEXT} ] }}"));
    let fresh = index(parse(&whole)).project_positions().unwrap();
    assert_eq!(js_sys::JSON::stringify(&fresh).unwrap(), js_sys::JSON::stringify(&held.project_positions().unwrap()).unwrap());
    assert_eq!(code(held.append(parse(r#"{ "id": "U3", "role": "user", "parts": [] }"#)).unwrap_err()), "invalid-node");
    assert_eq!(code(held.set_leaf(JsValue::from_str("ZZ"), JsValue::from_f64(9.0)).unwrap_err()), "not-found");
    assert_eq!(code(held.set_leaf(JsValue::from_str("U3"), JsValue::from_f64(-1.0)).unwrap_err()), "invalid-options");
}
