//! Stateless export of the prompt cache: `cacheProfile` (`cacheBreakpoints` is a `SessionIndex`
//! method).

use wasm_bindgen::prelude::*;

use super::convert::to_js;
use super::error::unknown_cache_profile;
use crate::plan;

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
