//! Exports of serialization, the summary request, the extractive summarizer and summary validation.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::plan::model_from_js;
use super::tree::{session_from_js, SessionIndex};
use super::{from_js, from_js_optional, js_error, js_result};
use crate::error::ErrorCode;
use crate::plan::Plan;
use crate::summarize::{self, serialize_ui_messages, SerializeOptions, SummaryRequest};

/// `serialize(messages, { maxToolResultChars?, maxToolInputChars? }?) -> string`: the
/// summarizer's text form of UIMessages.
#[wasm_bindgen(js_name = serialize)]
pub fn serialize_messages(
    #[wasm_bindgen(unchecked_param_type = "UIMessage[]")] messages: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SerializeOptions")] options: JsValue,
) -> Result<String, JsValue> {
    (|| {
        let messages: Value = from_js(&messages, ErrorCode::InvalidMessage)?;
        super::refuse_non_finite(&options, &["maxToolResultChars", "maxToolInputChars"], ErrorCode::InvalidOptions, "serialize options")?;
        let options: Option<Value> = from_js_optional(&options, ErrorCode::InvalidOptions)?;
        let options = options.map(|o| SerializeOptions::from_value(&o)).transpose()?.unwrap_or_default();
        serialize_ui_messages(&messages, &options)
    })()
    .map_err(js_error)
}

/// `summaryRequest(session, plan, model) -> { system, prompt, maxOutputTokens, ledger, history, previousSummary? }`.
#[wasm_bindgen(js_name = summaryRequest, unchecked_return_type = "SummaryRequest")]
pub fn summary_request(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
) -> Result<JsValue, JsValue> {
    js_result((|| {
        let session = session_from_js(&session)?;
        let plan: Plan = from_js(&plan, ErrorCode::InvalidPlan)?;
        let model = model_from_js(&model)?;
        summarize::summary_request(&session, &plan, &model)
    })())
}

#[wasm_bindgen]
impl SessionIndex {
    /// `summaryRequest` on the held session and branch: the runner plans and builds the request
    /// from one read of the session it loaded.
    #[wasm_bindgen(js_name = summaryRequest, unchecked_return_type = "SummaryRequest")]
    pub fn summary_request(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
    ) -> Result<JsValue, JsValue> {
        js_result((|| {
            let plan: Plan = from_js(&plan, ErrorCode::InvalidPlan)?;
            let model = model_from_js(&model)?;
            summarize::summary_request_on_branch(self.inner.session(), self.inner.branch(), &plan, &model)
        })())
    }
}

/// `extractiveSummary(request) -> string`: the eight sections filled without a model.
#[wasm_bindgen(js_name = extractiveSummary)]
pub fn extractive_summary(#[wasm_bindgen(unchecked_param_type = "SummaryRequest")] request: JsValue) -> Result<String, JsValue> {
    let request: SummaryRequest = from_js(&request, ErrorCode::InvalidRequest).map_err(js_error)?;
    Ok(summarize::extractive_summary(&request))
}

/// `validateSummary(text)`: returns nothing for a valid summary, throws `invalid-summary` otherwise.
#[wasm_bindgen(js_name = validateSummary)]
pub fn validate_summary(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<(), JsValue> {
    let text = text
        .as_string()
        .ok_or_else(|| js_error(crate::error::Error::new(ErrorCode::InvalidSummary, "summary must be a string")))?;
    summarize::validate_summary(&text).map_err(js_error)
}
