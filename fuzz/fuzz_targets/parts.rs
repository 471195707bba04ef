//! JSON bytes read as UIMessages or UIMessage parts -> serialize (two option sets) and estimateMessage.
//! An array of objects with `parts` is a message list; any other array is the parts of one message;
//! an object is one message.
#![no_main]

use bibgenie_compaction::estimate::{estimate_one_message, ModelProfile};
use bibgenie_compaction::ledger;
use bibgenie_compaction::session::{Node, NodeKind};
use bibgenie_compaction::summarize::{serialize_ui_messages, SerializeOptions};
use bibgenie_compaction::zotero;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};

fn estimate_all(message: &Value) {
    let reasoning_model = ModelProfile {
        id: None,
        context_window: 128_000,
        max_output_tokens: None,
        replays_reasoning: true,
        image_tokens: Some(258),
        auto_compact_ratio: None,
        tail_share: None,
    };
    let _ = estimate_one_message(message, None);
    let _ = estimate_one_message(message, Some(&reasoning_model));
}

fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<Value>(data) else { return };
    let messages: Vec<Value> = match &value {
        Value::Array(items) if items.iter().any(|m| m.get("parts").is_some()) => items.clone(),
        Value::Array(_) => vec![json!({ "id": "m1", "role": "assistant", "parts": value })],
        Value::Object(_) => vec![value.clone()],
        _ => return,
    };
    let list = Value::Array(messages.clone());
    let _ = serialize_ui_messages(&list, &SerializeOptions::default());
    let tight: SerializeOptions =
        SerializeOptions::from_value(&json!({ "maxToolResultChars": 7, "maxToolInputChars": 3 })).unwrap_or_default();
    let _ = serialize_ui_messages(&list, &tight);
    for message in &messages {
        estimate_all(message);
    }
    // The ledger and the Zotero renderer read the same parts when they are summarized.
    let nodes: Vec<Node> = messages.into_iter().enumerate().map(|(i, m)| Node::from_value(m, i)).collect();
    let read: Vec<_> = nodes.iter().filter_map(|n| match &n.kind {
        NodeKind::Message(m) => Some(m),
        _ => None,
    }).collect();
    let collected = ledger::collect(read.iter().copied());
    let _ = ledger::render(&ledger::merge(&collected, &collected));
    let _ = zotero::render(&value);
    let _ = zotero::compact(&value);
});
