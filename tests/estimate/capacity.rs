//! Capacity formulas over the grid the issue names: windows 4,096..2,000,000, output caps 1,024..128,000.

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use bibgenie_compaction::estimate::{capacity, projected_ledger_budget, MIN_CONTEXT_WINDOW, ModelProfile};
use bibgenie_compaction::error::ErrorCode;
use serde_json::json;

const WINDOWS: [u64; 14] =
    [1_024, 4_096, 8_192, 16_000, 32_768, 65_536, 100_000, 128_000, 200_000, 262_144, 400_000, 1_000_000, 1_048_576, 2_000_000];
const CAPS: [Option<u64>; 10] =
    [None, Some(1_024), Some(2_048), Some(4_096), Some(8_192), Some(16_384), Some(32_000), Some(64_000), Some(100_000), Some(128_000)];

fn model(window: u64, cap: Option<u64>) -> ModelProfile {
    ModelProfile { id: None, context_window: window, max_output_tokens: cap, replays_reasoning: false, image_tokens: None, auto_compact_ratio: None, tail_share: None }
}

/// Every window on the grid plus a dense sweep, so rounding at odd sizes is covered too.
fn windows() -> impl Iterator<Item = u64> {
    WINDOWS.into_iter().chain((MIN_CONTEXT_WINDOW..300_000).step_by(997))
}

#[test]
fn safe_limit_positive() {
    for w in windows() {
        for cap in CAPS {
            let c = capacity(&model(w, cap)).unwrap();
            assert!(c.safe_input_limit > 0, "{w} {cap:?}");
            assert_eq!(c.safe_input_limit, w - c.reserved_tokens);
            assert!(c.safe_input_limit >= w * 3 / 4, "reserve at most a quarter: {w} {cap:?} {c:?}");
            assert!(c.auto_compact_at < c.safe_input_limit);
        }
    }
}

#[test]
fn reserve_scales() {
    // A small window reserves less than a large one (for the same cap), never the other way round.
    for cap in CAPS {
        let mut previous = 0;
        for w in windows().collect::<std::collections::BTreeSet<_>>() {
            let c = capacity(&model(w, cap)).unwrap();
            assert!(c.reserved_tokens >= previous, "{w} {cap:?}");
            previous = c.reserved_tokens;
        }
    }
    let small = capacity(&model(4_096, None)).unwrap();
    let large = capacity(&model(200_000, None)).unwrap();
    assert!(small.reserved_tokens < large.reserved_tokens);
    assert!(small.tail_budget < large.tail_budget);
    assert!(small.summary_max_output_tokens < large.summary_max_output_tokens);
}

#[test]
fn summary_within_output_cap() {
    for w in windows() {
        for cap in CAPS {
            let c = capacity(&model(w, cap)).unwrap();
            if let Some(cap) = cap {
                assert!(c.summary_max_output_tokens <= cap, "{w} {cap}");
                assert!(c.reserved_tokens <= cap, "{w} {cap}");
            }
            assert!(c.summary_max_output_tokens <= c.reserved_tokens);
            assert!(c.summary_max_output_tokens > 0);
        }
    }
}

#[test]
fn compaction_frees_room() {
    // Summary budget + the ledger's projected part + tail budget at most half the automatic
    // threshold, whatever the ledger's size: no compaction loop.
    for w in windows() {
        for cap in CAPS {
            let c = capacity(&model(w, cap)).unwrap();
            let ledger = projected_ledger_budget(&c);
            let (words, pages) = bibgenie_compaction::estimate::register_budgets(&c);
            let registers = bibgenie_compaction::estimate::register_frame_tokens(&c);
            assert!(words + pages == 0 || registers == words + pages + bibgenie_compaction::estimate::REGISTER_JOIN_SLACK);
            assert!(
                2 * (c.summary_max_output_tokens + ledger + registers + c.tail_budget) <= c.auto_compact_at,
                "{w} {cap:?}: ledger {ledger}, registers {words} + {pages}, {c:?}"
            );
            // The registers' shares of the summary budget, the user's words first.
            assert!(words <= c.summary_max_output_tokens * 2 / 5 && pages <= c.summary_max_output_tokens / 5, "{w} {cap:?}");
        }
    }
}

#[test]
fn output_cap_larger_than_window_is_bounded_by_the_window() {
    let c = capacity(&model(4_096, Some(128_000))).unwrap();
    assert_eq!(c.reserved_tokens, 1_024);
    assert_eq!(c.safe_input_limit, 3_072);
}

#[test]
fn known_values() {
    let c = capacity(&model(200_000, Some(64_000))).unwrap();
    assert_eq!(
        (c.reserved_tokens, c.safe_input_limit, c.auto_compact_at, c.tail_budget, c.summary_max_output_tokens),
        (25_000, 175_000, 157_500, 40_000, 8_192)
    );
    let c = capacity(&model(8_192, Some(4_096))).unwrap();
    assert_eq!(
        (c.reserved_tokens, c.safe_input_limit, c.auto_compact_at, c.tail_budget, c.summary_max_output_tokens),
        (1_024, 7_168, 6_451, 1_638, 819)
    );
    // The registers' budgets as docs/controller-and-ledger.md gives them.
    let budgets = |w| bibgenie_compaction::estimate::register_budgets(&capacity(&model(w, None)).unwrap());
    assert_eq!([budgets(8_192), budgets(32_768), budgets(128_000), budgets(200_000)], [(326, 163), (1_310, 655), (3_276, 1_638), (3_276, 1_638)]);
}

#[test]
fn valid_model() {
    for bad in [
        json!({ "contextWindow": 0 }),
        json!({ "contextWindow": -5 }),
        json!({ "contextWindow": null }), // NaN after JSON.stringify
        json!({ "contextWindow": 1_000.5 }),
        json!({ "contextWindow": 1_023 }),
        json!({ "contextWindow": "200000" }),
        json!({ "contextWindow": 1e300 }),
        json!({ "contextWindow": 8_192, "maxOutputTokens": 0 }),
        json!({ "contextWindow": 8_192, "maxOutputTokens": -1 }),
        json!({ "contextWindow": 8_192, "replaysReasoning": "yes" }),
        json!({}),
        json!(8_192),
    ] {
        let e = ModelProfile::from_value(&bad).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidModel, "{bad}");
    }
    let ok = ModelProfile::from_value(&json!({ "id": "m", "contextWindow": 8_192.0, "maxOutputTokens": 1_024, "replaysReasoning": true, "imageTokens": 85 })).unwrap();
    assert_eq!(ok.context_window, 8_192);
    assert!(ok.replays_reasoning);
    assert_eq!(capacity(&model(512, None)).unwrap_err().code, ErrorCode::InvalidModel);
}

/// `count` distinct item entries, as a long session's checkpoint would carry them.
fn big_ledger(count: usize) -> serde_json::Value {
    let entries: Vec<serde_json::Value> = (0..count)
        .map(|n| json!({ "kind": "item", "key": format!("K{n:07}"), "label": format!("Canine nutrition study number {n}, a cohort of adult dogs"), "detail": "journalArticle" }))
        .collect();
    json!({ "entries": entries })
}

#[test]
fn one_compaction_always_frees_room_with_a_5000_entry_ledger_on_an_8k_model() {
    use bibgenie_compaction::commit::{check_summary_budget, checkpoint_node};
    use bibgenie_compaction::estimate::{estimate, EstimateRequest};
    use bibgenie_compaction::session::{Mode, Session};
    use bibgenie_compaction::plan::{plan, PlanAction, PlanOptions};
    use bibgenie_compaction::summarize::{extractive_summary, summary_request};
    let m = model(8_192, None);
    let c = capacity(&m).unwrap();
    let summary: String = bibgenie_compaction::summarize::SECTIONS.iter().map(|s| format!("## {s}\n- (user) K0000042 matters\n")).collect();
    let mut nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "Review canine nutrition." }] }),
        json!({ "id": "C0", "parentId": "U0", "checkpoint": { "summary": summary, "firstKeptMessageId": null, "previousCheckpointId": null,
            "mode": "auto", "tokensBefore": 9000, "tokensAfter": 2000, "ledger": big_ledger(5_000), "basis": { "leafId": "U0", "branchRevision": 1 } } }),
    ];
    let mut leaf = "C0".to_string();
    let session_of = |nodes: &Vec<serde_json::Value>, leaf: &str| Session::from_value(json!({ "nodes": nodes, "leafId": leaf, "branchRevision": 2 })).unwrap();
    let projected_after_checkpoint = estimate(&session_of(&nodes, &leaf), &m, &EstimateRequest::default()).unwrap().tokens;
    assert!(projected_after_checkpoint < c.auto_compact_at / 2, "the 5,000 entries do not crowd the window: {projected_after_checkpoint}");
    // Turns until the projection crosses the automatic threshold.
    let mut turn = 0;
    loop {
        turn += 1;
        nodes.push(json!({ "id": format!("U{turn}"), "parentId": leaf, "role": "user", "parts": [{ "type": "text", "text": format!("Question {turn} about protein intake?") }] }));
        nodes.push(json!({ "id": format!("A{turn}"), "parentId": format!("U{turn}"), "role": "assistant", "parts": [{ "type": "text", "text": "finding ".repeat(150) }] }));
        leaf = format!("A{turn}");
        if estimate(&session_of(&nodes, &leaf), &m, &EstimateRequest::default()).unwrap().tokens >= c.auto_compact_at {
            break;
        }
    }
    let session = session_of(&nodes, &leaf);
    let before = estimate(&session, &m, &EstimateRequest::default()).unwrap().tokens;
    let p = plan(&session, &m, &PlanOptions::new(Mode::Auto)).unwrap();
    assert_eq!((p.action, p.reason.as_str()), (PlanAction::Compact, "over-threshold"), "{p:?}");
    let request = summary_request(&session, &p, &m).unwrap();
    assert_eq!(request.ledger.entries.len(), 5_000, "no key is lost from durable state");
    let summary = extractive_summary(&request);
    check_summary_budget(&summary, request.max_output_tokens).unwrap();
    nodes.push(checkpoint_node(&p, &summary, &request.ledger, "C1").unwrap());
    let after = estimate(&session_of(&nodes, "C1"), &m, &EstimateRequest::default()).unwrap().tokens;
    eprintln!("5,000-entry ledger on 8k: {before} tokens before, {after} after (plan said {}), threshold {}", p.tokens_after_estimate, c.auto_compact_at);
    assert!(after < before, "{after} >= {before}");
    assert!(after <= p.tokens_after_estimate, "the plan's figure is an upper bound: {after} > {}", p.tokens_after_estimate);
    assert!(2 * after <= c.auto_compact_at, "right after the compaction the projection is at most half the threshold: {after}, {c:?}");
}

/// A profile with its own threshold and tail (issue 41: settings a plugin already exposes).
fn shared(window: u64, cap: Option<u64>, ratio: Option<f64>, tail: Option<f64>) -> ModelProfile {
    ModelProfile { auto_compact_ratio: ratio, tail_share: tail, ..model(window, cap) }
}

#[test]
fn auto_compact_ratio_and_tail_share_set_the_threshold_and_the_tail() {
    let c = capacity(&shared(200_000, None, Some(0.6), None)).unwrap();
    assert_eq!(c.auto_compact_at, 120_000);
    assert_eq!(c.tail_budget, 40_000, "the tail keeps its default");
    let c = capacity(&shared(200_000, None, None, Some(0.1))).unwrap();
    assert_eq!((c.auto_compact_at, c.tail_budget), (157_500, 20_000), "the threshold keeps its default");
    // A given share has no 48,000 ceiling.
    assert_eq!(capacity(&shared(1_000_000, None, None, Some(0.3))).unwrap().tail_budget, 300_000);
    // floor(share * W) at odd windows.
    let c = capacity(&shared(100_003, None, Some(0.7), Some(0.15))).unwrap();
    assert_eq!((c.auto_compact_at, c.tail_budget), (70_002, 15_000));
    // The threshold may reach the safe input limit, not pass it.
    let c = capacity(&shared(8_192, None, Some(0.875), None)).unwrap();
    assert_eq!(c.auto_compact_at, c.safe_input_limit);
    // Read from JSON as the bindings read it.
    let m = ModelProfile::from_value(&json!({ "contextWindow": 128_000, "autoCompactRatio": 0.6, "tailShare": 0.1 })).unwrap();
    assert_eq!((m.auto_compact_ratio, m.tail_share), (Some(0.6), Some(0.1)));
}

#[test]
fn shares_keep_every_invariant_or_are_refused_saying_what_to_change() {
    // Property over the windows, caps, thresholds and tails: a profile is either refused with
    // invalid-model naming the field, or its capacity keeps rule compaction-frees-room and a
    // threshold within the safe limit.
    let ratios = [None, Some(0.05), Some(0.3), Some(0.5), Some(0.6), Some(0.7), Some(0.8), Some(0.875), Some(0.9), Some(1.0)];
    let tails = [None, Some(0.01), Some(0.05), Some(0.1), Some(0.2), Some(0.3), Some(0.5), Some(1.0)];
    let (mut accepted, mut refused) = (0, 0);
    for w in windows().step_by(7) {
        for cap in [None, Some(1_024), Some(16_384)] {
            for ratio in ratios {
                for tail in tails {
                    match capacity(&shared(w, cap, ratio, tail)) {
                        Ok(c) => {
                            accepted += 1;
                            let default = capacity(&model(w, cap)).unwrap();
                            let ledger = projected_ledger_budget(&c);
                            let registers = bibgenie_compaction::estimate::register_frame_tokens(&c);
                            assert!(2 * (c.summary_max_output_tokens + ledger + registers + c.tail_budget) <= c.auto_compact_at, "{w} {cap:?} {ratio:?} {tail:?}: {c:?}");
                            assert!(c.auto_compact_at <= c.safe_input_limit, "{w} {ratio:?}");
                            assert_eq!(c.auto_compact_at, ratio.map_or(default.auto_compact_at, |r| (r * w as f64).floor() as u64));
                            assert_eq!(c.tail_budget, tail.map_or(default.tail_budget, |t| (t * w as f64).floor() as u64));
                            assert_eq!((c.reserved_tokens, c.summary_max_output_tokens), (default.reserved_tokens, default.summary_max_output_tokens));
                        }
                        Err(e) => {
                            refused += 1;
                            assert_eq!(e.code, ErrorCode::InvalidModel);
                            assert!(e.message.starts_with("model.autoCompactRatio") || e.message.starts_with("model.tailShare"), "{}", e.message);
                            assert!(e.message.contains("lower") || e.message.contains("raise") || e.message.contains(" set "), "{}", e.message);
                        }
                    }
                }
            }
        }
    }
    assert!(accepted > 1_000 && refused > 1_000, "{accepted} accepted, {refused} refused");
}

#[test]
fn bad_shares_are_refused_with_invalid_model_naming_the_field() {
    for (profile, field, pattern) in [
        (json!({ "contextWindow": 8_192, "autoCompactRatio": 0 }), "autoCompactRatio", "must be a number in (0, 1], got 0"),
        (json!({ "contextWindow": 8_192, "autoCompactRatio": -0.5 }), "autoCompactRatio", "got -0.5"),
        (json!({ "contextWindow": 8_192, "autoCompactRatio": 1.5 }), "autoCompactRatio", "got 1.5"),
        (json!({ "contextWindow": 8_192, "autoCompactRatio": "0.8" }), "autoCompactRatio", "must be a number"),
        (json!({ "contextWindow": 8_192, "tailShare": 0 }), "tailShare", "must be a number in (0, 1]"),
        (json!({ "contextWindow": 8_192, "tailShare": 2 }), "tailShare", "got 2"),
        (json!({ "contextWindow": 8_192, "tailShare": true }), "tailShare", "must be a number"),
        // Over the safe input limit (8,192 less the 1,024 reserved: 0.875).
        (json!({ "contextWindow": 8_192, "autoCompactRatio": 0.9 }), "autoCompactRatio", "lower autoCompactRatio to at most 0.875"),
        // Rule compaction-frees-room: a threshold too low for the default tail ...
        (json!({ "contextWindow": 128_000, "autoCompactRatio": 0.3 }), "autoCompactRatio", "raise autoCompactRatio to at least 0.561"),
        // ... a tail too large for the default threshold ...
        (json!({ "contextWindow": 128_000, "tailShare": 0.5 }), "tailShare", "lower tailShare to at most 0.313"),
        // ... and a pair that does not fit together.
        (json!({ "contextWindow": 200_000, "autoCompactRatio": 0.6, "tailShare": 0.3 }), "tailShare", "lower tailShare to at most 0.248 or raise autoCompactRatio to at least 0.703"),
    ] {
        let e = ModelProfile::from_value(&profile).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidModel, "{profile}");
        assert!(e.message.starts_with(&format!("model.{field}")), "{profile}: {}", e.message);
        assert!(e.message.contains(pattern), "{profile}: {}", e.message);
    }
    // Not finite (only a Rust caller can pass one: JSON has none, the bindings refuse NaN first).
    for bad in [f64::NAN, f64::INFINITY] {
        assert_eq!(capacity(&shared(8_192, None, Some(bad), None)).unwrap_err().code, ErrorCode::InvalidModel);
        assert_eq!(capacity(&shared(8_192, None, None, Some(bad))).unwrap_err().code, ErrorCode::InvalidModel);
    }
}
