//! Reading session nodes straight from JSON text into the typed model, without building a
//! `serde_json::Value` of every node first (that tree costs more time and memory than the rest of
//! a read together).
//!
//! This is a fast path only: it never decides that a node is invalid. Whenever a node is anything
//! but plainly well-formed (a field of an unexpected type, a duplicate key, an unknown part type,
//! a checkpoint that does not read), it answers `None` and the caller reads that node through
//! `model::Node::from_value`, which owns every rule and every error message. So both paths give
//! the same node by construction for what this one accepts; `tests/session/read_text.rs` and the
//! `session_json` fuzz target check that they agree.

use crate::error::{Error, ErrorCode};
use super::read_value::parse_count;
use super::types::{Node, Session};

use serde::{Deserialize, Deserializer};
use serde_json::value::RawValue;
use serde_json::Value;

use super::types::{Approval, Checkpoint, Message, NodeKind, Part, RawJson, ReadNode, Role, ToolPart, ToolState};

/// The session object, its nodes left as text.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SessionText<'a> {
    #[serde(borrow)]
    pub nodes: Vec<&'a RawValue>,
    pub leaf_id: Value,
    pub branch_revision: Value,
}

/// A node as the AI SDK writes it; `Option<Value>` fields are those whose type the rules check.
#[derive(Default)]
struct NodeFields {
    id: Option<String>,
    parent_id: Option<Value>,
    created_at: Option<Value>,
    role: Option<String>,
    parts: Option<Vec<Part>>,
    metadata: Option<Value>,
    /// Present (even as `null`) makes the node a checkpoint.
    /// Kept as its text: read into `Checkpoint` from it (no `Value` tree in between).
    checkpoint: Option<Box<RawValue>>,
    /// Present (even as `null`, which the rules refuse) makes the node display-only.
    display_only: Option<Box<RawValue>>,
}

/// Reads the `NodeFields` of the node text `raw` holds, as a derived reader would (unknown fields
/// skipped, a duplicate field an error, `null` an absent field but for `checkpoint`), with each part
/// made a `Part` as soon as it is read and tool data kept as ranges of `raw`.
struct NodeSeed<'r>(&'r RawJson);

impl<'de> serde::de::DeserializeSeed<'de> for NodeSeed<'_> {
    type Value = NodeFields;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<NodeFields, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> serde::de::Visitor<'de> for NodeSeed<'_> {
    type Value = NodeFields;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a node object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<NodeFields, A::Error> {
        let mut node = NodeFields::default();
        let mut seen = 0u8;
        while let Some(bit) = map.next_key_seed(FieldBit)? {
            if bit == 0 {
                map.next_value::<serde::de::IgnoredAny>()?;
                continue;
            }
            if seen & bit != 0 {
                return Err(serde::de::Error::custom("duplicate field"));
            }
            seen |= bit;
            match bit {
                1 => node.id = map.next_value()?,
                2 => node.parent_id = map.next_value()?,
                4 => node.created_at = map.next_value()?,
                8 => node.role = map.next_value()?,
                16 => node.parts = map.next_value_seed(PartsSeed(self.0))?,
                32 => node.metadata = map.next_value()?,
                64 => node.checkpoint = Some(map.next_value()?),
                _ => node.display_only = Some(map.next_value()?),
            }
        }
        Ok(node)
    }
}

/// A node field's bit in `NodeSeed`'s record of the fields seen; 0 for any other key.
struct FieldBit;

impl<'de> serde::de::DeserializeSeed<'de> for FieldBit {
    type Value = u8;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<u8, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> serde::de::Visitor<'de> for FieldBit {
    type Value = u8;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E>(self, name: &str) -> Result<u8, E> {
        Ok(match name {
            "id" => 1,
            "parentId" => 2,
            "createdAt" => 4,
            "role" => 8,
            "parts" => 16,
            "metadata" => 32,
            "checkpoint" => 64,
            "displayOnly" => 128,
            _ => 0,
        })
    }
}

/// The parts, each made a `Part` as soon as it is read (no list of their fields is held, whose gaps
/// in wasm memory outlived the read); `null` is no parts. A part that does not read fails the node,
/// which the rules of `model::Node::from_value` then decide.
struct PartsSeed<'r>(&'r RawJson);

impl<'de> serde::de::DeserializeSeed<'de> for PartsSeed<'_> {
    type Value = Option<Vec<Part>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Vec<Part>>, D::Error> {
        deserializer.deserialize_option(self)
    }
}

impl<'de> serde::de::Visitor<'de> for PartsSeed<'_> {
    type Value = Option<Vec<Part>>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an array of parts")
    }

    fn visit_none<E>(self) -> Result<Option<Vec<Part>>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<Vec<Part>>, D::Error> {
        deserializer.deserialize_seq(self)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Option<Vec<Part>>, A::Error> {
        let mut parts = Vec::new();
        while let Some(PartObject(fields)) = seq.next_element()? {
            parts.push(part(fields, self.0).ok_or_else(|| serde::de::Error::custom("a part the rules must read"))?);
        }
        Ok(Some(parts))
    }
}

/// One part's fields. Only an object: `PartFields`'s derived reader would also take a JSON array,
/// field by position, where the rules want an error.
struct PartObject<'a>(PartFields<'a>);

impl<'de: 'a, 'a> Deserialize<'de> for PartObject<'a> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PartObject<'a>, D::Error> {
        PartFields::deserialize(ObjectOnly(deserializer)).map(PartObject)
    }
}

/// A deserializer that reads a struct from a JSON object only.
struct ObjectOnly<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for ObjectOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    fn deserialize_struct<V: serde::de::Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
    }
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
    #[serde(default, borrow, deserialize_with = "present_text")]
    provider_metadata: Option<&'a RawValue>,
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

/// The node in `raw`, or `None` when the rules of `model::Node::from_value` must decide. Tool inputs
/// and outputs are kept as ranges of `raw`.
pub fn read_node(raw: &RawJson) -> Option<ReadNode> {
    use serde::de::DeserializeSeed;
    let text = raw.as_str();
    if !text.starts_with('{') {
        return None;
    }
    let mut reader = serde_json::Deserializer::from_str(text);
    let node = NodeSeed(raw).deserialize(&mut reader).ok()?;
    reader.end().ok()?;
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
            if node.display_only.is_some() {
                return None;
            }
            NodeKind::Checkpoint(Checkpoint::from_json_text(checkpoint.get()).ok()?)
        }
        None => {
            let role = match node.role?.as_str() {
                "user" => Role::User,
                "assistant" => Role::Assistant,
                "system" => Role::System,
                _ => return None,
            };
            let parts = node.parts?;
            let message = Message { role, parts, metadata: node.metadata };
            match node.display_only {
                None => NodeKind::Message(message),
                Some(display) => {
                    let value: Value = serde_json::from_str(display.get()).ok()?;
                    NodeKind::DisplayOnly(message, super::read_value::read_display_only(&value).ok()?)
                }
            }
        }
    };
    Some((id, parent_id, created_at, kind))
}

fn part(fields: PartFields, raw: &RawJson) -> Option<Part> {
    Some(match fields.part_type.as_str() {
        // A provider's compaction block is read on the Value path (rare; its metadata decides).
        "text" if fields.provider_metadata.is_some_and(|m| m.get().contains("compaction")) => return None,
        "text" => Part::Text { text: fields.text? },
        "reasoning" => Part::Reasoning {
            text: fields.text?,
            provider_metadata: fields.provider_metadata.filter(|m| m.get() != "null").map(|m| raw.range_of(m.get())),
        },
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
            Part::Tool(tool(fields, name, true, raw)?)
        }
        t if t.starts_with("tool-") => {
            let name = t["tool-".len()..].to_string();
            Part::Tool(tool(fields, name, false, raw)?)
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

fn tool(fields: PartFields, tool_name: String, dynamic: bool, raw: &RawJson) -> Option<ToolPart> {
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
        input: fields.input.map(|text| raw.range_of(text.get())),
        output: fields.output.map(|text| raw.range_of(text.get())),
        error_text: fields.error_text,
        approval,
    })
}

/// The levels a session adds around each node: its object and its `nodes` array.
const SESSION_NESTING: usize = 2;

impl Session {
    /// Parses a session from JSON text (what the bindings receive from `JSON.stringify`).
    ///
    /// Nodes are read straight from their text (`node_text`); a node that path cannot vouch for, and
    /// any session that is not plainly well-formed, goes through `from_value`, which has every rule.
    pub fn from_json_str(text: &str) -> crate::error::Result<Session> {
        if let Some(session) = Session::from_node_texts(text) {
            return Ok(session);
        }
        Session::from_value_text(text)
    }

    fn from_node_texts(text: &str) -> Option<Session> {
        // Deep nesting is left to the tree parser, whose depth limit makes it an error; so are lone
        // surrogates (`\ud800`), which the probe's string parse rejects and `parse_lenient` replaces.
        if !text.trim_start().starts_with('{') || crate::text::nests_deeper_than(text, 64) {
            return None;
        }
        let session: super::read_text::SessionText = serde_json::from_str(text).ok()?;
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
                    None => Node::from_value_text(text, i)?,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Session { nodes, leaf_id, branch_revision })
    }

}

impl Node {

    /// The node `node_text` reads from `text` (one JSON value, depth already checked), keeping the
    /// text as its raw form; `None` when the rules of `from_value` must decide.
    fn from_node_text(text: &str) -> Option<Node> {
        let raw = RawJson::from_parsed_text(text);
        let (id, parent_id, created_at, kind) = super::read_text::read_node(&raw)?;
        Some(Node { id, parent_id, created_at, kind, raw })
    }

    /// The node the typed reader finds in one node's `text` (depth checked first), or `None` when the
    /// rules of `from_value` must decide (an invalid node, deep nesting, lone surrogates).
    pub fn read_text(text: &str) -> Option<Node> {
        Node::read_text_within(text, 64)
    }

    /// As `read_text`, with `limit` levels of nesting at most.
    pub fn read_text_within(text: &str, limit: usize) -> Option<Node> {
        if crate::text::nests_deeper_than(text, limit) {
            return None;
        }
        let text = text.trim();
        Node::from_node_text(text).or_else(|| Node::from_value_text(text, 0).filter(|node| !matches!(node.kind, NodeKind::Invalid(_))))
    }

    /// The node in `text` read by the rules of `from_value` (a part type the typed reader does not
    /// know, such as a provider's `custom` part, is kept whole), its text kept as the raw form;
    /// `None` when `text` is not strict JSON (lone surrogates: the tree parser's lenient read decides).
    fn from_value_text(text: &str, index: usize) -> Option<Node> {
        let mut node = Node::from_value(serde_json::from_str(text).ok()?, index);
        node.keep_text(text);
        Some(node)
    }

    /// Parses a single node given by the caller (e.g. `SessionIndex.append`); an unreadable node is an error here.
    pub fn parse_strict_text(text: &str) -> crate::error::Result<Node> {
        if let Some(node) = Node::read_text(text) {
            return Ok(node);
        }
        // A node is read again inside its session, two levels deeper (`{"nodes":[…]}`): one that only
        // fits alone would make the whole session unreadable once stored.
        let limit = crate::text::MAX_NESTING - SESSION_NESTING;
        if crate::text::nests_deeper_than(text, limit) {
            return Err(Error::new(
                ErrorCode::InvalidNode,
                format!("recursion limit exceeded: the node nests deeper than {limit} levels (a session holds JSON {} levels deep)", crate::text::MAX_NESTING),
            ));
        }
        let value = crate::text::parse_lenient(text).map_err(|e| Error::new(ErrorCode::InvalidNode, e.to_string()))?;
        Node::parse_strict(value)
    }
}
