//! Whether two sentences are about the same thing, by the words they share: how a later message is
//! found to close or replace an earlier line (a task done, a hypothesis rejected, a rule reversed)
//! without a list of closing words, in any language.

use std::collections::HashSet;

/// Shortest word (characters) that counts as content in spaced scripts: shorter ones are mostly
/// function words ("the", "und", "with").
const MIN_WORD_CHARS: usize = 5;
/// Shared content words needed, at least, and as a share (percent) of the earlier line's.
const MIN_SHARED: usize = 3;
const MIN_SHARED_PERCENT: usize = 50;

/// Content tokens: words of `MIN_WORD_CHARS`+ letters or digits (case folded), and for CJK text
/// its character pairs (CJK has no spaces; a pair is about a word).
pub(super) fn content_tokens(text: &str) -> HashSet<String> {
    let mut tokens = HashSet::new();
    let folded = crate::text::fold_case(text);
    let mut word = String::new();
    let mut previous_cjk: Option<char> = None;
    for c in folded.chars().chain(std::iter::once(' ')) {
        let cjk = is_cjk(c);
        if cjk {
            if let Some(p) = previous_cjk {
                tokens.insert(format!("{p}{c}"));
            }
            previous_cjk = Some(c);
        } else {
            previous_cjk = None;
        }
        if c.is_alphanumeric() && !cjk {
            word.push(c);
        } else {
            if word.chars().count() >= MIN_WORD_CHARS || (word.len() >= 3 && word.chars().any(|c| c.is_ascii_digit())) {
                tokens.insert(std::mem::take(&mut word));
            }
            word.clear();
        }
    }
    tokens
}

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF)
}

/// Rule `same-subject`: `later` is about what `earlier` says when they share at least
/// `MIN_SHARED` content tokens and at least half of the shorter one's (a reply in other words adds
/// its own, a CJK sentence many character pairs).
pub(super) fn same_subject(earlier: &HashSet<String>, later: &HashSet<String>) -> bool {
    let shared = earlier.intersection(later).count();
    shared >= MIN_SHARED && shared * 100 >= earlier.len().min(later.len()) * MIN_SHARED_PERCENT
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_by_shared_words() {
        let task = content_tokens("Still to do: extract the dose-response table from the Kim paper");
        assert!(same_subject(&task, &content_tokens("I extracted the dose-response table of the Kim paper; it is in the draft.")));
        assert!(!same_subject(&task, &content_tokens("The Lee paper reports hazard ratios for large dogs.")));
        let zh = content_tokens("我怀疑长寿效应是由较低的IGF-1水平介导的");
        assert!(same_subject(&zh, &content_tokens("长寿效应由较低的IGF-1水平介导这一点被数据否定了")));
    }
}
