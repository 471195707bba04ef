//! What a request costs: messages priced, the model's capacity, provider usage as a baseline, the
//! summary message's frame.

mod capacity;
mod frame;
mod message;
mod request;
mod usage;

pub use capacity::{MIN_CONTEXT_WINDOW, ModelProfile, Capacity, capacity, projected_ledger_budget, ledger_budget_for_summary_budget, register_budgets, register_frame_tokens, REGISTER_JOIN_SLACK};
pub use frame::{frame_tokens, JOIN_SLACK_TOKENS, bounded_frame_tokens, FrameCache};
pub use message::{EstimateOptions, MESSAGE_OVERHEAD_TOKENS, PART_OVERHEAD_TOKENS, estimate_message};
pub use request::{Draft, EstimateRequest, Source, Estimate, BranchTokens, ProjectionSpan, estimate, estimate_branch, estimate_one_message, MessageText};
pub use usage::Usage;
