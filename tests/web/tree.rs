//! Branch reading, projection and SessionIndex across the boundary.

use bibgenie_compaction::bindings::session_index::SessionIndex;
use bibgenie_compaction::bindings::tree;
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

fn ids(messages: &JsValue) -> Vec<String> {
    js_sys::Array::from(messages).iter().map(|m| get(&m, "id").as_string().unwrap_or_default()).collect()
}

fn code(error: JsValue) -> String {
    assert!(error.dyn_ref::<js_sys::Error>().is_some(), "a JS Error instance");
    get(&error, "code").as_string().unwrap_or_default()
}

#[wasm_bindgen_test]
fn project_gives_summary_then_kept_tail_with_the_ledger() {
    let session = parse(SEED);
    let before = js_sys::JSON::stringify(&session).unwrap();
    let projection = tree::project(session.clone()).unwrap();
    let messages = get(&projection, "messages");
    assert_eq!(ids(&messages), ["C1", "U2", "A2"]);
    assert_eq!(get(&projection, "keptFromId").as_string().as_deref(), Some("U2"));
    let summary = js_sys::Array::from(&messages).get(0);
    let text = get(&js_sys::Array::from(&get(&summary, "parts")).get(0), "text").as_string().unwrap();
    assert!(text.contains("earlier work") && text.contains("ABCD2345"), "{text}");
    // The input object is not mutated.
    assert_eq!(js_sys::JSON::stringify(&session).unwrap(), before);
}

#[wasm_bindgen_test]
fn read_branch_reports_problems_and_project_throws_their_code() {
    let session = parse(&SEED.replace(r#""parentId": "U1""#, r#""parentId": "GONE""#));
    let branch = tree::read_branch(session.clone()).unwrap();
    assert_eq!(get(&branch, "readOnly").as_bool(), Some(true));
    let problem = js_sys::Array::from(&get(&branch, "problems")).get(0);
    assert_eq!(get(&problem, "code").as_string().as_deref(), Some("missing-parent"));
    assert_eq!(get(&problem, "nodeId").as_string().as_deref(), Some("A1"));
    assert_eq!(code(tree::project(session).unwrap_err()), "missing-parent");
}

#[wasm_bindgen_test]
fn bad_sessions_throw_stable_codes() {
    assert_eq!(code(tree::project(JsValue::from_str("nope")).unwrap_err()), "invalid-session");
    assert_eq!(code(tree::project(JsValue::UNDEFINED).unwrap_err()), "invalid-session");
    assert_eq!(code(tree::project(parse(r#"{"nodes": 1, "leafId": "a", "branchRevision": 0}"#)).unwrap_err()), "invalid-session");
    let bad_node = SEED.replace(r#""parts": [{ "type": "text", "text": "compare" }]"#, r#""parts": "x""#);
    let error = tree::project(parse(&bad_node)).unwrap_err();
    assert!(get(&error, "message").as_string().unwrap().contains("U2"));
    assert_eq!(code(error), "invalid-node");
}

#[wasm_bindgen_test]
fn lone_surrogates_are_read_not_rejected() {
    let session = parse(SEED);
    let nodes = js_sys::Array::from(&get(&session, "nodes"));
    let part = js_sys::Array::from(&get(&nodes.get(0), "parts")).get(0);
    js_sys::Reflect::set(&part, &"text".into(), &js_sys::JSON::parse(r#""bad \ud800 text""#).unwrap()).unwrap();
    let history = tree::history(session).unwrap();
    assert_eq!(js_sys::Array::from(&history).length(), 5);
}

#[wasm_bindgen_test]
fn session_index_appends_and_projects_like_the_function() {
    let mut index = SessionIndex::from_session(parse(SEED)).unwrap();
    index.append(parse(r#"{ "id": "U3", "parentId": "C1", "role": "user", "parts": [{ "type": "text", "text": "next" }] }"#)).unwrap();
    index.set_leaf(JsValue::from_str("U3"), JsValue::from_f64(8.0)).unwrap();
    assert_eq!(ids(&get(&index.project().unwrap(), "messages")), ["C1", "U2", "A2", "U3"]);
    let stateless = tree::project(index.to_session().unwrap()).unwrap();
    assert_eq!(ids(&get(&stateless, "messages")), ["C1", "U2", "A2", "U3"]);
    assert_eq!(code(index.append(parse(r#"{ "id": "U3", "role": "user", "parts": [] }"#)).unwrap_err()), "invalid-node");
    assert_eq!(code(index.set_leaf(JsValue::from_str("ZZ"), JsValue::from_f64(9.0)).unwrap_err()), "not-found");
    assert_eq!(code(index.set_leaf(JsValue::from_str("U3"), JsValue::from_f64(-1.0)).unwrap_err()), "invalid-options");
}
