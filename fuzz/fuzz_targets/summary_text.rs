//! Any text -> validateSummary; the text as a previous summary, as user and assistant history
//! of a tiny summary request, or as raw history -> extractiveSummary, whose result must validate.
//! One of the three uses per execution, chosen by the input's length, at a third of the cost.
#![no_main]

use bibgenie_compaction::zotero::ResourceLedger;
use bibgenie_compaction::summarize::{extractive_summary, serialize_ui_messages, system_prompt, validate_summary, SerializeOptions, SummaryRequest};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fn request(history: String, previous_summary: Option<String>) -> SummaryRequest {
    SummaryRequest {
        system: system_prompt(),
        prompt: String::new(),
        max_output_tokens: 600,
        ledger: ResourceLedger::default(),
        history,
        previous_summary,
        user_words: Vec::new(),
        cited_pages: Vec::new(),
        recall_handles: Vec::new(),
        item_ids: Vec::new(),
        continues_at: None,
    }
}

fn assert_valid(summary: &str, what: &str) {
    if let Err(e) = validate_summary(summary) {
        panic!("extractive summary of {what} does not validate: {}", e.message);
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = validate_summary(&text);

    match data.len() % 3 {
        // The text as the previous checkpoint's summary, with an empty history.
        0 => assert_valid(&extractive_summary(&request(String::new(), Some(text.to_string()))), "a previous summary"),
        // The text as what the user and the assistant said, serialized as the request would carry it.
        1 => {
            let messages = json!([
                { "id": "u1", "role": "user", "parts": [{ "type": "text", "text": text }] },
                { "id": "a1", "role": "assistant", "parts": [{ "type": "text", "text": text }] },
            ]);
            if let Ok(history) = serialize_ui_messages(&messages, &SerializeOptions::default()) {
                let summary = extractive_summary(&request(history, Some(text.to_string())));
                assert_valid(&summary, "history and a previous summary");
            }
        }
        // The text raw as history: the parser of the serialized history must cope with anything.
        _ => assert_valid(&extractive_summary(&request(text.to_string(), None)), "raw history"),
    }
});
