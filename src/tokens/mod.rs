//! The token scanner: text (and encoded payloads, files, images) to a conservative token count, with no
//! knowledge of messages.

mod media;
mod payload;
mod scanner;
mod tables;
mod weights;

pub use media::{DEFAULT_IMAGE_TOKENS, REMOTE_FILE_TOKENS, image_tokens};
pub use payload::{Payload, PAYLOAD_MIN_CHARS, payload_at};
pub use scanner::{RunCounts, run_counts, is_rare_in_english, estimate_text, estimate_json, han_cost, script_cost};
pub use weights::{FEATURE_NAMES, FEATURES, FOREIGN_SPAN, W_FOREIGN_LETTERS, WEIGHTS};
pub(crate) use media::{image_size, is_textual, text_file_counts, Base64, DataUrl, BINARY_BYTES_PER_TOKEN};
