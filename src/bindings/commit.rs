//! Exports of commit validation: `checkCommit` and `checkpointNode`.

use wasm_bindgen::prelude::*;

use super::tree::session_from_js;
use super::{from_js, from_js_optional, js_error, to_js};
use crate::commit::{check_commit, checkpoint_node, new_checkpoint_id};
use crate::error::{Error, ErrorCode};
use crate::ledger::ResourceLedger;
use crate::plan::Plan;

/// `{ ok: true }` when `plan` may be committed onto `freshSession` (read inside the store's
/// transaction), otherwise `{ ok: false, reason }`.
#[wasm_bindgen(js_name = checkCommit, unchecked_return_type = "CommitCheck")]
pub fn check_commit_js(
    #[wasm_bindgen(js_name = freshSession, unchecked_param_type = "Session")] fresh_session: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
) -> Result<JsValue, JsValue> {
    let session = session_from_js(&fresh_session).map_err(js_error)?;
    let plan: Plan = from_js(&plan, ErrorCode::InvalidPlan).map_err(js_error)?;
    let verdict = match check_commit(&session, &plan).map_err(js_error)? {
        Ok(()) => serde_json::json!({ "ok": true }),
        Err(refusal) => serde_json::json!({ "ok": false, "reason": refusal.as_str() }),
    };
    to_js(&verdict)
}

/// A new checkpoint node with a random id, `parentId = plan.basis.leafId`.
/// `ledger` may be omitted (an empty ledger).
#[wasm_bindgen(js_name = checkpointNode, unchecked_return_type = "CheckpointNode")]
pub fn checkpoint_node_js(
    #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] summary: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ResourceLedger")] ledger: JsValue,
) -> Result<JsValue, JsValue> {
    let plan: Plan = from_js(&plan, ErrorCode::InvalidPlan).map_err(js_error)?;
    let summary = summary
        .as_string()
        .ok_or_else(|| js_error(Error::new(ErrorCode::InvalidSummary, "summary must be a string")))?;
    let ledger: ResourceLedger =
        from_js_optional(&ledger, ErrorCode::InvalidLedger).map_err(js_error)?.unwrap_or_default();
    let id = new_checkpoint_id().map_err(js_error)?;
    let mut node = checkpoint_node(&plan, &summary, &ledger, &id).map_err(js_error)?;
    stamp_created_at(&mut node);
    to_js(&node)
}

/// Sets `createdAt` (ms since the epoch, as the stores and the AI SDK apps write it).
pub(crate) fn stamp_created_at(node: &mut serde_json::Value) {
    let now = js_sys::Date::now();
    if let (Some(map), true) = (node.as_object_mut(), now.is_finite() && now >= 0.0) {
        map.insert("createdAt".into(), serde_json::Value::from(now as u64));
    }
}
