//! Validation of a finished summary: non-empty, the eight sections as headings, in order.


use super::sections::{heading_section, SECTIONS};

use crate::error::{Error, ErrorCode, Result};

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
