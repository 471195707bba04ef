//! Targets of the app's session operations: retry, edit and fork. Nothing here writes; the store
//! appends the new node under the returned parent, so checkpoints after the old node leave the branch.

use serde::Serialize;

use crate::error::Result;
use super::types::Session;
use super::tree::{read_branch, read_branch_to, IdIndex};

/// `retryTarget`: the new response becomes a child of `parentId`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct RetryTarget {
    pub assistant_id: String,
    pub parent_id: Option<String>,
}

/// `editTarget`: the edit becomes a sibling of `userId` under `parentId`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct EditTarget {
    pub user_id: String,
    pub parent_id: Option<String>,
}

/// `canFork`: whether a session may continue from a node, else why not.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ForkCheck {
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
}

/// The newest conversational assistant message of the branch (never a checkpoint nor a display-only
/// node: the nodes after it, markers included, leave the branch with it); `None` if there is none.
pub fn retry_target(session: &Session) -> Result<Option<RetryTarget>> {
    let branch = read_branch(session);
    branch.require_readable()?;
    Ok(branch.nodes.iter().rev().map(|&i| &session.nodes[i]).find(|n| n.is_assistant_message()).map(|n| RetryTarget {
        assistant_id: n.id.clone(),
        parent_id: n.parent_id.clone(),
    }))
}

/// The newest real user message of the branch (never a display-only node); the edit becomes its sibling.
pub fn edit_target(session: &Session) -> Result<Option<EditTarget>> {
    let branch = read_branch(session);
    branch.require_readable()?;
    Ok(branch.nodes.iter().rev().map(|&i| &session.nodes[i]).find(|n| n.is_user_message()).map(|n| EditTarget {
        user_id: n.id.clone(),
        parent_id: n.parent_id.clone(),
    }))
}

/// Forks start only at stable assistant messages whose own ancestor chain reads cleanly.
pub fn can_fork(session: &Session, node_id: &str) -> ForkCheck {
    let refuse = |reason| ForkCheck { ok: false, reason: Some(reason) };
    let index = IdIndex::build(session);
    let Some(position) = index.get(node_id) else { return refuse("not-found") };
    let node = &session.nodes[position];
    if node.checkpoint().is_some() {
        return refuse("checkpoint");
    }
    // A display-only node is no stable assistant message, whatever its role.
    if node.display_only().is_some() {
        return refuse("not-assistant");
    }
    let Some(message) = node.message() else { return refuse("invalid-node") };
    if !node.is_assistant_message() {
        return refuse("not-assistant");
    }
    if message.has_pending_tool() {
        return refuse("workflow-pending");
    }
    if read_branch_to(session, &index, Some(node_id)).read_only {
        return refuse("read-only");
    }
    ForkCheck { ok: true, reason: None }
}
