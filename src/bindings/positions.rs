//! Exports that answer with node positions (indices into `session.nodes`) instead of copies of the
//! nodes: the package's `project`, `history` and `readBranch` (js-glue/api.js) and the `SessionIndex`
//! of the glue (js-glue/session-cache.js) build their arrays from the caller's own node objects, so
//! no node is cloned, serialized and parsed again on the way out.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use super::tree::{session_from_js, SessionIndex};
use super::{js_error, js_result, to_js};
use crate::error::{Error, ErrorCode};
use crate::session::{self, Branch, Node, Session};
use crate::projection::{self, project_branch, summary_message, Projected, Projection};

fn projection_positions(session: &Session, p: &Projection) -> Value {
    let items: Vec<Value> = p
        .items
        .iter()
        .map(|item| match *item {
            Projected::Message(i) => json!(i),
            Projected::Summary(i) => {
                let node = &session.nodes[i];
                json!({ "summary": node.checkpoint().map(|c| summary_message(&node.id, c)) })
            }
        })
        .collect();
    json!({
        "items": items,
        "checkpointId": p.checkpoint.map(|i| session.nodes[i].id.clone()),
        "keptFromId": p.kept_from.map(|i| session.nodes[i].id.clone()),
    })
}

fn branch_positions(session: &Session, branch: &Branch) -> Value {
    // The problems as `readBranch` writes them, without its copies of the nodes.
    let mut read = Branch { nodes: Vec::new(), ..branch.clone() }.to_json(session);
    read["nodes"] = json!(branch.nodes);
    read
}

/// `{ items: [nodeIndex | { summary: UIMessage }], checkpointId, keptFromId }`; errors as `project`.
#[wasm_bindgen(js_name = projectPositions, unchecked_return_type = "{ items: Array<number | { summary: UIMessage }>; checkpointId: string | null; keptFromId: string | null }")]
pub fn project_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    js_result(projection::project(&session).map(|p| projection_positions(&session, &p)))
}

/// Node indices of the active branch, root first; as `history`.
#[wasm_bindgen(js_name = historyPositions, unchecked_return_type = "number[]")]
pub fn history_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    to_js(&session::read_branch(&session).nodes)
}

/// `{ nodes: nodeIndex[], readOnly, problems }`; as `readBranch`.
#[wasm_bindgen(js_name = readBranchPositions, unchecked_return_type = "{ nodes: number[]; readOnly: boolean; problems: BranchProblem[] }")]
pub fn read_branch_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    to_js(&branch_positions(&session, &session::read_branch(&session)))
}

#[wasm_bindgen]
impl SessionIndex {
    /// `projectPositions` of the held session: positions in the order nodes were handed in.
    #[wasm_bindgen(js_name = projectPositions, unchecked_return_type = "{ items: Array<number | { summary: UIMessage }>; checkpointId: string | null; keptFromId: string | null }")]
    pub fn project_positions(&self) -> Result<JsValue, JsValue> {
        let (session, branch) = (self.inner.session(), self.inner.branch());
        branch.require_readable().map_err(js_error)?;
        to_js(&projection_positions(session, &project_branch(session, branch)))
    }

    /// `historyPositions` of the held session.
    #[wasm_bindgen(js_name = historyPositions, unchecked_return_type = "number[]")]
    pub fn history_positions(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.branch().nodes)
    }

    /// `appendShallow` of a node's `JSON.stringify` text as UTF-8, encoded by the glue into a buffer it
    /// reuses (js-glue/session-cache.js): no `Uint8Array` per node for the JS heap to collect. The same
    /// refusals as `appendShallow`.
    #[wasm_bindgen(js_name = appendShallowUtf8, skip_typescript)]
    pub fn append_shallow_utf8(&mut self, text: &[u8]) -> Result<(), JsValue> {
        let text = std::str::from_utf8(text).map_err(|e| js_error(Error::new(ErrorCode::InvalidNode, e.to_string())))?;
        let node = Node::read_text_within(text, 62)
            .ok_or_else(|| js_error(Error::new(ErrorCode::InvalidNode, "node left to the session's read")))?;
        self.inner.append_node(node).map_err(js_error)
    }

    /// `readBranchPositions` of the held session.
    #[wasm_bindgen(js_name = readBranchPositions, unchecked_return_type = "{ nodes: number[]; readOnly: boolean; problems: BranchProblem[] }")]
    pub fn read_branch_positions(&self) -> Result<JsValue, JsValue> {
        to_js(&branch_positions(self.inner.session(), self.inner.branch()))
    }
}
