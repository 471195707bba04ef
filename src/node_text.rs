//! Reading session nodes straight from JSON text into the typed model, without building a
//! `serde_json::Value` of every node first (that tree costs more time and memory than the rest of
//! a read together).
//!
//! This is a fast path only: it never decides that a node is invalid. Whenever a node is anything
//! but plainly well-formed (a field of an unexpected type, a duplicate key, an unknown part type,
//! a checkpoint that does not read), it answers `None` and the caller reads that node through
//! `model::Node::from_value`, which owns every rule and every error message. So both paths give
//! the same node by construction for what this one accepts; `tests/node_text.rs` and the
//! `session_json` fuzz target check that they agree.

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::model::{Approval, Checkpoint, Message, NodeKind, Part, RawJson, Role, ToolPart, ToolState};

/// The session object, its nodes left as text.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionText<'a> {
    #[serde(borrow)]
    pub nodes: Vec<&'a RawValue>,
    pub leaf_id: Value,
    pub branch_revision: Value,
}

/// What a node reads as: id, parent id, creation time and kind.
pub type ReadNode = (String, Option<String>, Option<f64>, NodeKind);

/// A node as the AI SDK writes it; `Option<Value>` fields are those whose type the rules check.
/// Objects inside are kept as text until checked to be objects: a derived struct would also
/// accept a JSON array, field by position, where the rules want an error.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct NodeFields<'a> {
    id: Option<String>,
    parent_id: Option<Value>,
    created_at: Option<Value>,
    role: Option<String>,
    #[serde(borrow)]
    parts: Option<Vec<&'a RawValue>>,
    metadata: Option<Value>,
    /// Present (even as `null`) makes the node a checkpoint.
    #[serde(default, borrow, deserialize_with = "present_text")]
    checkpoint: Option<&'a RawValue>,
}

/// The union of the fields of every known part type.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PartFields<'a> {
    #[serde(rename = "type")]
    part_type: String,
    text: Option<String>,
    media_type: Option<String>,
    filename: Option<String>,
    url: Option<String>,
    source_id: Option<String>,
    title: Option<String>,
    tool_name: Option<String>,
    tool_call_id: Option<String>,
    state: Option<String>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    input: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present_text")]
    output: Option<&'a RawValue>,
    error_text: Option<String>,
    #[serde(borrow)]
    approval: Option<&'a RawValue>,
    id: Option<String>,
    data: Option<Value>,
}

#[derive(Deserialize)]
struct ApprovalFields {
    id: Option<String>,
    approved: Option<bool>,
    reason: Option<String>,
}

/// A field that is present, `null` included (serde's `Option` reads `null` as absent), kept as text.
fn present_text<'de: 'a, 'a, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'a RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

/// The object in `text` as `T`; `None` for anything else (an array included).
fn object<'a, T: Deserialize<'a>>(text: &'a str) -> Option<T> {
    if !text.starts_with('{') {
        return None;
    }
    serde_json::from_str(text).ok()
}

/// The node in `text`, or `None` when the rules of `model::Node::from_value` must decide.
pub fn read_node(text: &str) -> Option<ReadNode> {
    let node: NodeFields = object(text)?;
    let id = node.id.filter(|id| !id.is_empty())?;
    let parent_id = match node.parent_id {
        None => None,
        Some(Value::String(parent)) if !parent.is_empty() && parent != id => Some(parent),
        Some(_) => return None,
    };
    let created_at = match node.created_at {
        None | Some(Value::String(_)) => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(_) => return None,
    };
    let kind = match node.checkpoint {
        Some(checkpoint) => {
            parent_id.as_ref()?;
            NodeKind::Checkpoint(serde_json::from_str::<Checkpoint>(checkpoint.get()).ok()?)
        }
        None => {
            let role = match node.role?.as_str() {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                "system" => Role::System,
                _ => return None,
            };
            let parts = node.parts?.into_iter().map(|p| part(object(p.get())?)).collect::<Option<Vec<_>>>()?;
            NodeKind::Message(Message { role, parts, metadata: node.metadata })
        }
    };
    Some((id, parent_id, created_at, kind))
}

fn part(fields: PartFields) -> Option<Part> {
    Some(match fields.part_type.as_str() {
        "text" => Part::Text { text: fields.text? },
        "reasoning" => Part::Reasoning { text: fields.text? },
        "file" => Part::File { media_type: fields.media_type?, filename: fields.filename, url: fields.url? },
        "source-url" => Part::SourceUrl { source_id: fields.source_id?, url: fields.url?, title: fields.title },
        "source-document" => Part::SourceDocument {
            source_id: fields.source_id?,
            media_type: fields.media_type?,
            title: fields.title?,
            filename: fields.filename,
        },
        "step-start" => Part::StepStart,
        "dynamic-tool" => {
            let name = fields.tool_name.clone()?;
            Part::Tool(tool(fields, name, true)?)
        }
        t if t.starts_with("tool-") => {
            let name = t["tool-".len()..].to_string();
            Part::Tool(tool(fields, name, false)?)
        }
        t if t.starts_with("data-") => Part::Data {
            name: t["data-".len()..].to_string(),
            id: fields.id,
            data: fields.data.unwrap_or(Value::Null),
        },
        // An unknown part is kept whole as JSON, which only the Value path has.
        _ => return None,
    })
}

fn tool(fields: PartFields, tool_name: String, dynamic: bool) -> Option<ToolPart> {
    let approval = match fields.approval {
        None => None,
        Some(text) => {
            let a: ApprovalFields = object(text.get())?;
            Some(Approval { id: a.id?, approved: a.approved, reason: a.reason })
        }
    };
    Some(ToolPart {
        tool_name,
        dynamic,
        tool_call_id: fields.tool_call_id?,
        state: ToolState::parse(&fields.state?),
        input: fields.input.map(|raw| RawJson::from_parsed_text(raw.get())),
        output: fields.output.map(|raw| RawJson::from_parsed_text(raw.get())),
        error_text: fields.error_text,
        approval,
    })
}
