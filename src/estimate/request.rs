//! The session estimate: provider baseline + estimated increments + overhead + draft.
//!
//! Rule `baseline-after-checkpoint`: the baseline is the newest assistant message after the newest
//! checkpoint of the branch with valid `metadata.usage` (`usage::read_usage`); usage recorded before that
//! checkpoint measured a context that no longer exists and is ignored.
//! Rule `baseline-plausible`: a usage whose input is below what the request it answers can have held is
//! not a baseline (an earlier one, or the pure estimate, is used): `input * BASELINE_PLAUSIBILITY_FACTOR`
//! must reach the estimate of the messages that request carried (the projection before the message).
//! AI SDK 5 with Anthropic reported about 12 input tokens for a 100k context after a cache write.
//! Rule `increments-estimated`: every projected message after the baseline, and the draft, is estimated
//! with `tokens::estimate_message`; so is what the baseline message stored after its usage's step
//! (rule `usage-covers-step`, `usage::uncovered_tokens`).
//! Rule `overhead-only-on-estimates`: the request's overhead (system prompt, tool definitions) is already
//! inside a provider baseline; only a pure estimate (`source: 'estimate'`) adds it.
//! Rule `no-baseline-whole-projection`: with no valid baseline the whole projection is estimated (the
//! summary message of the newest checkpoint included).
//!
//! `BranchTokens` caches per-node facts (estimate, usage, pending tools) and prefix sums along the branch,
//! so `SessionIndex` answers in time proportional to the nodes added since the last call.

use std::cell::RefCell;

use serde::Serialize;
use serde_json::{json, Map, Value};

use super::capacity::{capacity, ModelProfile};
use crate::error::{Error, ErrorCode, Result};
use crate::session::{parse_count, read_branch, Branch, Checkpoint, Message, Node, NodeKind, Part, Role, Session};
use crate::projection::summary_message_text;
use crate::tokens::{estimate_json, estimate_text};
use super::message::{estimate_message, EstimateOptions};
use super::frame::FrameCache;
use super::usage::{message_usage, uncovered_tokens, Usage};

/// The estimate of a request is at most this many times what a provider counts for it. Measured
/// (docs/estimator.md): every held-out corpus's p99 is below 1.8 against the largest of four tokenizers,
/// and the scripts one provider's tokenizer handles best (Greek, Hebrew, Thai, Arabic, Hindi) are priced
/// 4-6 times o200k; 8 leaves room above that, as the runner's summary ceiling does. An image of unknown
/// size (1,600 estimated, 85 at OpenAI's low detail) can exceed it: a session of such images then falls
/// back to the estimate, the safe side.
pub const BASELINE_PLAUSIBILITY_FACTOR: u64 = 8;

/// The message a user is about to send: a UIMessage-like object or plain text (a user text message).
#[derive(Debug, Clone)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(type = "string | (Omit<UIMessage, 'id' | 'role'> & { id?: string; role?: UIMessage['role'] })"))]
pub enum Draft {
    Text(String),
    Message(Message),
}

impl Draft {
    /// Accepts a string, or an object read like a session message (`id` and `role` optional: the draft
    /// is not stored yet, and a draft without a role is the user's).
    pub fn from_value(value: &Value) -> Result<Draft> {
        match value {
            Value::String(text) => Ok(Draft::Text(text.clone())),
            // A message the core cannot read is the stores' `invalid-node`, also as a draft: one code
            // for one mistake, whether it enters at `appendMessage`, `submit` or the chat transport.
            Value::Object(_) => read_message_like(value, "draft", ErrorCode::InvalidOptions, ErrorCode::InvalidNode).map(Draft::Message),
            _ => Err(Error::new(ErrorCode::InvalidOptions, "draft must be a string or a UIMessage object")),
        }
    }

    pub fn tokens(&self, options: &EstimateOptions) -> u64 {
        match self {
            Draft::Message(message) => estimate_message(message, options),
            Draft::Text(text) => estimate_message(&text_message(Role::User, text.clone(), None), options),
        }
    }
}

/// Reads a UIMessage that is not (yet) a session node; `what` names it in errors: `code` when it is
/// no message object, `invalid` when the message's rules refuse it (a part without its field).
pub fn read_message_like(value: &Value, what: &str, code: ErrorCode, invalid: ErrorCode) -> Result<Message> {
    let Value::Object(map) = value else {
        return Err(Error::new(code, format!("{what} must be a UIMessage object")));
    };
    if map.contains_key("checkpoint") {
        return Err(Error::new(code, format!("{what} must be a message, not a checkpoint")));
    }
    let mut map: Map<String, Value> = map.clone();
    map.entry("id").or_insert_with(|| Value::from(what));
    map.entry("role").or_insert_with(|| Value::from("user"));
    map.remove("parentId");
    let node = Node::from_value(Value::Object(map), 0);
    match node.kind {
        NodeKind::Message(message) => Ok(message),
        NodeKind::Invalid(why) => Err(Error::new(invalid, format!("{what}: {why}"))),
        NodeKind::Checkpoint(_) => Err(Error::new(code, format!("{what} must be a message, not a checkpoint"))),
        NodeKind::DisplayOnly(..) => Err(Error::new(code, format!("{what} must be a message the model receives, not displayOnly"))),
    }
}

fn text_message(role: Role, text: String, metadata: Option<Value>) -> Message {
    Message { role, parts: vec![Part::Text { text }], metadata }
}

/// Reads `overhead`: `{ system?: string, tools?: unknown }` estimated as sent, or `{ tokens: number }`.
/// Fields given together are added (the safe side).
pub fn overhead_tokens(value: &Value) -> Result<u64> {
    let bad = |why: &str| Error::new(ErrorCode::InvalidOptions, format!("overhead.{why}"));
    let Value::Object(map) = value else {
        return Err(Error::new(ErrorCode::InvalidOptions, "overhead must be { system?, tools? } or { tokens }"));
    };
    let mut total: u64 = 0;
    match map.get("tokens") {
        None | Some(Value::Null) => {}
        Some(v) => total += parse_count(v).ok_or_else(|| bad("tokens must be a non-negative integer"))?,
    }
    match map.get("system") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => total = total.saturating_add(estimate_text(s)),
        Some(_) => return Err(bad("system must be a string")),
    }
    match map.get("tools") {
        None | Some(Value::Null) => {}
        Some(Value::String(s)) => total = total.saturating_add(estimate_text(s)),
        Some(tools) => total = total.saturating_add(estimate_json(tools)),
    }
    Ok(total)
}

/// `estimate`'s options after validation.
#[derive(Debug, Clone, Default)]
pub struct EstimateRequest {
    pub draft: Option<Draft>,
    /// Overhead tokens (0 when not given).
    pub overhead: u64,
}

impl EstimateRequest {
    /// Reads `{ draft?, overhead? }`; `None` (an omitted argument) gives the defaults.
    pub fn from_value(value: Option<&Value>) -> Result<EstimateRequest> {
        let Some(value) = value.filter(|v| !v.is_null()) else { return Ok(EstimateRequest::default()) };
        let Value::Object(map) = value else {
            return Err(Error::new(ErrorCode::InvalidOptions, "options must be an object { draft?, overhead? }"));
        };
        let draft = match map.get("draft") {
            None | Some(Value::Null) => None,
            Some(d) => Some(Draft::from_value(d)?),
        };
        let overhead = match map.get("overhead") {
            None | Some(Value::Null) => 0,
            Some(o) => overhead_tokens(o)?,
        };
        Ok(EstimateRequest { draft, overhead })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Usage,
    Estimate,
}

/// The contract's estimate result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Estimate {
    pub tokens: u64,
    /// 'usage': a provider baseline plus estimates after it; 'estimate': no valid baseline.
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(inline))]
    pub source: Source,
    pub baseline_message_id: Option<String>,
    pub baseline_tokens: u64,
    pub estimated_tokens: u64,
    pub safe_input_limit: u64,
    pub fits: bool,
}

/// What never changes about a node once it is in the session.
#[derive(Debug, Clone, Copy)]
struct NodeFacts {
    /// The message estimate; for a checkpoint, the estimate of its projected summary message.
    tokens: u64,
    usage: Option<Usage>,
    /// What the message's own usage does not cover (rule `usage-covers-step`).
    uncovered: u64,
    pending: bool,
    user: bool,
    checkpoint: bool,
    /// A display-only node: on the branch, never a message of the projection.
    display: bool,
    /// A message holding a provider's compaction block (rule `provider-block-boundary`).
    provider_block: bool,
}

/// Per-node facts and per-branch sums, kept in step with a branch that only grows at its leaf.
#[derive(Debug, Clone, Default)]
pub struct BranchTokens {
    options_key: Option<(bool, Option<u64>)>,
    /// By node index in `session.nodes`.
    facts: Vec<Option<NodeFacts>>,
    /// The branch these sums describe (node indices, root to leaf).
    nodes: Vec<usize>,
    /// `prefix[p]` = estimate of the messages at branch positions `< p` (checkpoints count 0).
    prefix: Vec<u64>,
    /// Branch positions of user messages, of messages with a tool that can still complete
    /// (`Message::has_pending_tool`), of assistant messages with
    /// valid usage, and of checkpoints with the start of their projection.
    users: Vec<usize>,
    pending: Vec<usize>,
    usages: Vec<(usize, Usage)>,
    checkpoints: Vec<(usize, usize)>,
    /// Branch positions of messages holding a provider's compaction block.
    provider_blocks: Vec<usize>,
    /// Branch positions of display-only nodes (not messages: `message_count` leaves them out).
    display: Vec<usize>,
    /// Work counters (nodes estimated, branch positions summed), so tests can check incrementality.
    nodes_estimated: usize,
    positions_summed: usize,
    /// The summary frame of the current span, filled when a plan asks for it (`&self` there).
    frame: RefCell<FrameCache>,
}

/// The projection of the branch as positions: where it starts and which checkpoint counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProjectionSpan {
    /// Branch position of the newest checkpoint.
    pub checkpoint: Option<usize>,
    /// First branch position whose messages are projected: the previous boundary (0 without checkpoint),
    /// or the newest provider compaction block after it (rule `provider-block-boundary`).
    pub start: usize,
    /// One past the leaf.
    pub end: usize,
    /// Where the next checkpoint's summarized range starts: the previous boundary, also when a provider
    /// block moved `start` (the package reads its own history for the ledger and the registers).
    pub fold_start: usize,
    /// The checkpoint whose summary message is sent: `checkpoint`, unless a provider block follows it.
    pub summary: Option<usize>,
}

impl BranchTokens {
    /// Brings the cache in step with `branch_nodes`. When the cached branch is a prefix of it (the leaf
    /// moved to a descendant), only the new nodes are read; otherwise the sums are rebuilt from the facts.
    /// A branch is a root-ward chain, so the same node at the same position means the same prefix.
    pub fn sync(&mut self, session: &Session, branch_nodes: &[usize], options: &EstimateOptions) {
        let key = (options.replays_reasoning, options.image_tokens);
        if self.options_key != Some(key) {
            let (nodes_estimated, positions_summed) = self.work();
            let mut frame = std::mem::take(self.frame.get_mut());
            frame.forget_span();
            *self = BranchTokens {
                options_key: Some(key),
                nodes_estimated,
                positions_summed,
                frame: RefCell::new(frame),
                ..BranchTokens::default()
            };
        }
        let cached = self.nodes.len();
        let is_prefix = cached <= branch_nodes.len() && (cached == 0 || branch_nodes[cached - 1] == self.nodes[cached - 1]);
        if !is_prefix {
            self.nodes.clear();
            self.users.clear();
            self.pending.clear();
            self.usages.clear();
            self.checkpoints.clear();
            self.provider_blocks.clear();
            self.display.clear();
            self.frame.get_mut().forget_span();
        }
        if self.prefix.is_empty() || !is_prefix {
            self.prefix = vec![0];
        }
        if self.facts.len() < session.nodes.len() {
            self.facts.resize(session.nodes.len(), None);
        }
        for &index in &branch_nodes[self.nodes.len()..] {
            let facts = match self.facts[index] {
                Some(f) => f,
                None => {
                    self.nodes_estimated += 1;
                    let f = node_facts(&session.nodes[index], options);
                    self.facts[index] = Some(f);
                    f
                }
            };
            let position = self.nodes.len();
            self.positions_summed += 1;
            self.nodes.push(index);
            let last = self.prefix.last().copied().unwrap_or(0);
            self.prefix.push(if facts.checkpoint { last } else { last.saturating_add(facts.tokens) });
            if facts.user {
                self.users.push(position);
            }
            if facts.pending {
                self.pending.push(position);
            }
            if facts.display {
                self.display.push(position);
            }
            if facts.provider_block {
                self.provider_blocks.push(position);
            }
            if let Some(usage) = facts.usage {
                self.usages.push((position, usage));
            }
            if facts.checkpoint {
                let start = projection_start(session, &self.nodes, position);
                self.checkpoints.push((position, start));
            }
        }
    }

    /// Forgets what was read of node `index`, replaced in place: its facts, the sums from its branch
    /// position on and its ledger entries. The next sync reads it again and sums from there.
    pub fn forget_node(&mut self, index: usize) {
        if let Some(facts) = self.facts.get_mut(index) {
            *facts = None;
        }
        if let Some(position) = self.nodes.iter().position(|&i| i == index) {
            self.nodes.truncate(position);
            self.prefix.truncate(position + 1);
            self.users.retain(|&p| p < position);
            self.pending.retain(|&p| p < position);
            self.usages.retain(|&(p, _)| p < position);
            self.checkpoints.retain(|&(p, _)| p < position);
            self.provider_blocks.retain(|&p| p < position);
            self.display.retain(|&p| p < position);
        }
        self.frame.get_mut().forget_node(index);
    }

    /// How many nodes have been estimated and how many branch positions summed since creation.
    pub fn work(&self) -> (usize, usize) {
        (self.nodes_estimated, self.positions_summed)
    }

    /// Branch positions in the cache.
    pub fn synced(&self) -> usize {
        self.nodes.len()
    }

    /// Rule `provider-block-boundary` (issue 39): the provider drops everything before its newest
    /// compaction block, so when one lies in the package's projection the projection starts there and the
    /// package's summary is not sent (it would be sent, counted and ignored, and fold the block later).
    pub fn span(&self) -> ProjectionSpan {
        let (checkpoint, fold_start) = match self.checkpoints.last() {
            Some(&(checkpoint, start)) => (Some(checkpoint), start),
            None => (None, 0),
        };
        let block = self.provider_blocks.last().copied().filter(|&b| b >= fold_start);
        ProjectionSpan {
            checkpoint,
            start: block.unwrap_or(fold_start),
            end: self.nodes.len(),
            fold_start,
            summary: checkpoint.filter(|_| block.is_none()),
        }
    }

    /// Estimate of the messages at branch positions `from..to`.
    pub fn sum(&self, from: usize, to: usize) -> u64 {
        let at = |p: usize| self.prefix.get(p).copied().unwrap_or(0);
        at(to).saturating_sub(at(from))
    }

    /// Number of message nodes (not checkpoints) at positions `from..to`.
    pub fn message_count(&self, from: usize, to: usize) -> usize {
        if to <= from {
            return 0;
        }
        let lo = self.checkpoints.partition_point(|&(p, _)| p < from);
        let hi = self.checkpoints.partition_point(|&(p, _)| p < to);
        let shown = self.display.partition_point(|&p| p < to) - self.display.partition_point(|&p| p < from);
        (to - from) - (hi - lo) - shown
    }

    /// Branch positions of user messages at or after `start`.
    pub fn user_positions_from(&self, start: usize) -> &[usize] {
        &self.users[self.users.partition_point(|&p| p < start)..]
    }

    /// Rule `interrupted-tool` (`model::pending_workflow`): a message with a tool that can still
    /// complete, and no user message after it on the branch.
    pub fn has_pending_workflow(&self) -> bool {
        self.pending.last().is_some_and(|&p| self.users.last().is_none_or(|&u| p >= u))
    }

    /// Branch position of the newest user message at or after `start`.
    pub fn newest_user_from(&self, start: usize) -> Option<usize> {
        self.users.last().copied().filter(|&u| u >= start)
    }

    pub fn node_at(&self, position: usize) -> Option<usize> {
        self.nodes.get(position).copied()
    }

    /// Tokens of the projected summary message of the checkpoint at `position`.
    pub fn summary_tokens(&self, position: usize) -> u64 {
        self.node_at(position).and_then(|i| self.facts.get(i).copied().flatten()).map_or(0, |f| f.tokens)
    }

    /// The newest valid and plausible usage after `span.checkpoint` (rules `baseline-after-checkpoint`,
    /// `baseline-plausible`), with its branch position.
    pub fn baseline(&self, span: &ProjectionSpan) -> Option<(usize, Usage)> {
        let summary = span.summary.map_or(0, |c| self.summary_tokens(c));
        self.usages
            .iter()
            .rev()
            .take_while(|&&(p, _)| p >= span.start && span.checkpoint.is_none_or(|c| p > c))
            .find(|&&(p, usage)| {
                let request = summary.saturating_add(self.sum(span.start, p));
                usage.input.saturating_mul(BASELINE_PLAUSIBILITY_FACTOR) >= request
            })
            .copied()
    }

    /// What the message at branch `position` stored after the step its usage covers.
    pub fn uncovered_at(&self, position: usize) -> u64 {
        self.node_at(position).and_then(|i| self.facts.get(i).copied().flatten()).map_or(0, |f| f.uncovered)
    }

    /// The estimate of the projection, plus the draft when given (rules in the module comment).
    pub fn estimate(&self, session: &Session, model: &ModelProfile, safe_input_limit: u64, draft_tokens: u64, overhead: u64) -> Estimate {
        let span = self.span();
        let (source, baseline_message_id, baseline_tokens, estimated_tokens) = match self.baseline(&span) {
            Some((position, usage)) => (
                Source::Usage,
                self.node_at(position).map(|i| session.nodes[i].id.clone()),
                usage.occupancy(model.replays_reasoning),
                self.uncovered_at(position).saturating_add(self.sum(position + 1, span.end)).saturating_add(draft_tokens),
            ),
            None => {
                let summary = span.summary.map_or(0, |c| self.summary_tokens(c));
                let messages = self.sum(span.start, span.end);
                (Source::Estimate, None, 0, summary.saturating_add(messages).saturating_add(overhead).saturating_add(draft_tokens))
            }
        };
        let tokens = baseline_tokens.saturating_add(estimated_tokens);
        Estimate {
            tokens,
            source,
            baseline_message_id,
            baseline_tokens,
            estimated_tokens,
            safe_input_limit,
            fits: tokens <= safe_input_limit,
        }
    }

    /// Estimate of the summary message a new checkpoint will project, without its summary text (see
    /// `summary_frame`). The merged ledger is kept for the current span: after one appended message only
    /// that message's ledger entries are merged.
    pub fn summary_frame_tokens(&self, session: &Session, options: &EstimateOptions) -> u64 {
        let span = self.span();
        let checkpoint = span.checkpoint.and_then(|c| self.node_at(c));
        let mut frame = self.frame.borrow_mut();
        frame.read_span(session, &self.nodes, checkpoint, span.fold_start, span.end, u64::MAX);
        frame.figure(options)
    }

    /// The largest summary frame along the current span, read only until it reaches `limit`
    /// (`FrameCache::peak`): what a plan counts, at most its bound.
    pub fn summary_frame_peak(&self, session: &Session, limit: u64) -> u64 {
        let span = self.span();
        let checkpoint = span.checkpoint.and_then(|c| self.node_at(c));
        let mut frame = self.frame.borrow_mut();
        frame.read_span(session, &self.nodes, checkpoint, span.fold_start, span.end, limit);
        frame.peak()
    }

    /// Merges the ledger entries of up to `count` more positions of the current span into the summary
    /// frame (what the first plan of a long unsummarized branch reads); true once it holds the span, or
    /// once the frame passed the bound of any model's (a plan reads no further; `summary_frame_peak`).
    pub fn warm_frame(&self, session: &Session, count: usize) -> bool {
        let span = self.span();
        let checkpoint = span.checkpoint.and_then(|c| self.node_at(c));
        let mut frame = self.frame.borrow_mut();
        let end = frame.merged_through(checkpoint, span.fold_start).saturating_add(count).min(span.end);
        let limit = super::frame::largest_frame_bound().saturating_sub(super::frame::JOIN_SLACK_TOKENS);
        frame.read_span(session, &self.nodes, checkpoint, span.fold_start, end, limit);
        end == span.end || frame.peak() >= limit
    }

    /// (message nodes whose ledger entries were collected, ledger entries merged) since creation.
    pub fn ledger_work(&self) -> (usize, usize) {
        self.frame.borrow().work()
    }
}

/// The projected summary message (`projection::summary_message`, one path for what is sent and counted).
fn summary_message(checkpoint: &Checkpoint) -> Message {
    match Node::from_value(crate::projection::summary_message("summary", checkpoint), 0).kind {
        NodeKind::Message(message) => message,
        _ => text_message(Role::User, summary_message_text(checkpoint), Some(json!({ "checkpoint": true }))),
    }
}

fn node_facts(node: &Node, options: &EstimateOptions) -> NodeFacts {
    match &node.kind {
        NodeKind::Message(message) => NodeFacts {
            tokens: estimate_message(message, options),
            usage: if message.role == Role::Assistant { message_usage(message.metadata.as_ref()) } else { None },
            uncovered: if message.role == Role::Assistant { uncovered_tokens(message, options) } else { 0 },
            pending: message.has_pending_tool(),
            user: message.role == Role::User,
            checkpoint: false,
            display: false,
            provider_block: message.parts.iter().any(|p| matches!(p, Part::ProviderCompaction { .. })),
        },
        NodeKind::Checkpoint(checkpoint) => NodeFacts {
            tokens: estimate_message(&summary_message(checkpoint), options),
            usage: None,
            uncovered: 0,
            pending: false,
            user: false,
            checkpoint: true,
            display: false,
            provider_block: false,
        },
        // Never sent, so never counted, never a turn start and never a pending workflow.
        NodeKind::DisplayOnly(..) => {
            NodeFacts { tokens: 0, usage: None, uncovered: 0, pending: false, user: false, checkpoint: false, display: true, provider_block: false }
        }
        NodeKind::Invalid(_) => {
            NodeFacts { tokens: 0, usage: None, uncovered: 0, pending: false, user: false, checkpoint: false, display: false, provider_block: false }
        }
    }
}

/// Where the projection of the checkpoint at `position` starts: its `firstKeptMessageId` on the branch
/// above it, else the checkpoint itself (no verbatim tail), as `projection::project_branch` does.
fn projection_start(session: &Session, nodes: &[usize], position: usize) -> usize {
    let checkpoint = nodes.get(position).and_then(|&i| session.nodes[i].checkpoint());
    let Some(kept) = checkpoint.and_then(|c| c.first_kept_message_id.as_deref()) else { return position };
    nodes[..position]
        .iter()
        .rposition(|&i| session.nodes[i].id == kept && session.nodes[i].message().is_some())
        .unwrap_or(position)
}

/// Stateless `estimate(session, model, { draft?, overhead? })`. A session with integrity problems is an
/// error (the first problem's code), as for `project`.
pub fn estimate(session: &Session, model: &ModelProfile, request: &EstimateRequest) -> Result<Estimate> {
    let branch = read_branch(session);
    let mut tokens = BranchTokens::default();
    estimate_branch(session, &branch, &mut tokens, model, request)
}

/// `estimate` over an already read branch and a cache that may hold earlier work.
pub fn estimate_branch(
    session: &Session,
    branch: &Branch,
    tokens: &mut BranchTokens,
    model: &ModelProfile,
    request: &EstimateRequest,
) -> Result<Estimate> {
    let capacity = capacity(model)?;
    branch.require_readable()?;
    let options = model.estimate_options();
    tokens.sync(session, &branch.nodes, &options);
    let draft = request.draft.as_ref().map_or(0, |d| d.tokens(&options));
    Ok(tokens.estimate(session, model, capacity.safe_input_limit, draft, request.overhead))
}

/// `estimateMessage(message, model?)`: one message's conservative estimate.
pub fn estimate_one_message(message: &Value, model: Option<&ModelProfile>) -> Result<u64> {
    // A display-only node costs a request nothing: it is never sent.
    if message.get("displayOnly").is_some() && message.get("checkpoint").is_none() {
        let mut map = message.as_object().cloned().unwrap_or_default();
        map.entry("id").or_insert_with(|| Value::from("message"));
        map.remove("parentId");
        return match Node::from_value(Value::Object(map), 0).kind {
            NodeKind::Invalid(why) => Err(Error::new(ErrorCode::InvalidMessage, format!("message: {why}"))),
            _ => Ok(0),
        };
    }
    let message = read_message_like(message, "message", ErrorCode::InvalidMessage, ErrorCode::InvalidMessage)?;
    Ok(estimate_message(&message, &one_message_options(model)?))
}

/// A message for `estimateMessage`, as read from its JSON text.
pub enum MessageText {
    /// Read by the typed reader (no `Value` tree; text and tool data scanned where they lie).
    Read(Message),
    /// Anything else (no id, odd fields, a checkpoint...): the tree, whose rules and errors decide.
    Tree(Value),
}

impl MessageText {
    /// Reads the text; only invalid JSON fails here (`invalid-message`), as the tree parse did.
    pub fn read(text: &str) -> Result<MessageText> {
        if let Some(Node { kind: NodeKind::Message(message), .. }) = Node::read_text(text) {
            return Ok(MessageText::Read(message));
        }
        crate::text::parse_lenient(text)
            .map(MessageText::Tree)
            .map_err(|e| Error::new(ErrorCode::InvalidMessage, e.to_string()))
    }

    /// `estimate_one_message` of the message.
    pub fn estimate(&self, model: Option<&ModelProfile>) -> Result<u64> {
        match self {
            MessageText::Read(message) => Ok(estimate_message(message, &one_message_options(model)?)),
            MessageText::Tree(value) => estimate_one_message(value, model),
        }
    }
}

fn one_message_options(model: Option<&ModelProfile>) -> Result<EstimateOptions> {
    Ok(match model {
        Some(model) => {
            model.validate()?;
            model.estimate_options()
        }
        None => EstimateOptions { replays_reasoning: false, image_tokens: None },
    })
}
