//! Repair of a summary that fails validation (issue 41): a small model that answers the summary
//! request in prose, or with some of the headings, must not block every send over the limit.
//!
//! Rule `summary-repaired`: what the model wrote is kept, rearranged only. Each recognised section
//! keeps its body (a section given twice: both bodies, in the order written), the sections are put
//! in their order, text under no recognised heading goes under "Critical Context" before that
//! section's own body, and a missing section gets the line `None.` (as the prompt asks a model to
//! write). A line "Section Name: text" opens that section with its text. When nothing usable came
//! back (empty, or headings alone), the caller commits the embedded extractive summary instead.

use serde::Serialize;

use super::extractive::extractive_summary;
use super::request::SummaryRequest;
use super::sections::{heading_section, labelled_section, SECTIONS};
use super::validate::validate_summary;
use crate::error::Result;

/// Where text under no recognised heading goes.
const UNPLACED_SECTION: usize = SECTIONS.len() - 1;
/// The body of a section the model did not give.
const EMPTY_SECTION: &str = "None.";

/// How an invalid summary was made committable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename = "SummaryRepairKind"))]
#[serde(rename_all = "kebab-case")]
pub enum RepairKind {
    /// The model's text, rearranged under the eight sections (`repair_summary`).
    Kept,
    /// Nothing usable came back: the embedded extractive summary of the same request.
    Embedded,
}

/// Said in a committed outcome whose summary was repaired; absent when the summary was valid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
pub struct SummaryRepair {
    pub kind: RepairKind,
    /// Why the model's summary was invalid (the `invalid-summary` message of `validate_summary`).
    pub problem: String,
}

/// The summary to commit and, when it is not the model's text as written, how it was repaired.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettledSummary {
    pub summary: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repair: Option<SummaryRepair>,
}

/// `text` rearranged into a summary `validate_summary` accepts (rule `summary-repaired`), or `None`
/// when it holds nothing usable: empty, blank, or headings with no text under any.
pub fn repair_summary(text: &str) -> Option<String> {
    let mut bodies: Vec<Vec<&str>> = vec![Vec::new(); SECTIONS.len()];
    let mut unplaced: Vec<&str> = Vec::new();
    let mut current: Option<usize> = None;
    for line in text.lines() {
        if let Some(section) = heading_section(line) {
            current = Some(section);
        } else if let Some((section, rest)) = labelled_section(line).filter(|(_, rest)| heading_section(rest).is_none()) {
            // ("Research Goal: Decisions" stays a line of text: its rest would read as a heading.)
            current = Some(section);
            bodies[section].push(rest);
        } else {
            match current {
                Some(section) => bodies[section].push(line.trim_end()),
                None => unplaced.push(line.trim_end()),
            }
        }
    }
    if !bodies.iter().flatten().chain(unplaced.iter()).any(|line| is_content(line)) {
        return None;
    }
    unplaced.append(&mut bodies[UNPLACED_SECTION]);
    bodies[UNPLACED_SECTION] = unplaced;

    let mut out = String::with_capacity(text.len() + 256);
    for (section, body) in bodies.iter().enumerate() {
        out.push_str("## ");
        out.push_str(SECTIONS[section]);
        out.push('\n');
        let start = body.iter().position(|line| !line.trim().is_empty());
        let end = body.iter().rposition(|line| !line.trim().is_empty());
        match (start, end) {
            (Some(start), Some(end)) if body[start..=end].iter().any(|line| is_content(line)) => {
                for line in &body[start..=end] {
                    out.push_str(line);
                    out.push('\n');
                }
            }
            _ => {
                out.push_str(EMPTY_SECTION);
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    // The headings are written here and every heading line was taken out of the bodies, so this
    // holds; checked anyway, since a wrong repair must fall back, never be committed.
    validate_summary(&out).ok().map(|()| out)
}

/// The summary to commit for what the summarizer returned: `text` when valid; else the repair of
/// it (`kept`); else, when nothing usable came back, the extractive summary of `request` (`embedded`),
/// read only then. Errors only from reading the request.
pub fn settle_summary(text: &str, request: impl FnOnce() -> Result<SummaryRequest>) -> Result<SettledSummary> {
    let Err(invalid) = validate_summary(text) else {
        return Ok(SettledSummary { summary: text.to_string(), repair: None });
    };
    let problem = invalid.message;
    Ok(match repair_summary(text) {
        Some(summary) => SettledSummary { summary, repair: Some(SummaryRepair { kind: RepairKind::Kept, problem }) },
        None => SettledSummary {
            summary: extractive_summary(&request()?),
            repair: Some(SummaryRepair { kind: RepairKind::Embedded, problem }),
        },
    })
}

/// A line that says something: a letter or digit outside a markdown heading's marks (`# Summary`
/// alone, a rule or an empty bullet is not content).
fn is_content(line: &str) -> bool {
    let line = line.trim();
    !line.starts_with('#') && line.chars().any(char::is_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{Error, ErrorCode};

    fn request() -> Result<SummaryRequest> {
        Ok(SummaryRequest {
            system: String::new(),
            prompt: String::new(),
            max_output_tokens: 400,
            ledger: Default::default(),
            history: "[user]\nFind papers on soil carbon and compare their methods.\n".into(),
            previous_summary: None,
            user_words: Vec::new(),
            cited_pages: Vec::new(),
            recall_handles: Vec::new(),
            item_ids: Vec::new(),
            continues_at: None,
        })
    }

    /// The body under `section` in a valid summary (the lines up to the next section heading).
    fn body<'a>(summary: &'a str, section: &str) -> Vec<&'a str> {
        let mut lines = summary.lines().skip_while(|l| *l != format!("## {section}")).skip(1);
        let mut out = Vec::new();
        for line in lines.by_ref() {
            if line.starts_with("## ") {
                break;
            }
            if !line.is_empty() {
                out.push(line);
            }
        }
        out
    }

    #[test]
    fn prose_goes_under_critical_context_and_the_rest_is_none() {
        let prose = "The user is comparing two soil-carbon studies.\nThey prefer field data over models.";
        assert!(validate_summary(prose).is_err());
        let repaired = repair_summary(prose).expect("prose is usable");
        validate_summary(&repaired).unwrap();
        assert_eq!(body(&repaired, "Critical Context"), prose.lines().collect::<Vec<_>>());
        for section in &SECTIONS[..7] {
            assert_eq!(body(&repaired, section), ["None."], "{section}");
        }
    }

    #[test]
    fn headings_given_keep_their_bodies_and_prose_goes_before_critical_context() {
        let text = "Here is what I found so far.\n\n## Research Goal\nCompare methods (user).\n\n**Decisions:**\n- Use Smith 2020 (user)\n\n## Critical Context\nDeadline Friday.\n";
        let repaired = repair_summary(text).unwrap();
        validate_summary(&repaired).unwrap();
        assert_eq!(body(&repaired, "Research Goal"), ["Compare methods (user)."]);
        assert_eq!(body(&repaired, "Decisions"), ["- Use Smith 2020 (user)"]);
        assert_eq!(body(&repaired, "Critical Context"), ["Here is what I found so far.", "Deadline Friday."]);
        assert_eq!(body(&repaired, "Next Steps"), ["None."]);
    }

    #[test]
    fn headings_out_of_order_are_put_in_order_and_a_repeated_one_keeps_both_bodies() {
        let mut text = String::new();
        for section in SECTIONS.iter().rev() {
            text.push_str(&format!("# {section}\n- about {section}\n"));
        }
        text.push_str("## Decisions\n- a second decision\n");
        let problem = validate_summary(&text).unwrap_err().message;
        assert!(problem.contains("must be in order"), "{problem}");
        let repaired = repair_summary(&text).unwrap();
        validate_summary(&repaired).unwrap();
        let headings: Vec<&str> = repaired.lines().filter(|l| l.starts_with("## ")).collect();
        assert_eq!(headings, SECTIONS.iter().map(|s| format!("## {s}")).collect::<Vec<_>>());
        assert_eq!(body(&repaired, "Decisions"), ["- about Decisions", "- a second decision"]);
    }

    #[test]
    fn labelled_lines_open_their_section() {
        let text = "Research Goal: map the literature on X.\n**Next Steps:** read Doe 2021\nthen draft the review";
        let repaired = repair_summary(text).unwrap();
        assert_eq!(body(&repaired, "Research Goal"), ["map the literature on X."]);
        assert_eq!(body(&repaired, "Next Steps"), ["read Doe 2021", "then draft the review"]);
        assert_eq!(body(&repaired, "Critical Context"), ["None."]);
        // A sentence that starts with a section name is prose.
        let prose = repair_summary("Decisions were made quickly.").unwrap();
        assert_eq!(body(&prose, "Critical Context"), ["Decisions were made quickly."]);
    }

    #[test]
    fn nothing_usable_is_none() {
        assert_eq!(repair_summary(""), None);
        assert_eq!(repair_summary(" \n\t\n"), None);
        assert_eq!(repair_summary("## Research Goal\n\n## Decisions\n# Summary\n---\n- \n"), None);
    }

    #[test]
    fn cjk_and_vietnamese_prose_is_kept_whole() {
        for prose in ["用户正在比较两篇关于土壤碳的研究。\n他们更喜欢实地数据。", "Người dùng đang so sánh hai nghiên cứu về carbon trong đất.\nHọ ưu tiên dữ liệu thực địa."] {
            let repaired = repair_summary(prose).unwrap();
            validate_summary(&repaired).unwrap();
            assert_eq!(body(&repaired, "Critical Context"), prose.lines().collect::<Vec<_>>());
        }
    }

    #[test]
    fn settle_keeps_a_valid_summary_repairs_prose_and_embeds_for_nothing() {
        let valid: String = SECTIONS.iter().map(|s| format!("## {s}\n- x\n")).collect();
        let unread = || -> Result<SummaryRequest> { Err(Error::new(ErrorCode::Internal, "the request is read only for the fallback")) };
        assert_eq!(settle_summary(&valid, unread).unwrap(), SettledSummary { summary: valid.clone(), repair: None });

        let kept = settle_summary("Just prose.", unread).unwrap();
        assert_eq!(kept.repair, Some(SummaryRepair { kind: RepairKind::Kept, problem: "summary is missing the section \"Research Goal\"".into() }));
        assert!(kept.summary.contains("Just prose."));

        let embedded = settle_summary("  \n", request).unwrap();
        assert_eq!(embedded.repair, Some(SummaryRepair { kind: RepairKind::Embedded, problem: "summary is empty".into() }));
        assert_eq!(embedded.summary, extractive_summary(&request().unwrap()));
        validate_summary(&embedded.summary).unwrap();
    }
}
