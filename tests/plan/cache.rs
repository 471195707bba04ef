//! The prompt cache: plausible baselines, breakpoints, cache state, the `cache-cold` reason and the
//! cost of a compaction (rules named in src/plan/cache.rs, src/estimate/request.rs and src/estimate/usage.rs).

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::plan::{cache_breakpoints, default_profile, plan_branch_cached, CacheOptions, CacheProfile, CacheState, Plan, PlanAction, PlanOptions};
use bibgenie_compaction::estimate::{capacity, estimate, EstimateRequest, ModelProfile, Source};
use bibgenie_compaction::session::{read_branch, Mode, Session};
use bibgenie_compaction::projection::project;
use common::*;
use serde_json::{json, Value};

const T0: u64 = 1_800_000_000_000;
const MINUTE: u64 = 60_000;

fn timed(mut node: Value, at: u64) -> Value {
    node["createdAt"] = json!(at);
    node
}

fn request(options: Value) -> EstimateRequest {
    EstimateRequest::from_value(Some(&options)).unwrap()
}

/// A conversation of `turns` turns of `words` words per message, the last answer with `usage` at T0.
fn answered(turns: usize, words: usize, usage: Value) -> (Vec<Value>, String) {
    let (mut nodes, leaf) = linear(turns, words);
    let last = nodes.pop().unwrap();
    let parent = last["parentId"].as_str().unwrap().to_string();
    nodes.push(timed(assistant_with_usage(&leaf, &parent, &"word ".repeat(words), usage), T0));
    (nodes, leaf)
}

fn planned(session: &Session, m: &ModelProfile, mode: Mode, profile: Option<CacheProfile>, now: Option<u64>) -> Plan {
    let branch = read_branch(session);
    let cache = CacheOptions { profile, now };
    plan_branch_cached(session, &branch, &mut Default::default(), m, &PlanOptions::new(mode), &cache).unwrap()
}

#[test]
fn baseline_plausible_anthropic_v5_cache_write_is_not_a_baseline() {
    // Issue 23.4: AI SDK 5 with Anthropic, right after a cache write: inputTokens leaves the write out.
    let m = model(200_000, None);
    let (nodes, leaf) = answered(6, 12_000, json!({ "inputTokens": 12, "outputTokens": 300, "totalTokens": 312 }));
    let e = estimate(&session(nodes.clone(), &leaf), &m, &EstimateRequest::default()).unwrap();
    assert_eq!(e.source, Source::Estimate, "{e:?}");
    assert!(e.tokens > 60_000, "{e:?}");
    // The same report with the write kept (what usageMetadata stores now) is a baseline.
    let (nodes, leaf) = answered(
        6,
        12_000,
        json!({ "inputTokens": 12, "outputTokens": 300, "inputTokenDetails": { "noCacheTokens": 12, "cacheReadTokens": 0, "cacheWriteTokens": 70_000 } }),
    );
    let e = estimate(&session(nodes, &leaf), &m, &EstimateRequest::default()).unwrap();
    assert_eq!((e.source, e.baseline_tokens), (Source::Usage, 70_312));
}

#[test]
fn baseline_plausible_falls_back_to_an_earlier_plausible_usage() {
    let m = model(200_000, None);
    let (mut nodes, _) = linear(2, 2_000);
    nodes[1] = assistant_with_usage("A1", "U1", &"word ".repeat(2_000), json!({ "inputTokens": 2_500, "outputTokens": 2_100 }));
    nodes[3] = assistant_with_usage("A2", "U2", &"word ".repeat(2_000), json!({ "inputTokens": 3, "outputTokens": 2_100 }));
    let e = estimate(&session(nodes, "A2"), &m, &EstimateRequest::default()).unwrap();
    assert_eq!((e.source, e.baseline_message_id.as_deref(), e.baseline_tokens), (Source::Usage, Some("A1"), 4_600));
}

#[test]
fn breakpoints_summary_previous_request_and_newest() {
    let m = model(200_000, None);
    let text = "word ".repeat(900);
    let nodes = vec![
        user("U1", None, &text),
        assistant("A1", "U1", &text),
        user("U2", Some("A1"), &text),
        assistant("A2", "U2", &text),
        checkpoint("C1", "A2", Some("U2"), None, &"summary ".repeat(1_500)),
        user("U3", Some("C1"), &text),
        assistant_with_usage("A3", "U3", &text, json!({ "inputTokens": 4_000, "outputTokens": 900 })),
        user("U4", Some("A3"), &text),
        assistant("A4", "U4", &text),
    ];
    let s = session(nodes, "A4");
    // Projection: [summary, U2, A2, U3, A3, U4, A4]; the draft would be index 7.
    let marks = cache_breakpoints(&s, &m, &request(json!({ "draft": { "id": "U5", "parts": [{ "type": "text", "text": "next?" }] } })), Some("U5".into()), &CacheOptions::default()).unwrap();
    let got: Vec<(usize, Option<&str>, &str)> = marks.iter().map(|b| (b.index, b.message_id.as_deref(), b.reason.as_str())).collect();
    assert_eq!(got, vec![(0, Some("C1"), "summary"), (3, Some("U3"), "previous-request"), (7, Some("U5"), "newest")]);
    assert!(marks.windows(2).all(|w| w[0].prefix_tokens < w[1].prefix_tokens));
    // Without a draft the newest message is the leaf.
    let marks = cache_breakpoints(&s, &m, &EstimateRequest::default(), None, &CacheOptions::default()).unwrap();
    assert_eq!(marks.iter().map(|b| b.index).collect::<Vec<_>>(), vec![0, 3, 6]);
    // The limit keeps the newest first; an implicit cache (0) gets none.
    let two = CacheOptions { profile: Some(CacheProfile { max_breakpoints: 2, ..default_profile("anthropic-5m").unwrap() }), now: None };
    let marks = cache_breakpoints(&s, &m, &EstimateRequest::default(), None, &two).unwrap();
    assert_eq!(marks.iter().map(|b| b.reason.as_str()).collect::<Vec<_>>(), vec!["previous-request", "newest"]);
    let openai = CacheOptions { profile: default_profile("openai"), now: None };
    assert!(cache_breakpoints(&s, &m, &EstimateRequest::default(), None, &openai).unwrap().is_empty());
}

#[test]
fn breakpoints_none_under_the_minimum_prefix() {
    let m = model(200_000, None);
    let (nodes, leaf) = linear(2, 20);
    let s = session(nodes, &leaf);
    assert!(cache_breakpoints(&s, &m, &EstimateRequest::default(), None, &CacheOptions::default()).unwrap().is_empty());
    // 4,096 for Claude Opus: a prefix of 1,500 tokens is marked only under a lower minimum.
    let (nodes, leaf) = linear(2, 400);
    let s = session(nodes, &leaf);
    let low = CacheOptions { profile: Some(CacheProfile { min_prefix_tokens: 500, ..default_profile("anthropic-5m").unwrap() }), now: None };
    let high = CacheOptions { profile: Some(CacheProfile { min_prefix_tokens: 4_096, ..default_profile("anthropic-5m").unwrap() }), now: None };
    let marks = cache_breakpoints(&s, &m, &EstimateRequest::default(), None, &low).unwrap();
    assert_eq!(marks.len(), 1);
    assert!(marks[0].prefix_tokens >= 500);
    assert!(cache_breakpoints(&s, &m, &EstimateRequest::default(), None, &high).unwrap().is_empty());
}

#[test]
fn projection_is_byte_identical_across_a_checkpoints_life() {
    // No timestamp or nonce in what is projected: the summary message, its ledger lines and their order
    // are the same text on every call and after every later turn.
    let ledger = json!({ "entries": [
        { "kind": "item", "key": "ABCD1234", "label": "Protein digestibility in dogs" },
        { "kind": "attachment", "key": "EFGH5678", "parentKey": "ABCD1234", "detail": "application/pdf" },
        { "kind": "location", "key": "EFGH5678#page=4", "detail": "4" },
    ] });
    let mut cp = checkpoint("C1", "A2", Some("U2"), None, &format!("{} The user reviews canine nutrition (ABCD1234, EFGH5678, page 4).", "Goal and findings so far. ".repeat(60)));
    cp["checkpoint"]["ledger"] = ledger;
    let (mut nodes, _) = linear(2, 30);
    nodes.push(cp);
    let first = session(nodes.clone(), "C1");
    let summary_of = |s: &Session| project(s).unwrap().to_json(s)["messages"][0].to_string();
    let reference = summary_of(&first);
    assert_eq!(summary_of(&first), reference);
    assert!(reference.contains("ABCD1234") && reference.contains("EFGH5678#page=4"));
    let mut parent = "C1".to_string();
    for turn in 3..8 {
        let (u, a) = (format!("U{turn}"), format!("A{turn}"));
        nodes.push(timed(user(&u, Some(&parent), "more, please"), T0 + turn as u64 * MINUTE));
        nodes.push(timed(assistant(&a, &u, "here"), T0 + turn as u64 * MINUTE + 1));
        parent = a;
        let s = session(nodes.clone(), &parent);
        assert_eq!(summary_of(&s), reference, "turn {turn}");
    }
}

/// A session whose projection is between 3/4 and 9/10 of `autoCompactAt` on `m`, answered at T0.
fn three_quarters(m: &ModelProfile) -> Session {
    let at = capacity(m).unwrap().auto_compact_at;
    for words in (500..6_000).step_by(250) {
        let (nodes, leaf) = linear(6, words);
        let tokens = estimate(&session(nodes.clone(), &leaf), m, &EstimateRequest::default()).unwrap().tokens;
        if tokens * 100 >= at * 80 && tokens * 100 < at * 90 {
            let (nodes, leaf) = answered(6, words, json!({
                "inputTokens": tokens, "outputTokens": 10,
                "inputTokenDetails": { "noCacheTokens": 100, "cacheReadTokens": tokens - 100, "cacheWriteTokens": 0 }
            }));
            return session(nodes, &leaf);
        }
    }
    panic!("no session size in range");
}

#[test]
fn cache_state_warm_cold_unknown() {
    let m = model(64_000, None);
    let s = three_quarters(&m);
    let anthropic = default_profile("anthropic-5m");
    let warm = planned(&s, &m, Mode::Auto, anthropic.clone(), Some(T0 + 4 * MINUTE)).cache.unwrap();
    assert_eq!((warm.state, warm.idle_ms, warm.baseline_message_id.as_deref()), (CacheState::Warm, Some(4 * MINUTE), Some("A6")));
    assert!(warm.cached_prefix_tokens > 0);
    let cold = planned(&s, &m, Mode::Auto, anthropic.clone(), Some(T0 + 6 * MINUTE)).cache.unwrap();
    assert_eq!(cold.state, CacheState::Cold);
    // The 1-hour cache is still warm after 6 minutes; no time, no state.
    let hour = planned(&s, &m, Mode::Auto, default_profile("anthropic-1h"), Some(T0 + 6 * MINUTE)).cache.unwrap();
    assert_eq!(hour.state, CacheState::Warm);
    assert_eq!(planned(&s, &m, Mode::Auto, anthropic, None).cache.unwrap().state, CacheState::Unknown);
    // Without a profile the plan is today's: no cache field.
    assert_eq!(planned(&s, &m, Mode::Auto, None, Some(T0 + 6 * MINUTE)).cache, None);
}

#[test]
fn cache_cold_share_compacts_before_the_threshold() {
    let m = model(64_000, None);
    let s = three_quarters(&m);
    let anthropic = default_profile("anthropic-5m");
    let warm = planned(&s, &m, Mode::Auto, anthropic.clone(), Some(T0 + 4 * MINUTE));
    assert_eq!((warm.action, warm.reason.as_str()), (PlanAction::None, "under-threshold"));
    let cold = planned(&s, &m, Mode::Auto, anthropic.clone(), Some(T0 + 6 * MINUTE));
    assert_eq!((cold.action, cold.reason.as_str()), (PlanAction::Compact, "cache-cold"));
    assert!(cold.tokens_after_estimate < cold.tokens_before);
    // The same plan as today's threshold would make, but earlier: boundary and folded messages.
    let today = planned(&s, &model(48_000, None), Mode::Manual, None, None);
    assert!(!today.summarize_ids.is_empty());
    let cost = cold.cost.unwrap();
    assert_eq!((cost.tokens_before, cost.tokens_after, cost.cached_prefix_invalidated), (cold.tokens_before, cold.tokens_after_estimate, 0));
    assert!(cost.next_request_with.unwrap() < cost.next_request_without.unwrap());
    // Preflight never waits for the cache: a draft that fits is sent now, cold or not.
    let preflight = planned(&s, &m, Mode::Preflight, anthropic, Some(T0 + 6 * MINUTE));
    assert_eq!(preflight.reason, "fits");
}

#[test]
fn cache_cold_share_not_below_three_quarters() {
    let m = model(64_000, None);
    let at = capacity(&m).unwrap().auto_compact_at;
    let (nodes, leaf) = answered(2, 200, json!({ "inputTokens": at / 2, "outputTokens": 10 }));
    let s = session(nodes, &leaf);
    let p = planned(&s, &m, Mode::Auto, default_profile("anthropic-5m"), Some(T0 + 60 * MINUTE));
    assert_eq!((p.reason.as_str(), p.cache.unwrap().state), ("under-threshold", CacheState::Cold));
}

#[test]
fn cost_of_a_warm_compaction_names_the_invalidated_prefix() {
    let m = model(64_000, None);
    let s = three_quarters(&m);
    let p = planned(&s, &m, Mode::Manual, default_profile("anthropic-5m"), Some(T0 + MINUTE));
    assert_eq!(p.action, PlanAction::Compact);
    let cost = p.cost.unwrap();
    assert_eq!(cost.cached_prefix_invalidated, p.cache.unwrap().cached_prefix_tokens);
    assert!(cost.summary_request.unwrap() > 0.0);
    // Without a profile there is no cost and no cache report.
    let plain = planned(&s, &m, Mode::Manual, None, Some(T0 + MINUTE));
    assert_eq!((plain.cost, plain.cache), (None, None));
}

#[test]
fn cache_profile_is_validated() {
    for bad in [
        json!({ "lifetimeMs": 1000 }),
        json!({ "inputPrice": -1, "lifetimeMs": 1000 }),
        json!({ "inputPrice": 1, "lifetimeMs": 0 }),
        json!({ "inputPrice": 1, "lifetimeMs": 1000, "minPrefixTokens": 1.5 }),
        json!({ "inputPrice": 1, "lifetimeMs": 1000, "cacheReadPrice": "cheap" }),
        json!("anthropic"),
    ] {
        let err = CacheProfile::from_value(&bad).unwrap_err();
        assert_eq!(err.code.as_str(), "invalid-options", "{bad}");
    }
    let p = CacheProfile::from_value(&json!({ "inputPrice": 2, "lifetimeMs": 300000 })).unwrap();
    assert_eq!((p.cache_write_price, p.cache_read_price, p.min_prefix_tokens, p.max_breakpoints), (2.0, 2.0, 1_024, 4));
    let err = CacheOptions::from_value(Some(&json!({ "now": -5 }))).unwrap_err();
    assert_eq!(err.code.as_str(), "invalid-options");
}
