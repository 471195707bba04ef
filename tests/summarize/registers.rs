//! Issue 34, retention by construction: the user's words and the cited pages are carried by code on
//! every checkpoint, whatever summarizer wrote its summary. Sessions in English, German, Chinese,
//! Japanese and Vietnamese (seeded, phrasing drawn per turn) are grown with automatic compactions on
//! 8k, 32k and 128k until 21+ checkpoints, once with a summarizer that keeps nothing (eight empty
//! sections, as a careless model might write) and once with the embedded extractive one; every
//! projection right after a compaction is checked for the user's newest words, the first message,
//! every page cited with its key and locator, the budgets, the safe limit and the plan's estimate.

#![cfg(not(target_arch = "wasm32"))]

#[path = "../research/mod.rs"]
mod research;
#[path = "../common/mod.rs"]
mod common;

use bibgenie_compaction::commit::{checkpoint_node_for_request, checkpoint_node};
use bibgenie_compaction::estimate::{capacity, register_budgets};
use bibgenie_compaction::plan::{plan as make_plan, PlanAction, PlanOptions};
use bibgenie_compaction::projection::{project, summary_message_text};
use bibgenie_compaction::registers::{project_cited_pages, project_user_words, CITED_PAGES_HEADING, USER_WORDS_HEADING};
use bibgenie_compaction::session::{Checkpoint, Mode, Node, NodeKind, Session};
use bibgenie_compaction::summarize::{extractive_summary, summary_request, SECTIONS};
use bibgenie_compaction::tokens::estimate_text;
use research::*;
use serde_json::{json, Value};

/// A small seeded generator (xorshift): the sessions differ by seed, never by hand.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, options: &[&'a str]) -> &'a str {
        options[(self.next() % options.len() as u64) as usize]
    }
}

const LANGUAGES: [&str; 5] = ["en", "de", "zh", "ja", "vi"];

/// What a user of each language writes in a turn: no cue word is needed, `{m}` is the turn's marker.
fn user_text(rng: &mut Rng, language: &str, marker: &str) -> String {
    let options: &[&str] = match language {
        "en" => &["what I'm after, really, is how diet shapes ageing in old dogs {m}", "hmm ok and the second paper? {m}",
                  "leave out anything from before 2012 {m}", "pls put the Kim cohort in the table too {m}", "nope, not that one, the other trial {m}"],
        "de" => &["mir geht es eigentlich darum, wie Fasten das Altern bei Hunden beeinflusst {m}", "und was steht im zweiten Paper? {m}",
                  "bitte nur Studien mit mehr als 40 Tieren {m}", "das nehmen wir so, danke {m}", "ne, lass die Übersichtsarbeiten weg {m}"],
        "zh" => &["我真正想知道的是饮食如何影响老年犬的衰老 {m}", "那第二篇呢？{m}", "二零一二年以前的都不要 {m}", "把金的队列也放进表里 {m}", "不是这个，是另一个试验 {m}"],
        "ja" => &["知りたいのは食事が老犬の老化にどう関わるかです {m}", "で、二本目の論文は？{m}", "2012年より前のものは外してください {m}", "キムのコホートも表に入れて {m}", "いや、それじゃなくてもう一つの試験 {m}"],
        _ => &["điều tôi thật sự muốn biết là chế độ ăn ảnh hưởng thế nào đến lão hóa ở chó già {m}", "còn bài thứ hai thì sao? {m}",
               "bỏ hết các bài trước năm 2012 {m}", "cho nhóm Kim vào bảng luôn nhé {m}", "không phải bài đó, bài thử nghiệm kia cơ {m}"],
    };
    rng.pick(options).replace("{m}", marker)
}

/// An assistant sentence citing `key` at a page, in the language, with its marker; and the locator as written.
fn cited_sentence(rng: &mut Rng, language: &str, key: &str, page: u64, marker: &str) -> (String, String) {
    let options: &[(&str, &str)] = match language {
        "en" => &[("On p. {p} of Weber 2020 ({k}) the restricted dogs lived longer ({m}).", "p. {p}"),
                  ("Weber 2020 ({k}), pp. {p}-{q}, reports lower IGF-1 ({m}).", "pp. {p}-{q}")],
        "de" => &[("Laut Müller ({k}), S. {p}, lebten die Hunde länger ({m}).", "S. {p}"), ("Auf Seite {p} von {k} steht der Befund ({m}).", "Seite {p}")],
        "zh" => &[("根据{k}第{p}页，限食组寿命更长（{m}）。", "第{p}页"), ("{k}的第{p}页报告了IGF-1下降（{m}）。", "第{p}页")],
        "ja" => &[("{k}の{p}ページによると、制限群は長生きした（{m}）。", "{p}ページ"), ("{k}、{p}頁に結果がある（{m}）。", "{p}頁")],
        _ => &[("Theo {k}, trang {p}, nhóm ăn kiêng sống lâu hơn ({m}).", "trang {p}"), ("Ở trang {p} của {k} có kết quả này ({m}).", "trang {p}")],
    };
    let (text, locator) = options[(rng.next() % options.len() as u64) as usize];
    let fill = |s: &str| s.replace("{k}", key).replace("{p}", &page.to_string()).replace("{q}", &(page + 2).to_string()).replace("{m}", marker);
    (fill(text), fill(locator))
}

fn item(key: &str, title: &str) -> Value {
    json!({ "key": key, "version": 900, "library": { "type": "user", "id": 7, "name": "Mine" }, "links": {}, "meta": {},
            "data": { "key": key, "version": 900, "itemType": "journalArticle", "title": title, "date": "2020",
                      "creators": [{ "creatorType": "author", "lastName": "Weber" }], "tags": [], "collections": [], "relations": {} } })
}

/// A valid Zotero key for `n` ("C" and `n` in base 33 over the key alphabet).
fn key_for(mut n: usize) -> String {
    let alphabet: Vec<char> = KEY_ALPHABET.chars().collect();
    let mut digits: Vec<char> = (0..7).map(|_| { let c = alphabet[n % alphabet.len()]; n /= alphabet.len(); c }).collect();
    digits.reverse();
    std::iter::once('C').chain(digits).collect()
}

#[derive(Clone, Copy, PartialEq)]
enum Summarizer {
    /// Eight empty sections: whatever a model writes, the registers must still carry the state.
    KeepsNothing,
    Extractive,
}

struct Citation {
    key: String,
    locator: String,
    marker: String,
    turn: usize,
}

struct Run {
    compactions: usize,
    checked_words: usize,
    checked_pages: usize,
}

fn empty_summary() -> String {
    SECTIONS.iter().map(|s| format!("## {s}\nNone.\n")).collect::<Vec<_>>().join("\n")
}

/// The summary message's register part (between the summary and the ledger).
fn registers_part(message: &str) -> &str {
    let start = message.find("</summary>").map(|i| i + "</summary>".len()).unwrap_or(message.len());
    let end = message[start..].find("\n\nZotero resources referenced so far").map(|i| start + i).unwrap_or(message.len());
    &message[start..end]
}

/// Grows a session in `language` on `window` until `compactions` checkpoints; checks every projection.
fn grow(seed: u64, language: &str, window: u64, compactions: usize, summarizer: Summarizer) -> Run {
    let m = model(window, None);
    let c = capacity(&m).unwrap();
    let (least_words, least_pages) = register_budgets(&c);
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut nodes: Vec<Value> = Vec::new();
    let mut leaf: Option<String> = None;
    let mut user_markers: Vec<String> = Vec::new();
    let mut citations: Vec<Citation> = Vec::new();
    let (mut committed, mut turn, mut checked_words, mut checked_pages) = (0, 0, 0, 0);
    let mut last_estimate: Option<u64> = None;
    let pasted = "Abstract. Dogs fed a restricted diet lived longer and kept a lower body condition score. ".repeat(14);
    while committed < compactions {
        assert!(turn < 2_000, "{language} {window}: only {committed} compactions after {turn} turns");
        let marker = format!("U{seed}-{turn:04}");
        let mut user = user_text(&mut rng, language, &marker);
        // Now and then the user pastes material; the instruction after it must survive the excerpt.
        if rng.next() % 9 == 0 {
            user = format!("{pasted}\n{user}");
        }
        user_markers.push(marker);
        nodes.push(json!({ "id": format!("U{turn}"), "parentId": leaf, "role": "user", "parts": [{ "type": "text", "text": user }] }));
        let key = key_for(turn);
        let mut said = String::from(match language {
            "en" => "Here is what the next paper says about the feeding protocol.",
            "de" => "Hier ist, was das nächste Paper zum Fütterungsprotokoll sagt.",
            "zh" => "下一篇论文关于喂养方案的内容如下。",
            "ja" => "次の論文の給餌プロトコルについてです。",
            _ => "Đây là nội dung bài tiếp theo về chế độ cho ăn.",
        });
        // A finding with its page every fifth turn.
        if turn % 5 == 2 {
            let marker = format!("F{seed}-{turn:04}");
            let page = 3 + rng.next() % 300;
            let (sentence, locator) = cited_sentence(&mut rng, language, &key, page, &marker);
            said = format!("{said} {sentence}");
            citations.push(Citation { key: key.clone(), locator, marker, turn });
        }
        let (search, _) = huge_search(2);
        let mut results = search.as_array().cloned().unwrap_or_default();
        results.push(item(&key, &format!("Fasting cohort {turn}")));
        // A page read per turn, sized to the window: compactions come every few turns on every window.
        let page = "Dogs in the restricted group kept a lower body condition score. ".repeat(window as usize / 400);
        nodes.push(json!({ "id": format!("A{turn}"), "parentId": format!("U{turn}"), "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": format!("s{turn}"), "state": "output-available", "input": { "q": turn }, "output": results },
            { "type": "tool-readPdfPage", "toolCallId": format!("p{turn}"), "state": "output-available",
              "input": { "attachmentKey": "IA7HMPVW", "pageIndex": turn }, "output": { "text": page } },
            { "type": "text", "text": said },
        ] }));
        leaf = Some(format!("A{turn}"));
        turn += 1;
        let session = Session::from_value(json!({ "nodes": nodes, "leafId": leaf, "branchRevision": turn })).unwrap();
        let p = make_plan(&session, &m, &PlanOptions::new(Mode::Auto)).unwrap();
        if p.action != PlanAction::Compact {
            continue;
        }
        // A fold one request cannot hold is summarized in rounds (rule `fold-fits-the-summarizer`).
        let (request, summary) = common::summary_rounds_with(&session, &p, &m, |request| match summarizer {
            Summarizer::KeepsNothing => empty_summary(),
            Summarizer::Extractive => extractive_summary(request),
        })
        .pop()
        .unwrap();
        // Rule `registers-take-unused-tail`: the plan's budgets are the capacity's, and more when the
        // kept tail leaves some of its own.
        let (words_budget, pages_budget) = (p.user_words_budget.unwrap(), p.cited_pages_budget.unwrap());
        assert!(words_budget >= least_words && pages_budget >= least_pages, "{language} {window}: budgets below the capacity's");
        let id = format!("ckpt{turn}");
        nodes.push(checkpoint_node_for_request(&p, &summary, &request, &id).unwrap());
        leaf = Some(id.clone());
        committed += 1;
        let session = Session::from_value(json!({ "nodes": nodes, "leafId": leaf, "branchRevision": turn })).unwrap();
        let projection = project(&session).unwrap().to_json(&session);
        let message = projection["messages"][0]["parts"][0]["text"].as_str().unwrap().to_string();
        let registers = registers_part(&message);

        // The plan counted everything the projection shows; it never exceeds the safe limit.
        let after = make_plan(&session, &m, &PlanOptions::new(Mode::Auto)).unwrap().tokens_before;
        assert!(after <= p.tokens_after_estimate, "{language} {window} #{committed}: projection {after} over the plan's {}", p.tokens_after_estimate);
        assert!(after <= c.safe_input_limit, "{language} {window} #{committed}: over the safe limit");
        last_estimate = Some(after);

        // The registers within their two budgets and the room the summary left of its own (rule
        // `registers-take-unused-summary`: what one register or the summary does not use, the other takes).
        let unused = request.max_output_tokens.saturating_sub(estimate_text(&summary));
        let shown = registers.find(CITED_PAGES_HEADING).map_or(estimate_text(registers), |at| estimate_text(&registers[..at]) + estimate_text(&registers[at..]));
        assert!(shown <= words_budget + pages_budget + unused, "{window}: registers over their budgets: {shown} > {words_budget} + {pages_budget} + {unused}:\n{registers}");

        // Rule `recall-handles`: every folded tool output is carried as a recall handle, and the note
        // beside the registers names the newest one (rule `recall-note`, issue 38).
        let checkpoint = checkpoint_of(&session, &id);
        let folded_turns = session.nodes.iter().take_while(|n| Some(n.id.as_str()) != checkpoint.first_kept_message_id.as_deref()).filter(|n| n.id.starts_with('A')).count();
        for t in 0..folded_turns {
            for handle in [format!("zoteroSearch s{t}"), format!("readPdfPage p{t}")] {
                assert!(checkpoint.recall_handles.contains(&handle), "{language} {window} #{committed}: {handle} not carried");
            }
        }
        if folded_turns > 0 {
            let newest = format!("readPdfPage p{}", folded_turns - 1);
            assert!(message.contains(&format!("newest first: {newest}")), "{language} {window} #{committed}: {newest} not shown:\n{message}");
        }

        // The user's words: the first message, and the newest summarized ones that fit a quarter of the
        // budget, are there in the order said (further back, rule `said-in-a-frame-is-routine` ranks a
        // message said in the frame of many after one said once).
        let summarized: Vec<&str> = p.summarize_ids.iter().map(String::as_str).collect();
        let checkpoint = checkpoint_of(&session, &id);
        let last_summarized = summarized.iter().rev().find(|i| i.starts_with('U')).and_then(|i| i[1..].parse::<usize>().ok());
        let Some(last_user) = last_summarized.or_else(|| checkpoint.user_words.last().and_then(|w| w.id[1..].parse().ok())) else { continue };
        assert!(registers.contains(USER_WORDS_HEADING.trim()), "{language} {window} #{committed}: no user's words:\n{message}");
        assert!(registers.contains(&format!("U{seed}-0000")), "{language} {window} #{committed}: the first message is gone:\n{registers}");
        let mut used = estimate_text(USER_WORDS_HEADING);
        let mut previous_at = None;
        for t in (0..=last_user).rev() {
            let words = &checkpoint.user_words.iter().find(|w| w.id == format!("U{t}")).expect("every summarized user message is carried").text;
            used += estimate_text(words) + 8;
            if used > words_budget / 4 {
                break;
            }
            // Rule `shown-once`: a message the summary shows word for word ranks last in the register.
            let Some(at) = registers.find(&user_markers[t]) else {
                assert!(message.contains(words.trim()), "{language} {window} #{committed}: U{t} lost:\n{registers}");
                continue;
            };
            assert!(previous_at.is_none_or(|p| at < p), "{language} {window}: the user's words are not in the order said");
            previous_at = Some(at);
            checked_words += 1;
        }

        // Cited pages: the newest summarized ones that fit their budget, each with its key and locator
        // on one line; from 32k up at least the newest eight.
        let folded: Vec<&Citation> = citations.iter().filter(|c| c.turn <= last_user).collect();
        let mut used = estimate_text(CITED_PAGES_HEADING) + 30;
        let mut shown = 0;
        for citation in folded.iter().rev() {
            // Issue 40: an answer's last sentence is in the summary too (rule
            // `answer-ends-with-its-conclusion`), with its key and page on one line: that shows it.
            let line = registers.lines().chain(message.lines()).find(|l| l.contains(&citation.marker));
            let carried = checkpoint.cited_pages.iter().find(|c| c.text.contains(&citation.marker)).expect("every cited page is carried");
            used += estimate_text(&format!("- {} {}: {}\n", carried.key, carried.locator, carried.text));
            if used > pages_budget {
                break;
            }
            let line = line.unwrap_or_else(|| {
                let carried: Vec<_> = checkpoint.cited_pages.iter().filter(|c| c.text.contains(&citation.marker)).collect();
                panic!("{language} {window} #{committed}: finding {} lost (carried: {carried:?}):\n{registers}", citation.marker)
            });
            assert!(line.contains(&citation.key) && line.contains(&citation.locator), "{language}: key or locator missing: {line} ({})", citation.locator);
            checked_pages += 1;
            shown += 1;
        }
        if window >= 32_768 {
            assert!(shown >= folded.len().min(8), "{language} {window} #{committed}: only {shown} cited pages shown");
        }
    }
    assert!(last_estimate.is_some());
    Run { compactions: committed, checked_words, checked_pages }
}

fn checkpoint_of<'a>(session: &'a Session, id: &str) -> &'a Checkpoint {
    session.nodes.iter().find(|n| n.id == id).and_then(Node::checkpoint).expect("checkpoint")
}

fn run_all(window: u64, summarizer: Summarizer) {
    for (seed, language) in LANGUAGES.iter().enumerate() {
        let run = grow(seed as u64 + 1, language, window, 21, summarizer);
        eprintln!("{language} {window}: {} compactions, {} user messages and {} cited pages checked", run.compactions, run.checked_words, run.checked_pages);
        // A quarter of the words' budget on 8k holds a Vietnamese message about every other compaction.
        assert!(run.compactions >= 21 && run.checked_words * 2 > run.compactions && run.checked_pages > 0, "{language} {window}: too little checked");
    }
}

#[test]
fn the_registers_carry_the_users_words_and_cited_pages_when_the_summary_keeps_nothing_on_8k() {
    run_all(8_192, Summarizer::KeepsNothing);
}

#[test]
fn the_registers_carry_the_users_words_and_cited_pages_when_the_summary_keeps_nothing_on_32k() {
    run_all(32_768, Summarizer::KeepsNothing);
}

#[test]
fn the_registers_carry_the_users_words_and_cited_pages_when_the_summary_keeps_nothing_on_128k() {
    run_all(128_000, Summarizer::KeepsNothing);
}

#[test]
fn the_registers_carry_the_users_words_and_cited_pages_beside_the_extractive_summary_on_32k() {
    run_all(32_768, Summarizer::Extractive);
}

#[test]
fn a_checkpoint_written_before_the_registers_reads_and_projects_as_before() {
    let summary = empty_summary();
    let old = json!({ "id": "ckpt_old", "parentId": "A4", "checkpoint": {
        "summary": summary, "firstKeptMessageId": null, "previousCheckpointId": null, "mode": "manual",
        "tokensBefore": 10, "tokensAfter": 5, "ledger": { "entries": [] }, "basis": { "leafId": "A4", "branchRevision": 1 } } });
    let node = Node::parse_strict(old.clone()).expect("an old checkpoint reads");
    let NodeKind::Checkpoint(checkpoint) = &node.kind else { panic!("not a checkpoint") };
    assert!(checkpoint.user_words.is_empty() && checkpoint.cited_pages.is_empty());
    assert_eq!(summary_message_text(checkpoint), format!("{}\n\n<summary>\n{}\n</summary>", bibgenie_compaction::projection::SUMMARY_PREAMBLE, summary.trim()));
    // A checkpoint made without registers serializes without their fields, as before.
    let made = checkpoint_node(&plan(&["U0"], None, None, "A4"), &summary, &Default::default(), "ckpt_new").unwrap();
    for field in ["userWords", "citedPages", "userWordsBudget", "citedPagesBudget"] {
        assert!(made["checkpoint"].get(field).is_none(), "{field} written without registers");
    }
}

#[test]
fn long_pasted_material_is_excerpted_and_keeps_the_instruction_after_it() {
    let pasted = "Table 3. Dose 1 mg 12 dogs 0.4 ".repeat(200);
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": format!("{pasted}\nuse only the third column UNIQUE-INSTRUCTION") }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [{ "type": "text", "text": "ok" }] }),
    ];
    let session = session_of(nodes, "A0");
    let m = model(32_768, None);
    let request = summary_request(&session, &plan(&["U0", "A0"], None, None, "A0"), &m).unwrap();
    let text = &request.user_words[0].text;
    assert!(text.chars().count() < 900 && text.contains("characters left out") && text.ends_with("UNIQUE-INSTRUCTION"), "{text}");
    // Within a tiny budget nothing is shown rather than a register over it.
    assert_eq!(project_user_words(&request.user_words, 5, ""), "");
    assert_eq!(project_cited_pages(&[], 1_000, ""), "");
}


/// Issue 40, rule `cited-page-is-a-statement`: an item record's bibliographic `pages` field and a
/// page read's whole text are not cited pages (they filled the register with "KEY p. 1246–1254" and
/// page text cut at 320 characters); an annotation's quote with its page and the assistant's sentence
/// naming a key and a page are.
#[test]
fn cited_pages_are_statements_not_bibliographic_fields_or_page_text() {
    let record = json!({ "key": "REC23456", "version": 3, "library": { "type": "user", "id": 7 }, "meta": {},
        "data": { "key": "REC23456", "itemType": "journalArticle", "title": "Light and sleep in nurses", "pages": "1246–1254", "date": "2020" } });
    let page_text = "Participants slept longer after the intervention although adherence declined. ".repeat(30);
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "find the light therapy trials" }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "s0", "state": "output-available", "input": { "q": "light" }, "output": [record] },
            { "type": "tool-readPdfPage", "toolCallId": "p0", "state": "output-available", "input": { "attachmentKey": "REC23456" },
              "output": { "attachmentKey": "REC23456", "pageLabel": "1250", "text": page_text } },
            { "type": "tool-zoteroAnnotations", "toolCallId": "n0", "state": "output-available", "input": { "itemKey": "REC23456" },
              "output": [{ "key": "ANN23456", "parentItem": "REC23456", "annotationType": "highlight", "pageLabel": "1251",
                           "annotationText": "Sleep onset latency fell by 14 minutes ANNOTATED-FINDING." }] },
            { "type": "text", "text": "Here it is. The trial (REC23456) reports on p. 1252 that sleep efficiency rose PROSE-FINDING." },
        ] }),
    ];
    let session = session_of(nodes, "A0");
    let request = summary_request(&session, &plan(&["U0", "A0"], None, None, "A0"), &model(32_768, None)).unwrap();
    let cited: Vec<(&str, &str)> = request.cited_pages.iter().map(|c| (c.locator.as_str(), c.text.as_str())).collect();
    assert!(cited.iter().all(|(locator, _)| !locator.contains("1246")), "an item's pages field is cited: {cited:?}");
    assert!(cited.iter().all(|(locator, text)| *locator != "p. 1250" && !text.contains("adherence declined")), "page text is cited: {cited:?}");
    assert!(cited.iter().any(|(locator, text)| *locator == "p. 1251" && text.contains("ANNOTATED-FINDING")), "{cited:?}");
    assert!(cited.iter().any(|(locator, text)| *locator == "p. 1252" && text.contains("PROSE-FINDING")), "{cited:?}");
}

/// Issue 40, rule `cited-by-its-item`: Zotero's annotation objects name their own key first, and an
/// annotation is a child of its PDF, the PDF of the item; the page they cite is cited by the item, the
/// key a researcher cites (it was cited by the annotation's own key).
#[test]
fn an_annotation_cites_its_page_for_the_item_it_belongs_to() {
    let item = json!({ "key": "ITEM2345", "version": 3, "itemType": "journalArticle", "title": "Microplastics in perch", "date": "2021" });
    let attachment = json!({ "key": "ATTA2345", "version": 4, "itemType": "attachment", "parentItem": "ITEM2345", "contentType": "application/pdf", "filename": "perch.pdf" });
    let annotation = json!({ "key": "ANNT2345", "version": 5, "itemType": "annotation", "parentItem": "ATTA2345", "annotationType": "highlight",
        "annotationText": "Fibres were found in 40% of the perch ANNOTATED.", "annotationComment": "", "annotationPageLabel": "12" });
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "what does the perch paper say?" }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "s0", "state": "output-available", "input": { "q": "perch" }, "output": [item, attachment] },
            { "type": "tool-zoteroAnnotations", "toolCallId": "n0", "state": "output-available", "input": { "itemKey": "ATTA2345" }, "output": [annotation] },
            { "type": "text", "text": "Here are the highlights." },
        ] }),
    ];
    let session = session_of(nodes, "A0");
    let request = summary_request(&session, &plan(&["U0", "A0"], None, None, "A0"), &model(32_768, None)).unwrap();
    let cited: Vec<(&str, &str, &str)> = request.cited_pages.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    assert!(cited.iter().any(|&(key, locator, text)| key == "ITEM2345" && locator == "p. 12" && text.contains("ANNOTATED")), "{cited:?}");
    assert!(cited.iter().all(|&(key, _, _)| key != "ANNT2345" && key != "ATTA2345"), "{cited:?}");
}

/// Issue 40, rule `an-attachment-names-its-item`: the attachment object itself is often never
/// fetched; a Web API item names its PDF in `links.attachment`, a full-text tool names both keys.
/// Either tells whose page an annotation of that PDF gives. A tool object whose two keys are one key,
/// or that names no item, ties nothing.
#[test]
fn an_annotation_of_an_attachment_named_only_by_a_link_cites_the_item() {
    let envelope = json!({ "key": "ITEM2345", "version": 3, "library": { "type": "user", "id": 1 },
        "links": { "self": { "href": "https://api.zotero.org/users/1/items/ITEM2345", "type": "application/json" },
                   "attachment": { "href": "https://api.zotero.org/users/1/items/ATTA2345", "type": "application/json", "attachmentType": "application/pdf" } },
        "meta": { "numChildren": 1 },
        "data": { "key": "ITEM2345", "version": 3, "itemType": "journalArticle", "title": "Microplastics in perch", "date": "2021" } });
    let annotation = |key: &str, parent: &str, marker: &str, page: &str| json!({ "key": key, "version": 5, "itemType": "annotation",
        "parentItem": parent, "annotationType": "highlight", "annotationText": format!("Fibres were found in 40% of the fish {marker}."),
        "annotationPageLabel": page });
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "what do my highlights say?" }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "s0", "state": "output-available", "input": { "q": "perch" }, "output": { "items": [envelope] } },
            { "type": "tool-getFullText", "toolCallId": "f0", "state": "output-available", "input": { "itemKey": "ITEM6789" },
              "output": { "itemKey": "ITEM6789", "attachmentKey": "ATTB6789", "content": "--- page 3 ---\nMethods." } },
            { "type": "tool-readerState", "toolCallId": "r0", "state": "output-available", "input": {},
              "output": { "attachmentKey": "ATTC2345", "parentItem": "ATTC2345", "page": 4 } },
            { "type": "tool-zoteroAnnotations", "toolCallId": "n0", "state": "output-available", "input": { "attachmentKey": "ATTA2345" }, "output": [
                annotation("ANNA2345", "ATTA2345", "BY-LINK", "12"),
                annotation("ANNB2345", "ATTB6789", "BY-PAIR", "3"),
                annotation("ANNC2345", "ATTC2345", "UNTIED", "4"),
            ] },
            { "type": "text", "text": "Here are the highlights." },
        ] }),
    ];
    let session = session_of(nodes, "A0");
    let request = summary_request(&session, &plan(&["U0", "A0"], None, None, "A0"), &model(32_768, None)).unwrap();
    let cited: Vec<(&str, &str, &str)> = request.cited_pages.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    let by = |marker: &str| cited.iter().find(|c| c.2.contains(marker)).map(|c| (c.0, c.1));
    assert_eq!(by("BY-LINK"), Some(("ITEM2345", "p. 12")), "{cited:?}");
    assert_eq!(by("BY-PAIR"), Some(("ITEM6789", "p. 3")), "{cited:?}");
    assert_eq!(by("UNTIED"), Some(("ATTC2345", "p. 4")), "{cited:?}");
    let attachment = request.ledger.entries.iter().find(|e| e.key == "ATTA2345").expect("the linked attachment is in the ledger");
    assert_eq!((attachment.kind.as_str(), attachment.parent_key.as_deref(), attachment.detail.as_deref()), ("attachment", Some("ITEM2345"), Some("application/pdf")));
}

/// Issue 40, rule `a-comment-is-a-statement`: a reader's comment on a highlight ("so 40% of the
/// carp had fragments here") is what they concluded from that page; it was dropped when the highlight
/// had text, as only the first quote field was read.
#[test]
fn an_annotations_comment_is_cited_with_its_highlight() {
    let item = json!({ "key": "ITEM2345", "version": 3, "itemType": "journalArticle", "title": "Microplastics in carp", "date": "2021" });
    let annotation = |key: &str, text: &str, comment: &str, page: &str| json!({ "key": key, "version": 5, "itemType": "annotation",
        "parentItem": "ITEM2345", "annotationType": "highlight", "annotationText": text, "annotationComment": comment,
        "annotationPageLabel": page, "annotationColor": "#ffd400", "annotationPosition": "{\"pageIndex\":6,\"rects\":[[1,2,3,4]]}" });
    let long_highlight = "Fish were dissected on ice and the whole tract was weighed before digestion. ".repeat(12);
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "my notes on the carp paper?" }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "s0", "state": "output-available", "input": { "q": "carp" }, "output": [item] },
            { "type": "tool-zoteroAnnotations", "toolCallId": "n0", "state": "output-available", "input": { "itemKey": "ITEM2345" }, "output": [
                annotation("ANNA2345", "see table 2", "so 40% of the carp had fragments here, far more than the perch COMMENTED", "7"),
                annotation("ANNB2345", &long_highlight, "dissection protocol LONG-QUOTE", "8"),
                annotation("ANNC2345", "Blanks held no particles HIGHLIGHT-ONLY.", "", "9"),
            ] },
            { "type": "text", "text": "Here are your annotations." },
        ] }),
    ];
    let session = session_of(nodes, "A0");
    let request = summary_request(&session, &plan(&["U0", "A0"], None, None, "A0"), &model(32_768, None)).unwrap();
    let cited: Vec<(&str, &str, &str)> = request.cited_pages.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    let at = |page: &str, marker: &str| cited.iter().any(|&(key, locator, text)| key == "ITEM2345" && locator == page && text.contains(marker));
    assert!(at("p. 7", "see table 2") && at("p. 7", "COMMENTED"), "the highlight and the comment on it: {cited:?}");
    assert!(at("p. 8", "LONG-QUOTE") && cited.iter().all(|c| c.1 != "p. 8" || !c.2.contains("weighed before")), "a page's text is no statement, its comment is: {cited:?}");
    assert!(at("p. 9", "HIGHLIGHT-ONLY"), "{cited:?}");
    assert_eq!(cited.len(), 3, "one cited page per annotation: {cited:?}");
}

/// Issue 40, rule `a-note-cites-its-item`: a child note that gives a page ("Table 3 on p. 12: …")
/// cites its item's page, without naming the item's key; an item record's own fields (a title's
/// "Vol. 3") are metadata, not a cited page.
#[test]
fn a_child_notes_page_is_cited_for_its_item() {
    let item = json!({ "key": "ITEM2345", "version": 3, "itemType": "journalArticle", "title": "Plastics in perch, Vol. 3 of the survey", "date": "2021" });
    let note = json!({ "key": "NOTE2345", "version": 4, "itemType": "note", "parentItem": "ITEM2345",
        "note": "<h1>Extraction notes</h1><p>Table 3 on p. 12: gut counts rise with the histology score NOTED.</p><p>Check the blanks &amp; the controls.</p>" });
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "what did I note on the perch paper?" }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "s0", "state": "output-available", "input": { "q": "perch" }, "output": [item] },
            { "type": "dynamic-tool", "toolName": "zoteroChildNotes", "toolCallId": "c0", "state": "output-available", "input": { "itemKey": "ITEM2345" }, "output": [note] },
            { "type": "text", "text": "Your note is above." },
        ] }),
    ];
    let session = session_of(nodes, "A0");
    let request = summary_request(&session, &plan(&["U0", "A0"], None, None, "A0"), &model(32_768, None)).unwrap();
    let cited: Vec<(&str, &str, &str)> = request.cited_pages.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    assert!(cited.iter().any(|&(key, locator, text)| key == "ITEM2345" && locator == "p. 12" && text.contains("NOTED") && !text.contains('<')), "{cited:?}");
    assert_eq!(cited.len(), 1, "the title's volume and the sentence without a page are not cited: {cited:?}");
}

/// Issue 40, rules `a-note-pinpoints-its-item` and `a-pinpoint-is-a-locator`: a lawyer's note gives its
/// case by paragraph or by `at` ("Lord Scott, para 18: …", "Bingham LJ at 1203: …"), or a Russian
/// page as "с. 11": each cites the note's item. The same paragraph in a text the tool read about the
/// item is no page of it, "at 30 days" is no pinpoint, and the reader's own "ch. 2" is no place in it.
#[test]
fn a_notes_pinpoint_cites_its_item() {
    let item = json!({ "key": "ITEM2345", "version": 3, "itemType": "case", "caseName": "Yeoman's Row v Cobbe", "dateDecided": "2008" });
    let note = json!({ "key": "NOTE2345", "version": 4, "itemType": "note", "parentItem": "ITEM2345",
        "note": "<h2>Cobbe</h2><p>Lord Scott, para 18: no estoppel where both knew the deal was not binding PARA-NOTE</p>\
                 <p>Bingham LJ at 1203: a tender can carry an implied promise AT-NOTE.</p><p>Определение СКЭС, с. 11: одного факта недостаточно RU-NOTE</p>\
                 <p>Reliance was assessed at 30 days after exchange QUANTITY.</p><p>Useful for ch. 2 of the thesis CHAPTER</p>" });
    let read = json!({ "itemKey": "ITEM2345", "text": "[[page 12]]\nThe court, para 18: the parties knew PAGE-READ. Nothing binds them." });
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "what did I note on Cobbe?" }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "s0", "state": "output-available", "input": { "q": "Cobbe" }, "output": [item] },
            { "type": "tool-zoteroChildNotes", "toolCallId": "c0", "state": "output-available", "input": { "itemKey": "ITEM2345" }, "output": [note] },
            { "type": "tool-readFullText", "toolCallId": "r0", "state": "output-available", "input": { "itemKey": "ITEM2345" }, "output": read },
            { "type": "text", "text": "Your note is above." },
        ] }),
    ];
    let session = session_of(nodes, "A0");
    let request = summary_request(&session, &plan(&["U0", "A0"], None, None, "A0"), &model(32_768, None)).unwrap();
    let cited: Vec<(&str, &str, &str)> = request.cited_pages.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    let at = |locator: &str, marker: &str| cited.iter().any(|&(key, l, text)| key == "ITEM2345" && l == locator && text.contains(marker));
    assert!(at("para 18", "PARA-NOTE") && at("at 1203", "AT-NOTE") && at("с. 11", "RU-NOTE"), "{cited:?}");
    assert!(cited.iter().all(|&(_, _, text)| !text.contains("QUANTITY") && !text.contains("PAGE-READ") && !text.contains("CHAPTER")), "{cited:?}");
    assert_eq!(cited.len(), 3, "{cited:?}");
}

/// Issue 40, rules `a-tool-result-is-about-its-input` and `a-note-cites-its-item`: a tool asked about an
/// item that answers in Markdown ("On p. 7 …") cites that item's page; "Fig. 2" of the same text is no
/// page. And a researcher's own sentence naming a key and a page is a cited page, as the assistant's.
#[test]
fn a_notes_tool_cites_the_page_for_the_item_it_was_asked_about_and_the_user_cites_too() {
    let item = json!({ "key": "ITEM2345", "version": 3, "itemType": "journalArticle", "title": "Heat pumps in cold flats", "date": "2022" });
    let markdown = "## My notes\n\nOn p. 7 the seasonal COP falls below 2.1 in January MARKDOWN-NOTE.\n\nFig. 2 shows the sites FIGURE.";
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "find the heat pump field trials" }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "s0", "state": "output-available", "input": { "q": "heat pump" }, "output": [item] },
            { "type": "text", "text": "One trial." },
        ] }),
        json!({ "id": "U1", "parentId": "A0", "role": "user", "parts": [{ "type": "text", "text": "ok. as ITEM2345 says on p. 3, the tenants kept the old radiators USER-CITED. my notes on it?" }] }),
        json!({ "id": "A1", "parentId": "U1", "role": "assistant", "parts": [
            { "type": "dynamic-tool", "toolName": "zoteroNotes", "toolCallId": "n0", "state": "output-available", "input": { "itemKey": "ITEM2345" }, "output": markdown },
            { "type": "text", "text": "Your notes are above." },
        ] }),
    ];
    let session = session_of(nodes, "A1");
    let request = summary_request(&session, &plan(&["U0", "A0", "U1", "A1"], None, None, "A1"), &model(32_768, None)).unwrap();
    let cited: Vec<(&str, &str, &str)> = request.cited_pages.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    assert!(cited.iter().any(|&(key, locator, text)| key == "ITEM2345" && locator == "p. 7" && text.contains("MARKDOWN-NOTE")), "{cited:?}");
    assert!(cited.iter().any(|&(key, locator, text)| key == "ITEM2345" && locator == "p. 3" && text.contains("USER-CITED")), "{cited:?}");
    assert!(cited.iter().all(|&(_, _, text)| !text.contains("FIGURE")), "{cited:?}");
}

/// Issue 40, rule `registers-take-unused-summary`: the room a short summary leaves of its budget
/// shows more of the user's words (a requirement said mid-session was left out at the fixed two
/// fifths), still within what the plan counted (`tokensAfterEstimate`) and the safe limit.
#[test]
fn the_room_a_short_summary_leaves_goes_to_the_users_words() {
    let m = model(32_768, None);
    let c = capacity(&m).unwrap();
    let (words_budget, pages_budget) = register_budgets(&c);
    let mut nodes = Vec::new();
    let mut leaf: Option<String> = None;
    let mut ids = Vec::new();
    for t in 0..120 {
        let said = format!("message {t:03}: the reviewers want the trials in shift nurses weighed by their follow-up length MID-{t:03}");
        nodes.push(json!({ "id": format!("U{t}"), "parentId": leaf, "role": "user", "parts": [{ "type": "text", "text": said }] }));
        nodes.push(json!({ "id": format!("A{t}"), "parentId": format!("U{t}"), "role": "assistant", "parts": [{ "type": "text", "text": "Noted." }] }));
        ids.push(format!("U{t}"));
        ids.push(format!("A{t}"));
        leaf = Some(format!("A{t}"));
    }
    let session = session_of(nodes.clone(), "A119");
    let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    let mut p = plan(&id_refs, None, None, "A119");
    p.user_words_budget = Some(words_budget);
    p.cited_pages_budget = Some(pages_budget);
    p.ledger_budget = Some(bibgenie_compaction::estimate::projected_ledger_budget(&c));
    let request = summary_request(&session, &p, &m).unwrap();
    let summary = empty_summary();
    nodes.push(checkpoint_node_for_request(&p, &summary, &request, "ck").unwrap());
    let session = session_of(nodes, "ck");
    let message = summary_message_text(checkpoint_of(&session, "ck"));
    let registers = registers_part(&message);
    let unused = request.max_output_tokens - estimate_text(&summary);
    assert!(estimate_text(registers) > words_budget + pages_budget, "the unused summary budget is not used: {} tokens", estimate_text(registers));
    assert!(estimate_text(registers) <= words_budget + pages_budget + unused);
    assert!(registers.contains("MID-060"), "a mid-session requirement is left out");
}

/// Issue 40, rule `said-again-is-chatter`: on a small budget the user's newest messages were chatter
/// sent many times ("next one please"), and a requirement or a date said once, mid-session, was left
/// out. A message sent more than once now ranks with the acknowledgements, in any language.
#[test]
fn a_message_said_again_ranks_after_what_was_said_once() {
    let sessions: [(&str, &[&str], &str); 4] = [
        ("en", &["please open the next paper", "sorry, the phone rang again"], "the draft goes to the committee on june 14 WORDS-EN"),
        ("de", &["bitte das nächste paper öffnen", "sorry, kurz telefoniert"], "der entwurf muss am 14. juni beim ausschuss sein WORDS-DE"),
        ("ja", &["次の論文を開いてください", "すみません、電話が鳴っていました"], "草稿は6月14日に委員会へ出します WORDS-JA"),
        ("vi", &["mở giúp mình bài tiếp theo nhé", "xin lỗi, điện thoại lại reo"], "bản nháp phải nộp hội đồng ngày 14/6 WORDS-VI"),
    ];
    for (language, chatter, once) in sessions {
        let mut words = vec![UserWordsOf::of(0, "a review on light therapy for shift workers")];
        words.push(UserWordsOf::of(1, once));
        for n in 2..40 {
            words.push(UserWordsOf::of(n, chatter[n % chatter.len()]));
        }
        // Room for the first message, a few lines and the count of the rest.
        let budget = estimate_text(USER_WORDS_HEADING) + 90;
        let shown = project_user_words(&words, budget, "");
        assert!(shown.contains(&format!("WORDS-{}", language.to_uppercase())), "{language}: a statement said once is left out for chatter: {shown}");
        assert!(shown.contains("other messages of the user are kept"), "{language}: {shown}");
    }
}

struct UserWordsOf;

impl UserWordsOf {
    fn of(n: usize, text: &str) -> bibgenie_compaction::session::UserWords {
        bibgenie_compaction::session::UserWords { id: format!("U{n}"), text: text.to_string() }
    }
}

/// Issue 40, rule `shown-once`: a message the summary already shows word for word (a style or a key
/// the summary filed) took the user's-words room a second time on a small window; it now ranks last,
/// and a statement only the register carries is shown instead. English, Chinese, German.
#[test]
fn a_message_the_summary_shows_ranks_after_one_it_does_not() {
    for (unshown, shown) in [
        ("the draft goes to the committee on june 14 ONLY-HERE", "references in vancouver style from now on SHOWN-TOO"),
        ("草稿要在6月14日交给委员会 ONLY-HERE", "参考文献从现在起用温哥华格式 SHOWN-TOO"),
        ("der entwurf muss am 14. juni beim ausschuss sein ONLY-HERE", "literatur ab jetzt im vancouver-stil SHOWN-TOO"),
    ] {
        let words = vec![UserWordsOf::of(0, "a review on light therapy for shift workers"), UserWordsOf::of(1, unshown), UserWordsOf::of(2, shown)];
        let summary = format!("## User Requirements and Constraints\n- (user, style) {shown}\n");
        // Room for the first message and one more.
        let line = |n: usize, text: &str| estimate_text(&format!("- [{n}] {text}\n"));
        let left_out = estimate_text("- 3 other messages of the user are kept in this checkpoint and not shown here.");
        let budget = estimate_text(USER_WORDS_HEADING) + left_out + line(1, &words[0].text) + line(2, unshown).max(line(3, shown)) + 2;
        assert!(budget < estimate_text(USER_WORDS_HEADING) + left_out + line(1, &words[0].text) + line(2, unshown) + line(3, shown), "room for one only");
        let projected = project_user_words(&words, budget, &summary);
        assert!(projected.contains("ONLY-HERE") && !projected.contains("SHOWN-TOO"), "{projected}");
        // Without it in the summary the newest statement wins, as before.
        assert!(project_user_words(&words, budget, "").contains("SHOWN-TOO"));
    }
}

/// Issue 40, rule `shown-once` for the cited pages: a page whose sentence the summary shows as a line
/// (an answer's conclusion that cites it) took the cited-pages room a second time on a small window;
/// it now comes after the others, and an older page only the register carries is shown instead.
/// English, German, Japanese.
#[test]
fn a_cited_page_the_summary_shows_comes_after_one_it_does_not() {
    use bibgenie_compaction::session::CitedPage;
    for (older, newer, locator) in [
        ("In ABCD2345, p. 12, sleep onset fell by 20 minutes ONLY-HERE.", "In WXYZ6789, p. 40, total sleep rose by 18 minutes SHOWN-TOO.", "p. 12"),
        ("In ABCD2345, S. 12, sank die Einschlaflatenz um 20 Minuten ONLY-HERE.", "In WXYZ6789, S. 40, stieg die Schlafdauer um 18 Minuten SHOWN-TOO.", "S. 12"),
        ("ABCD2345の12ページでは入眠潜時が20分短縮した ONLY-HERE。", "WXYZ6789の40ページでは総睡眠時間が18分延びた SHOWN-TOO。", "12ページ"),
    ] {
        let page = |key: &str, locator: &str, text: &str, id: &str| CitedPage { key: key.into(), locator: locator.into(), text: text.into(), id: id.into() };
        let pages = vec![page("ABCD2345", locator, older, "A1"), page("WXYZ6789", &locator.replace("12", "40"), newer, "A2")];
        let summary = format!("## Research Progress\n- (inferred, concluded) {newer}\n");
        // Room for one page.
        let line = |p: &CitedPage| estimate_text(&format!("- {} {}: {}\n", p.key, p.locator, p.text));
        let left_out = estimate_text("- 2 more cited pages are kept in this checkpoint and not shown here.");
        let budget = estimate_text(CITED_PAGES_HEADING) + left_out + line(&pages[0]).max(line(&pages[1])) + 2;
        assert!(budget < estimate_text(CITED_PAGES_HEADING) + left_out + line(&pages[0]) + line(&pages[1]), "room for one only");
        assert!(!project_cited_pages(&pages, budget, "").contains("ONLY-HERE"), "room for the newest only");
        let projected = project_cited_pages(&pages, budget, &summary);
        assert!(projected.contains("ONLY-HERE") && !projected.contains("SHOWN-TOO"), "{projected}");
    }
}

/// Issue 40, rule `each-paper-then-more-pages`: a paper read closely (a highlight on every page) does
/// not push the earlier papers' cited pages out: each item's newest page comes before a second page
/// of any item, still newest first, still shown oldest first.
#[test]
fn a_paper_read_closely_leaves_room_for_the_papers_before_it() {
    use bibgenie_compaction::session::CitedPage;
    let page = |key: &str, n: usize, text: String| CitedPage { key: key.into(), locator: format!("p. {n}"), text, id: format!("A{n}") };
    let mut pages = vec![page("ABCD2345", 3, "Blanks held no fibres EARLIER-PAPER.".into()), page("EFGH2345", 8, "Carp held most fragments SECOND-PAPER.".into())];
    pages.extend((1..=30).map(|n| page("WXYZ6789", 100 + n, format!("Highlight {n} of the close reading CLOSE-{n:02}."))));
    let line = |p: &CitedPage| estimate_text(&format!("- {} {}: {}\n", p.key, p.locator, p.text));
    let budget = estimate_text(CITED_PAGES_HEADING) + estimate_text("- 30 more cited pages are kept in this checkpoint and not shown here.") + 4 * line(&pages[31]);
    let projected = project_cited_pages(&pages, budget, "");
    assert!(projected.contains("EARLIER-PAPER") && projected.contains("SECOND-PAPER") && projected.contains("CLOSE-30"), "{projected}");
    assert!(!projected.contains("CLOSE-01"), "the close reading's newest pages fill the rest: {projected}");
    let earlier = projected.find("EARLIER-PAPER").unwrap();
    assert!(earlier < projected.find("SECOND-PAPER").unwrap() && projected.find("SECOND-PAPER").unwrap() < projected.find("CLOSE-30").unwrap(), "oldest first: {projected}");
}

/// Issue 40, rule `chatter-after-pages`: the user's acknowledgements and repeated messages take only
/// the room the cited pages leave; before, they filled the user's words' budget on every small
/// window while pages stating findings were left out.
#[test]
fn the_users_chatter_takes_only_the_room_the_cited_pages_leave() {
    let chatter = ["next one pls", "k", "show me the abstract", "lol my cat sat on the keyboard"];
    let mut words = vec![json!({ "id": "U0", "text": "only fish caught in the wild count for this review RULE-WILD" })];
    words.extend((1..=80).map(|n| json!({ "id": format!("U{n}"), "text": chatter[n % chatter.len()] })));
    let keys = ["ABCD2345", "EFGH2345", "JKLM2345", "NPQR2345", "STUV2345", "WXYZ2345", "ABCD6789", "EFGH6789", "JKLM6789", "NPQR6789"];
    let pages: Vec<Value> = keys
        .iter()
        .enumerate()
        .map(|(n, key)| json!({ "key": key, "locator": format!("p. {}", n + 3), "text": format!("Carp held {} fragments per gut FINDING-{n}.", n + 2), "id": format!("A{n}") }))
        .collect();
    let line = estimate_text("- ABCD2345 p. 3: Carp held 2 fragments per gut FINDING-0.\n");
    let words_budget = estimate_text(USER_WORDS_HEADING) + 40 + 30 * estimate_text("- [80] show me the abstract\n");
    let pages_budget = estimate_text(CITED_PAGES_HEADING) + 20 + 2 * line;
    let checkpoint = Checkpoint::from_value(&json!({ "summary": "## Research Goal\n- (user) microplastics in fish", "firstKeptMessageId": null,
        "previousCheckpointId": null, "mode": "auto", "tokensBefore": 1, "tokensAfter": 1, "basis": { "leafId": "A1", "branchRevision": 1 },
        "userWords": words, "citedPages": pages, "userWordsBudget": words_budget, "citedPagesBudget": pages_budget }))
    .unwrap();
    let message = summary_message_text(&checkpoint);
    let registers = registers_part(&message);
    assert!(registers.contains("RULE-WILD"), "{registers}");
    let findings = (0..keys.len()).filter(|n| registers.contains(&format!("FINDING-{n}."))).count();
    assert!(findings >= 8, "only {findings} pages beside the chatter:\n{registers}");
    assert!(estimate_text(registers) <= words_budget + pages_budget + 16, "{registers}");
}

/// Issue 40, rule `said-of-many-pages-says-little`: a page whose highlight and comment other pages
/// carry too ("see table 2 — method ok") ranks after the pages with something of their own, so a
/// reader's shorthand on thirty papers does not push out the one comment that states a finding.
#[test]
fn a_page_that_says_what_other_pages_say_ranks_after_a_finding() {
    use bibgenie_compaction::session::CitedPage;
    let page = |n: usize, text: &str| CitedPage { key: format!("K{n:03}ABCD").chars().take(8).collect(), locator: format!("p. {n}"), text: text.into(), id: format!("A{n}") };
    let mut pages = vec![
        page(3, "see table 2 — so 79% of the carp had fragments here OWN-COMMENT"),
        page(4, "Fibres made up 42% of everything recovered OWN-HIGHLIGHT"),
    ];
    pages.extend((5..35).map(|n| page(n, if n % 2 == 0 { "see table 2 — method ok" } else { "No particles were found in the blanks. — ?" })));
    let line = estimate_text("- K003ABCD p. 3: see table 2 — so 79% of the carp had fragments here OWN-COMMENT\n");
    let budget = estimate_text(CITED_PAGES_HEADING) + estimate_text("- 30 more cited pages are kept in this checkpoint and not shown here.") + 4 * line;
    let projected = project_cited_pages(&pages, budget, "");
    assert!(projected.contains("OWN-COMMENT") && projected.contains("OWN-HIGHLIGHT"), "{projected}");
    assert!(projected.contains("method ok"), "the rest of the room still shows the newest others: {projected}");
}

/// Issue 40, rule `said-in-a-frame-is-routine`: the user's requests said in the frame of many ("search
/// the library for «X»", "format «Y» for the footnotes") took the room, newest first, of a requirement
/// stated once in the middle of the session; they rank after it now. English and Russian.
#[test]
fn a_request_in_the_frame_of_many_ranks_after_a_requirement_said_once() {
    let sessions: [(&str, [&str; 3], &str); 2] = [
        ("en", ["please search the library for «{t}»", "format «{t}» for the footnotes, please", "I need the full reference to «{t}»"],
         "important: published sources only, no master's theses or law-firm blog posts WORDS-EN"),
        ("ru", ["поищите в библиотеке «{t}»", "оформите «{t}» для сносок", "нужна полная ссылка на «{t}»"],
         "важно: используем только опубликованные источники, никаких студенческих работ WORDS-RU"),
    ];
    // Each request said once (a request said again word for word is chatter by rule
    // `said-again-is-chatter`), each title in three of them.
    let titles = ["Cartwright", "Karapetov", "Sarbash", "Polyakova", "Egorov", "Kucher", "Zweigert", "Hesselink", "Ioffe", "Machnikowski", "Grykiel", "Emmerich", "Sanhuri"];
    for (language, frames, once) in sessions {
        let mut words = vec![UserWordsOf::of(0, "a chapter on pre-contractual liability in three legal systems")];
        for n in 1..40 {
            let text = frames[n % 3].replace("{t}", titles[n % titles.len()]);
            words.push(UserWordsOf::of(n, if n == 12 { once } else { &text }));
        }
        // Room for the first message, the requirement (64 tokens in Russian), a few lines and the count of the rest.
        let budget = estimate_text(USER_WORDS_HEADING) + 200;
        let shown = project_user_words(&words, budget, "");
        assert!(shown.contains(&format!("WORDS-{}", language.to_uppercase())), "{language}: a requirement is left out for routine requests: {shown}");
        assert!(shown.contains("other messages of the user are kept"), "{language}: {shown}");
    }
}

/// Issue 40, rule `a-locator-alone-cites-nothing`: a full-text tool's page marker ("[[page 469]]")
/// and a sentence that only points ("ABCD2345, p. 14.") were cited pages with nothing said; the page's
/// text after the marker is the page read, no statement either, and a short read's `indexedPages: 1`
/// is no page of it. A sentence that says something of its page is cited.
#[test]
fn a_locator_alone_cites_nothing() {
    let item = json!({ "key": "ITEM2345", "version": 3, "itemType": "book", "title": "Pre-contractual liability", "date": "2019" });
    let page_text = format!("[[page 469]]\n{}\n[[page 470]]\n{}", "The freedom to break off negotiations is limited by good faith. ".repeat(20), "Reliance must be reasonable. ".repeat(20));
    let nodes = vec![
        json!({ "id": "U0", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "open the Cartwright book" }] }),
        json!({ "id": "A0", "parentId": "U0", "role": "assistant", "parts": [
            { "type": "tool-zoteroSearch", "toolCallId": "s0", "state": "output-available", "input": { "q": "cartwright" }, "output": [item] },
            { "type": "tool-readFullText", "toolCallId": "f0", "state": "output-available", "input": { "itemKey": "ITEM2345" },
              "output": { "itemKey": "ITEM2345", "attachmentKey": "ATTA2345", "indexedPages": 2, "totalPages": 520, "text": page_text } },
            // A short read: its text is a statement's length, and `indexedPages` counts pages.
            { "type": "tool-readFullText", "toolCallId": "f1", "state": "output-available", "input": { "itemKey": "ITEM2345", "maxChars": 300 },
              "output": { "itemKey": "ITEM2345", "attachmentKey": "ATTA2345", "indexedPages": 1, "totalPages": 520, "text": "[[page 1061]]\nThe debate on its nature goes on SHORT-READ." } },
            { "type": "text", "text": "See ITEM2345, p. 14. The book (ITEM2345) argues on p. 471 that reliance must be reasonable STATED." },
        ] }),
    ];
    let session = session_of(nodes, "A0");
    let request = summary_request(&session, &plan(&["U0", "A0"], None, None, "A0"), &model(32_768, None)).unwrap();
    let cited: Vec<(&str, &str, &str)> = request.cited_pages.iter().map(|c| (c.key.as_str(), c.locator.as_str(), c.text.as_str())).collect();
    assert_eq!(cited.len(), 1, "a locator alone is cited: {cited:?}");
    assert!(cited[0].1.contains("471") && cited[0].2.contains("STATED"), "{cited:?}");
}
