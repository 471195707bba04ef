//! The summarizer's view of messages: research-oriented text with explicit, unforgeable boundaries.
//!
//! Format (every structural line starts with `--- ` followed by a letter and ends with ` ---`):
//!
//! ```text
//! --- message 1 | user | id U1 ---
//! Find recent papers on A* pathfinding; only peer-reviewed ones.
//! --- message 2 | assistant | id A1 ---
//! --- tool zoteroSearch | call c1 | input ---
//! {"q":"A* pathfinding"}
//! --- tool zoteroSearch | call c1 | result ---
//! [item] key=J489T6X3 itemType=journalArticle title="..." citation="Foead et al. 2021, ..."
//! --- cut 12000 of 16000 characters ---
//! [item] key=...
//! --- text ---
//! I found 23 papers.
//! --- end of history ---
//! ```
//!
//! Content lines that could be read as a structural line (`--- <letter>...`, after leading
//! whitespace) are prefixed with a backslash, so the content cannot open or close a message.
//! Reasoning is left out; files and images keep only filename and media type; tool results
//! over the limit keep their head and tail around a `cut` line; tool errors, denials and refused
//! approvals get a header of their own; an unfinished tool call that nothing will finish (its
//! response was cut, or a user message follows it) is `interrupted, no result`; Zotero data is
//! rendered by `zotero::render`.

use serde::Serialize;

use crate::text::fields::{index, Fields, Read};
use serde_json::Value;

use crate::error::{Error, ErrorCode, Result};
use crate::session::{Message, Node, NodeKind, Part, Role, ToolPart, ToolState};
use crate::zotero;

/// Default `maxToolResultChars`: about 1,000-2,000 tokens per result, enough for a page of text
/// or a dozen search hits. The ledger keeps every Zotero key of what is cut.
pub const DEFAULT_MAX_TOOL_RESULT_CHARS: usize = 4_000;
/// Default `maxToolInputChars`: tool inputs are kept whole in practice (queries, keys, page
/// numbers); only a pathological input (a pasted document) is cut.
pub const DEFAULT_MAX_TOOL_INPUT_CHARS: usize = 8_000;
/// Share of a cut value kept from its head (the rest comes from its tail): the head holds the
/// first results and the structure, the tail totals and the last results.
const HEAD_SHARE_PERCENT: usize = 65;
/// Longest header field (id, tool name, filename), in characters.
const HEADER_FIELD_MAX_CHARS: usize = 120;

/// How much of each tool value `serializeHistory` keeps whole.
// Serialize only for its `serde` attributes, which the contract's declarations read (ts-rs).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SerializeOptions {
    /// Longest tool result, `data-*` part or unknown part kept whole, in characters.
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional, as = "Option<_>"))]
    pub max_tool_result_chars: usize,
    /// Longest tool input kept whole, in characters.
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional, as = "Option<_>"))]
    pub max_tool_input_chars: usize,
}

impl Default for SerializeOptions {
    fn default() -> Self {
        SerializeOptions {
            max_tool_result_chars: DEFAULT_MAX_TOOL_RESULT_CHARS,
            max_tool_input_chars: DEFAULT_MAX_TOOL_INPUT_CHARS,
        }
    }
}

impl SerializeOptions {
    /// Reads `{ maxToolResultChars?, maxToolInputChars? }`; `null` gives the defaults.
    pub fn from_value(value: &Value) -> Result<SerializeOptions> {
        if value.is_null() {
            return Ok(SerializeOptions::default());
        }
        read_options(value).map_err(|message| Error::new(ErrorCode::InvalidOptions, format!("serialize options: {message}")))
    }
}

/// By the shared field reader (`text::fields`): a derived reader of two counts was 1.7 KB of wasm.
fn read_options(value: &Value) -> Read<SerializeOptions> {
    let f = Fields::of(value, "struct SerializeOptions")?;
    f.only(&["maxToolResultChars", "maxToolInputChars"])?;
    Ok(SerializeOptions {
        max_tool_result_chars: f.or("maxToolResultChars", DEFAULT_MAX_TOOL_RESULT_CHARS, index)?,
        max_tool_input_chars: f.or("maxToolInputChars", DEFAULT_MAX_TOOL_INPUT_CHARS, index)?,
    })
}

/// Serializes nodes (messages; a checkpoint node contributes its summary).
pub fn serialize(nodes: &[&Node], options: &SerializeOptions) -> String {
    serialize_followed(nodes, options, false)
}

/// `serialize`, where `followed_by_user` says a user message follows the last node on the branch (a
/// summary request's history ends before the kept tail's first user message). Rule
/// `interrupted-tool`: an unfinished tool part of a cut message, or of one a user message follows,
/// is written as interrupted with no result.
pub fn serialize_followed(nodes: &[&Node], options: &SerializeOptions, followed_by_user: bool) -> String {
    serialize_turns(nodes, options, followed_by_user, None).0
}

/// `serialize_followed` of the whole turns of `nodes` (a turn starts at a user message) whose text
/// fits `budget` estimated tokens, at least the first turn; with how many of `nodes` it wrote. Rule
/// `fold-fits-the-summarizer`: a summary request's history is cut where the text itself says, not
/// where message estimates (which count reasoning and uncut tool results) would.
pub fn serialize_turns(nodes: &[&Node], options: &SerializeOptions, followed_by_user: bool, budget: Option<u64>) -> (String, usize) {
    let mut writer = TurnWriter::default();
    writer.write(nodes, options, followed_by_user, budget, usize::MAX);
    writer.finish()
}

/// `serialize_turns` in parts: each `write` serializes the next nodes until its text grew by about
/// `bytes`, so that a long history is written in several calls (a page runs between them). The same
/// `nodes`, options, `followed_by_user` and budget on every call.
#[derive(Debug, Clone, Default)]
pub struct TurnWriter {
    out: String,
    /// For each node: whether a user message comes after it (display-only nodes are skipped).
    followed: Vec<bool>,
    /// The text length and node count at the newest turn start within the budget.
    cut: Option<(usize, usize)>,
    /// The text's estimate so far.
    tokens: u64,
    next: usize,
    /// Messages written so far: display-only nodes are left out before numbering, so numbers run on.
    number: usize,
    taken: Option<usize>,
}

impl TurnWriter {
    /// Writes the next nodes; true once every turn that fits is written.
    pub fn write(&mut self, nodes: &[&Node], options: &SerializeOptions, followed_by_user: bool, budget: Option<u64>, bytes: usize) -> bool {
        if self.taken.is_some() {
            return true;
        }
        if self.next == 0 {
            let mut after = followed_by_user;
            self.followed = vec![false; nodes.len()];
            for (k, node) in nodes.iter().enumerate().rev() {
                if node.display_only().is_none() {
                    self.followed[k] = after;
                    after = after || node.is_user_message();
                }
            }
        }
        let start = self.out.len();
        while let Some(&node) = nodes.get(self.next) {
            if self.out.len() - start >= bytes {
                return false;
            }
            let at = self.next;
            self.next += 1;
            if node.display_only().is_some() {
                continue;
            }
            let number = self.number;
            self.number += 1;
            if let Some(budget) = budget.filter(|_| number > 0 && node.is_user_message()) {
                if self.tokens > budget {
                    // The turns before the newest that fit, or the first turn alone when it is over.
                    let (length, taken) = self.cut.unwrap_or((self.out.len(), at));
                    self.out.truncate(length);
                    self.taken = Some(taken);
                    return true;
                }
                self.cut = Some((self.out.len(), at));
            }
            let mark = self.out.len();
            match &node.kind {
                NodeKind::Message(message) => {
                    let interrupted = self.followed[at] || message.is_cut();
                    write_message(&mut self.out, number + 1, &node.id, message, interrupted, options)
                }
                NodeKind::Checkpoint(checkpoint) => {
                    header(&mut self.out, &format!("message {} | earlier checkpoint summary | id {}", number + 1, field(&node.id)));
                    content(&mut self.out, &checkpoint.summary);
                }
                NodeKind::DisplayOnly(..) | NodeKind::Invalid(_) => {}
            }
            if budget.is_some() {
                self.tokens += crate::tokens::estimate_text(&self.out[mark..]);
            }
        }
        self.taken = Some(match self.cut {
            Some((length, taken)) if budget.is_some_and(|b| self.tokens > b) => {
                self.out.truncate(length);
                taken
            }
            _ => nodes.len(),
        });
        true
    }

    /// The history and how many of the nodes it holds (all written first).
    pub fn finish(mut self) -> (String, usize) {
        self.out.push_str("--- end of history ---");
        (self.out, self.taken.unwrap_or(0))
    }
}

/// Serializes a JSON array of UIMessages (`parentId` optional); an unreadable message is an error.
pub fn serialize_ui_messages(messages: &Value, options: &SerializeOptions) -> Result<String> {
    let Value::Array(values) = messages else {
        return Err(Error::new(ErrorCode::InvalidMessage, "messages must be an array of UIMessages"));
    };
    let nodes: Vec<Node> = values.iter().enumerate().map(|(i, v)| Node::from_value(v.clone(), i)).collect();
    for node in &nodes {
        match &node.kind {
            NodeKind::Invalid(why) => return Err(Error::new(ErrorCode::InvalidMessage, why.clone())),
            NodeKind::Checkpoint(_) => {
                return Err(Error::new(ErrorCode::InvalidMessage, format!("node {} is a checkpoint, not a UIMessage", node.id)))
            }
            NodeKind::Message(_) | NodeKind::DisplayOnly(..) => {}
        }
    }
    Ok(serialize(&nodes.iter().collect::<Vec<_>>(), options))
}

fn role_label(role: Role) -> &'static str {
    match role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::System => "system",
    }
}

fn write_message(out: &mut String, number: usize, id: &str, message: &Message, interrupted: bool, options: &SerializeOptions) {
    header(out, &format!("message {number} | {} | id {}", role_label(message.role), field(id)));
    // A text part right after the header needs no header of its own.
    let mut after_header = true;
    for part in &message.parts {
        match part {
            Part::Text { text } => {
                if text.trim().is_empty() {
                    continue;
                }
                if !after_header {
                    header(out, "text");
                }
                content(out, text);
                after_header = true;
                continue;
            }
            // A readable provider block reaches the summarizer only as the previous summary (request.rs).
            Part::Reasoning { .. } | Part::StepStart | Part::ProviderCompaction { text: Some(_), .. } => continue,
            // Never the ciphertext: the summarizer reads the durable history it stands for instead.
            Part::ProviderCompaction { provider, text: None, .. } => {
                header(out, &format!("{} compaction item | encrypted, readable only by that provider", field(provider)));
            }
            Part::File { media_type, filename, .. } => {
                let kind = if media_type.starts_with("image/") { "image" } else { "file" };
                let name = filename.as_deref().map(field).unwrap_or_else(|| "(no filename)".to_string());
                header(out, &format!("{kind} | {name} | {}", field(media_type)));
            }
            Part::SourceUrl { url, title, .. } => {
                let title = title.as_deref().map(field).unwrap_or_default();
                header(out, &format!("source | {title} | {}", field(&crate::text::strip_data_payloads(url))));
            }
            Part::SourceDocument { media_type, title, filename, .. } => {
                let name = filename.as_deref().map(field).unwrap_or_default();
                header(out, &format!("source document | {} | {name} | {}", field(title), field(media_type)));
            }
            Part::Tool(tool) => write_tool(out, tool, interrupted, options),
            Part::Data { name, id, data } => {
                let id = id.as_deref().map(|id| format!(" | id {}", field(id))).unwrap_or_default();
                header(out, &format!("data {}{id}", field(name)));
                limited(out, &zotero::render(data), options.max_tool_result_chars);
            }
            Part::Unknown { part_type, value } => {
                header(out, &format!("part {}", field(part_type)));
                limited(out, &zotero::render(value), options.max_tool_result_chars);
            }
        }
        after_header = false;
    }
}

fn write_tool(out: &mut String, tool: &ToolPart, interrupted: bool, options: &SerializeOptions) {
    let name = format!("tool {} | call {}", field(&tool.tool_name), field(&tool.tool_call_id));
    if let Some(input) = tool.input.as_ref().filter(|v| !v.is_null()) {
        header(out, &format!("{name} | input"));
        limited(out, &zotero::render(&input.to_value()), options.max_tool_input_chars);
    }
    let refused = tool.approval.as_ref().filter(|a| a.approved == Some(false));
    match &tool.state {
        ToolState::OutputAvailable => {
            header(out, &format!("{name} | result"));
            let rendered = tool.output.as_ref().map(|raw| zotero::render(&raw.to_value())).unwrap_or_else(|| "(no output)".into());
            limited(out, &rendered, options.max_tool_result_chars);
        }
        ToolState::OutputError => {
            header(out, &format!("{name} | error"));
            let text = tool.error_text.as_deref().unwrap_or("(no error text)");
            limited(out, text, options.max_tool_result_chars);
        }
        ToolState::OutputDenied => {
            header(out, &format!("{name} | denied by the user"));
            if let Some(reason) = refused.and_then(|a| a.reason.as_deref()) {
                content(out, reason);
            }
        }
        ToolState::ApprovalResponded if refused.is_some() => {
            header(out, &format!("{name} | approval refused"));
            if let Some(reason) = refused.and_then(|a| a.reason.as_deref()) {
                content(out, reason);
            }
        }
        state if interrupted && state.is_pending() => header(out, &format!("{name} | interrupted, no result")),
        ToolState::ApprovalResponded => header(out, &format!("{name} | approved, no result yet")),
        ToolState::ApprovalRequested => header(out, &format!("{name} | awaiting approval")),
        ToolState::InputStreaming | ToolState::InputAvailable | ToolState::Other(_) => {
            header(out, &format!("{name} | no result yet"))
        }
    }
}

fn header(out: &mut String, text: &str) {
    out.push_str("--- ");
    out.push_str(text);
    out.push_str(" ---\n");
}

/// A header field: one line, no structure characters, bounded length.
fn field(text: &str) -> String {
    let line: String = text.chars().map(|c| if c.is_control() || c == '|' { ' ' } else { c }).collect();
    let line = line.split_whitespace().collect::<Vec<_>>().join(" ").replace("---", "- - -");
    crate::text::clip(&line, HEADER_FIELD_MAX_CHARS)
}

/// Appends content lines, neutralizing the ones that look like structure and dropping data: payloads.
fn content(out: &mut String, text: &str) {
    let text = crate::text::strip_data_payloads(text);
    let mut pieces = text.split('\n').peekable();
    while let Some(piece) = pieces.next() {
        // `\r\n` is one break.
        let piece = match pieces.peek().is_some() && piece.ends_with('\r') {
            true => &piece[..piece.len() - 1],
            false => piece,
        };
        // Every character a reader may take for a line break splits lines here, so none can hide a
        // header; most lines hold none (none of their bytes), and are not searched for them.
        if piece.bytes().any(|b| matches!(b, 0x0B..=0x0D | 0xC2 | 0xE2)) {
            piece.split(['\r', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}']).for_each(|line| content_line(out, line));
        } else {
            content_line(out, piece);
        }
    }
}

fn content_line(out: &mut String, line: &str) {
    if looks_structural(line) {
        out.push('\\');
    }
    out.push_str(line);
    out.push('\n');
}

/// Three or more dashes (any dash look-alike) and then a letter, after leading whitespace: the shape of a header.
pub fn looks_structural(line: &str) -> bool {
    let trimmed = line.trim_start();
    let dashes = trimmed.chars().take_while(|c| DASHES.contains(c)).count();
    dashes >= 3
        && trimmed
            .chars()
            .skip(dashes)
            .find(|c| !c.is_whitespace() && !DASHES.contains(c))
            .is_some_and(char::is_alphabetic)
}

const DASHES: [char; 11] = ['-', '\u{2010}', '\u{2011}', '\u{2012}', '\u{2013}', '\u{2014}', '\u{2015}', '\u{2212}', '\u{FF0D}', '\u{FE63}', '\u{2043}'];

/// Content kept whole up to `max` characters; beyond it the head and the tail around a cut line.
fn limited(out: &mut String, text: &str, max: usize) {
    // No more bytes than `max`, so no more characters: most texts, not counted.
    let total = if text.len() <= max { 0 } else { text.chars().count() };
    if total <= max {
        content(out, text);
        return;
    }
    let head_chars = max * HEAD_SHARE_PERCENT / 100;
    let tail_chars = max - head_chars;
    // Only the head's and the tail's characters are walked (the tail from the end), not a long page's.
    let head_end = text.char_indices().nth(head_chars).map_or(text.len(), |(i, _)| i);
    let tail_start = match tail_chars {
        0 => text.len(),
        _ => text.char_indices().nth_back(tail_chars - 1).map_or(0, |(i, _)| i),
    };
    content(out, &text[..head_end]);
    header(out, &format!("cut {} of {total} characters", total - head_chars - tail_chars));
    content(out, &text[tail_start..]);
}

