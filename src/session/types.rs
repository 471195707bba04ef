//! The session model: typed views of AI SDK `UIMessage` nodes and checkpoint nodes.

use serde::Serialize;
use serde_json::Value;

use crate::zotero::ResourceLedger;
use super::carried::{CitedPage, UserWords};

/// Largest integer a JS number holds exactly; revisions and token counts above it are rejected.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// `{ nodes, leafId, branchRevision }`. `leafId` is null only for a session without nodes yet
/// (what a store's createSession gives); every operation treats it as an empty branch.
#[derive(Debug, Clone)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename_all = "camelCase"))]
pub struct Session {
    pub nodes: Vec<Node>,
    /// `None` only for a session with no leaf yet (`leafId: null`).
    pub leaf_id: Option<String>,
    pub branch_revision: u64,
}

/// A durable node of the session tree: a checkpoint iff it has `checkpoint` (the contract's `SessionNode`).
#[derive(Debug, Clone)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename = "SessionNode", type = "MessageNode | CheckpointNode"))]
pub struct Node {
    /// Empty when the node has no usable id (its kind is then `Invalid`).
    pub id: String,
    pub parent_id: Option<String>,
    pub created_at: Option<f64>,
    pub kind: NodeKind,
    /// The node exactly as given; projections return it unchanged.
    pub raw: RawJson,
}

/// JSON text kept instead of its parsed tree (a fraction of the memory and of the parse time): a
/// whole node, or a tool's input or output. The paths that need the tree (nodes handed back, tool
/// data rendered for a summary) parse it again; estimates scan the text as it is sent. A tool's input
/// and output read from a node's text are ranges of that node's text, not copies of it.
#[derive(Clone)]
pub struct RawJson {
    text: std::sync::Arc<str>,
    start: usize,
    end: usize,
}

/// Compared and shown as JSON values, so texts that differ only in key order or spacing agree.
impl PartialEq for RawJson {
    fn eq(&self, other: &RawJson) -> bool {
        self.as_str() == other.as_str() || self.to_value() == other.to_value()
    }
}

impl std::fmt::Debug for RawJson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_value())
    }
}

impl RawJson {
    pub fn from_value(value: &Value) -> RawJson {
        RawJson::from_parsed_text(&value.to_string())
    }

    /// Text that is known to be one JSON value (a slice the parser produced).
    pub(crate) fn from_parsed_text(text: &str) -> RawJson {
        RawJson { text: text.into(), start: 0, end: text.len() }
    }

    /// `part` (one JSON value the parser found inside `self.as_str()`) as a range of this text; a copy
    /// if it lies elsewhere.
    pub(crate) fn range_of(&self, part: &str) -> RawJson {
        let offset = (part.as_ptr() as usize).wrapping_sub(self.as_str().as_ptr() as usize);
        match self.as_str().get(offset..offset.wrapping_add(part.len())) {
            Some(range) if std::ptr::eq(range, part) => {
                RawJson { text: self.text.clone(), start: self.start + offset, end: self.start + offset + part.len() }
            }
            _ => RawJson::from_parsed_text(part),
        }
    }

    pub fn as_str(&self) -> &str {
        &self.text[self.start..self.end]
    }

    pub fn to_value(&self) -> Value {
        // The text came out of the JSON parser or serializer, so it parses; `null` is unreachable.
        serde_json::from_str(self.as_str()).unwrap_or(Value::Null)
    }

    pub fn is_null(&self) -> bool {
        self.as_str() == "null"
    }

    /// The string this text is, when it is a JSON string.
    pub fn as_string(&self) -> Option<std::borrow::Cow<'_, str>> {
        let text = self.as_str();
        if !text.starts_with('"') {
            return None;
        }
        match serde_json::from_str::<&str>(text) {
            Ok(plain) => Some(plain.into()),
            // Escapes need an owned string.
            Err(_) => serde_json::from_str::<String>(text).ok().map(Into::into),
        }
    }
}

#[derive(Debug, Clone)]
pub enum NodeKind {
    Message(Message),
    /// A message with `displayOnly`: on the branch and in the history, never sent, counted, summarized
    /// or cut at (every stage reads messages through `Node::message`, which does not return it).
    DisplayOnly(Message, DisplayOnly),
    Checkpoint(Checkpoint),
    /// The node could not be read; the string says why (field and reason).
    Invalid(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
    System,
}

/// A conversational node: an AI SDK UIMessage plus its parent. `checkpoint` is never set on it; with
/// `displayOnly` the history shows it and the model never receives it.
#[derive(Debug, Clone)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename = "MessageNode", type = "UIMessage & { parentId: string | null; createdAt?: number; checkpoint?: never; displayOnly?: DisplayOnly }"))]
pub struct Message {
    pub role: Role,
    pub parts: Vec<Part>,
    pub metadata: Option<Value>,
}

/// `displayOnly` of a message node: a row the history shows and the model never receives (a
/// "context compacted" or model-switch marker, a runtime notice); `kind` is the app's own name for it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
pub struct DisplayOnly {
    /// Non-empty, chosen by the app (e.g. `'model-switch'`).
    pub kind: String,
}

/// One part of a UIMessage, as the AI SDK (v5 and v6) defines it.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text { text: String },
    /// `provider_metadata` (a signature, encrypted reasoning) goes back to the provider with the
    /// text when the model replays reasoning, so it is priced with it.
    Reasoning { text: String, provider_metadata: Option<RawJson> },
    File { media_type: String, filename: Option<String>, url: String },
    SourceUrl { source_id: String, url: String, title: Option<String> },
    SourceDocument { source_id: String, media_type: String, title: String, filename: Option<String> },
    StepStart,
    /// `tool-<name>` (static) and `dynamic-tool` parts.
    Tool(ToolPart),
    /// `data-<name>` parts; `name` is without the `data-` prefix.
    Data { name: String, id: Option<String>, data: Value },
    /// A provider's own compaction (issue 39): Anthropic's `compaction` block, which the AI SDK stores as a
    /// text part whose `providerMetadata.<provider>.type` is `"compaction"` (readable: `text`), or OpenAI's
    /// `openai.compaction` custom part (encrypted: `text` is None, `encrypted_chars` its length).
    /// The provider drops everything before it on later requests (`projection::provider_block`).
    ProviderCompaction { provider: String, text: Option<String>, encrypted_chars: u64 },
    /// A part type this version does not know: kept as opaque JSON, never rejected.
    Unknown { part_type: String, value: Value },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ToolPart {
    pub tool_name: String,
    pub dynamic: bool,
    pub tool_call_id: String,
    pub state: ToolState,
    pub input: Option<RawJson>,
    pub output: Option<RawJson>,
    pub error_text: Option<String>,
    pub approval: Option<Approval>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolState {
    InputStreaming,
    InputAvailable,
    ApprovalRequested,
    ApprovalResponded,
    OutputAvailable,
    OutputError,
    OutputDenied,
    /// A state this version does not know; treated as unfinished (the safe side for compaction).
    Other(String),
}

impl ToolState {
    pub fn parse(state: &str) -> ToolState {
        match state {
            "input-streaming" => ToolState::InputStreaming,
            "input-available" => ToolState::InputAvailable,
            "approval-requested" => ToolState::ApprovalRequested,
            "approval-responded" => ToolState::ApprovalResponded,
            "output-available" => ToolState::OutputAvailable,
            "output-error" => ToolState::OutputError,
            "output-denied" => ToolState::OutputDenied,
            other => ToolState::Other(other.to_string()),
        }
    }

    pub fn as_str(&self) -> &str {
        match self {
            ToolState::InputStreaming => "input-streaming",
            ToolState::InputAvailable => "input-available",
            ToolState::ApprovalRequested => "approval-requested",
            ToolState::ApprovalResponded => "approval-responded",
            ToolState::OutputAvailable => "output-available",
            ToolState::OutputError => "output-error",
            ToolState::OutputDenied => "output-denied",
            ToolState::Other(s) => s,
        }
    }

    /// Not a final state: the call still waits for input, execution or approval (or was interrupted).
    pub fn is_pending(&self) -> bool {
        !matches!(self, ToolState::OutputAvailable | ToolState::OutputError | ToolState::OutputDenied)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Approval {
    pub id: String,
    pub approved: Option<bool>,
    pub reason: Option<String>,
}

/// How a compaction was asked for: by the user, at the automatic threshold, or before a send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename = "CompactionMode"))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Manual,
    Auto,
    Preflight,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Manual => "manual",
            Mode::Auto => "auto",
            Mode::Preflight => "preflight",
        }
    }
}

/// The branch state a plan or summary was made from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Basis {
    pub leaf_id: String,
    pub branch_revision: u64,
}

/// A compaction checkpoint's content (the `checkpoint` of a `CheckpointNode`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    /// The structured research checkpoint (eight sections).
    pub summary: String,
    /// First message kept verbatim; null = no verbatim tail.
    pub first_kept_message_id: Option<String>,
    /// The checkpoint this one folded in.
    pub previous_checkpoint_id: Option<String>,
    pub mode: Mode,
    /// Projected context before, as estimated.
    pub tokens_before: u64,
    /// Projected context after, as estimated.
    pub tokens_after: u64,
    #[serde(default)]
    pub ledger: ResourceLedger,
    pub basis: Basis,
    /// Most tokens of ledger lines projected beside the summary, fixed from the model's capacity when
    /// the checkpoint was made (`capacity::projected_ledger_budget`: a quarter of the summary budget,
    /// 212 on 8k, 2,056 from 128k up). Absent in checkpoints written before it existed: those keep
    /// the older rule (`ledger::projected_budget`, an eighth of the summary's estimate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional))]
    pub ledger_budget: Option<u64>,
    /// The user's messages summarized so far, oldest first, carried by code (`registers`); absent in
    /// checkpoints written before the register existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub user_words: Vec<UserWords>,
    /// Most tokens of the user's words projected beside the summary, fixed from the model's capacity
    /// when the checkpoint was made (`capacity::register_budgets`: 326 on 8k, 3,276 from 128k up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional))]
    pub user_words_budget: Option<u64>,
    /// Sentences naming a ledger key with a page or locator, oldest first, carried by code.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cited_pages: Vec<CitedPage>,
    /// Most tokens of cited pages projected beside the summary, fixed like `userWordsBudget` (163 on
    /// 8k, 1,638 from 128k up).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional))]
    pub cited_pages_budget: Option<u64>,
    /// The summary's budget when the checkpoint was made (the request's `maxOutputTokens`): what the
    /// summary leaves of it goes to the registers when projected (rule `registers-take-unused-summary`),
    /// shown as more of the user's words and cited pages (still within `tokensAfter`). Absent in
    /// older checkpoints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional))]
    pub summary_budget: Option<u64>,
    /// The folded tool outputs the recall tool reads back, `"<toolName> <toolCallId>"`, oldest first,
    /// carried by code (rule `recall-handles`); absent in checkpoints written before they existed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recall_handles: Vec<String>,
    /// The provider's own compaction when a provider summarized (issue 39, `providerCompaction`):
    /// Anthropic's signed block or OpenAI's encrypted item as a UIMessage part. The summary message is
    /// then the assistant message the provider requires, this part first; `summary` stays the readable
    /// text any other model receives. A part that is not a provider's compaction is ignored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(skip))]
    pub provider_part: Option<Value>,
    /// The text of its projected summary message once made (`projection::summary_message_text`): a
    /// held session's next estimate and projection both read it, and a late fold's registers take
    /// milliseconds to choose from. Not part of the checkpoint: never written, never compared, not
    /// copied with it (a copy may be changed; the checkpoints of a session never are).
    #[serde(skip)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(skip))]
    pub rendered: Rendered,
}

/// A text made once from the value that holds it (which never changes once read), kept beside it.
#[derive(Default)]
pub struct Rendered(std::cell::OnceCell<String>);

impl Clone for Rendered {
    fn clone(&self) -> Rendered {
        Rendered::default()
    }
}

impl Rendered {
    pub fn get_or_init(&self, make: impl FnOnce() -> String) -> &str {
        self.0.get_or_init(make)
    }
}

impl PartialEq for Rendered {
    fn eq(&self, _: &Rendered) -> bool {
        true
    }
}

impl std::fmt::Debug for Rendered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Rendered")
    }
}

impl Node {

    /// The message the model receives: never a display-only node's.
    pub fn message(&self) -> Option<&Message> {
        match &self.kind {
            NodeKind::Message(m) => Some(m),
            _ => None,
        }
    }

    /// The `displayOnly` of a display-only message node.
    pub fn display_only(&self) -> Option<&DisplayOnly> {
        match &self.kind {
            NodeKind::DisplayOnly(_, display) => Some(display),
            _ => None,
        }
    }

    pub fn checkpoint(&self) -> Option<&Checkpoint> {
        match &self.kind {
            NodeKind::Checkpoint(c) => Some(c),
            _ => None,
        }
    }

    pub fn is_user_message(&self) -> bool {
        self.message().is_some_and(|m| m.role == Role::User)
    }

    pub fn is_assistant_message(&self) -> bool {
        self.message().is_some_and(|m| m.role == Role::Assistant)
    }

    /// How to name this node in an error or problem message.
    pub fn label(&self, index: usize) -> String {
        if self.id.is_empty() {
            format!("#{index}")
        } else {
            self.id.clone()
        }
    }
}

/// What a node reads as: id, parent id, creation time and kind.
pub type ReadNode = (String, Option<String>, Option<f64>, NodeKind);
