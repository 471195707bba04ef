//! Issue 23, item 1: the message being answered always reaches the model verbatim. Rule
//! `draft-verbatim` (src/plan/decision.rs): in preflight, the given draft or, without one, the stored leaf
//! turn (the leaf user message; for a continuation the leaf assistant message with everything from
//! its user message on) is never summarized; when it cannot fit, `too-large`.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::estimate::{capacity, estimate, EstimateRequest, ModelProfile};
use bibgenie_compaction::commit::check_commit;
use bibgenie_compaction::session::{Mode, Session};
use bibgenie_compaction::plan::{plan, Plan, PlanAction, PlanOptions, SendDecision};
use bibgenie_compaction::projection::project;
use bibgenie_compaction::session_index::SessionIndex;
use bibgenie_compaction::tokens::estimate_text;
use common::*;
use serde_json::{json, Value};

fn model_16k() -> ModelProfile {
    model(16_384, None)
}

const SENTENCE: &str = "Which of the membrane studies report salt rejection above ninety percent? ";

/// About `n` estimated tokens of English research prose.
fn prose(n: usize) -> String {
    let per_sentence = estimate_text(&SENTENCE.repeat(100)) as usize / 100;
    SENTENCE.repeat(n / per_sentence + 1)
}

/// A 16k session over its safe limit: twelve turns of about 1,000 tokens each.
fn full_session() -> (Vec<Value>, String) {
    let mut nodes = Vec::new();
    let mut parent: Option<String> = None;
    for t in 1..=12 {
        let (u, a) = (format!("U{t}"), format!("A{t}"));
        nodes.push(user(&u, parent.as_deref(), &prose(300)));
        nodes.push(assistant(&a, &u, &prose(700)));
        parent = Some(a);
    }
    (nodes, parent.unwrap())
}

fn preflight_without_draft() -> PlanOptions {
    PlanOptions::new(Mode::Preflight)
}

fn plan_on(nodes: &[Value], leaf: &str, m: &ModelProfile) -> Plan {
    plan(&session(nodes.to_vec(), leaf), m, &preflight_without_draft()).expect("plan")
}

/// The message ids the model is sent after committing `p` (summary id first).
fn sent_after_commit(nodes: &[Value], p: &Plan) -> (Vec<Value>, Value) {
    let mut committed = nodes.to_vec();
    committed.push(checkpoint_from_plan("C1", p, "## Research Goal\n- x"));
    let s = session(committed.clone(), "C1");
    let projected = project(&s).unwrap().to_json(&s);
    (committed, projected)
}

#[test]
fn a_stored_question_is_never_folded_into_the_checkpoint_of_its_own_preflight() {
    let m = model_16k();
    let (mut nodes, leaf) = full_session();
    let question = user("Q", Some(&leaf), &prose(4_500));
    assert!(message_tokens(&question, &m) >= 4_400, "a 4.5k-token question");
    nodes.push(question.clone());
    let p = plan_on(&nodes, "Q", &m);
    assert_eq!((p.action, p.send), (PlanAction::Compact, Some(SendDecision::AfterCompaction)), "{p:?}");
    assert_eq!(p.first_kept_message_id.as_deref(), Some("Q"), "the boundary is the question at the latest");
    assert!(!p.summarize_ids.contains(&"Q".to_string()));
    assert!(p.tokens_after_estimate <= capacity(&m).unwrap().safe_input_limit);
    let (committed, projected) = sent_after_commit(&nodes, &p);
    let messages = projected["messages"].as_array().unwrap();
    assert_eq!(messages.last(), Some(&question), "the request ends with the question, byte-identical");
    let after = estimate(&session(committed, "C1"), &m, &EstimateRequest::default()).unwrap();
    assert!(after.fits, "{} > {}", after.tokens, after.safe_input_limit);
}

#[test]
fn a_continuation_keeps_its_whole_turn_with_the_tool_call_and_its_result() {
    let m = model_16k();
    let (mut nodes, leaf) = full_session();
    nodes.push(user("U13", Some(&leaf), "Fetch the full text of the 2019 review."));
    let result = json!({ "text": prose(4_000) });
    let continued = assistant_tool("A13", "U13", "fetchFullText", "output-available", json!({ "key": "ABCD2345" }), Some(result));
    assert!(message_tokens(&continued, &m) >= 3_900, "a 4k-token tool result");
    nodes.push(continued.clone());
    let p = plan_on(&nodes, "A13", &m);
    assert_eq!((p.action, p.send), (PlanAction::Compact, Some(SendDecision::AfterCompaction)), "{p:?}");
    assert_eq!(p.first_kept_message_id.as_deref(), Some("U13"), "the boundary is the turn's user message at the latest");
    let (_, projected) = sent_after_commit(&nodes, &p);
    let messages = projected["messages"].as_array().unwrap();
    let n = messages.len();
    assert_eq!(&messages[n - 2..], &[nodes[nodes.len() - 2].clone(), continued], "the turn in progress, byte-identical");
}

#[test]
fn a_stored_question_that_cannot_fit_even_alone_is_too_large() {
    let m = model_16k();
    let (mut nodes, leaf) = full_session();
    let safe = capacity(&m).unwrap().safe_input_limit as usize;
    nodes.push(user("Q", Some(&leaf), &prose(safe)));
    let p = plan_on(&nodes, "Q", &m);
    assert_eq!((p.action, p.reason.as_str(), p.send), (PlanAction::None, "too-large", Some(SendDecision::TooLarge)));
}

#[test]
fn a_given_draft_still_lets_the_stored_leaf_turn_be_summarized() {
    // The turn being answered is the draft: the leaf turn before it is ordinary history.
    let m = model_16k();
    let (nodes, leaf) = full_session();
    // A draft that fits beside the summary, its frame and the registers' budgets (issue 34) only when
    // nothing else is kept.
    let p = plan(&session(nodes.clone(), &leaf), &m, &PlanOptions::from_value(&json!({ "mode": "preflight", "draft": prose(10_500) })).unwrap()).unwrap();
    assert_eq!((p.action, p.first_kept_message_id.as_deref()), (PlanAction::Compact, None), "{p:?}");
    assert!(p.summarize_ids.contains(&"A12".to_string()));
}

#[test]
fn a_given_assistant_draft_continues_the_leaf_turn() {
    let m = model_16k();
    let (mut nodes, leaf) = full_session();
    nodes.push(user("U13", Some(&leaf), &prose(4_000)));
    let draft = json!({ "id": "A13", "role": "assistant", "parts": [{ "type": "text", "text": "continuing" }] });
    let options = PlanOptions::from_value(&json!({ "mode": "preflight", "draft": draft })).unwrap();
    let p = plan(&session(nodes.clone(), "U13"), &m, &options).unwrap();
    assert_eq!(p.action, PlanAction::Compact);
    assert_eq!(p.first_kept_message_id.as_deref(), Some("U13"));
}

#[test]
fn the_session_index_plans_the_stored_draft_as_the_stateless_plan_does() {
    let m = model_16k();
    let (mut nodes, leaf) = full_session();
    nodes.push(user("Q", Some(&leaf), &prose(4_500)));
    let value = session_value(nodes.clone(), "Q", 0);
    let stateless = plan(&Session::from_value(value.clone()).unwrap(), &m, &preflight_without_draft()).unwrap();
    let mut index = SessionIndex::from_session(Session::from_value(value).unwrap());
    assert_eq!(index.plan(&m, &preflight_without_draft()).unwrap(), stateless);
    assert_eq!(stateless.first_kept_message_id.as_deref(), Some("Q"));
    assert_eq!(check_commit(&session(nodes, "Q"), &stateless).unwrap(), Ok(()));
}
