//! The async compaction runner over JS callbacks: `compact(options) -> Promise<CompactOutcome>`.
//!
//! Steps: `store.load` -> plan -> summary request -> `summarize(request, signal)` -> validate ->
//! `store.transaction(sessionId, fn)`, where `fn` re-reads the session, runs `check_commit`, then
//! appends the checkpoint and moves the leaf. Every JS call result is checked; nothing panics.
//! No Rust borrow lives across an `await` (all state is owned by the future), so JS may call any
//! export, even `compact` again, while a compaction waits.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, Function, Object, Promise, Reflect};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::commit::stamp_created_at;
use super::tree::session_from_js;
use super::{from_js, from_js_optional, js_error, to_js};
use crate::capacity::ModelProfile;
use crate::commit::{check_commit, checkpoint_node, new_checkpoint_id};
use crate::error::{Error, ErrorCode};
use crate::model::Mode;
use crate::plan::{Plan, PlanAction, PlanOptions, SendDecision};

// The options and outcome of `compact`, on the contract's types (src/bindings/types.rs). The older
// `Compact*` names of the store, session, signal and summarizer stay as aliases.
#[wasm_bindgen(typescript_custom_section)]
const RUNNER_TYPES: &str = r#"
export type CompactSignal = AbortSignalLike;
export type CompactSession = Session;
export type CompactStoreTx = StoreTx;
export type CompactStore = SessionStore;
export type CompactSummarize = Summarize;
export interface CompactOptions {
  store: SessionStore;
  sessionId: string;
  model: ModelProfile;
  /** Default 'manual'. */
  mode?: CompactionMode;
  /** The message about to be sent (preflight): kept verbatim, never summarized. */
  draft?: Draft;
  /** What the request carries besides the session. */
  overhead?: Overhead;
  summarize: Summarize;
  signal?: AbortSignalLike;
}
export type CompactStatus = 'committed' | 'noop' | 'stale' | 'cancelled' | 'failed' | 'too-large';
/** The result of `compact`, by status. Only `committed` wrote anything. */
export type CompactOutcome =
  /** The checkpoint was appended and is the leaf; `session` is the durable session now. */
  | { status: 'committed'; reason: PlanReason; plan: Plan; session: Session; checkpoint: CheckpointNode }
  /** Nothing to do (`noop`), or the draft cannot fit even after compacting (`too-large`); `session` is the one planned on. */
  | { status: 'noop' | 'too-large'; reason: PlanReason; plan: Plan; session: Session }
  /** The session moved while summarizing; the summary was discarded and `session` is the fresh one. */
  | { status: 'stale'; reason: CommitRefusal; plan: Plan; session: Session }
  /** Cancelled through the signal; `error` is what was thrown meanwhile, if anything. */
  | { status: 'cancelled'; reason: 'aborted'; error?: unknown }
  /** `reason`: 'store-failed', 'summarizer-failed' or an error code ('invalid-summary', ...). */
  | { status: 'failed'; reason: 'store-failed' | 'summarizer-failed' | ErrorCode | (string & {}); message: string; error?: unknown };
"#;

/// Outcome statuses (the contract's `Outcome.status`).
const COMMITTED: &str = "committed";
const NOOP: &str = "noop";
const STALE: &str = "stale";
const CANCELLED: &str = "cancelled";
const FAILED: &str = "failed";
const TOO_LARGE: &str = "too-large";

/// Failure reasons of the runner itself (core errors use their own code).
const STORE_FAILED: &str = "store-failed";
const SUMMARIZER_FAILED: &str = "summarizer-failed";
const ABORTED: &str = "aborted";

/// Runs one compaction. Rejects only for unusable options (`invalid-options`, `invalid-model`);
/// everything that goes wrong later resolves as an outcome, and `cancelled`/`failed` wrote nothing.
#[wasm_bindgen(js_name = compact, unchecked_return_type = "CompactOutcome")]
pub async fn compact(#[wasm_bindgen(unchecked_param_type = "CompactOptions")] options: JsValue) -> Result<JsValue, JsValue> {
    let run = Run::read(&options).map_err(js_error)?;
    Ok(run.execute().await.into())
}

struct Run {
    store: JsValue,
    session_id: String,
    model: ModelProfile,
    options: PlanOptions,
    summarize: Function,
    signal: Signal,
}

/// The caller's abort signal, read through `aborted` and `addEventListener` only.
#[derive(Clone)]
struct Signal(Option<JsValue>);

impl Signal {
    fn aborted(&self) -> bool {
        // A getter that throws counts as not aborted: the signal cannot be read, so it never fired.
        self.0.as_ref().is_some_and(|s| Reflect::get(s, &"aborted".into()).is_ok_and(|v| v.is_truthy()))
    }

    /// What the summarizer receives: the caller's signal, or one that never aborts.
    fn for_callback(&self) -> JsValue {
        match &self.0 {
            Some(signal) => signal.clone(),
            None => never_aborting_signal(),
        }
    }

    /// Awaits `promise`, or stops waiting when the signal aborts: `Ok(None)` means aborted
    /// (whatever the promise did). The listener is removed again where the signal allows it.
    async fn race(&self, promise: Promise) -> Result<Option<JsValue>, JsValue> {
        if self.aborted() {
            return Ok(None);
        }
        let Some(signal) = &self.0 else {
            return JsFuture::from(promise).await.map(Some);
        };
        let mut resolve_on_abort: Option<Function> = None;
        let aborted = Promise::new(&mut |resolve, _reject| resolve_on_abort = Some(resolve));
        let listener = resolve_on_abort.map(JsValue::from).unwrap_or(JsValue::UNDEFINED);
        let subscribed = call_method(signal, "addEventListener", &[JsValue::from_str("abort"), listener.clone()]).is_ok();
        let result = if subscribed {
            JsFuture::from(Promise::race(&Array::of2(&promise, &aborted))).await
        } else {
            JsFuture::from(promise).await
        };
        if subscribed && has_method(signal, "removeEventListener") {
            let _ = call_method(signal, "removeEventListener", &[JsValue::from_str("abort"), listener]);
        }
        if self.aborted() {
            return Ok(None);
        }
        result.map(Some)
    }
}

impl Run {
    fn read(options: &JsValue) -> Result<Run, Error> {
        if !options.is_object() {
            return Err(invalid("compact options must be an object { store, sessionId, model, summarize, ... }"));
        }
        let store = get(options, "store");
        if !store.is_object() || !has_method(&store, "load") || !has_method(&store, "transaction") {
            return Err(invalid("options.store must have load(sessionId) and transaction(sessionId, fn)"));
        }
        let session_id = match get(options, "sessionId").as_string() {
            Some(id) if !id.is_empty() => id,
            _ => return Err(invalid("options.sessionId must be a non-empty string")),
        };
        let model: Value = from_js(&get(options, "model"), ErrorCode::InvalidModel)?;
        let model = ModelProfile::from_value(&model)?;
        let mode = read_mode(&get(options, "mode"))?;
        let draft: Option<Value> = from_js_optional(&get(options, "draft"), ErrorCode::InvalidOptions)?;
        let overhead: Option<Value> = from_js_optional(&get(options, "overhead"), ErrorCode::InvalidOptions)?;
        let mut plan_options = serde_json::Map::new();
        plan_options.insert("mode".into(), Value::from(mode.as_str()));
        if let Some(draft) = draft {
            plan_options.insert("draft".into(), draft);
        }
        if let Some(overhead) = overhead {
            plan_options.insert("overhead".into(), overhead);
        }
        let plan_options = PlanOptions::from_value(&Value::Object(plan_options))?;
        let summarize = get(options, "summarize")
            .dyn_into::<Function>()
            .map_err(|_| invalid("options.summarize must be a function (request, signal) => Promise<string>"))?;
        let signal = get(options, "signal");
        let signal = if signal.is_undefined() || signal.is_null() {
            Signal(None)
        } else if signal.is_object() && has_method(&signal, "addEventListener") {
            Signal(Some(signal))
        } else {
            return Err(invalid("options.signal must have `aborted` and addEventListener('abort', listener)"));
        };
        Ok(Run { store, session_id, model, options: plan_options, summarize, signal })
    }

    async fn execute(self) -> Object {
        let loaded = match call_method(&self.store, "load", &[JsValue::from_str(&self.session_id)]) {
            Ok(promise) => self.signal.race(promise).await,
            Err(thrown) => Err(thrown),
        };
        let session_js = match loaded {
            Ok(Some(session)) => session,
            Ok(None) => return cancelled(),
            Err(thrown) => return failed_thrown(STORE_FAILED, "store.load failed", thrown),
        };
        let session = match session_from_js(&session_js) {
            Ok(session) => session,
            Err(error) => return failed(error),
        };
        let plan = match crate::plan::plan(&session, &self.model, &self.options) {
            Ok(plan) => plan,
            Err(error) => return failed(error),
        };
        let Ok(plan_js) = to_js(&plan) else {
            return failed(Error::new(ErrorCode::Internal, "plan is not serializable"));
        };
        if plan.send == Some(SendDecision::TooLarge) {
            return outcome(TOO_LARGE, &plan.reason, &[("plan", &plan_js), ("session", &session_js)]);
        }
        if plan.action != PlanAction::Compact {
            return outcome(NOOP, &plan.reason, &[("plan", &plan_js), ("session", &session_js)]);
        }
        let request = match crate::prompt::summary_request(&session, &plan, &self.model) {
            Ok(request) => request,
            Err(error) => return failed(error),
        };
        drop(session);
        let summary = match self.summarize(&request).await {
            Ok(Some(summary)) => summary,
            Ok(None) => return cancelled(),
            Err(outcome) => return outcome,
        };
        if let Err(error) = crate::commit::check_summary_budget(&summary, request.max_output_tokens) {
            return failed(error);
        }
        let node = match new_checkpoint_id().and_then(|id| checkpoint_node(&plan, &summary, &request.ledger, &id)) {
            Ok(mut node) => {
                stamp_created_at(&mut node);
                node
            }
            Err(error) => return failed(error),
        };
        if self.signal.aborted() {
            return cancelled();
        }
        self.commit(plan, plan_js, node).await
    }

    /// `Ok(None)`: cancelled. `Err`: the failed outcome.
    async fn summarize(&self, request: &crate::prompt::SummaryRequest) -> Result<Option<String>, Object> {
        let request_js = to_js(request).map_err(|_| failed(Error::new(ErrorCode::Internal, "summary request is not serializable")))?;
        let called = self.summarize.call2(&JsValue::UNDEFINED, &request_js, &self.signal.for_callback());
        let result = match called {
            Ok(value) => self.signal.race(Promise::resolve(&value)).await,
            Err(thrown) => Err(thrown),
        };
        match result {
            Ok(None) => Ok(None),
            Ok(Some(value)) => match value.as_string() {
                Some(text) => Ok(Some(text)),
                None => Err(failed(Error::new(
                    ErrorCode::InvalidSummary,
                    format!("summarize resolved with {}, not a string", type_of(&value)),
                ))),
            },
            Err(thrown) if self.signal.aborted() => Err(cancelled_with(thrown)),
            Err(thrown) => Err(failed_thrown(SUMMARIZER_FAILED, "summarize failed", thrown)),
        }
    }

    /// The version-conditional commit inside `store.transaction`.
    async fn commit(self, plan: Plan, plan_js: JsValue, node: Value) -> Object {
        let context = Rc::new(TxContext { plan, plan_js, node, signal: self.signal.clone(), outcome: RefCell::new(None) });
        let for_fn = Rc::clone(&context);
        let transaction_fn = Closure::<dyn FnMut(JsValue) -> Promise>::new(move |tx: JsValue| {
            let context = Rc::clone(&for_fn);
            future_to_promise(async move {
                let outcome = context.commit_in(&tx).await?;
                // Kept on the Rust side too: a store that does not hand back fn's result still reports it.
                context.outcome.replace(Some(outcome.clone()));
                Ok(outcome.into())
            })
        });
        let started = call_method(
            &self.store,
            "transaction",
            &[JsValue::from_str(&self.session_id), transaction_fn.as_ref().clone()],
        );
        let settled = match started {
            Ok(promise) => JsFuture::from(promise).await,
            Err(thrown) => Err(thrown),
        };
        // The closure stays alive until the transaction settled; a store calling fn later gets a JS error.
        drop(transaction_fn);
        match settled {
            Ok(_) => match context.outcome.take() {
                Some(outcome) => outcome,
                None => failed(Error::new(ErrorCode::Internal, "store.transaction resolved without running fn")),
            },
            // A rejected transaction wrote nothing (the store rolled it back).
            Err(thrown) if context.signal.aborted() => cancelled_with(thrown),
            Err(thrown) => failed_thrown(STORE_FAILED, "store.transaction failed", thrown),
        }
    }
}

/// What the transaction callback needs; shared by `Rc` so no borrow is held while JS runs.
struct TxContext {
    plan: Plan,
    plan_js: JsValue,
    node: Value,
    signal: Signal,
    outcome: RefCell<Option<Object>>,
}

impl TxContext {
    /// Runs inside the store's transaction. `Err` rejects `fn`, which rolls the transaction back.
    async fn commit_in(&self, tx: &JsValue) -> Result<Object, JsValue> {
        if self.signal.aborted() {
            return Ok(cancelled());
        }
        let fresh_js = JsFuture::from(call_method(tx, "load", &[])?).await?;
        let fresh = match session_from_js(&fresh_js) {
            Ok(fresh) => fresh,
            Err(error) => return Ok(failed(error)),
        };
        match check_commit(&fresh, &self.plan) {
            Err(error) => return Ok(failed(error)),
            Ok(Err(refusal)) => {
                return Ok(outcome(STALE, refusal.as_str(), &[("plan", &self.plan_js), ("session", &fresh_js)]))
            }
            Ok(Ok(())) => {}
        }
        let revision = fresh.branch_revision + 1;
        let node_id = self.plan_id();
        JsFuture::from(call_method(tx, "appendNode", &[to_js(&self.node)?])?).await?;
        JsFuture::from(call_method(tx, "setLeaf", &[JsValue::from_str(&node_id), JsValue::from_f64(revision as f64)])?)
            .await?;
        if self.signal.aborted() {
            // Cancelled while writing: reject so the store rolls the writes back.
            return Err(js_error(Error::new(ErrorCode::Internal, "compaction cancelled during the commit")));
        }
        let node_js = to_js(&self.node)?;
        let nodes = match get(&fresh_js, "nodes").dyn_into::<Array>() {
            Ok(nodes) => nodes.concat(&Array::of1(&node_js)),
            // Not a real array (JSON-equivalent only, e.g. through toJSON): rebuild from what was read.
            Err(_) => {
                let mut raw: Vec<Value> = fresh.nodes.iter().map(|n| n.raw.to_value()).collect();
                raw.push(self.node.clone());
                to_js(&raw)?.unchecked_into::<Array>()
            }
        };
        drop(fresh);
        let session = Object::new();
        set(&session, "nodes", &nodes);
        set(&session, "leafId", &JsValue::from_str(&node_id));
        set(&session, "branchRevision", &JsValue::from_f64(revision as f64));
        Ok(outcome(
            COMMITTED,
            &self.plan.reason,
            &[("plan", &self.plan_js), ("session", &session), ("checkpoint", &node_js)],
        ))
    }

    fn plan_id(&self) -> String {
        self.node.get("id").and_then(Value::as_str).unwrap_or_default().to_string()
    }
}

fn read_mode(value: &JsValue) -> Result<Mode, Error> {
    if value.is_undefined() || value.is_null() {
        return Ok(Mode::Manual);
    }
    match value.as_string().as_deref() {
        Some("manual") => Ok(Mode::Manual),
        Some("auto") => Ok(Mode::Auto),
        Some("preflight") => Ok(Mode::Preflight),
        _ => Err(invalid("options.mode must be 'manual', 'auto' or 'preflight'")),
    }
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidOptions, message)
}

/// `target[name]`, or `undefined` when reading it throws.
fn get(target: &JsValue, name: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

fn set(target: &Object, name: &str, value: &JsValue) {
    // Defining a property on a fresh plain object cannot fail.
    let _ = Reflect::set(target, &JsValue::from_str(name), value);
}

fn has_method(target: &JsValue, name: &str) -> bool {
    get(target, name).is_function()
}

/// Calls `target[name](...args)` and turns what it returns into a promise (a plain value resolves).
fn call_method(target: &JsValue, name: &str, args: &[JsValue]) -> Result<Promise, JsValue> {
    let method = get(target, name)
        .dyn_into::<Function>()
        .map_err(|_| js_error(invalid(format!("{name} is not a function"))))?;
    let args: Array = args.iter().collect();
    let value = method.apply(target, &args)?;
    Ok(Promise::resolve(&value))
}

thread_local! {
    /// A JS function that does nothing (made once; `new Function` may be forbidden by a CSP).
    static DO_NOTHING: JsValue = Closure::<dyn Fn()>::new(|| {}).into_js_value();
}

/// `{ aborted: false, addEventListener() {}, removeEventListener() {} }`.
fn never_aborting_signal() -> JsValue {
    let signal = Object::new();
    set(&signal, "aborted", &JsValue::FALSE);
    DO_NOTHING.with(|noop| {
        set(&signal, "addEventListener", noop);
        set(&signal, "removeEventListener", noop);
    });
    signal.into()
}

fn type_of(value: &JsValue) -> String {
    if value.is_null() {
        return "null".into();
    }
    value.js_typeof().as_string().unwrap_or_else(|| "a non-string".into())
}

fn outcome(status: &str, reason: &str, fields: &[(&str, &JsValue)]) -> Object {
    let object = Object::new();
    set(&object, "status", &JsValue::from_str(status));
    set(&object, "reason", &JsValue::from_str(reason));
    for (name, value) in fields {
        set(&object, name, value);
    }
    object
}

fn cancelled() -> Object {
    outcome(CANCELLED, ABORTED, &[])
}

fn cancelled_with(thrown: JsValue) -> Object {
    outcome(CANCELLED, ABORTED, &[("error", &thrown)])
}

fn failed(error: Error) -> Object {
    let message = JsValue::from_str(&error.message);
    let code = error.code.as_str();
    outcome(FAILED, code, &[("message", &message), ("error", &js_error(error))])
}

fn failed_thrown(reason: &str, context: &str, thrown: JsValue) -> Object {
    let message = JsValue::from_str(&format!("{context}: {}", describe(&thrown)));
    outcome(FAILED, reason, &[("message", &message), ("error", &thrown)])
}

fn describe(thrown: &JsValue) -> String {
    if let Some(error) = thrown.dyn_ref::<js_sys::Error>() {
        return String::from(error.message());
    }
    if let Some(text) = thrown.as_string() {
        return text;
    }
    let message = get(thrown, "message");
    message.as_string().unwrap_or_else(|| format!("a thrown {}", type_of(thrown)))
}
