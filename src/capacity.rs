//! Model profiles and the capacity derived from them (reserve, safe input limit, thresholds, budgets).
//! TYPES ONLY so far: the formulas are added by the planning work (issue 4).

use serde::{Deserialize, Serialize};

/// What the caller tells us about the model (`ModelProfile` in the contract).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModelProfile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    pub context_window: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u64>,
    #[serde(default)]
    pub replays_reasoning: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_tokens: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Capacity {
    pub context_window: u64,
    pub reserved_tokens: u64,
    pub safe_input_limit: u64,
    pub auto_compact_at: u64,
    pub tail_budget: u64,
    pub summary_max_output_tokens: u64,
}
