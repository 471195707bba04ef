//! The session model: typed views of AI SDK `UIMessage` nodes and checkpoint nodes, parsed from JSON.
//!
//! Session-level defects (not an object, `nodes` not an array, bad `leafId`/`branchRevision`) are errors.
//! Node-level defects never fail the parse: the node becomes `NodeKind::Invalid` and `tree::read_branch`
//! reports it, so a corrupt session can still be read (read-only) and is never rewritten.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Result};
use crate::ledger::ResourceLedger;

/// Largest integer a JS number holds exactly; revisions and token counts above it are rejected.
pub const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

#[derive(Debug, Clone)]
pub struct Session {
    pub nodes: Vec<Node>,
    /// `None` only for a session with no leaf yet (`leafId: null`).
    pub leaf_id: Option<String>,
    pub branch_revision: u64,
}

#[derive(Debug, Clone)]
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

#[derive(Debug, Clone)]
pub struct Message {
    pub role: Role,
    pub parts: Vec<Part>,
    pub metadata: Option<Value>,
}

/// One part of a UIMessage, as the AI SDK (v5 and v6) defines it.
#[derive(Debug, Clone, PartialEq)]
pub enum Part {
    Text { text: String },
    Reasoning { text: String },
    File { media_type: String, filename: Option<String>, url: String },
    SourceUrl { source_id: String, url: String, title: Option<String> },
    SourceDocument { source_id: String, media_type: String, title: String, filename: Option<String> },
    StepStart,
    /// `tool-<name>` (static) and `dynamic-tool` parts.
    Tool(ToolPart),
    /// `data-<name>` parts; `name` is without the `data-` prefix.
    Data { name: String, id: Option<String>, data: Value },
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Basis {
    pub leaf_id: String,
    pub branch_revision: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Checkpoint {
    pub summary: String,
    pub first_kept_message_id: Option<String>,
    pub previous_checkpoint_id: Option<String>,
    pub mode: Mode,
    pub tokens_before: u64,
    pub tokens_after: u64,
    #[serde(default)]
    pub ledger: ResourceLedger,
    pub basis: Basis,
    /// Most tokens of ledger lines projected beside the summary, fixed from the model's capacity when
    /// the checkpoint was made (`capacity::projected_ledger_budget`). Absent in checkpoints written
    /// before it existed: those keep the older rule (`ledger::projected_budget`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ledger_budget: Option<u64>,
}

/// Writes `[text,text,...]` of the nodes at `positions`: each node exactly as given (numbers as
/// written: a `Value` round trip could read a 17-digit number back one unit off).
/// `write_node_texts` into a new string.
pub fn node_texts(session: &Session, positions: impl Iterator<Item = usize>) -> String {
    let mut out = String::new();
    write_node_texts(&mut out, session, positions);
    out
}

pub fn write_node_texts(out: &mut String, session: &Session, positions: impl Iterator<Item = usize>) {
    out.push('[');
    for (k, i) in positions.enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(session.nodes[i].raw.as_str());
    }
    out.push(']');
}

impl Session {
    /// `{ nodes, leafId, branchRevision }` as JSON text, every node exactly as given.
    pub fn to_json_text(&self) -> String {
        let mut out = String::from("{\"nodes\":");
        write_node_texts(&mut out, self, 0..self.nodes.len());
        out.push_str(",\"leafId\":");
        out.push_str(&Value::from(self.leaf_id.clone()).to_string());
        out.push_str(",\"branchRevision\":");
        out.push_str(&self.branch_revision.to_string());
        out.push('}');
        out
    }

    /// Parses a session from JSON text (what the bindings receive from `JSON.stringify`).
    ///
    /// Nodes are read straight from their text (`node_text`); a node that path cannot vouch for, and
    /// any session that is not plainly well-formed, goes through `from_value`, which has every rule.
    pub fn from_json_str(text: &str) -> Result<Session> {
        if let Some(session) = Session::from_node_texts(text) {
            return Ok(session);
        }
        Session::from_value_text(text)
    }

    /// The `from_value` rules on `text`, each node keeping its own text as its raw form (numbers as
    /// written, not re-serialized from their parsed doubles). A session whose nodes cannot be cut
    /// out of the text (e.g. a duplicate `nodes` key) keeps the re-serialized nodes.
    pub fn from_value_text(text: &str) -> Result<Session> {
        let value: Value = crate::json_text::parse_lenient(text)
            .map_err(|e| Error::new(ErrorCode::InvalidSession, format!("session is not valid JSON: {e}")))?;
        let mut session = Session::from_value(value)?;
        // Cut from the text as the tree read it: lone surrogates replaced as `parse_lenient` does.
        let fixed = crate::json_text::replace_lone_surrogates(text);
        if let Ok(texts) = serde_json::from_str::<NodeTexts>(&fixed) {
            if texts.nodes.len() == session.nodes.len() {
                for (node, raw) in session.nodes.iter_mut().zip(&texts.nodes) {
                    node.keep_text(raw.get());
                }
            }
        }
        Ok(session)
    }

    fn from_node_texts(text: &str) -> Option<Session> {
        // Deep nesting is left to the tree parser, whose depth limit makes it an error; so are lone
        // surrogates (`\ud800`), which the probe's string parse rejects and `parse_lenient` replaces.
        if !text.trim_start().starts_with('{') || crate::json_text::nests_deeper_than(text, 64) {
            return None;
        }
        let session: crate::node_text::SessionText = serde_json::from_str(text).ok()?;
        let leaf_id = match session.leaf_id {
            Value::String(s) if !s.is_empty() => Some(s),
            Value::Null => None,
            _ => return None,
        };
        let branch_revision = parse_count(&session.branch_revision)?;
        let nodes = session
            .nodes
            .iter()
            .enumerate()
            .map(|(i, raw)| {
                let text = raw.get();
                Some(match Node::from_node_text(text) {
                    Some(node) => node,
                    None => {
                        let mut node = Node::from_value(serde_json::from_str(text).ok()?, i);
                        node.keep_text(text);
                        node
                    }
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Session { nodes, leaf_id, branch_revision })
    }

    pub fn from_value(value: Value) -> Result<Session> {
        let Value::Object(mut map) = value else {
            return Err(Error::new(ErrorCode::InvalidSession, "session must be an object { nodes, leafId, branchRevision }"));
        };
        let leaf_id = match map.get("leafId") {
            Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
            Some(Value::Null) => None,
            Some(Value::String(_)) => {
                return Err(Error::new(ErrorCode::InvalidSession, "session.leafId must not be empty"))
            }
            Some(_) => return Err(Error::new(ErrorCode::InvalidSession, "session.leafId must be a string or null")),
            None => return Err(Error::new(ErrorCode::InvalidSession, "session.leafId is missing")),
        };
        let branch_revision = match map.get("branchRevision") {
            Some(v) => parse_count(v)
                .ok_or_else(|| Error::new(ErrorCode::InvalidSession, "session.branchRevision must be a non-negative integer"))?,
            None => return Err(Error::new(ErrorCode::InvalidSession, "session.branchRevision is missing")),
        };
        let nodes = match map.remove("nodes") {
            Some(Value::Array(nodes)) => nodes,
            Some(_) => return Err(Error::new(ErrorCode::InvalidSession, "session.nodes must be an array")),
            None => return Err(Error::new(ErrorCode::InvalidSession, "session.nodes is missing")),
        };
        let nodes = nodes.into_iter().enumerate().map(|(i, raw)| Node::from_value(raw, i)).collect();
        Ok(Session { nodes, leaf_id, branch_revision })
    }
}

/// The text of each node of a session, for `Session::from_value_text`.
#[derive(serde::Deserialize)]
struct NodeTexts<'a> {
    #[serde(borrow)]
    nodes: Vec<&'a serde_json::value::RawValue>,
}

/// The text of each tool's input and output in a node, for `Node::keep_text`.
#[derive(serde::Deserialize)]
struct PartTexts<'a> {
    #[serde(borrow)]
    parts: Vec<Option<ToolTexts<'a>>>,
}

#[derive(serde::Deserialize)]
struct ToolTexts<'a> {
    #[serde(borrow, default)]
    input: Option<&'a serde_json::value::RawValue>,
    #[serde(borrow, default)]
    output: Option<&'a serde_json::value::RawValue>,
}

/// A non-negative integer a JS number holds exactly.
pub fn parse_count(value: &Value) -> Option<u64> {
    if let Some(n) = value.as_u64() {
        return (n as f64 <= MAX_SAFE_INTEGER).then_some(n);
    }
    let f = value.as_f64()?;
    (f.is_finite() && f >= 0.0 && f.fract() == 0.0 && f <= MAX_SAFE_INTEGER).then_some(f as u64)
}

impl Node {
    /// Reads one node; `index` names it in messages when it has no usable id.
    pub fn from_value(value: Value, index: usize) -> Node {
        let raw = RawJson::from_value(&value);
        match read_node(&value, index) {
            Ok((id, parent_id, created_at, kind)) => Node { id, parent_id, created_at, kind, raw },
            Err((id, why)) => Node { id, parent_id: None, created_at: None, kind: NodeKind::Invalid(why), raw },
        }
    }

    /// Keeps `text`, the JSON this node was read from through `from_value`, as its raw form and its
    /// tools' input and output: numbers stay as written instead of re-serialized from the doubles
    /// they parsed to (which, without serde_json's `float_roundtrip`, can read back one unit off).
    fn keep_text(&mut self, text: &str) {
        self.raw = RawJson::from_parsed_text(text);
        let NodeKind::Message(message) = &mut self.kind else { return };
        if !message.parts.iter().any(|p| matches!(p, Part::Tool(_))) {
            return;
        }
        // Parts the tree read as tools were objects; any other shape leaves the parsed values.
        let Ok(texts) = serde_json::from_str::<PartTexts>(text) else { return };
        for (part, texts) in message.parts.iter_mut().zip(&texts.parts) {
            let (Part::Tool(tool), Some(texts)) = (part, texts) else { continue };
            if let (Some(input), Some(text)) = (&mut tool.input, &texts.input) {
                *input = RawJson::from_parsed_text(text.get());
            }
            if let (Some(output), Some(text)) = (&mut tool.output, &texts.output) {
                *output = RawJson::from_parsed_text(text.get());
            }
        }
    }

    /// The node `node_text` reads from `text` (one JSON value, depth already checked), keeping the
    /// text as its raw form; `None` when the rules of `from_value` must decide.
    fn from_node_text(text: &str) -> Option<Node> {
        let raw = RawJson::from_parsed_text(text);
        let (id, parent_id, created_at, kind) = crate::node_text::read_node(&raw)?;
        Some(Node { id, parent_id, created_at, kind, raw })
    }

    /// The node the typed reader finds in one node's `text` (depth checked first), or `None` when the
    /// rules of `from_value` must decide (an invalid node, deep nesting, lone surrogates).
    pub fn read_text(text: &str) -> Option<Node> {
        Node::read_text_within(text, 64)
    }

    /// As `read_text`, with `limit` levels of nesting at most.
    pub fn read_text_within(text: &str, limit: usize) -> Option<Node> {
        if crate::json_text::nests_deeper_than(text, limit) {
            return None;
        }
        Node::from_node_text(text.trim())
    }

    /// Parses a single node given by the caller (e.g. `SessionIndex.append`); an unreadable node is an error here.
    pub fn parse_strict_text(text: &str) -> Result<Node> {
        if let Some(node) = Node::read_text(text) {
            return Ok(node);
        }
        let value = crate::json_text::parse_lenient(text).map_err(|e| Error::new(ErrorCode::InvalidNode, e.to_string()))?;
        Node::parse_strict(value)
    }

    /// As `parse_strict_text`, from a parsed value.
    pub fn parse_strict(raw: Value) -> Result<Node> {
        let node = Node::from_value(raw, 0);
        match &node.kind {
            NodeKind::Invalid(why) => Err(Error::new(ErrorCode::InvalidNode, why.clone())),
            _ => Ok(node),
        }
    }

    pub fn message(&self) -> Option<&Message> {
        match &self.kind {
            NodeKind::Message(m) => Some(m),
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

impl Message {
    pub fn tool_parts(&self) -> impl Iterator<Item = &ToolPart> {
        self.parts.iter().filter_map(|p| match p {
            Part::Tool(t) => Some(t),
            _ => None,
        })
    }

    /// A tool part not in a final state (`output-available`, `output-error`, `output-denied`).
    pub fn has_unfinished_tool(&self) -> bool {
        self.tool_parts().any(|t| t.state.is_pending())
    }

    /// The response was cut: stopped (`metadata.aborted === true`) or ended by an error
    /// (`metadata.finishReason === 'error'`), as the chat transport marks it. Nothing will finish
    /// its tool parts.
    pub fn is_cut(&self) -> bool {
        let Some(metadata) = self.metadata.as_ref() else { return false };
        metadata.get("aborted") == Some(&Value::Bool(true)) || metadata.get("finishReason").and_then(Value::as_str) == Some("error")
    }

    /// An unfinished tool part that can still complete as far as the message tells (it is not cut).
    /// Whether it is pending also depends on the branch: see `pending_workflow`.
    pub fn has_pending_tool(&self) -> bool {
        self.has_unfinished_tool() && !self.is_cut()
    }
}

/// Rule `interrupted-tool`: a tool workflow is pending only while its turn is the newest one and can
/// still complete: an unfinished tool part of a message that is not cut, with no user message after
/// that message on the branch. Otherwise the part is interrupted and never blocks compaction.
/// `branch` is node indices, root to leaf.
pub fn pending_workflow(session: &Session, branch: &[usize]) -> bool {
    for &i in branch.iter().rev() {
        let Some(message) = session.nodes[i].message() else { continue };
        if message.has_pending_tool() {
            return true;
        }
        if message.role == Role::User {
            return false;
        }
    }
    false
}

fn read_node(raw: &Value, index: usize) -> std::result::Result<crate::node_text::ReadNode, (String, String)> {
    let Value::Object(map) = raw else {
        return Err((String::new(), format!("node #{index} is not an object")));
    };
    let id = match map.get("id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        Some(Value::String(_)) => return Err((String::new(), format!("node #{index}: id is empty"))),
        Some(_) => return Err((String::new(), format!("node #{index}: id must be a string"))),
        None => return Err((String::new(), format!("node #{index}: id is missing"))),
    };
    let fail = |why: String| (id.clone(), format!("node {id}: {why}"));
    let parent_id = match map.get("parentId") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(Value::String(_)) => return Err(fail("parentId is empty".into())),
        Some(_) => return Err(fail("parentId must be a string or null".into())),
    };
    if parent_id.as_deref() == Some(id.as_str()) {
        return Err(fail("parentId is its own id".into()));
    }
    // createdAt: a number (ms); an ISO string (a serialized Date) is accepted and not interpreted.
    let created_at = match map.get("createdAt") {
        None | Some(Value::Null) | Some(Value::String(_)) => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(_) => return Err(fail("createdAt must be a number".into())),
    };
    let kind = if let Some(checkpoint) = map.get("checkpoint") {
        if parent_id.is_none() {
            return Err(fail("a checkpoint needs a parentId".into()));
        }
        // From text, as the typed reader reads it: no struct is deserialized from a `Value` (3.6 KB gzipped).
        let checkpoint: Checkpoint = serde_json::from_str(&checkpoint.to_string())
            .map_err(|e| fail(format!("checkpoint: {}", crate::json_text::message_of(&e))))?;
        NodeKind::Checkpoint(checkpoint)
    } else {
        NodeKind::Message(read_message(map).map_err(fail)?)
    };
    Ok((id, parent_id, created_at, kind))
}

fn read_message(map: &Map<String, Value>) -> std::result::Result<Message, String> {
    let role = match map.get("role").and_then(Value::as_str) {
        Some("user") => Role::User,
        Some("assistant") => Role::Assistant,
        Some("system") => Role::System,
        Some(other) => return Err(format!("role {other:?} is not user, assistant or system")),
        None => return Err("role must be a string".into()),
    };
    let parts = match map.get("parts") {
        Some(Value::Array(parts)) => parts,
        Some(_) => return Err("parts must be an array".into()),
        None => return Err("parts is missing".into()),
    };
    let parts = parts
        .iter()
        .enumerate()
        .map(|(i, p)| read_part(p).map_err(|why| format!("parts[{i}]: {why}")))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    let metadata = map.get("metadata").filter(|m| !m.is_null()).cloned();
    Ok(Message { role, parts, metadata })
}

fn field<'a>(part: &'a Map<String, Value>, name: &str) -> std::result::Result<&'a str, String> {
    match part.get(name) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(format!("{name} must be a string")),
        None => Err(format!("{name} is missing")),
    }
}

fn optional_field(part: &Map<String, Value>, name: &str) -> std::result::Result<Option<String>, String> {
    match part.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("{name} must be a string")),
    }
}

fn read_part(value: &Value) -> std::result::Result<Part, String> {
    let Value::Object(part) = value else {
        return Err("a part must be an object".into());
    };
    let part_type = field(part, "type")?;
    Ok(match part_type {
        "text" => Part::Text { text: field(part, "text")?.to_string() },
        "reasoning" => Part::Reasoning { text: field(part, "text")?.to_string() },
        "file" => Part::File {
            media_type: field(part, "mediaType")?.to_string(),
            filename: optional_field(part, "filename")?,
            url: field(part, "url")?.to_string(),
        },
        "source-url" => Part::SourceUrl {
            source_id: field(part, "sourceId")?.to_string(),
            url: field(part, "url")?.to_string(),
            title: optional_field(part, "title")?,
        },
        "source-document" => Part::SourceDocument {
            source_id: field(part, "sourceId")?.to_string(),
            media_type: field(part, "mediaType")?.to_string(),
            title: field(part, "title")?.to_string(),
            filename: optional_field(part, "filename")?,
        },
        "step-start" => Part::StepStart,
        "dynamic-tool" => Part::Tool(read_tool(part, field(part, "toolName")?.to_string(), true)?),
        t if t.starts_with("tool-") => Part::Tool(read_tool(part, t["tool-".len()..].to_string(), false)?),
        t if t.starts_with("data-") => Part::Data {
            name: t["data-".len()..].to_string(),
            id: optional_field(part, "id")?,
            data: part.get("data").cloned().unwrap_or(Value::Null),
        },
        other => Part::Unknown { part_type: other.to_string(), value: value.clone() },
    })
}

fn read_tool(part: &Map<String, Value>, tool_name: String, dynamic: bool) -> std::result::Result<ToolPart, String> {
    let approval = match part.get("approval") {
        None | Some(Value::Null) => None,
        Some(Value::Object(a)) => Some(Approval {
            id: field(a, "id").map_err(|e| format!("approval.{e}"))?.to_string(),
            approved: match a.get("approved") {
                None | Some(Value::Null) => None,
                Some(Value::Bool(b)) => Some(*b),
                Some(_) => return Err("approval.approved must be a boolean".into()),
            },
            reason: optional_field(a, "reason").map_err(|e| format!("approval.{e}"))?,
        }),
        Some(_) => return Err("approval must be an object".into()),
    };
    Ok(ToolPart {
        tool_name,
        dynamic,
        tool_call_id: field(part, "toolCallId")?.to_string(),
        state: ToolState::parse(field(part, "state")?),
        input: part.get("input").map(RawJson::from_value),
        output: part.get("output").map(RawJson::from_value),
        error_text: optional_field(part, "errorText")?,
        approval,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_every_part_type_and_keeps_unknown_ones() {
        let node = Node::parse_strict(json!({
            "id": "a1", "parentId": "u1", "role": "assistant",
            "parts": [
                {"type": "step-start"},
                {"type": "reasoning", "text": "thinking"},
                {"type": "text", "text": "hello", "state": "done"},
                {"type": "file", "mediaType": "image/png", "url": "data:image/png;base64,AAAA", "filename": "s.png"},
                {"type": "source-url", "sourceId": "s1", "url": "https://doi.org/10.1/x"},
                {"type": "source-document", "sourceId": "s2", "mediaType": "application/pdf", "title": "Paper"},
                {"type": "tool-zoteroSearch", "toolCallId": "c1", "state": "output-available", "input": {"q": "x"}, "output": []},
                {"type": "dynamic-tool", "toolName": "mcp", "toolCallId": "c2", "state": "approval-requested",
                 "input": {}, "approval": {"id": "ap1"}},
                {"type": "data-zoteroItem", "id": "d1", "data": {"key": "ABCD2345"}},
                {"type": "future-part", "x": 1}
            ]
        }))
        .unwrap();
        let m = node.message().unwrap();
        assert_eq!(m.parts.len(), 10);
        assert!(matches!(&m.parts[9], Part::Unknown { part_type, .. } if part_type == "future-part"));
        assert!(m.has_pending_tool());
        assert_eq!(m.tool_parts().count(), 2);
    }

    #[test]
    fn tool_data_read_from_a_node_text_are_ranges_of_it() {
        let text = r#"{"id":"a","role":"assistant","parts":[{"type":"tool-t","toolCallId":"c","state":"output-available","input":{"q":1},"output":[{"k":"v"}]}]}"#;
        let node = Node::read_text(text).unwrap();
        let raw = node.raw.as_str().as_bytes().as_ptr_range();
        let Part::Tool(tool) = &node.message().unwrap().parts[0] else { panic!("a tool part") };
        for data in [tool.input.as_ref().unwrap(), tool.output.as_ref().unwrap()] {
            let range = data.as_str().as_bytes().as_ptr_range();
            assert!(raw.start <= range.start && range.end <= raw.end, "{} is not a range of the node text", data.as_str());
        }
        assert_eq!(tool.output.as_ref().unwrap().as_str(), r#"[{"k":"v"}]"#);
        assert_eq!(tool.input.as_ref().unwrap().to_value(), json!({ "q": 1 }));
        // Text from elsewhere is copied.
        let elsewhere = String::from("[1]");
        assert_eq!(node.raw.range_of(&elsewhere).as_str(), "[1]");
    }

    #[test]
    fn node_defects_become_invalid_nodes_with_their_id() {
        let s = Session::from_value(json!({
            "leafId": "x", "branchRevision": 0,
            "nodes": [
                {"id": "x", "parentId": null, "role": "user", "parts": "nope"},
                {"id": 5, "role": "user", "parts": []},
                "string node",
                {"id": "y", "parentId": 7, "role": "user", "parts": []}
            ]
        }))
        .unwrap();
        let whys: Vec<_> = s.nodes.iter().map(|n| match &n.kind {
            NodeKind::Invalid(w) => w.clone(),
            _ => String::new(),
        }).collect();
        assert_eq!(whys[0], "node x: parts must be an array");
        assert_eq!(whys[1], "node #1: id must be a string");
        assert_eq!(whys[2], "node #2 is not an object");
        assert_eq!(whys[3], "node y: parentId must be a string or null");
    }

    #[test]
    fn session_defects_are_errors() {
        for bad in [json!(null), json!([]), json!({"nodes": {}, "leafId": "a", "branchRevision": 0}),
                    json!({"nodes": [], "leafId": 3, "branchRevision": 0}),
                    json!({"nodes": [], "leafId": "a", "branchRevision": -1}),
                    json!({"nodes": [], "leafId": "a", "branchRevision": 1.5})] {
            let e = Session::from_value(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidSession);
        }
    }
}
