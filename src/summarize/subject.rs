//! Whether two sentences are about the same thing, by the words they share: how a later message is
//! found to close or replace an earlier line (a task done, a hypothesis rejected, a rule reversed)
//! without a list of closing words, in any language.

/// Shortest word (characters) that counts as content in spaced scripts: shorter ones are mostly
/// function words ("the", "und", "with").
const MIN_WORD_CHARS: usize = 5;
/// Letters of a word that make its token: endings past them are inflection.
const STEM_CHARS: usize = 7;
/// Shared content words needed, at least, and as a share (percent) of the earlier line's.
const MIN_SHARED: usize = 3;
const MIN_SHARED_PERCENT: usize = 50;
/// Shared naming tokens that name a line whatever its length (rule `names-only-that-line`).
const NAMING_ANY_LENGTH: usize = 5;
/// A routine text's own content tokens, at most, and as a part (1/N) of its tokens ("no preprints
/// please" has one of two: its own words), and the other texts that must hold a token for it not to
/// be the text's own (rule `said-in-a-frame-is-routine`).
const ROUTINE_OWN_TOKENS: usize = 1;
const ROUTINE_OWN_SHARE: usize = 4;
const ROUTINE_OTHER_HOLDERS: usize = 2;

/// The content tokens of a text, each as a 64-bit hash, sorted and distinct: a summary compares
/// every new sentence with its lines, so the comparison is a merge of two short arrays rather than
/// string sets (a 1,000-message summary spent half its time building and hashing those).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Subject(pub(super) Vec<u64>);

/// Content tokens: words of `MIN_WORD_CHARS`+ letters or digits (case folded), and for CJK text
/// its character pairs (CJK has no spaces; a pair is about a word). Vietnamese writes a space between
/// syllables and most words are two of them ("giấc ngủ", "ngày nghỉ"), few of five letters: its
/// tokens are also the pairs of syllables a plain space joins.
pub(crate) fn content_tokens(text: &str) -> Subject {
    let mut tokens = Vec::new();
    let mut word = Fnv::new();
    let (mut word_chars, mut word_bytes, mut word_digit) = (0usize, 0usize, false);
    let mut previous_cjk: Option<char> = None;
    let syllables = !text.is_ascii() && text.chars().any(is_vietnamese);
    let mut previous_syllable: Option<u64> = None;
    for c in text.chars().map(crate::text::fold_char).chain(std::iter::once(' ')) {
        let cjk = is_cjk(c);
        if cjk {
            if let Some(p) = previous_cjk {
                insert(&mut tokens, Fnv::new().char(p).char(c).finish());
            }
            previous_cjk = Some(c);
        } else {
            previous_cjk = None;
        }
        if c.is_alphanumeric() && !cjk {
            // A word is known by its first letters: inflected forms ("koreanischen", "koreanischer")
            // name one thing.
            if word_chars < STEM_CHARS || word_digit || c.is_ascii_digit() {
                word = word.char(c);
            }
            word_chars += 1;
            word_bytes += c.len_utf8();
            word_digit |= c.is_ascii_digit();
        } else {
            if word_chars >= MIN_WORD_CHARS || (word_bytes >= 3 && word_digit) {
                insert(&mut tokens, word.finish());
            }
            if syllables && word_chars > 0 {
                let syllable = word.finish();
                if let Some(p) = previous_syllable {
                    // Ordered: "ngày nghỉ" is not "nghỉ ngày".
                    insert(&mut tokens, p.rotate_left(29).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ syllable);
                }
                previous_syllable = (c == ' ').then_some(syllable);
            } else if c != ' ' {
                previous_syllable = None;
            }
            (word, word_chars, word_bytes, word_digit) = (Fnv::new(), 0, 0, false);
        }
    }
    Subject(tokens)
}

/// Letters only Vietnamese writes among Latin scripts: ă, đ, ơ, ư and the tone-marked vowels of Latin
/// Extended Additional (U+1EA0-U+1EF9), lower or upper case.
fn is_vietnamese(c: char) -> bool {
    matches!(c as u32, 0x102 | 0x103 | 0x110 | 0x111 | 0x1A0 | 0x1A1 | 0x1AF | 0x1B0 | 0x1EA0..=0x1EF9)
}

/// Adds `token` in order, once: a binary search and a shift, where a sort would instantiate the
/// standard library's for `u64` (kilobytes of wasm; a sentence has tens of tokens).
fn insert(tokens: &mut Vec<u64>, token: u64) {
    if let Err(at) = tokens.binary_search(&token) {
        tokens.insert(at, token);
    }
}

/// FNV-1a over a token's characters: deterministic and without a table; two words colliding (about
/// one chance in 2^64 a pair) would count as one.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn char(self, c: char) -> Self {
        let mut h = self.0;
        for b in (c as u32).to_le_bytes() {
            h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
        Fnv(h)
    }
    fn finish(self) -> u64 {
        self.0
    }
}

pub(super) fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF)
}

/// Rule `same-subject`: `later` is about what `earlier` says when they share at least
/// `MIN_SHARED` content tokens and at least half of the shorter one's (a reply in other words adds
/// its own, a CJK sentence many character pairs).
pub(super) fn same_subject(earlier: &Subject, later: &Subject) -> bool {
    let shorter = earlier.0.len().min(later.0.len());
    if shorter < MIN_SHARED {
        return false;
    }
    let shared = shared_count(&earlier.0, &later.0);
    shared >= MIN_SHARED && shared * 100 >= shorter * MIN_SHARED_PERCENT
}

/// Which lines [`named_line`] may name, and how.
#[derive(Clone, Copy)]
pub(super) enum Candidate {
    No,
    /// Named by two tokens that are a fifth of its own, or `NAMING_ANY_LENGTH`.
    ByShare,
    /// Named by any two tokens only it holds (rule `news-of-an-idea-closes-it`).
    ByTwo,
}

/// Rule `names-only-that-line`: the line of `lines` that `later` names, by the tokens the two share
/// that no other line holds: the words that name that one thing in this summary (a topic word every
/// line has names nothing). Counted when they are two or more and at least a fifth of the line's
/// tokens, or `NAMING_ANY_LENGTH` (a long CJK line has a token per character pair); one word names
/// nothing, and a short aside shares a few pairs of its endings with any Japanese line ("すみません" and
/// "使えません"). Of the lines `candidate` admits, the one named by most, the newest of equals.
///
/// One pass over the lines counts, for each of `later`'s tokens, the lines that hold it: a sentence is
/// compared with every line of a long fold, so no line is compared with every other.
pub(super) fn named_line<'a>(later: &Subject, lines: impl Iterator<Item = &'a Subject>, candidate: impl Fn(usize) -> Candidate) -> Option<usize> {
    // For each of `later`'s tokens: how many lines hold it, and the last one that does.
    let mut holders = vec![(0usize, 0usize); later.0.len()];
    let mut sizes = Vec::new();
    for (line, subject) in lines.enumerate() {
        sizes.push(subject.0.len());
        let (mut i, mut j) = (0, 0);
        while i < subject.0.len() && j < later.0.len() {
            match subject.0[i].cmp(&later.0[j]) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    holders[j] = (holders[j].0 + 1, line);
                    i += 1;
                    j += 1;
                }
            }
        }
    }
    let mut named = vec![0usize; sizes.len()];
    for &(count, line) in &holders {
        if count == 1 {
            named[line] += 1;
        }
    }
    let mut best = (1, None);
    for (line, &n) in named.iter().enumerate() {
        if n < 2 || n < best.0 {
            continue;
        }
        let counted = match candidate(line) {
            Candidate::No => false,
            Candidate::ByShare => n * 5 >= sizes[line] || n >= NAMING_ANY_LENGTH,
            Candidate::ByTwo => true,
        };
        if counted {
            best = (n, Some(line));
        }
    }
    best.1
}

/// Rule `said-in-a-frame-is-routine`: which content tokens the texts of a conversation share, to
/// tell a text said in a frame the others share (at most `ROUTINE_OWN_TOKENS` of its content tokens,
/// and a small part of them, held by fewer than `ROUTINE_OTHER_HOLDERS` other texts): what varies is
/// a name or a number ("search the library for «X»", "Found 3 records; the first is Y"). A
/// requirement, a decision or a finding is said once, in words of its own.
#[derive(Default)]
pub(crate) struct Frames {
    /// Each distinct token with the number of texts holding it, in token order.
    holders: Vec<(u64, usize)>,
}

impl Frames {
    pub(crate) fn of(texts: &[Subject]) -> Frames {
        let mut frames = Frames::default();
        frames.add(texts);
        frames
    }

    /// Counts `texts` too (a long history is counted a slice at a time): their tokens sorted, then
    /// merged with those counted so far.
    pub(crate) fn add(&mut self, texts: &[Subject]) {
        let all: Vec<u64> = texts.iter().flat_map(|s| s.0.iter().copied()).collect();
        let mut by_token: Vec<usize> = (0..all.len()).collect();
        crate::order::sort_positions(&mut by_token, &|a, b| all[a].cmp(&all[b]));
        let mut counted: Vec<(u64, usize)> = Vec::new();
        for &at in &by_token {
            match counted.last_mut() {
                Some((token, count)) if *token == all[at] => *count += 1,
                _ => counted.push((all[at], 1)),
            }
        }
        if self.holders.is_empty() {
            self.holders = counted;
            return;
        }
        let mut merged = Vec::with_capacity(self.holders.len() + counted.len());
        let (mut old, mut new) = (self.holders.iter().peekable(), counted.into_iter().peekable());
        while let (Some(&&(a, m)), Some(&(b, n))) = (old.peek(), new.peek()) {
            match a.cmp(&b) {
                std::cmp::Ordering::Less => {
                    merged.push((a, m));
                    old.next();
                }
                std::cmp::Ordering::Greater => {
                    merged.push((b, n));
                    new.next();
                }
                std::cmp::Ordering::Equal => {
                    merged.push((a, m + n));
                    old.next();
                    new.next();
                }
            }
        }
        merged.extend(old.copied());
        merged.extend(new);
        self.holders = merged;
    }

    /// Whether `subject`, of one of the texts (or a sentence of one), is routine; one with no content
    /// token is not judged here.
    pub(crate) fn is_routine(&self, subject: &Subject) -> bool {
        let others = |token: &u64| self.holders.binary_search_by(|(t, _)| t.cmp(token)).map_or(0, |i| self.holders[i].1.saturating_sub(1));
        let own = subject.0.iter().filter(|t| others(t) < ROUTINE_OTHER_HOLDERS).count();
        !subject.0.is_empty() && own <= ROUTINE_OWN_TOKENS && own * ROUTINE_OWN_SHARE <= subject.0.len()
    }
}

/// Elements two sorted, distinct arrays share.
pub(super) fn shared_count(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    shared
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
