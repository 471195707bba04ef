//! Whether a finished summary may be committed, and the checkpoint node it becomes.
//! The check runs inside the store's transaction on the state read there (version-conditional commit).

use serde::Serialize;

use crate::error::{Error, ErrorCode, Result};
use crate::model::Session;
use crate::plan::{Plan, PlanAction};
use crate::tree::read_branch;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CommitRefusal {
    ReadOnly,
    LeafMoved,
    RevisionChanged,
    WorkflowPending,
    BoundaryOffBranch,
}

impl CommitRefusal {
    pub fn as_str(self) -> &'static str {
        match self {
            CommitRefusal::ReadOnly => "read-only",
            CommitRefusal::LeafMoved => "leaf-moved",
            CommitRefusal::RevisionChanged => "revision-changed",
            CommitRefusal::WorkflowPending => "workflow-pending",
            CommitRefusal::BoundaryOffBranch => "boundary-off-branch",
        }
    }
}

/// `Ok(())` when the plan may be committed onto `fresh`; otherwise the first reason it may not.
/// A plan that does not compact is a caller error, not a refusal.
pub fn check_commit(fresh: &Session, plan: &Plan) -> Result<std::result::Result<(), CommitRefusal>> {
    if plan.action != PlanAction::Compact {
        return Err(Error::new(ErrorCode::InvalidPlan, "only a plan with action 'compact' can be committed"));
    }
    let branch = read_branch(fresh);
    if branch.read_only {
        return Ok(Err(CommitRefusal::ReadOnly));
    }
    if fresh.leaf_id.as_deref() != Some(plan.basis.leaf_id.as_str()) {
        return Ok(Err(CommitRefusal::LeafMoved));
    }
    if fresh.branch_revision != plan.basis.branch_revision {
        return Ok(Err(CommitRefusal::RevisionChanged));
    }
    let on_branch = |id: &str| branch.nodes.iter().any(|&i| fresh.nodes[i].id == id);
    let pending = branch.nodes.iter().any(|&i| fresh.nodes[i].message().is_some_and(|m| m.has_pending_tool()));
    if pending {
        return Ok(Err(CommitRefusal::WorkflowPending));
    }
    let boundary_ok = plan.first_kept_message_id.as_deref().is_none_or(|id| {
        branch.nodes.iter().any(|&i| fresh.nodes[i].id == id && fresh.nodes[i].is_user_message())
    });
    let previous_ok = plan.previous_checkpoint_id.as_deref().is_none_or(on_branch);
    if !boundary_ok || !previous_ok || !plan.summarize_ids.iter().all(|id| on_branch(id)) {
        return Ok(Err(CommitRefusal::BoundaryOffBranch));
    }
    Ok(Ok(()))
}
