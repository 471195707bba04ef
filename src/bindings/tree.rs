//! Stateless exports of the session tree: branch reading, projection, history, the session
//! operations' targets, and their answers by node position.

use wasm_bindgen::prelude::*;

use super::answers::{branch_positions, projection_positions};
use super::args::{node_id_from_js, session_from_js};
use super::convert::{from_json_text, js_result, to_js};
use crate::projection;
use crate::session;

#[wasm_bindgen(js_name = readBranch, unchecked_return_type = "BranchReadResult")]
pub fn read_branch(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    from_json_text(&session::read_branch(&session).to_json_text(&session))
}

#[wasm_bindgen(unchecked_return_type = "Projection")]
pub fn project(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    from_json_text(&projection::project(&session)?.to_json_text(&session))
}

#[wasm_bindgen(unchecked_return_type = "SessionNode[]")]
pub fn history(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    from_json_text(&session::history_text(&session))
}

#[wasm_bindgen(js_name = retryTarget, unchecked_return_type = "RetryTarget | null")]
pub fn retry_target(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    js_result(session::retry_target(&session))
}

#[wasm_bindgen(js_name = editTarget, unchecked_return_type = "EditTarget | null")]
pub fn edit_target(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    js_result(session::edit_target(&session))
}

#[wasm_bindgen(js_name = canFork, unchecked_return_type = "ForkCheck")]
pub fn can_fork(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(js_name = nodeId, unchecked_param_type = "string")] node_id: JsValue,
) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    let node_id = node_id_from_js(&node_id)?;
    to_js(&session::can_fork(&session, &node_id))
}

/// `{ items: [nodeIndex | { summary: UIMessage }], checkpointId, keptFromId }`; errors as `project`.
#[wasm_bindgen(js_name = projectPositions, unchecked_return_type = "{ items: Array<number | { summary: UIMessage }>; checkpointId: string | null; keptFromId: string | null }")]
pub fn project_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    from_json_text(&projection_positions(&session, &projection::project(&session)?, |at| projection::summary_message_json(&session, at).map(Into::into)))
}

/// Node indices of the active branch, root first; as `history`.
#[wasm_bindgen(js_name = historyPositions, unchecked_return_type = "number[]")]
pub fn history_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    to_js(&session::read_branch(&session).nodes)
}

/// `{ nodes: nodeIndex[], readOnly, problems }`; as `readBranch`.
#[wasm_bindgen(js_name = readBranchPositions, unchecked_return_type = "{ nodes: number[]; readOnly: boolean; problems: BranchProblem[] }")]
pub fn read_branch_positions(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    to_js(&branch_positions(&session, &session::read_branch(&session)))
}
