//! Model profiles and the capacity derived from them (reserve, safe input limit, thresholds, budgets).
//!
//! Every number is a fraction of the context window `W`, bounded where a fixed size makes sense.
//! With `O` the model's output cap (`maxOutputTokens`, when given):
//!
//! | field                    | formula                                              |
//! |--------------------------|------------------------------------------------------|
//! | `reservedTokens`         | `min(max(W/8, min(1024, W/4)), 32_768, O)`           |
//! | `safeInputLimit`         | `W - reservedTokens`                                 |
//! | `autoCompactAt`          | `safeInputLimit * 9/10`; with `autoCompactRatio` `a`: `floor(a * W)` |
//! | `summaryMaxOutputTokens` | `min(W/10, 8_192, reservedTokens)` (so also `<= O`)  |
//! | `tailBudget`             | `min(W/5, 48_000)`; with `tailShare` `t`: `floor(t * W)` (no ceiling) |
//! | projected ledger (`projected_ledger_budget`, not a field) | `(2 * summaryMaxOutputTokens + 64) / 8`, about `S/4` |
//! | user's words, cited pages (`register_budgets`, not fields) | `min(2S/5, 2R/3)`, `min(S/5, R - words)`, `R` the room left below |
//!
//! Invariants (tested over windows 1,024..2,000,000 and caps 1..128,000 in `tests/estimate/capacity.rs`):
//! - rule `safe-limit-positive`: the reserve is at most `W/4`, so `safeInputLimit >= 3W/4 > 0`;
//! - rule `reserve-scales`: for a fixed cap the reserve never shrinks as the window grows;
//! - rule `summary-within-output-cap`: the summary budget is at most the reserve, which is at most `O`;
//! - rule `compaction-frees-room`: `summaryMaxOutputTokens + projected ledger + registers + tailBudget <= autoCompactAt / 2`
//!   (the registers take only the room `R` the others leave, so this reduces to the rule without them),
//!   because `W/10 + W/40 + 8 + W/5 = 0.325 W + 8` while `autoCompactAt >= 0.9 * 0.75 W = 0.675 W`. The
//!   projection right after a compaction is therefore at most half the threshold, whatever the ledger's
//!   size (the checkpoint keeps every entry; only a budgeted part is projected): no compaction loop.
//!
//! A profile may set the threshold and the tail itself (`autoCompactRatio`, `tailShare`: fractions of
//! `W` in (0, 1]; issue 41). Rule `valid-model` then also refuses a threshold over `safeInputLimit`
//! and any pair that breaks `compaction-frees-room`, with a message saying what to lower or raise.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::error::{Error, ErrorCode, Result};
use crate::session::{parse_count, MAX_SAFE_INTEGER};

/// Smallest accepted context window. Below it a summary budget (W/10 ~ 100 tokens) and one user turn no
/// longer fit beside each other; every chat model in use has at least 2,048.
pub const MIN_CONTEXT_WINDOW: u64 = 1_024;

/// The reserve is an eighth of the window: room for the next response. 1/8 of 200k is 25k, about what
/// coding agents keep free for one response (pi reserves 16k, Claude Code ~20k) ...
pub const RESERVE_FRACTION_DIVISOR: u64 = 8;
/// ... but at least 1,024 tokens (a useful answer) while that stays within a quarter of the window ...
pub const RESERVE_FLOOR: u64 = 1_024;
/// ... and at most 32,768: a single response longer than that is rare, and the rest of a large window
/// is worth more as input.
pub const RESERVE_CEILING: u64 = 32_768;

/// Automatic compaction starts at 90% of the safe limit: the last tenth is headroom for the next user turn
/// and for estimate error, so a preflight rarely has to compact in the user's face.
pub const AUTO_COMPACT_PERCENT: u64 = 90;

/// Summary budget: a tenth of the window, at most 8,192 tokens. The eight-section research checkpoint is
/// useful at 1-4k tokens; 8k leaves room for long resource lists without crowding the verbatim tail.
pub const SUMMARY_FRACTION_DIVISOR: u64 = 10;
pub const SUMMARY_CEILING: u64 = 8_192;

/// Verbatim tail: a fifth of the window, at most 48,000 tokens (pi keeps 20k; research turns with PDF
/// excerpts are larger, and 48k still leaves most of a 200k window free after a compaction).
pub const TAIL_FRACTION_DIVISOR: u64 = 5;
pub const TAIL_CEILING: u64 = 48_000;

/// What the caller tells us about the model (`ModelProfile` in the contract).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct ModelProfile {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Tokens.
    pub context_window: u64,
    /// The model's own output cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u64>,
    /// The provider sends earlier reasoning back (default false).
    #[serde(default)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional, as = "Option<_>"))]
    pub replays_reasoning: bool,
    /// Override of the fixed image cost.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_tokens: Option<u64>,
    /// The fraction of the context window at which automatic compaction starts, in (0, 1] and at most
    /// `safeInputLimit / contextWindow` (default: 9/10 of the safe input limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auto_compact_ratio: Option<f64>,
    /// The fraction of the context window kept verbatim as the tail, in (0, 1] (default: a fifth,
    /// at most 48,000 tokens; a given share has no ceiling).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tail_share: Option<f64>,
}

/// The model's token budget (`capacity(model)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct Capacity {
    pub context_window: u64,
    pub reserved_tokens: u64,
    /// contextWindow - reservedTokens.
    pub safe_input_limit: u64,
    pub auto_compact_at: u64,
    pub tail_budget: u64,
    pub summary_max_output_tokens: u64,
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorCode::InvalidModel, message)
}

impl ModelProfile {
    /// Reads and validates a profile from JSON, with messages naming the field.
    pub fn from_value(value: &Value) -> Result<ModelProfile> {
        let Value::Object(map) = value else {
            return Err(invalid("model must be an object { contextWindow, maxOutputTokens?, replaysReasoning?, imageTokens?, autoCompactRatio?, tailShare? }"));
        };
        let count = |name: &str| -> Result<Option<u64>> {
            match map.get(name) {
                None | Some(Value::Null) if name != "contextWindow" => Ok(None),
                None | Some(Value::Null) => Err(invalid("model.contextWindow is missing or null: a ModelProfile needs the model's context window in tokens, e.g. { contextWindow: 128000 }")),
                Some(v) => parse_count(v)
                    .map(Some)
                    .ok_or_else(|| invalid(format!("model.{name} must be a non-negative integer, got {v}"))),
            }
        };
        let id = match map.get("id") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(_) => return Err(invalid("model.id must be a string")),
        };
        let replays_reasoning = match map.get("replaysReasoning") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(invalid("model.replaysReasoning must be a boolean")),
        };
        let share = |name: &str| -> Result<Option<f64>> {
            match map.get(name) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => v.as_f64().map(Some).ok_or_else(|| invalid(format!("model.{name} must be a number in (0, 1], got {v}"))),
            }
        };
        let profile = ModelProfile {
            id,
            context_window: count("contextWindow")?.unwrap_or(0),
            max_output_tokens: count("maxOutputTokens")?,
            replays_reasoning,
            image_tokens: count("imageTokens")?,
            auto_compact_ratio: share("autoCompactRatio")?,
            tail_share: share("tailShare")?,
        };
        profile.validate()?;
        Ok(profile)
    }

    /// Rule `valid-model`: a window of at least `MIN_CONTEXT_WINDOW` that a JS number holds exactly, and a
    /// positive output cap when one is given. An output cap larger than the window is accepted (some
    /// providers share the window between input and output); the window rules bound everything then.
    /// `autoCompactRatio` and `tailShare`, when given: see `check_shares`.
    pub fn validate(&self) -> Result<()> {
        if self.context_window < MIN_CONTEXT_WINDOW {
            return Err(invalid(format!(
                "model.contextWindow must be at least {MIN_CONTEXT_WINDOW} tokens, got {}",
                self.context_window
            )));
        }
        if self.context_window as f64 > MAX_SAFE_INTEGER {
            return Err(invalid("model.contextWindow is larger than a JS number holds exactly"));
        }
        if self.max_output_tokens == Some(0) {
            return Err(invalid("model.maxOutputTokens must be positive when given"));
        }
        if self.auto_compact_ratio.is_some() || self.tail_share.is_some() {
            check_shares(self, &derive(self))?;
        }
        Ok(())
    }

    /// The per-message estimator's options for this model.
    pub fn estimate_options(&self) -> super::message::EstimateOptions {
        super::message::EstimateOptions { replays_reasoning: self.replays_reasoning, image_tokens: self.image_tokens }
    }
}

/// The capacity of a validated model (see the module comment for the formulas).
pub fn capacity(model: &ModelProfile) -> Result<Capacity> {
    model.validate()?;
    Ok(derive(model))
}

/// `floor(share * window)`; exact enough: the window is below 2^53 and the share at most 1.
fn share_of(window: u64, share: f64) -> u64 {
    (share * window as f64).floor() as u64
}

/// The profile's own threshold and tail, when it sets them (rule `valid-model`): each a number in
/// (0, 1]; the threshold at most the safe input limit (above it a request is already refused before
/// compaction would start); and rule `compaction-frees-room` still holding, so that a compaction
/// always brings the projection to at most half the threshold.
fn check_shares(model: &ModelProfile, derived: &Capacity) -> Result<()> {
    for (name, share) in [("autoCompactRatio", model.auto_compact_ratio), ("tailShare", model.tail_share)] {
        if let Some(share) = share.filter(|s| !(s.is_finite() && *s > 0.0 && *s <= 1.0)) {
            return Err(invalid(format!("model.{name} must be a number in (0, 1], got {share}")));
        }
    }
    let window = derived.context_window;
    if let Some(ratio) = model.auto_compact_ratio {
        if derived.auto_compact_at > derived.safe_input_limit {
            let most = derived.safe_input_limit as f64 / window as f64;
            return Err(invalid(format!(
                "model.autoCompactRatio {ratio} starts compaction at {} tokens, over the safe input limit of {} (contextWindow {window} less the {} reserved for the response): lower autoCompactRatio to at most {}",
                derived.auto_compact_at, derived.safe_input_limit, derived.reserved_tokens, floor_to_thousandths(most)
            )));
        }
    }
    let others = derived.summary_max_output_tokens + projected_ledger_budget(derived);
    let kept = others + derived.tail_budget;
    if 2 * kept > derived.auto_compact_at {
        // The largest tail that fits below this threshold, and the smallest threshold that fits this
        // tail, each offered when it can be set.
        let most_tail = (derived.auto_compact_at / 2).saturating_sub(others);
        let verb = |given: Option<f64>, change: &'static str| if given.is_some() { change } else { "set" };
        let mut fixes = Vec::new();
        let most_share = floor_to_thousandths(most_tail as f64 / window as f64);
        if most_share > 0.0 {
            fixes.push(format!("{} tailShare to at most {most_share}", verb(model.tail_share, "lower")));
        }
        if 2 * kept <= derived.safe_input_limit {
            let least = ceil_to_thousandths((2 * kept) as f64 / window as f64);
            fixes.push(format!("{} autoCompactRatio to at least {least}", verb(model.auto_compact_ratio, "raise")));
        }
        let fix = if fixes.is_empty() { "lower tailShare and raise autoCompactRatio".to_string() } else { fixes.join(" or ") };
        let field = if model.tail_share.is_some() { "tailShare" } else { "autoCompactRatio" };
        return Err(invalid(format!(
            "model.{field}: rule compaction-frees-room: the summary budget ({}) + projected ledger ({}) + tail budget ({}) = {kept} tokens must be at most half the automatic threshold ({} / 2), or a compaction would not free room: {fix}",
            derived.summary_max_output_tokens,
            projected_ledger_budget(derived),
            derived.tail_budget,
            derived.auto_compact_at
        )));
    }
    Ok(())
}

/// A share shown for a message, rounded down (so "at most" holds) or up (so "at least" holds).
fn floor_to_thousandths(share: f64) -> f64 {
    (share * 1000.0).floor() / 1000.0
}
fn ceil_to_thousandths(share: f64) -> f64 {
    (share * 1000.0).ceil() / 1000.0
}

/// The formulas of the module comment, on a profile whose window and cap are valid.
fn derive(model: &ModelProfile) -> Capacity {
    let window = model.context_window;
    let output_cap = model.max_output_tokens.unwrap_or(u64::MAX);
    let reserved_tokens = (window / RESERVE_FRACTION_DIVISOR)
        .max(RESERVE_FLOOR.min(window / 4))
        .min(RESERVE_CEILING)
        .min(output_cap);
    let safe_input_limit = window - reserved_tokens;
    let auto_compact_at = match model.auto_compact_ratio {
        Some(ratio) => share_of(window, ratio),
        None => safe_input_limit / 100 * AUTO_COMPACT_PERCENT + safe_input_limit % 100 * AUTO_COMPACT_PERCENT / 100,
    };
    let summary_max_output_tokens = (window / SUMMARY_FRACTION_DIVISOR).min(SUMMARY_CEILING).min(reserved_tokens);
    let tail_budget = match model.tail_share {
        Some(share) => share_of(window, share),
        None => (window / TAIL_FRACTION_DIVISOR).min(TAIL_CEILING),
    };
    Capacity {
        context_window: window,
        reserved_tokens,
        safe_input_limit,
        auto_compact_at,
        tail_budget,
        summary_max_output_tokens,
    }
}

/// A summary written within its budget in Latin or CJK script is estimated at most about twice that
/// (plus its headings); the ledger bound below assumes it. The runner accepts more (scripts the
/// estimator prices far above o200k, `commit::SUMMARY_ESTIMATE_FACTOR`); such a summary's own estimate
/// is then over the plan's figure as well, and the controller's estimate before a send is the check.
const LATIN_SUMMARY_ESTIMATE_FACTOR: u64 = 2;
const LATIN_SUMMARY_HEADINGS: u64 = 64;

/// Most tokens the ledger's projected part takes beside a summary made for this capacity, fixed
/// when the checkpoint is made and stored on it (rule `ledger-projection-budget`): the estimate of
/// a summary within its budget (see above) divided by `ledger::PROJECTED_LEDGER_DIVISOR`, about a
/// quarter of the summary budget. 8k window: 212 tokens; 128k and up: 2,056.
pub fn projected_ledger_budget(capacity: &Capacity) -> u64 {
    ledger_budget_for_summary_budget(capacity.summary_max_output_tokens)
}

/// `projected_ledger_budget` for a summary budget (`maxOutputTokens` of the summary request).
pub fn ledger_budget_for_summary_budget(summary_max_output_tokens: u64) -> u64 {
    summary_max_output_tokens.saturating_mul(LATIN_SUMMARY_ESTIMATE_FACTOR).saturating_add(LATIN_SUMMARY_HEADINGS)
        / crate::ledger::PROJECTED_LEDGER_DIVISOR
}

/// Tokens allowed for the run joins where the registers' texts meet the summary and each other.
pub const REGISTER_JOIN_SLACK: u64 = 16;

/// Rule `register-budgets`: most tokens of the user's words and of the cited pages projected beside a
/// summary made for this capacity, fixed when the checkpoint is made and stored on it. Each is a
/// share of the summary budget `S` (2/5 and 1/5: the user's own words first, they are what a summary
/// most often loses), within the room `R` that rule `compaction-frees-room` leaves below half the
/// automatic threshold after the summary, the projected ledger and the tail. 8k: 326 and 163; 32k:
/// 1,310 and 655; 128k and up: 3,276 and 1,638. A plan adds the tail budget its kept tail leaves
/// (rule `registers-take-unused-tail`).
pub fn register_budgets(capacity: &Capacity) -> (u64, u64) {
    let taken = [capacity.summary_max_output_tokens, projected_ledger_budget(capacity), capacity.tail_budget, REGISTER_JOIN_SLACK]
        .into_iter()
        .fold(0u64, u64::saturating_add);
    let room = (capacity.auto_compact_at / 2).saturating_sub(taken);
    let (words, pages) = crate::registers::budgets_for_summary_budget(capacity.summary_max_output_tokens);
    let words = words.min(room * 2 / 3);
    (words, pages.min(room - words))
}


/// What a plan counts for the registers beside a summary made for this capacity: both budgets and
/// the join slack, nothing when there is no room for them (tiny windows).
pub fn register_frame_tokens(capacity: &Capacity) -> u64 {
    match register_budgets(capacity) {
        (0, 0) => 0,
        (words, pages) => words + pages + REGISTER_JOIN_SLACK,
    }
}
