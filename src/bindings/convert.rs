//! Values across the boundary as JSON text: a JS value read as a Rust one, a Rust value (or JSON
//! text the core wrote) handed back as a plain JS object.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::error::{not_a_json_value, not_serializable, NOT_JSON_TYPE, RESULT_NOT_JSON, STRINGIFY_THREW};
use crate::error::{Error, ErrorCode};
use crate::text::fields::Read;

/// Reads a JS value as `T` through its JSON text.
///
/// Everything that is not plain JSON data fails with `code`: values `JSON.stringify` throws on
/// (cycles, BigInt), and values it turns into nothing (`undefined`, functions, symbols).
/// Inside objects it follows JSON's rules: `undefined` fields vanish, `NaN` becomes `null`.
pub fn from_js<T: DeserializeOwned>(value: &JsValue, code: ErrorCode) -> Result<T, Error> {
    let text = json_text_from_js(value, code)?;
    crate::text::parse_lenient(&text).map_err(|e| parse_error(code, e))
}

fn parse_error(code: ErrorCode, error: serde_json::Error) -> Error {
    Error::new(code, error.to_string())
}

/// A JS value read through its JSON tree by `read` (a `text::fields` reader), its message under `code`.
pub fn read_js<T>(value: &JsValue, code: ErrorCode, read: impl FnOnce(&Value) -> Read<T>) -> Result<T, Error> {
    read(&from_js::<Value>(value, code)?).map_err(|message| Error::new(code, message))
}

/// `read_js` of an optional argument: `undefined` and `null` give the default.
pub fn read_js_or_default<T: Default>(value: &JsValue, code: ErrorCode, read: impl FnOnce(&Value) -> Read<T>) -> Result<T, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    read_js(value, code, read)
}

/// Like `from_js`, but `undefined` and `null` (an omitted optional argument) give `None`.
pub fn from_js_optional<T: DeserializeOwned>(value: &JsValue, code: ErrorCode) -> Result<Option<T>, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    from_js(value, code).map(Some)
}

/// The `JSON.stringify` text of a JS value, with the errors of `from_js`.
pub fn json_text_from_js(value: &JsValue, code: ErrorCode) -> Result<String, Error> {
    let text = js_sys::JSON::stringify(value)
        .map_err(|thrown| not_serializable(code, &describe_thrown(&thrown)))?;
    if !text.is_string() {
        return Err(not_a_json_value(code, &type_name(value)));
    }
    // `JSON.stringify` escapes lone surrogates, so the encoding is exact.
    let bytes = UTF8.with(|encoder| encode_utf8(encoder, &text));
    String::from_utf8(bytes).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))
}

/// `text` as UTF-8, encoded by `TextEncoder.encodeInto` straight into wasm memory: no JS-side buffer
/// and copy (for a 4.8 MB session 13 ms -> 4-5 ms). Room for one byte per UTF-16 unit first (all of
/// mostly-ASCII text), then three per unit left: wasm-bindgen's string passing reserves three per
/// unit after the first non-ASCII one, which for a 47 MB session grew the wasm memory (which never
/// shrinks) by 140 MB.
fn encode_utf8(encoder: &Utf8Encoder, text: &js_sys::JsString) -> Vec<u8> {
    let units = text.length();
    let (mut bytes, mut read, mut room) = (Vec::new(), 0, units as usize);
    loop {
        let written = bytes.len();
        bytes.reserve_exact(room);
        bytes.resize(written + room, 0);
        // The view is made after the allocation, which may have grown (and detached) the buffer.
        let memory = wasm_bindgen::memory().unchecked_into::<js_sys::WebAssembly::Memory>();
        let into = js_sys::Uint8Array::new_with_byte_offset_and_length(&memory.buffer(), bytes.as_ptr() as u32 + written as u32, room as u32);
        let done = encoder.encode_into(&text.slice(read, units), &into);
        bytes.truncate(written + done.written() as usize);
        read += done.read();
        if read >= units {
            return bytes;
        }
        room = (units - read) as usize * 3;
    }
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = TextEncoder)]
    type Utf8Encoder;
    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Utf8Encoder;
    #[wasm_bindgen(method, js_class = "TextEncoder", js_name = encodeInto)]
    fn encode_into(this: &Utf8Encoder, text: &js_sys::JsString, into: &js_sys::Uint8Array) -> Encoded;
    /// `encodeInto`'s answer: UTF-16 units read, bytes written.
    type Encoded;
    #[wasm_bindgen(method, getter)]
    fn read(this: &Encoded) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &Encoded) -> u32;
}

thread_local! {
    static UTF8: Utf8Encoder = Utf8Encoder::new();
}

/// Hands a Rust value to JS as a plain object, through its JSON text.
pub fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    // Only the serializer is per type; the rest is `text_to_js`, once.
    text_to_js(serde_json::to_string(value))
}

fn text_to_js(text: serde_json::Result<String>) -> Result<JsValue, JsValue> {
    match text {
        Ok(text) => from_json_text(&text),
        Err(e) => Err(Error::new(ErrorCode::Internal, e.to_string()).into()),
    }
}

/// JSON text the core wrote (nodes in it exactly as given) as a JS value.
pub fn from_json_text(text: &str) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(text).map_err(|_| Error::new(ErrorCode::Internal, RESULT_NOT_JSON).into())
}

/// A core `Result` as a JS value or a thrown JS `Error`: the tail of most exports.
pub fn js_result<T: Serialize>(result: Result<T, Error>) -> Result<JsValue, JsValue> {
    match result {
        Ok(value) => to_js(&value),
        Err(error) => Err(error.into()),
    }
}

fn describe_thrown(thrown: &JsValue) -> String {
    thrown
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| STRINGIFY_THREW.to_string())
}

fn type_name(value: &JsValue) -> String {
    value.js_typeof().as_string().unwrap_or_else(|| NOT_JSON_TYPE.to_string())
}
