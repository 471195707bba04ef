//! When and where to compact: the plan (threshold, preflight, cold cache), the kept boundary and the prompt cache.

mod boundary;
mod cache;
mod decision;

pub use boundary::{Boundary, tail_boundary, next_boundary, newest_turn, turn_count, advances};
pub use cache::{COLD_COMPACT_PERCENT, CacheProfile, CacheOptions, CacheState, CacheReport, cache_report, cold_compaction_due, CompactionCost, compaction_cost, Breakpoint, breakpoints, default_profile, DEFAULT_PROFILE_NAMES, cache_breakpoints_branch, draft_id, cache_breakpoints};
pub use decision::{PlanAction, SendDecision, Plan, PlanOptions, plan, plan_branch, plan_branch_cached};
