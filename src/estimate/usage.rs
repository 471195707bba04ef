//! Provider usage as a baseline of context occupancy: AI SDK `LanguageModelUsage` (v5 and v6) read from
//! `message.metadata.usage`, the usage of the last step of that response.
//!
//! Rule `usage-valid`: every number present is finite and non-negative (and within a JS safe integer),
//! `inputTokens` and `outputTokens` are present, and input is not zero (a request always carries input;
//! zero, like all-zero, means the provider did not report). `NaN` arrives as `null` through JSON and so
//! fails the presence test. Any defect makes the whole usage invalid; it is then simply not a baseline.
//! Rule `billing-totals-ignored`: only `metadata.usage` is read, never `metadata.totalUsage` (a sum over
//! steps is billing, not occupancy).
//! Rule `usage-covers-step` (issue 38): a usage covers the request of ONE step of a multi-step answer and
//! that step's output; the tool outputs of that step and every part of a later step were stored after
//! it and are estimated on top of it (`uncovered_tokens`). The step is `metadata.usageStep` (1-based;
//! step k is what follows the k-th `step-start` part), which the chat transport records with the usage.
//! Without it a finished answer is read as today (its usage is the last step's, which covers it); a cut
//! one (`metadata.aborted`, or `finishReason: 'error'`) that holds a tool part is read as if its usage
//! were the step before its last (the last may not have finished): at worst the last step's tool
//! outputs are counted twice, never left out. `metadata.usageFolded` (tokens the step guard showed as
//! handles in that step's request, issue 38) is added too: the stored message holds them verbatim.

use serde_json::{Map, Value};

use super::message::{estimate_part, EstimateOptions, MESSAGE_OVERHEAD_TOKENS, PART_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS};
use crate::session::{Message, Part, ToolPart, ToolState, MAX_SAFE_INTEGER};
use crate::tokens::estimate_text;

/// One response's usage, reduced to what occupancy needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Usage {
    /// Every input token of the request, cached or not.
    pub input: u64,
    /// Every output token, reasoning included.
    pub output: u64,
    /// Reasoning tokens within `output` (0 when not reported).
    pub reasoning: u64,
    /// Input tokens read from the provider's prompt cache (within `input`; 0 when not reported).
    pub cache_read: u64,
    /// Input tokens written to the prompt cache by this request (within `input`; 0 when not reported).
    pub cache_write: u64,
}

impl Usage {
    /// Rule `usage-occupancy`: the context the next request starts from is this request's input plus its
    /// output, less the reasoning a provider that does not replay reasoning drops from the next request.
    pub fn occupancy(&self, replays_reasoning: bool) -> u64 {
        let dropped = if replays_reasoning { 0 } else { self.reasoning.min(self.output) };
        self.input.saturating_add(self.output - dropped)
    }

    /// The prefix the provider holds in its cache after this request: what it read plus what it wrote.
    pub fn cached_prefix(&self) -> u64 {
        self.cache_read.saturating_add(self.cache_write).min(self.input)
    }
}

/// `Some(n)` for a finite non-negative number (rounded up), `None` when absent or null, `Err` when defective.
fn number(map: &Map<String, Value>, name: &str) -> Result<Option<u64>, ()> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Number(n)) => {
            let f = n.as_f64().ok_or(())?;
            if f.is_finite() && (0.0..=MAX_SAFE_INTEGER).contains(&f) {
                Ok(Some(f.ceil() as u64))
            } else {
                Err(())
            }
        }
        Some(_) => Err(()),
    }
}

fn details<'a>(map: &'a Map<String, Value>, name: &str) -> Result<Option<&'a Map<String, Value>>, ()> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(d)) => Ok(Some(d)),
        Some(_) => Err(()),
    }
}

/// Reads a `LanguageModelUsage` (v5 or v6); `None` when it is not a valid baseline (rule `usage-valid`).
///
/// Input: v6 `inputTokens` counts cached tokens too; its `inputTokenDetails` (noCache + cacheRead +
/// cacheWrite) is taken when larger. `usageMetadata` writes the same details for v5, from the
/// provider's `providerMetadata` (Anthropic's and Bedrock's v5 `inputTokens` leave the cache write and
/// read out). v5 without details: OpenAI's `inputTokens` includes `cachedInputTokens`, Anthropic's
/// excludes it. When `cachedInputTokens` exceeds `inputTokens` it cannot be a part of it, so both are
/// added; otherwise `inputTokens` is taken as the total.
/// Cache: `cacheReadTokens` / `cacheWriteTokens` of the details, else v5 `cachedInputTokens` as the read.
/// Reasoning: v6 `outputTokenDetails.reasoningTokens`, else the v5 (and v6 deprecated) `reasoningTokens`.
pub fn read_usage(usage: &Value) -> Option<Usage> {
    let Value::Object(map) = usage else { return None };
    let parsed = (|| -> Result<Option<Usage>, ()> {
        let input = number(map, "inputTokens")?;
        let output = number(map, "outputTokens")?;
        let _total = number(map, "totalTokens")?;
        let cached_v5 = number(map, "cachedInputTokens")?.unwrap_or(0);
        let reasoning_v5 = number(map, "reasoningTokens")?;
        let input_details = details(map, "inputTokenDetails")?;
        let output_details = details(map, "outputTokenDetails")?;
        let (Some(mut input), Some(output)) = (input, output) else { return Ok(None) };
        let (mut cache_read, mut cache_write) = (cached_v5, 0);
        if let Some(d) = input_details {
            let parts = [number(d, "noCacheTokens")?, number(d, "cacheReadTokens")?, number(d, "cacheWriteTokens")?];
            let sum = parts.iter().map(|p| p.unwrap_or(0)).fold(0u64, u64::saturating_add);
            input = input.max(sum);
            cache_read = parts[1].unwrap_or(cached_v5);
            cache_write = parts[2].unwrap_or(0);
        } else if cached_v5 > input {
            input = input.saturating_add(cached_v5);
        }
        let reasoning_v6 = match output_details {
            Some(d) => {
                let _text = number(d, "textTokens")?;
                number(d, "reasoningTokens")?
            }
            None => None,
        };
        let reasoning = reasoning_v6.or(reasoning_v5).unwrap_or(0);
        if input == 0 {
            return Ok(None);
        }
        Ok(Some(Usage { input, output, reasoning, cache_read, cache_write }))
    })();
    parsed.ok().flatten()
}

/// The usage recorded on a message (`metadata.usage`), if valid.
pub fn message_usage(metadata: Option<&Value>) -> Option<Usage> {
    metadata?.get("usage").and_then(read_usage)
}

/// `metadata.usageStep`: the 1-based step whose usage `metadata.usage` is; `None` when absent or not a
/// positive integer (then rule `usage-covers-step`'s fallback applies).
fn usage_step(metadata: Option<&Value>) -> Option<u64> {
    let step = metadata?.get("usageStep")?.as_f64()?;
    (step >= 1.0 && step.fract() == 0.0 && step <= MAX_SAFE_INTEGER).then_some(step as u64)
}

/// `metadata.usageFolded`: tokens left out of the usage's request by the step guard (0 when absent).
fn usage_folded(metadata: Option<&Value>) -> u64 {
    let Some(folded) = metadata.and_then(|m| m.get("usageFolded")).and_then(Value::as_f64) else { return 0 };
    if folded.is_finite() && (0.0..=MAX_SAFE_INTEGER).contains(&folded) { folded.ceil() as u64 } else { 0 }
}

/// A response that did not end on its own: Stop (`aborted`) or a stream error (`finishReason: 'error'`).
fn is_cut(metadata: Option<&Value>) -> bool {
    let Some(metadata) = metadata else { return false };
    metadata.get("aborted") == Some(&Value::Bool(true)) || metadata.get("finishReason").and_then(Value::as_str) == Some("error")
}

/// What a tool result adds to the request after its call: the output (or error), its call id again and
/// half the call's framing (the result block).
fn tool_result_tokens(tool: &ToolPart) -> u64 {
    let has_result = tool.output.is_some() || tool.error_text.is_some() || tool.state == ToolState::OutputDenied;
    if !has_result {
        return 0;
    }
    let output = tool.output.as_ref().map_or(0, |o| match o.as_string() {
        Some(text) => estimate_text(&text),
        None => estimate_text(o.as_str()),
    });
    let reason = tool.approval.as_ref().and_then(|a| a.reason.as_deref()).map_or(0, estimate_text);
    output
        .saturating_add(tool.error_text.as_deref().map_or(0, estimate_text))
        .saturating_add(reason)
        .saturating_add(estimate_text(&tool.tool_call_id))
        .saturating_add(TOOL_CALL_OVERHEAD_TOKENS / 2 + PART_OVERHEAD_TOKENS)
}

/// Rule `usage-covers-step`: the tokens of an assistant message its own `metadata.usage` does not cover
/// (0 for a message without usage: its whole estimate counts anyway).
pub fn uncovered_tokens(message: &Message, options: &EstimateOptions) -> u64 {
    if message_usage(message.metadata.as_ref()).is_none() {
        return 0;
    }
    let metadata = message.metadata.as_ref();
    let folded = usage_folded(metadata);
    let steps = message.parts.iter().filter(|p| matches!(p, Part::StepStart)).count().max(1) as u64;
    let step = match usage_step(metadata) {
        Some(step) => step,
        None if is_cut(metadata) && message.parts.iter().any(|p| matches!(p, Part::Tool(_))) => steps - 1,
        None => return folded,
    };
    let (mut seen, mut tokens) = (0u64, 0u64);
    for part in &message.parts {
        if matches!(part, Part::StepStart) {
            seen += 1;
            continue;
        }
        let at = seen.max(1);
        if at > step {
            tokens = tokens.saturating_add(match estimate_part(part, options) {
                0 => 0,
                t => t.saturating_add(PART_OVERHEAD_TOKENS),
            });
        } else if at == step {
            if let Part::Tool(tool) = part {
                tokens = tokens.saturating_add(tool_result_tokens(tool));
            }
        }
    }
    if tokens == 0 {
        return folded;
    }
    // Each later step is an assistant message and a tool message in the request; the step's own results one more.
    let messages = 1 + 2 * steps.saturating_sub(step);
    tokens.saturating_add(MESSAGE_OVERHEAD_TOKENS.saturating_mul(messages)).saturating_add(folded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;


    fn loop_message(metadata: Value) -> Message {
        // Three tool steps of a loop, each with a ~1,000-token page, and a fourth step's text.
        let page = |n: u32| format!("Page {n}: {}", "Salt rejection rose with membrane thickness in every sample. ".repeat(80));
        let tool = |n: u32| json!({ "type": "tool-readPage", "toolCallId": format!("call-{n}"), "state": "output-available",
                                    "input": { "page": n }, "output": page(n) });
        let parts = json!([
            { "type": "step-start" }, tool(1), { "type": "step-start" }, tool(2), { "type": "step-start" }, tool(3),
            { "type": "step-start" }, { "type": "text", "text": "The three pages agree that" }
        ]);
        let node = crate::session::Node::parse_strict(json!({ "id": "A", "parentId": "U", "role": "assistant", "parts": parts, "metadata": metadata })).unwrap();
        node.message().unwrap().clone()
    }

    fn opts() -> EstimateOptions {
        EstimateOptions { replays_reasoning: false, image_tokens: None }
    }

    fn usage() -> Value {
        json!({ "inputTokens": 3000, "outputTokens": 40 })
    }

    fn part_tokens(message: &Message, from: usize) -> u64 {
        message.parts[from..].iter().map(|p| match estimate_part(p, &opts()) { 0 => 0, t => t + PART_OVERHEAD_TOKENS }).sum()
    }

    #[test]
    fn usage_step_leaves_out_its_tool_outputs_and_later_steps() {
        let m = loop_message(json!({ "usage": usage(), "usageStep": 3, "aborted": true }));
        let Part::Tool(t3) = &m.parts[5] else { panic!() };
        let uncovered = uncovered_tokens(&m, &opts());
        // Step 3's output (~1,000 tokens) and step 4's text: more than the page, less than two.
        let page = estimate_text(t3.output.as_ref().unwrap().as_string().unwrap().as_ref());
        assert!(page > 900, "{page}");
        assert_eq!(uncovered, tool_result_tokens(t3) + part_tokens(&m, 7) + MESSAGE_OVERHEAD_TOKENS * 3);
        assert!(uncovered > page && uncovered < 2 * page, "{uncovered}");
        // Step 1's usage: the outputs of steps 1 to 3 and all of step 4 are after it.
        let early = uncovered_tokens(&loop_message(json!({ "usage": usage(), "usageStep": 1 })), &opts());
        assert!(early > 3 * page, "{early}");
        // The last step's usage (a finished loop): its text was its own output, nothing is left out.
        assert_eq!(uncovered_tokens(&loop_message(json!({ "usage": usage(), "usageStep": 4 })), &opts()), 0);
        // Unless the step guard showed outputs as handles in that request: they are added.
        assert_eq!(uncovered_tokens(&loop_message(json!({ "usage": usage(), "usageStep": 4, "usageFolded": 2100 })), &opts()), 2100);
        assert_eq!(uncovered_tokens(&loop_message(json!({ "usage": usage(), "usageStep": 4, "usageFolded": null })), &opts()), 0);
    }

    #[test]
    fn without_a_step_record_only_a_cut_loop_counts_its_last_steps() {
        // Finished, no record: today's reading (the usage is the last step's).
        assert_eq!(uncovered_tokens(&loop_message(json!({ "usage": usage() })), &opts()), 0);
        assert_eq!(uncovered_tokens(&loop_message(json!({ "usage": usage(), "finishReason": "stop" })), &opts()), 0);
        // Cut by Stop or an error: read as the usage of the step before the last (step 3 here).
        let recorded = uncovered_tokens(&loop_message(json!({ "usage": usage(), "usageStep": 3 })), &opts());
        for cut in [json!({ "usage": usage(), "aborted": true }), json!({ "usage": usage(), "finishReason": "error" })] {
            assert_eq!(uncovered_tokens(&loop_message(cut), &opts()), recorded);
        }
        // No usage: nothing to cover, the whole message is estimated anyway.
        assert_eq!(uncovered_tokens(&loop_message(json!({ "aborted": true, "usageStep": 1 })), &opts()), 0);
        // A step record that is no positive integer is ignored.
        for bad in [json!(0), json!(1.5), json!("3"), json!(-1)] {
            assert_eq!(uncovered_tokens(&loop_message(json!({ "usage": usage(), "usageStep": bad })), &opts()), 0);
        }
    }

    #[test]
    fn a_single_cut_step_with_a_tool_counts_all_of_it() {
        let node = crate::session::Node::parse_strict(json!({ "id": "A", "parentId": "U", "role": "assistant",
            "parts": [{ "type": "tool-readPage", "toolCallId": "c", "state": "output-available", "input": {}, "output": "x ".repeat(500) }],
            "metadata": { "usage": usage(), "finishReason": "error" } })).unwrap();
        let m = node.message().unwrap();
        assert_eq!(uncovered_tokens(m, &opts()), part_tokens(m, 0) + MESSAGE_OVERHEAD_TOKENS * 3);
    }

    #[test]
    fn v5_and_v6_shapes() {
        let v5 = read_usage(&json!({"inputTokens": 1000, "outputTokens": 200, "totalTokens": 1200, "reasoningTokens": 50})).unwrap();
        assert_eq!(v5, Usage { input: 1000, output: 200, reasoning: 50, cache_read: 0, cache_write: 0 });
        assert_eq!(v5.occupancy(false), 1150);
        assert_eq!(v5.occupancy(true), 1200);
        let v6 = read_usage(&json!({
            "inputTokens": 1000, "inputTokenDetails": {"noCacheTokens": 100, "cacheReadTokens": 900, "cacheWriteTokens": null},
            "outputTokens": 200, "outputTokenDetails": {"textTokens": 120, "reasoningTokens": 80}, "totalTokens": 1200
        }))
        .unwrap();
        assert_eq!(v6, Usage { input: 1000, output: 200, reasoning: 80, cache_read: 900, cache_write: 0 });
        // Anthropic under v5: inputTokens excludes the cache read.
        let anthropic_v5 = read_usage(&json!({"inputTokens": 12, "outputTokens": 300, "cachedInputTokens": 9000})).unwrap();
        assert_eq!(anthropic_v5.input, 9012);
        assert_eq!(anthropic_v5.cache_read, 9000);
        // Anthropic under v5 after `usageMetadata`: the cache write from providerMetadata is in the details.
        let written = read_usage(&json!({
            "inputTokens": 12, "outputTokens": 300, "cachedInputTokens": null,
            "inputTokenDetails": {"noCacheTokens": 12, "cacheReadTokens": 0, "cacheWriteTokens": 30000}
        }))
        .unwrap();
        assert_eq!((written.input, written.cache_read, written.cache_write, written.cached_prefix()), (30012, 0, 30000, 30000));
    }

    #[test]
    fn defects_are_not_baselines() {
        for bad in [
            json!({"inputTokens": 0, "outputTokens": 0, "totalTokens": 0}),
            json!({"inputTokens": null, "outputTokens": 5}),
            json!({"inputTokens": -3, "outputTokens": 5}),
            json!({"inputTokens": 10, "outputTokens": "5"}),
            json!({"inputTokens": 10}),
            json!({"inputTokens": 10, "outputTokens": 5, "reasoningTokens": -1}),
            json!({"inputTokens": 10, "outputTokens": 5, "outputTokenDetails": {"reasoningTokens": -1}}),
            json!({"inputTokens": 1e300, "outputTokens": 5}),
            json!("usage"),
        ] {
            assert_eq!(read_usage(&bad), None, "{bad}");
        }
    }

    #[test]
    fn reasoning_never_exceeds_output() {
        let u = read_usage(&json!({"inputTokens": 10, "outputTokens": 5, "reasoningTokens": 50})).unwrap();
        assert_eq!(u.occupancy(false), 10);
    }
}
