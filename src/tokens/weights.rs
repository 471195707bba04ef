//! The estimator's features (what the scanner counts) and their fitted weights, in thousandths of a token.

use super::tables::*;

pub(crate) const MILLI: u64 = 1000;

/// The features [`RunCounts`] counts, in the order of [`RunCounts::counts`] and [`WEIGHTS`].
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "words",
    "word_chars",
    "upper_chars",
    "accented_chars",
    "digit_groups",
    "digits",
    "symbol_runs",
    "symbol_chars",
    "symbol_repeats",
    "plain_spaces",
    "space_runs",
    "space_chars",
    "line_breaks",
    "han_chars",
    "han_runs",
    "kana_chars",
    "hangul_chars",
    "alphabet_chars",
    "alphabet_runs",
    "alphabet_upper",
    "script_chars",
    "wide_punct",
    "pictographs",
    "rare_trigrams",
    "han_double_chars",
    "han_triple_chars",
    "han_wide_chars",
    "han_rare_runs",
    "accented_extra",
    "alphabet_extra",
    "greek_chars",
    "greek_extra",
    "greek_runs",
    "hebrew_chars",
    "hebrew_extra",
    "hebrew_runs",
    "arabic_chars",
    "arabic_extra",
    "arabic_runs",
    "indic_chars",
    "indic_extra",
    "indic_runs",
    "thai_chars",
    "thai_extra",
    "thai_runs",
    "script_extra",
    "script_runs",
    "kana_extra",
    "kana_runs",
    "hangul_extra",
    "hangul_runs",
    "base64_chars",
    "base64_runs",
    "hex_chars",
    "hex_runs",
    "extended_extra",
];
pub const FEATURES: usize = 56;

// Indices into RunCounts::counts.
pub(crate) const WORDS: usize = 0;
pub(crate) const WORD_CHARS: usize = 1;
pub(crate) const UPPER_CHARS: usize = 2;
pub(crate) const ACCENTED_CHARS: usize = 3;
pub(crate) const DIGIT_GROUPS: usize = 4;
pub(crate) const DIGITS: usize = 5;
pub(crate) const SYMBOL_RUNS: usize = 6;
pub(crate) const SYMBOL_CHARS: usize = 7;
pub(crate) const SYMBOL_REPEATS: usize = 8;
pub(crate) const PLAIN_SPACES: usize = 9;
pub(crate) const SPACE_RUNS: usize = 10;
pub(crate) const SPACE_CHARS: usize = 11;
pub(crate) const LINE_BREAKS: usize = 12;
pub(crate) const HAN_CHARS: usize = 13;
pub(crate) const HAN_RUNS: usize = 14;
pub(crate) const KANA_CHARS: usize = 15;
pub(crate) const HANGUL_CHARS: usize = 16;
pub(crate) const ALPHABET_CHARS: usize = 17;
pub(crate) const ALPHABET_RUNS: usize = 18;
pub(crate) const ALPHABET_UPPER: usize = 19;
pub(crate) const SCRIPT_CHARS: usize = 20;
pub(crate) const WIDE_PUNCT: usize = 21;
pub(crate) const PICTOGRAPHS: usize = 22;
pub(crate) const RARE_TRIGRAMS: usize = 23;
pub(crate) const HAN_DOUBLE_CHARS: usize = 24;
pub(crate) const HAN_TRIPLE_CHARS: usize = 25;
pub(crate) const HAN_WIDE_CHARS: usize = 26;
pub(crate) const HAN_RARE_RUNS: usize = 27;
pub(crate) const ACCENTED_EXTRA: usize = 28;
pub(crate) const ALPHABET_EXTRA: usize = 29;
pub(crate) const GREEK_CHARS: usize = 30;
pub(crate) const GREEK_EXTRA: usize = 31;
pub(crate) const GREEK_RUNS: usize = 32;
pub(crate) const HEBREW_CHARS: usize = 33;
pub(crate) const HEBREW_EXTRA: usize = 34;
pub(crate) const HEBREW_RUNS: usize = 35;
pub(crate) const ARABIC_CHARS: usize = 36;
pub(crate) const ARABIC_EXTRA: usize = 37;
pub(crate) const ARABIC_RUNS: usize = 38;
pub(crate) const INDIC_CHARS: usize = 39;
pub(crate) const INDIC_EXTRA: usize = 40;
pub(crate) const INDIC_RUNS: usize = 41;
pub(crate) const THAI_CHARS: usize = 42;
pub(crate) const THAI_EXTRA: usize = 43;
pub(crate) const THAI_RUNS: usize = 44;
pub(crate) const SCRIPT_EXTRA: usize = 45;
pub(crate) const SCRIPT_RUNS: usize = 46;
pub(crate) const KANA_EXTRA: usize = 47;
pub(crate) const KANA_RUNS: usize = 48;
pub(crate) const HANGUL_EXTRA: usize = 49;
pub(crate) const HANGUL_RUNS: usize = 50;
pub(crate) const BASE64_CHARS: usize = 51;
pub(crate) const BASE64_RUNS: usize = 52;
pub(crate) const HEX_CHARS: usize = 53;
pub(crate) const HEX_RUNS: usize = 54;
pub(crate) const EXTENDED_EXTRA: usize = 55;

// The weights, in thousandths of a token. Unless a comment says otherwise, each was fitted by
// `POLISH=1 node bench/estimator/tune.mjs` on the tuning half of the bench corpora (reference: the largest
// count of o200k_base, cl100k_base, the Claude tokenizer and Llama 3 per message): the tightest weights,
// within ranges that make sense for any text, that leave at most 0.3% of the tuning messages of each corpus
// under 1.01 times their count and every median under 1.28; the held-out half then measures them
// (docs/estimator.md).
// A zero weight means the fit found the class already paid for by its runs.

/// Each Latin word (a run of letters; a camelCase hump starts a new one): with its letters and the space
/// before it a five-letter English word costs 1.26 tokens; rare trigrams price words that split.
pub(crate) const W_WORDS: u64 = 909;
/// Each ASCII letter of a word: long or rare words split into several tokens.
pub(crate) const W_WORD_CHARS: u64 = 50;
/// Each ASCII uppercase letter on top: capitals (README, LICENSE, acronyms) merge less than lowercase.
pub(crate) const W_UPPER_CHARS: u64 = 55;
/// Each non-ASCII Latin letter (é, ß, ő) or combining mark: two UTF-8 bytes, often split off.
pub(crate) const W_ACCENTED_CHARS: u64 = 1523;
/// Each group of up to three digits: every tokenizer here splits numbers into such groups.
pub(crate) const W_DIGIT_GROUPS: u64 = 1174;
/// Each digit on top: the Claude tokenizer splits numbers into single digits.
pub(crate) const W_DIGITS: u64 = 0;
/// Each run of ASCII punctuation, JSON or code symbols.
pub(crate) const W_SYMBOL_RUNS: u64 = 698;
/// Each symbol of such a run beyond merges (`",`, `});`, `::` merge; long runs split).
pub(crate) const W_SYMBOL_CHARS: u64 = 301;
/// Each symbol that repeats the one before it (`}}`, `""`, `----`): long rules merge, but the fit prices a
/// repeat near a new symbol, as JSON's `}}`, `]]` and `""` split.
pub(crate) const W_SYMBOL_REPEATS: u64 = 585;
/// A single plain space between runs: usually merged into the next word, but not before a digit.
pub(crate) const W_PLAIN_SPACES: u64 = 120;
/// Any other whitespace run (a line break, indentation, tabs, several spaces): about one token, more
/// when a break sits between short lines that tokenizers cannot merge.
pub(crate) const W_SPACE_RUNS: u64 = 1673;
/// Each character of such a run.
pub(crate) const W_SPACE_CHARS: u64 = 50;
/// Each line break on top of its run.
pub(crate) const W_LINE_BREAKS: u64 = 141;
/// Each common Han ideograph (Chinese, Japanese kanji): one that every reference tokenizer keeps as a single
/// token standing alone ([`han_cost`] 1); in a run such characters also merge into words.
pub(crate) const W_HAN_CHARS: u64 = 874;
/// Each run of common Han ideographs (a rare one in between ends it).
pub(crate) const W_HAN_RUNS: u64 = 796;
/// Each Han ideograph that some reference tokenizer splits into two tokens standing alone: the fit keeps it
/// at its lower bound, two, as short classical texts of such characters merge little.
pub(crate) const W_HAN_DOUBLE_CHARS: u64 = 2000;
/// Each Han ideograph that some reference tokenizer splits into three (its three UTF-8 bytes).
pub(crate) const W_HAN_TRIPLE_CHARS: u64 = 2500;
/// Each Han ideograph outside the BMP (Extension B and later): set by hand to its four UTF-8 bytes, one
/// token each, as byte-level tokenizers charge a character they have no token for.
pub(crate) const W_HAN_WIDE_CHARS: u64 = 4000;
/// Each run of rare Han ideographs (cost two or more), which merge with neither neighbour.
pub(crate) const W_HAN_RARE_RUNS: u64 = 20;
/// Each kana (hiragana, katakana).
pub(crate) const W_KANA_CHARS: u64 = 1000;
/// Each Hangul syllable or jamo: fitted on ko-mo and ko-man (Korean prose measured at 1.45-1.6 tokens a
/// syllable in the Claude tokenizer and cl100k).
pub(crate) const W_HANGUL_CHARS: u64 = 1630;
/// Each Cyrillic letter.
pub(crate) const W_ALPHABET_CHARS: u64 = 753;
/// Each run (word) of such letters.
pub(crate) const W_ALPHABET_RUNS: u64 = 0;
/// Each uppercase letter of such an alphabet on top (capitals split into bytes more often).
pub(crate) const W_ALPHABET_UPPER: u64 = 325;
/// Each character of a script without a class of its own (Armenian, Georgian, Tibetan, Myanmar, Syriac, ...):
/// set by hand, the largest tokenizer (the Claude one) spends 1.2-1.9 tokens a character on such text.
pub(crate) const W_SCRIPT_CHARS: u64 = 2000;
/// Each CJK, fullwidth or general punctuation mark (，。「」 — “ ”) and other non-ASCII punctuation:
/// about one token each; it breaks the run around it, and the run it starts again pays the rest.
pub(crate) const W_WIDE_PUNCT: u64 = 1000;
/// Each emoji, pictograph, arrow, box-drawing or other symbol, Ethiopic or Cherokee letter, and any
/// unclassified character: up to four UTF-8 bytes, rarely merged (emoji measured at 3.55 tokens each
/// in the largest tokenizer, Ethiopic at 3.3).
pub(crate) const W_PICTOGRAPHS: u64 = 3600;

/// Indic, Thai and kana weights come from a grid fit per script (chars, extra, runs: the least median of
/// their corpora's tuning halves with at most 0.3% of messages under 1.01 times their count), the other
/// script weights from `tune.mjs` with the weights above fixed.
/// Per-character costs of the other scripts come from a table generated from the four vocabularies
/// ([`script_cost`], `src/tokens/script_costs.rs`): the largest number of tokens any of them gives a character
/// standing alone (1-4). A script's class counts its characters, their cost beyond one (`*_extra`: rare
/// letters, as Vietnamese ạ ầ ế, are two or three tokens alone and merge less) and its runs (words).
/// Each non-ASCII Latin letter's cost beyond one (Vietnamese, Polish, Czech, Turkish letters).
pub(crate) const W_ACCENTED_EXTRA: u64 = 500;
/// Each letter's cost beyond one in Latin Extended Additional (U+1E00-U+1EFF: Vietnamese ạ ầ ể ở, all of
/// cost 2-3), apart from the other Latin letters (Polish ą ę ś of cost 2 merge more in words).
pub(crate) const W_EXTENDED_EXTRA: u64 = 1185;
/// Each Cyrillic letter's cost beyond one.
pub(crate) const W_ALPHABET_EXTRA: u64 = 30;
/// Greek (with Greek Extended): each letter, its cost beyond one, each run.
pub(crate) const W_GREEK_CHARS: u64 = 1303;
pub(crate) const W_GREEK_EXTRA: u64 = 350;
pub(crate) const W_GREEK_RUNS: u64 = 35;
/// Hebrew: each letter or point, its cost beyond one, each run.
pub(crate) const W_HEBREW_CHARS: u64 = 1180;
pub(crate) const W_HEBREW_EXTRA: u64 = 0;
pub(crate) const W_HEBREW_RUNS: u64 = 0;
/// Arabic (with its supplements): each letter or mark, its cost beyond one, each run.
pub(crate) const W_ARABIC_CHARS: u64 = 1250;
pub(crate) const W_ARABIC_EXTRA: u64 = 10;
pub(crate) const W_ARABIC_RUNS: u64 = 0;
/// Devanagari and the other Indic scripts (to Sinhala): each letter or sign, its cost beyond one, each run.
pub(crate) const W_INDIC_CHARS: u64 = 1050;
pub(crate) const W_INDIC_EXTRA: u64 = 1050;
pub(crate) const W_INDIC_RUNS: u64 = 500;
/// Thai and Lao: each letter or sign, its cost beyond one, each run (Thai writes no spaces between words).
pub(crate) const W_THAI_CHARS: u64 = 650;
pub(crate) const W_THAI_EXTRA: u64 = 1350;
pub(crate) const W_THAI_RUNS: u64 = 1000;
/// Characters of the other scripts ([`W_SCRIPT_CHARS`]): cost beyond one, runs.
pub(crate) const W_SCRIPT_EXTRA: u64 = 0;
pub(crate) const W_SCRIPT_RUNS: u64 = 0;
/// Each kana's cost beyond one; each run of kana.
pub(crate) const W_KANA_EXTRA: u64 = 850;
pub(crate) const W_KANA_RUNS: u64 = 0;
/// Each Hangul syllable's cost beyond one (most are two or three tokens alone); each run (word).
pub(crate) const W_HANGUL_EXTRA: u64 = 20;
pub(crate) const W_HANGUL_RUNS: u64 = 0;

/// Encoded payloads ([`payload_at`]): base64 and base64url, and hex, priced per character and per run at
/// the tokenizers' measured worst case for them (generated into `src/tokens/script_costs.rs`, not fitted).
pub(crate) const W_BASE64_CHARS: u64 = BASE64_CHAR_MILLI;
pub(crate) const W_BASE64_RUNS: u64 = BASE64_RUN_MILLI;
pub(crate) const W_HEX_CHARS: u64 = HEX_CHAR_MILLI;
pub(crate) const W_HEX_RUNS: u64 = HEX_RUN_MILLI;

/// Each lowercase letter that ends a trigram rare in English ([`RARE_IN_ENGLISH`]) with the two letters
/// before it in its word: words of other languages, also those written without accents (Dutch,
/// Indonesian), names, identifiers and hex split into more tokens than English words. With it the fit
/// prices letters themselves low (`W_WORD_CHARS`): long English words are single tokens too. It took the
/// held-out Latin-script man pages from 12.8% to 0.5% underestimated (README, "Estimator fidelity").
pub(crate) const W_RARE_TRIGRAMS: u64 = 1641;

/// Latin letters of non-English text cost more (German, French, Czech, Turkish split into more pieces).
/// Accented letters are a signal: each one marks up to `FOREIGN_SPAN` Latin letters of its text as
/// foreign, and each foreign letter costs `W_FOREIGN_LETTERS` more. Since rare trigrams price such words,
/// the fit leaves this a small share.
pub const FOREIGN_SPAN: u64 = 60;
pub const W_FOREIGN_LETTERS: u64 = 10;

/// The weights in the order of [`FEATURE_NAMES`].
pub const WEIGHTS: [u64; FEATURES] = [
    W_WORDS,
    W_WORD_CHARS,
    W_UPPER_CHARS,
    W_ACCENTED_CHARS,
    W_DIGIT_GROUPS,
    W_DIGITS,
    W_SYMBOL_RUNS,
    W_SYMBOL_CHARS,
    W_SYMBOL_REPEATS,
    W_PLAIN_SPACES,
    W_SPACE_RUNS,
    W_SPACE_CHARS,
    W_LINE_BREAKS,
    W_HAN_CHARS,
    W_HAN_RUNS,
    W_KANA_CHARS,
    W_HANGUL_CHARS,
    W_ALPHABET_CHARS,
    W_ALPHABET_RUNS,
    W_ALPHABET_UPPER,
    W_SCRIPT_CHARS,
    W_WIDE_PUNCT,
    W_PICTOGRAPHS,
    W_RARE_TRIGRAMS,
    W_HAN_DOUBLE_CHARS,
    W_HAN_TRIPLE_CHARS,
    W_HAN_WIDE_CHARS,
    W_HAN_RARE_RUNS,
    W_ACCENTED_EXTRA,
    W_ALPHABET_EXTRA,
    W_GREEK_CHARS,
    W_GREEK_EXTRA,
    W_GREEK_RUNS,
    W_HEBREW_CHARS,
    W_HEBREW_EXTRA,
    W_HEBREW_RUNS,
    W_ARABIC_CHARS,
    W_ARABIC_EXTRA,
    W_ARABIC_RUNS,
    W_INDIC_CHARS,
    W_INDIC_EXTRA,
    W_INDIC_RUNS,
    W_THAI_CHARS,
    W_THAI_EXTRA,
    W_THAI_RUNS,
    W_SCRIPT_EXTRA,
    W_SCRIPT_RUNS,
    W_KANA_EXTRA,
    W_KANA_RUNS,
    W_HANGUL_EXTRA,
    W_HANGUL_RUNS,
    W_BASE64_CHARS,
    W_BASE64_RUNS,
    W_HEX_CHARS,
    W_HEX_RUNS,
    W_EXTENDED_EXTRA,
];
