//! Tool workflows: which tool parts are unfinished, cut or pending (rule `interrupted-tool`).

use serde_json::Value;

use super::types::{Message, Part, Role, Session, ToolPart};

impl Message {
    pub fn tool_parts(&self) -> impl Iterator<Item = &ToolPart> {
        self.parts.iter().filter_map(|p| match p {
            Part::Tool(t) => Some(t),
            _ => None,
        })
    }

    /// A tool part not in a final state (`output-available`, `output-error`, `output-denied`).
    pub fn has_unfinished_tool(&self) -> bool {
        self.tool_parts().any(|t| t.state.is_pending())
    }

    /// The response was cut: stopped (`metadata.aborted === true`) or ended by an error
    /// (`metadata.finishReason === 'error'`), as the chat transport marks it. Nothing will finish
    /// its tool parts.
    pub fn is_cut(&self) -> bool {
        let Some(metadata) = self.metadata.as_ref() else { return false };
        metadata.get("aborted") == Some(&Value::Bool(true)) || metadata.get("finishReason").and_then(Value::as_str) == Some("error")
    }

    /// An unfinished tool part that can still complete as far as the message tells (it is not cut).
    /// Whether it is pending also depends on the branch: see `pending_workflow`.
    pub fn has_pending_tool(&self) -> bool {
        self.has_unfinished_tool() && !self.is_cut()
    }
}

/// Rule `interrupted-tool`: a tool workflow is pending only while its turn is the newest one and can
/// still complete: an unfinished tool part of a message that is not cut, with no user message after
/// that message on the branch. Otherwise the part is interrupted and never blocks compaction.
/// `branch` is node indices, root to leaf.
pub fn pending_workflow(session: &Session, branch: &[usize]) -> bool {
    for &i in branch.iter().rev() {
        let Some(message) = session.nodes[i].message() else { continue };
        if message.has_pending_tool() {
            return true;
        }
        if message.role == Role::User {
            return false;
        }
    }
    false
}
