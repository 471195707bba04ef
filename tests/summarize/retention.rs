//! Issue 22, what survives compaction: a facts of every kind planted early, mid and late in a long
//! research session, grown turn by turn with automatic compactions (plan -> summary request ->
//! extractive summary -> checkpoint) on 8k, 32k and 128k models until 21 compactions; every projection
//! right after a compaction is checked for every fact planted before it. The retention benchmark
//! (bench/retention/) measures the same on bigger, seeded sessions through the JS controller.

// Native only: in Firefox these three take 87 s (each blocks the page about 30 s), where the browser
// suites of plan, summary and commit already run the same steps in wasm.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../research/mod.rs"]
mod research;

use bibgenie_compaction::commit::{check_summary_budget, checkpoint_node_for_request};
use bibgenie_compaction::session::{Mode, Session};
use bibgenie_compaction::plan::{plan as make_plan, PlanAction, PlanOptions};
use bibgenie_compaction::projection::project;
use bibgenie_compaction::summarize::{extractive_summary, summary_request, validate_summary, ExtractiveFold};
use research::*;
use serde_json::{json, Value};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Goal,
    Constraint,
    Designation,
    Style,
    Failed,
    Decision,
    Task,
    Hypothesis,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Said {
    User,
    Assistant,
    ToolError,
}

/// A planted fact: at which share of the session, who says it, the text, and what must be seen.
struct Fact {
    kind: Kind,
    at_percent: usize,
    said: Said,
    text: &'static str,
    probe: &'static str,
}

const DESIGNATED: [&str; 3] = ["XK7P4M2Q", "ZB9R3T6W", "HN4C8D2V"];
const STALE_STYLE: &str = "APA 7th";

fn facts() -> Vec<Fact> {
    use Kind::*;
    use Said::*;
    let f = |kind, at_percent, said, text, probe| Fact { kind, at_percent, said, text, probe };
    vec![
        f(Goal, 0, User, "I am writing a systematic review on intermittent fasting and canine longevity (GOAL-Q7).", "GOAL-Q7"),
        f(Goal, 45, User, "Narrow the review to large-breed dogs older than eight years (GOAL-R2).", "GOAL-R2"),
        f(Constraint, 0, User, "Only peer-reviewed studies with at least 50 dogs (CONS-A1).", "CONS-A1"),
        f(Constraint, 40, User, "Skip anything not published in English, Chinese or Japanese (CONS-B2).", "CONS-B2"),
        f(Constraint, 55, User, "The draft is due to my supervisor on 14 March (CONS-D4).", "14 March"),
        f(Constraint, 75, User, "请只纳入2018年以后发表的研究（CONS-C3）。", "CONS-C3"),
        f(Constraint, 85, User, "Actually, the Kim cohort had 412 dogs, not 214 (CONS-E5).", "CONS-E5"),
        f(Designation, 5, User, "Build the argument on XK7P4M2Q, the Kim 2021 cohort.", "XK7P4M2Q"),
        f(Designation, 50, User, "ZB9R3T6W is a must-cite as well.", "ZB9R3T6W"),
        f(Designation, 80, User, "Please also keep HN4C8D2V in the final reference list.", "HN4C8D2V"),
        f(Style, 3, User, "Use APA 7th edition for the references.", STALE_STYLE),
        f(Style, 60, User, "The target journal wants AMA 11th edition references.", "AMA 11th"),
        f(Failed, 10, Assistant, "The Google Scholar scraping approach failed with HTTP 429 (FAIL-G1).", "FAIL-G1"),
        f(Failed, 50, ToolError, "Unpaywall lookup refused: 404 for every DOI of the batch (FAIL-U2)", "FAIL-U2"),
        f(Failed, 70, User, "Forget the Sci-Hub mirror idea (FAIL-S3); never do that again.", "Forget the Sci-Hub mirror idea (FAIL-S3)"),
        f(Decision, 15, Assistant, "Decision: we will use a random-effects model for the pooled estimate (DEC-R1).", "DEC-R1"),
        f(Decision, 65, User, "Let's go with hazard ratios as the effect measure (DEC-H2).", "DEC-H2"),
        f(Task, 20, Assistant, "Still to do: extract the dose-response table from page 12 of the Kim paper (TASK-T1).", "TASK-T1"),
        f(Task, 78, User, "Remember to check the supplementary data of Lee 2020 later (TASK-L2).", "TASK-L2"),
        f(Hypothesis, 25, Assistant, "I suspect the longevity effect is mediated by lower IGF-1 levels (HYP-I1).", "HYP-I1"),
        f(Hypothesis, 68, Assistant, "Perhaps breed size confounds the fasting effect (HYP-B2).", "HYP-B2"),
    ]
}

fn item(key: &str, title: &str) -> Value {
    json!({ "key": key, "version": 900, "library": { "type": "user", "id": 7, "name": "Mine" }, "links": {}, "meta": {},
            "data": { "key": key, "version": 900, "itemType": "journalArticle", "title": title, "date": "2021",
                      "creators": [{ "creatorType": "author", "lastName": "Kim" }], "tags": [], "collections": [], "relations": {} } })
}

/// A valid Zotero key for `n` ("T" and `n` in base 33 over the key alphabet).
fn turn_key(mut n: usize) -> String {
    let alphabet: Vec<char> = KEY_ALPHABET.chars().collect();
    let mut digits: Vec<char> = (0..7).map(|_| { let c = alphabet[n % alphabet.len()]; n /= alphabet.len(); c }).collect();
    digits.reverse();
    std::iter::once('T').chain(digits).collect()
}

/// Filler that reads like a research session, with incidental cue words ("only ones with a PDF").
const QUESTIONS: [&str; 6] = [
    "What does the next paper say about caloric restriction in beagles?",
    "Can you read the methods section of that one, only the ones with a PDF attached?",
    "How many of these report median life span?",
    "这篇论文的样本量是多少？",
    "この研究の結論を教えてください。",
    "Which of them measured body condition score over time?",
];
const ANSWER: &str = "The study followed the dogs for six years and reports body condition scores at each visit. \
It might also be relevant to the protein question. Page 4 describes the feeding protocol in detail.";

struct Run {
    turns: usize,
    compactions: usize,
    projections: usize,
}

/// Grows the session on `window` until `compactions` checkpoints and `turns` turns; checks every
/// projection right after a compaction.
fn grow(window: u64, turns: usize, compactions: usize, page_chars: usize) -> Run {
    let m = model(window, None);
    let facts = facts();
    let mut planted: Vec<usize> = Vec::new();
    let mut nodes: Vec<Value> = Vec::new();
    let mut leaf: Option<String> = None;
    let (mut committed, mut projections, mut turn) = (0, 0, 0);
    let page: String = "Dogs in the restricted group kept a lower body condition score and later onset of osteoarthritis. "
        .repeat(page_chars / 100 + 1);
    let push = |nodes: &mut Vec<Value>, leaf: &mut Option<String>, id: String, role: &str, parts: Value| {
        nodes.push(json!({ "id": id, "parentId": leaf.clone(), "role": role, "parts": parts }));
        *leaf = Some(id);
    };
    while committed < compactions || turn < turns {
        assert!(turn < 4 * turns, "{window}: only {committed} compactions after {turn} turns");
        let due: Vec<usize> =
            (0..facts.len()).filter(|&i| !planted.contains(&i) && facts[i].at_percent * turns / 100 <= turn).collect();
        let mut user = QUESTIONS[turn % QUESTIONS.len()].to_string();
        let mut said = String::from(ANSWER);
        let mut error: Option<&str> = None;
        for &i in &due {
            match facts[i].said {
                Said::User => user = format!("{} {user}", facts[i].text),
                Said::Assistant => said = format!("{said} {}", facts[i].text),
                Said::ToolError => error = Some(facts[i].text),
            }
            planted.push(i);
        }
        push(&mut nodes, &mut leaf, format!("U{turn}"), "user", json!([{ "type": "text", "text": user }]));
        let (search, _) = huge_search(3);
        let mut results = search.as_array().cloned().unwrap_or_default();
        results.push(item(DESIGNATED[turn % 3], &format!("Fasting cohort {}", turn % 3)));
        // New keys every turn: the ledger grows to hundreds of entries, as in a real session.
        for j in 0..4 {
            results.push(item(&turn_key(turn * 4 + j), &format!("禁食与犬寿命的队列研究 {turn}-{j}")));
        }
        let mut parts = vec![
            json!({ "type": "step-start" }),
            json!({ "type": "tool-zoteroSearch", "toolCallId": format!("s{turn}"), "state": "output-available", "input": { "q": turn }, "output": results }),
        ];
        if page_chars > 0 {
            parts.push(json!({ "type": "tool-readPdfPage", "toolCallId": format!("p{turn}"), "state": "output-available",
                "input": { "attachmentKey": "IA7HMPVW", "pageIndex": turn }, "output": { "text": page } }));
        }
        if let Some(text) = error {
            parts.push(json!({ "type": "tool-unpaywall", "toolCallId": format!("e{turn}"), "state": "output-error", "input": { "doi": "batch" }, "errorText": text }));
        }
        parts.push(json!({ "type": "text", "text": said }));
        push(&mut nodes, &mut leaf, format!("A{turn}"), "assistant", Value::Array(parts));
        turn += 1;
        let session = Session::from_value(json!({ "nodes": nodes, "leafId": leaf, "branchRevision": turn })).unwrap();
        let p = make_plan(&session, &m, &PlanOptions::new(Mode::Auto)).unwrap();
        if p.action != PlanAction::Compact {
            continue;
        }
        let request = summary_request(&session, &p, &m).unwrap();
        let summary = extractive_summary(&request);
        assert_eq!(validate_summary(&summary), Ok(()));
        // Rule `summarized-in-slices`: the same text in steps of a message, or of a few.
        let mut fold = ExtractiveFold::new(&request);
        while !fold.step(&request, [1, 4_000][committed % 2]) {}
        assert_eq!(fold.finish(&request), summary, "{window}, compaction {committed}: in slices");
        check_summary_budget(&summary, request.max_output_tokens).expect("within the summary budget");
        assert!(bibgenie_compaction::tokens::estimate_text(&summary) <= request.max_output_tokens, "{window}: over its budget");
        let id = format!("ckpt{turn}");
        nodes.push(checkpoint_node_for_request(&p, &summary, &request, &id).unwrap());
        leaf = Some(id);
        committed += 1;
        let session = Session::from_value(json!({ "nodes": nodes, "leafId": leaf, "branchRevision": turn })).unwrap();
        let projection = project(&session).unwrap().to_json(&session);
        let summary_message = projection["messages"][0]["parts"][0]["text"].as_str().unwrap().to_string();
        let whole = projection.to_string();
        projections += 1;
        let stale_switched = planted.iter().any(|&i| facts[i].kind == Kind::Style && facts[i].probe != STALE_STYLE);
        for &i in &planted {
            let fact = &facts[i];
            if fact.probe == STALE_STYLE && stale_switched {
                // The summary states only the current style; the user's words (carried by code beside
                // it, issue 34) may still hold the old one, followed by the switch in the order said.
                let state = summary_message.split("</summary>").next().unwrap_or("");
                assert!(!state.contains(STALE_STYLE) || !state.contains("AMA 11th"),
                    "{window}, compaction {committed}: the summary shows the stale style beside the new one:\n{summary_message}");
                if let (Some(old), Some(new)) = (summary_message.rfind(STALE_STYLE), summary_message.rfind("AMA 11th")) {
                    assert!(old < new || old < state.len(), "{window}: the old style follows the switch:\n{summary_message}");
                }
                continue;
            }
            // On 8k hypotheses are the first of the research state to go (docs/controller-and-ledger.md);
            // wherever they are shown, they are shown as hypotheses.
            if fact.kind == Kind::Hypothesis && window < 16_384 && !whole.contains(fact.probe) {
                continue;
            }
            assert!(whole.contains(fact.probe), "{window}, compaction {committed}, turn {turn}: {:?} {:?} lost:\n{summary_message}", fact.kind, fact.probe);
            if fact.kind == Kind::Hypothesis {
                for line in summary_message.lines().filter(|l| l.contains(fact.probe)) {
                    assert!(line.contains("hypothesis") && !line.contains("(user") && !line.contains("(tool"),
                        "{window}: a hypothesis shown as something else: {line}");
                }
            }
        }
    }
    Run { turns: turn, compactions: committed, projections }
}

#[test]
fn every_kind_of_planted_fact_survives_twenty_one_automatic_compactions_on_8k() {
    let run = grow(8_192, 90, 21, 0);
    eprintln!("8k: {} turns, {} compactions, {} projections checked", run.turns, run.compactions, run.projections);
    assert!(run.compactions >= 21);
}

#[test]
fn every_kind_of_planted_fact_survives_twenty_one_automatic_compactions_on_32k() {
    let run = grow(32_768, 100, 21, 3_000);
    eprintln!("32k: {} turns, {} compactions, {} projections checked", run.turns, run.compactions, run.projections);
    assert!(run.compactions >= 21);
}

#[test]
fn every_kind_of_planted_fact_survives_twenty_one_automatic_compactions_on_128k() {
    let run = grow(128_000, 140, 21, 24_000);
    eprintln!("128k: {} turns, {} compactions, {} projections checked", run.turns, run.compactions, run.projections);
    assert!(run.compactions >= 21);
}
