//! Planning rules by name (src/plan/decision.rs and src/plan/boundary.rs list them), on sessions built with tests/common.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use std::collections::HashSet;

use bibgenie_compaction::estimate::{capacity, estimate, Draft, EstimateRequest, ModelProfile};
use bibgenie_compaction::commit::check_commit;
use bibgenie_compaction::session::{Mode, Session};
use bibgenie_compaction::plan::{plan, Plan, PlanAction, PlanOptions, SendDecision};
use bibgenie_compaction::projection::project;
use bibgenie_compaction::session_index::SessionIndex;
use common::*;
use serde_json::{json, Value};

fn options(mode: Mode) -> PlanOptions {
    PlanOptions::new(mode)
}

fn preflight(draft: &str) -> PlanOptions {
    PlanOptions { mode: Mode::Preflight, draft: Some(Draft::Text(draft.to_string())), overhead: 0 }
}

fn plan_of(nodes: &[Value], leaf: &str, m: &ModelProfile, opts: &PlanOptions) -> Plan {
    plan(&session(nodes.to_vec(), leaf), m, opts).expect("plan")
}

fn small_model() -> ModelProfile {
    model(8_192, None)
}

fn node<'a>(nodes: &'a [Value], id: &str) -> &'a Value {
    nodes.iter().find(|n| n["id"] == id).expect("node exists")
}

fn is_user(nodes: &[Value], id: &str) -> bool {
    node(nodes, id)["role"] == "user"
}

/// Message ids of the linear branch ending at `leaf`, root first (checkpoints excluded).
fn branch_message_ids(nodes: &[Value], leaf: &str) -> Vec<String> {
    let mut ids = Vec::new();
    let mut at = Some(leaf.to_string());
    while let Some(id) = at {
        let n = node(nodes, &id);
        if n.get("checkpoint").is_none() {
            ids.push(id.clone());
        }
        at = n["parentId"].as_str().map(str::to_string);
    }
    ids.reverse();
    ids
}

/// Estimate of the messages from `from` (inclusive) to the leaf.
fn tail_tokens(nodes: &[Value], leaf: &str, from: &str, m: &ModelProfile) -> u64 {
    let ids = branch_message_ids(nodes, leaf);
    let start = ids.iter().position(|id| id == from).expect("boundary on branch");
    ids[start..].iter().map(|id| message_tokens(node(nodes, id), m)).sum()
}

/// A branch well over the 8k model's automatic threshold, in small turns.
fn long_branch() -> (Vec<Value>, String) {
    linear(150, 20)
}

#[test]
fn auto_at_threshold() {
    let m = small_model();
    let (nodes, leaf) = linear(3, 20);
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Auto));
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "under-threshold"));
    assert_eq!(p.tokens_after_estimate, p.tokens_before);
    let (nodes, leaf) = long_branch();
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Auto));
    assert!(p.tokens_before >= capacity(&m).unwrap().auto_compact_at);
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::Compact, "over-threshold"));
    assert!(p.tokens_after_estimate < capacity(&m).unwrap().auto_compact_at / 2 + 200);
}

#[test]
fn tail_fit() {
    // Whole turns kept newest-first while they fit the tail budget; one more would not fit.
    let m = small_model();
    let budget = capacity(&m).unwrap().tail_budget;
    let (nodes, leaf) = long_branch();
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Auto));
    let kept_from = p.first_kept_message_id.clone().expect("a verbatim tail");
    assert!(is_user(&nodes, &kept_from));
    let kept = tail_tokens(&nodes, &leaf, &kept_from, &m);
    assert!(kept <= budget);
    let ids = branch_message_ids(&nodes, &leaf);
    let start = ids.iter().position(|id| *id == kept_from).unwrap();
    let one_more = ids[..start].iter().rposition(|id| is_user(&nodes, id)).unwrap();
    assert!(tail_tokens(&nodes, &leaf, &ids[one_more], &m) > budget);
    assert_eq!(p.summarize_ids, ids[..start].to_vec());
    let c = capacity(&m).unwrap();
    // The frame: the preamble and the registers' budgets (rule `register-budgets`).
    let registers = bibgenie_compaction::estimate::register_frame_tokens(&c);
    assert!(p.tokens_after_estimate >= c.summary_max_output_tokens + registers + kept);
    assert!(p.tokens_after_estimate <= c.summary_max_output_tokens + registers + kept + 200, "frame is the preamble and the registers only");
}

#[test]
fn oversized_newest_turn() {
    // The newest turn alone is over the tail budget: no verbatim tail, everything is summarized.
    let m = small_model();
    let (mut nodes, leaf) = linear(3, 20);
    nodes.push(user("U4", Some(&leaf), &"word ".repeat(7_000)));
    nodes.push(assistant("A4", "U4", "short answer"));
    assert!(tail_tokens(&nodes, "A4", "U4", &m) > capacity(&m).unwrap().tail_budget);
    let p = plan_of(&nodes, "A4", &m, &options(Mode::Auto));
    assert_eq!(p.action, PlanAction::Compact);
    assert_eq!(p.first_kept_message_id, None);
    assert_eq!(p.summarize_ids, branch_message_ids(&nodes, "A4"));
}

#[test]
fn no_oversized_turn_kept_while_searching() {
    // U2 is oversized; U3 fits. The search stops at U2 instead of skipping it to keep U1 as well.
    let m = small_model();
    let mut nodes = vec![user("U1", None, "small"), assistant("A1", "U1", "small")];
    nodes.push(user("U2", Some("A1"), &"word ".repeat(6_000)));
    nodes.push(assistant("A2", "U2", "small"));
    nodes.push(user("U3", Some("A2"), "small"));
    nodes.push(assistant("A3", "U3", "small"));
    let p = plan_of(&nodes, "A3", &m, &options(Mode::Auto));
    assert_eq!(p.action, PlanAction::Compact);
    assert_eq!(p.first_kept_message_id.as_deref(), Some("U3"));
    assert_eq!(p.summarize_ids, ["U1", "A1", "U2", "A2"]);
}

#[test]
fn user_turn_boundary() {
    // Turns with tool calls and several assistant messages: every boundary is a user message.
    let m = small_model();
    for tool_words in [10, 60, 200, 700] {
        let mut nodes = vec![user("U0", None, "start")];
        let mut parent = "U0".to_string();
        for t in 1..=60 {
            let (a, b, u) = (format!("T{t}a"), format!("T{t}b"), format!("U{t}"));
            nodes.push(assistant_tool(&a, &parent, "zoteroSearch", "output-available", json!({ "q": "graphene" }),
                Some(json!({ "items": "item ".repeat(tool_words) }))));
            nodes.push(assistant(&b, &a, &"found ".repeat(tool_words / 2)));
            nodes.push(user(&u, Some(&b), "next"));
            parent = u;
        }
        for mode in [Mode::Auto, Mode::Manual] {
            let p = plan_of(&nodes, &parent, &m, &options(mode));
            if p.reason == "under-threshold" {
                continue;
            }
            assert_eq!(p.action, PlanAction::Compact, "{tool_words} {mode:?}");
            if let Some(kept) = &p.first_kept_message_id {
                assert!(is_user(&nodes, kept), "{tool_words} {mode:?}: {kept}");
            }
        }
    }
}

#[test]
fn auto_only_when_stable() {
    // A tool call awaiting approval (or input, or execution) blocks auto; a finished one does not.
    let m = small_model();
    let (mut nodes, leaf) = long_branch();
    nodes.push(user("U999", Some(&leaf), "delete the duplicates"));
    nodes.push(assistant_awaiting_approval("A999", "U999"));
    let p = plan_of(&nodes, "A999", &m, &options(Mode::Auto));
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "workflow-pending"));
    for state in ["input-streaming", "input-available", "approval-responded"] {
        let mut pending = nodes.clone();
        pending.pop();
        pending.push(assistant_tool("A999", "U999", "deleteItems", state, json!({ "keys": ["ABCD2345"] }), None));
        let p = plan_of(&pending, "A999", &m, &options(Mode::Auto));
        assert_eq!(p.reason, "workflow-pending", "{state}");
    }
    nodes.pop();
    nodes.push(assistant_tool("A999", "U999", "deleteItems", "output-available", json!({ "keys": ["ABCD2345"] }), Some(json!("deleted"))));
    let p = plan_of(&nodes, "A999", &m, &options(Mode::Auto));
    assert_eq!(p.action, PlanAction::Compact);
}

#[test]
fn auto_boundary_advances() {
    // Right after a compaction nothing new can be folded in, however large the overhead.
    let m = small_model();
    let (mut nodes, leaf) = long_branch();
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Auto));
    nodes.push(checkpoint_from_plan("C1", &p, "summary"));
    let heavy = PlanOptions { mode: Mode::Auto, draft: None, overhead: 7_000 };
    let p = plan_of(&nodes, "C1", &m, &heavy);
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "boundary-cannot-advance"));
}

#[test]
fn auto_frees_room() {
    // Found by tests/model_based.rs: with the request overhead filling most of a small window, the
    // projection is over the threshold and the boundary can fold in the first turn, but the summary budget
    // is larger than that turn. Compacting would raise the estimate and fire again after every turn.
    let m = model(5_029, None);
    let c = capacity(&m).unwrap();
    let first = vec![user("U1", None, &"hi ".repeat(40)), assistant("A1", "U1", &"hello ".repeat(40))];
    let first_tokens: u64 = first.iter().map(|n| message_tokens(n, &m)).sum();
    assert!(first_tokens < c.summary_max_output_tokens);
    // Three more turns that just fit the tail budget, so only the first turn can be folded in.
    let (nodes, leaf) = (1..400)
        .map(|words| {
            let mut nodes = first.clone();
            let leaf = push_turns(&mut nodes, "A1", 2, 4, words);
            (nodes, leaf)
        })
        .take_while(|(nodes, leaf)| tail_tokens(nodes, leaf, "U2", &m) <= c.tail_budget)
        .last()
        .unwrap();
    assert!(tail_tokens(&nodes, &leaf, "U1", &m) > c.tail_budget);
    let messages = tail_tokens(&nodes, &leaf, "U1", &m);
    let heavy = PlanOptions { mode: Mode::Auto, draft: None, overhead: c.auto_compact_at - messages + 10 };
    let p = plan_of(&nodes, &leaf, &m, &heavy);
    assert!(p.tokens_before >= c.auto_compact_at, "{}", p.tokens_before);
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "cannot-free-room"));
    // Manual is not bound by it: the user asked.
    let p = plan_of(&nodes, &leaf, &m, &PlanOptions { mode: Mode::Manual, ..heavy });
    assert_eq!((p.action, p.summarize_ids.as_slice()), (PlanAction::Compact, &["U1".to_string(), "A1".to_string()][..]));
}

#[test]
fn manual_two_turns() {
    let m = small_model();
    let (nodes, leaf) = linear(1, 5);
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Manual));
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "nothing-to-compact"));
    let (nodes, leaf) = linear(2, 5);
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Manual));
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::Compact, "requested"));
    assert_eq!(p.summarize_ids, ["U1", "A1"]);
    assert_eq!(p.first_kept_message_id.as_deref(), Some("U2"));
    let empty = Session::from_value(json!({ "nodes": [], "leafId": null, "branchRevision": 0 })).unwrap();
    assert_eq!(plan(&empty, &m, &options(Mode::Manual)).unwrap().reason, "nothing-to-compact");
}

#[test]
fn manual_keeps_latest_turn() {
    // Manual is not bound by the threshold: with everything inside the tail budget, the latest turn is kept.
    let m = small_model();
    let (nodes, leaf) = linear(5, 5);
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Manual));
    assert_eq!(p.first_kept_message_id.as_deref(), Some("U5"));
    assert_eq!(p.summarize_ids.len(), 8);
}

#[test]
fn manual_refresh() {
    // New messages after a checkpoint: compact even though the boundary stays (nothing newly folded in).
    let m = small_model();
    let (mut nodes, _) = linear(2, 5);
    nodes.push(checkpoint("C1", "A2", Some("U2"), None, "summary"));
    let leaf = push_turns(&mut nodes, "C1", 3, 3, 5);
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Manual));
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::Compact, "refresh"));
    assert_eq!(p.first_kept_message_id.as_deref(), Some("U2"));
    assert!(p.summarize_ids.is_empty());
    assert_eq!(p.previous_checkpoint_id.as_deref(), Some("C1"));
}

#[test]
fn manual_leaf_checkpoint_noop() {
    let m = small_model();
    let (mut nodes, _) = linear(3, 5);
    nodes.push(checkpoint("C1", "A3", Some("U3"), None, "summary"));
    let p = plan_of(&nodes, "C1", &m, &options(Mode::Manual));
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::None, "leaf-is-checkpoint"));
    assert_eq!(p.first_kept_message_id.as_deref(), Some("U3"));
}

#[test]
fn read_only_never_compacts() {
    let m = small_model();
    let (mut nodes, leaf) = long_branch();
    nodes.push(assistant("X", "no-such-parent", "orphan"));
    nodes.push(user("Y", Some("X"), "q"));
    for opts in [options(Mode::Auto), options(Mode::Manual), preflight("hi")] {
        let p = plan_of(&nodes, "Y", &m, &opts);
        assert_eq!((p.action, p.reason.as_str(), p.send), (PlanAction::None, "read-only", None));
        assert_eq!(p.basis.leaf_id, "Y");
    }
    let _ = leaf;
}

#[test]
fn preflight_send_now() {
    let m = model(200_000, None);
    let (nodes, leaf) = long_branch();
    let p = plan_of(&nodes, &leaf, &m, &preflight("one more question"));
    assert_eq!((p.action, p.reason.as_str(), p.send), (PlanAction::None, "fits", Some(SendDecision::Now)));
}

#[test]
fn preflight_after_compaction() {
    // The draft is kept verbatim: it is in tokensAfterEstimate, which fits the safe limit.
    let m = small_model();
    let (nodes, leaf) = long_branch();
    let draft = "please compare the two annotations on page 4";
    let p = plan_of(&nodes, &leaf, &m, &preflight(draft));
    assert_eq!((p.action, p.reason.as_str(), p.send), (PlanAction::Compact, "over-limit", Some(SendDecision::AfterCompaction)));
    let draft_tokens = message_tokens(&user("d", None, draft), &m);
    let without = plan_of(&nodes, &leaf, &m, &options(Mode::Auto));
    assert_eq!(p.tokens_after_estimate, without.tokens_after_estimate + draft_tokens);
    assert_eq!(p.tokens_before, without.tokens_before + draft_tokens);
    assert!(p.tokens_after_estimate <= capacity(&m).unwrap().safe_input_limit);
}

#[test]
fn preflight_too_large() {
    let m = small_model();
    let (nodes, leaf) = linear(3, 5);
    let p = plan_of(&nodes, &leaf, &m, &preflight(&"paste ".repeat(20_000)));
    assert_eq!((p.action, p.reason.as_str(), p.send), (PlanAction::None, "too-large", Some(SendDecision::TooLarge)));
}

#[test]
fn preflight_draft_as_message() {
    let m = small_model();
    let (nodes, leaf) = long_branch();
    let text = "what does the second paper say?";
    let as_message = PlanOptions::from_value(&json!({ "mode": "preflight",
        "draft": { "id": "draft", "role": "user", "parts": [{ "type": "text", "text": text }] } })).unwrap();
    assert_eq!(plan_of(&nodes, &leaf, &m, &as_message), plan_of(&nodes, &leaf, &m, &preflight(text)));
}

#[test]
fn model_switch_200k_to_8k() {
    // A session compacted under a 200k model (40k verbatim tail), then the user switches to an 8k model.
    let big = model(200_000, Some(64_000));
    let small = small_model();
    let (mut nodes, leaf) = linear(600, 40);
    let p = plan_of(&nodes, &leaf, &big, &options(Mode::Manual));
    assert_eq!(p.action, PlanAction::Compact);
    let kept = tail_tokens(&nodes, &leaf, p.first_kept_message_id.as_deref().unwrap(), &big);
    assert!(kept > 30_000 && kept <= capacity(&big).unwrap().tail_budget, "{kept}");
    nodes.push(checkpoint_from_plan("C1", &p, "summary"));
    let leaf = push_turns(&mut nodes, "C1", 601, 602, 40);
    let p = plan_of(&nodes, &leaf, &big, &preflight("next"));
    assert_eq!(p.send, Some(SendDecision::Now));
    // Same session, 8k model: preflight compacts beyond the old boundary, or refuses a draft that cannot fit.
    let p = plan_of(&nodes, &leaf, &small, &preflight("next"));
    assert_eq!((p.action, p.send), (PlanAction::Compact, Some(SendDecision::AfterCompaction)));
    assert!(p.tokens_after_estimate <= capacity(&small).unwrap().safe_input_limit);
    let ids = branch_message_ids(&nodes, &leaf);
    let old = ids.iter().position(|id| Some(id) == node(&nodes, "C1")["checkpoint"]["firstKeptMessageId"].as_str().map(str::to_string).as_ref()).unwrap();
    let new = ids.iter().position(|id| Some(id) == p.first_kept_message_id.as_ref()).unwrap_or(ids.len());
    assert!(new > old, "the boundary moves forward");
    let p = plan_of(&nodes, &leaf, &small, &preflight(&"paste ".repeat(8_000)));
    assert_eq!((p.action, p.send), (PlanAction::None, Some(SendDecision::TooLarge)));
    // Even with the checkpoint as the leaf, preflight can advance through the old tail.
    let p = plan_of(&nodes, "C1", &small, &preflight("next"));
    assert_eq!(p.send, Some(SendDecision::AfterCompaction));
    // Committed, the new checkpoint's parent is the old one; the projection then fits the small model.
    let s = session(nodes.clone(), "C1");
    assert_eq!(check_commit(&s, &p).unwrap(), Ok(()));
    nodes.push(checkpoint_from_plan("C2", &p, "summary"));
    let after = estimate(&session(nodes, "C2"), &small, &EstimateRequest::default()).unwrap();
    assert!(after.tokens <= p.tokens_after_estimate, "{} > {}", after.tokens, p.tokens_after_estimate);
}

#[test]
fn basis_is_the_session_state() {
    let m = small_model();
    let (nodes, leaf) = long_branch();
    let s = Session::from_value(session_value(nodes, &leaf, 7)).unwrap();
    let p = plan(&s, &m, &options(Mode::Auto)).unwrap();
    assert_eq!((p.basis.leaf_id.as_str(), p.basis.branch_revision), (leaf.as_str(), 7));
    assert_eq!(check_commit(&s, &p).unwrap(), Ok(()));
}

#[test]
fn summarize_previous_tail_and_three_compactions_in_a_row() {
    // Each compaction is applied by appending its checkpoint. Every message ends up summarized exactly
    // once or kept in the final projection: none lost (the old tail is summarized again), none twice.
    let m = small_model();
    let (mut nodes, mut leaf) = linear(40, 20);
    let mut next_turn = 41;
    let mut summarized: Vec<String> = Vec::new();
    let mut previous: Option<Plan> = None;
    let mut boundary_index = 0;
    for (k, mode) in [Mode::Manual, Mode::Auto, Mode::Manual].into_iter().enumerate() {
        let s = Session::from_value(session_value(nodes.clone(), &leaf, k as u64)).unwrap();
        let p = plan(&s, &m, &options(mode)).unwrap();
        assert_eq!(p.action, PlanAction::Compact, "compaction {k}: {}", p.reason);
        assert_eq!(check_commit(&s, &p).unwrap(), Ok(()));
        if let Some(prev) = &previous {
            // Rule summarize-previous-tail: the folded-in range starts at the old boundary.
            assert_eq!(p.summarize_ids.first(), prev.first_kept_message_id.as_ref(), "compaction {k}");
            assert_eq!(p.previous_checkpoint_id, Some(format!("C{}", k)));
        }
        let ids = branch_message_ids(&nodes, &leaf);
        let at = p.first_kept_message_id.as_ref().and_then(|b| ids.iter().position(|id| id == b)).unwrap_or(ids.len());
        assert!(at >= boundary_index, "monotonic boundary");
        boundary_index = at;
        summarized.extend(p.summarize_ids.iter().cloned());
        let id = format!("C{}", k + 1);
        nodes.push(checkpoint_from_plan(&id, &p, "summary"));
        leaf = push_turns(&mut nodes, &id, next_turn, next_turn + 119, 20);
        next_turn += 120;
        previous = Some(p);
    }
    let unique: HashSet<&String> = summarized.iter().collect();
    assert_eq!(unique.len(), summarized.len(), "nothing summarized twice");
    let projection = project(&session(nodes.clone(), &leaf)).unwrap().to_json(&session(nodes.clone(), &leaf));
    let kept: Vec<String> = projection["messages"].as_array().unwrap()[1..].iter().map(|m| m["id"].as_str().unwrap().to_string()).collect();
    assert!(kept.iter().all(|id| !unique.contains(id)), "nothing both kept and summarized");
    let mut all: Vec<String> = summarized.clone();
    all.extend(kept);
    assert_eq!(all, branch_message_ids(&nodes, &leaf), "every message, in order, once");
}

#[test]
fn session_index_matches_stateless() {
    // Appends one node at a time (with usage, tool calls, checkpoints from plans, an edit that moves the
    // leaf to a sibling, and a change of model); the index and the stateless functions always agree.
    let models = [small_model(), ModelProfile { replays_reasoning: true, ..model(16_384, Some(2_048)) }];
    let first = user("U1", None, "start");
    let mut index = SessionIndex::from_session(session(vec![first], "U1"));
    let mut leaf = "U1".to_string();
    let mut revision = 0;
    let mut checkpoints = 0;
    for step in 1..=400usize {
        let m = &models[(step / 150) % 2];
        let node = match step % 4 {
            0 => user(&format!("u{step}"), Some(&leaf), &"question ".repeat(step % 37 + 3)),
            1 => assistant_with_usage(&format!("a{step}"), &leaf, &"answer ".repeat(step % 53 + 5),
                json!({ "inputTokens": 100 + step as u64 * 40, "outputTokens": 60, "reasoningTokens": 10 })),
            2 => assistant_tool(&format!("t{step}"), &leaf, "zoteroSearch", "output-available", json!({ "q": step }),
                Some(json!({ "items": "item ".repeat(step % 29) }))),
            _ => assistant(&format!("b{step}"), &leaf, "ok"),
        };
        let id = node["id"].as_str().unwrap().to_string();
        index.append(node).unwrap();
        index.set_leaf(&id, revision).unwrap();
        leaf = id;
        if step == 201 {
            // Edit: a sibling of the newest user message, then continue on that branch.
            let parent = index.session().nodes.iter().rev().find(|n| n.is_user_message()).and_then(|n| n.parent_id.clone()).unwrap();
            index.append(user("edit", Some(&parent), "edited question")).unwrap();
            revision += 1;
            index.set_leaf("edit", revision).unwrap();
            leaf = "edit".into();
        }
        let snapshot = index.session().clone();
        let draft = PlanOptions { mode: Mode::Preflight, draft: Some(Draft::Text("draft ".repeat(step))), overhead: 300 };
        for opts in [options(Mode::Auto), options(Mode::Manual), draft] {
            let stateless = plan(&snapshot, m, &opts).unwrap();
            assert_eq!(index.plan(m, &opts).unwrap(), stateless, "step {step} {:?}", opts.mode);
            if opts.mode == Mode::Auto && stateless.action == PlanAction::Compact {
                checkpoints += 1;
                let cid = format!("C{checkpoints}");
                index.append(checkpoint_from_plan(&cid, &stateless, "summary")).unwrap();
                revision += 1;
                index.set_leaf(&cid, revision).unwrap();
                leaf = cid;
                break;
            }
        }
        let request = EstimateRequest { draft: None, overhead: 120 };
        assert_eq!(index.estimate(m, &request).unwrap(), estimate(index.session(), m, &request).unwrap(), "step {step}");
    }
    assert!(checkpoints >= 3, "the sequence compacts several times ({checkpoints})");
}

#[test]
fn session_index_preflight_is_incremental() {
    // After one appended message, a preflight through the index estimates that message only and extends
    // the branch sums by one position; moving the leaf elsewhere re-sums but re-estimates nothing old.
    let m = small_model();
    let (nodes, leaf) = linear(2_000, 20);
    let mut index = SessionIndex::from_session(session(nodes, &leaf));
    let draft = preflight("a new question");
    index.plan(&m, &draft).unwrap();
    assert_eq!(index.branch_tokens().work(), (4_000, 4_000));
    index.append(user("U2001", Some(&leaf), "follow-up")).unwrap();
    index.set_leaf("U2001", 1).unwrap();
    index.plan(&m, &draft).unwrap();
    assert_eq!(index.branch_tokens().work(), (4_001, 4_001));
    index.append(assistant("A2001", "U2001", "answer")).unwrap();
    index.set_leaf("A2001", 2).unwrap();
    index.estimate(&m, &EstimateRequest::default()).unwrap();
    index.plan(&m, &draft).unwrap();
    assert_eq!(index.branch_tokens().work(), (4_002, 4_002));
    // Edit: a sibling of U2001. Nothing old is estimated again; the sums are rebuilt once.
    index.append(user("E2001", Some(&leaf), "edited follow-up")).unwrap();
    index.set_leaf("E2001", 3).unwrap();
    index.plan(&m, &draft).unwrap();
    assert_eq!(index.branch_tokens().work(), (4_003, 4_002 + 4_001));
    assert_eq!(index.plan(&m, &draft).unwrap(), plan(index.session(), &m, &draft).unwrap());
    // The summary frame (the plan compacts): after one appended tool result, only that message's ledger
    // entries are collected and merged; the thousands of messages before it are not read again.
    let compacting = index.plan(&m, &draft).unwrap();
    assert_eq!(compacting.action, PlanAction::Compact, "{}", compacting.reason);
    let (collected, merged) = index.branch_tokens().ledger_work();
    let items = json!([{ "key": "ABCD2345", "itemType": "book", "title": "Membranes" }, { "key": "EFGH6789", "itemType": "book", "title": "Pores" }]);
    index.append(assistant_tool("T2001", "E2001", "zoteroSearch", "output-available", json!({ "q": "membranes" }), Some(items))).unwrap();
    index.set_leaf("T2001", 4).unwrap();
    assert_eq!(index.plan(&m, &draft).unwrap(), plan(index.session(), &m, &draft).unwrap());
    assert_eq!(index.branch_tokens().ledger_work(), (collected + 1, merged + 2));
}

#[test]
fn session_index_tokens_warmed_in_parts_answer_as_in_one_piece() {
    // A store estimates a long branch in parts before its first use (`warm_tokens`, issue 42): each
    // part estimates its nodes once, then merges the ledger of the unsummarized span into the
    // summary frame; the plan and estimate after it estimate and collect nothing again and answer as
    // an index that never warmed.
    let m = small_model();
    let (mut nodes, _) = linear(300, 20);
    let items = json!([{ "key": "ABCD2345", "itemType": "book", "title": "Membranes" }]);
    nodes.push(user("U301", Some("A300"), "search"));
    nodes.push(assistant_tool("T301", "U301", "zoteroSearch", "output-available", json!({ "q": "membranes" }), Some(items)));
    let mut warmed = SessionIndex::from_session(session(nodes.clone(), "T301"));
    let mut cold = SessionIndex::from_session(session(nodes, "T301"));
    let mut parts = 1;
    while !warmed.warm_tokens(64) {
        parts += 1;
    }
    assert_eq!(parts, 10 + 10, "602 nodes in parts of 64, then their ledger in parts of 64");
    assert_eq!(warmed.branch_tokens().work(), (602, 602));
    assert_eq!(warmed.branch_tokens().ledger_work(), (602, 1), "every message's ledger collected once");
    assert!(warmed.warm_tokens(64), "nothing left: done at once");
    let draft = preflight("a new question");
    let request = EstimateRequest { draft: None, overhead: 120 };
    assert_eq!(warmed.plan(&m, &draft).unwrap(), cold.plan(&m, &draft).unwrap());
    assert_eq!(warmed.estimate(&m, &request).unwrap(), cold.estimate(&m, &request).unwrap());
    assert_eq!(warmed.branch_tokens().work(), (602, 602));
    assert_eq!(warmed.branch_tokens().ledger_work(), (602, 1), "the plan collected no ledger again");
    assert_eq!(warmed.plan(&m, &draft).unwrap(), plan(warmed.session(), &m, &draft).unwrap());
}

#[test]
fn session_index_warming_stops_reading_the_ledger_past_every_bound() {
    // A research branch whose search results pass any plan's ledger bound early: warming reads the
    // tool outputs only that far (a plan counts the frame at most at its bound), and the plans after it,
    // for a small and a large model, are those of an index that never warmed and of the stateless call.
    let (nodes, leaf) = search_results(300);
    let mut warmed = SessionIndex::from_session(session(nodes.clone(), &leaf));
    while !warmed.warm_tokens(16) {}
    let (read, _) = warmed.branch_tokens().ledger_work();
    assert!(read < 100, "the ledger passes every bound well before 301 messages: read {read}");
    let draft = preflight("a new question");
    for m in [small_model(), model(1_000_000, None)] {
        let mut cold = SessionIndex::from_session(session(nodes.clone(), &leaf));
        let planned = warmed.plan(&m, &draft).unwrap();
        assert_eq!(planned, cold.plan(&m, &draft).unwrap());
        assert_eq!(planned, plan(warmed.session(), &m, &draft).unwrap());
    }
    assert_eq!(warmed.branch_tokens().ledger_work().0, read, "the plans read no more");
}

#[test]
fn tokens_after_estimate_bounds_the_committed_projection() {
    // Found by tests/model_based.rs: the ledger of a large search result goes into the projected summary
    // message, but the plan counted only the previous checkpoint's ledger; with the extractive summary the
    // projection after an automatic compaction was larger than before it.
    use bibgenie_compaction::commit::checkpoint_node;
    use bibgenie_compaction::summarize::{extractive_summary, summary_request};
    let m = model(4_107, None);
    let items: Vec<Value> = (0..36)
        .map(|k| json!({ "key": format!("K{k:07}").replace('0', "Q").replace('1', "W"), "itemType": "journalArticle", "title": format!("Membrane study {k}") }))
        .collect();
    let mut nodes = vec![user("U1", None, &"find membrane papers ".repeat(40))];
    nodes.push(assistant_tool("T1", "U1", "zoteroSearch", "output-available", json!({ "q": "membranes" }), Some(json!(items))));
    let leaf = push_turns(&mut nodes, "T1", 2, 20, 60);
    let s = session(nodes.clone(), &leaf);
    let p = plan(&s, &m, &options(Mode::Auto)).unwrap();
    assert_eq!(p.action, PlanAction::Compact, "{}", p.reason);
    let request = summary_request(&s, &p, &m).unwrap();
    assert!(request.ledger.entries.len() >= 36);
    let node = checkpoint_node(&p, &extractive_summary(&request), &request.ledger, "C1").unwrap();
    nodes.push(node);
    let after = estimate(&session(nodes, "C1"), &m, &EstimateRequest::default()).unwrap();
    assert!(after.tokens <= p.tokens_after_estimate, "{} > {}", after.tokens, p.tokens_after_estimate);
    assert!(after.tokens < p.tokens_before, "{} >= {}", after.tokens, p.tokens_before);
}

/// A plan handed back (`checkpointNode`, `summaryRequest`, `checkCommit`) reads as it was written:
/// every field by its JSON name, `cache` and `cost` too; unknown fields are ignored, a null optional
/// field is absent, and a wrong one is serde's message (the bindings answer `invalid-plan`).
#[test]
fn a_plan_reads_back_from_its_json() {
    let full = json!({
        "action": "compact", "reason": "cache-cold", "mode": "preflight", "firstKeptMessageId": "U3",
        "previousCheckpointId": "C1", "summarizeIds": ["U1", "A1"], "basis": { "leafId": "A3", "branchRevision": 4 },
        "tokensBefore": 9000, "tokensAfterEstimate": 3000, "send": "after-compaction", "ledgerBudget": 212,
        "userWordsBudget": 326, "citedPagesBudget": 163,
        "cache": { "state": "cold", "idleMs": 400000, "cachedPrefixTokens": 5000, "baselineMessageId": "A2" },
        "cost": { "tokensBefore": 9000, "tokensAfter": 3000, "cachedPrefixInvalidated": 0, "nextRequestWithout": 0.03,
                  "nextRequestWith": 0.01, "summaryRequest": 0.5 }
    });
    let plan = Plan::from_value(&full).expect("a full plan");
    assert_eq!(serde_json::to_value(&plan).unwrap(), full);
    assert_eq!(plan.send, Some(SendDecision::AfterCompaction));
    let mut lean = full.clone();
    for (field, value) in [("send", Value::Null), ("cache", Value::Null), ("firstKeptMessageId", Value::Null), ("extra", json!([1]))] {
        lean[field] = value;
    }
    lean.as_object_mut().unwrap().remove("cost");
    let read = Plan::from_value(&lean).expect("a lean plan");
    assert_eq!((read.send, read.cache, read.cost, read.first_kept_message_id), (None, None, None, None));
    for (field, value, message) in [
        ("action", Value::Null, "invalid type: null, expected enum PlanAction"),
        ("mode", json!("later"), "unknown variant `later`, expected one of `manual`, `auto`, `preflight`"),
        ("tokensBefore", json!(1.5), "invalid type: floating point `1.5`, expected u64"),
        ("summarizeIds", json!(["U1", 2]), "invalid type: integer `2`, expected a string"),
        ("basis", json!({ "leafId": "A3" }), "missing field `branchRevision`"),
        ("cost", json!({ "tokensBefore": 1, "tokensAfter": 1, "cachedPrefixInvalidated": 0, "summaryRequest": "x" }), "invalid type: string \"x\", expected f64"),
    ] {
        let mut bad = full.clone();
        bad[field] = value;
        assert_eq!(Plan::from_value(&bad).unwrap_err(), message, "{field}");
    }
    let mut missing = full.clone();
    missing.as_object_mut().unwrap().remove("reason");
    assert_eq!(Plan::from_value(&missing).unwrap_err(), "missing field `reason`");
    assert_eq!(Plan::from_value(&json!("compact")).unwrap_err(), "invalid type: string \"compact\", expected struct Plan");
}

/// Issue 40, rule `registers-take-unused-tail`: a tail is cut at whole turns, so it mostly keeps less
/// than its budget; what it leaves goes to the registers (two thirds to the user's words), within
/// rule `compaction-frees-room`'s half of the threshold, and the plan counts it.
#[test]
fn the_tail_budget_the_kept_tail_leaves_goes_to_the_registers() {
    let m = small_model();
    let c = capacity(&m).unwrap();
    let (words, pages) = bibgenie_compaction::estimate::register_budgets(&c);
    // Turns of about half the tail budget: the tail keeps one and leaves close to half.
    let (nodes, leaf) = linear(20, 400);
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Auto));
    assert_eq!(p.action, PlanAction::Compact);
    let kept = tail_tokens(&nodes, &leaf, p.first_kept_message_id.as_deref().expect("a verbatim tail"), &m);
    let left = c.tail_budget - kept;
    assert!(left > c.tail_budget / 4, "the turns leave too little of the tail budget for this test: {left}");
    assert_eq!(p.user_words_budget, Some(words + left * 2 / 3));
    assert_eq!(p.cited_pages_budget, Some(pages + left - left * 2 / 3));
    // Counted after the compaction, which stays within half the threshold (plus the frame's join slack).
    let registers = bibgenie_compaction::estimate::register_frame_tokens(&c);
    assert!(p.tokens_after_estimate >= c.summary_max_output_tokens + registers + kept + left);
    assert!(p.tokens_after_estimate <= c.auto_compact_at / 2 + 64, "{} over half the threshold", p.tokens_after_estimate);

    // A tail that fills its budget leaves the registers their capacity's budgets.
    let (nodes, leaf) = long_branch();
    let p = plan_of(&nodes, &leaf, &m, &options(Mode::Auto));
    let kept = tail_tokens(&nodes, &leaf, p.first_kept_message_id.as_deref().unwrap(), &m);
    let left = c.tail_budget - kept;
    assert!(left < 64, "{left}");
    assert_eq!(p.user_words_budget.unwrap() + p.cited_pages_budget.unwrap(), words + pages + left);
}
