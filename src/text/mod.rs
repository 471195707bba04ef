//! Text helpers below every stage: lenient JSON reading, lone-surrogate repair, one-line labels and clipping.

pub mod fields;
mod json;
mod line;

pub use json::{object, tuple_key, parse_lenient, message_of, replace_lone_surrogates, nests_deeper_than, MAX_NESTING};
pub use line::{single_line, sentence_spans, MAX_ABBREVIATION_LETTERS, clip, strip_html, strip_data_payloads, fold_case, fold_char};
