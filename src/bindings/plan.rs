//! Stateless exports of capacity, estimation and planning.

use wasm_bindgen::prelude::*;

use super::args::{estimate_request_from_js, model_from_js, optional_model_from_js, plan_options_from_js, session_from_js};
use super::convert::{js_result, json_text_from_js};
use crate::estimate::{self, BranchTokens, MessageText};
use crate::error::ErrorCode;
use crate::plan::{self};
use crate::session;

/// `capacity(model)`: reserve, safe input limit, automatic threshold and budgets.
#[wasm_bindgen(unchecked_return_type = "Capacity")]
pub fn capacity(#[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue) -> Result<JsValue, JsValue> {
    js_result(estimate::capacity(&model_from_js(&model)?))
}

/// `estimate(session, model, { draft?, overhead? }?)`.
#[wasm_bindgen(unchecked_return_type = "Estimate")]
pub fn estimate(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "EstimateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    let model = model_from_js(&model)?;
    let request = estimate_request_from_js(&options)?;
    js_result(estimate::estimate(&session, &model, &request))
}

/// `estimateMessage(message, model?)`: the conservative estimate of one message, in tokens.
#[wasm_bindgen(js_name = estimateMessage)]
pub fn estimate_message(
    #[wasm_bindgen(unchecked_param_type = "UIMessage")] message: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ModelProfile")] model: JsValue,
) -> Result<f64, JsValue> {
    let message = MessageText::read(&json_text_from_js(&message, ErrorCode::InvalidMessage)?)?;
    let model = optional_model_from_js(&model)?;
    Ok(message.estimate(model.as_ref())? as f64)
}

/// `plan(session, model, { mode, draft?, overhead? })`.
#[wasm_bindgen(unchecked_return_type = "Plan")]
pub fn plan(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PlanOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    let model = model_from_js(&model)?;
    let (options, cache) = plan_options_from_js(&options)?;
    let branch = session::read_branch(&session);
    js_result(plan::plan_branch_cached(&session, &branch, &mut BranchTokens::default(), &model, &options, &cache))
}
