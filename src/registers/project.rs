//! The registers' projected part: what the summary message shows of them within their budgets.

use crate::session::{CitedPage, UserWords};
use crate::tokens::estimate_text;

/// The registers' shares of a summary budget `S` (rule `register-budgets` in `estimate::capacity`
/// bounds them further by the room the capacity leaves): 2/5 for the user's words, 1/5 for the cited
/// pages; also the budgets of a checkpoint that stored none, from its summary's estimate.
pub fn budgets_for_summary_budget(summary_budget: u64) -> (u64, u64) {
    (summary_budget / 5 * 2, summary_budget / 5)
}

/// Opens the user's words in the summary message.
pub const USER_WORDS_HEADING: &str =
    "\n\nThe user's own words from the compacted turns, carried by code, oldest first (a later message changes what an earlier one said):\n";
/// Opens the cited pages in the summary message.
pub const CITED_PAGES_HEADING: &str = "\n\nPages cited with their Zotero keys in the compacted turns, carried by code, oldest first:\n";
/// A user message shorter than this (characters, without a digit) is an acknowledgement ("ok,
/// thanks"): shown only when everything else fits.
const ACKNOWLEDGEMENT_MAX_CHARS: usize = 12;

fn user_line(number: usize, words: &UserWords) -> String {
    format!("- [{number}] {}\n", words.text)
}

/// `text`'s opening (two thirds) and end (one third) around an ellipsis, within about `tokens`.
fn shortened(text: &str, tokens: u64) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut keep = chars.len();
    loop {
        keep /= 2;
        let head: String = chars[..keep * 2 / 3].iter().collect();
        let tail: String = chars[chars.len() - keep / 3..].iter().collect();
        let candidate = format!("{} […] {}", head.trim_end(), tail.trim_start());
        if keep < 8 || estimate_text(&candidate) + 8 <= tokens {
            return candidate;
        }
    }
}

fn left_out_words_line(left_out: usize) -> String {
    format!("- {left_out} other messages of the user are kept in this checkpoint and not shown here.")
}

/// A message that is one question asks and states nothing to keep; one that also says something
/// ("Skip the abstracts. What does the next one say?") states it.
fn is_question(text: &str) -> bool {
    let text = text.trim_end();
    text.ends_with(['?', '？', '؟']) && !["。", "！", "।", ". ", "! "].iter().any(|end| text.contains(end))
}

fn is_acknowledgement(text: &str) -> bool {
    text.chars().count() < ACKNOWLEDGEMENT_MAX_CHARS && !text.chars().any(|c| c.is_ascii_digit())
}

/// Rule `user-words-budget`: the heading and the user's messages within `budget` tokens, numbered in
/// the order said and shown in that order. Chosen: the first message (where the research usually
/// starts; shortened when over a third of the budget), then the user's statements newest first
/// (later words change earlier ones), then questions, acknowledgements, messages said more than once,
/// requests said in the frame of many others (but the newest, a quarter of the budget) and those that
/// are a line of `summary` last; a message that does not
/// fit is skipped for older, shorter ones. A last line counts the messages left out. Empty when nothing fits.
pub fn project_user_words(words: &[UserWords], budget: u64, summary: &str) -> String {
    project_words(words, budget, summary, true)
}

/// `project_user_words` without the messages that rank last (acknowledgements, messages said more
/// than once, those the summary shows): rule `chatter-after-pages` gives the cited pages the room
/// before them.
pub fn project_user_words_without_chatter(words: &[UserWords], budget: u64, summary: &str) -> String {
    project_words(words, budget, summary, false)
}

fn project_words(words: &[UserWords], budget: u64, summary: &str, chatter: bool) -> String {
    let mut lines: Vec<String> = words.iter().enumerate().map(|(i, w)| user_line(i + 1, w)).collect();
    let mut order: Vec<usize> = Vec::with_capacity(words.len());
    // A first message over its third is shortened to its opening and end rather than left out.
    if let (Some(first), Some(words)) = (lines.first_mut(), words.first()) {
        if estimate_text(first) > budget / 3 {
            *first = user_line(1, &UserWords { id: words.id.clone(), text: shortened(&words.text, budget / 3) });
        }
    }
    let pinned = lines.first().is_some_and(|l| estimate_text(l) <= budget / 3);
    if pinned {
        order.push(0);
    }
    let start = usize::from(pinned);
    // Statements (what the user asks for or rules) before questions, acknowledgements last; the
    // newest first in each.
    // Rule `said-again-is-chatter`: a message the user sent more than once ("next one please",
    // "sorry, meeting") says nothing new; a requirement or a date is said once.
    let texts: Vec<(usize, &str)> = words.iter().enumerate().map(|(i, w)| (i, w.text.trim())).collect();
    let said_again = said_by_another(&texts);
    // Rule `shown-once`: a message that is a line of the summary ranks with them too.
    let shown = line_bodies(summary);
    // Rule `said-in-a-frame-is-routine`: an older request said in the frame of many others ("search
    // the library for «X»") ranks with them, so a requirement stated once in the middle of a long
    // session keeps its place; the newest messages, a quarter of the budget, keep theirs (the last
    // words before the kept tail frame it).
    let subjects: Vec<_> = words.iter().map(|w| crate::summarize::content_tokens(&w.text)).collect();
    let frames = crate::summarize::Frames::of(&subjects);
    let mut recent_tokens = 0;
    let recent = (0..lines.len()).rev().take_while(|&i| {
        recent_tokens += estimate_text(&lines[i]);
        recent_tokens <= budget / 4
    });
    let from = recent.last().unwrap_or(lines.len());
    let routine: Vec<bool> = subjects.iter().enumerate().map(|(i, s)| i < from && frames.is_routine(s)).collect();
    let rank = |i: usize| {
        let text = words[i].text.trim();
        if is_acknowledgement(text) || shown.contains(&text) || said_again[i] || routine[i] {
            2
        } else {
            u8::from(is_question(text))
        }
    };
    let ranks: Vec<u8> = (0..words.len()).map(rank).collect();
    for wanted in 0..if chatter { 3 } else { 2 } {
        order.extend((start..words.len()).rev().filter(|&i| ranks[i] == wanted));
    }
    let left_out_allowance = estimate_text(&left_out_words_line(words.len()));
    let render = |chosen: &[bool]| render_register(USER_WORDS_HEADING, &lines, chosen, left_out_words_line);
    fit(&lines, &order, budget, estimate_text(USER_WORDS_HEADING) + left_out_allowance, render)
}

/// The summary's lines without their bullet and source mark. Compared with each line: a set of
/// strings costs the wasm more than the summary's few hundred lines cost here.
fn line_bodies(summary: &str) -> Vec<&str> {
    summary
        .lines()
        .map(|l| {
            let l = l.trim_start().trim_start_matches("- ");
            l.strip_prefix('(').and_then(|r| r.split_once(") ")).map_or(l, |(_, body)| body).trim()
        })
        .collect()
}

/// A register as projected: its heading, the chosen lines in order, and a line counting the rest.
fn render_register(heading: &str, lines: &[String], chosen: &[bool], left_out_line: fn(usize) -> String) -> String {
    let mut text = String::from(heading);
    for (line, _) in lines.iter().zip(chosen).filter(|(_, &c)| c) {
        text.push_str(line);
    }
    let left_out = chosen.iter().filter(|&&c| !c).count();
    if left_out > 0 {
        text.push_str(&left_out_line(left_out));
    }
    text.truncate(text.trim_end().len());
    text
}

fn page_line(page: &CitedPage) -> String {
    if page.text.is_empty() {
        format!("- {} {}\n", page.key, page.locator)
    } else {
        format!("- {} {}: {}\n", page.key, page.locator, page.text)
    }
}

fn left_out_pages_line(left_out: usize) -> String {
    format!("- {left_out} more cited pages are kept in this checkpoint and not shown here.")
}

/// Rule `cited-pages-budget`: the heading and the cited pages within `budget` tokens, the newest
/// first (each item's newest before any item's second), one per key and locator (its newest
/// sentence), shown oldest first, and a line counting the rest. Rule `shown-once`: a page whose
/// sentence is a line of `summary` comes after the others (the model reads it there, with its key
/// and page), and before those a page that says only what other pages say (rule
/// `said-of-many-pages-says-little`). Empty when there are none or nothing fits.
pub fn project_cited_pages(pages: &[CitedPage], budget: u64, summary: &str) -> String {
    let mut newest = std::collections::HashSet::new();
    let distinct: Vec<&CitedPage> = {
        let mut kept: Vec<&CitedPage> = pages.iter().rev().filter(|p| newest.insert(crate::text::tuple_key(&[&p.key, &p.locator]))).collect();
        kept.reverse();
        kept
    };
    let lines: Vec<String> = distinct.iter().map(|p| page_line(p)).collect();
    let shown = line_bodies(summary);
    let in_summary: Vec<bool> = distinct.iter().map(|p| !p.text.is_empty() && shown.contains(&p.text.trim())).collect();
    // Rule `each-paper-then-more-pages`: each item's newest page before a second page of any item, so
    // a paper read closely (thirty highlights) does not push every earlier paper out.
    let mut by_key: Vec<usize> = (0..lines.len()).collect();
    crate::order::sort_positions(&mut by_key, &|a, b| distinct[a].key.cmp(&distinct[b].key).then(b.cmp(&a)));
    let mut rank = vec![0usize; lines.len()];
    for pair in by_key.windows(2) {
        if distinct[pair[0]].key == distinct[pair[1]].key {
            rank[pair[1]] = rank[pair[0]] + 1;
        }
    }
    let repeated = said_of_other_pages(&distinct);
    let mut order: Vec<usize> = (0..lines.len()).rev().collect();
    crate::order::sort_positions(&mut order, &|a, b| {
        in_summary[a].cmp(&in_summary[b]).then(repeated[a].cmp(&repeated[b])).then(rank[a].cmp(&rank[b]))
    });
    let allowance = estimate_text(CITED_PAGES_HEADING) + estimate_text(&left_out_pages_line(pages.len()));
    let render = |chosen: &[bool]| render_register(CITED_PAGES_HEADING, &lines, chosen, left_out_pages_line);
    fit(&lines, &order, budget, allowance, render)
}

/// Rule `said-of-many-pages-says-little`: whether every part of a page's text (a highlight, the
/// reader's comment on it) is also a part of another page's: a reader's shorthand ("method ok",
/// "see table 2") or a tool's boilerplate says nothing of that page; a page with a part of its own
/// (a highlight, a finding) does.
fn said_of_other_pages(pages: &[&CitedPage]) -> Vec<bool> {
    let mut parts: Vec<(usize, &str)> = Vec::new();
    for (i, page) in pages.iter().enumerate() {
        let (quote, comment) = page.text.split_once(super::collect::COMMENT_JOIN).unwrap_or((&page.text, ""));
        parts.extend([(i, quote.trim()), (i, comment.trim())].into_iter().filter(|(_, part)| !part.is_empty()));
    }
    let mut own = vec![false; pages.len()];
    for (&(page, _), shared) in parts.iter().zip(said_by_another(&parts)) {
        own[page] |= !shared;
    }
    pages.iter().zip(own).map(|(p, own)| !own && !p.text.is_empty()).collect()
}

/// For each `(owner, text)`: whether another owner says the same text (rules `said-again-is-chatter`
/// and `said-of-many-pages-says-little`). Found among the texts sorted: compared pairwise, a chat of
/// 5,000 user messages held the first projection after its compaction for 0.2 s. Only neighbours
/// are compared, so of one owner's two equal texts only one is marked (a page whose highlight is its
/// comment word for word).
fn said_by_another(texts: &[(usize, &str)]) -> Vec<bool> {
    let mut by_text: Vec<usize> = (0..texts.len()).collect();
    crate::order::sort_positions(&mut by_text, &|a, b| texts[a].1.cmp(texts[b].1));
    let mut said = vec![false; texts.len()];
    for pair in by_text.windows(2) {
        let (a, b) = (texts[pair[0]], texts[pair[1]]);
        if a.1 == b.1 && a.0 != b.0 {
            said[pair[0]] = true;
            said[pair[1]] = true;
        }
    }
    said
}

/// The recall note's sentence, with the handles shown (`shown`, newest first) and how many are older.
fn recall_text(shown: &[&String], older: usize) -> String {
    let mut listed = shown.iter().map(|h| h.as_str()).collect::<Vec<_>>().join(", ");
    if !listed.is_empty() {
        listed.insert_str(0, "newest first: ");
    }
    if older > 0 {
        listed.push_str(&format!("{}{older} older: query", if shown.is_empty() { "" } else { "; " }));
    }
    format!("\n\nThe recall tool reads what was compacted: tool outputs by call id ({listed}), user messages by [number], Zotero keys by key and page, words by query.")
}

/// Rule `recall-note`: what the recall tool reaches, with the newest handles of folded tool outputs
/// (`"<toolName> <callId>"`) that fit `budget`, and how many older ones are not shown. Empty when
/// there are no handles or the sentence alone does not fit.
pub fn project_recall_handles(handles: &[String], budget: u64) -> String {
    if handles.is_empty() {
        return String::new();
    }
    let mut shown: Vec<&String> = Vec::new();
    for handle in handles.iter().rev() {
        shown.push(handle);
        if estimate_text(&recall_text(&shown, handles.len() - shown.len())) > budget {
            shown.pop();
            break;
        }
    }
    let text = recall_text(&shown, handles.len() - shown.len());
    if estimate_text(&text) <= budget { text } else { String::new() }
}

/// Takes lines in `order` while their estimates fit `budget` after `fixed`, then drops the last
/// taken until the rendered text's own estimate fits (estimates of pieces need not add up exactly).
fn fit(lines: &[String], order: &[usize], budget: u64, fixed: u64, render: impl Fn(&[bool]) -> String) -> String {
    if lines.is_empty() || fixed >= budget {
        return String::new();
    }
    let mut chosen = vec![false; lines.len()];
    let mut taken = Vec::new();
    let mut used = fixed;
    for &i in order {
        let tokens = estimate_text(&lines[i]);
        if used + tokens <= budget {
            used += tokens;
            chosen[i] = true;
            taken.push(i);
        }
    }
    loop {
        if taken.is_empty() {
            return String::new();
        }
        let text = render(&chosen);
        if estimate_text(&text) <= budget {
            return text;
        }
        if let Some(last) = taken.pop() {
            chosen[last] = false;
        }
    }
}
