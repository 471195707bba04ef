//! Stateless exports of the summary stage: serialization, the extractive summarizer and summary
//! validation (the summary request is a `SessionIndex` method).

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::args::{refuse_non_finite, summary_from_js};
use super::convert::{from_js, from_js_optional, read_js};
use crate::error::ErrorCode;
use crate::summarize::{self, serialize_ui_messages, Round, SerializeOptions, SummaryRequest, SummaryRequestOptions};
use crate::zotero::ResolvedItems;

/// `serialize(messages, { maxToolResultChars?, maxToolInputChars? }?) -> string`: the
/// summarizer's text form of UIMessages.
#[wasm_bindgen(js_name = serialize)]
pub fn serialize_messages(
    #[wasm_bindgen(unchecked_param_type = "UIMessage[]")] messages: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "SerializeOptions")] options: JsValue,
) -> Result<String, JsValue> {
    let messages: Value = from_js(&messages, ErrorCode::InvalidMessage)?;
    refuse_non_finite(&options, &["maxToolResultChars", "maxToolInputChars"], ErrorCode::InvalidOptions, "serialize options")?;
    let options: Option<Value> = from_js_optional(&options, ErrorCode::InvalidOptions)?;
    let options = options.map(|o| SerializeOptions::from_value(&o)).transpose()?.unwrap_or_default();
    Ok(serialize_ui_messages(&messages, &options)?)
}

/// The `items` and the `round` of `summaryRequest` options (`invalid-options` for malformed ones).
pub fn request_options_from_js(options: &JsValue) -> Result<(ResolvedItems, Round), JsValue> {
    let Some(options) = from_js_optional::<Value>(options, ErrorCode::InvalidOptions)? else { return Ok(Default::default()) };
    Ok((SummaryRequestOptions::resolved_from_value(&options)?, Round::from_value(&options)?))
}

/// `extractiveSummary(request) -> string`: the eight sections filled without a model.
#[wasm_bindgen(js_name = extractiveSummary)]
pub fn extractive_summary(#[wasm_bindgen(unchecked_param_type = "SummaryRequest")] request: JsValue) -> Result<String, JsValue> {
    Ok(summarize::extractive_summary(&summarized_request(&request)?))
}

/// The part of a request `extractiveSummary` reads (`summarized_fields`), or `invalid-request`.
fn summarized_request(request: &JsValue) -> Result<SummaryRequest, JsValue> {
    let (fields, history) = summarized_fields(request);
    let mut request = read_js(&fields, ErrorCode::InvalidRequest, SummaryRequest::from_value)?;
    if let Some(history) = history {
        request.history = history;
    }
    Ok(request)
}

/// `extractiveSummary` in slices, for the glue's `extractiveSummaryInSlices` (not exported by the
/// package): `new ExtractiveFold(request)` reads the request as `extractiveSummary` does,
/// `step(bytes)` goes on with about that much of the history and says whether only `finish()`, the
/// summary (once), is left. Free it when done.
#[wasm_bindgen]
pub struct ExtractiveFold {
    request: SummaryRequest,
    fold: Option<summarize::ExtractiveFold>,
}

#[wasm_bindgen]
impl ExtractiveFold {
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "SummaryRequest")] request: JsValue) -> Result<ExtractiveFold, JsValue> {
        let request = summarized_request(&request)?;
        let fold = Some(summarize::ExtractiveFold::new(&request));
        Ok(ExtractiveFold { request, fold })
    }

    pub fn step(&mut self, bytes: u32) -> bool {
        self.fold.as_mut().is_none_or(|fold| fold.step(&self.request, bytes as usize))
    }

    pub fn finish(&mut self) -> Result<String, JsValue> {
        let fold = self.fold.take().ok_or_else(|| crate::error::Error::new(ErrorCode::Internal, "the extractive summary was already taken"))?;
        Ok(fold.finish(&self.request))
    }
}

/// What `extractiveSummary` reads of a request: its history, previous summary, ledger and budget,
/// and `system` and `prompt` only as far as being strings (the prompt holds the history again, and
/// the registers a late round carries are half a megabyte: neither is summarized, so neither
/// crosses). The history, megabytes on a large window, crosses as a string of its own, not inside a
/// JSON text. Anything but an object, or one whose fields throw when read, is read whole, so that
/// the reader gives its error.
fn summarized_fields(request: &JsValue) -> (JsValue, Option<String>) {
    let whole = || (request.clone(), None);
    if !request.is_object() || js_sys::Array::is_array(request) {
        return whole();
    }
    let fields = js_sys::Object::new();
    let mut history = None;
    for name in ["system", "prompt", "maxOutputTokens", "ledger", "history", "previousSummary"] {
        let key = JsValue::from_str(name);
        let Ok(mut value) = js_sys::Reflect::get(request, &key) else { return whole() };
        if value.is_string() && matches!(name, "system" | "prompt" | "history") {
            if name == "history" {
                history = value.as_string();
            }
            value = JsValue::from_str("");
        }
        if js_sys::Reflect::set(&fields, &key, &value).is_err() {
            return whole();
        }
    }
    (fields.into(), history)
}

/// `validateSummary(text)`: returns nothing for a valid summary, throws `invalid-summary` otherwise.
#[wasm_bindgen(js_name = validateSummary)]
pub fn validate_summary(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<(), JsValue> {
    Ok(summarize::validate_summary(&summary_from_js(&text)?)?)
}
