//! Builders for test sessions, shared by the integration tests.
#![allow(dead_code)]

use bibgenie_compaction::session::Session;
use serde_json::{json, Value};

pub fn user(id: &str, parent: Option<&str>, text: &str) -> Value {
    json!({ "id": id, "parentId": parent, "role": "user", "parts": [{ "type": "text", "text": text }] })
}

pub fn assistant(id: &str, parent: &str, text: &str) -> Value {
    json!({ "id": id, "parentId": parent, "role": "assistant", "parts": [{ "type": "text", "text": text }] })
}

pub fn assistant_with_usage(id: &str, parent: &str, text: &str, usage: Value) -> Value {
    json!({ "id": id, "parentId": parent, "role": "assistant",
            "parts": [{ "type": "text", "text": text }], "metadata": { "usage": usage } })
}

/// An assistant message with one tool part in `state`.
pub fn assistant_tool(id: &str, parent: &str, tool: &str, state: &str, input: Value, output: Option<Value>) -> Value {
    let mut part = json!({ "type": format!("tool-{tool}"), "toolCallId": format!("call-{id}"), "state": state, "input": input });
    if let Some(output) = output {
        part["output"] = output;
    }
    json!({ "id": id, "parentId": parent, "role": "assistant", "parts": [{ "type": "step-start" }, part] })
}

pub fn checkpoint(id: &str, parent: &str, first_kept: Option<&str>, previous: Option<&str>, summary: &str) -> Value {
    json!({ "id": id, "parentId": parent, "checkpoint": {
        "summary": summary, "firstKeptMessageId": first_kept, "previousCheckpointId": previous,
        "mode": "manual", "tokensBefore": 1000, "tokensAfter": 200,
        "ledger": { "entries": [] }, "basis": { "leafId": parent, "branchRevision": 0 } } })
}

pub fn session_value(nodes: Vec<Value>, leaf: &str, revision: u64) -> Value {
    json!({ "nodes": nodes, "leafId": leaf, "branchRevision": revision })
}

/// The session read from its JSON text, as the bindings read it; checked against the `Value` path.
pub fn session(nodes: Vec<Value>, leaf: &str) -> Session {
    let value = session_value(nodes, leaf, 0);
    let session = Session::from_json_str(&value.to_string()).expect("test session parses");
    assert_same_session(&session, &Session::from_value(value).expect("test session parses"));
    session
}

/// Two reads of one session agree on every node: id, parent, time, kind and the raw JSON.
pub fn assert_same_session(a: &Session, b: &Session) {
    assert_eq!((&a.leaf_id, a.branch_revision, a.nodes.len()), (&b.leaf_id, b.branch_revision, b.nodes.len()));
    for (x, y) in a.nodes.iter().zip(&b.nodes) {
        assert_eq!((&x.id, &x.parent_id, x.created_at), (&y.id, &y.parent_id, y.created_at));
        assert_eq!(format!("{:?}", x.kind), format!("{:?}", y.kind), "node {}", x.id);
        assert_eq!(x.raw.to_value(), y.raw.to_value(), "node {}", x.id);
    }
}

/// A linear conversation U1 A1 U2 A2 ... of `turns` turns; returns nodes and the leaf id.
pub fn linear(turns: usize, words_per_message: usize) -> (Vec<Value>, String) {
    let mut nodes = Vec::new();
    let mut parent: Option<String> = None;
    for t in 1..=turns {
        let u = format!("U{t}");
        let a = format!("A{t}");
        let text = "word ".repeat(words_per_message);
        nodes.push(user(&u, parent.as_deref(), &text));
        nodes.push(assistant(&a, &u, &text));
        parent = Some(a);
    }
    (nodes, parent.unwrap_or_default())
}

/// A research branch: a question, then `searches` tool messages in a row, each a `zoteroSearch` result
/// of five journal articles with keys and titles of their own; returns nodes and the leaf id.
pub fn search_results(searches: usize) -> (Vec<Value>, String) {
    let mut nodes = vec![user("U0", None, "find the membrane papers")];
    let mut leaf = "U0".to_string();
    for n in 0..searches {
        let items: Vec<Value> = (0..5)
            .map(|i| json!({ "key": format!("K{n:03}{i:04}"), "itemType": "journalArticle", "title": format!("Fouling of treated membranes in pilot plant {n}, arm {i}, over two winters") }))
            .collect();
        let id = format!("T{n}");
        nodes.push(assistant_tool(&id, &leaf, "zoteroSearch", "output-available", json!({ "q": "membranes" }), Some(json!(items))));
        leaf = id;
    }
    (nodes, leaf)
}

// ---- planning builders (capacity, estimate and plan tests) ----

use bibgenie_compaction::estimate::{estimate_message, EstimateOptions, ModelProfile};
use bibgenie_compaction::session::Node;
use bibgenie_compaction::plan::Plan;

pub fn model(context_window: u64, max_output_tokens: Option<u64>) -> ModelProfile {
    ModelProfile { id: None, context_window, max_output_tokens, replays_reasoning: false, image_tokens: None, auto_compact_ratio: None, tail_share: None }
}

/// The per-message estimate of a message node (what the session estimate adds up).
pub fn message_tokens(node: &Value, model: &ModelProfile) -> u64 {
    let node = Node::parse_strict(node.clone()).expect("test message parses");
    let opts = EstimateOptions { replays_reasoning: model.replays_reasoning, image_tokens: model.image_tokens };
    estimate_message(node.message().expect("a message node"), &opts)
}

/// An assistant message with a tool part awaiting approval (AI SDK v6 `approval-requested`).
pub fn assistant_awaiting_approval(id: &str, parent: &str) -> Value {
    json!({ "id": id, "parentId": parent, "role": "assistant", "parts": [
        { "type": "step-start" },
        { "type": "tool-deleteItems", "toolCallId": format!("call-{id}"), "state": "approval-requested",
          "input": { "keys": ["ABCD2345"] }, "approval": { "id": format!("approval-{id}") } }
    ] })
}

/// The checkpoint node a runner would commit for `plan` (parent = the plan's basis leaf).
pub fn checkpoint_from_plan(id: &str, plan: &Plan, summary: &str) -> Value {
    let plan_json = serde_json::to_value(plan).expect("plan serializes");
    json!({ "id": id, "parentId": plan.basis.leaf_id, "checkpoint": {
        "summary": summary,
        "firstKeptMessageId": plan.first_kept_message_id,
        "previousCheckpointId": plan.previous_checkpoint_id,
        "mode": plan_json["mode"],
        "tokensBefore": plan.tokens_before,
        "tokensAfter": plan.tokens_after_estimate,
        "ledger": { "entries": [] },
        "basis": plan_json["basis"],
        "ledgerBudget": plan.ledger_budget } })
}

/// Appends turns U{from}..U{to} (user + assistant, `words` words each) under `parent`; returns the new leaf.
pub fn push_turns(nodes: &mut Vec<Value>, parent: &str, from: usize, to: usize, words: usize) -> String {
    let mut parent = parent.to_string();
    for t in from..=to {
        let (u, a) = (format!("U{t}"), format!("A{t}"));
        nodes.push(user(&u, Some(&parent), &"word ".repeat(words)));
        nodes.push(assistant(&a, &u, &"answer ".repeat(words)));
        parent = a;
    }
    parent
}

/// The worked example's turns: U1 A1 U2 A2 U3 A3 (leaf A3).
pub fn three_turns() -> Vec<Value> {
    vec![
        user("U1", None, "find papers on transformers"),
        assistant("A1", "U1", "found three"),
        user("U2", Some("A1"), "summarize the second"),
        assistant("A2", "U2", "it argues ..."),
        user("U3", Some("A2"), "compare with BERT"),
        assistant("A3", "U3", "BERT differs ..."),
    ]
}

/// Standard base64 with padding (the tests build data URLs with it).
pub fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Every summary round of `plan` as the runner makes them (rule `fold-fits-the-summarizer`): each
/// round's request and its extractive summary, a round starting where the request before says
/// (`continues_at`), folded into the checkpoint built from it. The last is what the committed
/// checkpoint is built from.
pub fn summary_rounds(
    session: &Session,
    plan: &bibgenie_compaction::plan::Plan,
    model: &bibgenie_compaction::estimate::ModelProfile,
) -> Vec<(bibgenie_compaction::summarize::SummaryRequest, String)> {
    summary_rounds_with(session, plan, model, bibgenie_compaction::summarize::extractive_summary)
}

/// `summary_rounds` with another summarizer.
pub fn summary_rounds_with(
    session: &Session,
    plan: &bibgenie_compaction::plan::Plan,
    model: &bibgenie_compaction::estimate::ModelProfile,
    summarize: impl Fn(&bibgenie_compaction::summarize::SummaryRequest) -> String,
) -> Vec<(bibgenie_compaction::summarize::SummaryRequest, String)> {
    use bibgenie_compaction::summarize::{summary_request_resolved, Round};
    let branch = bibgenie_compaction::session::read_branch(session);
    let mut rounds = Vec::new();
    let mut round = Round::default();
    loop {
        let request = summary_request_resolved(session, &branch, plan, model, &Default::default(), &round).expect("a round's request");
        let summary = summarize(&request);
        let next = request.continues_at;
        let node = bibgenie_compaction::commit::checkpoint_node_for_request(plan, &summary, &request, "round").expect("a round's checkpoint");
        rounds.push((request, summary));
        let Some(from) = next else { return rounds };
        round = Round { from, previous: Some(bibgenie_compaction::session::Checkpoint::from_value(&node["checkpoint"]).expect("a checkpoint")) };
    }
}

/// The last round of `summary_rounds`: the request and summary the committed checkpoint is built from.
pub fn summarize_rounds(
    session: &Session,
    plan: &bibgenie_compaction::plan::Plan,
    model: &bibgenie_compaction::estimate::ModelProfile,
) -> (bibgenie_compaction::summarize::SummaryRequest, String) {
    summary_rounds(session, plan, model).pop().expect("at least one round")
}
