//! The wasm `SessionIndex`'s ways to append a node (`append`, and the glue's `appendShallow`,
//! `appendText`, `appendShallowUtf8`): one entry behind them, so the same node gets the same answer.

use bibgenie_compaction::bindings::session_index::SessionIndex;
use bibgenie_compaction::error::{Error, ErrorCode};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

use super::support::*;

const ROOT: &str = r#"{ "nodes": [{ "id": "U1", "parentId": null, "role": "user", "parts": [{ "type": "text", "text": "find papers" }] }],
  "leafId": "U1", "branchRevision": 1 }"#;

fn message(id: &str, parent: &str) -> String {
    format!(r#"{{"id":"{id}","parentId":"{parent}","role":"assistant","parts":[{{"type":"text","text":"Zotero 文献 {id}"}}]}}"#)
}

/// A message whose tool input nests `levels` arrays deep.
fn nested(id: &str, levels: usize) -> String {
    let input = format!("{}{}", "[".repeat(levels), "]".repeat(levels));
    format!(r#"{{"id":"{id}","parentId":"U1","role":"assistant","parts":[{{"type":"tool-x","toolCallId":"c","state":"input-available","input":{input}}}]}}"#)
}

fn coded(error: JsValue) -> (String, String) {
    assert!(error.dyn_ref::<js_sys::Error>().is_some(), "a JS Error instance");
    (get(&error, "code").as_string().unwrap_or_default(), get(&error, "message").as_string().unwrap_or_default())
}

/// Appends `text` the four ways, each on its own index of ROOT; their answers, in that order.
fn append_four_ways(text: &str) -> Vec<Result<(), (String, String)>> {
    let ways: [&dyn Fn(&mut SessionIndex) -> Result<(), JsValue>; 4] = [
        &|index: &mut SessionIndex| index.append(parse(text)),
        &|index: &mut SessionIndex| index.append_shallow(parse(text)),
        &|index: &mut SessionIndex| index.append_text(text),
        &|index: &mut SessionIndex| index.append_shallow_utf8(text.as_bytes()),
    ];
    ways.iter()
        .map(|append| {
            let mut index = SessionIndex::from_session(parse(ROOT)).unwrap();
            let answer = append(&mut index).map_err(coded);
            if answer.is_ok() {
                // Held as a read of the whole session holds it: the same branch, the same estimate.
                let id = get(&parse(text), "id");
                index.set_leaf(id.clone(), JsValue::from_f64(2.0)).unwrap();
                let whole = ROOT.replace(r#"}] }],"#, &format!(r#"}}] }}, {text}],"#)).replace(r#""leafId": "U1", "branchRevision": 1"#, &format!(r#""leafId": {}, "branchRevision": 2"#, js_sys::JSON::stringify(&id).unwrap()));
                let mut fresh = SessionIndex::from_session(parse(&whole)).unwrap();
                let model = parse(r#"{"contextWindow":8192}"#);
                let json = |value: JsValue| js_sys::JSON::stringify(&value).unwrap().as_string();
                assert_eq!(json(index.history_positions().unwrap()).as_deref(), Some("[0,1]"));
                assert_eq!(json(index.estimate(model.clone(), JsValue::UNDEFINED).unwrap()), json(fresh.estimate(model, JsValue::UNDEFINED).unwrap()));
            }
            answer
        })
        .collect()
}

#[wasm_bindgen_test]
fn every_way_holds_the_same_node() {
    assert_eq!(append_four_ways(&message("A1", "U1")), vec![Ok(()); 4]);
}

#[wasm_bindgen_test]
fn every_way_refuses_a_known_id_with_the_same_error() {
    let refusal = Err(("invalid-node".to_string(), "node U1: id already in the session".to_string()));
    assert_eq!(append_four_ways(&message("U1", "X9")), vec![refusal; 4]);
}

#[wasm_bindgen_test]
fn the_glues_ways_leave_deep_nodes_to_the_sessions_read() {
    let shallow = Ok(());
    let left = Err(("invalid-node".to_string(), "node left to the session's read".to_string()));
    // 60 arrays inside the part inside `parts` inside the node: 63 levels, one over the glue's 62.
    assert_eq!(append_four_ways(&nested("D1", 59)), vec![shallow.clone(); 4]);
    let answers = append_four_ways(&nested("D1", 60));
    assert_eq!(answers[1..], [left.clone(), left.clone(), left]);
    assert_eq!(answers[0], shallow, "the contract's append reads it");
}

#[wasm_bindgen_test]
fn utf8_that_is_not_is_an_invalid_node() {
    let mut index = SessionIndex::from_session(parse(ROOT)).unwrap();
    let (code, _) = coded(index.append_shallow_utf8(&[b'{', 0xff, b'}']).unwrap_err());
    assert_eq!(code, "invalid-node");
    assert_eq!(coded(index.set_leaf(JsValue::from_str("A1"), JsValue::from_f64(2.0)).unwrap_err()).0, "not-found", "nothing kept");
}

#[wasm_bindgen_test]
fn a_core_error_crosses_as_a_coded_js_error_through_question_mark() {
    fn refuse() -> Result<(), JsValue> {
        Err(Error::new(ErrorCode::DuplicateId, "node X: twice"))?;
        Ok(())
    }
    assert_eq!(coded(refuse().unwrap_err()), ("duplicate-id".to_string(), "node X: twice".to_string()));
}
