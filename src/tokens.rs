//! Token estimation: a conservative, script-aware upper bound of real tokenizers.
//!
//! Tokenizers first pre-split text into runs (a word, up to three digits, a run of symbols, a run of
//! whitespace, a run of one script) and then merge bytes inside each run. So this estimator scans the
//! text once, counts runs and characters per class ([`RunCounts`]), and prices them with the weights
//! below. Lowercase words are also checked letter by letter against a small table of trigrams rare in
//! English: tokenizers learned English words whole, so words of other languages (even without accents)
//! and identifiers split into more pieces. Han ideographs are priced per character from a table generated
//! from the tokenizers' own vocabularies ([`han_cost`], `src/han_costs.rs`); a run of common ones and a
//! run of rare ones are separate runs. The weights were fitted by `bench/estimator` against the largest
//! count of four tokenizers (o200k_base, cl100k_base, the Claude tokenizer, Llama 3). Other scripts are
//! priced per character from a table generated the same way ([`script_cost`], `src/script_costs.rs`),
//! encoded payloads (base64, hex) at the tokenizers' measured worst case ([`payload_at`]). Corpora: Chinese (simplified and traditional man pages, Tang and Song poetry), Japanese, Russian,
//! Vietnamese, Polish, Latin-script (German, French, Dutch, Indonesian, ...) and English man pages, gettext
//! catalogues of Vietnamese, Czech, Turkish, Greek, Ukrainian, Arabic, Hebrew, Indic, Thai, Korean and
//! Japanese, base64 and hex of real files, `/usr/share/doc` text, Rust sources and real JSON, so that at
//! most 1% of messages of each corpus are underestimated, on a held-out half of every corpus as well as on
//! the tuned half (docs/estimator.md names the corpora that miss it).

use serde_json::Value;

use crate::model::{Message, Part, ToolPart};

/// What the estimate is counted in: weights are thousandths of a token, summed exactly and rounded up once.
const MILLI: u64 = 1000;

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
const WORDS: usize = 0;
const WORD_CHARS: usize = 1;
const UPPER_CHARS: usize = 2;
const ACCENTED_CHARS: usize = 3;
const DIGIT_GROUPS: usize = 4;
const DIGITS: usize = 5;
const SYMBOL_RUNS: usize = 6;
const SYMBOL_CHARS: usize = 7;
const SYMBOL_REPEATS: usize = 8;
const PLAIN_SPACES: usize = 9;
const SPACE_RUNS: usize = 10;
const SPACE_CHARS: usize = 11;
const LINE_BREAKS: usize = 12;
const HAN_CHARS: usize = 13;
const HAN_RUNS: usize = 14;
const KANA_CHARS: usize = 15;
const HANGUL_CHARS: usize = 16;
const ALPHABET_CHARS: usize = 17;
const ALPHABET_RUNS: usize = 18;
const ALPHABET_UPPER: usize = 19;
const SCRIPT_CHARS: usize = 20;
const WIDE_PUNCT: usize = 21;
const PICTOGRAPHS: usize = 22;
const RARE_TRIGRAMS: usize = 23;
const HAN_DOUBLE_CHARS: usize = 24;
const HAN_TRIPLE_CHARS: usize = 25;
const HAN_WIDE_CHARS: usize = 26;
const HAN_RARE_RUNS: usize = 27;
const ACCENTED_EXTRA: usize = 28;
const ALPHABET_EXTRA: usize = 29;
const GREEK_CHARS: usize = 30;
const GREEK_EXTRA: usize = 31;
const GREEK_RUNS: usize = 32;
const HEBREW_CHARS: usize = 33;
const HEBREW_EXTRA: usize = 34;
const HEBREW_RUNS: usize = 35;
const ARABIC_CHARS: usize = 36;
const ARABIC_EXTRA: usize = 37;
const ARABIC_RUNS: usize = 38;
const INDIC_CHARS: usize = 39;
const INDIC_EXTRA: usize = 40;
const INDIC_RUNS: usize = 41;
const THAI_CHARS: usize = 42;
const THAI_EXTRA: usize = 43;
const THAI_RUNS: usize = 44;
const SCRIPT_EXTRA: usize = 45;
const SCRIPT_RUNS: usize = 46;
const KANA_EXTRA: usize = 47;
const KANA_RUNS: usize = 48;
const HANGUL_EXTRA: usize = 49;
const HANGUL_RUNS: usize = 50;
const BASE64_CHARS: usize = 51;
const BASE64_RUNS: usize = 52;
const HEX_CHARS: usize = 53;
const HEX_RUNS: usize = 54;
const EXTENDED_EXTRA: usize = 55;

// The weights, in thousandths of a token. Unless a comment says otherwise, each was fitted by
// `POLISH=1 node bench/estimator/tune.mjs` on the tuning half of the bench corpora (reference: the largest
// count of o200k_base, cl100k_base, the Claude tokenizer and Llama 3 per message): the tightest weights,
// within ranges that make sense for any text, that leave at most 0.3% of the tuning messages of each corpus
// under 1.01 times their count and every median under 1.28; the held-out half then measures them
// (docs/estimator.md).
// A zero weight means the fit found the class already paid for by its runs.

/// Each Latin word (a run of letters; a camelCase hump starts a new one): with its letters and the space
/// before it a five-letter English word costs 1.26 tokens; rare trigrams price words that split.
const W_WORDS: u64 = 909;
/// Each ASCII letter of a word: long or rare words split into several tokens.
const W_WORD_CHARS: u64 = 50;
/// Each ASCII uppercase letter on top: capitals (README, LICENSE, acronyms) merge less than lowercase.
const W_UPPER_CHARS: u64 = 55;
/// Each non-ASCII Latin letter (é, ß, ő) or combining mark: two UTF-8 bytes, often split off.
const W_ACCENTED_CHARS: u64 = 1523;
/// Each group of up to three digits: every tokenizer here splits numbers into such groups.
const W_DIGIT_GROUPS: u64 = 1174;
/// Each digit on top: the Claude tokenizer splits numbers into single digits.
const W_DIGITS: u64 = 0;
/// Each run of ASCII punctuation, JSON or code symbols.
const W_SYMBOL_RUNS: u64 = 698;
/// Each symbol of such a run beyond merges (`",`, `});`, `::` merge; long runs split).
const W_SYMBOL_CHARS: u64 = 301;
/// Each symbol that repeats the one before it (`}}`, `""`, `----`): long rules merge, but the fit prices a
/// repeat near a new symbol, as JSON's `}}`, `]]` and `""` split.
const W_SYMBOL_REPEATS: u64 = 585;
/// A single plain space between runs: usually merged into the next word, but not before a digit.
const W_PLAIN_SPACES: u64 = 120;
/// Any other whitespace run (a line break, indentation, tabs, several spaces): about one token, more
/// when a break sits between short lines that tokenizers cannot merge.
const W_SPACE_RUNS: u64 = 1673;
/// Each character of such a run.
const W_SPACE_CHARS: u64 = 50;
/// Each line break on top of its run.
const W_LINE_BREAKS: u64 = 141;
/// Each common Han ideograph (Chinese, Japanese kanji): one that every reference tokenizer keeps as a single
/// token standing alone ([`han_cost`] 1); in a run such characters also merge into words.
const W_HAN_CHARS: u64 = 874;
/// Each run of common Han ideographs (a rare one in between ends it).
const W_HAN_RUNS: u64 = 796;
/// Each Han ideograph that some reference tokenizer splits into two tokens standing alone: the fit keeps it
/// at its lower bound, two, as short classical texts of such characters merge little.
const W_HAN_DOUBLE_CHARS: u64 = 2000;
/// Each Han ideograph that some reference tokenizer splits into three (its three UTF-8 bytes).
const W_HAN_TRIPLE_CHARS: u64 = 2500;
/// Each Han ideograph outside the BMP (Extension B and later): set by hand to its four UTF-8 bytes, one
/// token each, as byte-level tokenizers charge a character they have no token for.
const W_HAN_WIDE_CHARS: u64 = 4000;
/// Each run of rare Han ideographs (cost two or more), which merge with neither neighbour.
const W_HAN_RARE_RUNS: u64 = 20;
/// Each kana (hiragana, katakana).
const W_KANA_CHARS: u64 = 1000;
/// Each Hangul syllable or jamo: fitted on ko-mo and ko-man (Korean prose measured at 1.45-1.6 tokens a
/// syllable in the Claude tokenizer and cl100k).
const W_HANGUL_CHARS: u64 = 1630;
/// Each Cyrillic letter.
const W_ALPHABET_CHARS: u64 = 753;
/// Each run (word) of such letters.
const W_ALPHABET_RUNS: u64 = 0;
/// Each uppercase letter of such an alphabet on top (capitals split into bytes more often).
const W_ALPHABET_UPPER: u64 = 325;
/// Each character of a script without a class of its own (Armenian, Georgian, Tibetan, Myanmar, Syriac, ...):
/// set by hand, the largest tokenizer (the Claude one) spends 1.2-1.9 tokens a character on such text.
const W_SCRIPT_CHARS: u64 = 2000;
/// Each CJK, fullwidth or general punctuation mark (，。「」 — “ ”) and other non-ASCII punctuation:
/// about one token each; it breaks the run around it, and the run it starts again pays the rest.
const W_WIDE_PUNCT: u64 = 1000;
/// Each emoji, pictograph, arrow, box-drawing or other symbol, Ethiopic or Cherokee letter, and any
/// unclassified character: up to four UTF-8 bytes, rarely merged (emoji measured at 3.55 tokens each
/// in the largest tokenizer, Ethiopic at 3.3).
const W_PICTOGRAPHS: u64 = 3600;

/// Indic, Thai and kana weights come from a grid fit per script (chars, extra, runs: the least median of
/// their corpora's tuning halves with at most 0.3% of messages under 1.01 times their count), the other
/// script weights from `tune.mjs` with the weights above fixed.
/// Per-character costs of the other scripts come from a table generated from the four vocabularies
/// ([`script_cost`], `src/script_costs.rs`): the largest number of tokens any of them gives a character
/// standing alone (1-4). A script's class counts its characters, their cost beyond one (`*_extra`: rare
/// letters, as Vietnamese ạ ầ ế, are two or three tokens alone and merge less) and its runs (words).
/// Each non-ASCII Latin letter's cost beyond one (Vietnamese, Polish, Czech, Turkish letters).
const W_ACCENTED_EXTRA: u64 = 500;
/// Each letter's cost beyond one in Latin Extended Additional (U+1E00-U+1EFF: Vietnamese ạ ầ ể ở, all of
/// cost 2-3), apart from the other Latin letters (Polish ą ę ś of cost 2 merge more in words).
const W_EXTENDED_EXTRA: u64 = 1185;
/// Each Cyrillic letter's cost beyond one.
const W_ALPHABET_EXTRA: u64 = 30;
/// Greek (with Greek Extended): each letter, its cost beyond one, each run.
const W_GREEK_CHARS: u64 = 1303;
const W_GREEK_EXTRA: u64 = 350;
const W_GREEK_RUNS: u64 = 35;
/// Hebrew: each letter or point, its cost beyond one, each run.
const W_HEBREW_CHARS: u64 = 1180;
const W_HEBREW_EXTRA: u64 = 0;
const W_HEBREW_RUNS: u64 = 0;
/// Arabic (with its supplements): each letter or mark, its cost beyond one, each run.
const W_ARABIC_CHARS: u64 = 1250;
const W_ARABIC_EXTRA: u64 = 10;
const W_ARABIC_RUNS: u64 = 0;
/// Devanagari and the other Indic scripts (to Sinhala): each letter or sign, its cost beyond one, each run.
const W_INDIC_CHARS: u64 = 1050;
const W_INDIC_EXTRA: u64 = 1050;
const W_INDIC_RUNS: u64 = 500;
/// Thai and Lao: each letter or sign, its cost beyond one, each run (Thai writes no spaces between words).
const W_THAI_CHARS: u64 = 650;
const W_THAI_EXTRA: u64 = 1350;
const W_THAI_RUNS: u64 = 1000;
/// Characters of the other scripts ([`W_SCRIPT_CHARS`]): cost beyond one, runs.
const W_SCRIPT_EXTRA: u64 = 0;
const W_SCRIPT_RUNS: u64 = 0;
/// Each kana's cost beyond one; each run of kana.
const W_KANA_EXTRA: u64 = 850;
const W_KANA_RUNS: u64 = 0;
/// Each Hangul syllable's cost beyond one (most are two or three tokens alone); each run (word).
const W_HANGUL_EXTRA: u64 = 20;
const W_HANGUL_RUNS: u64 = 0;

/// Encoded payloads ([`payload_at`]): base64 and base64url, and hex, priced per character and per run at
/// the tokenizers' measured worst case for them (generated into `src/script_costs.rs`, not fitted).
const W_BASE64_CHARS: u64 = BASE64_CHAR_MILLI;
const W_BASE64_RUNS: u64 = BASE64_RUN_MILLI;
const W_HEX_CHARS: u64 = HEX_CHAR_MILLI;
const W_HEX_RUNS: u64 = HEX_RUN_MILLI;

/// Each lowercase letter that ends a trigram rare in English ([`RARE_IN_ENGLISH`]) with the two letters
/// before it in its word: words of other languages, also those written without accents (Dutch,
/// Indonesian), names, identifiers and hex split into more tokens than English words. With it the fit
/// prices letters themselves low (`W_WORD_CHARS`): long English words are single tokens too. It took the
/// held-out Latin-script man pages from 12.8% to 0.5% underestimated (README, "Estimator fidelity").
const W_RARE_TRIGRAMS: u64 = 1641;

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

/// The trigram state of [`Scanner`] when no lowercase letter precedes: the last two letters five bits
/// each (a row of [`RARE_IN_ENGLISH`]), 31 for "no letter", whose rows are empty.
const NO_LETTERS: u32 = 31 << 5 | 31;

// BEGIN RARE_IN_ENGLISH: generated by `node bench/estimator/english-trigrams.mjs --write`, do not edit.
// The 2172 most frequent trigrams (of 17576) make up 98% of the 897091 trigrams of 2005
// English messages (tuning half of en-man and en-doc). Bit c of row p2 * 32 + p1 is set when the trigram
// p2 p1 c (a = 0 .. z = 25) is not one of them; rows of 26-31 (no letter) are empty.
const RARE_IN_ENGLISH: [u32; 1024] = [
    0x3ffffff, 0x3fbb6ee, 0x2f5f26b, 0x2dba6e6, 0x3fbe7ff, 0x3f7ffcf, 0x3f99eee, 0x3fffeff,
    0x3d1c7ff, 0x3ffbfff, 0x3fffeef, 0x2a13286, 0x3fb26ee, 0x2e31aa2, 0x3ffffff, 0x3f1766e,
    0x3ffffff, 0x2f102a0, 0x2f32a6b, 0x3e1ba4a, 0x3f3f7f7, 0x3ffbeee, 0x3ffdffe, 0x3ffbeff,
    0x3fbffef, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3f1d7f1, 0x3fff7ff, 0x3ffbfff, 0x3fffeff, 0x3f1d603, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3f7d7b4, 0x3ff7fef, 0x3ffffff, 0x2efbeee, 0x3ffbeff, 0x3ffffef, 0x341b7f6, 0x3ffdfff,
    0x3ffffff, 0x3ffbeea, 0x3e7bfe3, 0x3fffffe, 0x3f3de9b, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3f7ffff, 0x3dfffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3e157f9, 0x3ffbfff, 0x3efbeef, 0x3ffffff, 0x3f946c6, 0x3ffffff, 0x3ffffff, 0x2fd8eee,
    0x3f34fc6, 0x3ffffff, 0x3ab9eee, 0x2efbeee, 0x3fffffe, 0x3ffffff, 0x3c907b7, 0x3ff7ffe,
    0x3ffffff, 0x2ffbeee, 0x3ffffff, 0x36bb6ee, 0x3f167ff, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3fffffb, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x2f14fed, 0x3efffff, 0x3ffbffe, 0x3f9feef, 0x35147c0, 0x3ffffff, 0x3ffffef, 0x3fffffe,
    0x3c19f82, 0x3ffffff, 0x3ffffff, 0x3fffeef, 0x3fffeff, 0x3fbffff, 0x3adcfeb, 0x3ffbffe,
    0x3ffffff, 0x3ffbeee, 0x3ffffff, 0x3ffff7f, 0x3fd67ea, 0x3fffeee, 0x3fffefe, 0x3ffffff,
    0x3ffdfff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3f143f3, 0x2efbefe, 0x3e5b26e, 0x3ebbe26, 0x3f143f7, 0x3e3b6ce, 0x3edbeee, 0x3fffffe,
    0x3d5dfbf, 0x3ffffff, 0x3fbffff, 0x2d336c6, 0x3eb3ee0, 0x1419e80, 0x3ed7fdf, 0x3f5b76e,
    0x3efffff, 0x2810288, 0x2e2126b, 0x2a1be4a, 0x3fdffef, 0x3ffbeee, 0x3ffb7ee, 0x3e77eea,
    0x3b9bfff, 0x3ffbfff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3e3c6fb, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3b5d7ea, 0x3fbfeef, 0x3ffffff, 0x3ffffff,
    0x37557ab, 0x3ffffff, 0x3ffffff, 0x3efbeee, 0x3ffffff, 0x3ffffff, 0x3ed97ff, 0x3ffffff,
    0x3ffffff, 0x3ffbeee, 0x3ffffef, 0x3bf7f6f, 0x1f1d7ff, 0x3ffffff, 0x3fffff7, 0x3ffffff,
    0x3fffeff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3f5d6fb, 0x3ffffff, 0x3fdf7fb, 0x3fffbfd, 0x371c7e7, 0x3ffffff, 0x3fffeef, 0x3f7ffef,
    0x3d39ffb, 0x3ffffff, 0x3ffffef, 0x27fbeef, 0x3ffffee, 0x3efaeee, 0x3d5bfff, 0x3ffffbf,
    0x3ffffff, 0x3efbeee, 0x3fbfeff, 0x3fffb7e, 0x3fde6ee, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3fffeff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3d146e1, 0x3ffbfff, 0x3fffffe, 0x3fdffff, 0x27186f2, 0x3ffffff, 0x3ffffff, 0x3ffff7f,
    0x3d157a8, 0x3ffffff, 0x3ffffff, 0x3fffeff, 0x3ffffee, 0x3ffbffe, 0x3a107f7, 0x3ff7fff,
    0x3ffffff, 0x3ffbeef, 0x3ffffff, 0x3f3efff, 0x3f7dfbd, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ff7fff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3f147bd, 0x16164a2, 0x2e1b26e, 0x3e3d6a6, 0x391d7f7, 0x2f7bece, 0x3e1de2e, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x3fffeef, 0x2e3f6e6, 0x3eb2ee6, 0x3c31202, 0x3e9dff7, 0x3f3766a,
    0x3efffff, 0x3f13ee6, 0x3e12a62, 0x2a1b66a, 0x3ffefff, 0x3fffeee, 0x3ffffff, 0x3ffefed,
    0x3ffffff, 0x3ffffee, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3dfffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3fffffb, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3edfffd, 0x3ffffef,
    0x3ffffff, 0x3ffffff, 0x3ffbfff, 0x3ffffff, 0x3f9ffff, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3fdffbf, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x2f1d7c7, 0x3ffb7ff, 0x3ffffff, 0x3ffffff,
    0x3f757ff, 0x3ffffff, 0x3ffffff, 0x3ffbeff, 0x3fbffff, 0x3ffbfff, 0x3cfffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x3ffffef, 0x3fdbfff, 0x3ff7ffd, 0x3ffffff, 0x3fffffe, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x281cab9, 0x3fffffe, 0x3ffbfff, 0x3fbfeef, 0x251c382, 0x3ffffff, 0x3fdbfef, 0x3ffffff,
    0x1d34b80, 0x3ffffff, 0x3fffeff, 0x2dbaeec, 0x3ffbfef, 0x3ffffff, 0x2a91fb8, 0x3ffff7f,
    0x3ffffff, 0x3ffffef, 0x3ffbfee, 0x3fbbe6e, 0x3f1efa6, 0x3ffefef, 0x3fffffe, 0x3ffffff,
    0x1ff7eff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x27150b3, 0x3ffb6ef, 0x3ffffff, 0x3ffffff, 0x3b187f2, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x1f1d7a3, 0x3ffffff, 0x3ffffff, 0x3fffeff, 0x3efbeee, 0x3fbffff, 0x3c1dff7, 0x3e5b6ce,
    0x3ffffff, 0x3ffffff, 0x3ffffef, 0x3ffffff, 0x3f3c7fb, 0x3ffffff, 0x3fffffe, 0x3ffffff,
    0x3ff7fff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3f547bd, 0x3ffffff, 0x2e5b66e, 0x3f936ee, 0x31196a2, 0x3edb6ff, 0x3e1f6ef, 0x3ffffee,
    0x1524bca, 0x3ffffff, 0x3fbf7ef, 0x2ffbeef, 0x3ffffef, 0x3ffbeee, 0x3a1c7f7, 0x3effffe,
    0x3ffffff, 0x3ffbfef, 0x3e326ce, 0x2e9b64e, 0x37367ee, 0x3ffbeee, 0x3ffffff, 0x3ffffff,
    0x3ffafff, 0x3fffffe, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3e5fbf7, 0x3f3f4ee, 0x3e3baea, 0x3ebbeef, 0x3fbffff, 0x3f7fedf, 0x3f9d6af, 0x3ffdfff,
    0x3ffdff7, 0x3ffffef, 0x3fbfeef, 0x3cbb2e6, 0x3fb2eec, 0x2d38682, 0x3f173b7, 0x2e126ea,
    0x3ffffff, 0x2b142a2, 0x2f3be6b, 0x3f3be6e, 0x3f157b5, 0x3fffeee, 0x3fbd6ef, 0x2fffeff,
    0x3ffefee, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3b1c6b1, 0x3ffffff, 0x3ffafff, 0x3fffffe, 0x3f197a2, 0x3fdffff, 0x3fdffff, 0x2ffbee6,
    0x37157ab, 0x3ffffff, 0x3ffffbf, 0x2efbeee, 0x3ffffef, 0x3ffffbf, 0x3b112ff, 0x3fdb6ef,
    0x3ffffff, 0x3efbeee, 0x3f7ff6f, 0x2e9be6e, 0x3f1f7fd, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3f5ffff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffbeee, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x2914691, 0x3ffbefe, 0x3efbe6e, 0x3fb7eef, 0x3800480, 0x3ffb7fe, 0x3effeee, 0x3ffffff,
    0x1d30780, 0x3ffffff, 0x3f3f6ce, 0x2fffef7, 0x3fbbeee, 0x3fbbeee, 0x2010190, 0x3fdbfeb,
    0x3ffffff, 0x2efbeee, 0x3f7be6a, 0x2eb9e6e, 0x3fb57e9, 0x3fffeee, 0x3fffefe, 0x3ffffff,
    0x3fb7eff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x2d9c79d, 0x3ffffef, 0x3ed366a, 0x3fffaff, 0x3d04782, 0x3efbfef, 0x3ffffff, 0x3efbeec,
    0x1d387a0, 0x3ffffff, 0x3f3feef, 0x2fffefe, 0x3fffefe, 0x3fffffe, 0x3edc7da, 0x3fdb6ee,
    0x3fff7ff, 0x3ffffeb, 0x3afb64e, 0x269aea6, 0x3f96688, 0x3ffdfff, 0x3ffbefe, 0x3ffffff,
    0x3fbcfff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x37142b1, 0x3ffffff, 0x3ff3f7f, 0x3ffbeff, 0x3114782, 0x3ffbeff, 0x3fdffff, 0x2e986ea,
    0x3c10788, 0x3ffffff, 0x3ffffff, 0x2fbffee, 0x3ff77ee, 0x3ffffef, 0x3e103bb, 0x3ebffff,
    0x3ffffff, 0x2efbeee, 0x3f77eeb, 0x2fd366e, 0x3f15ffe, 0x3ffffff, 0x3ffbeee, 0x3f7ffff,
    0x3ff77ff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3f5d7bf, 0x3f3c5e7, 0x3f7fa6a, 0x3ffbeef, 0x3e9d7f7, 0x3ffffdf, 0x3fbfe1f, 0x3ffffff,
    0x3d1d7e7, 0x3ffffff, 0x3ffffff, 0x3f7f6e6, 0x3ff4fec, 0x3e1c2a2, 0x3f7ffff, 0x3f337a7,
    0x3ffffff, 0x3f116a8, 0x3e1f66e, 0x3e3366e, 0x3fffeff, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x1ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3f5d67f, 0x3fffeff, 0x3ffffff, 0x3ffffff, 0x3f9c7f7, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3f197e2, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3bfffff, 0x3ffffff, 0x3fff2fb, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x2f956ff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3d9f7e5, 0x3ffffff, 0x3ffffff, 0x3ffbeee,
    0x3f1d3f7, 0x3ffffff, 0x3ffffff, 0x3fffeef, 0x3ffffff, 0x3fff7ef, 0x3edffff, 0x3ffffff,
    0x3ffffff, 0x3ffbefe, 0x3ffff6f, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3bfffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3ffcffb, 0x3efffff, 0x3fff7ef, 0x3ffffff, 0x3f9fff3, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3f3cfef, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3fff7fe, 0x3ffffff, 0x3ffdfff, 0x3fdb6ee,
    0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3e9ffef, 0x3fbffff, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3ffe7ff, 0x3ffffff, 0x3fff7ff, 0x3ffffff, 0x3f1fff6, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ffdfff, 0x3ffffff, 0x3ffffff, 0x3ffffef, 0x3fff7ed, 0x3f7fffa, 0x3efdfff, 0x3f5fe6f,
    0x3ffffff, 0x3fffeff, 0x3f7fffb, 0x3ffff6f, 0x3ffffff, 0x3ffffff, 0x3ffbfff, 0x3ffffff,
    0x3ffffff, 0x3ffffef, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x3f7ffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3fdfff7, 0x3ffffff, 0x3ffffff, 0x3ffffff,
    0x3ff7fff, 0x3ffffff, 0x3ffffff, 0x3fffeff, 0x3ffffff, 0x3ffffff, 0x3ffdfff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3ffffff, 0x3fffffd, 0x3ffffff, 0x3ffffff,
    0x3ffffff, 0x3ffffff, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
    0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000, 0x0000000,
];
// END RARE_IN_ENGLISH

include!("han_costs.rs");
include!("script_costs.rs");

/// The feature a Han ideograph of each cost (1-4, [`han_cost`]) counts in.
const HAN_COST_FEATURE: [usize; 5] = [HAN_CHARS, HAN_CHARS, HAN_DOUBLE_CHARS, HAN_TRIPLE_CHARS, HAN_WIDE_CHARS];

// The scanner's fast path looks up U+5000-U+9FFF at `cp - 0x3400` in the first segment.
const _: () = assert!(HAN_COST_SEGMENTS[0].0 == 0x3400 && HAN_COST_SEGMENTS[0].1 == 0x9FFF && HAN_COST_SEGMENTS[0].2 == 0);

/// The cost (1-4) of character `index` of a generated two-bit table (`han_costs`, `script_costs`).
#[inline(always)]
fn packed_cost(bits: &[u64], index: usize) -> u32 {
    ((bits[index / 32] >> (index % 32 * 2)) & 3) as u32 + 1
}

/// The cost of `cp` in a generated table of `(first, last, offset)` segments; `None` outside them.
#[inline(always)]
fn segment_cost(segments: &[(u32, u32, usize)], bits: &[u64], cp: u32) -> Option<u32> {
    segments
        .iter()
        .find(|(first, last, _)| (*first..=*last).contains(&cp))
        .map(|(first, _, offset)| packed_cost(bits, offset + (cp - first) as usize))
}

/// What a Han ideograph costs standing alone: the largest number of tokens any reference tokenizer gives
/// it (1-3, from the generated table of [`HAN_COST_SEGMENTS`]; 4, its UTF-8 bytes, outside the BMP).
/// `None` for characters the estimator does not count as Han.
pub fn han_cost(c: char) -> Option<u32> {
    (classify(c) == Class::Han).then(|| han_cost_of(c as u32))
}

/// [`han_cost`] of a code point [`classify`] found Han.
#[inline(always)]
fn han_cost_of(cp: u32) -> u32 {
    segment_cost(&HAN_COST_SEGMENTS, &HAN_COST_BITS, cp).unwrap_or(4)
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

fn script_cost_of(c: char) -> u32 {
    segment_cost(&SCRIPT_COST_SEGMENTS, &SCRIPT_COST_BITS, c as u32).unwrap_or(c.len_utf8() as u32)
}

/// The kinds of an encoded payload [`payload_at`] recognizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Payload {
    /// Base64 or base64url.
    Base64,
    Hex,
}

/// Shortest run of payload bytes taken for a payload: 24 bytes in base64, 16 in hex; shorter ones (keys,
/// short ids) are priced as text.
pub const PAYLOAD_MIN_CHARS: usize = 32;

/// Per ASCII byte: 0 if it cannot be in a payload, else 8 | hex digit (4) | kind (0 uppercase, 1 lowercase,
/// 2 digit, 3 symbol of base64 or base64url: `+ / - _ =`).
const PAYLOAD_KIND: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = match c {
            b'A'..=b'F' => 8 | 4,
            b'G'..=b'Z' => 8,
            b'a'..=b'f' => 8 | 4 | 1,
            b'g'..=b'z' => 8 | 1,
            b'0'..=b'9' => 8 | 4 | 2,
            b'+' | b'/' | b'-' | b'_' | b'=' => 8 | 3,
            _ => 0,
        };
        b += 1;
    }
    table
};

/// Whether a byte can be part of an encoded payload.
#[inline(always)]
fn is_payload_byte(b: u8) -> bool {
    PAYLOAD_KIND[usize::from(b)] != 0
}

/// The run of payload bytes from `start` (its end) and whether it is an encoded payload: at least
/// [`PAYLOAD_MIN_CHARS`] long and, judged on its first [`PAYLOAD_MIN_CHARS`] bytes (so that a growing
/// run never changes its kind), either hex digits only, with digits and letters, or base64: the kind
/// (uppercase, lowercase, digit, symbol) changes between at least half of neighbouring bytes, or 30% with
/// a digit among them; or, from 64 bytes on, when its first 64 hold both cases. Base64 of compressed data
/// changes about 65% of the time, of a PNG header with its runs of `A` about 32%, of sparse binary less;
/// identifiers and paths change 20-42% and rarely hold digits (camelCase with short words 42%,
/// `SNAKE_CASE` 33%, `/usr/share/...` 31%), a run of one kind never.
pub fn payload_at(bytes: &[u8], start: usize) -> (usize, Option<Payload>) {
    let (mut i, mut changes, mut all, mut seen) = (start, 0usize, 0xFFu8, 0u8);
    let mut prev = PAYLOAD_KIND[usize::from(bytes.get(start).copied().unwrap_or(0))] & 3;
    while let Some(&b) = bytes.get(i).filter(|&&b| is_payload_byte(b)) {
        if i - start < PAYLOAD_MIN_CHARS {
            let kind = PAYLOAD_KIND[usize::from(b)];
            changes += usize::from(kind & 3 != prev);
            prev = kind & 3;
            all &= kind;
            seen |= 1 << (kind & 3);
        }
        i += 1;
    }
    let judged = PAYLOAD_MIN_CHARS - 1;
    // Base64 of sparse binary (runs of `A`, few digits) changes little, but no word or path of 64
    // characters without a dot or a space has both cases.
    let mixed_case = || bytes.get(start..start + 2 * PAYLOAD_MIN_CHARS).is_some_and(|head| {
        head.iter().any(u8::is_ascii_uppercase) && head.iter().any(u8::is_ascii_lowercase)
    });
    let payload = if i - start < PAYLOAD_MIN_CHARS {
        None
    } else if all & 4 != 0 && seen & 4 != 0 && seen & 3 != 0 {
        Some(Payload::Hex)
    } else if changes * 2 >= judged || (seen & 4 != 0 && changes * 10 >= judged * 3) || (i - start >= 2 * PAYLOAD_MIN_CHARS && mixed_case()) {
        Some(Payload::Base64)
    } else {
        None
    };
    (i, payload)
}

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
enum Class {
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
const ASCII_CLASS: [Class; 128] = {
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

fn classify(c: char) -> Class {
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
struct Scanner {
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
    fn new() -> Scanner {
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

    fn finish(&self) -> RunCounts {
        RunCounts { counts: self.n }
    }

    fn feed(&mut self, text: &str) {
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
                if payloads && is_payload_byte(b) && (i == 0 || !is_payload_byte(bytes[i - 1])) {
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
                            if payloads && chain.last_word != usize::MAX && bytes.get(chain.end).is_some_and(|&b| is_payload_byte(b)) {
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
fn count_script(n: &mut [u64; FEATURES], [chars, extra_cost, runs]: [usize; 3], extra: u64, new_run: bool) {
    n[chars] += 1;
    n[extra_cost] += extra;
    n[runs] += u64::from(new_run);
}

/// Counts a payload run: at its payload price, or as text (scanned alone, no payloads) when that costs
/// more, so that recognizing a payload never lowers an estimate (a text never costs less than its prefix).
fn count_payload(n: &mut [u64; FEATURES], payload: Payload, run: &[u8]) {
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
struct Chain {
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
fn lowercase_chain(bytes: &[u8], start: usize, last_two: u32) -> Chain {
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

fn json_counts(value: &Value) -> RunCounts {
    let mut scanner = Scanner::new();
    // Writing into the scanner cannot fail; a failure would only leave the count lower, never panic.
    let _ = serde_json::to_writer(&mut scanner, value);
    scanner.finish()
}

/// What the estimate of a message depends on besides the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EstimateOptions {
    /// The provider sends earlier reasoning back to the model (`ModelProfile.replaysReasoning`).
    pub replays_reasoning: bool,
    /// A fixed cost per image instead of the one computed here (`ModelProfile.imageTokens`).
    pub image_tokens: Option<u64>,
}

/// Role and framing of one message in every provider format (OpenAI documents 3 tokens per message plus
/// 3 to prime the reply; Claude's turn markers are about as many); rounded up.
pub const MESSAGE_OVERHEAD_TOKENS: u64 = 6;
/// Framing of one content block (part) inside a message: its type tag and separators.
pub const PART_OVERHEAD_TOKENS: u64 = 2;
/// Framing of a tool call and its result beyond the name and call id: the `tool_use`/`tool_result`
/// (or `function_call`/`function_call_output`) blocks, their field names and separators.
pub const TOOL_CALL_OVERHEAD_TOKENS: u64 = 12;

/// The conservative estimate of one message's tokens as it is sent to a model.
pub fn estimate_message(message: &Message, opts: &EstimateOptions) -> u64 {
    message
        .parts
        .iter()
        .map(|part| match estimate_part(part, opts) {
            0 => 0,
            tokens => tokens.saturating_add(PART_OVERHEAD_TOKENS),
        })
        .fold(MESSAGE_OVERHEAD_TOKENS, u64::saturating_add)
}

fn estimate_part(part: &Part, opts: &EstimateOptions) -> u64 {
    match part {
        Part::Text { text } => estimate_text(text),
        Part::Reasoning { text } => {
            if opts.replays_reasoning {
                estimate_text(text)
            } else {
                0
            }
        }
        Part::Tool(tool) => estimate_tool(tool),
        Part::Data { name, id, data } => estimate_text(name)
            .saturating_add(id.as_deref().map_or(0, estimate_text))
            .saturating_add(estimate_json(data)),
        Part::File { media_type, filename, url } => {
            estimate_file(media_type, url, opts).saturating_add(filename.as_deref().map_or(0, estimate_text))
        }
        Part::SourceUrl { url, title, .. } => {
            estimate_text(url).saturating_add(title.as_deref().map_or(0, estimate_text))
        }
        Part::SourceDocument { title, filename, .. } => {
            estimate_text(title).saturating_add(filename.as_deref().map_or(0, estimate_text))
        }
        Part::StepStart => 0,
        Part::Unknown { value, .. } => estimate_json(value),
    }
}

fn estimate_tool(tool: &ToolPart) -> u64 {
    // The call id is sent twice: with the call and with its result.
    let mut tokens = TOOL_CALL_OVERHEAD_TOKENS
        .saturating_add(estimate_text(&tool.tool_name))
        .saturating_add(estimate_text(&tool.tool_call_id).saturating_mul(2));
    // Input and output are scanned as the JSON text they were given as, which is the text sent.
    if let Some(input) = &tool.input {
        tokens = tokens.saturating_add(estimate_text(input.as_str()));
    }
    if let Some(output) = &tool.output {
        // The AI SDK sends a string result as text and anything else as JSON.
        tokens = tokens.saturating_add(match output.as_string() {
            Some(text) => estimate_text(&text),
            None => estimate_text(output.as_str()),
        });
    }
    if let Some(error) = &tool.error_text {
        tokens = tokens.saturating_add(estimate_text(error));
    }
    if let Some(reason) = tool.approval.as_ref().and_then(|a| a.reason.as_deref()) {
        tokens = tokens.saturating_add(estimate_text(reason));
    }
    tokens
}

// ---- Files and images ----

/// An image whose size is unknown (a remote URL, an unreadable header): what Claude charges for the
/// largest image it accepts unscaled (~1,600 tokens, its vision docs), above OpenAI's high-detail
/// maximum (1,445) and Gemini's per-image defaults (258 per tile, 1,120 at high resolution).
pub const DEFAULT_IMAGE_TOKENS: u64 = 1_600;
/// Claude: tokens = width x height / 750 after scaling the long edge to at most 1,568 px, capped near
/// 1,600 tokens (Claude vision docs).
const CLAUDE_PIXELS_PER_TOKEN: u64 = 750;
const CLAUDE_MAX_EDGE: u64 = 1_568;
const CLAUDE_MAX_TOKENS: u64 = 1_600;
/// OpenAI high detail: fit in 2,048 px, shortest side to 768 px, then 170 tokens per 512 px tile plus 85.
const OPENAI_MAX_EDGE: u64 = 2_048;
const OPENAI_SHORT_EDGE: u64 = 768;
const OPENAI_TILE: u64 = 512;
const OPENAI_TOKENS_PER_TILE: u64 = 170;
const OPENAI_BASE_TOKENS: u64 = 85;
/// Gemini: any image costs at least one 258-token tile.
const GEMINI_MIN_TOKENS: u64 = 258;
/// A non-image file behind a remote URL (size unknown): about a two-page PDF as Claude reads it
/// (page text plus a page image, ~1,500-3,000 tokens a page, Claude PDF support docs).
pub const REMOTE_FILE_TOKENS: u64 = 5_000;
/// Binary files (PDF, Office) by size: one token per 8 bytes. A text PDF page of 10-40 KB costs
/// ~1,500-3,000 tokens as page text plus page image, so 8 bytes a token stays above it for text PDFs
/// (it overcounts image-heavy files, the safe side).
const BINARY_BYTES_PER_TOKEN: u64 = 8;

/// The tokens of an image of the given size: the largest of what Claude, OpenAI and Gemini charge.
pub fn image_tokens(width: u32, height: u32) -> u64 {
    let (w, h) = (u64::from(width), u64::from(height));
    if w == 0 || h == 0 {
        return DEFAULT_IMAGE_TOKENS;
    }
    let claude = {
        let (w, h) = fit_long_edge(w, h, CLAUDE_MAX_EDGE);
        w.saturating_mul(h).div_ceil(CLAUDE_PIXELS_PER_TOKEN).min(CLAUDE_MAX_TOKENS)
    };
    let openai = {
        let (w, h) = fit_long_edge(w, h, OPENAI_MAX_EDGE);
        let short = w.min(h);
        let (w, h) = if short > OPENAI_SHORT_EDGE {
            (scale(w, OPENAI_SHORT_EDGE, short), scale(h, OPENAI_SHORT_EDGE, short))
        } else {
            (w, h)
        };
        let tiles = w.div_ceil(OPENAI_TILE).saturating_mul(h.div_ceil(OPENAI_TILE));
        OPENAI_BASE_TOKENS.saturating_add(tiles.saturating_mul(OPENAI_TOKENS_PER_TILE))
    };
    claude.max(openai).max(GEMINI_MIN_TOKENS)
}

/// Scales (w, h) down so the longer edge is at most `max`, keeping the aspect ratio (at least 1 px).
fn fit_long_edge(w: u64, h: u64, max: u64) -> (u64, u64) {
    let long = w.max(h);
    if long <= max {
        (w, h)
    } else {
        (scale(w, max, long), scale(h, max, long))
    }
}

/// `v * num / den`, rounded up, at least 1. Inputs are at most 2^32, so the product fits in u64.
fn scale(v: u64, num: u64, den: u64) -> u64 {
    v.saturating_mul(num).div_ceil(den.max(1)).max(1)
}

fn estimate_file(media_type: &str, url: &str, opts: &EstimateOptions) -> u64 {
    let is_image = media_type.get(..6).is_some_and(|p| p.eq_ignore_ascii_case("image/"));
    let data = DataUrl::parse(url);
    if is_image {
        if let Some(fixed) = opts.image_tokens {
            return fixed;
        }
        return data
            .and_then(|d| d.base64_payload())
            .and_then(|payload| image_size(&Base64::new(payload)))
            .map_or(DEFAULT_IMAGE_TOKENS, |(w, h)| image_tokens(w, h));
    }
    let Some(data) = data else {
        return REMOTE_FILE_TOKENS;
    };
    if is_textual(media_type) {
        return text_file_counts(&data).tokens();
    }
    data.decoded_len().div_ceil(BINARY_BYTES_PER_TOKEN)
}

/// Media types a provider receives as text (counted by their content, not their size).
fn is_textual(media_type: &str) -> bool {
    let m = media_type.to_ascii_lowercase();
    m.starts_with("text/")
        || m.ends_with("json")
        || m.ends_with("+xml")
        || m.ends_with("/xml")
        || m.ends_with("javascript")
        || m.ends_with("yaml")
        || m.ends_with("x-bibtex")
        || m.ends_with("x-research-info-systems")
}

/// A `data:[<media type>][;base64],<payload>` URL.
struct DataUrl<'a> {
    base64: bool,
    payload: &'a str,
}

impl<'a> DataUrl<'a> {
    fn parse(url: &'a str) -> Option<DataUrl<'a>> {
        let rest = url.get(..5).filter(|s| s.eq_ignore_ascii_case("data:")).and_then(|_| url.get(5..))?;
        let (header, payload) = rest.split_once(',')?;
        let base64 = header.len() >= 7
            && header.get(header.len() - 7..).is_some_and(|s| s.eq_ignore_ascii_case(";base64"));
        Some(DataUrl { base64, payload })
    }

    fn base64_payload(&self) -> Option<&'a str> {
        self.base64.then_some(self.payload)
    }

    /// Bytes of the payload once decoded (percent-encoded payloads are counted as written: an upper bound).
    fn decoded_len(&self) -> u64 {
        if self.base64 {
            Base64::new(self.payload).len() as u64
        } else {
            self.payload.len() as u64
        }
    }
}

/// Counts a textual data URL's content as text, decoding base64 in small pieces (no copy of the file).
fn text_file_counts(data: &DataUrl) -> RunCounts {
    let mut scanner = Scanner::new();
    if !data.base64 {
        scanner.feed(data.payload);
        return scanner.finish();
    }
    let b64 = Base64::new(data.payload);
    let mut buf = [0u8; 3 * 1024];
    // Bytes of a character split across two pieces wait at the start of the buffer.
    let mut carried = 0;
    let mut offset = 0;
    let total = b64.len();
    while offset < total {
        let mut filled = carried;
        while filled < buf.len() && offset < total {
            match b64.byte(offset) {
                Some(b) => buf[filled] = b,
                None => return scanner.finish(),
            }
            filled += 1;
            offset += 1;
        }
        let piece = &buf[..filled];
        let valid = match std::str::from_utf8(piece) {
            Ok(text) => {
                scanner.feed(text);
                filled
            }
            Err(e) => {
                let valid = e.valid_up_to();
                scanner.feed(std::str::from_utf8(&piece[..valid]).unwrap_or_default());
                match e.error_len() {
                    // Invalid bytes: count them as unknown characters and go on.
                    Some(bad) => {
                        scanner.feed(&"\u{FFFD}".repeat(bad));
                        valid + bad
                    }
                    // A character cut at the end of the piece: keep its bytes for the next one.
                    None => valid,
                }
            }
        };
        carried = filled - valid;
        buf.copy_within(valid..filled, 0);
        if offset >= total && carried > 0 {
            scanner.feed(&"\u{FFFD}".repeat(carried));
        }
    }
    scanner.finish()
}

/// Random access to the bytes of a base64 payload without decoding all of it: byte `i` comes from the
/// four characters `4 * (i / 3)..`. Standard and URL-safe alphabets; no whitespace inside.
struct Base64<'a> {
    chars: &'a [u8],
}

impl<'a> Base64<'a> {
    fn new(payload: &'a str) -> Base64<'a> {
        let chars = payload.trim_end().as_bytes();
        Base64 { chars }
    }

    /// Decoded length, from the characters before any padding.
    fn len(&self) -> usize {
        let unpadded = self.chars.iter().rposition(|&c| c != b'=').map_or(0, |i| i + 1);
        unpadded / 4 * 3 + (unpadded % 4 * 3 / 4)
    }

    fn byte(&self, index: usize) -> Option<u8> {
        if index >= self.len() {
            return None;
        }
        let quad = self.chars.get(index / 3 * 4..)?;
        let sextet = |i: usize| quad.get(i).copied().map_or(Some(0), sextet_of);
        let bits = (u32::from(sextet(0)?) << 18)
            | (u32::from(sextet(1)?) << 12)
            | (u32::from(sextet(2)?) << 6)
            | u32::from(sextet(3)?);
        Some((bits >> (16 - 8 * (index % 3))) as u8)
    }

    fn bytes<const N: usize>(&self, at: usize) -> Option<[u8; N]> {
        let mut out = [0u8; N];
        for (i, b) in out.iter_mut().enumerate() {
            *b = self.byte(at.checked_add(i)?)?;
        }
        Some(out)
    }

    fn u16_be(&self, at: usize) -> Option<u32> {
        self.bytes::<2>(at).map(|b| u32::from(u16::from_be_bytes(b)))
    }

    fn u16_le(&self, at: usize) -> Option<u32> {
        self.bytes::<2>(at).map(|b| u32::from(u16::from_le_bytes(b)))
    }

    fn u24_le(&self, at: usize) -> Option<u32> {
        self.bytes::<3>(at).map(|b| u32::from_le_bytes([b[0], b[1], b[2], 0]))
    }
}

fn sextet_of(c: u8) -> Option<u8> {
    match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' | b'-' => Some(62),
        b'/' | b'_' => Some(63),
        b'=' => Some(0),
        _ => None,
    }
}

/// Most JPEG segments read before giving up (EXIF, ICC and thumbnails come before the frame header).
const JPEG_MAX_SEGMENTS: usize = 512;

/// Width and height from a PNG, GIF, WebP or JPEG header; `None` when the header is not one of them.
fn image_size(data: &Base64) -> Option<(u32, u32)> {
    let head = data.bytes::<4>(0)?;
    match head {
        [0x89, b'P', b'N', b'G'] => {
            if data.bytes::<4>(12)? != *b"IHDR" {
                return None;
            }
            let w = u32::from_be_bytes(data.bytes::<4>(16)?);
            let h = u32::from_be_bytes(data.bytes::<4>(20)?);
            Some((w, h))
        }
        [b'G', b'I', b'F', b'8'] => Some((data.u16_le(6)?, data.u16_le(8)?)),
        [b'R', b'I', b'F', b'F'] => {
            if data.bytes::<4>(8)? != *b"WEBP" {
                return None;
            }
            match &data.bytes::<4>(12)? {
                b"VP8 " => Some((data.u16_le(26)? & 0x3FFF, data.u16_le(28)? & 0x3FFF)),
                b"VP8L" => {
                    let b = data.bytes::<4>(21)?.map(u32::from);
                    let w = 1 + (((b[1] & 0x3F) << 8) | b[0]);
                    let h = 1 + (((b[3] & 0x0F) << 10) | (b[2] << 2) | ((b[1] & 0xC0) >> 6));
                    Some((w, h))
                }
                b"VP8X" => Some((1 + data.u24_le(24)?, 1 + data.u24_le(27)?)),
                _ => None,
            }
        }
        [0xFF, 0xD8, ..] => jpeg_size(data),
        _ => None,
    }
}

/// Walks the JPEG segments to the first start-of-frame marker, reading only the segment headers.
fn jpeg_size(data: &Base64) -> Option<(u32, u32)> {
    let mut pos = 2usize;
    for _ in 0..JPEG_MAX_SEGMENTS {
        if data.byte(pos)? != 0xFF {
            return None;
        }
        // Fill bytes: any number of 0xFF before the marker.
        let mut marker = data.byte(pos.checked_add(1)?)?;
        while marker == 0xFF {
            pos = pos.checked_add(1)?;
            marker = data.byte(pos.checked_add(1)?)?;
        }
        match marker {
            // Start of frame (baseline, progressive, lossless, ...); not DHT (C4), JPG (C8), DAC (CC).
            0xC0..=0xCF if !matches!(marker, 0xC4 | 0xC8 | 0xCC) => {
                let h = data.u16_be(pos.checked_add(5)?)?;
                let w = data.u16_be(pos.checked_add(7)?)?;
                return Some((w, h));
            }
            // Markers without a length.
            0x01 | 0xD0..=0xD8 => pos = pos.checked_add(2)?,
            // End of image or start of scan before any frame header.
            0xD9 | 0xDA => return None,
            _ => {
                let len = data.u16_be(pos.checked_add(2)?)? as usize;
                pos = pos.checked_add(2)?.checked_add(len)?;
            }
        }
    }
    None
}
