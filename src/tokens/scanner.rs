//! Token estimation: a conservative, script-aware upper bound of real tokenizers.
//!
//! Tokenizers first pre-split text into runs (a word, up to three digits, a run of symbols, a run of
//! whitespace, a run of one script) and then merge bytes inside each run. So this estimator scans the
//! text once, counts runs and characters per class ([`RunCounts`]), and prices them with the weights
//! below. Lowercase words are also checked letter by letter against a small table of trigrams rare in
//! English: tokenizers learned English words whole, so words of other languages (even without accents)
//! and identifiers split into more pieces. Han ideographs are priced per character from a table generated
//! from the tokenizers' own vocabularies ([`han_cost`], `src/tokens/han_costs.rs`); a run of common ones and a
//! run of rare ones are separate runs. The weights were fitted by `bench/estimator` against the largest
//! count of four tokenizers (o200k_base, cl100k_base, the Claude tokenizer, Llama 3). Other scripts are
//! priced per character from a table generated the same way ([`script_cost`], `src/tokens/script_costs.rs`),
//! encoded payloads (base64, hex) at the tokenizers' measured worst case ([`payload_at`]). Corpora: Chinese (simplified and traditional man pages, Tang and Song poetry), Japanese, Russian,
//! Vietnamese, Polish, Latin-script (German, French, Dutch, Indonesian, ...) and English man pages, gettext
//! catalogues of Vietnamese, Czech, Turkish, Greek, Ukrainian, Arabic, Hebrew, Indic, Thai, Korean and
//! Japanese, base64 and hex of real files, `/usr/share/doc` text, Rust sources and real JSON, so that at
//! most 1% of messages of each corpus are underestimated, on a held-out half of every corpus as well as on
//! the tuned half (docs/estimator.md names the corpora that miss it).

use serde_json::Value;

use super::payload::*;
use super::tables::*;
use super::weights::*;

/// Runs and characters of a text per class, counted in one pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunCounts {
    pub counts: [u64; FEATURES],
}

impl Default for RunCounts {
    fn default() -> RunCounts {
        RunCounts { counts: [0; FEATURES] }
    }
}

impl RunCounts {
    /// The estimate in tokens for these counts, rounded up.
    pub fn tokens(&self) -> u64 {
        let linear = self
            .counts
            .iter()
            .zip(WEIGHTS.iter())
            .fold(0u64, |sum, (count, weight)| sum.saturating_add(count.saturating_mul(*weight)));
        let tokens = linear.saturating_add(self.foreign_letters().saturating_mul(W_FOREIGN_LETTERS)).div_ceil(MILLI);
        // Any non-empty text is at least one token (a lone space is one).
        if tokens == 0 && self.counts.iter().any(|&c| c > 0) {
            1
        } else {
            tokens
        }
    }

    /// The counts of two texts scanned one after the other, when the second starts a new run either way.
    pub fn plus(&self, other: &RunCounts) -> RunCounts {
        let mut counts = self.counts;
        for (c, o) in counts.iter_mut().zip(other.counts.iter()) {
            *c = c.saturating_add(*o);
        }
        RunCounts { counts }
    }

    /// Undoes [`RunCounts::plus`].
    pub fn minus(&self, other: &RunCounts) -> RunCounts {
        let mut counts = self.counts;
        for (c, o) in counts.iter_mut().zip(other.counts.iter()) {
            *c = c.saturating_sub(*o);
        }
        RunCounts { counts }
    }

    /// Latin letters taken to be non-English text (see [`FOREIGN_SPAN`]).
    pub fn foreign_letters(&self) -> u64 {
        let accented = self.counts[ACCENTED_CHARS];
        let letters = self.counts[WORD_CHARS].saturating_add(accented);
        letters.min(accented.saturating_mul(FOREIGN_SPAN))
    }
}

/// The class of a character, for run splitting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Class {
    Letter,
    Digit,
    Symbol,
    Space,
    /// A Han ideograph of cost 1 ([`han_cost`]).
    Han,
    /// A Han ideograph of cost 2 or more: a run of these is not a run of common ones.
    HanRare,
    Kana,
    Hangul,
    Alphabet,
    Greek,
    Hebrew,
    Arabic,
    Indic,
    Thai,
    Script,
    WidePunct,
    Pictograph,
    /// A combining mark: continues whatever run it follows.
    Mark,
    /// An encoded payload ([`payload_at`]): a run of its own, counted whole.
    Payload,
}

/// ASCII classes, indexed by byte.
pub(crate) const ASCII_CLASS: [Class; 128] = {
    let mut table = [Class::Symbol; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if c.is_ascii_alphabetic() {
            Class::Letter
        } else if c.is_ascii_digit() {
            Class::Digit
        } else if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' || c == 0x0b || c == 0x0c {
            Class::Space
        } else {
            Class::Symbol
        };
        b += 1;
    }
    table
};

pub(crate) fn classify(c: char) -> Class {
    let cp = c as u32;
    if cp < 0x80 {
        return ASCII_CLASS[cp as usize];
    }
    match cp {
        0x00D7 | 0x00F7 => Class::WidePunct,
        0x00C0..=0x024F | 0x1E00..=0x1EFF | 0x2C60..=0x2C7F | 0xA720..=0xA7FF => Class::Letter,
        0x0080..=0x00BF => Class::WidePunct,
        0x0250..=0x02FF => Class::Letter,
        0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F => Class::Mark,
        0x0400..=0x052F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Class::Alphabet,
        // Scripts the measured tokenizers keep near byte level (Ethiopic 3.3 tokens a letter): priced as pictographs.
        0x1200..=0x139F | 0x13A0..=0x13FF | 0x1400..=0x167F | 0x2D80..=0x2DDF => Class::Pictograph,
        0x3040..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Class::Kana,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7FF | 0xFFA0..=0xFFDC => Class::Hangul,
        0x2E80..=0x2FDF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0x20000..=0x3FFFF => Class::Han,
        0x2000..=0x206F | 0x3000..=0x303F | 0xFE30..=0xFE4F | 0xFF00..=0xFF65 | 0x2E00..=0x2E7F | 0x3200..=0x33FF => {
            Class::WidePunct
        }
        0x0370..=0x03FF | 0x1F00..=0x1FFF => Class::Greek,
        0x0590..=0x05FF => Class::Hebrew,
        0x0600..=0x06FF | 0x0750..=0x077F | 0x08A0..=0x08FF => Class::Arabic,
        0x0900..=0x0DFF => Class::Indic,
        0x0E00..=0x0EFF => Class::Thai,
        // Armenian, Syriac, Thaana, N'Ko, Tibetan, Myanmar, Georgian, ...
        0x0530..=0x10FF | 0x1680..=0x1AAF | 0x1B00..=0x1C7F | 0x1C90..=0x1DBF | 0xA800..=0xABFF => Class::Script,
        _ => Class::Pictograph,
    }
}

/// Counts runs and characters per class in one pass, with no allocation.
pub fn run_counts(text: &str) -> RunCounts {
    let mut scanner = Scanner::new();
    scanner.feed(text);
    scanner.finish()
}

/// The run counter as a state machine, so text that arrives in pieces (JSON written by serde, a decoded
/// file) is counted exactly as if it were one string.
pub(crate) struct Scanner {
    n: [u64; FEATURES],
    /// The class of the current run; `Mark` (never a run of its own) means no run yet.
    prev: Class,
    /// The last symbol of the current symbol run (repeats merge).
    prev_symbol: u8,
    /// Length of the current digit run (for groups of three) or whitespace run.
    run_len: u64,
    /// The current whitespace run began with a plain space (counted in PLAIN_SPACES so far).
    space_run_plain: bool,
    /// The previous letter was lowercase (a following uppercase letter starts a camelCase hump).
    prev_lower: bool,
    /// The last two lowercase ASCII letters of the current run of them (see [`NO_LETTERS`]).
    last_two: u32,
    /// Encoded payloads are recognized (not when a payload itself is priced as text).
    payloads: bool,
}

impl Scanner {
    pub(crate) fn new() -> Scanner {
        Scanner {
            n: [0; FEATURES],
            prev: Class::Mark,
            prev_symbol: 0,
            run_len: 0,
            space_run_plain: false,
            prev_lower: false,
            last_two: NO_LETTERS,
            payloads: true,
        }
    }

    pub(crate) fn finish(&self) -> RunCounts {
        RunCounts { counts: self.n }
    }

    pub(crate) fn feed(&mut self, text: &str) {
        // Locals in the hot loop; written back once at the end.
        let mut n = self.n;
        let (mut prev, mut prev_symbol, mut run_len, mut space_run_plain, mut prev_lower) =
            (self.prev, self.prev_symbol, self.run_len, self.space_run_plain, self.prev_lower);
        let mut last_two = self.last_two;
        let payloads = self.payloads;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b < 0x80 {
                // ASCII, the bulk of most text: classed by byte, never decoded. Digits, symbols and
                // whitespace are ASCII only, so their runs are counted here alone.
                // A run of payload bytes is judged once, at its start (a run never continues from the
                // previous piece of text).
                if payloads && is_payload_byte(b) && (i == 0 || !is_payload_byte(bytes[i - 1])) && may_start_payload(bytes, i) {
                    let (end, payload) = payload_at(bytes, i);
                    if let Some(payload) = payload {
                        count_payload(&mut n, payload, &bytes[i..end]);
                        (i, prev, last_two) = (end, Class::Payload, NO_LETTERS);
                        continue;
                    }
                }
                i += 1;
                let class = ASCII_CLASS[usize::from(b)];
                let new_run = class != prev;
                if class != Class::Letter {
                    last_two = NO_LETTERS;
                }
                match class {
                    Class::Letter => {
                        let lower = b.is_ascii_lowercase();
                        // A new word, or a camelCase hump.
                        if new_run || (prev_lower && !lower) {
                            n[WORDS] += 1;
                        }
                        if lower {
                            // The rest of a lowercase run only adds letters, and so does prose in lowercase
                            // words after single spaces (a plain space, then a new word).
                            let mut chain = lowercase_chain(bytes, i - 1, last_two);
                            // The chain's last word, begun after a space, may start a payload that goes on.
                            let mut payload = None;
                            if payloads && chain.last_word != usize::MAX && bytes.get(chain.end).is_some_and(|&b| is_payload_byte(b)) && may_start_payload(bytes, chain.last_word) {
                                let (end, kind) = payload_at(bytes, chain.last_word);
                                if let Some(kind) = kind {
                                    payload = Some((kind, chain.last_word, end));
                                    chain.end = chain.last_word;
                                    chain.letters = (chain.last_word - (i - 1)) as u64 - chain.spaces;
                                    chain.words -= 1;
                                    chain.rare_trigrams = chain.rare_before_last_word;
                                }
                            }
                            n[WORD_CHARS] += chain.letters;
                            n[WORDS] += chain.words;
                            n[PLAIN_SPACES] += chain.spaces;
                            n[RARE_TRIGRAMS] += chain.rare_trigrams;
                            (i, last_two) = (chain.end, chain.last_two);
                            if let Some((kind, start, end)) = payload {
                                count_payload(&mut n, kind, &bytes[start..end]);
                                (i, prev, last_two) = (end, Class::Payload, NO_LETTERS);
                                continue;
                            }
                        } else {
                            n[WORD_CHARS] += 1;
                            n[UPPER_CHARS] += 1;
                            last_two = NO_LETTERS;
                        }
                        prev_lower = lower;
                    }
                    Class::Digit => {
                        // The whole run of digits (it may go on in the next piece).
                        let start = i - 1;
                        while i < bytes.len() && bytes[i].is_ascii_digit() {
                            i += 1;
                        }
                        let digits = (i - start) as u64;
                        let before = if new_run { 0 } else { run_len };
                        // Groups of three started in this piece: one at every multiple of three.
                        n[DIGIT_GROUPS] += (before + digits).div_ceil(3) - before.div_ceil(3);
                        n[DIGITS] += digits;
                        run_len = before + digits;
                    }
                    Class::Symbol => {
                        if new_run {
                            n[SYMBOL_RUNS] += 1;
                            n[SYMBOL_CHARS] += 1;
                        } else if b == prev_symbol {
                            n[SYMBOL_REPEATS] += 1;
                        } else {
                            n[SYMBOL_CHARS] += 1;
                        }
                        prev_symbol = b;
                        // The rest of the run.
                        while let Some(&next) = bytes.get(i).filter(|&&next| {
                            next < 0x80
                                && ASCII_CLASS[usize::from(next)] == Class::Symbol
                                // A payload byte after one that is not may start a payload: judged above.
                                && (!payloads || is_payload_byte(prev_symbol) || !is_payload_byte(next))
                        }) {
                            if next == prev_symbol {
                                n[SYMBOL_REPEATS] += 1;
                            } else {
                                n[SYMBOL_CHARS] += 1;
                            }
                            prev_symbol = next;
                            i += 1;
                        }
                    }
                    Class::Space => {
                        run_len = if new_run { 1 } else { run_len + 1 };
                        if b == b'\n' {
                            n[LINE_BREAKS] += 1;
                        }
                        // A lone plain space is nearly free (it merges into the next word); the run becomes a
                        // real whitespace run once it grows or when it is anything but ' '.
                        if run_len == 1 {
                            space_run_plain = b == b' ';
                            if space_run_plain {
                                n[PLAIN_SPACES] += 1;
                            } else {
                                n[SPACE_RUNS] += 1;
                                n[SPACE_CHARS] += 1;
                            }
                        } else {
                            if run_len == 2 && space_run_plain {
                                n[SPACE_RUNS] += 1;
                            }
                            n[SPACE_CHARS] += 1;
                        }
                    }
                    // `ASCII_CLASS` holds the four classes above only.
                    _ => {}
                }
                prev = class;
                continue;
            }
            // Han in U+5000-U+9FFF (three UTF-8 bytes led by 0xE5-0xE9, nothing else starts so), the bulk of
            // Chinese text: decoded, priced and counted here in locals, branch-free.
            if matches!(b, 0xE5..=0xE9) {
                // 0: in a common run, 1: in a rare run, 2: in neither.
                let mut state: u64 = match prev {
                    Class::Han => 0,
                    Class::HanRare => 1,
                    _ => 2,
                };
                let (start, mut extra, mut rare_chars, mut runs, mut rare_runs) = (i, 0u64, 0u64, 0u64, 0u64);
                while i + 2 < bytes.len() && matches!(bytes[i], 0xE5..=0xE9) {
                    let index = ((usize::from(bytes[i] & 0x0F) << 12)
                        | (usize::from(bytes[i + 1] & 0x3F) << 6)
                        | usize::from(bytes[i + 2] & 0x3F))
                        - 0x3400;
                    i += 3;
                    let bits = (HAN_COST_BITS[index / 32] >> (index % 32 * 2)) & 3;
                    let is_rare = u64::from(bits != 0);
                    extra += bits;
                    rare_chars += is_rare;
                    runs += u64::from(state != 0) & (is_rare ^ 1);
                    rare_runs += u64::from(state != 1) & is_rare;
                    state = is_rare;
                }
                // Costs beyond one are double + 2 * triple, rare characters double + triple.
                n[HAN_CHARS] += ((i - start) / 3) as u64 - rare_chars;
                n[HAN_TRIPLE_CHARS] += extra - rare_chars;
                n[HAN_DOUBLE_CHARS] += 2 * rare_chars - extra;
                n[HAN_RUNS] += runs;
                n[HAN_RARE_RUNS] += rare_runs;
                if state != 2 {
                    prev = if state == 1 { Class::HanRare } else { Class::Han };
                    last_two = NO_LETTERS;
                }
                continue;
            }
            let Some(c) = text.get(i..).and_then(|rest| rest.chars().next()) else { break };
            i += c.len_utf8();
            last_two = NO_LETTERS;
            let mut class = classify(c);
            let cost = match class {
                Class::Han => han_cost_of(c as u32),
                Class::Letter
                | Class::Alphabet
                | Class::Greek
                | Class::Hebrew
                | Class::Arabic
                | Class::Indic
                | Class::Thai
                | Class::Script
                | Class::Kana
                | Class::Hangul => script_cost_of(c),
                _ => 0,
            };
            let extra = u64::from(cost.saturating_sub(1));
            if class == Class::Han && cost > 1 {
                class = Class::HanRare;
            }
            if class == Class::Mark {
                n[ACCENTED_CHARS] += 1;
                continue;
            }
            let new_run = class != prev;
            match class {
                Class::Letter => {
                    if new_run || (prev_lower && c.is_uppercase()) {
                        n[WORDS] += 1;
                    }
                    n[ACCENTED_CHARS] += 1;
                    n[if matches!(c, '\u{1E00}'..='\u{1EFF}') { EXTENDED_EXTRA } else { ACCENTED_EXTRA }] += extra;
                    prev_lower = c.is_lowercase();
                }
                Class::Han => {
                    n[HAN_RUNS] += u64::from(new_run);
                    n[HAN_CHARS] += 1;
                }
                Class::HanRare => {
                    n[HAN_RARE_RUNS] += u64::from(new_run);
                    n[HAN_COST_FEATURE[cost as usize]] += 1;
                }
                Class::Kana => count_script(&mut n, [KANA_CHARS, KANA_EXTRA, KANA_RUNS], extra, new_run),
                Class::Hangul => count_script(&mut n, [HANGUL_CHARS, HANGUL_EXTRA, HANGUL_RUNS], extra, new_run),
                Class::Alphabet => {
                    count_script(&mut n, [ALPHABET_CHARS, ALPHABET_EXTRA, ALPHABET_RUNS], extra, new_run);
                    n[ALPHABET_UPPER] += u64::from(c.is_uppercase());
                }
                Class::Greek => count_script(&mut n, [GREEK_CHARS, GREEK_EXTRA, GREEK_RUNS], extra, new_run),
                Class::Hebrew => count_script(&mut n, [HEBREW_CHARS, HEBREW_EXTRA, HEBREW_RUNS], extra, new_run),
                Class::Arabic => count_script(&mut n, [ARABIC_CHARS, ARABIC_EXTRA, ARABIC_RUNS], extra, new_run),
                Class::Indic => count_script(&mut n, [INDIC_CHARS, INDIC_EXTRA, INDIC_RUNS], extra, new_run),
                Class::Thai => count_script(&mut n, [THAI_CHARS, THAI_EXTRA, THAI_RUNS], extra, new_run),
                Class::Script => count_script(&mut n, [SCRIPT_CHARS, SCRIPT_EXTRA, SCRIPT_RUNS], extra, new_run),
                Class::WidePunct => n[WIDE_PUNCT] += 1,
                Class::Pictograph | Class::Mark => n[PICTOGRAPHS] += 1,
                // ASCII only, counted above.
                Class::Digit | Class::Symbol | Class::Space | Class::Payload => {}
            }
            prev = class;
        }
        *self = Scanner { n, prev, prev_symbol, run_len, space_run_plain, prev_lower, last_two, payloads };
    }
}

/// A character of a script class: `[chars, extra cost, runs]` features.
#[inline(always)]
pub(crate) fn count_script(n: &mut [u64; FEATURES], [chars, extra_cost, runs]: [usize; 3], extra: u64, new_run: bool) {
    n[chars] += 1;
    n[extra_cost] += extra;
    n[runs] += u64::from(new_run);
}

/// Counts a payload run: at its payload price, or as text (scanned alone, no payloads) when that costs
/// more, so that recognizing a payload never lowers an estimate (a text never costs less than its prefix).
pub(crate) fn count_payload(n: &mut [u64; FEATURES], payload: Payload, run: &[u8]) {
    let [chars, runs] = match payload {
        Payload::Base64 => [BASE64_CHARS, BASE64_RUNS],
        Payload::Hex => [HEX_CHARS, HEX_RUNS],
    };
    let len = run.len() as u64;
    let as_payload = len.saturating_mul(WEIGHTS[chars]).saturating_add(WEIGHTS[runs]);
    let mut text = Scanner::new();
    text.payloads = false;
    // Payload bytes are ASCII.
    text.feed(std::str::from_utf8(run).unwrap_or_default());
    let as_text = text.n.iter().zip(WEIGHTS.iter()).fold(0u64, |sum, (c, w)| sum.saturating_add(c.saturating_mul(*w)));
    if as_text > as_payload {
        for (total, c) in n.iter_mut().zip(text.n.iter()) {
            *total += c;
        }
    } else {
        n[chars] += len;
        n[runs] += 1;
    }
}

/// Whether a trigram of lowercase ASCII letters is rare in English ([`RARE_IN_ENGLISH`]); false for any
/// other bytes.
pub fn is_rare_in_english(trigram: [u8; 3]) -> bool {
    match trigram.map(|b| b.wrapping_sub(b'a')) {
        [p2, p1, c] if p2 < 26 && p1 < 26 && c < 26 => (RARE_IN_ENGLISH[usize::from(p2) << 5 | usize::from(p1)] >> c) & 1 == 1,
        _ => false,
    }
}

/// What [`lowercase_chain`] found.
pub(crate) struct Chain {
    /// Where the chain ends (the first byte that is neither a lowercase letter nor a single space
    /// between two of them).
    end: usize,
    letters: u64,
    spaces: u64,
    /// Words begun after a space (as many as spaces; one fewer when the last is taken back as a payload).
    words: u64,
    rare_trigrams: u64,
    last_two: u32,
    /// Where the last word begun after a space starts (`usize::MAX`: none), and the rare trigrams before it.
    last_word: usize,
    rare_before_last_word: u64,
}

/// Lowercase ASCII letters from `start`, and single spaces followed by one (prose): the scanner's hot path.
/// Each letter from the third of a word on ends a trigram with the two before it, looked up in
/// [`RARE_IN_ENGLISH`]; `last_two` carries a word across pieces of text. Inlined: as a call it measured
/// about 5% slower on English prose.
#[inline(always)]
pub(crate) fn lowercase_chain(bytes: &[u8], start: usize, last_two: u32) -> Chain {
    let (mut i, mut spaces, mut rare) = (start, 0u64, 0u64);
    let (mut last_word, mut rare_before_last_word) = (usize::MAX, 0u64);
    // The two letters before, apart: moving them along is free, a shifted state would chain each letter's
    // update on the one before.
    let (mut p2, mut p1) = (last_two >> 5, last_two & 31);
    let lower = |i: usize| bytes.get(i).map(|b| u32::from(b.wrapping_sub(b'a'))).filter(|&c| c < 26);
    loop {
        // The first two letters of a word end no trigram: no lookup.
        while p2 == 31 {
            let Some(c) = lower(i) else { break };
            (p2, p1, i) = (p1, c, i + 1);
        }
        let mut letters = 0;
        for &b in bytes.get(i..).unwrap_or_default() {
            let c = b.wrapping_sub(b'a');
            if c >= 26 {
                break;
            }
            rare += u64::from((RARE_IN_ENGLISH[((p2 << 5 | p1) & 1023) as usize] >> c) & 1);
            (p2, p1) = (p1, u32::from(c));
            letters += 1;
        }
        i += letters;
        match bytes.get(i..i + 2) {
            Some(&[b' ', next]) if next.is_ascii_lowercase() => {
                (p2, p1) = (31, 31);
                spaces += 1;
                i += 1;
                (last_word, rare_before_last_word) = (i, rare);
            }
            _ => break,
        }
    }
    Chain {
        end: i,
        letters: (i - start) as u64 - spaces,
        spaces,
        words: spaces,
        rare_trigrams: rare,
        last_two: (p2 << 5 | p1) & 1023,
        last_word,
        rare_before_last_word,
    }
}

/// Serde writes JSON in pieces that each end on a character boundary (it only splits around ASCII
/// escapes), so the scanner counts JSON as it is written, with no string of the whole document.
impl std::io::Write for Scanner {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match std::str::from_utf8(buf) {
            Ok(text) => self.feed(text),
            Err(_) => self.feed(&String::from_utf8_lossy(buf)),
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The estimated tokens of a text: an upper bound of real tokenizers for typical text.
pub fn estimate_text(text: &str) -> u64 {
    run_counts(text).tokens()
}

/// The estimated tokens of a JSON value as it is sent: its compact `JSON.stringify` text.
pub fn estimate_json(value: &Value) -> u64 {
    json_counts(value).tokens()
}

pub(crate) fn json_counts(value: &Value) -> RunCounts {
    let mut scanner = Scanner::new();
    // Writing into the scanner cannot fail; a failure would only leave the count lower, never panic.
    let _ = serde_json::to_writer(&mut scanner, value);
    scanner.finish()
}

/// The feature a Han ideograph of each cost (1-4, [`han_cost`]) counts in.
pub(crate) const HAN_COST_FEATURE: [usize; 5] = [HAN_CHARS, HAN_CHARS, HAN_DOUBLE_CHARS, HAN_TRIPLE_CHARS, HAN_WIDE_CHARS];

/// What a Han ideograph costs standing alone: the largest number of tokens any reference tokenizer gives
/// it (1-3, from the generated table of [`HAN_COST_SEGMENTS`]; 4, its UTF-8 bytes, outside the BMP).
/// `None` for characters the estimator does not count as Han.
pub fn han_cost(c: char) -> Option<u32> {
    (classify(c) == Class::Han).then(|| han_cost_of(c as u32))
}



/// What a character of an alphabetic or syllabic script costs standing alone: the largest number of tokens
/// any reference tokenizer gives it (1-4, from the generated table of [`SCRIPT_COST_SEGMENTS`]; outside
/// the table, its UTF-8 bytes). `None` for ASCII and for characters the scanner prices otherwise (Han,
/// punctuation, pictographs, marks).
pub fn script_cost(c: char) -> Option<u32> {
    match classify(c) {
        Class::Letter | Class::Alphabet | Class::Greek | Class::Hebrew | Class::Arabic | Class::Indic | Class::Thai
        | Class::Script | Class::Kana | Class::Hangul
            if !c.is_ascii() =>
        {
            Some(script_cost_of(c))
        }
        _ => None,
    }
}
