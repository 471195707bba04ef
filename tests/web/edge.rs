//! wasm-bindgen-test suite: the bindings in a real browser (headless Firefox ESR).
//! Run by `./build.sh test`; compiled only for wasm32, so native `cargo test` skips it.
//! Other bindings append their tests here: call the export as a Rust function, check the JS value.

use bibgenie_compaction::bindings::{from_js, from_js_optional, js_error, js_result, to_js};
use bibgenie_compaction::error::{Error, ErrorCode};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::support::*;




// No version test here: `bindings::version()` called from Rust is `env!("CARGO_PKG_VERSION")` by
// definition. The JS-visible version() is compared with Cargo.toml where it crosses the boundary:
// tests/node/pack-consumer*.test.mjs and, in Firefox, tests/firefox/iife-bundle.test.mjs.

#[wasm_bindgen_test]
fn errors_are_js_errors_with_a_code() {
    let value = js_error(Error::new(ErrorCode::InvalidSession, "nodes: expected an array"));
    let error = value.dyn_ref::<js_sys::Error>().expect("a JS Error instance");
    assert_eq!(String::from(error.message()), "nodes: expected an array");
    assert_eq!(get(&value, "code").as_string().as_deref(), Some("invalid-session"));
}

#[wasm_bindgen_test]
fn objects_cross_in_both_directions_unchanged() {
    let input = parse(r#"{"id":"m1","parentId":null,"parts":[{"type":"text","text":"Zotero 文献 ✓"}],"n":1.5}"#);
    let value: serde_json::Value = from_js(&input, ErrorCode::InvalidNode).expect("plain JSON reads");
    assert_eq!(value["parts"][0]["text"], "Zotero 文献 ✓");
    let back = to_js(&value).expect("serializable");
    assert!(back.is_object());
    assert_eq!(get(&get(&back, "parts"), "0").is_object(), true);
    // Key order may differ (serde_json sorts); the data must not.
    let round_trip: serde_json::Value = from_js(&back, ErrorCode::InvalidNode).unwrap();
    assert_eq!(round_trip, value);
    assert!(get(&back, "parentId").is_null());
}

#[wasm_bindgen_test]
fn a_cycle_is_an_error_with_the_callers_code() {
    let object = js_sys::Object::new();
    js_sys::Reflect::set(&object, &JsValue::from_str("self"), &object).unwrap();
    let error = from_js::<serde_json::Value>(&object, ErrorCode::InvalidSession).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidSession);
    assert!(error.message.contains("not JSON-serializable"), "{}", error.message);
}

#[wasm_bindgen_test]
fn a_bigint_is_an_error_with_the_callers_code() {
    let error = from_js::<serde_json::Value>(&JsValue::bigint_from_str("12"), ErrorCode::InvalidModel).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidModel);
}

#[wasm_bindgen_test]
fn undefined_is_an_error_unless_optional() {
    let error = from_js::<serde_json::Value>(&JsValue::UNDEFINED, ErrorCode::InvalidOptions).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidOptions);
    assert!(error.message.contains("undefined"), "{}", error.message);
    let none = from_js_optional::<serde_json::Value>(&JsValue::UNDEFINED, ErrorCode::InvalidOptions);
    assert_eq!(none, Ok(None));
}

#[wasm_bindgen_test]
fn a_wrong_shape_names_the_problem() {
    #[derive(serde::Deserialize, Debug)]
    #[allow(dead_code)]
    struct Model {
        #[serde(rename = "contextWindow")]
        context_window: u64,
    }
    let error = from_js::<Model>(&parse(r#"{"contextWindow":"big"}"#), ErrorCode::InvalidModel).unwrap_err();
    assert_eq!(error.code, ErrorCode::InvalidModel);
    assert!(error.message.contains("invalid type"), "{}", error.message);
}

#[wasm_bindgen_test]
fn js_result_throws_core_errors_and_returns_values() {
    let thrown = js_result::<u32>(Err(Error::new(ErrorCode::ReadOnly, "branch has problems"))).unwrap_err();
    assert_eq!(get(&thrown, "code").as_string().as_deref(), Some("read-only"));
    assert_eq!(js_result(Ok(7u32)).unwrap().as_f64(), Some(7.0));
}
