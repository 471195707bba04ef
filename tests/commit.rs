//! Commit validation (issue 6): every refusal of `check_commit`, and what `checkpoint_node` accepts.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod common;

use bibgenie_compaction::commit::{check_commit, checkpoint_node, new_checkpoint_id, CHECKPOINT_ID_PREFIX, CommitRefusal};
use bibgenie_compaction::error::ErrorCode;
use bibgenie_compaction::zotero::{LedgerEntry, LedgerKind, ResourceLedger};
use bibgenie_compaction::session::{Basis, Mode, Node, Session};
use bibgenie_compaction::plan::{Plan, PlanAction};
use bibgenie_compaction::summarize::SECTIONS;
use common::*;
use serde_json::{json, Value};

/// U1 A1 U2 A2 U3 A3, leaf A3, revision 4.
fn base_nodes() -> Vec<Value> {
    three_turns()
}

fn fresh(nodes: Vec<Value>, leaf: &str, revision: u64) -> Session {
    Session::from_value(session_value(nodes, leaf, revision)).expect("test session parses")
}

/// A manual plan made on leaf A3 at revision 4: U1..A2 summarized, U3 kept.
fn plan() -> Plan {
    Plan {
        action: PlanAction::Compact,
        reason: "manual".into(),
        mode: Mode::Manual,
        first_kept_message_id: Some("U3".into()),
        previous_checkpoint_id: None,
        summarize_ids: vec!["U1".into(), "A1".into(), "U2".into(), "A2".into()],
        basis: Basis { leaf_id: "A3".into(), branch_revision: 4 },
        tokens_before: 900,
        tokens_after_estimate: 300,
        send: None,
        ledger_budget: None,
        user_words_budget: None,
        cited_pages_budget: None,
        cache: None,
        cost: None,
    }
}

fn summary() -> String {
    SECTIONS.iter().map(|s| format!("## {s}\n- (user) something about {s}\n")).collect()
}

fn refusal(session: &Session, plan: &Plan) -> Option<CommitRefusal> {
    check_commit(session, plan).expect("a compact plan is checked").err()
}

#[test]
fn an_unchanged_branch_may_be_committed() {
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 4), &plan()), None);
}

#[test]
fn a_plan_that_does_not_compact_is_an_error_not_a_refusal() {
    let mut p = plan();
    p.action = PlanAction::None;
    let error = check_commit(&fresh(base_nodes(), "A3", 4), &p).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidPlan);
}

#[test]
fn a_message_appended_meanwhile_moves_the_leaf() {
    let mut nodes = base_nodes();
    nodes.push(user("U4", Some("A3"), "and GPT?"));
    assert_eq!(refusal(&fresh(nodes, "U4", 5), &plan()), Some(CommitRefusal::LeafMoved));
}

#[test]
fn a_retry_meanwhile_moves_the_leaf() {
    let mut nodes = base_nodes();
    nodes.push(assistant("A3b", "U3", "BERT, retried"));
    assert_eq!(refusal(&fresh(nodes, "A3b", 5), &plan()), Some(CommitRefusal::LeafMoved));
}

#[test]
fn an_edit_meanwhile_moves_the_leaf() {
    let mut nodes = base_nodes();
    nodes.push(user("U3b", Some("A2"), "compare with T5 instead"));
    assert_eq!(refusal(&fresh(nodes, "U3b", 5), &plan()), Some(CommitRefusal::LeafMoved));
}

#[test]
fn a_leaf_switched_away_and_back_changed_the_revision() {
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 6), &plan()), Some(CommitRefusal::RevisionChanged));
}

#[test]
fn an_in_place_update_of_the_leaf_changed_the_revision() {
    // updateMessageParts (e.g. the final usage arriving) bumps the revision without moving the leaf.
    let mut nodes = base_nodes();
    nodes[5] = assistant_with_usage("A3", "U3", "BERT differs ...", json!({ "inputTokens": 800, "outputTokens": 50 }));
    assert_eq!(refusal(&fresh(nodes, "A3", 5), &plan()), Some(CommitRefusal::RevisionChanged));
}

#[test]
fn a_pending_tool_workflow_refuses() {
    let mut nodes = base_nodes();
    nodes[5] = assistant_tool("A3", "U3", "zoteroSearch", "approval-requested", json!({ "q": "BERT" }), None);
    assert_eq!(refusal(&fresh(nodes, "A3", 4), &plan()), Some(CommitRefusal::WorkflowPending));
}

#[test]
fn every_pending_tool_state_refuses() {
    // In the newest turn (nothing follows it, not cut): the workflow can still complete.
    for state in ["input-streaming", "input-available", "approval-requested", "approval-responded"] {
        let mut nodes = base_nodes();
        nodes[5] = assistant_tool("A3", "U3", "zoteroSearch", state, json!({ "q": "x" }), None);
        assert_eq!(refusal(&fresh(nodes, "A3", 4), &plan()), Some(CommitRefusal::WorkflowPending), "{state}");
    }
}

#[test]
fn an_interrupted_tool_call_does_not_refuse() {
    // Rule `interrupted-tool`: U3 follows A2, so A2's unfinished call will never complete.
    for state in ["input-streaming", "input-available", "approval-requested", "approval-responded"] {
        let mut nodes = base_nodes();
        nodes[3] = assistant_tool("A2", "U2", "zoteroSearch", state, json!({ "q": "x" }), None);
        assert_eq!(refusal(&fresh(nodes, "A3", 4), &plan()), None, "{state}");
    }
}

#[test]
fn a_boundary_that_is_not_on_the_branch_refuses() {
    let mut p = plan();
    p.first_kept_message_id = Some("U9".into());
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 4), &p), Some(CommitRefusal::BoundaryOffBranch));
}

#[test]
fn a_boundary_on_an_assistant_message_refuses() {
    let mut p = plan();
    p.first_kept_message_id = Some("A2".into());
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 4), &p), Some(CommitRefusal::BoundaryOffBranch));
}

#[test]
fn a_summarized_message_off_the_branch_refuses() {
    let mut p = plan();
    p.summarize_ids.push("elsewhere".into());
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 4), &p), Some(CommitRefusal::BoundaryOffBranch));
}

#[test]
fn summarized_ids_in_any_order_or_repeated_are_checked_by_membership() {
    // The core's plans list the ids in branch order; a plan built elsewhere may not, and is judged alike.
    let mut p = plan();
    p.summarize_ids = vec!["A2".into(), "U1".into(), "A1".into(), "U1".into(), "U2".into()];
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 4), &p), None);
    p.summarize_ids.insert(2, "elsewhere".into());
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 4), &p), Some(CommitRefusal::BoundaryOffBranch));
    // In order with one id off the branch at the end, where the walk runs out.
    let mut p = plan();
    p.summarize_ids.push("A9".into());
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 4), &p), Some(CommitRefusal::BoundaryOffBranch));
}

#[test]
fn a_previous_checkpoint_off_the_branch_refuses() {
    let mut p = plan();
    p.previous_checkpoint_id = Some("C0".into());
    assert_eq!(refusal(&fresh(base_nodes(), "A3", 4), &p), Some(CommitRefusal::BoundaryOffBranch));
}

#[test]
fn a_corrupt_session_is_read_only() {
    let mut nodes = base_nodes();
    nodes.push(user("A1", Some("A3"), "a duplicate id"));
    assert_eq!(refusal(&fresh(nodes, "A3", 4), &plan()), Some(CommitRefusal::ReadOnly));
    let mut nodes = base_nodes();
    nodes[2] = json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": "not an array" });
    assert_eq!(refusal(&fresh(nodes, "A3", 4), &plan()), Some(CommitRefusal::ReadOnly));
}

#[test]
fn a_missing_leaf_is_read_only() {
    assert_eq!(refusal(&fresh(base_nodes(), "gone", 4), &plan()), Some(CommitRefusal::ReadOnly));
}

#[test]
fn refusal_reasons_are_the_contract_strings() {
    let all = [
        (CommitRefusal::LeafMoved, "leaf-moved"),
        (CommitRefusal::RevisionChanged, "revision-changed"),
        (CommitRefusal::WorkflowPending, "workflow-pending"),
        (CommitRefusal::BoundaryOffBranch, "boundary-off-branch"),
        (CommitRefusal::ReadOnly, "read-only"),
    ];
    for (refusal, text) in all {
        assert_eq!(refusal.as_str(), text);
        assert_eq!(serde_json::to_value(refusal).unwrap(), json!(text));
    }
}

#[test]
fn the_checkpoint_node_follows_the_plan() {
    let ledger = ResourceLedger {
        entries: vec![LedgerEntry {
            kind: LedgerKind::Item,
            key: "ABCD2345".into(),
            label: Some("Attention Is All You Need".into()),
            parent_key: None,
            detail: Some("journalArticle".into()),
            library_id: None,
            group_id: None,
        }],
    };
    let node = checkpoint_node(&plan(), &summary(), &ledger, "ckpt_test").expect("a valid checkpoint");
    assert_eq!(node["id"], "ckpt_test");
    assert_eq!(node["parentId"], "A3");
    let c = &node["checkpoint"];
    assert_eq!(c["summary"], json!(summary()));
    assert_eq!(c["firstKeptMessageId"], "U3");
    assert_eq!(c["previousCheckpointId"], Value::Null);
    assert_eq!(c["mode"], "manual");
    assert_eq!(c["tokensBefore"], 900);
    assert_eq!(c["tokensAfter"], 300);
    assert_eq!(c["basis"], json!({ "leafId": "A3", "branchRevision": 4 }));
    assert_eq!(c["ledger"]["entries"][0]["key"], "ABCD2345");
    assert!(Node::parse_strict(node.clone()).expect("reads back").checkpoint().is_some());
}

#[test]
fn the_committed_checkpoint_projects_with_its_summary() {
    let node = checkpoint_node(&plan(), &summary(), &ResourceLedger::default(), "ckpt_x").unwrap();
    let mut nodes = base_nodes();
    nodes.push(node);
    let session = fresh(nodes, "ckpt_x", 5);
    let projection = bibgenie_compaction::projection::project(&session).expect("projects");
    let json = projection.to_json(&session);
    let ids: Vec<&str> = json["messages"].as_array().unwrap().iter().map(|m| m["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["ckpt_x", "U3", "A3"]);
}

#[test]
fn a_non_compact_plan_is_rejected() {
    let mut p = plan();
    p.action = PlanAction::None;
    let error = checkpoint_node(&p, &summary(), &ResourceLedger::default(), "ckpt_x").unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidPlan);
}

#[test]
fn an_empty_summary_is_rejected() {
    for empty in ["", "   \n\t "] {
        let error = checkpoint_node(&plan(), empty, &ResourceLedger::default(), "ckpt_x").unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidSummary);
    }
}

#[test]
fn a_summary_missing_any_section_is_rejected() {
    for missing in SECTIONS {
        let text: String = SECTIONS
            .iter()
            .filter(|s| **s != missing)
            .map(|s| format!("## {s}\nsomething\n"))
            .collect();
        let error = checkpoint_node(&plan(), &text, &ResourceLedger::default(), "ckpt_x").unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidSummary, "without {missing}");
        assert!(error.message.contains(missing), "{}", error.message);
    }
}

#[test]
fn an_empty_id_is_rejected() {
    let error = checkpoint_node(&plan(), &summary(), &ResourceLedger::default(), "").unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidOptions);
}

#[test]
fn checkpoint_ids_are_random_and_well_formed() {
    let a = new_checkpoint_id().expect("random source");
    let b = new_checkpoint_id().expect("random source");
    assert_ne!(a, b);
    for id in [&a, &b] {
        let hex = id.strip_prefix(CHECKPOINT_ID_PREFIX).expect("prefixed");
        assert_eq!(hex.len(), 24);
        assert!(hex.chars().all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()), "{id}");
    }
}

#[test]
fn checkpoint_node_within_a_budget_refuses_an_over_budget_summary_first() {
    use bibgenie_compaction::commit::{checkpoint_node_within, summary_estimate_ceiling};
    let ledger = ResourceLedger::default();
    let within = checkpoint_node_within(&plan(), &summary(), &ledger, &Default::default(), "ckpt_1", Some(16_000)).unwrap();
    // A plan without `ledgerBudget` and the register budgets (made before plans carried them) gets the summary budget's.
    let (words, pages) = bibgenie_compaction::registers::budgets_for_summary_budget(16_000);
    let budgeted = Plan {
        ledger_budget: Some(bibgenie_compaction::estimate::ledger_budget_for_summary_budget(16_000)),
        user_words_budget: Some(words),
        cited_pages_budget: Some(pages),
        ..plan()
    };
    // It keeps the summary budget too (rule `registers-take-unused-summary`: the projection gives
    // what the summary leaves of it to the registers); `checkpoint_node` is given none.
    let mut expected = checkpoint_node(&budgeted, &summary(), &ledger, "ckpt_1").unwrap();
    expected["checkpoint"]["summaryBudget"] = 16_000.into();
    assert_eq!(within, expected);
    assert_eq!(within["checkpoint"]["ledgerBudget"], 4_008);
    let given = Plan { ledger_budget: Some(212), ..plan() };
    let kept = checkpoint_node_within(&given, &summary(), &ledger, &Default::default(), "ckpt_1", Some(16_000)).unwrap();
    assert_eq!(kept["checkpoint"]["ledgerBudget"], 212, "the plan's budget wins");
    let long = format!("{}{}", summary(), "word ".repeat(2_000));
    assert!(checkpoint_node_within(&plan(), &long, &ledger, &Default::default(), "ckpt_1", None).is_ok(), "no budget: not checked");
    assert_eq!(checkpoint_node_within(&plan(), &long, &ledger, &Default::default(), "ckpt_1", Some(10)).unwrap_err().code, ErrorCode::SummaryOverBudget);
    // Over budget and missing every section: the budget rule answers.
    let junk = "x ".repeat(summary_estimate_ceiling(10) as usize * 2);
    assert_eq!(checkpoint_node_within(&plan(), &junk, &ledger, &Default::default(), "ckpt_1", Some(10)).unwrap_err().code, ErrorCode::SummaryOverBudget);
    assert_eq!(checkpoint_node_within(&plan(), "", &ledger, &Default::default(), "ckpt_1", Some(10)).unwrap_err().code, ErrorCode::InvalidSummary);
}

#[test]
fn the_held_index_check_answers_as_check_commit() {
    use bibgenie_compaction::commit::check_commit_on_branch;
    use bibgenie_compaction::session_index::SessionIndex;
    let mut pending = base_nodes();
    pending[5] = assistant_tool("A3", "U3", "zoteroSearch", "approval-requested", json!({ "q": "BERT" }), None);
    let mut appended = base_nodes();
    appended.push(user("U4", Some("A3"), "and GPT?"));
    let mut off_branch = plan();
    off_branch.first_kept_message_id = Some("U9".into());
    let cases = [
        (fresh(base_nodes(), "A3", 4), plan(), None),
        (fresh(appended, "U4", 5), plan(), Some(CommitRefusal::LeafMoved)),
        (fresh(base_nodes(), "A3", 6), plan(), Some(CommitRefusal::RevisionChanged)),
        (fresh(pending, "A3", 4), plan(), Some(CommitRefusal::WorkflowPending)),
        (fresh(base_nodes(), "A3", 4), off_branch, Some(CommitRefusal::BoundaryOffBranch)),
    ];
    for (session, plan, expected) in cases {
        assert_eq!(refusal(&session, &plan), expected);
        let index = SessionIndex::from_session(session.clone());
        let held = check_commit_on_branch(index.session(), index.branch(), &plan).expect("a compact plan is checked").err();
        assert_eq!(held, expected, "{:?}", session.leaf_id);
    }
    // Grown by appends and a leaf move, as a store's index is: the same verdict as a fresh read.
    let mut index = SessionIndex::from_session(fresh(base_nodes(), "A3", 4));
    index.append(user("U4", Some("A3"), "and GPT?")).expect("appended");
    index.set_leaf("U4", 5).expect("moved");
    let held = check_commit_on_branch(index.session(), index.branch(), &plan()).expect("checked").err();
    assert_eq!(held, Some(CommitRefusal::LeafMoved));
    assert_eq!(held, refusal(index.session(), &plan()));
}
