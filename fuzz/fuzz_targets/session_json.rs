//! Session JSON -> readBranch, project, history, session operations, estimate and plan (three modes,
//! several model profiles); a compacting plan goes on through the summary request, the extractive
//! summary, the checkpoint node and the commit check, and the checkpoint is appended to a SessionIndex.
//! Beyond "no panic", three invariants: reading the session from text agrees with reading it
//! through `serde_json::Value` (each node keeping its text: numbers stay as written), the extractive
//! summary always validates, and the cached SessionIndex plans exactly like the stateless `plan`.
//! One model profile per execution, chosen by the input's length, so that mutations reach every
//! profile at a fifth of the cost of running all five on every input.
#![no_main]

use bibgenie_compaction::estimate::{estimate, Draft, EstimateRequest, ModelProfile};
use bibgenie_compaction::commit::{check_commit, checkpoint_node};
use bibgenie_compaction::session::{can_fork, edit_target, history, read_branch, retry_target, Mode, Session};
use bibgenie_compaction::plan::{plan, PlanAction, PlanOptions};
use bibgenie_compaction::projection::project;
use bibgenie_compaction::summarize::{extractive_summary, summary_request, validate_summary};
use bibgenie_compaction::session_index::SessionIndex;
use libfuzzer_sys::fuzz_target;

/// Small, odd and huge windows: the 1,024 minimum, a 4k chat model, a reasoning model that replays
/// its reasoning with a fixed image cost, a 200k model with an output cap, and a 2M window.
fn models() -> Vec<ModelProfile> {
    let profile = |window: u64, output: Option<u64>, replays: bool, image: Option<u64>| ModelProfile {
        id: None,
        context_window: window,
        max_output_tokens: output,
        replays_reasoning: replays,
        image_tokens: image,
        auto_compact_ratio: None,
        tail_share: None,
    };
    vec![
        profile(1_024, None, false, None),
        profile(4_096, Some(1_024), false, None),
        profile(8_192, Some(100_000), true, Some(85)),
        profile(200_000, Some(64_000), false, None),
        profile(2_000_000, None, true, None),
    ]
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let read = Session::from_json_str(text);
    // The fast read from text agrees with the `Value` path that owns the rules, valid or not.
    // The `Value` rules, each node keeping its own text (numbers as written, never re-serialized).
    let by_value = Session::from_value_text(text).map_err(|e| e.code);
    match (&read, &by_value) {
        (Ok(a), Ok(b)) => {
            assert_eq!((&a.leaf_id, a.branch_revision, a.nodes.len()), (&b.leaf_id, b.branch_revision, b.nodes.len()));
            for (x, y) in a.nodes.iter().zip(&b.nodes) {
                let node = |n: &bibgenie_compaction::session::Node| format!("{:?}", (&n.id, &n.parent_id, n.created_at, &n.kind));
                assert_eq!(node(x), node(y));
                assert_eq!(x.raw.to_value(), y.raw.to_value());
            }
        }
        (Err(a), Err(b)) => assert_eq!(a.code, *b),
        _ => panic!("reading from text and through Value disagree"),
    }
    let Ok(session) = read else { return };

    let branch = read_branch(&session);
    let _ = branch.to_json(&session);
    let _ = history(&session);
    if let Ok(projection) = project(&session) {
        let _ = projection.to_json(&session);
    }
    let _ = retry_target(&session);
    let _ = edit_target(&session);
    for node in session.nodes.iter().take(4) {
        let _ = can_fork(&session, &node.id);
    }

    let draft = Draft::Text("Draft: compare the two reviews on p. 12.".to_string());
    let models = models();
    let chosen = data.len() % models.len();
    for model in models.into_iter().skip(chosen).take(1) {
        let _ = estimate(&session, &model, &EstimateRequest::default());
        let _ = estimate(&session, &model, &EstimateRequest { draft: Some(draft.clone()), overhead: 3_150 });
        let mut index = SessionIndex::from_session(session.clone());
        for mode in [Mode::Manual, Mode::Auto, Mode::Preflight] {
            let options = PlanOptions {
                mode,
                draft: (mode == Mode::Preflight).then(|| draft.clone()),
                overhead: 0,
            };
            let stateless = plan(&session, &model, &options);
            let cached = index.plan(&model, &options);
            assert_eq!(
                stateless.as_ref().map_err(|e| e.code),
                cached.as_ref().map_err(|e| e.code),
                "SessionIndex.plan differs from plan"
            );
            let Ok(plan) = stateless else { continue };
            if plan.action != PlanAction::Compact {
                continue;
            }
            let Ok(request) = summary_request(&session, &plan, &model) else { continue };
            let summary = extractive_summary(&request);
            if let Err(e) = validate_summary(&summary) {
                panic!("extractive summary does not validate: {}", e.message);
            }
            let _ = check_commit(&session, &plan);
            if let Ok(node) = checkpoint_node(&plan, &summary, &request.ledger, "ckpt_fuzz") {
                let mut after = SessionIndex::from_session(session.clone());
                if after.append(node).is_ok() && after.set_leaf("ckpt_fuzz", session.branch_revision + 1).is_ok() {
                    let _ = after.plan(&model, &PlanOptions::new(Mode::Manual));
                    let _ = project(after.session());
                }
            }
        }
    }
});
