//! When and where to compact: the plan (threshold, preflight, cold cache), the kept boundary and the prompt cache.

mod boundary;
mod cache;
mod decision;
mod read;

pub use boundary::Boundary;
pub use cache::{CacheProfile, CacheOptions, CacheState, CacheReport, CompactionCost, Breakpoint, breakpoints, default_profile, DEFAULT_PROFILE_NAMES, cache_breakpoints_branch, draft_id, cache_breakpoints, breakpoints_value};
pub use decision::{PlanAction, SendDecision, Plan, PlanOptions, plan, plan_branch, plan_branch_cached};
