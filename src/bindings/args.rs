//! Readers of the exports' arguments: each JS argument read and checked into a core value, with
//! the code the contract gives its defects. Shared by the stateless exports and `SessionIndex`.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::convert::{from_js, from_js_optional, json_text_from_js, read_js};
use super::error::{not_finite, BRANCH_REVISION_NOT_A_COUNT, MAX_OUTPUT_TOKENS_NOT_A_COUNT, MODE_NOT_A_MODE, NODE_ID_NOT_A_STRING, SUMMARY_NOT_A_STRING};
use crate::plan::{self, CacheOptions, Plan, PlanOptions};
use crate::estimate::{EstimateRequest, ModelProfile};
use crate::error::{Error, ErrorCode};
use crate::session::{parse_count, Session};

/// The numbers of a `ModelProfile` (a NaN or Infinity would cross as null, read as absent).
pub const MODEL_NUMBERS: [&str; 5] = ["contextWindow", "maxOutputTokens", "imageTokens", "autoCompactRatio", "tailShare"];

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

/// Refuses a count given as NaN or ±Infinity, which `JSON.stringify` (and so `from_js`) would turn
/// into `null`, read as "absent". `fields` are property paths of `value` ("overhead.tokens");
/// the message names `what.path`. Negative and fractional counts are refused by the core's readers.
pub fn refuse_non_finite(value: &JsValue, fields: &[&str], code: ErrorCode, what: &str) -> Result<(), Error> {
    for path in fields {
        let mut at = value.clone();
        for key in path.split('.') {
            // A getter or proxy that throws is left to `JSON.stringify`, which reports it.
            at = if at.is_object() { js_sys::Reflect::get(&at, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED) } else { JsValue::UNDEFINED };
        }
        if let Some(n) = at.as_f64().filter(|n| !n.is_finite()) {
            let shown = if n.is_nan() { "NaN" } else if n > 0.0 { "Infinity" } else { "-Infinity" };
            return Err(not_finite(code, what, path, shown));
        }
    }
    Ok(())
}

/// Reads a JS session (`{ nodes, leafId, branchRevision }`) into the core model.
pub fn session_from_js(value: &JsValue) -> Result<Session, Error> {
    Session::from_json_str(&json_text_from_js(value, ErrorCode::InvalidSession)?)
}

pub fn node_id_from_js(value: &JsValue) -> Result<String, Error> {
    match value.as_string() {
        Some(id) if !id.is_empty() => Ok(id),
        _ => Err(Error::new(ErrorCode::InvalidOptions, NODE_ID_NOT_A_STRING)),
    }
}

pub fn branch_revision_from_js(value: &JsValue) -> Result<u64, Error> {
    value
        .as_f64()
        .and_then(|n| parse_count(&Value::from(n)))
        .ok_or_else(|| Error::new(ErrorCode::InvalidOptions, BRANCH_REVISION_NOT_A_COUNT))
}

/// Reads and validates a `ModelProfile` (`invalid-model` on any defect).
pub fn model_from_js(value: &JsValue) -> Result<ModelProfile, Error> {
    refuse_non_finite(value, &MODEL_NUMBERS, ErrorCode::InvalidModel, "model")?;
    let value: Value = from_js(value, ErrorCode::InvalidModel)?;
    ModelProfile::from_value(&value)
}

/// `model_from_js` of an argument that may be omitted.
pub fn optional_model_from_js(value: &JsValue) -> Result<Option<ModelProfile>, Error> {
    refuse_non_finite(value, &MODEL_NUMBERS, ErrorCode::InvalidModel, "model")?;
    from_js_optional::<Value>(value, ErrorCode::InvalidModel)?.map(|m| ModelProfile::from_value(&m)).transpose()
}

pub fn estimate_request_from_js(value: &JsValue) -> Result<EstimateRequest, Error> {
    refuse_non_finite(value, &OPTION_COUNTS, ErrorCode::InvalidOptions, "options")?;
    let value: Option<Value> = from_js_optional(value, ErrorCode::InvalidOptions)?;
    EstimateRequest::from_value(value.as_ref())
}

/// The plan's options and its prompt-cache options (`cache`, `now`), read from one object.
pub fn plan_options_from_js(value: &JsValue) -> Result<(PlanOptions, CacheOptions), Error> {
    refuse_non_finite(value, &OPTION_COUNTS, ErrorCode::InvalidOptions, "options")?;
    let value: Value = from_js(value, ErrorCode::InvalidOptions)?;
    Ok((PlanOptions::from_value(&value)?, CacheOptions::from_value(Some(&value))?))
}

/// The options of `cacheBreakpoints`, their counts checked as those of `estimate` and `plan` are.
pub fn breakpoint_options_from_js(value: &JsValue) -> Result<(EstimateRequest, Option<String>, CacheOptions), Error> {
    refuse_non_finite(value, &OPTION_COUNTS, ErrorCode::InvalidOptions, "options")?;
    let value: Option<Value> = from_js_optional(value, ErrorCode::InvalidOptions)?;
    let request = EstimateRequest::from_value(value.as_ref())?;
    Ok((request, plan::draft_id(value.as_ref()), CacheOptions::from_value(value.as_ref())?))
}

pub fn plan_from_js(value: &JsValue) -> Result<Plan, Error> {
    read_js(value, ErrorCode::InvalidPlan, Plan::from_value)
}

pub fn summary_from_js(value: &JsValue) -> Result<String, Error> {
    value.as_string().ok_or_else(|| Error::new(ErrorCode::InvalidSummary, SUMMARY_NOT_A_STRING))
}

/// An optional `maxOutputTokens` count.
pub fn max_output_tokens_from_js(value: &JsValue) -> Result<Option<u64>, Error> {
    from_js_optional::<Value>(value, ErrorCode::InvalidOptions)?
        .map(|v| parse_count(&v).ok_or_else(|| Error::new(ErrorCode::InvalidOptions, MAX_OUTPUT_TOKENS_NOT_A_COUNT)))
        .transpose()
}

/// The checks `compact` (js-glue/runner.js) rejects with before it loads anything: the model,
/// then `mode` (omitted: 'manual'), `draft` and `overhead` as plan options.
pub fn check_compact_inputs(model: &JsValue, mode: &JsValue, draft: &JsValue, overhead: &JsValue) -> Result<(), Error> {
    model_from_js(model)?;
    let mode = match mode.as_string().as_deref() {
        _ if mode.is_undefined() || mode.is_null() => "manual",
        Some(m @ ("manual" | "auto" | "preflight")) => m,
        _ => return Err(Error::new(ErrorCode::InvalidOptions, MODE_NOT_A_MODE)),
    }
    .to_string();
    let mut options = serde_json::Map::new();
    options.insert("mode".into(), Value::from(mode));
    if let Some(draft) = from_js_optional::<Value>(draft, ErrorCode::InvalidOptions)? {
        options.insert("draft".into(), draft);
    }
    refuse_non_finite(overhead, &["tokens"], ErrorCode::InvalidOptions, "overhead")?;
    if let Some(overhead) = from_js_optional::<Value>(overhead, ErrorCode::InvalidOptions)? {
        options.insert("overhead".into(), overhead);
    }
    PlanOptions::from_value(&Value::Object(options)).map(|_| ())
}
