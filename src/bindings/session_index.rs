//! The wasm `SessionIndex` class, whole: a session held inside wasm across calls, with every method
//! JS sees (the glue's `skip_typescript` ones included) and the one way a node enters it.

use wasm_bindgen::prelude::*;

use super::answers::{branch_positions, projection_positions};
use super::args::{
    branch_revision_from_js, breakpoint_options_from_js, estimate_request_from_js, model_from_js, node_id_from_js,
    plan_from_js, plan_options_from_js, session_from_js,
};
use super::convert::{from_json_text, js_result, json_text_from_js, to_js};
use super::error::NODE_LEFT_TO_SESSION_READ;
use crate::error::{Error, ErrorCode};
use crate::session::{self, Node};
use crate::projection::project_branch;
use crate::session_index::SessionIndex as CoreIndex;

/// Deepest nesting of a node the glue's appends take alone (64 inside a session's `nodes`): a
/// deeper one is left to the tree parser's read of the whole session, whose rules decide.
const SHALLOW_NESTING: usize = 62;

/// How a node's JSON text is read before it is held.
#[derive(Clone, Copy)]
enum NodeRead {
    /// The contract's `append`: every defect is an `invalid-node` error that names it.
    Strict,
    /// The glue's appends: only what the typed reader reads alone; anything else is refused, and
    /// the glue then reads the whole session instead.
    Shallow,
}

fn read_node(text: &str, read: NodeRead) -> Result<Node, Error> {
    match read {
        NodeRead::Strict => Node::parse_strict_text(text),
        NodeRead::Shallow => Node::read_text_within(text, SHALLOW_NESTING)
            .ok_or_else(|| Error::new(ErrorCode::InvalidNode, NODE_LEFT_TO_SESSION_READ)),
    }
}

/// A session kept inside wasm for repeated calls; free it with `free()` when the session closes.
#[wasm_bindgen]
pub struct SessionIndex {
    inner: CoreIndex,
}

impl SessionIndex {
    /// The one way a node enters the index: its JSON text read as `read` says, then appended.
    fn append_node_text(&mut self, text: &str, read: NodeRead) -> Result<(), JsValue> {
        Ok(self.inner.append_node(read_node(text, read)?)?)
    }
}

#[wasm_bindgen]
impl SessionIndex {
    #[wasm_bindgen(js_name = from)]
    pub fn from_session(#[wasm_bindgen(unchecked_param_type = "Session")] session: JsValue) -> Result<SessionIndex, JsValue> {
        Ok(SessionIndex { inner: CoreIndex::from_session(session_from_js(&session)?) })
    }

    // ---- Appending nodes: every variant goes through `append_node_text` ----

    /// Appends a durable node (the leaf does not move).
    pub fn append(&mut self, #[wasm_bindgen(unchecked_param_type = "SessionNode")] node: JsValue) -> Result<(), JsValue> {
        self.append_node_text(&json_text_from_js(&node, ErrorCode::InvalidNode)?, NodeRead::Strict)
    }

    /// `append` for the glue, which builds indexes node by node and extends them with new nodes.
    /// Refused: a node the typed reader does not read alone, or nesting deeper than 62 levels (64
    /// inside a session's `nodes`): a session holding it is read by the tree parser, whose rules
    /// decide, so the glue reads the whole session instead.
    #[wasm_bindgen(js_name = appendShallow, skip_typescript)]
    pub fn append_shallow(&mut self, node: JsValue) -> Result<(), JsValue> {
        self.append_node_text(&json_text_from_js(&node, ErrorCode::InvalidNode)?, NodeRead::Shallow)
    }

    /// `appendShallow` from a node's stored JSON text (a store's row), with the same checks: the
    /// store feeds its index from the text it holds, with no parse and stringify round trip.
    #[wasm_bindgen(js_name = appendText, skip_typescript)]
    pub fn append_text(&mut self, text: &str) -> Result<(), JsValue> {
        self.append_node_text(text, NodeRead::Shallow)
    }

    /// `appendShallow` of a node's `JSON.stringify` text as UTF-8, encoded by the glue into a buffer it
    /// reuses (js-glue/session-cache.js): no `Uint8Array` per node for the JS heap to collect. The same
    /// refusals as `appendShallow`.
    #[wasm_bindgen(js_name = appendShallowUtf8, skip_typescript)]
    pub fn append_shallow_utf8(&mut self, text: &[u8]) -> Result<(), JsValue> {
        let text = std::str::from_utf8(text).map_err(|e| Error::new(ErrorCode::InvalidNode, e.to_string()))?;
        self.append_node_text(text, NodeRead::Shallow)
    }

    /// `appendText`'s counterpart for a message updated in place (same id and parent, new parts).
    #[wasm_bindgen(js_name = replaceText, skip_typescript)]
    pub fn replace_text(&mut self, text: &str) -> Result<(), JsValue> {
        Ok(self.inner.replace_node(read_node(text, NodeRead::Shallow)?)?)
    }

    /// Grows the wasm heap once for about `bytes` more of held nodes before a build of many
    /// `appendText` calls: grown page by page instead, each growth made V8 run a full GC of the JS
    /// heap (external memory accounting), about 100 of them for a 47 MB session.
    #[wasm_bindgen(js_name = reserveText, skip_typescript)]
    pub fn reserve_text(bytes: usize) {
        // A reservation the heap cannot make is skipped (no abort): the build then grows as it goes.
        let mut reserved: Vec<u8> = Vec::new();
        if reserved.try_reserve_exact(bytes).is_ok() {
            std::hint::black_box(&reserved);
        }
    }

    /// `warm_tokens`: a store's first estimate of a long branch, in parts.
    #[wasm_bindgen(js_name = warmTokens, skip_typescript)]
    pub fn warm_tokens(&mut self, count: usize) -> bool {
        self.inner.warm_tokens(count)
    }

    #[wasm_bindgen(js_name = setLeaf)]
    pub fn set_leaf(
        &mut self,
        #[wasm_bindgen(js_name = leafId, unchecked_param_type = "string")] leaf_id: JsValue,
        #[wasm_bindgen(js_name = branchRevision, unchecked_param_type = "number")] branch_revision: JsValue,
    ) -> Result<(), JsValue> {
        let leaf_id = node_id_from_js(&leaf_id)?;
        let revision = branch_revision_from_js(&branch_revision)?;
        Ok(self.inner.set_leaf(&leaf_id, revision)?)
    }

    // ---- The tree: branch, projection, history, session operations, by node position (the glue
    // hands back the caller's own node objects) ----

    /// `projectPositions` of the held session: positions in the order nodes were handed in.
    #[wasm_bindgen(js_name = projectPositions, unchecked_return_type = "{ items: Array<number | { summary: UIMessage }>; checkpointId: string | null; keptFromId: string | null }")]
    pub fn project_positions(&self) -> Result<JsValue, JsValue> {
        let (session, branch) = (self.inner.session(), self.inner.branch());
        branch.require_readable()?;
        from_json_text(&projection_positions(session, &project_branch(session, branch), |at| self.inner.summary_message_json(at)))
    }

    /// `historyPositions` of the held session.
    #[wasm_bindgen(js_name = historyPositions, unchecked_return_type = "number[]")]
    pub fn history_positions(&self) -> Result<JsValue, JsValue> {
        to_js(&self.inner.branch().nodes)
    }

    /// `readBranchPositions` of the held session.
    #[wasm_bindgen(js_name = readBranchPositions, unchecked_return_type = "{ nodes: number[]; readOnly: boolean; problems: BranchProblem[] }")]
    pub fn read_branch_positions(&self) -> Result<JsValue, JsValue> {
        to_js(&branch_positions(self.inner.session(), self.inner.branch()))
    }

    #[wasm_bindgen(js_name = retryTarget, unchecked_return_type = "RetryTarget | null")]
    pub fn retry_target(&self) -> Result<JsValue, JsValue> {
        js_result(session::retry_target(self.inner.session()))
    }

    #[wasm_bindgen(js_name = editTarget, unchecked_return_type = "EditTarget | null")]
    pub fn edit_target(&self) -> Result<JsValue, JsValue> {
        js_result(session::edit_target(self.inner.session()))
    }

    #[wasm_bindgen(js_name = canFork, unchecked_return_type = "ForkCheck")]
    pub fn can_fork(&self, #[wasm_bindgen(js_name = nodeId, unchecked_param_type = "string")] node_id: JsValue) -> Result<JsValue, JsValue> {
        let node_id = node_id_from_js(&node_id)?;
        to_js(&session::can_fork(self.inner.session(), &node_id))
    }

    // ---- Estimate, plan, prompt cache ----

    /// `estimate` on the held session; after one appended message it costs that message only.
    #[wasm_bindgen(unchecked_return_type = "Estimate")]
    pub fn estimate(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "EstimateOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let model = model_from_js(&model)?;
        let request = estimate_request_from_js(&options)?;
        js_result(self.inner.estimate(&model, &request))
    }

    /// `plan` on the held session (the preflight path of `submit`).
    #[wasm_bindgen(unchecked_return_type = "Plan")]
    pub fn plan(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
        #[wasm_bindgen(unchecked_param_type = "PlanOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let model = model_from_js(&model)?;
        let (options, cache) = plan_options_from_js(&options)?;
        js_result(self.inner.plan_cached(&model, &options, &cache))
    }

    /// `cacheBreakpoints` on the held session.
    #[wasm_bindgen(js_name = cacheBreakpoints, unchecked_return_type = "CacheBreakpoints")]
    pub fn cache_breakpoints(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "CacheBreakpointOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let model = model_from_js(&model)?;
        let (request, draft_id, cache) = breakpoint_options_from_js(&options)?;
        let breakpoints = self.inner.cache_breakpoints(&model, &request, draft_id, &cache)?;
        to_js(&crate::plan::breakpoints_value(&breakpoints))
    }

    // ---- Summary and compaction ----

    /// `summaryRequest` on the held session and branch: the runner plans and builds the request
    /// from one read of the session it loaded (again with `{ items }` once `resolveItem` answered).
    #[wasm_bindgen(js_name = summaryRequest, unchecked_return_type = "SummaryRequest")]
    pub fn summary_request(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
        #[wasm_bindgen(unchecked_param_type = "ModelProfile")] model: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "SummaryRequestOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        let plan = plan_from_js(&plan)?;
        let model = model_from_js(&model)?;
        let (resolved, round) = super::summarize::request_options_from_js(&options)?;
        js_result(self.inner.summary_request(&plan, &model, &resolved, &round))
    }

    /// The runner's steps of a large request (`summaryRequest`'s serialized history, its ledger, its
    /// registers, the request), each in a task of its own: begun with the inputs, answering the
    /// number `continueSummaryRequest` (true while a step is left) and `takeSummaryRequest` name them
    /// by, so that the inputs (a late round's checkpoint is half a megabyte) cross once.
    /// `takeSummaryRequest` hands out the request once built, else undefined, as
    /// `[fieldsText, history, prompt]`: its JSON text with an empty history and prompt, and those two
    /// as strings of their own. On a 1M-token window each is 3 MB, and a JSON text holding both took
    /// `JSON.parse` 25 ms in Node and longer in Zotero's scope; a string crosses as a copy.
    #[wasm_bindgen(js_name = beginSummaryRequest, skip_typescript)]
    pub fn begin_summary_request(&mut self, plan: JsValue, model: JsValue, options: JsValue) -> Result<u32, JsValue> {
        let plan = plan_from_js(&plan)?;
        let model = model_from_js(&model)?;
        let (resolved, round) = super::summarize::request_options_from_js(&options)?;
        Ok(self.inner.begin_summary_request(&plan, &model, &resolved, &round)?)
    }

    #[wasm_bindgen(js_name = continueSummaryRequest, skip_typescript)]
    pub fn continue_summary_request(&mut self, number: u32) -> Result<bool, JsValue> {
        Ok(self.inner.continue_summary_request(number)?)
    }

    #[wasm_bindgen(js_name = takeSummaryRequest, skip_typescript)]
    pub fn take_summary_request(&mut self, number: u32) -> Result<JsValue, JsValue> {
        let Some(mut request) = self.inner.take_summary_request(number) else { return Ok(JsValue::UNDEFINED) };
        let (history, prompt) = (std::mem::take(&mut request.history), std::mem::take(&mut request.prompt));
        let fields = serde_json::to_string(&request).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))?;
        Ok(js_sys::Array::of3(&JsValue::from(fields), &JsValue::from(history), &JsValue::from(prompt)).into())
    }

    /// `{ ok: true }` when a summary made on `plan` may be committed onto the session as held (a
    /// store's index brought up to date by the read it is used in, or a session read inside the
    /// store's transaction), otherwise `{ ok: false, reason }`.
    #[wasm_bindgen(js_name = checkCommit, unchecked_return_type = "CommitCheck")]
    pub fn check_commit(&self, #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue) -> Result<JsValue, JsValue> {
        let plan = plan_from_js(&plan)?;
        let verdict = match crate::commit::check_commit_on_branch(self.inner.session(), self.inner.branch(), &plan)? {
            Ok(()) => serde_json::json!({ "ok": true }),
            Err(refusal) => crate::text::object(vec![("ok", serde_json::Value::Bool(false)), ("reason", serde_json::Value::from(refusal.as_str()))]),
        };
        to_js(&verdict)
    }

    /// The checks `compact` (js-glue/runner.js) rejects with before it loads anything: the model,
    /// then `mode` (omitted: 'manual'), `draft` and `overhead` as plan options. Static, so that it
    /// is no export of the module.
    /// The stores' door: `text`, one node's JSON as a store is about to keep it, read by the rules
    /// the session's read applies (`SessionIndex.append`'s), so a node the core would later call
    /// invalid (and the session read-only) is refused before it is written. `invalid-node`, naming
    /// the node and the field.
    #[wasm_bindgen(js_name = checkNodeText, skip_typescript)]
    pub fn check_node_text(text: &str) -> Result<(), JsValue> {
        Node::parse_strict_text(text)?;
        Ok(())
    }

    /// Rule `interrupted-tool` for the stores' in-place updates, applied to one stored node's JSON
    /// text: a message whose unfinished tool part can still complete as far as the message tells
    /// (`Message::has_pending_tool`: not cut). Whether it is pending also depends on the branch,
    /// which the store walks (no user message after it). Unreadable text: false.
    #[wasm_bindgen(js_name = mayStillCompleteTool, skip_typescript)]
    pub fn may_still_complete_tool(text: &str) -> bool {
        match Node::parse_strict_text(text) {
            Ok(Node { kind: session::NodeKind::Message(message), .. }) => message.has_pending_tool(),
            _ => false,
        }
    }

    #[wasm_bindgen(js_name = checkCompactInputs, skip_typescript)]
    pub fn check_compact_inputs(model: JsValue, mode: JsValue, draft: JsValue, overhead: JsValue) -> Result<(), JsValue> {
        Ok(super::args::check_compact_inputs(&model, &mode, &draft, &overhead)?)
    }

    /// The summary the runner commits for what the summarizer returned (rule `summary-repaired`):
    /// `{ summary }` when valid, else `{ summary, repair: { kind, problem } }` with the model's text
    /// rearranged (`kept`) or, when nothing usable came back, the extractive summary (`embedded`) of
    /// `fieldsText` and `history`, the summary request as it was before the summarizer saw it: its
    /// JSON text with an empty history (and prompt), and its history. They cross only for a summary
    /// that needs the embedded one (a long session's request is megabytes to copy into the module).
    #[wasm_bindgen(js_name = settleSummary, skip_typescript)]
    pub fn settle_summary(summary: JsValue, fields_text: JsValue, history: JsValue) -> Result<JsValue, JsValue> {
        let summary = super::args::summary_from_js(&summary)?;
        let request = || {
            let (Some(text), Some(history)) = (fields_text.as_string(), history.as_string()) else {
                return Err(Error::new(ErrorCode::InvalidRequest, "the request's fieldsText and history are not strings"));
            };
            crate::text::parse_lenient::<serde_json::Value>(&text)
                .map_err(|e| e.to_string())
                .and_then(|mut request| {
                    if let Some(fields) = request.as_object_mut() {
                        fields.insert("history".to_string(), history.into());
                    }
                    crate::summarize::SummaryRequest::from_value(&request)
                })
                .map_err(|message| Error::new(ErrorCode::InvalidRequest, message))
        };
        js_result(crate::summarize::settle_summary(&summary, request))
    }
}
