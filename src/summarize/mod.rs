//! What the summarizer sees and what it must give back: serialization, the summary request, the eight
//! sections, the embedded extractive summarizer, validation and the repair of an invalid summary.

mod extractive;
mod repair;
mod request;
mod sections;
mod serialize;
mod subject;
mod validate;

pub use extractive::{extractive_summary, ExtractiveFold};
pub use repair::{repair_summary, settle_summary, RepairKind, SettledSummary, SummaryRepair};
pub use request::{
    SummaryRequest, SummaryRequestOptions, system_prompt, summary_request, summary_request_on_branch, summary_request_resolved, delimiters, Round,
    begin_request_parts, finished_request, next_request_part, RequestParts,
};
pub use sections::SECTIONS;
pub use serialize::{DEFAULT_MAX_TOOL_RESULT_CHARS, SerializeOptions, serialize, serialize_ui_messages, looks_structural};
pub use validate::validate_summary;
pub(crate) use subject::{content_tokens, Frames};
