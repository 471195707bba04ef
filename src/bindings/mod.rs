//! The wasm edge: the only code that knows about `JsValue`.
//!
//! Each concept gets its own file here (tree.rs, plan.rs, ...) with thin `#[wasm_bindgen]`
//! exports that convert with the helpers below, call the pure core, and convert back.
//! Values cross as JSON text (one `JSON.stringify` in, one `JSON.parse` out) rather than
//! field by field, which is both faster for large sessions and keeps the core free of JS types.

pub mod types;
pub mod tree;
pub mod commit;
pub mod plan;
pub mod summary;
pub mod positions;
pub mod ledger;
pub mod cache;

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::error::{Error, ErrorCode};

/// The crate version, so a caller can check which build it loaded.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// A JS `Error` carrying the stable `code` string and the message.
pub fn js_error(error: Error) -> JsValue {
    let js = js_sys::Error::new(&error.message);
    // Setting a property on a fresh Error object cannot fail; ignore the Result anyway.
    let _ = js_sys::Reflect::set(&js, &JsValue::from_str("code"), &JsValue::from_str(error.code.as_str()));
    js.into()
}

/// Reads a JS value as `T` through its JSON text.
///
/// Everything that is not plain JSON data fails with `code`: values `JSON.stringify` throws on
/// (cycles, BigInt), and values it turns into nothing (`undefined`, functions, symbols).
/// Inside objects it follows JSON's rules: `undefined` fields vanish, `NaN` becomes `null`.
pub fn from_js<T: DeserializeOwned>(value: &JsValue, code: ErrorCode) -> Result<T, Error> {
    let text = json_text_from_js(value, code)?;
    crate::text::parse_lenient(&text).map_err(|e| Error::new(code, e.to_string()))
}

/// The `JSON.stringify` text of a JS value, with the errors of `from_js`.
pub fn json_text_from_js(value: &JsValue, code: ErrorCode) -> Result<String, Error> {
    let text = js_sys::JSON::stringify(value)
        .map_err(|thrown| Error::new(code, format!("not JSON-serializable: {}", describe_thrown(&thrown))))?;
    if !text.is_string() {
        return Err(Error::new(code, format!("expected a JSON value, got {}", type_name(value))));
    }
    // Encoded by TextEncoder, then copied in at its exact size: wasm-bindgen's string passing
    // reserves three bytes per UTF-16 unit after the first non-ASCII one, which for a 47 MB session
    // grew the wasm memory (which never shrinks) by 140 MB. `JSON.stringify` escapes lone
    // surrogates, so the encoding is exact.
    let bytes = UTF8.with(|encoder| encoder.encode(&text)).to_vec();
    String::from_utf8(bytes).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Utf8Encoder;
    #[wasm_bindgen(method, js_class = "TextEncoder")]
    fn encode(this: &Utf8Encoder, text: &js_sys::JsString) -> js_sys::Uint8Array;
}

thread_local! {
    static UTF8: Utf8Encoder = Utf8Encoder::new();
}

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
            return Err(Error::new(code, format!("{what}.{path} must be a finite number, got {shown}")));
        }
    }
    Ok(())
}

/// Like `from_js`, but `undefined` and `null` (an omitted optional argument) give `None`.
pub fn from_js_optional<T: DeserializeOwned>(value: &JsValue, code: ErrorCode) -> Result<Option<T>, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    from_js(value, code).map(Some)
}

/// Hands a Rust value to JS as a plain object, through its JSON text.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value).map_err(|e| js_error(Error::new(ErrorCode::Internal, e.to_string())))?;
    from_json_text(&text)
}

/// JSON text the core wrote (nodes in it exactly as given) as a JS value.
pub fn from_json_text(text: &str) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(text).map_err(|_| js_error(Error::new(ErrorCode::Internal, "result JSON did not parse")))
}

/// The usual tail of an export: a core `Result` becomes a JS value or a thrown JS `Error`.
pub fn js_result<T: Serialize>(result: Result<T, Error>) -> Result<JsValue, JsValue> {
    result.map_err(js_error).and_then(|value| to_js(&value))
}

fn describe_thrown(thrown: &JsValue) -> String {
    thrown
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| "JSON.stringify threw".to_string())
}

fn type_name(value: &JsValue) -> String {
    value.js_typeof().as_string().unwrap_or_else(|| "a non-JSON value".to_string())
}
