//! wasm-bindgen-test suite of the planning exports in headless Firefox: capacity and
//! estimateMessage, and the SessionIndex estimate and plan methods (the glue's pure `estimate` and
//! `plan` hold one index for a call).

use bibgenie_compaction::bindings::plan;
use bibgenie_compaction::bindings::session_index::SessionIndex;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::support::*;




fn code_of(error: JsValue) -> String {
    assert!(error.dyn_ref::<js_sys::Error>().is_some(), "a JS Error instance");
    get(&error, "code").as_string().unwrap_or_default()
}

/// A linear session of `turns` turns with `words` words per message.
fn session_json(turns: usize, words: usize) -> String {
    let text = "word ".repeat(words);
    let mut nodes = Vec::new();
    let mut parent = "null".to_string();
    for t in 1..=turns {
        nodes.push(format!(r#"{{"id":"U{t}","parentId":{parent},"role":"user","parts":[{{"type":"text","text":"{text}"}}]}}"#));
        nodes.push(format!(r#"{{"id":"A{t}","parentId":"U{t}","role":"assistant","parts":[{{"type":"text","text":"{text}"}}]}}"#));
        parent = format!(r#""A{t}""#);
    }
    format!(r#"{{"nodes":[{}],"leafId":"A{turns}","branchRevision":3}}"#, nodes.join(","))
}

#[wasm_bindgen_test]
fn capacity_has_the_contract_fields() {
    let c = plan::capacity(parse(r#"{"contextWindow":200000,"maxOutputTokens":64000}"#)).unwrap();
    for key in ["contextWindow", "reservedTokens", "safeInputLimit", "autoCompactAt", "tailBudget", "summaryMaxOutputTokens"] {
        assert!(get(&c, key).as_f64().is_some(), "{key}");
    }
    assert_eq!(get(&c, "safeInputLimit").as_f64(), Some(175_000.0));
}

#[wasm_bindgen_test]
fn invalid_models_throw_invalid_model() {
    for bad in [r#"{"contextWindow":0}"#, r#"{"contextWindow":-1}"#, r#"{"contextWindow":"big"}"#, r#"{}"#] {
        assert_eq!(code_of(plan::capacity(parse(bad)).unwrap_err()), "invalid-model", "{bad}");
    }
    // NaN becomes null through JSON.stringify, and is refused as well.
    let nan = js_sys::Object::new();
    js_sys::Reflect::set(&nan, &"contextWindow".into(), &JsValue::from_f64(f64::NAN)).unwrap();
    assert_eq!(code_of(plan::capacity(nan.into()).unwrap_err()), "invalid-model");
    assert_eq!(code_of(plan::capacity(JsValue::UNDEFINED).unwrap_err()), "invalid-model");
}

#[wasm_bindgen_test]
fn estimate_reports_source_and_fit() {
    let session = parse(&session_json(3, 10));
    let model = parse(r#"{"contextWindow":8192}"#);
    let mut index = SessionIndex::from_session(session).unwrap();
    let e = index.estimate(model.clone(), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&e, "source").as_string().as_deref(), Some("estimate"));
    assert_eq!(get(&e, "fits").as_bool(), Some(true));
    assert!(get(&e, "baselineMessageId").is_null());
    let base = get(&e, "tokens").as_f64().unwrap();
    let with = index.estimate(model, parse(r#"{"draft":"hello","overhead":{"tokens":100}}"#)).unwrap();
    assert!(get(&with, "tokens").as_f64().unwrap() > base + 100.0);
}

#[wasm_bindgen_test]
fn estimate_message_returns_a_number() {
    let n = plan::estimate_message(parse(r#"{"id":"m","role":"user","parts":[{"type":"text","text":"研究 Zotero"}]}"#), JsValue::UNDEFINED).unwrap();
    assert!(n > 0.0);
    let err = plan::estimate_message(parse(r#"{"role":"user","parts":7}"#), JsValue::UNDEFINED).unwrap_err();
    assert_eq!(code_of(err), "invalid-message");
}

#[wasm_bindgen_test]
fn plan_answers_per_mode() {
    let mut index = SessionIndex::from_session(parse(&session_json(150, 20))).unwrap();
    let small = parse(r#"{"contextWindow":8192}"#);
    let p = index.plan(small.clone(), parse(r#"{"mode":"auto"}"#)).unwrap();
    assert_eq!(get(&p, "action").as_string().as_deref(), Some("compact"));
    assert_eq!(get(&p, "reason").as_string().as_deref(), Some("over-threshold"));
    assert_eq!(get(&get(&p, "basis"), "branchRevision").as_f64(), Some(3.0));
    assert!(js_sys::Array::is_array(&get(&p, "summarizeIds")));
    assert!(get(&p, "send").is_undefined());
    let p = index.plan(small.clone(), parse(r#"{"mode":"preflight","draft":"next question"}"#)).unwrap();
    assert_eq!(get(&p, "send").as_string().as_deref(), Some("after-compaction"));
    let big = parse(r#"{"contextWindow":200000}"#);
    let p = index.plan(big, parse(r#"{"mode":"preflight","draft":{"role":"user","parts":[{"type":"text","text":"hi"}]}}"#)).unwrap();
    assert_eq!(get(&p, "send").as_string().as_deref(), Some("now"));
    assert_eq!(code_of(index.plan(small, parse(r#"{"mode":"sometimes"}"#)).unwrap_err()), "invalid-options");
}

#[wasm_bindgen_test]
fn an_index_appended_to_answers_as_an_index_of_the_whole_session() {
    let text = session_json(150, 20);
    let model = parse(r#"{"contextWindow":8192}"#);
    let options = parse(r#"{"mode":"preflight","draft":"next question"}"#);
    let mut index = SessionIndex::from_session(parse(&text)).unwrap();
    // Planned once before the append: the index's held counts must follow the new node.
    index.plan(model.clone(), options.clone()).unwrap();
    const NEXT: &str = r#"{"id":"U151","parentId":"A150","role":"user","parts":[{"type":"text","text":"more"}]}"#;
    index.append(parse(NEXT)).unwrap();
    index.set_leaf("U151".into(), JsValue::from_f64(4.0)).unwrap();
    let whole = text.replace(r#"],"leafId":"A150","branchRevision":3}"#, &format!(r#",{NEXT}],"leafId":"U151","branchRevision":4}}"#));
    let mut fresh = SessionIndex::from_session(parse(&whole)).unwrap();
    let same = |a: JsValue, b: JsValue| assert_eq!(js_sys::JSON::stringify(&a).unwrap().as_string(), js_sys::JSON::stringify(&b).unwrap().as_string());
    same(index.estimate(model.clone(), JsValue::UNDEFINED).unwrap(), fresh.estimate(model.clone(), JsValue::UNDEFINED).unwrap());
    same(index.plan(model.clone(), options.clone()).unwrap(), fresh.plan(model, options).unwrap());
}
