//! Exports of capacity, estimation and planning, and the `estimate`/`plan` methods of `SessionIndex`.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::tree::session_from_js;
/// Re-exported so the browser tests can reach the class (the `tree` module itself is private).
pub use super::tree::SessionIndex;
use super::{from_js, from_js_optional, js_error, js_result, json_text_from_js, refuse_non_finite};
use crate::estimate::{self, EstimateRequest, ModelProfile};
use crate::error::{Error, ErrorCode};
use crate::plan::{self, CacheOptions, PlanOptions};

/// Reads and validates a `ModelProfile` (`invalid-model` on any defect).
pub fn model_from_js(value: &JsValue) -> Result<ModelProfile, Error> {
    refuse_non_finite(value, &MODEL_COUNTS, ErrorCode::InvalidModel, "model")?;
    let value: Value = from_js(value, ErrorCode::InvalidModel)?;
    ModelProfile::from_value(&value)
}

/// The counts of a `ModelProfile`.
pub const MODEL_COUNTS: [&str; 3] = ["contextWindow", "maxOutputTokens", "imageTokens"];

/// The numbers of estimate and plan options (the cache profile's and `now` only plans read).
pub const OPTION_COUNTS: [&str; 9] = [
    "overhead.tokens",
    "now",
    "cache.inputPrice",
    "cache.cacheWritePrice",
    "cache.cacheReadPrice",
    "cache.outputPrice",
    "cache.lifetimeMs",
    "cache.minPrefixTokens",
    "cache.maxBreakpoints",
];

fn estimate_request_from_js(value: &JsValue) -> Result<EstimateRequest, Error> {
    refuse_non_finite(value, &OPTION_COUNTS, ErrorCode::InvalidOptions, "options")?;
    let value: Option<Value> = from_js_optional(value, ErrorCode::InvalidOptions)?;
    EstimateRequest::from_value(value.as_ref())
}

/// The plan's options and its prompt-cache options (`cache`, `now`), read from one object.
fn plan_options_from_js(value: &JsValue) -> Result<(PlanOptions, CacheOptions), Error> {
    refuse_non_finite(value, &OPTION_COUNTS, ErrorCode::InvalidOptions, "options")?;
    let value: Value = from_js(value, ErrorCode::InvalidOptions)?;
    Ok((PlanOptions::from_value(&value)?, CacheOptions::from_value(Some(&value))?))
}

/// `capacity(model)`: reserve, safe input limit, automatic threshold and budgets.
#[wasm_bindgen(unchecked_return_type = "Capacity")]
pub fn capacity(#[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue) -> Result<JsValue, JsValue> {
    js_result(model_from_js(&model).and_then(|m| estimate::capacity(&m)))
}

/// `estimate(session, model, { draft?, overhead? }?)`.
#[wasm_bindgen(unchecked_return_type = "Estimate")]
pub fn estimate(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "EstimateOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    js_result((|| {
        let session = session_from_js(&session)?;
        let model = model_from_js(&model)?;
        let request = estimate_request_from_js(&options)?;
        estimate::estimate(&session, &model, &request)
    })())
}

/// `estimateMessage(message, model?)`: the conservative estimate of one message, in tokens.
#[wasm_bindgen(js_name = estimateMessage)]
pub fn estimate_message(
    #[wasm_bindgen(unchecked_param_type = "UIMessage")] message: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ModelProfile")] model: JsValue,
) -> Result<f64, JsValue> {
    (|| {
        let message = estimate::MessageText::read(&json_text_from_js(&message, ErrorCode::InvalidMessage)?)?;
        refuse_non_finite(&model, &MODEL_COUNTS, ErrorCode::InvalidModel, "model")?;
        let model = match from_js_optional::<Value>(&model, ErrorCode::InvalidModel)? {
            Some(m) => Some(ModelProfile::from_value(&m)?),
            None => None,
        };
        message.estimate(model.as_ref())
    })()
    .map(|tokens| tokens as f64)
    .map_err(js_error)
}

/// `plan(session, model, { mode, draft?, overhead? })`.
#[wasm_bindgen(unchecked_return_type = "Plan")]
pub fn plan(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
    #[wasm_bindgen(unchecked_param_type = "PlanOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    js_result((|| {
        let session = session_from_js(&session)?;
        let model = model_from_js(&model)?;
        let (options, cache) = plan_options_from_js(&options)?;
        let branch = crate::session::read_branch(&session);
        plan::plan_branch_cached(&session, &branch, &mut estimate::BranchTokens::default(), &model, &options, &cache)
    })())
}

#[wasm_bindgen]
impl SessionIndex {
    /// `estimate` on the held session; after one appended message it costs that message only.
    #[wasm_bindgen(unchecked_return_type = "Estimate")]
    pub fn estimate(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "EstimateOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let model = model_from_js(&model).map_err(js_error)?;
        let request = estimate_request_from_js(&options).map_err(js_error)?;
        js_result(self.inner.estimate(&model, &request))
    }

    /// `plan` on the held session (the preflight path of `submit`).
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
        #[wasm_bindgen(unchecked_param_type = "PlanOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let model = model_from_js(&model).map_err(js_error)?;
        let (options, cache) = plan_options_from_js(&options).map_err(js_error)?;
        js_result(self.inner.plan_cached(&model, &options, &cache))
    }
}
