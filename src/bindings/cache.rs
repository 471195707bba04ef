//! Exports of the prompt-cache module: `cacheBreakpoints`, `cacheProfile` and the `SessionIndex` method.

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use super::plan::{model_from_js, OPTION_COUNTS};
use super::tree::{session_from_js, SessionIndex};
use super::{from_js_optional, js_error, js_result, refuse_non_finite};
use crate::plan::{self, CacheOptions};
use crate::error::{Error, ErrorCode};
use crate::estimate::EstimateRequest;

/// The options of `cacheBreakpoints`, their counts checked as those of `estimate` and `plan` are.
fn breakpoint_options(value: &JsValue) -> Result<(EstimateRequest, Option<String>, CacheOptions), Error> {
    refuse_non_finite(value, &OPTION_COUNTS, ErrorCode::InvalidOptions, "options")?;
    let value: Option<Value> = from_js_optional(value, ErrorCode::InvalidOptions)?;
    let request = EstimateRequest::from_value(value.as_ref())?;
    Ok((request, plan::draft_id(value.as_ref()), CacheOptions::from_value(value.as_ref())?))
}

/// `cacheBreakpoints(session, model, { draft?, overhead?, cache? }?)`: `{ breakpoints }`, where the
/// request (the projection's messages, then the draft) should carry cache marks.
#[wasm_bindgen(js_name = cacheBreakpoints, unchecked_return_type = "CacheBreakpoints")]
pub fn cache_breakpoints(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CacheBreakpointOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    js_result((|| {
        let session = session_from_js(&session)?;
        let model = model_from_js(&model)?;
        let (request, draft_id, cache) = breakpoint_options(&options)?;
        plan::cache_breakpoints(&session, &model, &request, draft_id, &cache).map(|b| json!({ "breakpoints": b }))
    })())
}

/// `cacheProfile(name)`: a documented default profile (`anthropic-5m`, `anthropic-1h`, `bedrock`,
/// `openai`, `deepseek`, `google`); `invalid-options` for another name.
#[wasm_bindgen(js_name = cacheProfile, unchecked_return_type = "CacheProfile")]
pub fn cache_profile(#[wasm_bindgen(unchecked_param_type = "CacheProfileName")] name: JsValue) -> Result<JsValue, JsValue> {
    js_result(name.as_string().and_then(|n| plan::default_profile(&n)).ok_or_else(|| {
        Error::new(ErrorCode::InvalidOptions, format!("cacheProfile: name must be one of {}", plan::DEFAULT_PROFILE_NAMES.join(", ")))
    }))
}

#[wasm_bindgen]
impl SessionIndex {
    /// `cacheBreakpoints` on the held session.
    #[wasm_bindgen(js_name = cacheBreakpoints, unchecked_return_type = "CacheBreakpoints")]
    pub fn cache_breakpoints(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CacheBreakpointOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let model = model_from_js(&model).map_err(js_error)?;
        let (request, draft_id, cache) = breakpoint_options(&options).map_err(js_error)?;
        js_result(self.inner.cache_breakpoints(&model, &request, draft_id, &cache).map(|b| json!({ "breakpoints": b })))
    }
}
