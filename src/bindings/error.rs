//! A core error as the JS error the glue expects, and the texts of the errors the bindings raise
//! themselves, in one place: a changed text is one edit here.

use wasm_bindgen::JsValue;

use crate::error::{Error, ErrorCode};

/// A JS `Error` carrying the stable `code` string and the message; `?` makes it at every export.
impl From<Error> for JsValue {
    fn from(error: Error) -> JsValue {
        js_error(error)
    }
}

/// `From<Error> for JsValue` as a function (the browser tests call it).
#[inline(never)]
pub fn js_error(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    // Setting a property on a fresh Error object cannot fail; ignore the Result anyway.
    let _ = js_sys::Reflect::set(&js, &JsValue::from_str("code"), &JsValue::from_str(error.code.as_str()));
    js.into()
}

/// A node the typed reader does not read alone: the glue then reads the whole session.
pub const NODE_LEFT_TO_SESSION_READ: &str = "node left to the session's read";
pub const NODE_ID_NOT_A_STRING: &str = "nodeId must be a non-empty string";
pub const BRANCH_REVISION_NOT_A_COUNT: &str = "branchRevision must be a non-negative integer";
pub const SUMMARY_NOT_A_STRING: &str = "summary must be a string";
pub const MAX_OUTPUT_TOKENS_NOT_A_COUNT: &str = "maxOutputTokens must be a non-negative integer";
pub const MODE_NOT_A_MODE: &str = "options.mode must be 'manual', 'auto' or 'preflight'";
pub const RESULT_NOT_JSON: &str = "result JSON did not parse";
pub const STRINGIFY_THREW: &str = "JSON.stringify threw";
pub const NOT_JSON_TYPE: &str = "a non-JSON value";

/// A value `JSON.stringify` threw on (a cycle, a BigInt).
pub fn not_serializable(code: ErrorCode, thrown: &str) -> Error {
    Error::new(code, format!("not JSON-serializable: {thrown}"))
}

/// A value `JSON.stringify` turns into nothing (`undefined`, a function, a symbol).
pub fn not_a_json_value(code: ErrorCode, type_name: &str) -> Error {
    Error::new(code, format!("expected a JSON value, got {type_name}"))
}

/// A count given as NaN or ±Infinity (`shown`), at `what.path`.
pub fn not_finite(code: ErrorCode, what: &str, path: &str, shown: &str) -> Error {
    Error::new(code, format!("{what}.{path} must be a finite number, got {shown}"))
}

/// A `cacheProfile` name that is none of `names`.
pub fn unknown_cache_profile(names: &[&str]) -> Error {
    Error::new(ErrorCode::InvalidOptions, format!("cacheProfile: name must be one of {}", names.join(", ")))
}

