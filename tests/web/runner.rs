//! The async runner in a real browser (headless Firefox ESR): `compact` against an in-memory JS
//! store and scripted JS summarizers. Compiled only for wasm32; run with
//! `cargo test --target wasm32-unknown-unknown --test web_runner` under wasm-bindgen-test-runner.

use bibgenie_compaction::bindings::commit::check_commit_js;
use bibgenie_compaction::bindings::runner::compact;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;



#[wasm_bindgen(inline_js = r#"
const SECTIONS = ['Research Goal', 'User Requirements and Constraints', 'Research Progress', 'Findings and Evidence',
  'Key Zotero Resources', 'Decisions', 'Next Steps', 'Critical Context'];
export function validSummary(tag) {
  return SECTIONS.map((s) => `## ${s}\n- (user said) ${tag}`).join('\n');
}

// U1 A1 .. U4 A4, leaf A4, revision 8.
export function fourTurns() {
  const nodes = [];
  let parent = null;
  for (let t = 1; t <= 4; t++) {
    nodes.push({ id: `U${t}`, parentId: parent, role: 'user', parts: [{ type: 'text', text: `question ${t} `.repeat(30) }] });
    nodes.push({ id: `A${t}`, parentId: `U${t}`, role: 'assistant', parts: [{ type: 'text', text: `answer ${t} `.repeat(60) }] });
    parent = `A${t}`;
  }
  return { nodes, leafId: parent, branchRevision: 8 };
}

// The smallest SessionStore: the session kept as JSON text, one transaction at a time, rolled back on a throw.
export function memoryStore(session) {
  let text = JSON.stringify(session);
  let tail = Promise.resolve();
  const store = {
    writes: 0,
    text: () => text,
    async load() { return JSON.parse(text); },
    transaction(sessionId, fn) {
      const run = tail.then(async () => {
        let draft = JSON.parse(text);
        const tx = {
          async load() { return JSON.parse(JSON.stringify(draft)); },
          async appendNode(node) { draft.nodes.push(JSON.parse(JSON.stringify(node))); },
          async setLeaf(leafId, revision) { draft.leafId = leafId; draft.branchRevision = revision; },
        };
        const result = await fn(tx);  // a throw leaves `text` untouched
        text = JSON.stringify(draft);
        store.writes += 1;
        return result;
      });
      tail = run.then(() => {}, () => {});
      return run;
    },
    // An app write outside compaction: append under the leaf and bump the revision.
    async appendMessage(message) {
      const s = JSON.parse(text);
      s.nodes.push({ ...message, parentId: s.leafId });
      s.leafId = message.id;
      s.branchRevision += 1;
      text = JSON.stringify(s);
    },
  };
  return store;
}

// A store whose transaction throws after the node was appended.
export function failingStore(session) {
  const inner = memoryStore(session);
  return {
    text: inner.text,
    load: inner.load,
    transaction: (id, fn) => inner.transaction(id, (tx) => fn({ ...tx, setLeaf: async () => { throw new Error('disk full'); } })),
  };
}

export function signalLike() {
  const listeners = [];
  const signal = { aborted: false, addEventListener(type, l) { if (type === 'abort') listeners.push(l); } };
  return { signal, abort() { signal.aborted = true; listeners.splice(0).forEach((l) => l({ type: 'abort' })); } };
}

export function summarizeWith(text) { return async () => text; }
export function summarizeAndAppend(store, text) {
  return async () => { await store.appendMessage({ id: 'U5', role: 'user', parts: [{ type: 'text', text: 'more' }] }); return text; };
}
export function summarizeThrowing() { return async () => { throw new Error('provider unavailable'); }; }
// Never settles; aborts `control` once it has been called, as a user pressing Cancel would.
export function summarizeUntilCancelled(control) {
  return () => { Promise.resolve().then(() => control.abort()); return new Promise(() => {}); };
}
// Calls `reenter` (a Rust closure calling wasm exports) while the runner is suspended, then answers.
export function summarizeReentrant(reenter, text) {
  return async (request) => { await reenter(request); return text; };
}

export function options(store, sessionId, summarize, signal) {
  return { store, sessionId, model: { contextWindow: 8192 }, mode: 'manual', summarize, signal };
}
export function field(object, name) { return object[name]; }
export function storeText(store) { return store.text(); }
export function storeWrites(store) { return store.writes; }
"#)]
extern "C" {
    #[wasm_bindgen(js_name = validSummary)]
    fn valid_summary(tag: &str) -> String;
    #[wasm_bindgen(js_name = fourTurns)]
    fn four_turns() -> JsValue;
    #[wasm_bindgen(js_name = memoryStore)]
    fn memory_store(session: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = failingStore)]
    fn failing_store(session: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = signalLike)]
    fn signal_like() -> JsValue;
    #[wasm_bindgen(js_name = summarizeWith)]
    fn summarize_with(text: &str) -> JsValue;
    #[wasm_bindgen(js_name = summarizeAndAppend)]
    fn summarize_and_append(store: &JsValue, text: &str) -> JsValue;
    #[wasm_bindgen(js_name = summarizeThrowing)]
    fn summarize_throwing() -> JsValue;
    #[wasm_bindgen(js_name = summarizeUntilCancelled)]
    fn summarize_until_cancelled(control: &JsValue) -> JsValue;
    #[wasm_bindgen(js_name = summarizeReentrant)]
    fn summarize_reentrant(reenter: &JsValue, text: &str) -> JsValue;
    fn options(store: &JsValue, session_id: &str, summarize: &JsValue, signal: &JsValue) -> JsValue;
    fn field(object: &JsValue, name: &str) -> JsValue;
    #[wasm_bindgen(js_name = storeText)]
    fn store_text(store: &JsValue) -> String;
    #[wasm_bindgen(js_name = storeWrites)]
    fn store_writes(store: &JsValue) -> u32;
}

fn status(outcome: &JsValue) -> String {
    field(outcome, "status").as_string().unwrap_or_default()
}

fn reason(outcome: &JsValue) -> String {
    field(outcome, "reason").as_string().unwrap_or_default()
}

async fn run(options: JsValue) -> JsValue {
    compact(options).await.expect("valid options resolve with an outcome")
}

#[wasm_bindgen_test]
async fn committed_appends_the_checkpoint_and_moves_the_leaf() {
    let store = memory_store(&four_turns());
    let outcome = run(options(&store, "s", &summarize_with(&valid_summary("web")), &JsValue::UNDEFINED)).await;
    assert_eq!(status(&outcome), "committed");
    let checkpoint = field(&outcome, "checkpoint");
    let id = field(&checkpoint, "id").as_string().expect("checkpoint id");
    assert!(id.starts_with("ckpt_") && id.len() == 29, "{id}");
    assert_eq!(field(&checkpoint, "parentId").as_string().as_deref(), Some("A4"));
    let session = field(&outcome, "session");
    assert_eq!(field(&session, "leafId").as_string(), Some(id));
    assert_eq!(field(&session, "branchRevision").as_f64(), Some(9.0));
    let stored = js_sys::JSON::stringify(&session).unwrap().as_string().unwrap();
    let durable: serde_json::Value = serde_json::from_str(&store_text(&store)).unwrap();
    assert_eq!(serde_json::from_str::<serde_json::Value>(&stored).unwrap(), durable, "outcome carries the durable session");
}

#[wasm_bindgen_test]
async fn stale_when_a_message_was_appended_while_summarizing() {
    let store = memory_store(&four_turns());
    let summarize = summarize_and_append(&store, &valid_summary("old"));
    let outcome = run(options(&store, "s", &summarize, &JsValue::UNDEFINED)).await;
    assert_eq!(status(&outcome), "stale");
    assert_eq!(reason(&outcome), "leaf-moved");
    let session = field(&outcome, "session");
    assert_eq!(field(&session, "leafId").as_string().as_deref(), Some("U5"));
    assert!(!store_text(&store).contains("\"checkpoint\""), "nothing was written");
}

#[wasm_bindgen_test]
async fn cancelled_when_the_signal_aborts_a_summarizer_that_never_settles() {
    let store = memory_store(&four_turns());
    let before = store_text(&store);
    let control = signal_like();
    let summarize = summarize_until_cancelled(&control);
    let outcome = run(options(&store, "s", &summarize, &field(&control, "signal"))).await;
    assert_eq!(status(&outcome), "cancelled");
    assert_eq!(store_text(&store), before);
    assert_eq!(store_writes(&store), 0);
}

#[wasm_bindgen_test]
async fn failed_when_the_summarizer_throws() {
    let store = memory_store(&four_turns());
    let before = store_text(&store);
    let outcome = run(options(&store, "s", &summarize_throwing(), &JsValue::UNDEFINED)).await;
    assert_eq!(status(&outcome), "failed");
    assert_eq!(reason(&outcome), "summarizer-failed");
    assert_eq!(store_text(&store), before);
}

#[wasm_bindgen_test]
async fn failed_when_the_summary_lacks_a_section() {
    let store = memory_store(&four_turns());
    let text = valid_summary("x").replace("## Next Steps", "## Later");
    let outcome = run(options(&store, "s", &summarize_with(&text), &JsValue::UNDEFINED)).await;
    assert_eq!(status(&outcome), "failed");
    assert_eq!(reason(&outcome), "invalid-summary");
    assert_eq!(store_writes(&store), 0);
}

#[wasm_bindgen_test]
async fn failed_when_the_transaction_throws_midway() {
    let store = failing_store(&four_turns());
    let before = store_text(&store);
    let outcome = run(options(&store, "s", &summarize_with(&valid_summary("x")), &JsValue::UNDEFINED)).await;
    assert_eq!(status(&outcome), "failed");
    assert_eq!(reason(&outcome), "store-failed");
    assert_eq!(store_text(&store), before);
}

#[wasm_bindgen_test]
async fn reentrant_calls_while_suspended_do_not_throw() {
    let store = memory_store(&four_turns());
    let other = memory_store(&four_turns());
    let session = four_turns();
    // The summarizer calls back into Rust, which runs another whole compaction and a sync export.
    let reenter = Closure::<dyn FnMut(JsValue) -> js_sys::Promise>::new(move |_request: JsValue| {
        let other = other.clone();
        let session = session.clone();
        wasm_bindgen_futures::future_to_promise(async move {
            let verdict = check_commit_js(session.clone(), JsValue::UNDEFINED);
            assert!(verdict.is_err(), "an undefined plan is an error, not a panic");
            let nested = compact(options(&other, "o", &summarize_with(&valid_summary("nested")), &JsValue::UNDEFINED)).await?;
            assert_eq!(status(&nested), "committed");
            Ok(JsValue::UNDEFINED)
        })
    });
    let summarize = summarize_reentrant(reenter.as_ref(), &valid_summary("outer"));
    let outcome = run(options(&store, "s", &summarize, &JsValue::UNDEFINED)).await;
    assert_eq!(status(&outcome), "committed", "{:?}", field(&outcome, "message").as_string());
    drop(reenter);
}

#[wasm_bindgen_test]
async fn two_runs_on_one_basis_give_one_checkpoint() {
    let store = memory_store(&four_turns());
    let a = compact(options(&store, "s", &summarize_with(&valid_summary("a")), &JsValue::UNDEFINED));
    let b = compact(options(&store, "s", &summarize_with(&valid_summary("b")), &JsValue::UNDEFINED));
    let (a, b) = futures_join(a, b).await;
    let mut statuses = [status(&a.unwrap()), status(&b.unwrap())];
    statuses.sort();
    assert_eq!(statuses, ["committed".to_string(), "stale".to_string()]);
    assert_eq!(store_text(&store).matches("\"checkpoint\":{").count(), 1);
}

/// Runs both futures concurrently through JS promises (no extra crate).
async fn futures_join<A, B>(a: A, b: B) -> (Result<JsValue, JsValue>, Result<JsValue, JsValue>)
where
    A: std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
    B: std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
{
    let a = wasm_bindgen_futures::future_to_promise(a);
    let b = wasm_bindgen_futures::future_to_promise(b);
    (JsFuture::from(a).await, JsFuture::from(b).await)
}
