//! Provider usage as a baseline of context occupancy: AI SDK `LanguageModelUsage` (v5 and v6) read from
//! `message.metadata.usage`, the usage of the last step of that response.
//!
//! Rule `usage-valid`: every number present is finite and non-negative (and within a JS safe integer),
//! `inputTokens` and `outputTokens` are present, and input is not zero (a request always carries input;
//! zero, like all-zero, means the provider did not report). `NaN` arrives as `null` through JSON and so
//! fails the presence test. Any defect makes the whole usage invalid; it is then simply not a baseline.
//! Rule `billing-totals-ignored`: only `metadata.usage` is read, never `metadata.totalUsage` (a sum over
//! steps is billing, not occupancy).

use serde_json::{Map, Value};

use crate::session::MAX_SAFE_INTEGER;

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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
