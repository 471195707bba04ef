//! The research checkpoint's eight sections and how a heading line names one.


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
/// The section a heading line names, if it is one.
pub(super) fn heading_section(line: &str) -> Option<usize> {
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

/// The section a labelled line opens and the text after its label: "Research Goal: compare the two
/// corpora" (decorated like a heading, then a colon and text on the same line), which small models
/// write instead of a heading. `None` for a heading alone (`heading_section`) and for other lines.
pub(super) fn labelled_section(line: &str) -> Option<(usize, &str)> {
    let mut rest = line.trim();
    let hashes = rest.len() - rest.trim_start_matches('#').len();
    if hashes > 6 {
        return None;
    }
    rest = rest[hashes..].trim();
    for mark in ["**", "__"] {
        if let Some(inner) = rest.strip_prefix(mark) {
            rest = inner.trim_start();
        }
    }
    rest = strip_numbering(rest);
    let section = SECTIONS
        .iter()
        .position(|name| rest.get(..name.len()).is_some_and(|head| head.eq_ignore_ascii_case(name)))?;
    let after = rest[SECTIONS[section].len()..].trim_start_matches(['*', '_']);
    let text = after.strip_prefix(':')?.trim_start_matches(['*', '_']).trim();
    (!text.is_empty()).then_some((section, text))
}
