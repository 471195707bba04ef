//! Builders for test sessions, shared by the integration tests.
#![allow(dead_code)]

use bibgenie_compaction::model::Session;
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

pub fn session(nodes: Vec<Value>, leaf: &str) -> Session {
    Session::from_value(session_value(nodes, leaf, 0)).expect("test session parses")
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
