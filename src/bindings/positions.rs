//! Exports that answer with node positions (indices into `session.nodes`) instead of copies of the
//! nodes: the package's `project`, `history` and `readBranch` (js-glue/api.js) build their arrays from
//! the caller's own node objects, so no node is cloned, serialized and parsed again on the way out.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use super::tree::session_from_js;
use super::{js_error, js_result, to_js};
use crate::projection::{self, summary_message, Projected};
use crate::tree;

/// `{ items: [nodeIndex | { summary: UIMessage }], checkpointId, keptFromId }`; errors as `project`.
#[wasm_bindgen(js_name = projectPositions, unchecked_return_type = "{ items: Array<number | { summary: UIMessage }>; checkpointId: string | null; keptFromId: string | null }")]
pub fn project_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    js_result(projection::project(&session).map(|p| {
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
    }))
}

/// Node indices of the active branch, root first; as `history`.
#[wasm_bindgen(js_name = historyPositions, unchecked_return_type = "number[]")]
pub fn history_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    to_js(&tree::read_branch(&session).nodes)
}

/// `{ nodes: nodeIndex[], readOnly, problems }`; as `readBranch`.
#[wasm_bindgen(js_name = readBranchPositions, unchecked_return_type = "{ nodes: number[]; readOnly: boolean; problems: BranchProblem[] }")]
pub fn read_branch_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session).map_err(js_error)?;
    let branch = tree::read_branch(&session);
    // The problems as `readBranch` writes them, without its copies of the nodes.
    let mut read = tree::Branch { nodes: Vec::new(), ..branch.clone() }.to_json(&session);
    read["nodes"] = json!(branch.nodes);
    to_js(&read)
}
