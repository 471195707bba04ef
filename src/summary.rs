//! The research checkpoint's shape: the eight sections, their validation, and the embedded
//! extractive summarizer that fills them without a model.

use crate::error::{Error, ErrorCode, Result};

/// The sections of a research checkpoint, in the order the summary must give them.
pub const SECTIONS: [&str; 8] = [
    "Research Goal",
    "User Requirements and Constraints",
    "Research Progress",
    "Findings and Evidence",
    "Key Zotero Resources",
    "Decisions",
    "Next Steps",
    "Critical Context",
];

/// Checks that `text` is a non-empty summary with the eight sections as headings, in order.
///
/// A heading is a line that, after markdown decoration is removed (`#`..`######`, `**`/`__`,
/// a leading `1.` or `1)`, a trailing `:`), starts with a section name, case-insensitively;
/// a parenthesised note may follow it ("Research Progress (completed, active, blocked)").
/// Other headings (sub-headings) are allowed between the sections.
pub fn validate_summary(text: &str) -> Result<()> {
    if text.trim().is_empty() {
        return Err(Error::new(ErrorCode::InvalidSummary, "summary is empty"));
    }
    let mut found: Vec<Option<usize>> = vec![None; SECTIONS.len()];
    for (line_number, line) in text.lines().enumerate() {
        if let Some(section) = heading_section(line) {
            if found[section].is_none() {
                found[section] = Some(line_number);
            }
        }
    }
    let mut previous: Option<(usize, usize)> = None;
    for (section, line) in found.iter().enumerate() {
        let Some(line) = *line else {
            return Err(Error::new(
                ErrorCode::InvalidSummary,
                format!("summary is missing the section \"{}\"", SECTIONS[section]),
            ));
        };
        if let Some((previous_section, previous_line)) = previous {
            if line < previous_line {
                return Err(Error::new(
                    ErrorCode::InvalidSummary,
                    format!(
                        "section \"{}\" comes before \"{}\"; the sections must be in order",
                        SECTIONS[section], SECTIONS[previous_section]
                    ),
                ));
            }
        }
        previous = Some((section, line));
    }
    Ok(())
}

/// The section a heading line names, if it is one.
fn heading_section(line: &str) -> Option<usize> {
    let mut rest = line.trim();
    let hashes = rest.len() - rest.trim_start_matches('#').len();
    if hashes > 6 {
        return None;
    }
    rest = rest[hashes..].trim();
    let mut emphasized = false;
    for mark in ["**", "__"] {
        if let Some(inner) = rest.strip_prefix(mark) {
            rest = inner.trim_start();
            emphasized = true;
        }
    }
    // Only a colon or a parenthesised note may follow the name: a sentence that merely
    // starts with "Decisions" is not a heading.
    let decorated = hashes > 0 || emphasized;
    rest = strip_numbering(rest);
    // ASCII case folding on the original bytes: a full Unicode lowercase can change byte lengths
    // (the Kelvin sign folds to `k`), and the names are ASCII.
    let section = SECTIONS
        .iter()
        .position(|name| rest.get(..name.len()).is_some_and(|head| head.eq_ignore_ascii_case(name)))?;
    let after = rest[SECTIONS[section].len()..]
        .trim()
        .trim_end_matches(['*', '_', ' '])
        .trim_end_matches(':')
        .trim_end_matches(['*', '_', ' '])
        .trim();
    let after = after.trim_start_matches(['*', '_']).trim_start_matches(':').trim();
    let ok = after.is_empty() || (after.starts_with('(') && (after.ends_with(')') || decorated));
    ok.then_some(section)
}

/// Removes a leading "1." / "1)" / "I." style ordinal.
fn strip_numbering(text: &str) -> &str {
    let digits = text.len() - text.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 {
        let rest = &text[digits..];
        if let Some(rest) = rest.strip_prefix('.').or_else(|| rest.strip_prefix(')')) {
            return rest.trim_start();
        }
    }
    text
}

// ---------------------------------------------------------------------------------------------
// The embedded extractive summarizer.

/// Longest sentence or excerpt copied into the extractive summary, in characters.
const EXCERPT_MAX_CHARS: usize = 300;
/// Most new findings (tool results) listed; the newest are kept, the ledger keeps every key.
const MAX_NEW_FINDINGS: usize = 30;
/// Most lines carried over from one section of the previous summary (goal, constraints and
/// decisions excepted: they carry over whole, and the budget trims them last).
const MAX_CARRIED_LINES: usize = 40;
/// Zotero keys named per tool finding; the rest are counted (all of them are in the ledger).
const KEYS_PER_FINDING: usize = 12;

/// Words that make a user sentence a requirement or constraint, even in a question ("only
/// peer-reviewed studies, ok?"): explicit limits, exclusions, citation style, deadlines.
const REQUIREMENT_CUES: [&str; 30] = [
    "must", "only", "don't", "dont", "do not", "never", "always", "require", "required", "requires",
    "exclude", "excluding", "at least", "at most", "no more than", "make sure", "peer-reviewed", "peer reviewed",
    "citation style", "deadline", "due by", "inclusion criteria", "exclusion criteria",
    "必须", "只", "不要", "不能", "务必", "请勿", "截止",
];
/// Softer words that make a statement a constraint ("we need three cohort studies"), but not a
/// question ("should we look at paper 7 next?"): explicit cues outrank question words.
const SOFT_CONSTRAINT_CUES: [&str; 7] = ["need", "needs", "should", "avoid", "without", "prefer", "需要"];
/// Words that open a question in the languages the assistant is used in.
const QUESTION_OPENERS: [&str; 16] = [
    "should", "shall", "could", "can", "would", "will", "do", "does", "did", "is", "are", "what", "which", "how", "why",
    "where",
];
/// Words that mark a user sentence as a statement of the research objective.
const GOAL_CUES: [&str; 10] = [
    "research goal", "my goal", "our goal", "the goal", "objective", "research question", "i am writing", "i'm writing",
    "we are writing", "研究目标",
];

/// Words that mark a user sentence as a decision.
const DECISION_CUES: [&str; 14] = [
    "let's", "let us", "we will", "we'll", "decide", "decided", "go with", "instead", "choose", "chose",
    "focus on", "决定", "改用", "就用",
];

/// One message of a serialized history (see `serialize`).
#[derive(Debug, Default)]
struct HistoryMessage {
    role: String,
    id: String,
    blocks: Vec<Block>,
}

#[derive(Debug, Default)]
struct Block {
    /// The header without its dashes: "text", "tool zoteroSearch | call c1 | result", ...
    header: String,
    lines: Vec<String>,
}

fn parse_history(history: &str) -> Vec<HistoryMessage> {
    let mut messages: Vec<HistoryMessage> = Vec::new();
    for line in history.lines() {
        if let Some(header) = structural_header(line) {
            if let Some(rest) = header.strip_prefix("message ") {
                let fields: Vec<&str> = rest.split(" | ").collect();
                let role = fields.get(1).copied().unwrap_or("").to_string();
                let id = fields.get(2).and_then(|f| f.strip_prefix("id ")).unwrap_or("").to_string();
                messages.push(HistoryMessage { role, id, blocks: vec![Block { header: "text".into(), lines: Vec::new() }] });
            } else if let Some(message) = messages.last_mut() {
                message.blocks.push(Block { header: header.to_string(), lines: Vec::new() });
            }
            continue;
        }
        let line = match line.strip_prefix('\\') {
            Some(rest) if crate::serialize::looks_structural(rest) => rest,
            _ => line,
        };
        if let Some(block) = messages.last_mut().and_then(|m| m.blocks.last_mut()) {
            block.lines.push(line.to_string());
        }
    }
    messages
}

/// The text of a structural line (`--- text ---` gives `text`).
fn structural_header(line: &str) -> Option<&str> {
    let inner = line.strip_prefix("--- ")?.strip_suffix(" ---")?;
    inner.chars().next().is_some_and(char::is_alphabetic).then_some(inner)
}

/// The previous summary's sections: body lines per section (headings removed).
fn previous_sections(summary: &str) -> Vec<Vec<String>> {
    let mut sections: Vec<Vec<String>> = vec![Vec::new(); SECTIONS.len()];
    let mut current: Option<usize> = None;
    for line in summary.lines() {
        if let Some(section) = heading_section(line) {
            current = Some(section);
            continue;
        }
        let line = line.trim_end();
        let is_note = line.contains("extractive summarizer");
        if let (Some(section), false) = (current, line.trim().is_empty() || line.trim() == "None." || is_note) {
            sections[section].push(line.to_string());
        }
    }
    sections
}

fn sentences(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let next_is_space = chars.get(i + 1).is_none_or(|n| n.is_whitespace());
        let ends = matches!(c, '\n' | '。' | '！' | '？' | '；') || (matches!(c, '.' | '!' | '?' | ';') && next_is_space);
        if c != '\n' {
            current.push(c);
        }
        if ends {
            push_sentence(&mut out, &current);
            current.clear();
        }
    }
    push_sentence(&mut out, &current);
    out
}

fn push_sentence(out: &mut Vec<String>, sentence: &str) {
    let sentence = crate::zotero::single_line(sentence);
    let sentence = sentence.trim_start_matches(['-', '*', '#', '>', ' ']).trim();
    if sentence.chars().count() >= 3 {
        out.push(sentence.to_string());
    }
}

fn has_cue(sentence: &str, cues: &[&str]) -> bool {
    // ASCII lowering is enough: the cues are ASCII or CJK (no case), and full Unicode lowering
    // pulls its case tables into the wasm (8 KB gzipped).
    let lower = sentence.to_ascii_lowercase();
    cues.iter().any(|cue| {
        if !cue.is_ascii() {
            return lower.contains(cue);
        }
        lower.match_indices(cue).any(|(at, _)| {
            let before = lower[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric());
            let after = lower[at + cue.len()..].chars().next().is_none_or(|c| !c.is_alphanumeric());
            before && after
        })
    })
}

/// Rule `requirement-cues-outrank-questions`: a sentence with an explicit requirement cue is a
/// constraint; one with only a soft cue is a constraint unless it is a question.
fn is_constraint(sentence: &str) -> bool {
    if has_cue(sentence, &REQUIREMENT_CUES) {
        return true;
    }
    has_cue(sentence, &SOFT_CONSTRAINT_CUES) && !is_question(sentence)
}

fn is_question(sentence: &str) -> bool {
    let trimmed = sentence.trim_end();
    if trimmed.ends_with('?') || trimmed.ends_with('？') || trimmed.ends_with('吗') {
        return true;
    }
    let first: String = trimmed.chars().take_while(|c| c.is_alphabetic()).collect::<String>().to_ascii_lowercase(); // the openers are ASCII words
    QUESTION_OPENERS.contains(&first.as_str())
}

/// A bullet line that can never be read as a section heading.
fn bullet(source: &str, text: &str) -> String {
    let text = crate::zotero::clip(&crate::zotero::single_line(text), EXCERPT_MAX_CHARS);
    if source.is_empty() {
        format!("- {text}")
    } else {
        format!("- ({source}) {text}")
    }
}

fn message_text(message: &HistoryMessage) -> String {
    message.blocks.iter().filter(|b| b.header == "text").flat_map(|b| b.lines.iter()).cloned().collect::<Vec<_>>().join("\n")
}

/// Keys named in rendered Zotero lines (`[item] key=ABCD2345 ...`).
fn zotero_keys(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| l.starts_with('['))
        .filter_map(|l| {
            let at = l.find(" key=").map(|i| i + 5).or_else(|| l.find(" attachmentKey=").map(|i| i + 15))?;
            let key: String = l[at..].chars().take_while(|c| !c.is_whitespace()).collect();
            (!key.is_empty()).then_some(key)
        })
        .collect()
}

/// Fills the eight sections from the request's previous summary, serialized history and ledger,
/// deterministically and without a model. The text says that it is extractive.
pub fn extractive_summary(request: &crate::prompt::SummaryRequest) -> String {
    let messages = parse_history(&request.history);
    let previous = request.previous_summary.as_deref().map(previous_sections).unwrap_or_else(|| vec![Vec::new(); SECTIONS.len()]);
    let user_messages: Vec<&HistoryMessage> = messages.iter().filter(|m| m.role == "user").collect();

    let mut sections: Vec<Vec<String>> = vec![Vec::new(); SECTIONS.len()];
    let carry = |index: usize, limit: Option<usize>| -> Vec<String> {
        let lines = &previous[index];
        let skip = limit.map_or(0, |l| lines.len().saturating_sub(l));
        lines[skip..].iter().map(|l| if heading_section(l).is_some() { format!("- {}", l.trim()) } else { l.clone() }).collect()
    };

    // Research Goal: the previous checkpoint's, else the first user message (what it says besides its
    // constraints), then every later user statement of the objective.
    // Goal and decisions carry over whole (the budget trims them last, newest first); so do constraints.
    sections[0] = carry(0, None);
    let carried_goal = !sections[0].is_empty();
    let first_user = user_messages.iter().position(|m| !message_text(m).trim().is_empty());
    if !carried_goal {
        if let Some(first) = first_user.map(|at| message_text(user_messages[at])) {
            let goal: Vec<String> = sentences(&first).into_iter().filter(|s| !is_constraint(s)).collect();
            sections[0].push(bullet("user", &if goal.is_empty() { first } else { goal.join(" ") }));
        }
    }

    // Constraints and decisions: every cue sentence of the user, after the previous ones.
    sections[1] = carry(1, None);
    sections[5] = carry(5, None);
    for (at, message) in user_messages.iter().enumerate() {
        for sentence in sentences(&message_text(message)) {
            if is_constraint(&sentence) {
                sections[1].push(bullet("user", &sentence));
            } else if (carried_goal || Some(at) != first_user) && has_cue(&sentence, &GOAL_CUES) && !is_question(&sentence) {
                sections[0].push(bullet("user", &sentence));
            } else if has_cue(&sentence, &DECISION_CUES) {
                sections[5].push(bullet("user", &sentence));
            }
        }
    }

    // Progress, findings, approvals: from the tool blocks.
    sections[2] = carry(2, Some(MAX_CARRIED_LINES));
    sections[3] = carry(3, Some(MAX_CARRIED_LINES));
    let mut completed: Vec<(String, usize)> = Vec::new();
    let mut findings = Vec::new();
    for message in &messages {
        for block in &message.blocks {
            let Some(tool) = block.header.strip_prefix("tool ") else { continue };
            let fields: Vec<&str> = tool.split(" | ").collect();
            let name = fields.first().copied().unwrap_or("tool");
            let status = fields.get(2).copied().unwrap_or("");
            let content = crate::zotero::single_line(&block.lines.join(" "));
            match status {
                "result" => {
                    match completed.iter_mut().find(|(n, _)| n == name) {
                        Some((_, count)) => *count += 1,
                        None => completed.push((name.to_string(), 1)),
                    }
                    let keys = zotero_keys(&block.lines);
                    let finding = if keys.is_empty() {
                        format!("{name} returned: {content}")
                    } else {
                        let shown = keys.iter().take(KEYS_PER_FINDING).cloned().collect::<Vec<_>>().join(", ");
                        let more = keys.len().saturating_sub(KEYS_PER_FINDING);
                        let more = if more > 0 { format!(" and {more} more") } else { String::new() };
                        format!("{name} returned {} Zotero objects ({shown}{more}): {content}", keys.len())
                    };
                    findings.push(bullet("tool", &finding));
                }
                "error" => sections[2].push(bullet("tool", &format!("Blocked: {name} failed: {content}"))),
                "denied by the user" => sections[5].push(bullet("user", &format!("Denied the tool call {name}. {content}"))),
                "approval refused" => sections[5].push(bullet("user", &format!("Refused approval for {name}. {content}"))),
                "awaiting approval" => sections[2].push(bullet("", &format!("Active: {name} awaits the user's approval"))),
                "interrupted, no result" => sections[2].push(bullet("", &format!("Interrupted: {name} ended without a result"))),
                _ => {}
            }
        }
    }
    if !completed.is_empty() {
        let list = completed.iter().map(|(n, c)| format!("{n} x{c}")).collect::<Vec<_>>().join(", ");
        sections[2].push(bullet("tool", &format!("Completed tool calls: {list}")));
    }
    let skip = findings.len().saturating_sub(MAX_NEW_FINDINGS);
    sections[3].extend(findings.into_iter().skip(skip));
    if let Some(answer) = messages.iter().rev().filter(|m| m.role == "assistant").map(message_text).find(|t| !t.trim().is_empty()) {
        sections[3].push(bullet("inferred", &format!("Latest assistant answer: {answer}")));
    }

    // Key Zotero Resources: the whole ledger, exactly.
    let ledger = crate::ledger::render(&request.ledger);
    sections[4] = ledger.lines().map(str::to_string).collect();

    // Next Steps: the latest user request (open when nothing answered it).
    let latest = messages.iter().rposition(|m| m.role == "user");
    match latest {
        Some(at) => {
            let text = message_text(&messages[at]);
            let open = !messages[at + 1..].iter().any(|m| m.role == "assistant");
            let state = if open { "Open request (not yet answered)" } else { "Latest request" };
            sections[2].push(bullet("user", &format!("Active: {text}")));
            sections[6].push(bullet("user", &format!("{state}: {text}")));
        }
        None => sections[6] = carry(6, Some(MAX_CARRIED_LINES)),
    }

    // Critical Context: what this text is, and what it covers.
    sections[7] = carry(7, Some(MAX_CARRIED_LINES));
    sections[7].push(
        "- This checkpoint was written by the embedded extractive summarizer (no model): it copies sentences from the \
history and lists the Zotero ledger without interpreting them; (inferred) marks text the assistant wrote."
            .to_string(),
    );
    if let (Some(first), Some(last)) = (messages.first(), messages.last()) {
        sections[7].push(format!("- Summarized {} messages, from {} to {}.", messages.len(), first.id, last.id));
    }

    for lines in &mut sections {
        let mut seen = std::collections::HashSet::new();
        lines.retain(|l| seen.insert(l.trim().to_string()));
    }
    fit_budget(&mut sections, request.max_output_tokens);
    render_sections(&sections)
}

/// Sections that give up lines first when the summary is over its budget (rule `goal-trimmed-last`):
/// the resource list (the checkpoint keeps the whole ledger, the projection shows its share beside the
/// summary), tool findings and progress, then context and next steps, then decisions, constraints
/// and, last, the research goal.
const TRIM_ORDER: [usize; 8] = [4, 3, 2, 7, 6, 5, 1, 0];

/// Sections whose newest lines go first: the oldest goal and constraints are the ones a long session
/// must not lose (they were stated first and everything since builds on them; a line trimmed here is
/// gone from the model's view, only the "left out" note says so). Elsewhere the oldest go first.
const NEWEST_FIRST: [usize; 2] = [0, 1];

/// Rule `extractive-within-budget`: like a model's answer, the extractive summary stays within the
/// request's `maxOutputTokens`, which the plan counts on for the projection after the compaction. Lines
/// are left out in `TRIM_ORDER`, oldest first (newest first in `NEWEST_FIRST`); the note saying what the text is, and how many lines
/// were left out, stays.
fn fit_budget(sections: &mut [Vec<String>], budget: u64) {
    let is_note = |line: &String| line.contains("embedded extractive summarizer") || line.starts_with(LEDGER_POINTER);
    let mut left_out = 0usize;
    loop {
        let tokens = crate::tokens::estimate_text(&render_sections(sections));
        if tokens <= budget {
            break;
        }
        // The resource list is trimmed first; say where it is instead of leaving the section "None.".
        let resources = sections[4].len();
        if resources > 0 && !sections[4].iter().any(is_note) {
            sections[4].insert(0, format!("{LEDGER_POINTER} ({resources} entries) is kept with this checkpoint."));
        }
        let mut excess = tokens - budget;
        let mut removed = false;
        for &index in &TRIM_ORDER {
            while excess > 0 {
                let removable = |l: &String| !is_note(l) && !l.starts_with("- Left out");
                let found = if NEWEST_FIRST.contains(&index) {
                    sections[index].iter().rposition(removable)
                } else {
                    sections[index].iter().position(removable)
                };
                let Some(at) = found else { break };
                let line = sections[index].remove(at);
                excess = excess.saturating_sub(crate::tokens::estimate_text(&line).max(1));
                left_out += 1;
                removed = true;
            }
        }
        if let Some(note) = sections[7].iter_mut().find(|l| l.starts_with("- Left out")) {
            *note = left_out_note(left_out, budget);
        } else if left_out > 0 {
            sections[7].push(left_out_note(left_out, budget));
        }
        if !removed {
            break; // only the headings and notes are left
        }
    }
}

/// Opens the line that stands for the trimmed resource list.
const LEDGER_POINTER: &str = "- The exact Zotero resource ledger";

fn left_out_note(lines: usize, budget: u64) -> String {
    format!("- Left out {lines} lines to fit the summary budget of {budget} tokens; the checkpoint keeps the whole resource ledger.")
}

fn render_sections(sections: &[Vec<String>]) -> String {
    let mut out = String::new();
    for (index, name) in SECTIONS.iter().enumerate() {
        let lines = &sections[index];
        out.push_str("## ");
        out.push_str(name);
        out.push('\n');
        if lines.is_empty() {
            out.push_str("None.\n");
        }
        for line in lines {
            out.push_str(line);
            out.push('\n');
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out
}
