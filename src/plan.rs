//! Compaction planning: when (mode rules) and where (the boundary).
//! TYPES ONLY so far: the rules are added by the planning work (issue 4).

use serde::{Deserialize, Serialize};

use crate::model::{Basis, Mode};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PlanAction {
    Compact,
    None,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SendDecision {
    Now,
    AfterCompaction,
    TooLarge,
}

/// The contract's `Plan`. `reason` is a stable code ('under-threshold', 'workflow-pending', ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    pub action: PlanAction,
    pub reason: String,
    pub mode: Mode,
    pub first_kept_message_id: Option<String>,
    pub previous_checkpoint_id: Option<String>,
    pub summarize_ids: Vec<String>,
    pub basis: Basis,
    pub tokens_before: u64,
    pub tokens_after_estimate: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send: Option<SendDecision>,
}
