//! Exports of commit validation: `checkCommit`, `checkpointNode`, and the runner's options check.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::plan::model_from_js;
use super::tree::{session_from_js, SessionIndex};
use super::{from_js, from_js_optional, js_error, to_js};
use crate::commit::{check_commit, checkpoint_node_within, new_checkpoint_id};
use crate::error::{Error, ErrorCode};
use crate::zotero::ResourceLedger;
use crate::session::parse_count;
use crate::plan::{Plan, PlanOptions};

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
/// `ledger` may be omitted (an empty ledger). Given the request's `maxOutputTokens`, a summary over
/// the budget rule (`summary-over-budget`) is refused first.
#[wasm_bindgen(js_name = checkpointNode, unchecked_return_type = "CheckpointNode")]
pub fn checkpoint_node_js(
    #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] summary: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ResourceLedger")] ledger: JsValue,
    #[wasm_bindgen(js_name = maxOutputTokens, unchecked_optional_param_type = "number")] max_output_tokens: JsValue,
) -> Result<JsValue, JsValue> {
    super::refuse_non_finite(&plan, &["ledgerBudget"], ErrorCode::InvalidPlan, "plan").map_err(js_error)?;
    let plan: Plan = from_js(&plan, ErrorCode::InvalidPlan).map_err(js_error)?;
    let summary = summary
        .as_string()
        .ok_or_else(|| js_error(Error::new(ErrorCode::InvalidSummary, "summary must be a string")))?;
    let ledger: ResourceLedger =
        from_js_optional(&ledger, ErrorCode::InvalidLedger).map_err(js_error)?.unwrap_or_default();
    let budget = match from_js_optional::<Value>(&max_output_tokens, ErrorCode::InvalidOptions).map_err(js_error)? {
        None => None,
        Some(value) => Some(parse_count(&value).ok_or_else(|| {
            js_error(Error::new(ErrorCode::InvalidOptions, "maxOutputTokens must be a non-negative integer"))
        })?),
    };
    let id = new_checkpoint_id().map_err(js_error)?;
    let mut node = checkpoint_node_within(&plan, &summary, &ledger, &id, budget).map_err(js_error)?;
    stamp_created_at(&mut node);
    to_js(&node)
}

#[wasm_bindgen]
impl SessionIndex {
    /// The checks `compact` (js-glue/runner.js) rejects with before it loads anything: the model,
    /// then `mode` (omitted: 'manual'), `draft` and `overhead` as plan options. Static, so that it
    /// is no export of the module.
    #[wasm_bindgen(js_name = checkCompactInputs, skip_typescript)]
    pub fn check_compact_inputs(model: JsValue, mode: JsValue, draft: JsValue, overhead: JsValue) -> Result<(), JsValue> {
        (|| {
            model_from_js(&model)?;
            let mode = match mode.as_string().as_deref() {
                _ if mode.is_undefined() || mode.is_null() => "manual",
                Some(m @ ("manual" | "auto" | "preflight")) => m,
                _ => return Err(Error::new(ErrorCode::InvalidOptions, "options.mode must be 'manual', 'auto' or 'preflight'")),
            }
            .to_string();
            let mut options = serde_json::Map::new();
            options.insert("mode".into(), Value::from(mode));
            if let Some(draft) = from_js_optional::<Value>(&draft, ErrorCode::InvalidOptions)? {
                options.insert("draft".into(), draft);
            }
            super::refuse_non_finite(&overhead, &["tokens"], ErrorCode::InvalidOptions, "overhead")?;
            if let Some(overhead) = from_js_optional::<Value>(&overhead, ErrorCode::InvalidOptions)? {
                options.insert("overhead".into(), overhead);
            }
            PlanOptions::from_value(&Value::Object(options)).map(|_| ())
        })()
        .map_err(js_error)
    }
}

/// Sets `createdAt` (ms since the epoch, as the stores and the AI SDK apps write it).
fn stamp_created_at(node: &mut serde_json::Value) {
    let now = js_sys::Date::now();
    if let (Some(map), true) = (node.as_object_mut(), now.is_finite() && now >= 0.0) {
        map.insert("createdAt".into(), serde_json::Value::from(now as u64));
    }
}
