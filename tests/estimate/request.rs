//! The session estimate, rule by rule (rules named in src/estimate/request.rs and src/estimate/usage.rs).

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::estimate::{capacity, estimate, estimate_one_message, EstimateRequest, Source};
use bibgenie_compaction::error::ErrorCode;
use bibgenie_compaction::session::Node;
use bibgenie_compaction::projection::summary_message;
use bibgenie_compaction::tokens::{estimate_json, estimate_text};
use common::*;
use serde_json::{json, Value};

fn request(options: Value) -> EstimateRequest {
    EstimateRequest::from_value(Some(&options)).expect("options parse")
}

fn usage(input: u64, output: u64) -> Value {
    json!({ "inputTokens": input, "outputTokens": output, "totalTokens": input + output })
}

fn summary_tokens(checkpoint_node: &Value, m: &bibgenie_compaction::estimate::ModelProfile) -> u64 {
    let node = Node::parse_strict(checkpoint_node.clone()).unwrap();
    message_tokens(&summary_message(&node.id, node.checkpoint().unwrap()), m)
}

#[test]
fn no_baseline_whole_projection() {
    let m = model(200_000, None);
    let (nodes, leaf) = linear(3, 20);
    let expected: u64 = nodes.iter().map(|n| message_tokens(n, &m)).sum();
    let e = estimate(&session(nodes, &leaf), &m, &EstimateRequest::default()).unwrap();
    assert_eq!(e.source, Source::Estimate);
    assert_eq!((e.tokens, e.estimated_tokens, e.baseline_tokens, e.baseline_message_id), (expected, expected, 0, None));
    assert_eq!(e.safe_input_limit, capacity(&m).unwrap().safe_input_limit);
    assert!(e.fits);
}

#[test]
fn no_baseline_counts_the_summary_and_the_kept_tail() {
    let m = model(200_000, None);
    let (mut nodes, _) = linear(3, 20);
    let c = checkpoint("C1", "A3", Some("U2"), None, "Research goal: X.");
    nodes.push(c.clone());
    nodes.push(user("U4", Some("C1"), "next question"));
    let tail: u64 = ["U2", "A2", "U3", "A3", "U4"]
        .iter()
        .map(|id| message_tokens(nodes.iter().find(|n| n["id"] == *id).unwrap(), &m))
        .sum();
    let e = estimate(&session(nodes, "U4"), &m, &EstimateRequest::default()).unwrap();
    assert_eq!(e.tokens, summary_tokens(&c, &m) + tail);
}

#[test]
fn increments_estimated() {
    let m = model(200_000, None);
    let mut nodes = vec![user("U1", None, "hello"), assistant_with_usage("A1", "U1", "hi", usage(1_000, 50))];
    nodes.push(user("U2", Some("A1"), "a longer follow-up question about Zotero items"));
    let increment = message_tokens(&nodes[2], &m);
    let e = estimate(&session(nodes, "U2"), &m, &request(json!({ "draft": "and a draft" }))).unwrap();
    let draft = message_tokens(&user("d", None, "and a draft"), &m);
    assert_eq!(e.source, Source::Usage);
    assert_eq!(e.baseline_message_id.as_deref(), Some("A1"));
    assert_eq!(e.baseline_tokens, 1_050);
    assert_eq!(e.estimated_tokens, increment + draft);
    assert_eq!(e.tokens, 1_050 + increment + draft);
}

#[test]
fn baseline_after_checkpoint() {
    // Usage before the newest checkpoint (even on a message of its kept tail) is ignored.
    let m = model(200_000, None);
    let mut nodes = vec![
        user("U1", None, "one"),
        assistant_with_usage("A1", "U1", "one", usage(50_000, 100)),
        user("U2", Some("A1"), "two"),
        assistant_with_usage("A2", "U2", "two", usage(60_000, 100)),
        checkpoint("C1", "A2", Some("U2"), None, "summary"),
        user("U3", Some("C1"), "three"),
    ];
    let e = estimate(&session(nodes.clone(), "U3"), &m, &EstimateRequest::default()).unwrap();
    assert_eq!(e.source, Source::Estimate);
    assert!(e.tokens < 10_000, "{e:?}");
    nodes.push(assistant_with_usage("A3", "U3", "three", usage(900, 30)));
    let e = estimate(&session(nodes, "A3"), &m, &EstimateRequest::default()).unwrap();
    assert_eq!((e.source, e.baseline_message_id.as_deref(), e.tokens), (Source::Usage, Some("A3"), 930));
}

#[test]
fn usage_valid() {
    // All-zero, NaN (null after JSON), negative and non-numeric usage is never a baseline; the newest
    // valid one before it is used instead.
    let m = model(200_000, None);
    for bad in [
        json!({ "inputTokens": 0, "outputTokens": 0, "totalTokens": 0 }),
        json!({ "inputTokens": null, "outputTokens": 10 }),
        json!({ "inputTokens": -100, "outputTokens": 10 }),
        json!({ "inputTokens": 100, "outputTokens": -1 }),
        json!({ "inputTokens": "100", "outputTokens": 10 }),
    ] {
        let nodes = vec![
            user("U1", None, "one"),
            assistant_with_usage("A1", "U1", "one", usage(700, 20)),
            user("U2", Some("A1"), "two"),
            assistant_with_usage("A2", "U2", "two", bad.clone()),
        ];
        let later = message_tokens(&nodes[2], &m) + message_tokens(&nodes[3], &m);
        let e = estimate(&session(nodes.clone(), "A2"), &m, &EstimateRequest::default()).unwrap();
        assert_eq!(e.baseline_message_id.as_deref(), Some("A1"), "{bad}");
        assert_eq!(e.tokens, 720 + later, "{bad}");
        let only_bad = vec![nodes[0].clone(), assistant_with_usage("A1", "U1", "one", bad.clone())];
        let e = estimate(&session(only_bad, "A1"), &m, &EstimateRequest::default()).unwrap();
        assert_eq!(e.source, Source::Estimate, "{bad}");
    }
}

#[test]
fn billing_totals_ignored() {
    let m = model(200_000, None);
    let a1 = json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [{ "type": "text", "text": "hi" }],
                     "metadata": { "totalUsage": { "inputTokens": 90_000, "outputTokens": 10, "totalTokens": 90_010 } } });
    let e = estimate(&session(vec![user("U1", None, "hello"), a1], "A1"), &m, &EstimateRequest::default()).unwrap();
    assert_eq!(e.source, Source::Estimate);
}

#[test]
fn v6_usage_shape() {
    let v6 = json!({
        "inputTokens": 5_000,
        "inputTokenDetails": { "noCacheTokens": 1_000, "cacheReadTokens": 4_000, "cacheWriteTokens": 0 },
        "outputTokens": 800,
        "outputTokenDetails": { "textTokens": 300, "reasoningTokens": 500 },
        "totalTokens": 5_800
    });
    let nodes = vec![user("U1", None, "q"), assistant_with_usage("A1", "U1", "a", v6)];
    let mut m = model(200_000, None);
    let e = estimate(&session(nodes.clone(), "A1"), &m, &EstimateRequest::default()).unwrap();
    assert_eq!((e.source, e.tokens), (Source::Usage, 5_300), "reasoning not replayed is not occupancy");
    m.replays_reasoning = true;
    let e = estimate(&session(nodes, "A1"), &m, &EstimateRequest::default()).unwrap();
    assert_eq!(e.tokens, 5_800);
}

#[test]
fn v5_usage_shape_with_reasoning() {
    let v5 = json!({ "inputTokens": 2_000, "outputTokens": 300, "totalTokens": 2_300, "reasoningTokens": 200, "cachedInputTokens": 1_500 });
    let nodes = vec![user("U1", None, "q"), assistant_with_usage("A1", "U1", "a", v5)];
    let e = estimate(&session(nodes, "A1"), &model(200_000, None), &EstimateRequest::default()).unwrap();
    assert_eq!(e.tokens, 2_100);
}

#[test]
fn overhead_only_on_estimates() {
    let m = model(200_000, None);
    let system = "You are a research assistant working inside Zotero.";
    let tools = json!({ "zoteroSearch": { "description": "Search the library", "inputSchema": { "type": "object" } } });
    let overhead = estimate_text(system) + estimate_json(&tools);
    let pure = vec![user("U1", None, "hello")];
    let plain = estimate(&session(pure.clone(), "U1"), &m, &EstimateRequest::default()).unwrap().tokens;
    let with = estimate(&session(pure.clone(), "U1"), &m, &request(json!({ "overhead": { "system": system, "tools": tools } }))).unwrap();
    assert_eq!(with.tokens, plain + overhead);
    let counted = estimate(&session(pure, "U1"), &m, &request(json!({ "overhead": { "tokens": 4_321 } }))).unwrap();
    assert_eq!(counted.tokens, plain + 4_321);
    // A provider baseline already includes it.
    let measured = vec![user("U1", None, "hello"), assistant_with_usage("A1", "U1", "hi", usage(3_000, 10))];
    let e = estimate(&session(measured, "A1"), &m, &request(json!({ "overhead": { "tokens": 4_321 } }))).unwrap();
    assert_eq!(e.tokens, 3_010);
}

#[test]
fn draft_as_text_or_message() {
    let m = model(200_000, None);
    let s = session(vec![user("U1", None, "hello")], "U1");
    let as_text = estimate(&s, &m, &request(json!({ "draft": "find papers on 文献 retrieval" }))).unwrap();
    let as_message = estimate(
        &s,
        &m,
        &request(json!({ "draft": { "role": "user", "parts": [{ "type": "text", "text": "find papers on 文献 retrieval" }] } })),
    )
    .unwrap();
    assert_eq!(as_text.tokens, as_message.tokens);
    assert!(as_text.tokens > estimate(&s, &m, &EstimateRequest::default()).unwrap().tokens);
    for bad in [json!({ "draft": 5 }), json!({ "overhead": { "tokens": -1 } }), json!("x")] {
        assert_eq!(EstimateRequest::from_value(Some(&bad)).unwrap_err().code, ErrorCode::InvalidOptions, "{bad}");
    }
    // A draft message the rules refuse is the stores' `invalid-node` (one code for one mistake, issue 43.5).
    for bad in [json!({ "draft": { "role": "user", "parts": "x" } }), json!({ "draft": { "role": "user", "parts": [{ "type": "text" }] } })] {
        assert_eq!(EstimateRequest::from_value(Some(&bad)).unwrap_err().code, ErrorCode::InvalidNode, "{bad}");
    }
}

#[test]
fn fits_against_the_safe_limit() {
    let m = model(4_096, None);
    let s = session(vec![user("U1", None, &"word ".repeat(10_000))], "U1");
    let e = estimate(&s, &m, &EstimateRequest::default()).unwrap();
    assert!(!e.fits && e.tokens > e.safe_input_limit);
}

#[test]
fn read_only_session_is_an_error() {
    let s = session(vec![user("U1", None, "a"), assistant("A1", "missing", "b")], "A1");
    assert_eq!(estimate(&s, &model(8_192, None), &EstimateRequest::default()).unwrap_err().code, ErrorCode::MissingParent);
}

#[test]
fn estimate_message_export() {
    let m = model(8_192, None);
    let node = user("U1", None, "hello world");
    assert_eq!(estimate_one_message(&node, Some(&m)).unwrap(), message_tokens(&node, &m));
    assert_eq!(estimate_one_message(&json!({ "role": "user" }), None).unwrap_err().code, ErrorCode::InvalidMessage);
    assert_eq!(estimate_one_message(&node, Some(&model(10, None))).unwrap_err().code, ErrorCode::InvalidModel);
}

/// A small deterministic generator (xorshift), so the sequence below is the same on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// The summary frame computed from scratch: the newest checkpoint's ledger merged with every projected
/// message's entries (what `summary_frame_tokens` computed before it was incremental).
fn frame_from_scratch(s: &bibgenie_compaction::session::Session, m: &bibgenie_compaction::estimate::ModelProfile) -> u64 {
    use bibgenie_compaction::ledger::{collect, merge};
    use bibgenie_compaction::zotero::ResourceLedger;
    use bibgenie_compaction::projection::{project, Projected};
    let projection = project(s).unwrap();
    let carried = projection.checkpoint.and_then(|i| s.nodes[i].checkpoint()).map(|c| c.ledger.clone()).unwrap_or_default();
    let messages = projection.items.iter().filter_map(|item| match *item {
        Projected::Message(i) => s.nodes[i].message(),
        Projected::Summary(_) => None,
    });
    let ledger: ResourceLedger = merge(&carried, &collect(messages));
    bibgenie_compaction::estimate::frame_tokens(ledger, &m.estimate_options())
}

#[test]
fn summary_frame_cached_matches_from_scratch() {
    // Appends, checkpoints (carrying a ledger, keeping a tail) and edits in a seeded random order; after
    // every step the index's incremental frame equals the frame computed from scratch. Labels repeat keys
    // with new text, end in whitespace (the rendered ledger's end is trimmed) and mix scripts.
    use bibgenie_compaction::session_index::SessionIndex;
    let m = model(200_000, None);
    let labels = ["Membrane study", "Étude des membranes", "膜的研究 ", "Trailing spaces   ", "Ideographic space\u{3000}", "Emoji 🧪 tail\t", "x"];
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut index = SessionIndex::from_session(session(vec![user("U0", None, "find membrane papers")], "U0"));
    let mut leaf = "U0".to_string();
    let mut revision = 0;
    let mut checkpoints = 0;
    for step in 1..=300 {
        let id = format!("N{step}");
        let kind = rng.below(20);
        // Messages of the branch after its newest checkpoint (where a new checkpoint may keep from).
        let s = index.session();
        let branch = &index.branch().nodes;
        let after = branch.iter().rposition(|&i| s.nodes[i].checkpoint().is_some()).map_or(0, |p| p + 1);
        let message_ids: Vec<String> = branch[after..].iter().map(|&i| s.nodes[i].id.clone()).collect();
        let node = if kind < 10 {
            let items: Vec<Value> = (0..rng.below(6))
                .map(|_| {
                    let k = rng.below(40);
                    let label = labels[rng.below(labels.len() as u64) as usize];
                    if k % 3 == 0 {
                        json!({ "key": format!("ATT{k:05}"), "itemType": "attachment", "parentItem": format!("ITEM{:04}", k / 3), "title": format!("{label} {}", rng.below(3)), "contentType": "application/pdf" })
                    } else {
                        json!({ "key": format!("ITEM{k:04}"), "itemType": "journalArticle", "title": format!("{label} {}", rng.below(3)) })
                    }
                })
                .collect();
            assistant_tool(&id, &leaf, "zoteroSearch", "output-available", json!({ "q": "membranes" }), Some(json!(items)))
        } else if kind < 17 {
            user(&id, Some(&leaf), &format!("question {step}"))
        } else if kind < 19 && message_ids.len() > 2 {
            // A checkpoint keeping a random earlier message of the branch, carrying the current ledger.
            checkpoints += 1;
            let kept = &message_ids[rng.below(message_ids.len() as u64) as usize];
            let mut node = checkpoint(&id, &leaf, Some(kept), None, "summary");
            node["checkpoint"]["ledger"]["entries"] = json!([
                { "kind": "item", "key": format!("OLD{}", rng.below(5)), "label": labels[rng.below(labels.len() as u64) as usize] },
                { "kind": "tag", "key": "membranes" }
            ]);
            node
        } else {
            // An edit: a sibling of the leaf (the branch is re-read).
            let parent = index.session().nodes.iter().find(|n| n.id == leaf).and_then(|n| n.parent_id.clone()).unwrap_or(leaf.clone());
            user(&id, Some(&parent), "edited question")
        };
        index.append(node).unwrap();
        revision += 1;
        index.set_leaf(&id, revision).unwrap();
        leaf = id;
        index.estimate(&m, &EstimateRequest::default()).unwrap();
        let cached = index.branch_tokens().summary_frame_tokens(index.session(), &m.estimate_options());
        assert_eq!(cached, frame_from_scratch(index.session(), &m), "step {step}");
    }
    assert!(checkpoints >= 5, "the sequence checkpoints several times ({checkpoints})");
}

/// Rule `ledger-projection-budget`: a plan counts the summary frame at most at its bound, so it reads
/// a span's tool outputs only until the merged ledger passes the bound (a cold plan read every tool
/// output of a long research session for a figure it then capped), and the index's plan, which may
/// have merged more, is the stateless plan.
#[test]
fn a_plan_reads_the_ledger_only_until_it_passes_the_bound() {
    use bibgenie_compaction::plan::{plan, PlanOptions};
    use bibgenie_compaction::session_index::SessionIndex;
    let m = model(200_000, None);
    let (mut nodes, leaf) = search_results(200);
    nodes.push(user("U1", Some(&leaf), "which ones used ozone?"));
    let s = session(nodes, "U1");
    let options = PlanOptions::from_value(&json!({ "mode": "manual" })).unwrap();
    let stateless = plan(&s, &m, &options).unwrap();
    assert_eq!(stateless.action, bibgenie_compaction::plan::PlanAction::Compact, "{stateless:?}");
    let mut index = SessionIndex::from_session(s.clone());
    assert_eq!(index.plan(&m, &options).unwrap(), stateless);
    let (read, _) = index.branch_tokens().ledger_work();
    assert!(read < 40, "the ledger passes the bound within a few messages of 200, read {read}");
    // The index that merged the whole span first (an estimate's frame) plans the same.
    let mut warmed = SessionIndex::from_session(s);
    warmed.estimate(&m, &EstimateRequest::default()).unwrap();
    warmed.branch_tokens().summary_frame_tokens(warmed.session(), &m.estimate_options());
    assert_eq!(warmed.plan(&m, &options).unwrap(), stateless);
    assert_eq!(warmed.branch_tokens().ledger_work().0, 202, "every message read");
}

/// A later entry can shorten a merged ledger line (a short label after a long title), so the frame of
/// the whole span can be under what it was part way: a plan counts the largest (an upper bound of any
/// boundary's ledger), the same whichever part the index merged before.
#[test]
fn a_plan_counts_the_largest_frame_along_the_span() {
    use bibgenie_compaction::plan::{plan, PlanOptions};
    use bibgenie_compaction::session_index::SessionIndex;
    let m = model(200_000, None);
    let items = |title: &dyn Fn(usize) -> String| -> Value {
        json!((0..12).map(|i| json!({ "key": format!("ITEM{i:04}"), "itemType": "journalArticle", "title": title(i) })).collect::<Vec<_>>())
    };
    let long = |i: usize| format!("A long and winding title about membrane fouling, number {i}, with its subtitle");
    let short = |_: usize| "x".to_string();
    let nodes = vec![
        user("U0", None, "find the membrane papers"),
        assistant_tool("A1", "U0", "zoteroSearch", "output-available", json!({ "q": "membranes" }), Some(items(&long))),
        user("U1", Some("A1"), "relabel them"),
        assistant_tool("A2", "U1", "zoteroSearch", "output-available", json!({ "q": "membranes" }), Some(items(&short))),
        user("U2", Some("A2"), "go on"),
    ];
    let s = session(nodes.clone(), "U2");
    let peak = frame_from_scratch(&session(nodes[..2].to_vec(), "A1"), &m);
    let mut index = SessionIndex::from_session(s.clone());
    index.estimate(&m, &EstimateRequest::default()).unwrap();
    let last = index.branch_tokens().summary_frame_tokens(index.session(), &m.estimate_options());
    assert!(last < peak, "the short labels shorten the ledger: {last} < {peak}");
    assert_eq!(last, frame_from_scratch(&s, &m));
    assert_eq!(index.branch_tokens().summary_frame_peak(index.session(), u64::MAX), peak);
    let options = PlanOptions::from_value(&json!({ "mode": "manual" })).unwrap();
    let stateless = plan(&s, &m, &options).unwrap();
    assert_eq!(index.plan(&m, &options).unwrap(), stateless);
}

/// Rule `usage-covers-step` (issue 38): a tool loop cut after its third step keeps step 3's usage, whose
/// request did not hold step 3's tool output nor step 4; the estimate adds them on top of the usage.
#[test]
fn usage_covers_its_step_only() {
    let m = model(8_192, None);
    let page = |n: u32| format!("Page {n}: {}", "Fouling stayed low in the treated membranes. ".repeat(150));
    let tool = |n: u32| json!({ "type": "tool-readPage", "toolCallId": format!("call-{n}"), "state": "output-available", "input": { "page": n }, "output": page(n) });
    let parts = json!([{ "type": "step-start" }, tool(1), { "type": "step-start" }, tool(2), { "type": "step-start" }, tool(3),
                       { "type": "step-start" }, { "type": "text", "text": "The pages show" }]);
    let loop_node = |metadata: Value| json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": parts.clone(), "metadata": metadata });
    let u1 = user("U1", None, "read the pages");
    // Step 3's request held the question and steps 1-2 with their outputs (and step 3's call as output).
    let step3_request = json!({ "id": "r", "parentId": "U1", "role": "assistant", "parts": [{ "type": "step-start" }, tool(1), { "type": "step-start" }, tool(2),
        { "type": "step-start" }, { "type": "tool-readPage", "toolCallId": "call-3", "state": "input-available", "input": { "page": 3 } }] });
    let step3_input = message_tokens(&u1, &m) + message_tokens(&step3_request, &m);
    let usage = json!({ "inputTokens": step3_input, "outputTokens": 20 });
    let whole = message_tokens(&u1, &m) + message_tokens(&loop_node(json!({})), &m);
    for metadata in [json!({ "usage": usage, "usageStep": 3, "aborted": true }), json!({ "usage": usage, "aborted": true }), json!({ "usage": usage, "finishReason": "error" })] {
        let e = estimate(&session(vec![u1.clone(), loop_node(metadata.clone())], "A1"), &m, &EstimateRequest::default()).unwrap();
        assert_eq!(e.source, Source::Usage);
        assert!(e.tokens >= whole, "{metadata}: {} < {whole}", e.tokens);
        assert!(e.estimated_tokens > estimate_text(&page(3)), "{metadata}");
    }
    // A finished loop without a step record: the usage is read as the last step's (today's reading).
    let e = estimate(&session(vec![u1.clone(), loop_node(json!({ "usage": usage }))], "A1"), &m, &EstimateRequest::default()).unwrap();
    assert_eq!(e.estimated_tokens, 0);
}
