//! What one message costs: its parts priced by the token scanner plus per-message and per-part overheads.

use crate::tokens::{estimate_json, estimate_text, image_size, image_tokens, is_textual, text_file_counts, BINARY_BYTES_PER_TOKEN, Base64, DEFAULT_IMAGE_TOKENS, DataUrl, REMOTE_FILE_TOKENS};

use crate::session::{Message, Part, ToolPart};

/// What the estimate of a message depends on besides the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EstimateOptions {
    /// The provider sends earlier reasoning back to the model (`ModelProfile.replaysReasoning`).
    pub replays_reasoning: bool,
    /// A fixed cost per image instead of the one computed here (`ModelProfile.imageTokens`).
    pub image_tokens: Option<u64>,
}

/// Role and framing of one message in every provider format (OpenAI documents 3 tokens per message plus
/// 3 to prime the reply; Claude's turn markers are about as many); rounded up.
pub const MESSAGE_OVERHEAD_TOKENS: u64 = 6;
/// Framing of one content block (part) inside a message: its type tag and separators.
pub const PART_OVERHEAD_TOKENS: u64 = 2;
/// Framing of a tool call and its result beyond the name and call id: the `tool_use`/`tool_result`
/// (or `function_call`/`function_call_output`) blocks, their field names and separators.
pub const TOOL_CALL_OVERHEAD_TOKENS: u64 = 12;
/// Rule `encrypted-compaction-bound` (issue 39): a provider's encrypted compaction item is resent as an
/// opaque reference the provider expands into its own summary, so its base64 length is not its cost.
/// Base64 carries 3 bytes in 4 characters; the summary is at most as many bytes as its ciphertext (the
/// bound assumes the provider does not compress before encrypting), and text runs at no fewer than
/// 3 bytes a token in the scripts the estimator knows (English about 4, CJK 3 bytes a character): at
/// most one token per 4 characters. The usage of the answer that carries the item replaces the bound.
pub const ENCRYPTED_CHARS_PER_TOKEN: u64 = 4;

/// The conservative estimate of one message's tokens as it is sent to a model.
pub fn estimate_message(message: &Message, opts: &EstimateOptions) -> u64 {
    message
        .parts
        .iter()
        .map(|part| match estimate_part(part, opts) {
            0 => 0,
            tokens => tokens.saturating_add(PART_OVERHEAD_TOKENS),
        })
        .fold(MESSAGE_OVERHEAD_TOKENS, u64::saturating_add)
}

pub(crate) fn estimate_part(part: &Part, opts: &EstimateOptions) -> u64 {
    match part {
        Part::Text { text } => estimate_text(text),
        Part::Reasoning { text, provider_metadata } => {
            if opts.replays_reasoning {
                estimate_text(text).saturating_add(provider_metadata.as_ref().map_or(0, |m| estimate_text(m.as_str())))
            } else {
                0
            }
        }
        Part::Tool(tool) => estimate_tool(tool),
        Part::Data { name, id, data } => estimate_text(name)
            .saturating_add(id.as_deref().map_or(0, estimate_text))
            .saturating_add(estimate_json(data)),
        Part::File { media_type, filename, url } => {
            estimate_file(media_type, url, opts).saturating_add(filename.as_deref().map_or(0, estimate_text))
        }
        Part::SourceUrl { url, title, .. } => {
            estimate_text(url).saturating_add(title.as_deref().map_or(0, estimate_text))
        }
        Part::SourceDocument { title, filename, .. } => {
            estimate_text(title).saturating_add(filename.as_deref().map_or(0, estimate_text))
        }
        Part::StepStart => 0,
        Part::ProviderCompaction { text: Some(text), .. } => estimate_text(text),
        Part::ProviderCompaction { text: None, encrypted_chars, .. } => encrypted_chars.div_ceil(ENCRYPTED_CHARS_PER_TOKEN),
        Part::Unknown { value, .. } => estimate_json(value),
    }
}

pub(crate) fn estimate_tool(tool: &ToolPart) -> u64 {
    // The call id is sent twice: with the call and with its result.
    let mut tokens = TOOL_CALL_OVERHEAD_TOKENS
        .saturating_add(estimate_text(&tool.tool_name))
        .saturating_add(estimate_text(&tool.tool_call_id).saturating_mul(2));
    // Input and output are scanned as the JSON text they were given as, which is the text sent.
    if let Some(input) = &tool.input {
        tokens = tokens.saturating_add(estimate_text(input.as_str()));
    }
    if let Some(output) = &tool.output {
        // The AI SDK sends a string result as text and anything else as JSON.
        tokens = tokens.saturating_add(match output.as_string() {
            Some(text) => estimate_text(&text),
            None => estimate_text(output.as_str()),
        });
    }
    if let Some(error) = &tool.error_text {
        tokens = tokens.saturating_add(estimate_text(error));
    }
    if let Some(reason) = tool.approval.as_ref().and_then(|a| a.reason.as_deref()) {
        tokens = tokens.saturating_add(estimate_text(reason));
    }
    tokens
}

pub(crate) fn estimate_file(media_type: &str, url: &str, opts: &EstimateOptions) -> u64 {
    let is_image = media_type.get(..6).is_some_and(|p| p.eq_ignore_ascii_case("image/"));
    let data = DataUrl::parse(url);
    if is_image {
        if let Some(fixed) = opts.image_tokens {
            return fixed;
        }
        return data
            .and_then(|d| d.base64_payload())
            .and_then(|payload| image_size(&Base64::new(payload)))
            .map_or(DEFAULT_IMAGE_TOKENS, |(w, h)| image_tokens(w, h));
    }
    let Some(data) = data else {
        return REMOTE_FILE_TOKENS;
    };
    if is_textual(media_type) {
        return text_file_counts(&data).tokens();
    }
    data.decoded_len().div_ceil(BINARY_BYTES_PER_TOKEN)
}
