//! Stateless exports of the prompt cache: `cacheBreakpoints` and `cacheProfile`.

use wasm_bindgen::prelude::*;

use super::args::{breakpoint_options_from_js, model_from_js, session_from_js};
use super::convert::to_js;
use super::error::unknown_cache_profile;
use crate::plan;

/// `cacheBreakpoints(session, model, { draft?, overhead?, cache? }?)`: `{ breakpoints }`, where the
/// request (the projection's messages, then the draft) should carry cache marks.
#[wasm_bindgen(js_name = cacheBreakpoints, unchecked_return_type = "CacheBreakpoints")]
pub fn cache_breakpoints(
    #[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CacheBreakpointOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let session = session_from_js(&session)?;
    let model = model_from_js(&model)?;
    let (request, draft_id, cache) = breakpoint_options_from_js(&options)?;
    let breakpoints = plan::cache_breakpoints(&session, &model, &request, draft_id, &cache)?;
    to_js(&plan::breakpoints_value(&breakpoints))
}

/// `cacheProfile(name)`: a documented default profile (`anthropic-5m`, `anthropic-1h`, `bedrock`,
/// `openai`, `deepseek`, `google`); `invalid-options` for another name.
#[wasm_bindgen(js_name = cacheProfile, unchecked_return_type = "CacheProfile")]
pub fn cache_profile(#[wasm_bindgen(unchecked_param_type = "CacheProfileName")] name: JsValue) -> Result<JsValue, JsValue> {
    let profile = name
        .as_string()
        .and_then(|n| plan::default_profile(&n))
        .ok_or_else(|| unknown_cache_profile(&plan::DEFAULT_PROFILE_NAMES))?;
    to_js(&profile)
}
