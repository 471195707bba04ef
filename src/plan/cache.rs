//! The provider's prompt cache: the profile an app gives, the cache state a plan reports, where cache
//! breakpoints go on what is sent, and what a compaction costs.
//!
//! Rule `cache-state`: `warm` when the baseline response (the estimate's) is younger than the profile's
//! lifetime at `now`, `cold` when older, `unknown` without a profile, `now`, a baseline or its
//! `createdAt`. Idle time comes from node times only, never from one usage reading.
//! Rule `breakpoints`: at most `maxBreakpoints`, chosen newest first: the newest message (the draft when
//! given), the end of the previous request's prompt (the message before the baseline), the summary
//! message of the newest checkpoint; none whose estimated prefix (overhead included) is under
//! `minPrefixTokens`; one per message; answered in projection order.
//! Rule `cache-cold-share`: an automatic compaction also runs when the cache is cold and the projection
//! is at least `COLD_COMPACT_PERCENT` of `autoCompactAt` (plan reason `cache-cold`).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode, Result};
use crate::estimate::{BranchTokens, ProjectionSpan, Usage};
use crate::session::{parse_count, Session};
use crate::text::object;

/// An expired cache must rewrite the whole prefix anyway: compacting then, at three quarters of the
/// automatic threshold, costs a summary request instead of a full write now and another one soon.
pub const COLD_COMPACT_PERCENT: u64 = 75;

/// What the app tells us about the provider's prompt cache (src/plan/cache.rs; docs/prompt-cache.md):
/// prices per million tokens. `cacheProfile(name)` gives documented defaults.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct CacheProfile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    pub input_price: f64,
    /// Defaults to inputPrice.
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(as = "Option<_>"))]
    pub cache_write_price: f64,
    /// Defaults to inputPrice.
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(as = "Option<_>"))]
    pub cache_read_price: f64,
    /// Defaults to 0.
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(as = "Option<_>"))]
    pub output_price: f64,
    /// How long an unused cache entry lives, in milliseconds.
    pub lifetime_ms: u64,
    /// The shortest prefix the provider caches (default 1,024).
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(as = "Option<_>"))]
    pub min_prefix_tokens: u64,
    /// Explicit breakpoints the provider takes (default 4; 0: an implicit cache, nothing is marked).
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(as = "Option<_>"))]
    pub max_breakpoints: u64,
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidOptions, message)
}

impl CacheProfile {
    /// Reads `{ inputPrice, cacheWritePrice?, cacheReadPrice?, outputPrice?, lifetimeMs, minPrefixTokens?,
    /// maxBreakpoints?, provider? }`; a write price defaults to the input price, a read price to it too
    /// (no discount known), the output price to 0, the minimum prefix to 1,024, breakpoints to 4.
    pub fn from_value(value: &Value) -> Result<CacheProfile> {
        let Value::Object(map) = value else {
            return Err(invalid("cache must be a cache profile object { inputPrice, lifetimeMs, ... }"));
        };
        let price = |name: &str, default: Option<f64>| -> Result<f64> {
            match map.get(name) {
                None | Some(Value::Null) => default.ok_or_else(|| invalid(format!("cache.{name} is missing or null"))),
                Some(Value::Number(n)) => n
                    .as_f64()
                    .filter(|f| f.is_finite() && *f >= 0.0)
                    .ok_or_else(|| invalid(format!("cache.{name} must be a finite non-negative number"))),
                Some(_) => Err(invalid(format!("cache.{name} must be a number"))),
            }
        };
        let count = |name: &str, default: Option<u64>| -> Result<u64> {
            match map.get(name) {
                None | Some(Value::Null) => default.ok_or_else(|| invalid(format!("cache.{name} is missing or null"))),
                Some(v) => parse_count(v).ok_or_else(|| invalid(format!("cache.{name} must be a non-negative integer, got {v}"))),
            }
        };
        let provider = match map.get("provider") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(invalid("cache.provider must be a string")),
        };
        let input_price = price("inputPrice", None)?;
        let lifetime_ms = count("lifetimeMs", None)?;
        if lifetime_ms == 0 {
            return Err(invalid("cache.lifetimeMs must be positive"));
        }
        Ok(CacheProfile {
            provider,
            input_price,
            cache_write_price: price("cacheWritePrice", Some(input_price))?,
            cache_read_price: price("cacheReadPrice", Some(input_price))?,
            output_price: price("outputPrice", Some(0.0))?,
            lifetime_ms,
            min_prefix_tokens: count("minPrefixTokens", Some(1_024))?,
            max_breakpoints: count("maxBreakpoints", Some(4))?,
        })
    }
}

/// `options.cache` and `options.now` (ms since the epoch) of `plan` and `cacheBreakpoints`.
#[derive(Debug, Clone, Default)]
pub struct CacheOptions {
    pub profile: Option<CacheProfile>,
    pub now: Option<u64>,
}

impl CacheOptions {
    /// Reads them from the options object (other fields are left to their readers).
    pub fn from_value(value: Option<&Value>) -> Result<CacheOptions> {
        let Some(Value::Object(map)) = value else { return Ok(CacheOptions::default()) };
        Self::from_map(map)
    }

    fn from_map(map: &Map<String, Value>) -> Result<CacheOptions> {
        let profile = match map.get("cache") {
            None | Some(Value::Null) => None,
            Some(v) => Some(CacheProfile::from_value(v)?),
        };
        let now = match map.get("now") {
            None | Some(Value::Null) => None,
            Some(v) => Some(parse_count(v).ok_or_else(|| invalid("options.now must be a time in ms (a non-negative integer)"))?),
        };
        Ok(CacheOptions { profile, now })
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum CacheState {
    Warm,
    Cold,
    Unknown,
}

/// `Plan.cache`: the state (rule `cache-state`) and the prefix the baseline reports as cached.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CacheReport {
    /// warm / cold from the baseline response's createdAt and the profile's lifetime.
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(inline))]
    pub state: CacheState,
    /// ms from the baseline response to `now`, when both are known.
    pub idle_ms: Option<u64>,
    /// `cacheReadTokens + cacheWriteTokens` of the baseline (v5: `cachedInputTokens`); 0 without one.
    pub cached_prefix_tokens: u64,
    pub baseline_message_id: Option<String>,
}

/// The cache state of the projection (rule `cache-state`).
pub fn cache_report(
    session: &Session,
    tokens: &BranchTokens,
    span: &ProjectionSpan,
    profile: Option<&CacheProfile>,
    now: Option<u64>,
) -> CacheReport {
    let baseline: Option<(usize, Usage)> = tokens.baseline(span);
    let node = baseline.and_then(|(p, _)| tokens.node_at(p)).map(|i| &session.nodes[i]);
    let created = node.and_then(|n| n.created_at).filter(|t| t.is_finite() && *t >= 0.0);
    let idle_ms = match (now, created) {
        (Some(now), Some(created)) => Some((now as f64 - created).max(0.0) as u64),
        _ => None,
    };
    let state = match (profile, idle_ms) {
        (Some(profile), Some(idle)) if idle > profile.lifetime_ms => CacheState::Cold,
        (Some(_), Some(_)) => CacheState::Warm,
        _ => CacheState::Unknown,
    };
    CacheReport {
        state,
        idle_ms,
        cached_prefix_tokens: baseline.map_or(0, |(_, u)| u.cached_prefix()),
        baseline_message_id: node.map(|n| n.id.clone()),
    }
}

/// Rule `cache-cold-share`: the projection is far enough along that a cold cache is worth compacting.
pub fn cold_compaction_due(report: &CacheReport, tokens_before: u64, auto_compact_at: u64) -> bool {
    report.state == CacheState::Cold && tokens_before.saturating_mul(100) >= auto_compact_at.saturating_mul(COLD_COMPACT_PERCENT)
}

/// What a compaction costs (`Plan.cost` of a compacting plan; prices from the profile, per million).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct CompactionCost {
    pub tokens_before: u64,
    pub tokens_after: u64,
    /// The cached prefix the compaction throws away (0 when the cache is cold already).
    pub cached_prefix_invalidated: u64,
    /// With a profile: the next request's input cost without this compaction and with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_request_without: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_request_with: Option<f64>,
    /// With a profile: the summary request (its input never cached, the summary budget as output).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary_request: Option<f64>,
}

/// Estimates the cost of a compaction from `before` to `after` tokens, `summarized` tokens folded into
/// the summary request, with `summary_budget` as its output. Without compaction a warm cache is read
/// for its cached prefix and the rest is written; a cold one writes everything. With it the new prefix
/// is written, except the request overhead (system, tools), which comes before the summary and stays
/// cached while the cache is warm.
pub fn compaction_cost(
    report: &CacheReport,
    profile: Option<&CacheProfile>,
    before: u64,
    after: u64,
    overhead: u64,
    summarized: u64,
    summary_budget: u64,
) -> CompactionCost {
    let warm = report.state != CacheState::Cold;
    let cached = if warm { report.cached_prefix_tokens.min(before) } else { 0 };
    let per = |tokens: u64, price: f64| tokens as f64 * price / 1_000_000.0;
    let priced = profile.map(|p| {
        let without = per(cached, p.cache_read_price) + per(before - cached, p.cache_write_price);
        let kept = if warm { overhead.min(cached).min(after) } else { 0 };
        let with = per(kept, p.cache_read_price) + per(after - kept, p.cache_write_price);
        let summary = per(summarized, p.input_price) + per(summary_budget, p.output_price);
        (without, with, summary)
    });
    CompactionCost {
        tokens_before: before,
        tokens_after: after,
        cached_prefix_invalidated: cached.saturating_sub(if warm { overhead } else { 0 }),
        next_request_without: priced.map(|p| p.0),
        next_request_with: priced.map(|p| p.1),
        summary_request: priced.map(|p| p.2),
    }
}

/// One cache breakpoint: after the message at `index` of the request (the projection's messages, then
/// the draft when given).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename = "CacheBreakpoint"))]
#[serde(rename_all = "camelCase")]
pub struct Breakpoint {
    /// Index in the request: the projection's messages, then the draft.
    pub index: usize,
    /// The message's id (the checkpoint's for the summary message; null for a draft without one).
    pub message_id: Option<String>,
    /// `summary`, `previous-request` or `newest`.
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(type = "'summary' | 'previous-request' | 'newest'"))]
    pub reason: String,
    /// Estimated tokens of the request up to and including this message (overhead included).
    pub prefix_tokens: u64,
}

/// Where the breakpoints go (rule `breakpoints`). `draft` is the draft's (id, tokens) when one follows
/// the projection; `limit` and `min_prefix` come from the profile.
pub fn breakpoints(
    session: &Session,
    tokens: &BranchTokens,
    draft: Option<(Option<String>, u64)>,
    overhead: u64,
    limit: u64,
    min_prefix: u64,
) -> Vec<Breakpoint> {
    let span = tokens.span();
    let summary = span.summary.map(|c| tokens.summary_tokens(c));
    let first = usize::from(summary.is_some());
    let head = overhead.saturating_add(summary.unwrap_or(0));
    let is_message = |p: usize| span.checkpoint != Some(p) && tokens.node_at(p).is_some_and(|i| session.nodes[i].message().is_some());
    // The breakpoint after the message at branch position `p`.
    let at = |p: usize, reason: &str| Breakpoint {
        index: first + tokens.message_count(span.start, p + 1) - 1,
        message_id: tokens.node_at(p).map(|i| session.nodes[i].id.clone()),
        reason: reason.into(),
        prefix_tokens: head.saturating_add(tokens.sum(span.start, p + 1)),
    };
    let summary_mark = |reason: &str| {
        summary.map(|s| Breakpoint {
            index: 0,
            message_id: span.summary.and_then(|c| tokens.node_at(c)).map(|i| session.nodes[i].id.clone()),
            reason: reason.into(),
            prefix_tokens: overhead.saturating_add(s),
        })
    };
    let last_message = |before: usize| (span.start..before).rev().find(|&p| is_message(p));
    let mut chosen: Vec<Breakpoint> = Vec::new();
    let newest = match draft {
        Some((id, draft_tokens)) => Some(Breakpoint {
            index: first + tokens.message_count(span.start, span.end),
            message_id: id,
            reason: "newest".into(),
            prefix_tokens: head.saturating_add(tokens.sum(span.start, span.end)).saturating_add(draft_tokens),
        }),
        None => last_message(span.end).map(|p| at(p, "newest")).or_else(|| summary_mark("newest")),
    };
    chosen.extend(newest);
    let previous = tokens
        .baseline(&span)
        .map(|(b, _)| last_message(b).map(|p| at(p, "previous-request")).or_else(|| summary_mark("previous-request")));
    chosen.extend(previous.flatten());
    chosen.extend(summary_mark("summary"));
    let mut out: Vec<Breakpoint> = Vec::new();
    for mark in chosen {
        if out.len() as u64 >= limit {
            break;
        }
        if mark.prefix_tokens >= min_prefix && out.iter().all(|m| m.index != mark.index) {
            out.push(mark);
        }
    }
    // At most three marks, their indexes distinct: an insertion sort (no sort of the standard
    // library instantiated for `Breakpoint`).
    for i in 1..out.len() {
        let mut j = i;
        while j > 0 && out[j - 1].index > out[j].index {
            out.swap(j - 1, j);
            j -= 1;
        }
    }
    out
}

/// `{ breakpoints }` as `json!` would make it (keys of each mark sorted, as a `Value` object holds
/// them), built field by field (docs/performance.md, "Where the wasm's bytes go").
pub fn breakpoints_value(breakpoints: &[Breakpoint]) -> Value {
    let marks = breakpoints
        .iter()
        .map(|b| {
            object(vec![
                ("index", Value::from(b.index)),
                ("messageId", b.message_id.clone().map_or(Value::Null, Value::from)),
                ("reason", Value::from(b.reason.as_str())),
                ("prefixTokens", Value::from(b.prefix_tokens)),
            ])
        })
        .collect();
    object(vec![("breakpoints", Value::Array(marks))])
}

/// Documented defaults (docs/prompt-cache.md); prices in US dollars per million tokens, as published
/// in 2026 for the named model.
pub fn default_profile(name: &str) -> Option<CacheProfile> {
    let profile = |provider: &str, input: f64, write: f64, read: f64, output: f64, lifetime_ms: u64, min_prefix: u64, marks: u64| CacheProfile {
        provider: Some(provider.into()),
        input_price: input,
        cache_write_price: write,
        cache_read_price: read,
        output_price: output,
        lifetime_ms,
        min_prefix_tokens: min_prefix,
        max_breakpoints: marks,
    };
    const MINUTE: u64 = 60_000;
    Some(match name {
        // Claude Sonnet 4.x: writes cost 1.25x input (5 minutes) or 2x (1 hour), reads 0.1x.
        "anthropic-5m" => profile("anthropic", 3.0, 3.75, 0.30, 15.0, 5 * MINUTE, 1_024, 4),
        "anthropic-1h" => profile("anthropic", 3.0, 6.0, 0.30, 15.0, 60 * MINUTE, 1_024, 4),
        "bedrock" => profile("bedrock", 3.0, 3.75, 0.30, 15.0, 5 * MINUTE, 1_024, 4),
        // Lifetimes of implicit caches are the longest the provider documents: a cold compaction
        // on a cache that is still warm throws the cache away, waiting costs nothing until the
        // threshold (docs/prompt-cache.md cites the sources).
        // GPT-4.1: implicit cache, reads at a quarter; extended retention (24 h) is the default for
        // organizations without zero data retention (in memory: 5-10 minutes idle, at most 1 hour).
        "openai" => profile("openai", 2.0, 2.0, 0.50, 8.0, 24 * 60 * MINUTE, 1_024, 0),
        // DeepSeek V3.2: implicit disk cache in 64-token units, cleared "within a few hours to a few days".
        "deepseek" => profile("deepseek", 0.28, 0.28, 0.028, 0.42, 24 * 60 * MINUTE, 64, 0),
        // Gemini 2.5 Flash: implicit cache, reads at a quarter; its lifetime is undocumented, an
        // explicit cache's default TTL is 1 hour.
        "google" => profile("google", 0.30, 0.30, 0.075, 2.50, 60 * MINUTE, 1_024, 0),
        _ => return None,
    })
}

/// The names `default_profile` knows.
pub const DEFAULT_PROFILE_NAMES: [&str; 6] = ["anthropic-5m", "anthropic-1h", "bedrock", "openai", "deepseek", "google"];

/// `cacheBreakpoints(session, model, { draft?, overhead?, cache? })` over an already read branch:
/// the limit and minimum prefix from `cache` (without one 4 and 1,024, Anthropic's); `draft_id` is the
/// draft's `id` when it has one.
pub fn cache_breakpoints_branch(
    session: &Session,
    branch: &crate::session::Branch,
    tokens: &mut BranchTokens,
    model: &crate::estimate::ModelProfile,
    request: &crate::estimate::EstimateRequest,
    draft_id: Option<String>,
    cache: &CacheOptions,
) -> Result<Vec<Breakpoint>> {
    model.validate()?;
    branch.require_readable()?;
    let options = model.estimate_options();
    tokens.sync(session, &branch.nodes, &options);
    let draft = request.draft.as_ref().map(|d| (draft_id, d.tokens(&options)));
    let (limit, min_prefix) = cache.profile.as_ref().map_or((4, 1_024), |p| (p.max_breakpoints, p.min_prefix_tokens));
    Ok(breakpoints(session, tokens, draft, request.overhead, limit, min_prefix))
}

/// The `id` of a draft given as a UIMessage object.
pub fn draft_id(options: Option<&Value>) -> Option<String> {
    options?.get("draft")?.get("id")?.as_str().map(str::to_string)
}

/// Stateless `cacheBreakpoints`.
pub fn cache_breakpoints(
    session: &Session,
    model: &crate::estimate::ModelProfile,
    request: &crate::estimate::EstimateRequest,
    draft_id: Option<String>,
    cache: &CacheOptions,
) -> Result<Vec<Breakpoint>> {
    let branch = crate::session::read_branch(session);
    cache_breakpoints_branch(session, &branch, &mut BranchTokens::default(), model, request, draft_id, cache)
}
