//! Reading the session model from `serde_json::Value`s: the reader that owns every rule and every error
//! message (the text reader in `read_text` defers to it whenever a node is not plainly well-formed).
//!
//! Session-level defects (not an object, `nodes` not an array, bad `leafId`/`branchRevision`) are errors.
//! Node-level defects never fail the parse: the node becomes `NodeKind::Invalid` and `read_branch`
//! reports it, so a corrupt session can still be read (read-only) and is never rewritten.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Result};

use super::types::*;

impl Session {
    /// The `from_value` rules on `text`, each node keeping its own text as its raw form (numbers as
    /// written, not re-serialized from their parsed doubles). A session whose nodes cannot be cut
    /// out of the text (e.g. a duplicate `nodes` key) keeps the re-serialized nodes.
    pub fn from_value_text(text: &str) -> Result<Session> {
        let value: Value = crate::text::parse_lenient(text)
            .map_err(|e| Error::new(ErrorCode::InvalidSession, format!("session is not valid JSON: {e}")))?;
        let mut session = Session::from_value(value)?;
        // Cut from the text as the tree read it: lone surrogates replaced as `parse_lenient` does.
        let fixed = crate::text::replace_lone_surrogates(text);
        if let Ok(texts) = serde_json::from_str::<NodeTexts>(&fixed) {
            if texts.nodes.len() == session.nodes.len() {
                for (node, raw) in session.nodes.iter_mut().zip(&texts.nodes) {
                    node.keep_text(raw.get());
                }
            }
        }
        Ok(session)
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
    pub(crate) fn keep_text(&mut self, text: &str) {
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
    /// As `parse_strict_text`, from a parsed value.
    pub fn parse_strict(raw: Value) -> Result<Node> {
        let node = Node::from_value(raw, 0);
        match &node.kind {
            NodeKind::Invalid(why) => Err(Error::new(ErrorCode::InvalidNode, why.clone())),
            _ => Ok(node),
        }
    }
}


fn read_node(raw: &Value, index: usize) -> std::result::Result<ReadNode, (String, String)> {
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
        if map.contains_key("displayOnly") {
            return Err(fail("a checkpoint cannot be displayOnly".into()));
        }
        if parent_id.is_none() {
            return Err(fail("a checkpoint needs a parentId".into()));
        }
        let checkpoint = Checkpoint::from_value(checkpoint).map_err(|message| fail(format!("checkpoint: {message}")))?;
        NodeKind::Checkpoint(checkpoint)
    } else {
        let message = read_message(map).map_err(fail)?;
        match map.get("displayOnly") {
            None => NodeKind::Message(message),
            Some(display) => NodeKind::DisplayOnly(message, read_display_only(display).map_err(fail)?),
        }
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

/// `displayOnly: { kind }`, `kind` a non-empty string; other fields are the app's and kept in the text.
pub(crate) fn read_display_only(value: &Value) -> std::result::Result<DisplayOnly, String> {
    let Value::Object(display) = value else {
        return Err("displayOnly must be an object { kind }".into());
    };
    match display.get("kind") {
        Some(Value::String(kind)) if !kind.is_empty() => Ok(DisplayOnly { kind: kind.clone() }),
        Some(Value::String(_)) => Err("displayOnly.kind is empty".into()),
        Some(_) => Err("displayOnly.kind must be a string".into()),
        None => Err("displayOnly.kind is missing".into()),
    }
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

pub(crate) fn read_part(value: &Value) -> std::result::Result<Part, String> {
    let Value::Object(part) = value else {
        return Err("a part must be an object".into());
    };
    let part_type = field(part, "type")?;
    Ok(match part_type {
        "text" => match compaction_provider(part.get("providerMetadata")) {
            Some(provider) => {
                Part::ProviderCompaction { provider, text: Some(field(part, "text")?.to_string()), encrypted_chars: 0 }
            }
            None => Part::Text { text: field(part, "text")?.to_string() },
        },
        "custom" => match encrypted_compaction(part) {
            Some(part) => part,
            None => Part::Unknown { part_type: part_type.to_string(), value: value.clone() },
        },
        "reasoning" => Part::Reasoning {
            text: field(part, "text")?.to_string(),
            provider_metadata: part.get("providerMetadata").filter(|v| !v.is_null()).map(RawJson::from_value),
        },
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

/// The provider whose metadata marks a text part as its compaction block (`{ anthropic: { type:
/// "compaction", signature? } }`), if any.
pub(crate) fn compaction_provider(metadata: Option<&Value>) -> Option<String> {
    let Some(Value::Object(providers)) = metadata else { return None };
    providers
        .iter()
        .find(|(_, m)| m.get("type").and_then(Value::as_str) == Some("compaction"))
        .map(|(provider, _)| provider.clone())
}

/// A custom part of kind `<provider>.compaction` (OpenAI's encrypted item, as the AI SDK 7 stores it).
fn encrypted_compaction(part: &Map<String, Value>) -> Option<Part> {
    let provider = part.get("kind").and_then(Value::as_str)?.strip_suffix(".compaction")?.to_string();
    let metadata = part.get("providerMetadata").and_then(|m| m.get(&provider));
    let encrypted_chars = metadata.and_then(|m| m.get("encryptedContent")).and_then(Value::as_str).map_or(0, |c| c.len() as u64);
    Some(Part::ProviderCompaction { provider, text: None, encrypted_chars })
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
