//! Helpers shared by the browser tests.
#![allow(dead_code)]

use wasm_bindgen::prelude::*;

pub fn get(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &JsValue::from_str(key)).expect("Reflect.get on an object")
}

pub fn parse(json: &str) -> JsValue {
    js_sys::JSON::parse(json).expect("test JSON parses")
}
