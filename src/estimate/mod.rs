//! What a request costs: messages priced, the model's capacity, provider usage as a baseline, the
//! summary message's frame.

mod capacity;
mod frame;
mod message;
mod request;
mod usage;

pub use capacity::{MIN_CONTEXT_WINDOW, RESERVE_FRACTION_DIVISOR, RESERVE_FLOOR, RESERVE_CEILING, AUTO_COMPACT_PERCENT, SUMMARY_FRACTION_DIVISOR, SUMMARY_CEILING, TAIL_FRACTION_DIVISOR, TAIL_CEILING, ModelProfile, Capacity, capacity, projected_ledger_budget, ledger_budget_for_summary_budget};
pub use frame::{frame_tokens, JOIN_SLACK_TOKENS, bounded_frame_tokens, FrameCache};
pub use message::{EstimateOptions, MESSAGE_OVERHEAD_TOKENS, PART_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, estimate_message};
pub use request::{BASELINE_PLAUSIBILITY_FACTOR, Draft, read_message_like, overhead_tokens, EstimateRequest, Source, Estimate, BranchTokens, ProjectionSpan, estimate, estimate_branch, estimate_one_message, MessageText};
pub use usage::{Usage, read_usage, message_usage};
