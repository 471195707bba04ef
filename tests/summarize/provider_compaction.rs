//! Issue 39: a provider's own compaction (Anthropic's `compaction` block, OpenAI's encrypted item) is the
//! boundary of what is sent; the package neither sends its summary before it nor folds it as history.
//! Rules `provider-block-boundary` (projection, estimate, plan), `provider-block-is-previous-summary`
//! (summary request) and `encrypted-compaction-bound` (estimate).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::estimate::{estimate, EstimateRequest, ModelProfile};
use bibgenie_compaction::plan::{plan, PlanAction, PlanOptions};
use bibgenie_compaction::projection::{project, Projected};
use bibgenie_compaction::session::{Mode, Session};
use common::*;
use serde_json::{json, Value};

const PROVIDER_SUMMARY: &str = "<summary>The user studies transformer attention; finding: ABCD2345 p. 12.</summary>";

/// An assistant answer whose reply opens with Anthropic's compaction block, as the AI SDK stores it, with
/// the usage of the final iteration (what the provider holds after compacting).
fn answer_after_provider_compaction(id: &str, parent: &str, input_after: u64) -> Value {
    json!({ "id": id, "parentId": parent, "role": "assistant", "parts": [
        { "type": "step-start" },
        { "type": "text", "text": PROVIDER_SUMMARY, "state": "done",
          "providerMetadata": { "anthropic": { "type": "compaction" } } },
        { "type": "text", "text": "Continuing from the summary: the second paper agrees.", "state": "done" }
    ], "metadata": { "usage": { "inputTokens": input_after, "outputTokens": 40 } } })
}

/// OpenAI's encrypted compaction item, as AI SDK 7 stores it (a custom part).
fn answer_with_encrypted_item(id: &str, parent: &str, encrypted: &str) -> Value {
    json!({ "id": id, "parentId": parent, "role": "assistant", "parts": [
        { "type": "custom", "kind": "openai.compaction",
          "providerMetadata": { "openai": { "type": "compaction", "itemId": "cmp_1", "encryptedContent": encrypted } } },
        { "type": "text", "text": "Here is where we are.", "state": "done" }
    ] })
}

/// U1..U{turns} with long answers, the first one citing a Zotero key in a tool result.
fn long_history(turns: usize) -> (Vec<Value>, String) {
    let mut nodes = vec![user("U1", None, "find the attention papers"), assistant_tool(
        "A1",
        "U1",
        "zotero_search",
        "output-available",
        json!({ "q": "attention" }),
        Some(json!([{ "key": "WXYZ6789", "itemType": "journalArticle", "title": "Attention everywhere" }])),
    )];
    let leaf = push_turns(&mut nodes, "A1", 2, turns, 400);
    (nodes, leaf)
}

fn model_8k() -> ModelProfile {
    model(8_192, None)
}

fn projected_ids(session: &Session) -> Vec<String> {
    project(session)
        .expect("projects")
        .items
        .iter()
        .map(|item| match item {
            Projected::Summary(i) => format!("summary:{}", session.nodes[*i].id),
            Projected::Message(i) => session.nodes[*i].id.clone(),
        })
        .collect()
}

#[test]
fn projection_starts_at_the_provider_block_and_sends_no_package_summary() {
    let (mut nodes, leaf) = long_history(6);
    nodes.push(checkpoint("C1", &leaf, Some("U5"), None, "package summary"));
    nodes.push(user("U7", Some("C1"), "and the second paper?"));
    nodes.push(answer_after_provider_compaction("A7", "U7", 900));
    nodes.push(user("U8", Some("A7"), "thanks, now the third"));
    let session = session(nodes, "U8");
    assert_eq!(projected_ids(&session), ["A7", "U8"]);
    // Without any package checkpoint the block is the boundary too.
    let (mut nodes, leaf) = long_history(3);
    nodes.push(answer_after_provider_compaction("A4", &leaf, 900));
    nodes.push(user("U5", Some("A4"), "go on"));
    assert_eq!(projected_ids(&common::session(nodes, "U5")), ["A4", "U5"]);
}

#[test]
fn after_a_provider_compaction_the_estimate_is_what_the_provider_holds_and_nothing_compacts() {
    // 30 turns of 400 words each: far over an 8k window as the package would project them.
    let (mut nodes, leaf) = long_history(30);
    nodes.push(user("U31", Some(&leaf), "where were we?"));
    nodes.push(answer_after_provider_compaction("A31", "U31", 1_200));
    nodes.push(user("U32", Some("A31"), "next step please"));
    let session = session(nodes, "U32");
    let estimate = estimate(&session, &model_8k(), &EstimateRequest::default()).expect("estimates");
    assert_eq!(estimate.baseline_message_id.as_deref(), Some("A31"));
    assert!(estimate.tokens < 1_400, "the provider holds about 1,240 tokens; estimated {}", estimate.tokens);
    let plan = plan(&session, &model_8k(), &PlanOptions::new(Mode::Auto)).expect("plans");
    assert_eq!(plan.action, PlanAction::None, "{plan:?}");
}

#[test]
fn a_package_compaction_after_a_block_folds_it_only_as_the_previous_summary() {
    let (mut nodes, leaf) = long_history(4);
    nodes.push(user("U5", Some(&leaf), "first words before the block"));
    nodes.push(answer_after_provider_compaction("A5", "U5", 1_000));
    let leaf = push_turns(&mut nodes, "A5", 6, 40, 100);
    let session = session(nodes, &leaf);
    let plan = plan(&session, &model_8k(), &PlanOptions::new(Mode::Auto)).expect("plans");
    assert_eq!(plan.action, PlanAction::Compact, "{plan:?}");
    // The new boundary is after the block, and the summarized range still starts with the package's own
    // history (the ledger and the registers read it).
    let kept = plan.first_kept_message_id.clone().expect("a verbatim tail");
    let position = |id: &str| session.nodes.iter().position(|n| n.id == id).unwrap();
    assert!(position(&kept) > position("A5"), "boundary {kept} is before the block");
    assert_eq!(plan.summarize_ids.first().map(String::as_str), Some("U1"));
    // The fold takes rounds on 8k (rule `fold-fits-the-summarizer`): the round that folds the block
    // reads it as its previous summary, whatever the rounds before it wrote.
    let rounds = summary_rounds(&session, &plan, &model_8k());
    let (request, _) = rounds.iter().find(|(r, _)| r.history.contains("Continuing from the summary")).expect("a round folds the block");
    assert_eq!(request.previous_summary.as_deref(), Some(PROVIDER_SUMMARY));
    assert!(!request.history.contains("first words before the block"), "history before the block is read again");
    assert!(rounds.iter().all(|(r, _)| r.history.matches(PROVIDER_SUMMARY).count() == 0), "the block is paraphrased as history");
    let last = &rounds.last().expect("a round").0;
    assert!(last.ledger.entries.iter().any(|e| e.key == "WXYZ6789"), "the ledger lost the package's own reading");
    // Once committed, the projection is summary then tail: no package summary before a provider block.
    let mut nodes: Vec<Value> = session.nodes.iter().map(|n| n.raw.to_value()).collect();
    nodes.push(checkpoint_from_plan("C1", &plan, "## Research goal\n- attention"));
    let after = common::session(nodes, "C1");
    let ids = projected_ids(&after);
    assert_eq!(ids.first().map(String::as_str), Some("summary:C1"));
    assert!(!ids.iter().any(|id| id == "A5"));
}

#[test]
fn an_encrypted_item_is_estimated_by_its_bound_and_never_sent_as_text() {
    // 42,000 characters of base64 ciphertext with Zotero-key-shaped runs in it.
    let encrypted: String = (0..42_000).map(|i| b"QWERTY23ZXCVBN45asdf+/"[i % 22] as char).collect();
    let (mut nodes, leaf) = long_history(3);
    nodes.push(answer_with_encrypted_item("A4", &leaf, &encrypted));
    nodes.push(user("U5", Some("A4"), "go on"));
    let session = session(nodes.clone(), "U5");
    assert_eq!(projected_ids(&session), ["A4", "U5"]);
    let estimate = estimate(&session, &model(200_000, None), &EstimateRequest::default()).expect("estimates");
    assert!(estimate.tokens <= 42_000 / 4 + 200, "estimated {} for a 42,000-character item", estimate.tokens);
    // The app's summarizer reads the durable history instead: the package's own previous summary and
    // the readable messages before the item, the item as a line that names it, never its ciphertext.
    let leaf = push_turns(&mut nodes, "U5", 6, 40, 400);
    let session = common::session(nodes, &leaf);
    let plan = plan(&session, &model_8k(), &PlanOptions::new(Mode::Manual)).expect("plans");
    assert_eq!(plan.action, PlanAction::Compact, "{plan:?}");
    let rounds = summary_rounds(&session, &plan, &model_8k());
    let history: String = rounds.iter().map(|(r, _)| r.history.as_str()).collect();
    assert!(!history.contains("QWERTY23ZXCVBN45"), "the ciphertext reached the summarizer");
    assert!(history.contains("openai compaction item"));
    assert!(history.contains("find the attention papers"), "the readable history before the item");
    let last = &rounds.last().expect("a round").0;
    assert!(last.ledger.entries.iter().all(|e| !encrypted.contains(e.key.as_str())), "a key read out of the ciphertext");
}

/// A checkpoint a provider summarized: its block or item kept beside the readable summary.
fn provider_checkpoint(id: &str, parent: &str, first_kept: &str, part: Value) -> Value {
    let mut node = checkpoint(id, parent, Some(first_kept), None, "## Research goal\n- digestibility in dogs");
    node["checkpoint"]["providerPart"] = part;
    node
}

#[test]
fn a_provider_summarized_checkpoint_is_sent_as_the_providers_message_with_the_readable_text_where_needed() {
    let block = json!({ "type": "text", "text": PROVIDER_SUMMARY, "state": "done",
        "providerMetadata": { "anthropic": { "type": "compaction", "signature": "sig-1" } } });
    let item = json!({ "type": "custom", "kind": "openai.compaction",
        "providerMetadata": { "openai": { "type": "compaction", "itemId": "cmp_1", "encryptedContent": "gAAAAB".repeat(2_000) } } });
    let not_a_block = json!({ "type": "text", "text": "a plain part" });
    for (part, role, readable_summary) in [(block.clone(), "assistant", false), (item, "assistant", true), (not_a_block, "user", true)] {
        let (mut nodes, leaf) = long_history(4);
        nodes.push(provider_checkpoint("C1", &leaf, "U4", part.clone()));
        nodes.push(user("U5", Some("C1"), "go on"));
        let session = common::session(nodes, "U5");
        let projected = project(&session).expect("projects").to_json(&session);
        let summary = &projected["messages"][0];
        assert_eq!(summary["role"], role, "{part}");
        let texts: Vec<&str> = summary["parts"].as_array().unwrap().iter().filter(|p| p.get("providerMetadata").is_none()).filter_map(|p| p["text"].as_str()).collect();
        assert_eq!(texts.len(), 1);
        assert_eq!(texts[0].contains("digestibility in dogs"), readable_summary, "{part}: {}", texts[0]);
        if role == "assistant" {
            assert_eq!(summary["parts"][0], part, "the provider's part first, unchanged");
        }
        // What is counted is what is sent: the estimate without usage is the projection's.
        let tokens = estimate(&session, &model(200_000, None), &EstimateRequest::default()).expect("estimates").tokens;
        let sent: u64 = projected["messages"].as_array().unwrap().iter().map(|m| message_tokens(m, &model(200_000, None))).sum();
        assert_eq!(tokens, sent, "{part}");
    }
}
