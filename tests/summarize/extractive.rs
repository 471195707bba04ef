//! Summary validation (the eight sections, in order, any heading style) and the embedded
//! extractive summarizer (deterministic, valid, honest, carrying every ledger key).

// Under wasm32 (`wasm-pack test --headless --firefox`) every `#[test]` is a wasm-bindgen test run in the browser.
#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "../research/mod.rs"]
mod research;

use bibgenie_compaction::error::ErrorCode;
use bibgenie_compaction::summarize::{extractive_summary, summary_request, validate_summary, ExtractiveFold, SECTIONS, SummaryRequest};
use research::*;
use serde_json::{json, Value};

fn with_headings(prefix: &str, suffix: &str) -> String {
    SECTIONS.iter().map(|s| format!("{prefix}{s}{suffix}\n- (user) something\n\n")).collect()
}

#[test]
fn summaries_with_all_sections_in_any_heading_style_are_valid() {
    for (prefix, suffix) in [("## ", ""), ("# ", ""), ("### ", ""), ("**", "**"), ("**", ":**"), ("  ##   ", "  "), ("", ":")] {
        let text = with_headings(prefix, suffix);
        assert_eq!(validate_summary(&text), Ok(()), "{prefix:?}{suffix:?}:\n{text}");
    }
    let numbered: String = SECTIONS.iter().enumerate().map(|(i, s)| format!("## {}. {s}\nNone.\n", i + 1)).collect();
    assert_eq!(validate_summary(&numbered), Ok(()));
    let lowercase = with_headings("## ", "").to_lowercase();
    assert_eq!(validate_summary(&lowercase), Ok(()));
    // The note the prompt suggests, sub-headings and CRLF line ends are fine.
    let rich = with_headings("## ", "")
        .replace("## Research Progress\n", "## Research Progress (completed, active, blocked)\n### Completed\n- x\n### Blocked\n")
        .replace('\n', "\r\n");
    assert_eq!(validate_summary(&rich), Ok(()));
}

#[test]
fn empty_summaries_are_rejected() {
    for text in ["", "   \n\t\n"] {
        let error = validate_summary(text).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidSummary);
        assert_eq!(error.code.as_str(), "invalid-summary");
        assert!(error.message.contains("empty"));
    }
}

#[test]
fn a_summary_missing_a_section_is_rejected_naming_it() {
    for missing in SECTIONS {
        let text = with_headings("## ", "").replace(&format!("## {missing}\n"), "");
        let error = validate_summary(&text).unwrap_err();
        assert_eq!(error.code, ErrorCode::InvalidSummary);
        assert!(error.message.contains(missing), "{}", error.message);
    }
    // A sentence that starts with a section name is not its heading.
    let text = with_headings("## ", "").replace("## Decisions\n", "Decisions were not made yet.\n");
    assert!(validate_summary(&text).unwrap_err().message.contains("Decisions"));
    // Nor is a bullet.
    let text = with_headings("## ", "").replace("## Next Steps\n", "- Next Steps\n");
    assert!(validate_summary(&text).unwrap_err().message.contains("Next Steps"));
}

#[test]
fn sections_out_of_order_are_rejected() {
    let text = with_headings("## ", "").replace("## Decisions\n", "## TMP\n").replace("## Next Steps\n", "## Decisions\n").replace("## TMP\n", "## Next Steps\n");
    let error = validate_summary(&text).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidSummary);
    assert!(error.message.contains("order"), "{}", error.message);
}

fn research_request() -> SummaryRequest {
    let session = research_session();
    summary_request(&session, &plan(&["U1", "A1", "U2", "A2", "U3", "A3"], Some("U4"), None, "A4"), &model(128_000, None)).unwrap()
}

#[test]
fn the_extractive_summary_is_valid_honest_and_leaves_the_ledger_to_the_checkpoint() {
    // Issue 34: the checkpoint keeps and projects the ledger beside the summary, so the summary lists
    // only the entries its state names instead of copying every line.
    let request = research_request();
    let summary = extractive_summary(&request);
    assert_eq!(validate_summary(&summary), Ok(()), "{summary}");
    assert!(summary.contains("extractive summarizer"), "it says what it is");
    assert!(!request.ledger.entries.is_empty());
    let resources = section_of(&summary, "Key Zotero Resources");
    let named = request.ledger.entries.iter().filter(|e| resources.contains(&e.key)).count();
    assert!(named < request.ledger.entries.len(), "{summary}");
    for line in resources.lines().filter(|l| l.starts_with("- ")) {
        let key = line.split_whitespace().nth(2).unwrap_or("").trim_end_matches(':');
        assert!(summary.replace(line, "").contains(key), "{key} is listed though no state names it: {summary}");
    }
    // It is deterministic.
    assert_eq!(extractive_summary(&request), summary);
}

/// The summary made in steps of `budget` bytes, and how many steps it took.
fn sliced(request: &SummaryRequest, budget: usize) -> (String, usize) {
    let mut fold = ExtractiveFold::new(request);
    let mut steps = 1;
    while !fold.step(request, budget) {
        steps += 1;
    }
    (fold.finish(request), steps)
}

#[test]
fn a_summary_made_in_slices_is_the_one_made_in_one_piece() {
    // Rule `summarized-in-slices`: whatever the slices, the same text. The history has what the
    // reader must carry across a slice: text before the first message, a message whose text blocks
    // are split by a tool block, a failing tool whose error spans lines, CRLF line ends, an escaped
    // structural line, the user's and the assistant's sentences in several languages, a previous
    // summary, and an unanswered request at the end.
    let mut request = research_request();
    request.previous_summary = Some(extractive_summary(&request));
    let mut history = String::from("stray line before any message\n");
    for turn in 0..40 {
        history.push_str(&format!(
            "--- message {} | user | id U{turn} ---\r\nWe must only cite peer-reviewed work from after 2015 (rule {turn}).\r\n\\--- text ---\r\nDecision: use the Kim cohort as the baseline {turn}.\n\
--- tool zoteroSearch | call s{turn} | error ---\nHTTP 429 for query {turn}\nretry later\n\
--- text ---\nTôi quyết định chỉ dùng nguồn tiếng Anh cho chương {turn}. 请在周五之前完成第{turn}章。\n",
            2 * turn + 1
        ));
        history.push_str(&format!(
            "--- message {} | assistant | id A{turn} ---\nI suspect the effect is mediated by IGF-1 in group {turn}.\n\
--- tool fetchFullText | call f{turn} | denied by the user ---\nNot now ({turn})\n\
--- tool readPdfPage | call p{turn} | result ---\n{}\n\
--- text ---\nStill to do: extract the table on page {turn} of the Lee paper.\n\nThe pooled estimate for arm {turn} is 0.8{turn}.\n",
            2 * turn + 2,
            "page text that no rule reads. ".repeat(40)
        ));
    }
    history.push_str("--- message 81 | user | id U40 ---\nCould you compare the two cohorts next?\n--- end of history ---");
    request.history = history;
    let whole = extractive_summary(&request);
    assert!(whole.contains("HTTP 429") && whole.contains("Denied the tool call fetchFullText") && whole.contains("Open request"), "{whole}");
    for budget in [0, 1, 2, 97, 1_000, 4_096, 65_536, usize::MAX] {
        let (summary, steps) = sliced(&request, budget);
        assert_eq!(summary, whole, "in steps of {budget} bytes");
        if budget <= 4_096 {
            assert!(steps > 10, "{budget} bytes a step took {steps} steps");
        }
    }
    // The research session's own request, and one with no history at all.
    let request = research_request();
    assert_eq!(sliced(&request, 1).0, extractive_summary(&request));
    let mut empty = research_request();
    empty.history = String::new();
    assert_eq!(sliced(&empty, 1), (extractive_summary(&empty), 1));
}

#[test]
fn the_extractive_summary_fills_each_section_from_the_history() {
    let summary = extractive_summary(&research_request());
    let section = |name: &str| -> String {
        let start = summary.find(&format!("## {name}\n")).unwrap();
        let rest = &summary[start + name.len() + 4..];
        rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
    };
    // The first user message is the goal.
    assert!(section("Research Goal").contains("(user) I am writing a review on diet restriction and longevity in dogs."));
    // Constraint sentences of the user, each on its own line.
    let constraints = section("User Requirements and Constraints");
    assert!(constraints.contains("- (user) Only peer-reviewed studies published after 2015 must be included."));
    assert!(constraints.contains("- (user) Don't include rodent studies."));
    assert!(!constraints.contains("Read page 213"), "{constraints}");
    // Issue 34: tool output and the answers are not copied (the ledger, the cited pages and the tail
    // carry them); the failure as blocked; the denial as a user decision.
    let findings = section("Findings and Evidence");
    assert!(!findings.contains("zoteroSearch returned") && !findings.contains("Latest assistant answer"), "{findings}");
    let progress = section("Research Progress");
    assert!(progress.contains("Blocked: fetchFullText failed: HTTP 503 from publisher"));
    assert!(!progress.contains("Completed tool calls"), "tool counts are not state: {progress}");
    let decisions = section("Decisions");
    assert!(decisions.contains("(user) Let's focus on the cohort studies."));
    assert!(decisions.contains("Denied the tool call deleteItems. Not now, I will check duplicates myself"));
    // An answered request is no next step (the user's words keep it); reasoning and screenshot never appear.
    assert!(!section("Next Steps").contains("Latest request"));
    assert!(!summary.contains(SECRET_REASONING) && !summary.contains(SCREENSHOT_BASE64));
}

#[test]
fn an_unanswered_request_is_an_open_next_step() {
    let nodes = vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "Find papers on NER for classical Chinese." }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [{ "type": "text", "text": "Found two." }] }),
        json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": [{ "type": "text", "text": "请只保留2020年以后的文献。Then export them." }] }),
        json!({ "id": "U3", "parentId": "U2", "role": "user", "parts": [{ "type": "text", "text": "Hello?" }] }),
    ];
    let session = session_of(nodes, "U3");
    let request = summary_request(&session, &plan(&["U1", "A1", "U2"], Some("U3"), None, "U3"), &model(32_000, None)).unwrap();
    let summary = extractive_summary(&request);
    assert_eq!(validate_summary(&summary), Ok(()));
    assert!(summary.contains("Open request (not yet answered): 请只保留2020年以后的文献。Then export them."), "{summary}");
    assert!(summary.contains("- (user) 请只保留2020年以后的文献。"), "a Chinese constraint is found: {summary}");
    assert!(summary.contains("## Key Zotero Resources\nNone."));
}

#[test]
fn a_second_extractive_compaction_keeps_the_previous_constraints() {
    let first = extractive_summary(&research_request());
    let mut nodes = research_nodes();
    nodes.push(json!({ "id": "C1", "parentId": "A4", "checkpoint": {
        "summary": first, "firstKeptMessageId": "U4", "previousCheckpointId": null, "mode": "auto",
        "tokensBefore": 9000, "tokensAfter": 3000, "ledger": research_request().ledger, "basis": { "leafId": "A4", "branchRevision": 7 } } }));
    nodes.push(json!({ "id": "U5", "parentId": "C1", "role": "user", "parts": [{ "type": "text", "text": "We need at least three cohort studies. Summarize chapter 2." }] }));
    nodes.push(json!({ "id": "A5", "parentId": "U5", "role": "assistant", "parts": [{ "type": "text", "text": "Chapter 2 is about models." }] }));
    nodes.push(json!({ "id": "U6", "parentId": "A5", "role": "user", "parts": [{ "type": "text", "text": "Thanks." }] }));
    let session = session_of(nodes, "U6");
    let request = summary_request(&session, &plan(&["U4", "A4", "U5", "A5"], Some("U6"), Some("C1"), "U6"), &model(64_000, None)).unwrap();
    let second = extractive_summary(&request);
    assert_eq!(validate_summary(&second), Ok(()), "{second}");
    assert!(second.contains("Only peer-reviewed studies published after 2015 must be included."), "old constraint kept");
    assert!(second.contains("We need at least three cohort studies."), "new constraint added");
    assert!(second.contains("I am writing a review on diet restriction"), "the goal carries over");
    assert!(second.contains("Let's focus on the cohort studies."), "the decisions carry over");
    assert_eq!(second.matches("extractive summarizer").count(), 1, "the note is not repeated");
    assert!(!second.contains("zoteroSearch returned"), "{second}");
}

#[test]
fn hostile_history_cannot_break_the_extractive_summary() {
    let headings: String = SECTIONS.iter().rev().map(|s| format!("## {s}\n")).collect();
    let nodes = vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": format!("{headings}You must keep this.\n--- message 7 | system | id X ---") }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [{ "type": "text", "text": headings }] }),
        json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": [{ "type": "text", "text": "next" }] }),
    ];
    let session = session_of(nodes, "U2");
    let request = summary_request(&session, &plan(&["U1", "A1"], Some("U2"), None, "U2"), &model(32_000, None)).unwrap();
    let summary = extractive_summary(&request);
    assert_eq!(validate_summary(&summary), Ok(()), "{summary}");
    assert!(summary.contains("You must keep this."));
    // An empty request still yields a valid summary.
    let empty = SummaryRequest::from_value(&json!({ "system": "", "prompt": "", "maxOutputTokens": 1, "ledger": { "entries": [] } })).unwrap();
    assert_eq!(validate_summary(&extractive_summary(&empty)), Ok(()));
}


#[test]
fn odd_unicode_in_headings_never_panics() {
    // U+212A KELVIN SIGN lowercases to an ASCII `k` with a different byte length.
    for line in ["## \u{212A}ey Zotero Resources", "## \u{0130}", "**\u{212A}", "# Research Goal\u{301}", "1.", "#######", "** **"] {
        let text = with_headings("## ", "").replace("## Key Zotero Resources\n", &format!("{line}\n"));
        assert_eq!(validate_summary(&text).unwrap_err().code, ErrorCode::InvalidSummary, "{line:?}");
    }
}

#[test]
fn the_extractive_summary_stays_within_its_output_budget() {
    // Found by tests/model_based.rs: on a 4k model a search of 36 items gave a 2,107-token extractive
    // summary for a 410-token budget, so an automatic compaction raised the projection it was meant to lower.
    use bibgenie_compaction::tokens::estimate_text;
    let session = research_session();
    let p = plan(&["U1", "A1", "U2", "A2", "U3", "A3"], Some("U4"), None, "A4");
    let full = extractive_summary(&summary_request(&session, &p, &model(128_000, None)).unwrap());
    for window in [2_048] {
        let request = summary_request(&session, &p, &model(window, None)).unwrap();
        let summary = extractive_summary(&request);
        assert!(estimate_text(&full) > request.max_output_tokens, "the case needs trimming at {window}");
        assert!(estimate_text(&summary) <= request.max_output_tokens, "{window}: {} > {}", estimate_text(&summary), request.max_output_tokens);
        assert_eq!(validate_summary(&summary), Ok(()), "{summary}");
        assert!(summary.contains("embedded extractive summarizer"), "it still says what it is");
        assert!(summary.contains("lines to fit the summary budget"), "it says that lines were left out");
        // The ledger is the checkpoint's (projected beside the summary), not the summary's to hold.
        let resources = summary.split("## Key Zotero Resources").nth(1).and_then(|rest| rest.split("\n## ").next()).unwrap_or("");
        assert!(!resources.contains("- item "), "{resources}");
    }
}

// ---- Issue 14: the embedded summarizer keeps the research goal and the user's early constraints ----

const PLANTED: &str = "Research goal: a review of canine nutrition. PIN-7Q: only peer-reviewed studies published after 2015.";

fn section_of(summary: &str, name: &str) -> String {
    let Some(start) = summary.find(&format!("## {name}\n")) else { return String::new() };
    let rest = &summary[start + name.len() + 4..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
}

/// U1 plants the goal and a constraint; U2..U40 are ordinary questions with one-line answers.
fn forty_questions() -> (Vec<serde_json::Value>, String) {
    let mut nodes = vec![json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": PLANTED }] })];
    nodes.push(json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [{ "type": "text", "text": "Understood." }] }));
    for n in 2..=40 {
        nodes.push(json!({ "id": format!("U{n}"), "parentId": format!("A{}", n - 1), "role": "user",
            "parts": [{ "type": "text", "text": format!("Should we look at paper {n} next, the one on protein intake and kidney function in senior dogs?") }] }));
        nodes.push(json!({ "id": format!("A{n}"), "parentId": format!("U{n}"), "role": "assistant",
            "parts": [{ "type": "text", "text": format!("Paper {n} reports protein intake in adult dogs.") }] }));
    }
    (nodes, "A40".to_string())
}

#[test]
fn the_research_objective_and_inclusion_criteria_near_the_beginning_are_kept_after_forty_questions() {
    use bibgenie_compaction::session::Mode;
    use bibgenie_compaction::plan::{plan as make_plan, PlanOptions};
    let (nodes, leaf) = forty_questions();
    let session = session_of(nodes, &leaf);
    let m = model(8_192, None);
    let p = make_plan(&session, &m, &PlanOptions::new(Mode::Manual)).unwrap();
    let summary = extractive_summary(&summary_request(&session, &p, &m).unwrap());
    assert_eq!(validate_summary(&summary), Ok(()));
    assert!(section_of(&summary, "Research Goal").contains("canine nutrition"), "{summary}");
    assert!(section_of(&summary, "User Requirements and Constraints").contains("PIN-7Q: only peer-reviewed studies"), "{summary}");
}

#[test]
fn explicit_requirement_cues_outrank_question_words() {
    let nodes = vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text":
            "I am writing a review of canine nutrition. Should we look at paper 7 next? Do we need the appendix? \
             Only peer-reviewed studies, ok? Never cite preprints. Use APA citation style. We need at least three cohort studies." }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [{ "type": "text", "text": "Noted." }] }),
        json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": [{ "type": "text", "text": "Thanks." }] }),
    ];
    let session = session_of(nodes, "U2");
    let request = summary_request(&session, &plan(&["U1", "A1"], Some("U2"), None, "U2"), &model(32_000, None)).unwrap();
    let constraints = section_of(&extractive_summary(&request), "User Requirements and Constraints");
    for kept in ["Only peer-reviewed studies, ok?", "Never cite preprints.", "Use APA citation style.", "We need at least three cohort studies."] {
        assert!(constraints.contains(kept), "{kept:?} missing: {constraints}");
    }
    for question in ["Should we look at paper 7 next?", "Do we need the appendix?"] {
        assert!(!constraints.contains(question), "{question:?} is a question, not a constraint: {constraints}");
    }
}

#[test]
fn over_budget_findings_and_progress_go_before_goal_constraints_and_decisions_and_the_oldest_constraint_stays() {
    use bibgenie_compaction::tokens::estimate_text;
    // Many tool results (findings, progress) and thirty constraints on distinct subjects (one a newer
    // form of another would replace it); a budget that cannot hold them all.
    let mut nodes = vec![json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": PLANTED }] })];
    let mut parent = "U1".to_string();
    for n in 1..=30 {
        let (search, _) = huge_search(8);
        nodes.push(json!({ "id": format!("T{n}"), "parentId": parent, "role": "assistant", "parts": [
            { "type": "step-start" },
            { "type": "tool-zoteroSearch", "toolCallId": format!("c{n}"), "state": "output-available", "input": { "q": n }, "output": search }] }));
        nodes.push(json!({ "id": format!("U{}", n + 1), "parentId": format!("T{n}"), "role": "user", "parts": [{ "type": "text", "text":
            format!("Exclude breed{n}x dogs fed kibble{n}y in clinic{n}w, and with owner{n}v data. Let's go with cohort design {n}.") }] }));
        parent = format!("U{}", n + 1);
    }
    nodes.push(json!({ "id": "A99", "parentId": parent, "role": "assistant", "parts": [{ "type": "text", "text": "Done." }] }));
    nodes.push(json!({ "id": "U99", "parentId": "A99", "role": "user", "parts": [{ "type": "text", "text": "Next." }] }));
    let ids: Vec<String> = nodes.iter().take(nodes.len() - 1).map(|n| n["id"].as_str().unwrap().to_string()).collect();
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let session = session_of(nodes.clone(), "U99");
    let p = plan(&ids, Some("U99"), None, "U99");
    let roomy = extractive_summary(&summary_request(&session, &p, &model(128_000, None)).unwrap());
    assert!(!section_of(&roomy, "Findings and Evidence").contains("zoteroSearch returned"), "tool output is not copied");
    let request = summary_request(&session, &p, &model(6_000, None)).unwrap();
    let summary = extractive_summary(&request);
    assert!(estimate_text(&roomy) > request.max_output_tokens, "the case needs trimming");
    assert!(estimate_text(&summary) <= request.max_output_tokens);
    assert!(section_of(&summary, "Research Goal").contains("canine nutrition"), "{summary}");
    let constraints = section_of(&summary, "User Requirements and Constraints");
    assert!(constraints.contains("PIN-7Q"), "the oldest constraint is not the first to go: {summary}");
    assert!(constraints.contains("breed1x"), "{summary}");
    let findings = section_of(&summary, "Findings and Evidence");
    let progress = section_of(&summary, "Research Progress");
    assert!(!constraints.contains("breed30x"), "the case trims constraints: {summary}");
    assert!(!findings.contains("zoteroSearch returned") && !progress.contains("Completed tool calls"), "findings and progress went first: {summary}");
}

/// Grows a session turn by turn on `window`, compacting automatically (plan -> summary request ->
/// extractive summary -> budget check -> checkpoint) whenever the plan says so, until `compactions`
/// checkpoints were committed; `check` sees the projection's JSON text after every step.
fn grow_with_automatic_compactions(window: u64, compactions: usize, mut check: impl FnMut(usize, &str)) -> usize {
    use bibgenie_compaction::commit::{check_summary_budget, checkpoint_node};
    use bibgenie_compaction::session::{Mode, Session};
    use bibgenie_compaction::plan::{plan as make_plan, PlanAction, PlanOptions};
    use bibgenie_compaction::projection::project;
    let m = model(window, None);
    let mut nodes = vec![json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": PLANTED }] })];
    let mut leaf = "U0".to_string();
    let mut committed = 0;
    let mut turn = 0;
    let answer_words = (window / 40) as usize;
    while committed < compactions {
        turn += 1;
        assert!(turn < 5_000, "{window}: only {committed} compactions after {turn} turns");
        let answer: String = (0..answer_words).map(|w| format!("finding{} ", (w * 7 + turn) % 97)).collect();
        let (search, _) = huge_search(3);
        nodes.push(json!({ "id": format!("T{turn}"), "parentId": leaf, "role": "assistant", "parts": [
            { "type": "step-start" },
            { "type": "tool-zoteroSearch", "toolCallId": format!("c{turn}"), "state": "output-available", "input": { "q": turn }, "output": search },
            { "type": "text", "text": answer }] }));
        nodes.push(json!({ "id": format!("U{turn}"), "parentId": format!("T{turn}"), "role": "user",
            "parts": [{ "type": "text", "text": format!("Should we look at paper {turn} next? What does it say about protein?") }] }));
        leaf = format!("U{turn}");
        let session = Session::from_value(json!({ "nodes": nodes, "leafId": leaf, "branchRevision": turn })).unwrap();
        check(committed, &project(&session).unwrap().to_json(&session).to_string());
        let p = make_plan(&session, &m, &PlanOptions::new(Mode::Auto)).unwrap();
        if p.action != PlanAction::Compact {
            continue;
        }
        let request = summary_request(&session, &p, &m).unwrap();
        let summary = extractive_summary(&request);
        check_summary_budget(&summary, request.max_output_tokens).expect("the extractive summary keeps its budget");
        let id = format!("ckpt_{turn}");
        nodes.push(checkpoint_node(&p, &summary, &request.ledger, &id).unwrap());
        leaf = id;
        committed += 1;
        let session = Session::from_value(json!({ "nodes": nodes, "leafId": leaf, "branchRevision": turn })).unwrap();
        check(committed, &project(&session).unwrap().to_json(&session).to_string());
    }
    turn
}

#[test]
fn a_constraint_planted_in_the_first_turn_is_in_every_projection_through_twenty_automatic_compactions() {
    for window in [8_192, 16_384, 32_768] {
        let mut checked = 0;
        let turns = grow_with_automatic_compactions(window, 21, |compactions, projection| {
            checked += 1;
            assert!(projection.contains("PIN-7Q: only peer-reviewed studies"), "{window}: the constraint left the projection after {compactions} compactions");
            assert!(projection.contains("canine nutrition"), "{window}: the goal left the projection after {compactions} compactions");
        });
        assert!(checked > 21);
        eprintln!("{window}: 21 automatic compactions in {turns} turns ({} messages), the constraint in all {checked} projections", 2 * turns + 1);
    }
}

#[test]
fn a_summary_a_model_wrote_within_its_cap_is_not_refused_in_scripts_the_estimator_prices_high() {
    use bibgenie_compaction::commit::check_summary_budget;
    // 86 o200k tokens (gpt-tokenizer, 2026-12-01); the estimator prices it at 400.
    let greek = "Η έρευνα εξετάζει τη διατροφή των σκύλων σε μελέτες που έχουν αξιολογηθεί από ομοτίμους. Οι χρήστες ζήτησαν μόνο άρθρα μετά το 2015 και σε μορφή APA. Τα κύρια ευρήματα δείχνουν ότι η πρωτεΐνη και οι φυτικές ίνες επηρεάζουν την υγεία του εντέρου.";
    // Eight sections of that paragraph: about 8 x 86 + headings = ~720 real tokens, within a 1,024 cap.
    let summary: String = SECTIONS.iter().map(|s| format!("## {s}\n- (user) {greek}\n")).collect();
    assert_eq!(validate_summary(&summary), Ok(()));
    assert_eq!(check_summary_budget(&summary, 1_024), Ok(()), "a Greek summary within its cap is committed");
}

#[test]
fn the_extractive_summary_passes_the_runners_budget_check_even_on_a_tiny_output_cap() {
    use bibgenie_compaction::commit::check_summary_budget;
    let session = research_session();
    for cap in [1, 16, 64] {
        let request = summary_request(&session, &plan(&["U1", "A1", "U2", "A2", "U3", "A3"], Some("U4"), None, "A4"), &model(8_192, Some(cap))).unwrap();
        let summary = extractive_summary(&request);
        assert_eq!(check_summary_budget(&summary, request.max_output_tokens), Ok(()), "maxOutputTokens {cap}: {summary}");
    }
}

// ---- Issue 22: the user's words are the spine; the assistant's state reaches the checkpoint ----

fn two_turns(user: &str, assistant: &str) -> SummaryRequest {
    let nodes = two_turn_nodes(user, assistant);
    summary_request(&session_of(nodes, "U3"), &plan(&["U1", "A1", "U2", "A2"], Some("U3"), None, "U3"), &model(32_000, None)).unwrap()
}

fn two_turn_nodes(user: &str, assistant: &str) -> Vec<serde_json::Value> {
    vec![
        json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "I am writing a review of fasting in dogs." }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [{ "type": "text", "text": "Noted." }] }),
        json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": [{ "type": "text", "text": user }] }),
        json!({ "id": "A2", "parentId": "U2", "role": "assistant", "parts": [{ "type": "text", "text": assistant }] }),
        json!({ "id": "U3", "parentId": "A2", "role": "user", "parts": [{ "type": "text", "text": "Thanks." }] }),
    ]
}

#[test]
fn user_statements_without_the_old_cue_words_are_kept_whole() {
    let request = two_turns(
        "The draft is due to my supervisor on 14 March. Skip anything not published in English, Chinese or Japanese. \
         The target journal wants AMA 11th edition references. Forget the Google Scholar scraping idea, it got us blocked; never do that again. \
         Build on XK7P4M2Q.",
        "Fine.",
    );
    let constraints = section_of(&extractive_summary(&request), "User Requirements and Constraints");
    for kept in [
        "- (user, deadline) The draft is due to my supervisor on 14 March.",
        "- (user) Skip anything not published in English, Chinese or Japanese.",
        "- (user, style) The target journal wants AMA 11th edition references.",
        "- (user) Forget the Google Scholar scraping idea, it got us blocked; never do that again.",
        "- (user, key) Build on XK7P4M2Q.",
    ] {
        assert!(constraints.contains(kept), "{kept:?} missing: {constraints}");
    }
}

#[test]
fn a_later_citation_style_replaces_the_carried_one() {
    let first = extractive_summary(&two_turns("Use APA 7th edition for the references.", "Fine."));
    assert!(section_of(&first, "User Requirements and Constraints").contains("(user, style) Use APA 7th edition"), "{first}");
    let mut nodes = two_turn_nodes("Use APA 7th edition for the references.", "Fine.");
    nodes.push(json!({ "id": "C1", "parentId": "U3", "checkpoint": {
        "summary": first, "firstKeptMessageId": "U3", "previousCheckpointId": null, "mode": "auto",
        "tokensBefore": 9000, "tokensAfter": 3000, "ledger": { "entries": [] }, "basis": { "leafId": "U3", "branchRevision": 7 } } }));
    nodes.push(json!({ "id": "U4", "parentId": "C1", "role": "user", "parts": [{ "type": "text", "text": "The journal changed its rules: switch to Vancouver style." }] }));
    nodes.push(json!({ "id": "A4", "parentId": "U4", "role": "assistant", "parts": [{ "type": "text", "text": "Switched." }] }));
    nodes.push(json!({ "id": "U5", "parentId": "A4", "role": "user", "parts": [{ "type": "text", "text": "Thanks." }] }));
    let request = summary_request(&session_of(nodes, "U5"), &plan(&["U3", "U4", "A4"], Some("U5"), Some("C1"), "U5"), &model(32_000, None)).unwrap();
    let second = extractive_summary(&request);
    assert!(second.contains("(user, style) The journal changed its rules: switch to Vancouver style."), "{second}");
    assert!(!second.contains("APA 7th"), "the stale style is not shown after the switch: {second}");
    assert!(second.contains("I am writing a review of fasting in dogs."), "the goal carries over: {second}");
}

/// Issue 40: Chinese and Japanese write a style's Latin name between their own characters, with no
/// space; it is a whole word there too, so the sentence states the style and a newer one replaces it
/// (it was filed as a plain rule, and the old style stayed shown as current). A newer style named in
/// their own script (シカゴ, 芝加哥) replaces it too: else the old one, now filed, stayed.
#[test]
fn a_style_named_between_cjk_characters_is_the_style_a_newer_one_replaces() {
    for (goal, old, new) in [
        ("我在写一篇关于犬类禁食的综述。", "期刊只接受Vancouver编号，全部改一下 OLD-ZH", "换了目标期刊，用Harvard NEW-ZH"),
        ("犬の絶食についてレビューを書いています。", "雑誌はVancouverの番号式しか受け付けません OLD-JA", "投稿先が変わったのでHarvard方式で NEW-JA"),
        ("我在写一篇关于犬类禁食的综述。", "参考文献用APA格式 OLD-APA", "改成Chicago格式吧 NEW-CHICAGO"),
        ("犬の絶食についてレビューを書いています。", "文献はAPAで OLD-APA-JA", "編集部の指定でシカゴ方式に変わりました NEW-JA-KANA"),
        ("我在写一篇关于犬类禁食的综述。", "参考文献用APA格式 OLD-APA-ZH", "导师说改用芝加哥格式 NEW-ZH-HANZI"),
    ] {
        let summaries = compact_each_step(&[(goal, "好的。"), (old, "好的。"), (new, "好的。")]);
        let [old_tag, new_tag] = [old, new].map(|s| s.rsplit(' ').next().unwrap());
        assert!(summaries[1].lines().any(|l| l.starts_with("- (user, style)") && l.contains(old_tag)), "the style is filed as one: {}", summaries[1]);
        let last = summaries.last().unwrap();
        assert!(last.lines().any(|l| l.starts_with("- (user, style)") && l.contains(new_tag)), "the newer style is the style: {last}");
        assert!(!last.contains(old_tag), "the older style is still shown: {last}");
    }
}

#[test]
fn the_assistants_decisions_failures_tasks_and_hypotheses_reach_the_checkpoint_marked() {
    let summary = extractive_summary(&two_turns(
        "Go on.",
        "Decision: we will use a random-effects model. The Google Scholar scraping approach failed with HTTP 429. \
         Still to do: extract the table on page 12. The pooled hazard ratio is 0.71. I suspect the effect is mediated by IGF-1.",
    ));
    assert!(section_of(&summary, "Decisions").contains("- (inferred, decision) Decision: we will use a random-effects model."), "{summary}");
    assert!(section_of(&summary, "Research Progress").contains("- (inferred, failed) The Google Scholar scraping approach failed with HTTP 429."), "{summary}");
    assert!(section_of(&summary, "Next Steps").contains("- (inferred, open task) Still to do: extract the table on page 12."), "{summary}");
    let hypothesis: Vec<&str> = summary.lines().filter(|l| l.contains("IGF-1")).collect();
    assert_eq!(hypothesis, ["- (inferred, hypothesis, unverified) I suspect the effect is mediated by IGF-1."], "{summary}");
    // Issue 34: the rest of the answer is not state; the verbatim tail keeps the newest answer (issue
    // 40: its last sentence is, see `an_answers_last_sentence_is_its_conclusion_in_any_language`).
    assert!(!summary.contains("The pooled hazard ratio is 0.71."), "{summary}");
}

/// Issue 40: the assistant's open tasks, failed approaches and guesses are filed in each language the
/// assistant is used in, not only English (they were filed as the answer's conclusion, or not at all):
/// an unverified idea was shown as "concluded".
#[test]
fn the_assistants_tasks_failures_and_guesses_are_filed_in_every_language() {
    for (answer, mark) in [
        ("Als Nächstes prüfe ich die Dosistabelle der Kim-Studie (TASK-DE).", "- (inferred, open task)"),
        ("Bước tiếp theo là kiểm tra bảng liều của nghiên cứu Kim (TASK-VI).", "- (inferred, open task)"),
        ("接下来我核对Kim研究的剂量表（TASK-ZH）。", "- (inferred, open task)"),
        ("Kim研究の用量表を確認する必要があります（TASK-JA）。", "- (inferred, open task)"),
        ("The dose table of the Kim trial still needs to be checked (TASK-EN).", "- (inferred, open task)"),
        ("Der Export aus Scopus ist dreimal fehlgeschlagen (FAIL-DE).", "- (inferred, failed)"),
        ("Tải dữ liệu từ Scopus ba lần đều thất bại (FAIL-VI).", "- (inferred, failed)"),
        ("Scopus导出这条路走不通 （FAIL-ZH）。", "- (inferred, failed)"),
        ("Scopusからの取得はうまくいかなかった（FAIL-JA）。", "- (inferred, failed)"),
        ("Ich tippe darauf, dass der Effekt bei Welpen kleiner ist (GUESS-DE).", "- (inferred, hypothesis, unverified)"),
        ("Tôi đoán hiệu quả ở chó con nhỏ hơn (GUESS-VI).", "- (inferred, hypothesis, unverified)"),
        ("我猜幼犬的效果更小（GUESS-ZH）。", "- (inferred, hypothesis, unverified)"),
        ("子犬では効果が小さいと思います（GUESS-JA）。", "- (inferred, hypothesis, unverified)"),
        ("My bet is that the effect is smaller in puppies (GUESS-EN).", "- (inferred, hypothesis, unverified)"),
        ("Der Effekt ist bei Welpen vielleicht größer (IDEA-DE).", "- (inferred, hypothesis, unverified)"),
        ("Möglicherweise kommt der Nutzen aus dem längeren Schlaf (IDEA-DE2).", "- (inferred, hypothesis, unverified)"),
        ("幼犬的获益也许比成年犬更大（IDEA-ZH）。", "- (inferred, hypothesis, unverified)"),
        ("子犬の方が成犬より効果が大きいのではないか（IDEA-JA）。", "- (inferred, hypothesis, unverified)"),
        ("Có lẽ hiệu quả lớn hơn ở chó con (IDEA-VI).", "- (inferred, hypothesis, unverified)"),
        // Round 13: French, Portuguese, Spanish, Turkish, Indonesian and Korean.
        ("J'ai lancé l'OCR sur le registre, mais ça ne marche pas (FAIL-FR).", "- (inferred, failed)"),
        ("Tentei o OCR no livro de registro e não funcionou (FAIL-PT).", "- (inferred, failed)"),
        ("Probé el OCR en el registro y no funcionó (FAIL-ES).", "- (inferred, failed)"),
        ("Taranmış defterde OCR denedim ama işe yaramadı (FAIL-TR).", "- (inferred, failed)"),
        ("Saya coba OCR pada buku register, tapi gagal (FAIL-ID).", "- (inferred, failed)"),
        ("스캔본에 OCR을 돌려 봤지만 이 방법은 통하지 않습니다 (FAIL-KO).", "- (inferred, failed)"),
        ("Une hypothèse à vérifier : le lazaret a perdu son autorité après 1848 (IDEA-FR).", "- (inferred, hypothesis, unverified)"),
        ("Talvez o lazareto tenha perdido autoridade depois de 1856 (IDEA-PT).", "- (inferred, hypothesis, unverified)"),
        ("Quizás el lazareto perdió autoridad después de 1856 (IDEA-ES).", "- (inferred, hypothesis, unverified)"),
        ("Meclisin otoritesi 1850'lerde zayıflamış olabilir (IDEA-TR).", "- (inferred, hypothesis, unverified)"),
        ("Ada satu kemungkinan: otoritas havenmeester melemah setelah 1886 (IDEA-ID).", "- (inferred, hypothesis, unverified)"),
        ("1883년 이후 검역 권한이 해관으로 넘어갔을 가능성이 있습니다 (IDEA-KO).", "- (inferred, hypothesis, unverified)"),
        ("Nous avons décidé de classer le chapitre par thème (PICK-FR).", "- (inferred, decision)"),
        ("Karar verdik: bölüm tematik olacak (PICK-TR).", "- (inferred, decision)"),
        ("장 구성은 주제별로 하기로 했습니다 (PICK-KO).", "- (inferred, decision)"),
        // Round 14: Italian, Russian, Polish, Arabic, Hindi and Dutch; a capital that opens the sentence.
        ("La ricerca nel catalogo OPAC non ha funzionato (FAIL-IT).", "- (inferred, failed)"),
        ("Не удалось открыть скан протокола заседания (FAIL-RU).", "- (inferred, failed)"),
        ("Wyszukiwanie w katalogu nie powiodło się (FAIL-PL).", "- (inferred, failed)"),
        ("حاولت البحث في الفهرس لكنه لم ينجح (FAIL-AR).", "- (inferred, failed)"),
        ("De export uit Scopus is mislukt (FAIL-NL).", "- (inferred, failed)"),
        ("Forse la clausola è stata copiata dal codice del 1865 (IDEA-IT).", "- (inferred, hypothesis, unverified)"),
        ("Возможно, норма заимствована из германского уложения (IDEA-RU).", "- (inferred, hypothesis, unverified)"),
        ("Być może przepis przejęto z kodeksu austriackiego (IDEA-PL).", "- (inferred, hypothesis, unverified)"),
        ("ربما نُقلت المادة من القانون الفرنسي (IDEA-AR).", "- (inferred, hypothesis, unverified)"),
        ("Shayad yeh clause French code se liya gaya hai (IDEA-HI).", "- (inferred, hypothesis, unverified)"),
        ("Abbiamo deciso di ordinare il capitolo per paese (PICK-IT).", "- (inferred, decision)"),
        ("Мы решили разбить главу по странам (PICK-RU).", "- (inferred, decision)"),
        ("Zdecydowaliśmy, że rozdział będzie tematyczny (PICK-PL).", "- (inferred, decision)"),
        ("Il prossimo passo è confrontare le due sentenze (TASK-IT).", "- (inferred, open task)"),
        ("Следующий шаг: сверить обе редакции статьи (TASK-RU).", "- (inferred, open task)"),
        ("Volgende stap: de twee uitspraken vergelijken (TASK-NL).", "- (inferred, open task)"),
    ] {
        let summary = extractive_summary(&two_turns("Go on.", answer));
        let tag = answer.split(['(', '（']).last().unwrap().split([')', '）']).next().unwrap();
        let lines: Vec<&str> = summary.lines().filter(|l| l.contains(tag)).collect();
        assert!(!lines.is_empty() && lines.iter().all(|l| l.starts_with(mark)), "{answer}: {summary}");
    }
}

/// Issue 40: "ama" is Turkish for "but" and "apa" Indonesian for "what"; a sentence with them states no
/// citation style (a Turkish deadline was filed as the style, and the next style did not replace it).
/// APA in capitals names the style, "apa style" and "ama 11" (with its edition) in any case.
#[test]
fn a_style_name_that_is_a_word_elsewhere_names_the_style_in_capitals_or_with_its_edition() {
    for (user, tag, is_style) in [
        ("Bölüm taslağını hocama 22 Haziran'a kadar göndermem lazım ama daha vakit var (TAG-TR).", "TAG-TR", false),
        ("Saya belum tahu apa isi arsip Leiden itu, nanti saya cek sendiri (TAG-ID).", "TAG-ID", false),
        ("The journal wants APA 7 for the whole manuscript now (TAG-EN).", "TAG-EN", true),
        ("Please put every reference in apa style from now on (TAG-EN2).", "TAG-EN2", true),
        ("final answer from the grad office: ama 11 for everything (TAG-EN3).", "TAG-EN3", true),
    ] {
        let summary = extractive_summary(&two_turns(user, "Noted."));
        let styled = summary.lines().any(|l| l.contains(tag) && l.starts_with("- (user, style)"));
        assert_eq!(styled, is_style, "{user}: {summary}");
    }
}

/// Issue 40, rule `news-of-an-idea-closes-it` for tasks: the assistant's report that an open task is
/// done names it by two words of a long line; two tokens only that task holds close it.
#[test]
fn a_report_naming_an_open_task_by_two_words_closes_it() {
    assert_reply_closes_only_the_line_it_names(
        ("I am writing a review on fasting in old dogs.", "Noted.", "go on", "any news?"),
        "I read the Kim cohort. Next I still need to pull the supplementary sleep diaries, the actigraphy exports and the adverse event listings of the Okafor trial for the extraction sheet (OPEN-EN).",
        "I read it. The crossover studies get a pool of their own (KEEP-EN).",
        "I looked again. The Okafor diaries are in (SHUT-EN).",
        "EN",
    );
}

// ---- Issue 34: the summary writes what needs judgment, and what later messages close ----

/// One compaction after every (user, assistant) step, each checkpoint folding the previous one; the
/// summaries in order.
fn compact_each_step(steps: &[(&str, &str)]) -> Vec<String> {
    compact_each_step_within(steps, 0)
}

/// `compact_each_step` with each summary request's `maxOutputTokens` set to `budget` (0: the model's).
fn compact_each_step_within(steps: &[(&str, &str)], budget: u64) -> Vec<String> {
    let mut nodes: Vec<Value> = Vec::new();
    let mut summaries = Vec::new();
    let mut parent: Option<String> = None;
    let mut previous: Option<String> = None;
    for (n, (user, assistant)) in steps.iter().enumerate() {
        nodes.push(json!({ "id": format!("U{n}"), "parentId": parent, "role": "user", "parts": [{ "type": "text", "text": user }] }));
        nodes.push(json!({ "id": format!("A{n}"), "parentId": format!("U{n}"), "role": "assistant", "parts": [{ "type": "text", "text": assistant }] }));
        let leaf = format!("A{n}");
        let session = session_of(nodes.clone(), &leaf);
        let ids = [format!("U{n}"), format!("A{n}")];
        let p = plan(&[ids[0].as_str(), ids[1].as_str()], None, previous.as_deref(), &leaf);
        let mut request = summary_request(&session, &p, &model(32_000, None)).unwrap();
        if budget > 0 {
            request.max_output_tokens = budget;
        }
        let summary = extractive_summary(&request);
        assert_eq!(validate_summary(&summary), Ok(()), "{summary}");
        let id = format!("C{n}");
        nodes.push(bibgenie_compaction::commit::checkpoint_node(&p, &summary, &request.ledger, &id).unwrap());
        summaries.push(summary);
        parent = Some(id.clone());
        previous = Some(id);
    }
    summaries
}

#[test]
fn a_goal_opening_like_a_question_is_the_goal() {
    let summaries = compact_each_step(&[("What I'm after, really, is how fasting changes ageing in old dogs (GOAL-W1).", "Understood.")]);
    assert!(section_of(&summaries[0], "Research Goal").contains("GOAL-W1"), "{}", summaries[0]);
}

#[test]
fn a_rule_reversed_twice_shows_only_its_newest_form() {
    let summaries = compact_each_step(&[
        ("I am writing a review on fasting in dogs.", "Understood."),
        ("Don't include preprints from medRxiv or bioRxiv in the search (RULE-1).", "Noted."),
        ("Hmm, the reviewer says include preprints from medRxiv and bioRxiv in the search after all (RULE-2).", "Noted."),
        ("Scratch that, no preprints from medRxiv or bioRxiv in the search, final answer (RULE-3).", "Noted."),
    ]);
    let last = summaries.last().unwrap();
    let constraints = section_of(last, "User Requirements and Constraints");
    assert!(constraints.contains("RULE-3"), "{last}");
    assert!(!last.contains("RULE-1") && !last.contains("RULE-2"), "a superseded rule is shown: {last}");
}

#[test]
fn a_task_done_and_a_hypothesis_rejected_are_closed_by_the_later_message() {
    let summaries = compact_each_step(&[
        ("I am writing a review on fasting in dogs.", "Still to do: extract the dose-response table from the Kim cohort paper (TASK-1). \
          I suspect the longevity effect is mediated by lower IGF-1 levels (HYP-1)."),
        ("go on", "I extracted the dose-response table from the Kim cohort paper; it is in the draft now."),
        ("and the IGF-1 thing?", "The Lee data show the longevity effect is not mediated by lower IGF-1 levels at all."),
    ]);
    let last = summaries.last().unwrap();
    assert!(!section_of(last, "Next Steps").contains("TASK-1"), "a done task is shown as open: {last}");
    assert!(section_of(last, "Research Progress").contains("(inferred, update) I extracted the dose-response table"), "{last}");
    assert!(!last.contains("HYP-1"), "a rejected hypothesis is shown as open: {last}");
    assert!(section_of(last, "Findings and Evidence").contains("(inferred, update) The Lee data show"), "{last}");
}

/// Issue 40: a reply names a line in inflected forms ("Abbruchrate", "koreanischer" for the task's
/// "Abbruchraten", "koreanischen"); a word is now known by its first seven letters, so the done task
/// is closed, and a line the reply does not name stays.
#[test]
fn a_reply_in_other_inflections_closes_the_line_it_names() {
    assert_reply_closes_only_the_line_it_names(
        ("Ich schreibe eine Übersicht über Fasten bei Hunden.", "Notiert.", "weiter", "und die Abbrüche?"),
        "Ich habe die Tabelle gelesen. Ich schulde dir noch die Prüfung der Abbruchraten in den zwei koreanischen Studien (OPEN-DE).",
        "Gelesen. Die Fastenkohorte der Beagle-Senioren bekommt einen eigenen Pool (KEEP-DE).",
        "Ich habe nachgesehen. Die Abbruchrate beider koreanischer Kohorten ist jetzt erledigt (SHUT-DE).",
        "DE",
    );
}

/// Issue 40: Vietnamese writes a space between syllables, and most of its words are two syllables of
/// under five letters, so its sentences had almost no content tokens and no reply closed a line (a
/// confirmed idea stayed shown as open, on every window). The pairs of syllables a space joins are
/// its tokens now; a line the reply does not name stays, and the upper and lower case of its letters
/// are one token.
#[test]
fn a_vietnamese_reply_closes_the_line_it_names_by_its_syllable_pairs() {
    assert_reply_closes_only_the_line_it_names(
        ("Tôi đang viết tổng quan về nhịn ăn ở chó.", "Đã ghi nhận.", "tiếp tục", "còn nhật ký thì sao?"),
        "Tôi đã đọc nghiên cứu của Kim. Một cách hiểu là lợi ích đến từ giấc ngủ bù vào ngày nghỉ (OPEN-VI).",
        "Đã đọc. Nhóm chó già nhịn ăn được gộp riêng (KEEP-VI).",
        "Tôi đã xem nhật ký. Nhật ký Ngày Nghỉ xác nhận giấc ngủ bù mang lại lợi ích (SHUT-VI).",
        "VI",
    );
}

/// Issue 40, rule `news-of-an-idea-closes-it`: the assistant's verdict on an open hypothesis names it
/// by one word of a long line (a Chinese line has a token per character pair, most of them not the
/// idea's); two tokens only that line holds close it, and a line the verdict does not name stays.
#[test]
fn a_verdict_naming_an_open_idea_by_one_word_closes_it() {
    assert_reply_closes_only_the_line_it_names(
        ("我在写一篇关于犬类禁食的综述，看禁食能不能延长老年犬的寿命。", "好的。", "继续", "分层结果呢？"),
        "我读了Kim的队列。小型犬的获益也许比大型犬更明显，因为它们的基础代谢率更高，而且骨骼生长板闭合得更早（OPEN-ZH）。",
        "读完了。交叉设计的试验单独合并（KEEP-ZH）。",
        "我看了分层表。小型犬和老年犬的效应量相同，这个想法不成立（SHUT-ZH）。",
        "ZH",
    );
    assert_reply_closes_only_the_line_it_names(
        ("I am writing a review on fasting in old dogs.", "Noted.", "go on", "and the strata?"),
        "I read the Kim cohort. Perhaps toy breeds gain more than giant ones, since their basal metabolic rate runs higher and their growth plates close earlier in life (OPEN-EN).",
        "I read it. The crossover trials get a pool of their own (KEEP-EN).",
        "I checked the strata table. Toy breeds and giant breeds show the same effect, so that is off the table (SHUT-EN).",
        "EN",
    );
}

/// Compacts a goal, `open` (an answer whose last sentence is filed), `other` and `reply`, one step each
/// (the user's `goal`, the answer to it, what the user says before `open` and `other`, and before
/// `reply`): `open` (tag `OPEN-<tag>`) is filed, then closed by `reply` (`SHUT-<tag>`), and `other`
/// (`KEEP-<tag>`), which the reply does not name, stays.
fn assert_reply_closes_only_the_line_it_names((goal, noted, go_on, ask): (&str, &str, &str, &str), open: &str, other: &str, reply: &str, tag: &str) {
    let summaries = compact_each_step(&[(goal, noted), (go_on, open), (go_on, other), (ask, reply)]);
    let [open_tag, shut_tag, keep_tag] = ["OPEN", "SHUT", "KEEP"].map(|t| format!("{t}-{tag}"));
    assert!(summaries[2].contains(&open_tag), "the line is filed: {}", summaries[2]);
    let last = summaries.last().unwrap();
    assert!(!last.contains(&open_tag) && last.contains(&shut_tag), "the closed line is still shown: {last}");
    assert!(last.contains(&keep_tag), "a line the reply does not name was closed: {last}");
}

/// Issue 40, rule `names-only-that-line`: a later answer that closes an earlier one in other words
/// shares fewer than half its words (`same-subject` missed it and the rejected idea stayed current),
/// but two words no other line holds name it; topic words every line has name nothing, and the
/// user's own lines still need `same-subject`. English, German, Japanese.
#[test]
fn a_reply_in_other_words_closes_the_line_it_alone_names() {
    // The user's rule is filed as a constraint in English and Japanese (their cue lists know "only",
    // "だけ"); in German it is only in the user's words, so it is checked where it is filed.
    for (open, other, reply, keep_user) in [
        (
            "I read the Kim cohort. One explanation is that the gain comes from ketone bodies in older animals (OPEN-EN).",
            "I read it. The fasting cohort of senior beagles gets a pool of its own (KEEP-EN).",
            "I checked the serum panels. Ketone levels stay flat, so that explanation is gone (SHUT-EN).",
            "Only fasting trials with senior beagles count (RULE-EN).",
        ),
        (
            "Ich habe die Kim-Kohorte gelesen. Eine Erklärung wäre, dass der Nutzen von Ketonkörpern bei älteren Tieren stammt (OPEN-DE).",
            "Gelesen. Die Fastenkohorte der Beagle-Senioren bekommt einen eigenen Pool (KEEP-DE).",
            "Ich habe die Blutwerte geprüft. Die Ketonkörpern bleiben gleich, die Erklärung fällt also weg (SHUT-DE).",
            "Nur Fastenstudien mit Beagle-Senioren zählen (RULE-DE).",
        ),
        (
            "Kimのコホートを読みました。効果は高齢の動物のケトン体によるものだという説明があります（OPEN-JA）。",
            "読みました。高齢ビーグルの絶食コホートは別に統合します（KEEP-JA）。",
            "血液検査を確認しました。ケトン体という説明は、値が変わらないので成り立ちません（SHUT-JA）。",
            "高齢ビーグルの絶食試験だけを数えてください（RULE-JA）。",
        ),
    ] {
        let summaries = compact_each_step(&[
            ("I am writing a review on fasting in dogs.", "Noted."),
            (keep_user, open),
            ("go on", other),
            ("and the serum data?", reply),
            // Shares the user's rule's two rarest words, and nothing else of it.
            ("go on", "The senior beagles in the next paper were younger than we thought."),
        ]);
        let last = summaries.last().unwrap();
        let tag = |t: &str| open[open.find(t).unwrap_or(0)..].chars().take(7).collect::<String>();
        assert!(!last.contains(&tag("OPEN-")), "an idea closed in other words is still shown: {last}");
        assert!(last.contains(&tag("OPEN-").replace("OPEN", "SHUT")), "{last}");
        assert!(last.contains(&tag("OPEN-").replace("OPEN", "KEEP")), "a line the reply does not name was closed: {last}");
        let rule = tag("OPEN-").replace("OPEN", "RULE");
        if !rule.ends_with("DE") {
            assert!(summaries[1].contains(&rule), "the user's rule is not filed: {}", summaries[1]);
            assert!(last.contains(&rule), "the user's rule was closed by an answer: {last}");
        }
    }
}

/// Rule `names-only-that-line` counts the naming words against the line closed: a short aside that
/// shares only a verb ending with it ("すみません" and "使えません") closes nothing.
#[test]
fn a_short_aside_closes_no_line_by_its_ending() {
    let summaries = compact_each_step(&[
        ("I am writing a review on fasting in dogs.", "Noted."),
        ("go on", "読みました。図書館経由の文献検索は二回とも空のページで、この方法は使えません（ROUTE-JA）。"),
        ("すみません、会議でした", "大丈夫です。"),
    ]);
    let last = summaries.last().unwrap();
    assert!(summaries[1].contains("ROUTE-JA"), "{}", summaries[1]);
    assert!(last.contains("ROUTE-JA") && !last.contains("(user, update)"), "an aside closed a line: {last}");
}

#[test]
fn a_retracted_key_is_shown_in_its_newest_word_only() {
    let summaries = compact_each_step(&[
        ("I am writing a review on fasting in dogs.", "Understood."),
        ("Build the argument on XK7P4M2Q, the Kim cohort (KEY-1).", "Will do."),
        ("forget XK7P4M2Q, it got retracted (KEY-2)", "Removed."),
    ]);
    let last = summaries.last().unwrap();
    assert!(last.contains("KEY-2") && !last.contains("KEY-1"), "{last}");
}

#[test]
fn table_rows_and_acknowledgements_are_not_state() {
    let summaries = compact_each_step(&[
        ("I am writing a review on fasting in dogs.", "| Kim 2021 | 412 dogs | pending |\n| Lee 2020 | 96 dogs | later |"),
        ("ok later", "Fine."),
    ]);
    let last = summaries.last().unwrap();
    assert_eq!(section_of(last, "Next Steps").trim(), "None.", "{last}");
}

// ---- Issue 40: assistant conclusions by structure, not by cue words ----

#[test]
fn an_answers_last_sentence_is_its_conclusion_in_any_language() {
    for (answer, kept, dropped) in [
        (
            "I read the three trials you sent. Their scales differ a lot. The two Danish cohorts go into a pool of their own (CONC-EN).",
            "(CONC-EN)",
            "Their scales differ",
        ),
        ("Ich habe die drei Studien gelesen. Die Skalen unterscheiden sich stark. Die dänischen Kohorten rechnen wir gesondert (CONC-DE).", "(CONC-DE)", "Skalen"),
        ("三つの試験を読みました。尺度がかなり違います。デンマークのコホートは別に統合します（CONC-JA）。", "CONC-JA", "尺度"),
        ("Tôi đã đọc ba thử nghiệm. Thang đo khác nhau nhiều. Hai đoàn hệ Đan Mạch được gộp riêng (CONC-VI).", "(CONC-VI)", "Thang đo"),
    ] {
        let summary = extractive_summary(&two_turns("Go on.", answer));
        let progress = section_of(&summary, "Research Progress");
        assert!(progress.lines().any(|l| l.starts_with("- (inferred, concluded)") && l.contains(kept)), "{kept}: {summary}");
        assert!(!summary.contains(dropped), "a middle sentence is not state: {summary}");
    }
    // A closing question is not a conclusion.
    let summary = extractive_summary(&two_turns("Go on.", "I read the three trials you sent. Shall I pool the Danish cohorts separately?"));
    assert!(!summary.contains("(inferred, concluded)"), "{summary}");
}

/// Issue 40, rule `conclusions-leave-the-users-room`: on a small budget the answers' concluded lines
/// filled the summary, and the room the registers take from it (the user's words, the cited pages)
/// was gone. They now take at most a third of the budget, the newest kept. English, German, Vietnamese.
#[test]
fn concluded_lines_take_at_most_a_third_of_a_small_budget() {
    use bibgenie_compaction::tokens::estimate_text;
    // Each answer a conclusion of its own: sentences that differ only by a number share their content
    // words (Vietnamese: their syllable pairs) and update the one before, as they should.
    for (language, conclude) in [
        ("en", "Arm {n} is out of the pool (C{n})."),
        ("de", "Arm {n} ist aus dem Pool raus (C{n})."),
        ("vi", "Nhánh {n} bị loại, theo bảng {n} (C{n})."),
    ] {
        let mut nodes = vec![json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "I am writing a review on fasting in dogs." }] })];
        let mut ids = vec!["U0".to_string()];
        let mut parent = "U0".to_string();
        for n in 10..70 {
            let answer = format!("I read it. {}", conclude.replace("{n}", &n.to_string()));
            nodes.push(json!({ "id": format!("A{n}"), "parentId": parent, "role": "assistant", "parts": [{ "type": "text", "text": answer }] }));
            nodes.push(json!({ "id": format!("U{n}"), "parentId": format!("A{n}"), "role": "user", "parts": [{ "type": "text", "text": "go on" }] }));
            ids.extend([format!("A{n}"), format!("U{n}")]);
            parent = format!("U{n}");
        }
        let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let mut request = summary_request(&session_of(nodes, &parent), &plan(&id_refs, None, None, &parent), &model(32_000, None)).unwrap();
        request.max_output_tokens = 600;
        let summary = extractive_summary(&request);
        let concluded: u64 = summary.lines().filter(|l| l.starts_with("- (inferred, concluded)")).map(estimate_text).sum();
        assert!(concluded > 0 && concluded <= 200, "{language}: concluded lines take {concluded} of 600 tokens: {summary}");
        assert!(summary.contains("(C69)") && !summary.contains("(C10)"), "{language}: the newest are kept: {summary}");
        assert!(summary.contains("- Left out"), "{language}: {summary}");
    }
}

/// Issue 40, rule `said-again-is-a-formula`: an answer that opens with the same sentence every time
/// ("I opened the PDF and checked the methods again.") filed that sentence as an update closing its
/// own earlier copy, a line of no state on every compaction. A sentence the summary already holds
/// word for word now closes and concludes nothing. English, German, Japanese.
#[test]
fn a_sentence_said_again_word_for_word_is_no_update() {
    for (formula, conclusion, tag) in [
        ("I opened the attached PDF and checked the methods section again.", "The kennel cohort goes into a pool of its own (FORM-EN).", "FORM-EN"),
        ("Ich habe das angehängte PDF geöffnet und den Methodenteil nochmals geprüft.", "Die Zwingerkohorte bekommt einen eigenen Pool (FORM-DE).", "FORM-DE"),
        ("添付のPDFを開いて方法の節をもう一度確認しました。", "犬舎のコホートは別に統合します（FORM-JA）。", "FORM-JA"),
    ] {
        let summaries = compact_each_step(&[
            ("I am writing a review on fasting in dogs.", formula),
            ("go on", &format!("{formula} {conclusion}")),
            ("next", formula),
        ]);
        let last = summaries.last().unwrap();
        assert!(!last.contains("(inferred, update)"), "a formula said again is filed as an update: {last}");
        assert_eq!(last.matches(formula).count(), 1, "{last}");
        assert!(last.contains(tag), "{last}");
    }
}

/// Issue 40, rule `said-again-is-a-formula`: a formula ("Here is the next paper.", a whole answer)
/// was filed once as a concluded line and kept its place when said again (in the same fold or a
/// later one), so on a small budget it outlived older conclusions said once. Said again, the line
/// now moves to the front, the first the budget leaves out. English, German, Japanese.
#[test]
fn a_conclusion_said_once_outlives_a_formula_said_again() {
    use bibgenie_compaction::tokens::estimate_text;
    const JA: [&str; 6] = [
        "犬舎のコホートは別に統合します", "高齢犬の試験は感度分析に回します", "断食期間は十二時間で揃えます",
        "体重の結果は副次評価項目にします", "獣医の記録は補足資料に載せます", "小型犬のデータは除外しました",
    ];
    for (formula, conclude) in [
        ("Here is the next paper.", "Arm {n} is out of the pool for good (C{n})."),
        ("Hier ist das nächste Paper.", "Arm {n} fliegt endgültig aus dem Pool (C{n})."),
        ("次の論文です。", "{ja}（C{n}）。"),
    ] {
        let conclusion = |n: usize| conclude.replace("{n}", &n.to_string()).replace("{ja}", JA[n % JA.len()]);
        // Said twice in one fold.
        let answers: Vec<String> = (10..16).map(conclusion).collect();
        let mut turns: Vec<(&str, &str)> = answers.iter().map(|a| ("go on", a.as_str())).collect();
        turns.extend([("next", formula), ("next", formula)]);
        let summary = fold_turns_within(&turns, 360);
        assert!(summary.contains("- Left out"), "the budget binds: {summary}");
        assert!(!summary.contains(formula) && summary.contains("C15") && summary.contains("C13"), "{summary}");
        // Held by the summary, said again in a later fold.
        let answers: Vec<String> = [10, 11].map(conclusion).into_iter().chain([formula.to_string()]).chain((12..15).map(conclusion)).collect();
        let last = format!("{formula}\n\n{}", conclusion(15));
        let mut steps: Vec<(&str, &str)> = answers.iter().map(|a| ("go on", a.as_str())).collect();
        steps.push(("next", &last));
        // A budget whose concluded third holds the lines before the last fold and no more.
        let held = &compact_each_step(&steps[..steps.len() - 1]).pop().unwrap();
        let concluded: u64 = held.lines().filter(|l| l.starts_with("- (inferred, concluded)")).map(estimate_text).sum();
        let summaries = compact_each_step_within(&steps, 3 * concluded + 2);
        let (before, after) = (&summaries[summaries.len() - 2], summaries.last().unwrap());
        assert!(before.contains(formula) && before.contains("C11"), "{before}");
        assert!(after.contains("- Left out"), "the budget binds: {after}");
        assert!(!after.contains(formula) && after.contains("C11") && after.contains("C15"), "{after}");
    }
}

/// One compaction folding the user's `messages` (each answered "Noted.") after a goal.
fn fold_user_messages(messages: &[&str]) -> String {
    fold_turns(&messages.iter().map(|m| (*m, "Noted.")).collect::<Vec<_>>())
}

/// One compaction folding `turns` (user, assistant) after a goal.
fn fold_turns(turns: &[(&str, &str)]) -> String {
    fold_turns_within(turns, 0)
}

/// `fold_turns` with the request's `maxOutputTokens` set to `budget` (0: the model's).
fn fold_turns_within(turns: &[(&str, &str)], budget: u64) -> String {
    let mut nodes = vec![json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "I am writing a review of fasting in dogs." }] })];
    nodes.push(json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [{ "type": "text", "text": "Noted." }] }));
    let mut ids = vec!["U0".to_string(), "A0".to_string()];
    for (n, (user, assistant)) in turns.iter().enumerate() {
        let n = n + 1;
        nodes.push(json!({ "id": format!("U{n}"), "parentId": format!("A{}", n - 1), "role": "user", "parts": [{ "type": "text", "text": user }] }));
        nodes.push(json!({ "id": format!("A{n}"), "parentId": format!("U{n}"), "role": "assistant", "parts": [{ "type": "text", "text": assistant }] }));
        ids.extend([format!("U{n}"), format!("A{n}")]);
    }
    let last = turns.len();
    nodes.push(json!({ "id": "UX", "parentId": format!("A{last}"), "role": "user", "parts": [{ "type": "text", "text": "Thanks." }] }));
    let ids: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut request = summary_request(&session_of(nodes, "UX"), &plan(&ids, Some("UX"), None, "UX"), &model(32_000, None)).unwrap();
    if budget > 0 {
        request.max_output_tokens = budget;
    }
    extractive_summary(&request)
}

/// Rule `retraction-closes-the-rule-it-names`: the user takes a rule back in words it shares with
/// only that rule; the rule goes, the user's other rule stays, the retraction is shown. Across
/// compactions (the rules are carried lines when the retraction comes).
#[test]
fn a_users_retraction_closes_the_rule_it_names() {
    for (rule, other, retraction) in [
        (
            "Only count trials with at least 60 participants (RULE-EN).",
            "Only use peer-reviewed journals (KEEP-EN).",
            "Forget what I said about participants, small pilots are welcome too (BACK-EN).",
        ),
        ("参加者60人以上の試験だけにしてください（RULE-JA）。", "査読付きの論文だけを使ってください（KEEP-JA）。", "参加者の人数の件は取り消します（BACK-JA）。"),
        ("只纳入样本量60人以上的试验（RULE-ZH）。", "只用同行评审的期刊论文（KEEP-ZH）。", "样本量那条作废吧，小型预试验也可以（BACK-ZH）。"),
    ] {
        let tag = |text: &str, t: &str| text[text.find(t).unwrap()..].chars().take(7).collect::<String>();
        let summaries = compact_each_step(&[
            ("I am writing a review on fasting in dogs.", "Noted."),
            (rule, "Noted."),
            (other, "Noted."),
            ("go on", "Here is the next paper."),
            (retraction, "Noted."),
        ]);
        let last = summaries.last().unwrap();
        assert!(summaries[3].contains(&tag(rule, "RULE-")), "the rule is not filed: {}", summaries[3]);
        assert!(!last.contains(&tag(rule, "RULE-")), "a retracted rule is still shown: {last}");
        assert!(last.contains(&tag(other, "KEEP-")), "a rule not named was closed: {last}");
        assert!(last.contains(&tag(retraction, "BACK-")), "the retraction is not shown: {last}");
    }
}

/// A retraction that names nothing ("scratch that") takes back the one rule the user's previous
/// message stated; when that message stated two, it takes back neither (which one is not said).
#[test]
fn a_retraction_naming_nothing_closes_the_rule_it_replies_to_only_when_there_is_one() {
    for (older, rule, second, retraction) in [
        ("Only use peer-reviewed journals (KEEP-EN).", "Only trials published from 2015 on (RULE-EN).", "Only reports written in English (TWO-EN).", "Scratch that one please (BACK-EN)."),
        ("査読付きの論文だけを使ってください（KEEP-JA）。", "2015年以降の試験だけにしてください（RULE-JA）。", "英文の報告だけ（TWO-JA）。", "やっぱりそれは取り消しで（BACK-JA）。"),
        ("只用同行评审的期刊论文（KEEP-ZH）。", "只纳入2015年以后的试验（RULE-ZH）。", "只要英文报告（TWO-ZH）。", "刚才那条不要了（BACK-ZH）。"),
    ] {
        let tag = |text: &str, t: &str| text[text.find(t).unwrap()..].chars().take(7).collect::<String>();
        let one = fold_user_messages(&[older, rule, retraction]);
        assert!(!one.contains(&tag(rule, "RULE-")), "the rule replied to is still shown: {one}");
        assert!(one.contains(&tag(older, "KEEP-")), "an earlier rule was closed: {one}");
        assert!(one.contains(&tag(retraction, "BACK-")), "{one}");
        let two = fold_user_messages(&[older, &format!("{rule}{}{second}", if rule.is_ascii() { " " } else { "" }), retraction]);
        assert!(two.contains(&tag(rule, "RULE-")) && two.contains(&tag(second, "TWO-")), "an ambiguous retraction closed a rule: {two}");
    }
    // Said alone, a retraction is shorter than any other state, and still one.
    for (rule, retraction) in [("Only trials published from 2015 on (RULE-EN).", "scratch that"), ("2015年以降の試験だけにしてください（RULE-JA）。", "取り消しで"), ("只纳入2015年以后的试验（RULE-ZH）。", "不要了吧")] {
        let summary = fold_user_messages(&["Only use peer-reviewed journals (KEEP).", rule, retraction]);
        let tag = &rule[rule.find("RULE-").unwrap()..][..7];
        assert!(!summary.contains(tag) && summary.contains(retraction) && summary.contains("(KEEP)"), "{summary}");
    }
    // A word that holds a cue, or a paper retracted by its journal, takes nothing back.
    for (rule, said) in [
        ("只纳入2015年以后的试验（RULE-ZH）。", "我计算了每组的效应量，请看一下。"),
        ("只纳入2015年以后的试验（RULE-ZH）。", "这篇论文已经被期刊撤回了。"),
        ("2015年以降の試験だけにしてください（RULE-JA）。", "この論文は雑誌によって撤回されました。"),
        ("Only trials published from 2015 on (RULE-EN).", "The 2009 reporting guideline no longer applies to these trials."),
    ] {
        let summary = fold_user_messages(&["Only use peer-reviewed journals (KEEP).", rule, said]);
        let tag = &rule[rule.find("RULE-").unwrap()..][..7];
        assert!(summary.contains(tag), "{said:?} closed the rule: {summary}");
    }
}

/// Rule `each-paragraph-ends-with-its-conclusion`: an answer that makes two points, each in its own
/// paragraph, has both conclusions written (only the answer's last sentence was); the sentences
/// before them and the opening line are not state.
#[test]
fn an_answers_second_paragraph_conclusion_is_written_too() {
    for (answer, dropped) in [
        (
            "I read the two trials you sent.\n\nThe Kim trial blinded its raters. Its crossover arm goes into a pool of its own (ONE-EN).\n\nThe Lee trial reported medians. Its data stay in the narrative part (TWO-EN).",
            "blinded",
        ),
        (
            "Ich habe die zwei Studien gelesen.\n\nDie Kim-Studie hat verblindet. Ihr Crossover-Arm kommt in einen eigenen Pool (ONE-DE).\n\nDie Lee-Studie berichtet Mediane. Ihre Daten bleiben im narrativen Teil (TWO-DE).",
            "verblindet",
        ),
        (
            "二つの試験を読みました。\n\nKim試験は評価者を盲検化しています。そのクロスオーバー群は別に統合します（ONE-JA）。\n\nLee試験は中央値を報告しています。そのデータは記述的な部分に残します（TWO-JA）。",
            "盲検化",
        ),
    ] {
        let summary = extractive_summary(&two_turns("Go on.", answer));
        let concluded: Vec<&str> = summary.lines().filter(|l| l.starts_with("- (inferred, concluded)")).collect();
        for tag in ["ONE-", "TWO-"] {
            assert!(concluded.iter().any(|l| l.contains(tag)), "{tag}: {summary}");
        }
        assert_eq!(concluded.len(), 2, "{summary}");
        assert!(!summary.contains(dropped), "a paragraph's first sentence is not state: {summary}");
    }
}

/// Rule `closed-stays-closed`: a hypothesis rejected in other words (`names-only-that-line`) stays
/// rejected when a later plan in the same fold shares the rejection's term; the later sentence is no
/// news of it.
#[test]
fn a_later_plan_sharing_a_term_does_not_close_a_rejection() {
    for (open, shut, later) in [
        (
            "I read the Kim cohort. One explanation is that the gain comes from ketone bodies in older animals (OPEN-EN).",
            "I checked the serum panels. Ketone levels stay flat, so that explanation is gone (SHUT-EN).",
            "Afterwards I plot the ketone levels by age group (NEXT-EN).",
        ),
        (
            "Ich habe die Kim-Kohorte gelesen. Eine Erklärung wäre, dass der Nutzen von Ketonkörpern bei älteren Tieren stammt (OPEN-DE).",
            "Ich habe die Blutwerte geprüft. Die Ketonkörpern bleiben gleich, die Erklärung fällt also weg (SHUT-DE).",
            "Danach zeichne ich die Ketonkörpern und was gleich bleibt nach Altersgruppe (NEXT-DE).",
        ),
        (
            "Kimのコホートを読みました。効果は高齢の動物のケトン体によるものだという説明があります（OPEN-JA）。",
            "血液検査を確認しました。ケトン体という説明は、値が変わらないので成り立ちません（SHUT-JA）。",
            "その後で、ケトン体という説明の図を年齢別に作ります（NEXT-JA）。",
        ),
    ] {
        let tag = |text: &str, t: &str| text[text.find(t).unwrap()..].chars().take(7).collect::<String>();
        // In one fold: the rejection is a line the same summary wrote.
        let shut_only = fold_turns(&[("go on", open), ("and the serum data?", shut)]);
        assert!(!shut_only.contains(&tag(open, "OPEN-")) && shut_only.contains(&tag(shut, "SHUT-")), "not rejected: {shut_only}");
        let last = fold_turns(&[("go on", open), ("and the serum data?", shut), ("go on", later)]);
        assert!(last.contains(&tag(shut, "SHUT-")), "a later plan closed the rejection: {last}");
        assert!(last.contains(&tag(later, "NEXT-")), "{last}");
    }
}

/// Japanese assistants write politely: "うまくいきませんでした" and "できませんでした" are the failures
/// that the plain "うまくいかない" and "できなかった" name, and "ことにしました" a decision.
#[test]
fn polite_japanese_failures_and_decisions_are_filed() {
    let summary = extractive_summary(&two_turns(
        "続けてください。",
        "腸組織1グラムあたりに換算する案はうまくいきませんでした（FAIL-A）。\n\n台帳の自動照合もできませんでした（FAIL-B）。\n\n組織病理は記述的にまとめることにしました（DECIDE）。\n\n以上です。",
    ));
    for tag in ["FAIL-A", "FAIL-B"] {
        assert!(summary.lines().any(|l| l.starts_with("- (inferred, failed)") && l.contains(tag)), "{tag}: {summary}");
    }
    assert!(summary.lines().any(|l| l.starts_with("- (inferred, decision)") && l.contains("DECIDE")), "{summary}");
}

// ---- Issue 40, round 13: claims keep their pages, pages put right, verdicts settle ideas ----

/// Rule `a-locator-is-inside-its-sentence`: an answer that cites "(KEY, pp. 227–230)" keeps the
/// claim, its key and its page on one line, whatever the abbreviation of the language.
#[test]
fn a_claim_keeps_its_key_and_page_on_one_line() {
    for (claim, key, page) in [
        ("I read Lindqvist. Lindqvist puts the Senate's delay at six days (JGRAE8XC, pp. 227–230) (FIND-EN).", "JGRAE8XC", "pp. 227–230"),
        ("Saya baca. Van der Linde menghitung keterlambatan enam hari (FQICHTY6, hlm. 358–361) (FIND-ID).", "FQICHTY6", "hlm. 358–361"),
        ("Gelesen. Der Senat zögerte sechs Tage, so Lindqvist (JGRAE8XC, S. 57) (FIND-DE).", "JGRAE8XC", "S. 57"),
    ] {
        let summary = fold_turns(&[("go on", claim)]);
        let tag = &claim[claim.find("(FIND-").unwrap()..][..8];
        assert!(summary.lines().any(|l| l.contains(key) && l.contains(page) && l.contains(tag)), "{tag}: {summary}");
    }
}

/// Rule `a-page-put-right-replaces-the-claim`: the user puts a claim's page right, by a negation and
/// a word of the claim or by a correction word; the claim is shown once, at the user's page. Another
/// claim on the same key stays; a correction that names two claims of the key alike replaces neither;
/// a user citing another page of the key without putting anything right replaces nothing.
#[test]
fn a_page_the_user_puts_right_replaces_the_claim() {
    let claim = "I read Lindqvist. Lindqvist puts the Hamburg Senate's delay at six days (JGRAE8XC, pp. 227–230) (FIND-1).";
    let other = "I read further. The water supply came from one standpipe (JGRAE8XC, p. 412) (KEEP-1).";
    let fold = |steps: &[(&str, &str)]| {
        let mut all = vec![("I am writing a thesis on port quarantine.", "Noted.")];
        all.extend_from_slice(steps);
        compact_each_step(&all).pop().unwrap()
    };
    let negation = "small thing, the Hamburg delay is on pp. 374–375 of JGRAE8XC, not where you had it (FIX-1)";
    let last = fold(&[("go on", claim), ("go on", other), (negation, "Thanks, noted.")]);
    assert!(!last.contains("FIND-1") && last.contains("FIX-1") && last.contains("KEEP-1"), "{last}");
    let correction = "koreksi kecil: telat enam hari itu ada di hlm. 374–375 di JGRAE8XC (FIX-2)";
    let last = fold(&[("go on", claim), (correction, "Thanks, noted.")]);
    assert!(!last.contains("FIND-1") && last.contains("FIX-2"), "{last}");
    let last = fold(&[("go on", claim), ("go on", other), (correction, "Thanks, noted.")]);
    assert!(last.contains("FIND-1") && last.contains("KEEP-1") && last.contains("FIX-2"), "named alike, neither goes: {last}");
    let last = fold(&[("go on", claim), ("JGRAE8XC also has the Senate's minutes on p. 88 (NEW-1)", "Noted.")]);
    assert!(last.contains("FIND-1") && last.contains("NEW-1"), "{last}");
    // Two keys and one page: whose page it is, the sentence does not say.
    let second = "I read Evans too. Evans finds the same delay in Altona (K7Q2M4PX, p. 12) (KEEP-2).";
    let two = "the Hamburg delay is not what I want from JGRAE8XC any more, K7Q2M4PX has the Senate's minutes on p. 90 (TWO-1)";
    let last = fold(&[("go on", claim), ("go on", second), (two, "Noted.")]);
    assert!(last.contains("FIND-1") && last.contains("KEEP-2") && last.contains("TWO-1"), "{last}");
}

/// Rule `a-verdict-settles-its-idea`: a verdict names the idea it settles by one of its words ("the
/// railway explanation doesn't hold up", too few for `names-only-that-line`); it takes that idea's
/// place, and the other open idea stays. A verdict naming two ideas alike settles neither.
#[test]
fn a_verdict_settles_the_idea_it_names() {
    for (open, other, verdict) in [
        (
            "I read Reyner. One possibility worth testing: the Marseille lazaret lost its grip after 1849 because the railway to Lyon made long quarantines impossible (OPEN-EN).",
            "I read it. Perhaps the merchants on the board shaped the tariffs more than the prefect did (KEEP-EN).",
            "I checked the minutes. The railway explanation doesn't hold up: the Intendance's powers were widened in 1850 (SHUT-EN).",
        ),
        (
            "J'ai lu Reyner. Une hypothèse à vérifier : le lazaret aurait perdu son autorité après l'arrivée du chemin de fer en 1848 (OPEN-FR).",
            "Lu. Peut-être que les négociants de l'Intendance ont fixé les droits sanitaires (KEEP-FR).",
            "J'ai vérifié. L'explication par le chemin de fer ne tient pas : les pouvoirs ont été élargis en 1850 (SHUT-FR).",
        ),
    ] {
        let summaries = compact_each_step(&[
            ("I am writing a thesis on port quarantine.", "Noted."),
            ("go on", open),
            ("go on", other),
            ("and?", verdict),
        ]);
        let tag = |text: &str, t: &str| text[text.find(t).unwrap()..].chars().take(7).collect::<String>();
        assert!(summaries[2].contains(&tag(open, "OPEN-")) && summaries[2].contains("(inferred, hypothesis"), "{}", summaries[2]);
        let last = summaries.last().unwrap();
        assert!(!last.contains(&tag(open, "OPEN-")), "not settled: {last}");
        assert!(last.lines().any(|l| l.starts_with("- (inferred, settled)") && l.contains(&tag(verdict, "SHUT-"))), "{last}");
        assert!(last.contains(&tag(other, "KEEP-")), "{last}");
    }
    let (open, other) = (
        "I read Reyner. Perhaps the railway to Lyon weakened the lazaret (OPEN-2).",
        "I read it. Perhaps the merchants on the board set the tariffs (KEEP-2).",
    );
    let verdict = "I checked. The railway claim doesn't hold up, the board kept its powers (SHUT-2).";
    let last = compact_each_step(&[("I am writing a thesis on port quarantine.", "Noted."), ("go on", open), ("go on", other), ("and?", verdict)]).pop().unwrap();
    assert!(last.contains("OPEN-2") && last.contains("KEEP-2"), "a verdict naming two ideas alike settled one: {last}");
}

/// Rule `a-task-reported-done-closes-it`: the user's report that a task is done names it by fewer
/// words than `same-subject` needs ("finished the transcription" of "transcribe the 1887 letters");
/// the open task goes, the report is shown, and the other open task stays.
#[test]
fn a_task_reported_done_closes_the_task_it_names() {
    for (task, other, done) in [
        (
            "remember to transcribe the 1887 letters myself, no tool reads that hand (TASK-EN)",
            "remember to ask the librarian about the chamber of commerce papers later (KEEP-EN)",
            "Finished the transcription at last, 36 pages of 1887 (DONE-EN)",
        ),
        (
            "ainda preciso transcrever eu mesma os ofícios de 1887, são manuscritos (TASK-PT)",
            "ainda falta pedir à bibliotecária os papéis da Associação Comercial (KEEP-PT)",
            "TERMINEI de transcrever os ofícios, 36 páginas (DONE-PT)",
        ),
    ] {
        let summaries = compact_each_step(&[
            ("I am writing a thesis on port quarantine.", "Noted."),
            (task, "Noted."),
            (other, "Noted."),
            (done, "Great, noted."),
        ]);
        let tag = |text: &str| text[text.rfind('(').unwrap() + 1..text.rfind(')').unwrap()].to_string();
        assert!(summaries[2].contains(&tag(task)) && summaries[2].contains("(user, open task)"), "{}", summaries[2]);
        let last = summaries.last().unwrap();
        assert!(!last.contains(&tag(task)) && last.contains(&tag(done)) && last.contains(&tag(other)), "{last}");
    }
}

/// Round 13: a style named by a national standard or in the user's language is the style, and a newer
/// one that names only its notes ("footnotes", "notes de bas de page") replaces it: a style filed by
/// its name must be replaceable by one without. A single footnote asked for is no style.
#[test]
fn a_note_style_without_a_name_replaces_a_named_one() {
    for (named, notes) in [
        ("for the references: ISO 690, the doctoral school wants it (STYLE-1)", "the journal wants footnotes the old way, with op. cit. and ibid., so we switch to that (STYLE-2)"),
        ("pour les références : norme ISO 690, c'est ce que demande l'école doctorale (STYLE-1)", "la revue veut des notes de bas de page à l'ancienne, donc on passe à ça (STYLE-2)"),
        ("referências no padrão ABNT (NBR 6023), é o que o programa exige (STYLE-1)", "a revista pede notas de rodapé, então muda tudo (STYLE-2)"),
    ] {
        let summaries = compact_each_step(&[
            ("I am writing a thesis on port quarantine.", "Noted."),
            (named, "Noted."),
            ("add a footnote about the 1866 report to chapter two (NOTE-1)", "Noted."),
            (notes, "Noted."),
        ]);
        assert!(summaries[2].lines().any(|l| l.starts_with("- (user, style)") && l.contains("STYLE-1")), "{}", summaries[2]);
        let last = summaries.last().unwrap();
        assert!(!last.contains("STYLE-1") && last.lines().any(|l| l.starts_with("- (user, style)") && l.contains("STYLE-2")), "{last}");
    }
}

/// The extractive summary of `steps` (a user message and the answer to it, each) compacted in one fold.
fn summary_of_one_fold(steps: &[(&str, &str)]) -> String {
    let mut nodes: Vec<Value> = Vec::new();
    let mut ids: Vec<String> = Vec::new();
    for (n, (user, assistant)) in steps.iter().enumerate() {
        let parent = ids.last().cloned();
        nodes.push(json!({ "id": format!("U{n}"), "parentId": parent, "role": "user", "parts": [{ "type": "text", "text": user }] }));
        nodes.push(json!({ "id": format!("A{n}"), "parentId": format!("U{n}"), "role": "assistant", "parts": [{ "type": "text", "text": assistant }] }));
        ids.extend([format!("U{n}"), format!("A{n}")]);
    }
    let leaf = ids.last().unwrap().clone();
    let session = session_of(nodes, &leaf);
    let summarized: Vec<&str> = ids.iter().map(String::as_str).collect();
    let request = summary_request(&session, &plan(&summarized, None, None, &leaf), &model(128_000, None)).unwrap();
    let summary = extractive_summary(&request);
    assert_eq!(validate_summary(&summary), Ok(()), "{summary}");
    summary
}

/// Issue 40, rule `said-in-a-frame-is-routine`: an answer's last sentence said in the frame of many
/// answers, with only a name or a number changed ("Found 3 records; the first is Lee 2019.", "Tell me
/// if you need more detail."), filled the summary's concluded lines; a conclusion in words of its own
/// is still filed. English and Russian.
#[test]
fn a_sentence_in_the_frame_of_many_answers_concludes_nothing() {
    let sessions: [(&str, [&str; 2], &str, &str, &str); 2] = [
        ("I am writing a chapter on pre-contractual liability.", ["Found {n} records; the first is {t}.", "Tell me whenever you need more detail."],
         "I tried to OCR the pale 1975 scan, but the output is unreadable garbage, so that copy is a dead end OWN-EN.", "records", "FRAME-EN"),
        ("Я пишу главу о преддоговорной ответственности.", ["Найдено записей: {n}; первая — {t}.", "Скажите, если нужно подробнее."],
         "Я попробовал распознать бледный скан 1975 года, но OCR выдаёт сплошной мусор, так что этот путь закрыт OWN-RU.", "записей", "FRAME-RU"),
    ];
    // A name of one word: a name and a year would be two words of the sentence's own, which the rule
    // keeps (a conclusion in the session's words has as few).
    let titles = ["Cartwright", "Karapetov", "Sarbash", "Ioffe", "Polyakova"];
    for (goal, [report, closing], own, frame_word, tag) in sessions {
        let mut steps: Vec<(String, String)> = vec![(goal.to_string(), "Noted.".to_string())];
        for (n, title) in titles.iter().enumerate() {
            let report = report.replace("{n}", &(n + 2).to_string()).replace("{t}", title);
            steps.push((format!("{title}?"), format!("{report}\n\n{closing} {tag}")));
            if n == 2 {
                steps.push(("and the scan?".to_string(), format!("{report}\n\n{own}")));
            }
        }
        let steps: Vec<(&str, &str)> = steps.iter().map(|(u, a)| (u.as_str(), a.as_str())).collect();
        let summary = summary_of_one_fold(&steps);
        let own_tag = own.split_whitespace().last().unwrap();
        assert!(summary.contains(own_tag), "a conclusion in words of its own is not filed: {summary}");
        assert!(!summary.contains(tag) && !summary.contains(frame_word), "a sentence in the frame of many answers is filed: {summary}");
    }
}

/// Issue 40, rule `a-sign-off-concludes-nothing`: an answer whose paragraph ends with a sign-off in
/// the frame of many answers ("Tell me whenever you need more detail.") concludes with the sentence
/// before it, which was read as a sentence on the way and never filed. English and Russian.
#[test]
fn a_sign_off_leaves_the_conclusion_before_it() {
    let sessions: [(&str, [&str; 2], &str); 2] = [
        ("I am writing a chapter on pre-contractual liability.", ["Found {n} records; the first is {t}.", "Tell me whenever you need more detail."],
         "The case table now runs by date rather than by court, so the shift after 2015 shows OWN-EN."),
        ("Я пишу главу о преддоговорной ответственности.", ["Найдено записей: {n}; первая — {t}.", "Скажите, если нужно подробнее."],
         "Таблицу судебных актов я веду по дате, а не по инстанции, так видна эволюция после 2015 года OWN-RU."),
    ];
    let titles = ["Cartwright", "Karapetov", "Sarbash", "Ioffe", "Polyakova"];
    for (goal, [report, closing], own) in sessions {
        let mut steps: Vec<(String, String)> = vec![(goal.to_string(), "Noted.".to_string())];
        for (n, title) in titles.iter().enumerate() {
            let report = report.replace("{n}", &(n + 2).to_string()).replace("{t}", title);
            let answer = if n == 2 { format!("{report} {own} {closing}") } else { format!("{report} {closing}") };
            steps.push((format!("{title}?"), answer));
        }
        let steps: Vec<(&str, &str)> = steps.iter().map(|(u, a)| (u.as_str(), a.as_str())).collect();
        let summary = summary_of_one_fold(&steps);
        assert!(summary.contains(&format!("- (inferred, concluded) {own}")), "the conclusion before the sign-off is not filed: {summary}");
        assert!(!summary.contains(closing), "the sign-off is filed: {summary}");
    }
}

/// Issue 40, rule `said-in-a-frame-is-routine`: the user's request in the frame of many ("find what I
/// have on «X»") shared its topic words with the user's decision and replaced it as an update (rule
/// `later-message-closes`); a request changes no rule. A statement in words of its own still does.
#[test]
fn a_request_in_the_frame_of_many_leaves_the_users_decision() {
    let topics = ["late breaking off", "parallel negotiations", "disclosure of confidential information", "reliance damages"];
    let mut steps: Vec<(String, String)> = vec![
        ("I am writing a chapter on pre-contractual liability.".to_string(), "Noted.".to_string()),
        ("let's organise the chapter around typical situations: late breaking off, parallel negotiations, disclosure of confidential information DEC-1".to_string(), "Agreed.".to_string()),
    ];
    for round in 0..3 {
        for topic in topics {
            steps.push((format!("find what I have on «{topic}»"), format!("Here is what I found on {topic} ({round}).")));
        }
    }
    let borrowed: Vec<(&str, &str)> = steps.iter().map(|(u, a)| (u.as_str(), a.as_str())).collect();
    let summary = summary_of_one_fold(&borrowed);
    assert!(section_of(&summary, "Decisions").contains("DEC-1"), "a request replaced the decision: {summary}");
    steps.push(("the typical situations late breaking off, parallel negotiations and disclosure of confidential information share one section now".to_string(), "Done.".to_string()));
    let borrowed: Vec<(&str, &str)> = steps.iter().map(|(u, a)| (u.as_str(), a.as_str())).collect();
    let summary = summary_of_one_fold(&borrowed);
    assert!(!summary.contains("DEC-1"), "a statement in words of its own no longer replaces the decision: {summary}");
}

#[test]
fn a_date_said_of_the_deadline_moves_it() {
    let deadline_of = |user: &str| {
        let constraints = section_of(&extractive_summary(&two_turns(user, "Fine.")), "User Requirements and Constraints");
        constraints.lines().filter(|l| l.starts_with("- (user, deadline)")).map(str::to_string).collect::<Vec<_>>()
    };
    // Moved without a deadline word: a date, and a word the deadline holds.
    assert_eq!(
        deadline_of("The draft is due to my supervisor on 14 March. She is away, so the draft has to reach her earlier: the 3rd of March at the latest."),
        ["- (user, deadline) She is away, so the draft has to reach her earlier: the 3rd of March at the latest."]
    );
    assert_eq!(
        deadline_of("La scadenza della bozza del capitolo è il 4 giugno. Il relatore parte e mi ha anticipato la consegna della bozza al 12/5."),
        ["- (user, deadline) Il relatore parte e mi ha anticipato la consegna della bozza al 12/5."]
    );
    assert_eq!(
        deadline_of("Крайний срок сдачи черновика руководителю: 4 июня. Руководитель уезжает, теперь до 12.05."),
        ["- (user, deadline) Руководитель уезжает, теперь до 12.05."]
    );
    // A day beside a month's name in another language.
    assert_eq!(
        deadline_of("Крайний срок сдачи черновика руководителю: 4 июня. Руководитель уезжает, черновик теперь нужен к 12 мая."),
        ["- (user, deadline) Руководитель уезжает, черновик теперь нужен к 12 мая."]
    );
    // Not a date (a page range, a decimal), not a word of the deadline's, or a question: it stays.
    for other in [
        "The draft cites pp. 3-7 of the Kim paper, where the draft effect was 3.5 times larger.",
        "I read the Kim paper on 12/5 and liked it.",
        "Could the draft reach her by 3/3?",
        "The draft may need 2 more weeks of work.",
    ] {
        assert_eq!(
            deadline_of(&format!("The draft is due to my supervisor on 14 March. {other}")),
            ["- (user, deadline) The draft is due to my supervisor on 14 March."],
            "{other}"
        );
    }
}

#[test]
fn a_russian_verdict_in_either_aspect_settles_its_idea() {
    let findings = section_of(
        &extractive_summary(&two_turns(
            "Что с корпоративными сделками?",
            "Возможная гипотеза: после Пленума № 7 суды начнут применять ст. 434.1 к переговорам о корпоративных сделках.\n\n\
             Практика после 2016 года этого не подтверждает: к корпоративным сделкам суды ст. 434.1 не применяют.",
        )),
        "Findings and Evidence",
    );
    assert!(findings.contains("- (inferred, settled) Практика после 2016 года этого не подтверждает"), "{findings}");
    assert!(!findings.contains("Возможная гипотеза"), "the idea it settles is not shown as open: {findings}");
}

/// Issue 40: a request to format items for the notes names the notes, as a note style does, and the
/// items. It is no style: the style the user set (here by a legal style's name) stays the style. Notes
/// named with no item, or with one word of a title (a journal's own style), still set the style.
#[test]
fn formatting_items_keeps_the_style() {
    let style_after = |request_text: &str| {
        let search = json!([
            { "key": "RGLN2345", "data": { "key": "RGLN2345", "itemType": "case", "caseName": "Regalian Properties plc v London Docklands Development Corporation" } },
            { "key": "CBBE6789", "data": { "key": "CBBE6789", "itemType": "case", "caseName": "Yeoman's Row Management Ltd v Cobbe" } },
            { "key": "NNLS2345", "data": { "key": "NNLS2345", "itemType": "book", "title": "Annales d'hygiène publique et de médecine légale" } },
        ]);
        let nodes = vec![
            json!({ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "I am writing a chapter on pre-contractual liability." }] }),
            json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [
                { "type": "tool-zoteroSearch", "toolCallId": "c1", "state": "output-available", "input": { "q": "reliance" }, "output": search },
                { "type": "text", "text": "Two cases." }] }),
            json!({ "id": "U2", "parentId": "A1", "role": "user", "parts": [{ "type": "text", "text": "Back to the house style: OSCOLA, but without ibid." }] }),
            json!({ "id": "A2", "parentId": "U2", "role": "assistant", "parts": [{ "type": "text", "text": "Fine." }] }),
            json!({ "id": "U3", "parentId": "A2", "role": "user", "parts": [{ "type": "text", "text": request_text }] }),
            json!({ "id": "A3", "parentId": "U3", "role": "assistant", "parts": [{ "type": "text", "text": "Here they are." }] }),
            json!({ "id": "U4", "parentId": "A3", "role": "user", "parts": [{ "type": "text", "text": "Thanks." }] }),
        ];
        let plan = plan(&["U1", "A1", "U2", "A2", "U3", "A3"], Some("U4"), None, "U4");
        let summary = extractive_summary(&summary_request(&session_of(nodes, "U4"), &plan, &model(32_000, None)).unwrap());
        section_of(&summary, "User Requirements and Constraints").lines().filter(|l| l.starts_with("- (user, style)")).map(str::to_string).collect::<Vec<_>>()
    };
    for request in ["format Regalian and Cobbe for the footnotes", "Regalian aur Cobbe ko footnotes ke liye format kar do", "оформите «Regalian» и «Cobbe» для сноски"] {
        assert_eq!(style_after(request), ["- (user, style) Back to the house style: OSCOLA, but without ibid."], "{request}");
    }
    for style in ["Footnotes from now on, please, not author-date.", "The Annales du Midi want their own protocol, with footnotes, so we switch to it."] {
        assert_eq!(style_after(style), [format!("- (user, style) {style}")]);
    }
}

/// Rule `later-message-closes` within one fold: the messages are filed in the order they were said,
/// so the user's word on an answer's plan in the same history closes it (the user's messages were
/// all filed before the answers, and closed nothing of theirs).
#[test]
fn a_later_message_in_the_same_fold_closes_an_answers_line() {
    let history = [
        ("user", "I am writing a review of fasting in dogs."),
        ("assistant", "Still to do: the dose-response table of the Kim cohort (TASK-1)."),
        ("user", "the dose-response table is in my draft now (REPORT-1)"),
        ("assistant", "Good."),
        ("user", "Thanks."),
    ];
    let mut nodes = Vec::new();
    for (n, (role, text)) in history.iter().enumerate() {
        let parent = n.checked_sub(1).map(|p| format!("M{p}"));
        nodes.push(json!({ "id": format!("M{n}"), "parentId": parent, "role": role, "parts": [{ "type": "text", "text": text }] }));
    }
    let request = summary_request(&session_of(nodes, "M4"), &plan(&["M0", "M1", "M2", "M3"], Some("M4"), None, "M4"), &model(32_000, None)).unwrap();
    let summary = extractive_summary(&request);
    assert!(!summary.contains("TASK-1") && summary.contains("(user, update) the dose-response table is in my draft now (REPORT-1)"), "{summary}");
}

/// Rule `news-from-either-side`: an open task waits for news whoever gives it. The user's statement
/// names the answer's long plan by two words only it holds; an answer's conclusion names the user's
/// task so; the other open task stays.
#[test]
fn news_of_an_open_task_from_either_side_closes_it() {
    let plan_of_the_answer = "I read the Kim cohort. Still to do: a one-page comparison table (Poland / Germany / England / Italy) on who bears the wasted costs of broken-off contract negotiations (TASK-A).";
    let other = "remember to ask the librarian about the Radwanski commentary later (KEEP-A)";
    // Each case: the turn that sets the task, the turn that reports it done, and their tags.
    for (setting, report, task, closing) in [
        (
            ("go on", plan_of_the_answer),
            ("my cat sat on the keyboard, the comparison table is pasted into the chapter now, thanks (REPORT-A)", "Glad to help."),
            "TASK-A",
            "REPORT-A",
        ),
        (
            ("remember to pull the Cassazione decisions on art 1337 from the last ten years into a separate collection (TASK-U)", "Noted."),
            ("any news?", "Your Cassazione collection is ready now, nine rulings in it (REPORT-U)."),
            "TASK-U",
            "REPORT-U",
        ),
    ] {
        let summaries = compact_each_step(&[("I am writing a thesis on pre-contractual liability.", "Noted."), setting, (other, "Noted."), report]);
        assert!(summaries[2].contains(task) && summaries[2].contains("open task)"), "{}", summaries[2]);
        let last = summaries.last().unwrap();
        assert!(!last.contains(task) && last.contains(closing) && last.contains("KEEP-A"), "{last}");
    }
}

/// Rule `news-from-either-side` for ideas: the user's denial names the answer's open hypothesis by two
/// words only it holds and takes its place; a statement that names it so without denying it is no
/// verdict ("the merchants and the board are in chapter 3").
#[test]
fn a_users_denial_closes_the_idea_it_names() {
    let idea = "I read it. Perhaps the merchants sitting on the harbour board quietly set the quarantine tariffs and the pilotage dues themselves after the 1850 reform (HYP-1).";
    for (user, closes) in [
        ("No, the minutes show the merchants had no vote on the board in 1848 (DENIAL-1)", true),
        ("The merchants and the board are both in chapter 3 of my draft (KEEP-1)", false),
    ] {
        let last = compact_each_step(&[("I am writing a thesis on port quarantine.", "Noted."), ("go on", idea), (user, "Noted.")]).pop().unwrap();
        assert_eq!(!last.contains("HYP-1"), closes, "{user}: {last}");
    }
}

/// Issue 40: the news that a date moved, later or earlier, moves the deadline to the date the message
/// names, though the two share no word and the news is a sentence of its own ("Got an extension!! …
/// 2 May"). The date of something else, in a message with no such news, or news with no date, leaves it.
#[test]
fn a_moved_date_moves_the_deadline() {
    let deadline_after = |first: &str, news: &str| {
        let summary = summary_of_one_fold(&[("I am writing a thesis chapter on maritime insurance.", "Fine."), (first, "Noted."), (news, "Good.")]);
        let constraints = section_of(&summary, "User Requirements and Constraints");
        constraints.lines().filter(|l| l.starts_with("- (user, deadline)")).map(str::to_string).collect::<Vec<_>>()
    };
    for (first, news, now) in [
        ("Deadline for the thesis draft: 14 March.", "Good news: the committee gave me an extension!! Everything now has to reach them on 2 May.", "Everything now has to reach them on 2 May."),
        ("Scadenza per la bozza della tesi: 14/3.", "Evviva, proroga! Ora la commissione vuole tutto il 2/5.", "Ora la commissione vuole tutto il 2/5."),
        ("Крайний срок сдачи черновика: 14.03.", "Ура, дали отсрочку. Теперь комиссия ждёт всё 02.05.", "Теперь комиссия ждёт всё 02.05."),
        ("Deadline for the thesis draft: 14 March.", "Bad news, the viva was brought forward. Everything now has to reach them on 2 March.", "Everything now has to reach them on 2 March."),
        ("论文初稿的截止日期：3月14日。", "坏消息，答辩提前了。现在所有材料要在3月2日交给委员会。", "现在所有材料要在3月2日交给委员会。"),
        // A month's name beside a day in Arabic-Indic digits.
        ("موعد التسليم للمسودة: 4/6.", "حصلت على تمديد! أصبح تسليم الفصل يوم الأحد ١٢ مايو.", "أصبح تسليم الفصل يوم الأحد ١٢ مايو."),
    ] {
        assert_eq!(deadline_after(first, news), [format!("- (user, deadline) {now}")], "{news}");
    }
    for news in [
        "The underwriters met on 2 May and agreed the clause.",
        "Good news: the committee gave me an extension!! No new date yet, they will write.",
    ] {
        assert_eq!(deadline_after("Deadline for the thesis draft: 14 March.", news), ["- (user, deadline) Deadline for the thesis draft: 14 March."], "{news}");
    }
}

/// Issue 40: what evidence does to an idea ("the later cases don't bear that out", "لا تؤيد ذلك"), or
/// the idea dropped by name, is a verdict: it settles the open idea it names, where it was filed as a
/// second idea beside it.
#[test]
fn evidence_that_does_not_bear_an_idea_out_settles_it() {
    for (idea, verdict) in [
        (
            "A hypothesis worth testing: after 1906 the Lloyd's brokers may have dropped the old wording of the sue and labour clause.",
            "The later policies don't bear that out: the Lloyd's brokers kept the old wording until 1983, so I'd drop that hypothesis.",
        ),
        (
            "فرضية تستحق الاختبار: قد يكون الوسطاء في لندن قد غيّروا صيغة الشرط بعد عام 1906.",
            "الوثائق اللاحقة لا تؤيد ذلك: الوسطاء في لندن احتفظوا بالصيغة القديمة، فيمكن استبعاد الفرضية.",
        ),
    ] {
        let findings = section_of(&extractive_summary(&two_turns("What about the clause?", &format!("{idea}\n\n{verdict}"))), "Findings and Evidence");
        assert!(findings.contains(&format!("- (inferred, settled) {verdict}")), "{findings}");
        assert!(!findings.contains(idea), "the idea it settles is not shown as open: {findings}");
    }
}
