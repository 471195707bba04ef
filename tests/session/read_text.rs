//! The fast read of nodes from JSON text (`node_text`) against the `Value` path that owns the rules:
//! for every node below, both give the same session, valid or not. The nodes are a well-formed node
//! of every kind with each field, at every depth, deleted or replaced by a value of each JSON type,
//! plus texts only JSON can spell (duplicate keys, arrays where objects belong, escapes, deep nesting).

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::error::ErrorCode;
use bibgenie_compaction::estimate::{estimate_one_message, MessageText};
use bibgenie_compaction::session::{Node, NodeKind, Session};
use serde_json::{json, Value};

fn from_text_and_value(text: &str) -> (Result<Session, ErrorCode>, Result<Session, ErrorCode>) {
    let fast = Session::from_json_str(text).map_err(|e| e.code);
    // The `Value` rules, each node keeping its text (numbers as written, as the fast read keeps them).
    let slow = Session::from_value_text(text).map_err(|e| e.code);
    (fast, slow)
}

fn assert_agree(text: &str) {
    match from_text_and_value(text) {
        (Ok(fast), Ok(slow)) => common::assert_same_session(&fast, &slow),
        (Err(fast), Err(slow)) => assert_eq!(fast, slow, "{text}"),
        (fast, slow) => panic!("the two reads disagree on {text}: {:?} vs {:?}", fast.map(|_| ()), slow.map(|_| ())),
    }
}

fn session_text(nodes: &[Value]) -> String {
    json!({ "nodes": nodes, "leafId": "n", "branchRevision": 3 }).to_string()
}

/// One node of every kind, each with every field its kind reads.
fn nodes() -> Vec<Value> {
    vec![
        json!({ "id": "n", "parentId": "p", "createdAt": 1_700_000_000_000u64, "role": "assistant", "metadata": { "usage": { "inputTokens": 10 } },
            "parts": [
                { "type": "step-start" },
                { "type": "text", "text": "Smith 2021, p. 4", "state": "done" },
                { "type": "reasoning", "text": "think" },
                { "type": "file", "mediaType": "image/png", "url": "data:image/png;base64,AAAA", "filename": "f.png" },
                { "type": "source-url", "sourceId": "s1", "url": "https://doi.org/10.1/x", "title": "T" },
                { "type": "source-document", "sourceId": "s2", "mediaType": "application/pdf", "title": "P", "filename": "p.pdf" },
                { "type": "tool-zoteroSearch", "toolCallId": "c1", "state": "output-available", "input": { "q": "x" },
                  "output": [{ "key": "ABCD2345" }], "errorText": null },
                { "type": "dynamic-tool", "toolName": "mcp", "toolCallId": "c2", "state": "approval-responded", "input": {},
                  "approval": { "id": "ap1", "approved": false, "reason": "no" } },
                { "type": "data-zoteroItem", "id": "d1", "data": { "key": "EFGH6789" } }
            ] }),
        json!({ "id": "n", "parentId": "p", "checkpoint": {
            "summary": "## Research Goal\nx", "firstKeptMessageId": "u2", "previousCheckpointId": null, "mode": "auto",
            "tokensBefore": 1000, "tokensAfter": 200, "ledger": { "entries": [] }, "basis": { "leafId": "p", "branchRevision": 2 } } }),
        json!({ "id": "n", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "hi" }] }),
    ]
}

const REPLACEMENTS: [&str; 14] = [
    "null", "0", "-1.5", "\"\"", "\"n\"", "\"x\"", "\"system\"", "\"tool-x\"", "true", "[]", "{}", "[\"a\", 1]", "{\"id\": \"q\"}",
    "[\"q\", true, \"r\"]",
];

/// Every path to a value inside `value` (object keys and array indices).
fn paths(value: &Value, prefix: Vec<Value>, out: &mut Vec<Vec<Value>>) {
    match value {
        Value::Object(map) => map.iter().for_each(|(k, v)| {
            let mut path = prefix.clone();
            path.push(json!(k));
            out.push(path.clone());
            paths(v, path, out);
        }),
        Value::Array(items) => items.iter().enumerate().for_each(|(i, v)| {
            let mut path = prefix.clone();
            path.push(json!(i));
            out.push(path.clone());
            paths(v, path, out);
        }),
        _ => {}
    }
}

/// `node` with the value at `path` replaced (`Some`) or removed (`None`).
fn mutated(node: &Value, path: &[Value], replacement: Option<Value>) -> Value {
    let mut node = node.clone();
    let (last, parents) = path.split_last().expect("paths are not empty");
    let mut at = &mut node;
    for step in parents {
        at = match step {
            Value::String(k) => &mut at[k.as_str()],
            _ => &mut at[step.as_u64().unwrap_or(0) as usize],
        };
    }
    match (at, last, replacement) {
        (Value::Object(map), Value::String(k), Some(v)) => drop(map.insert(k.clone(), v)),
        (Value::Object(map), Value::String(k), None) => drop(map.remove(k)),
        (Value::Array(items), i, Some(v)) => items[i.as_u64().unwrap_or(0) as usize] = v,
        (Value::Array(items), i, None) => drop(items.remove(i.as_u64().unwrap_or(0) as usize)),
        _ => {}
    }
    node
}

#[test]
fn every_field_replaced_or_removed_reads_the_same_both_ways() {
    let mut cases = 0;
    let mut invalid = 0;
    for node in nodes() {
        let mut all = Vec::new();
        paths(&node, Vec::new(), &mut all);
        for path in &all {
            let mut variants: Vec<Value> = REPLACEMENTS.iter().map(|r| mutated(&node, path, Some(serde_json::from_str(r).unwrap()))).collect();
            variants.push(mutated(&node, path, None));
            for variant in variants {
                // A node appended on its own (`SessionIndex.append`) reads the same both ways too.
                match (Node::parse_strict_text(&variant.to_string()), Node::parse_strict(variant.clone())) {
                    (Ok(a), Ok(b)) => assert_eq!(format!("{:?}", (&a.id, &a.kind, &a.raw)), format!("{:?}", (&b.id, &b.kind, &b.raw))),
                    (Err(a), Err(b)) => assert_eq!((a.code, a.message), (b.code, b.message)),
                    (a, b) => panic!("append reads disagree on {variant}: {:?} vs {:?}", a.map(|_| ()), b.map(|_| ())),
                }
                // `estimateMessage` reads the text too: the same tokens, or the same error, as the tree.
                let fast = MessageText::read(&variant.to_string()).and_then(|m| m.estimate(None));
                let slow = estimate_one_message(&variant, None);
                match (fast, slow) {
                    (Ok(a), Ok(b)) => assert_eq!(a, b, "{variant}"),
                    (Err(a), Err(b)) => assert_eq!((a.code, a.message), (b.code, b.message)),
                    (a, b) => panic!("estimateMessage reads disagree on {variant}: {a:?} vs {b:?}"),
                }
                let text = session_text(&[json!({ "id": "p", "role": "user", "parts": [] }), variant]);
                assert_agree(&text);
                let session = Session::from_json_str(&text).unwrap();
                invalid += usize::from(matches!(session.nodes[1].kind, NodeKind::Invalid(_)));
                cases += 1;
            }
        }
    }
    // The mutations reach both outcomes often, so the agreement above is not about valid nodes only.
    assert!(cases > 1_000, "{cases} cases");
    assert!(invalid > 200 && invalid < cases - 200, "{invalid} invalid of {cases}");
}

#[test]
fn texts_only_json_can_spell_read_the_same_both_ways() {
    let node = r#"{"id":"n","role":"user","parts":[{"type":"text","text":"a"}]}"#;
    let texts = [
        // Duplicate keys: the last one wins in a JSON object.
        r#"{"id":"n","id":"m","role":"user","parts":[]}"#.to_string(),
        r#"{"id":"n","role":"user","role":"bogus","parts":[]}"#.to_string(),
        r#"{"id":"n","role":"user","parts":[{"type":"text","text":"a","text":"b"}]}"#.to_string(),
        r#"{"id":"n","role":"user","parts":[],"x":1,"x":2}"#.to_string(),
        // Arrays where objects belong, one element per field: a derived struct would read them by position.
        r#"["n",null,null,"user",[],null,null]"#.to_string(),
        format!(r#"{{"id":"n","role":"user","parts":[["text","a"{}]]}}"#, ",null".repeat(16)),
        r#"{"id":"n","role":"assistant","parts":[{"type":"dynamic-tool","toolName":"t","toolCallId":"c","state":"approval-requested","approval":["a1",true,"r"]}]}"#.to_string(),
        r#"{"id":"n","parentId":"p","checkpoint":["s",null,null,"auto",1,1,{"entries":[]},{"leafId":"p","branchRevision":1}]}"#.to_string(),
        // Escapes, lone surrogates, odd numbers and whitespace.
        r#"{"\u0069d":"n","role":"\u0075ser","parts":[{"type":"text","text":"x\ud800y\n\u00e9"}]}"#.to_string(),
        // Escapes in what the typed reader borrows (part type and tool state) and in field names.
        r#"{"id":"n","role":"assistant","parts":[{"type":"tool-\u0078","toolCallId":"c","state":"output-\u0061vailable","output":1},{"t\u0079pe":"t\u0065xt","text":"a","st\u0061te":"d\u006fne"}]}"#.to_string(),
        r#"{"id":"n","role":"user","p\u0061rts":[{"type":"text","text":"a"}],"p\u0061rentId":null}"#.to_string(),
        r#" { "id" : "n" , "createdAt" : 1e3 , "role" : "user" , "parts" : [ ] } "#.to_string(),
        r#"{"id":"n","createdAt":-0.0,"role":"user","parts":[]}"#.to_string(),
        r#"{"id":"n","createdAt":1e400,"role":"user","parts":[]}"#.to_string(),
        // Found by the session_json fuzz target: a number with more digits than a double holds. serde_json
        // (without `float_roundtrip`, for size) parses it to a double that, re-serialized and parsed
        // again, is one unit off: so both reads keep each node's text, never a re-serialized value.
        format!(r#"{{"id":"n","role":"user","parts":[],"createdAt":1{}741597419000}}"#, "8".repeat(125)),
        r#"{"id":"n","role":"assistant","parts":[{"type":"tool-x","toolCallId":"c","state":"output-available","output":{"p":0.30000000000000004441,"q":1.7976931348623157e308}}]}"#.to_string(),
        format!(r#"{{"id":"n","role":"assistant","parts":[{{"type":"tool-x","toolCallId":"c","state":"output-available","input":[1{0}7e-200],"output":{{"n":1{0}741597419000}}}}]}}"#, "8".repeat(125)),
        // Nodes that are not objects.
        "null".to_string(), "7".to_string(), "\"n\"".to_string(),
        node.to_string(),
    ];
    for text in texts {
        assert_agree(&format!(r#"{{"nodes":[{text}],"leafId":"n","branchRevision":0}}"#));
    }
    // Session-level defects and deep nesting are errors both ways, with the same code.
    for text in [
        "[]".to_string(),
        "null".to_string(),
        format!(r#"{{"nodes":[{node}],"leafId":"","branchRevision":0}}"#),
        format!(r#"{{"nodes":[{node}],"leafId":"n","branchRevision":-1}}"#),
        format!(r#"{{"nodes":[{node}],"leafId":"n"}}"#),
        format!(r#"{{"nodes":{node},"leafId":"n","branchRevision":0}}"#),
        format!(r#"{{"nodes":[{node}],"leafId":"n","branchRevision":0,"branchRevision":1}}"#),
        format!(r#"{{"nodes":[{{"id":"n","role":"user","parts":[],"metadata":{}1{}}}],"leafId":"n","branchRevision":0}}"#, "[".repeat(200), "]".repeat(200)),
        format!(r#"{{"nodes":[{}{node}{}],"leafId":"n","branchRevision":0}}"#, "[".repeat(100_000), "]".repeat(100_000)),
    ] {
        assert_agree(&text);
    }
}

/// Parts the AI SDK (5, 6, 7) and its provider packages store in responses, as their streams make
/// them: each is read by one node's text alone (the store's held index takes nodes that way), the
/// same as the `Value` rules read it, and a part type no reader knows is kept whole.
fn provider_parts_node() -> Value {
    json!({ "id": "r1", "parentId": "u1", "role": "assistant", "metadata": { "finishReason": "stop" }, "parts": [
        { "type": "step-start" },
        { "type": "custom", "kind": "anthropic.message_start", "providerMetadata": { "anthropic": { "usage": { "input_tokens": 12 } } } },
        { "type": "reasoning", "text": "Weighing the sources.", "state": "done",
          "providerMetadata": { "anthropic": { "signature": "EqQBCkYIBxgCKkB" } } },
        { "type": "reasoning", "text": "", "providerMetadata": { "openai": { "itemId": "rs_1", "reasoningEncryptedContent": "gAAAAB" } } },
        { "type": "text", "text": "Weber 2020 (ABCD2345), p. 14.", "state": "done", "providerMetadata": { "openai": { "itemId": "msg_1" } } },
        { "type": "source-url", "sourceId": "src_1", "url": "https://doi.org/10.1000/x", "providerMetadata": { "google": {} } },
        { "type": "source-document", "sourceId": "src_2", "mediaType": "application/pdf", "title": "Weber 2020" },
        { "type": "file", "mediaType": "image/png", "url": "data:image/png;base64,AAAA", "providerMetadata": { "google": { "thoughtSignature": "x" } } },
        { "type": "data-zoteroItem", "id": "d1", "data": { "key": "EFGH6789" }, "transient": false },
        { "type": "dynamic-tool", "toolName": "web_search", "toolCallId": "srvtoolu_1", "state": "output-available",
          "input": { "query": "x" }, "output": [{ "url": "https://a.example" }], "providerExecuted": true,
          "callProviderMetadata": { "anthropic": {} } },
        { "type": "tool-zoteroSearch", "toolCallId": "c1", "state": "output-error", "input": { "q": "x" }, "errorText": "timeout",
          "callProviderMetadata": { "bedrock": {} } },
        { "type": "source", "sourceType": "url", "id": "s-old", "url": "https://b.example" }
    ] })
}

#[test]
fn every_part_a_provider_stores_is_read_from_the_node_text_alone() {
    let node = provider_parts_node();
    let text = node.to_string();
    let alone = Node::read_text(&text).expect("a node of provider parts is read from its text alone");
    let by_rules = Node::from_value(node.clone(), 0);
    assert_eq!(format!("{:?}", alone.kind), format!("{:?}", by_rules.kind));
    assert_eq!(alone.raw.to_value(), node);
    let NodeKind::Message(message) = &alone.kind else { panic!("not a message: {:?}", alone.kind) };
    let unknown: Vec<_> = message.parts.iter().filter_map(|p| match p {
        bibgenie_compaction::session::Part::Unknown { part_type, value } => Some((part_type.as_str(), value.clone())),
        _ => None,
    }).collect();
    assert_eq!(unknown.iter().map(|(t, _)| *t).collect::<Vec<_>>(), ["custom", "source"]);
    assert_eq!(unknown[0].1, node["parts"][1], "an unknown part is kept whole");
    assert_agree(&session_text(&[node]));
}

#[test]
fn a_node_the_rules_call_invalid_is_still_left_to_the_sessions_read() {
    for bad in [
        json!({ "id": "r1", "parentId": "u1", "role": "assistant", "parts": [{ "type": "text" }] }),
        json!({ "id": "r1", "role": "robot", "parts": [] }),
        json!({ "id": "r1", "role": "user", "content": "AI SDK 4" }),
    ] {
        assert!(Node::read_text(&bad.to_string()).is_none(), "{bad}");
    }
}

#[test]
fn a_replayed_reasonings_provider_metadata_is_priced_as_sent() {
    use bibgenie_compaction::estimate::ModelProfile;
    let signature = "EqQBCkYIBxgCKkB".repeat(60);
    let with = json!({ "role": "assistant", "parts": [{ "type": "reasoning", "text": "Weighing the sources.",
        "providerMetadata": { "anthropic": { "signature": signature } } }] });
    let without = json!({ "role": "assistant", "parts": [{ "type": "reasoning", "text": "Weighing the sources." }] });
    let replays = ModelProfile::from_value(&json!({ "contextWindow": 200000, "replaysReasoning": true })).unwrap();
    let drops = ModelProfile::from_value(&json!({ "contextWindow": 200000, "replaysReasoning": false })).unwrap();
    let tokens = |m: &Value, model: &ModelProfile| estimate_one_message(m, Some(model)).unwrap();
    assert!(tokens(&with, &replays) > tokens(&without, &replays) + 100, "the signature goes back with the text");
    assert_eq!(tokens(&with, &drops), tokens(&without, &drops), "nothing of it is sent when reasoning is not replayed");
    // The text reader and the Value rules agree.
    let fast = MessageText::read(&with.to_string()).and_then(|m| m.estimate(Some(&replays))).unwrap();
    assert_eq!(fast, tokens(&with, &replays));
}

/// A checkpoint reads as it was written, every field by its JSON name (the ledger's entries, the
/// registers, the provider's part); absent lists are empty, and a wrong field is the node's error.
#[test]
fn a_checkpoint_reads_back_from_its_json() {
    use bibgenie_compaction::session::Checkpoint;
    let full = json!({
        "summary": "## Research Goal\nx", "firstKeptMessageId": "U3", "previousCheckpointId": "C0", "mode": "auto",
        "tokensBefore": 9000, "tokensAfter": 3000,
        "ledger": { "entries": [
            { "kind": "item", "key": "ABCD2345", "label": "Smith 2020", "parentKey": "P2345678", "detail": "journalArticle", "libraryID": 1, "groupID": 7 },
            { "kind": "location", "key": "ABCD2345#p. 4" }
        ] },
        "basis": { "leafId": "A3", "branchRevision": 4 }, "ledgerBudget": 212,
        "userWords": [{ "id": "U1", "text": "only peer-reviewed" }], "userWordsBudget": 326,
        "citedPages": [{ "key": "ABCD2345", "locator": "p. 4", "text": "Smith (p. 4) says so.", "id": "A1" }],
        "citedPagesBudget": 163, "summaryBudget": 2000, "recallHandles": ["search call_1"],
        "providerPart": { "type": "data-compaction", "data": { "n": 1.25 } }
    });
    let checkpoint = Checkpoint::from_value(&full).expect("a full checkpoint");
    assert_eq!(serde_json::to_value(&checkpoint).unwrap(), full);
    let old = json!({ "summary": "s", "mode": "manual", "tokensBefore": 1, "tokensAfter": 1, "basis": { "leafId": "A", "branchRevision": 0 } });
    let read = Checkpoint::from_value(&old).expect("a checkpoint written before the registers");
    assert!(read.ledger.entries.is_empty() && read.user_words.is_empty() && read.recall_handles.is_empty() && read.provider_part.is_none());
    let mut bad = full.clone();
    bad["ledger"]["entries"][1]["kind"] = json!("page");
    let message = Checkpoint::from_value(&bad).unwrap_err();
    assert!(message.starts_with("unknown variant `page`, expected one of `item`"), "{message}");
    let mut null_list = full.clone();
    null_list["userWords"] = Value::Null;
    assert_eq!(Checkpoint::from_value(&null_list).unwrap_err(), "invalid type: null, expected a sequence");
    // In a session the same defect makes the node invalid, its message naming the checkpoint.
    let node = json!({ "id": "C1", "parentId": "A0", "checkpoint": null_list });
    let text = json!({ "nodes": [{ "id": "A0", "parentId": null, "role": "user", "parts": [] }, node], "leafId": "C1", "branchRevision": 0 }).to_string();
    assert_agree(&text);
    let session = Session::from_json_str(&text).expect("an invalid node is kept");
    match &session.nodes[1].kind {
        NodeKind::Invalid(message) => assert_eq!(message, "node C1: checkpoint: invalid type: null, expected a sequence"),
        other => panic!("{other:?}"),
    }
}
