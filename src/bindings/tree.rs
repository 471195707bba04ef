//! Exports of branch reading, projection, session operations and the `SessionIndex` class.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::{from_json_text, js_error, js_result, json_text_from_js, to_js};
use crate::error::{Error, ErrorCode};
use crate::session::{self, node_texts, parse_count, Node, Session};
use crate::projection::{self, project_branch};
use crate::session_index::SessionIndex as CoreIndex;

/// Reads a JS session (`{ nodes, leafId, branchRevision }`) into the core model.
pub fn session_from_js(value: &JsValue) -> Result<Session, Error> {
    Session::from_json_str(&json_text_from_js(value, ErrorCode::InvalidSession)?)
}

#[wasm_bindgen(js_name = readBranch, unchecked_return_type = "BranchReadResult")]
pub fn read_branch(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    from_json_text(&session::read_branch(&session).to_json_text(&session))
}

#[wasm_bindgen(unchecked_return_type = "Projection")]
pub fn project(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    projection::project(&session).map_err(js_error).and_then(|p| from_json_text(&p.to_json_text(&session)))
}

#[wasm_bindgen(unchecked_return_type = "SessionNode[]")]
pub fn history(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    from_json_text(&session::history_text(&session))
}

#[wasm_bindgen(js_name = retryTarget, unchecked_return_type = "RetryTarget | null")]
pub fn retry_target(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    js_result(session::retry_target(&session))
}

#[wasm_bindgen(js_name = editTarget, unchecked_return_type = "EditTarget | null")]
pub fn edit_target(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    js_result(session::edit_target(&session))
}

#[wasm_bindgen(js_name = canFork, unchecked_return_type = "ForkCheck")]
pub fn can_fork(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(js_name = nodeId, unchecked_param_type = "string")] node_id: JsValue,
) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    let node_id = node_id_from_js(&node_id)?;
    to_js(&session::can_fork(&session, &node_id))
}

fn node_id_from_js(value: &JsValue) -> Result<String, JsValue> {
    match value.as_string() {
        Some(id) if !id.is_empty() => Ok(id),
        _ => Err(js_error(Error::new(ErrorCode::InvalidOptions, "nodeId must be a non-empty string"))),
    }
}

/// A session kept inside wasm for repeated calls; free it with `free()` when the session closes.
#[wasm_bindgen]
pub struct SessionIndex {
    pub(crate) inner: CoreIndex,
}

#[wasm_bindgen]
impl SessionIndex {
    #[wasm_bindgen(js_name = from)]
    pub fn from_session(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<SessionIndex, JsValue> {
        let session = session_from_js(&session).map_err(js_error)?;
        Ok(SessionIndex { inner: CoreIndex::from_session(session) })
    }

    /// Appends a durable node (the leaf does not move).
    pub fn append(&mut self, #[wasm_bindgen(unchecked_param_type = "SessionNode")] node: JsValue) -> Result<(), JsValue> {
        let text = json_text_from_js(&node, ErrorCode::InvalidNode).map_err(js_error)?;
        Node::parse_strict_text(&text).and_then(|node| self.inner.append_node(node)).map_err(js_error)
    }

    /// `append` for the glue, which builds indexes node by node and extends them with new nodes.
    /// Refused: a node the typed reader does not read alone, or nesting deeper than 62 levels (64
    /// inside a session's `nodes`): a session holding it is read by the tree parser, whose rules
    /// decide, so the glue reads the whole session instead.
    #[wasm_bindgen(js_name = appendShallow, skip_typescript)]
    pub fn append_shallow(&mut self, node: JsValue) -> Result<(), JsValue> {
        let text = json_text_from_js(&node, ErrorCode::InvalidNode).map_err(js_error)?;
        // Only what the typed reader reads alone; anything else is for the whole session's read.
        let node = Node::read_text_within(&text, 62)
            .ok_or_else(|| js_error(Error::new(ErrorCode::InvalidNode, "node left to the session's read")))?;
        self.inner.append_node(node).map_err(js_error)
    }

    /// `appendShallow` from a node's stored JSON text (a store's row), with the same checks: the
    /// store feeds its index from the text it holds, with no parse and stringify round trip.
    #[wasm_bindgen(js_name = appendText, skip_typescript)]
    pub fn append_text(&mut self, text: &str) -> Result<(), JsValue> {
        let node = Node::read_text_within(text, 62)
            .ok_or_else(|| js_error(Error::new(ErrorCode::InvalidNode, "node left to the session's read")))?;
        self.inner.append_node(node).map_err(js_error)
    }

    /// `appendText`'s counterpart for a message updated in place (same id and parent, new parts).
    #[wasm_bindgen(js_name = replaceText, skip_typescript)]
    pub fn replace_text(&mut self, text: &str) -> Result<(), JsValue> {
        let node = Node::read_text_within(text, 62)
            .ok_or_else(|| js_error(Error::new(ErrorCode::InvalidNode, "node left to the session's read")))?;
        self.inner.replace_node(node).map_err(js_error)
    }

    /// Grows the wasm heap once for about `bytes` more of held nodes before a build of many
    /// `appendText` calls: grown page by page instead, each growth made V8 run a full GC of the JS
    /// heap (external memory accounting), about 100 of them for a 47 MB session.
    #[wasm_bindgen(js_name = reserveText, skip_typescript)]
    pub fn reserve_text(bytes: usize) {
        // A reservation the heap cannot make is skipped (no abort): the build then grows as it goes.
        let mut reserved: Vec<u8> = Vec::new();
        if reserved.try_reserve_exact(bytes).is_ok() {
            std::hint::black_box(&reserved);
        }
    }

    #[wasm_bindgen(js_name = setLeaf)]
    pub fn set_leaf(
        &mut self,
        #[wasm_bindgen(js_name = leafId, unchecked_param_type = "string")] leaf_id: JsValue,
        #[wasm_bindgen(js_name = branchRevision, unchecked_param_type = "number")] branch_revision: JsValue,
    ) -> Result<(), JsValue> {
        let leaf_id = node_id_from_js(&leaf_id)?;
        let revision = branch_revision
            .as_f64()
            .and_then(|n| parse_count(&Value::from(n)))
            .ok_or_else(|| js_error(Error::new(ErrorCode::InvalidOptions, "branchRevision must be a non-negative integer")))?;
        self.inner.set_leaf(&leaf_id, revision).map_err(js_error)
    }

    #[wasm_bindgen(js_name = readBranch, unchecked_return_type = "BranchReadResult")]
    pub fn read_branch(&self) -> Result<JsValue, JsValue> {
        from_json_text(&self.inner.branch().to_json_text(self.inner.session()))
    }

    #[wasm_bindgen(unchecked_return_type = "Projection")]
    pub fn project(&self) -> Result<JsValue, JsValue> {
        let branch = self.inner.branch();
        branch.require_readable().map_err(js_error)?;
        from_json_text(&project_branch(self.inner.session(), branch).to_json_text(self.inner.session()))
    }

    #[wasm_bindgen(unchecked_return_type = "SessionNode[]")]
    pub fn history(&self) -> Result<JsValue, JsValue> {
        let session = self.inner.session();
        from_json_text(&node_texts(session, self.inner.branch().nodes.iter().copied()))
    }

    #[wasm_bindgen(js_name = retryTarget, unchecked_return_type = "RetryTarget | null")]
    pub fn retry_target(&self) -> Result<JsValue, JsValue> {
        js_result(session::retry_target(self.inner.session()))
    }

    #[wasm_bindgen(js_name = editTarget, unchecked_return_type = "EditTarget | null")]
    pub fn edit_target(&self) -> Result<JsValue, JsValue> {
        js_result(session::edit_target(self.inner.session()))
    }

    #[wasm_bindgen(js_name = canFork, unchecked_return_type = "ForkCheck")]
    pub fn can_fork(&self, #[wasm_bindgen(js_name = nodeId, unchecked_param_type = "string")] node_id: JsValue) -> Result<JsValue, JsValue> {
        let node_id = node_id_from_js(&node_id)?;
        to_js(&session::can_fork(self.inner.session(), &node_id))
    }

    /// The session as it is now held (for checks and persistence round-trips).
    #[wasm_bindgen(js_name = toSession, unchecked_return_type = "Session")]
    pub fn to_session(&self) -> Result<JsValue, JsValue> {
        let session = self.inner.session();
        from_json_text(&session.to_json_text())
    }
}
