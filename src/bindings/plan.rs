//! Stateless exports of the estimator that take no session: a model's capacity and one message's
//! estimate. What takes a session is a `SessionIndex` method (the glue's pure calls hold one for a
//! call).

use wasm_bindgen::prelude::*;

use super::args::{model_from_js, optional_model_from_js};
use super::convert::{js_result, json_text_from_js};
use crate::estimate::{self, MessageText};
use crate::error::ErrorCode;

/// `capacity(model)`: reserve, safe input limit, automatic threshold and budgets.
#[wasm_bindgen(unchecked_return_type = "Capacity")]
pub fn capacity(#[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue) -> Result<JsValue, JsValue> {
    js_result(estimate::capacity(&model_from_js(&model)?))
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
