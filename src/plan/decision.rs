//! Compaction planning: when (mode rules) and where (the boundary, `boundary.rs`).
//!
//! Reason codes (stable strings in `Plan.reason`):
//! - `read-only`: the session has integrity problems; nothing is planned (action `none`, no `send`).
//! - `leaf-is-checkpoint` (manual): the branch already ends in a checkpoint (display-only nodes after it
//!   change nothing: they are never projected).
//! - `nothing-to-compact` (manual): fewer than two turns before the first checkpoint.
//! - `workflow-pending`: a tool part in `input-streaming`, `input-available`, `approval-requested` or
//!   `approval-responded` (or a state this version does not know) can still complete: its message is not
//!   cut (`metadata.aborted === true` or `metadata.finishReason === 'error'`) and no user message follows
//!   it on the branch (rule `interrupted-tool`, `model::pending_workflow`, the same test `check_commit`
//!   applies). An interrupted part never blocks. In preflight this comes with `send: 'too-large'`: the
//!   draft cannot be sent until the workflow finishes, and compaction cannot make room meanwhile.
//! - `under-threshold` (auto): the projection is below `autoCompactAt`.
//! - `boundary-cannot-advance` (auto): no boundary after the previous one.
//! - `cannot-free-room` (auto): the boundary advances, but the summary budget would take more room than
//!   the messages it folds in (e.g. when the request overhead fills most of the window): compacting would
//!   not lower the projection, and would fire again after every turn.
//! - `over-threshold` (auto, compact).
//! - `cache-cold` (auto, compact): under the threshold, but the prompt cache has expired (`options.cache`
//!   and `options.now` given) and the projection is past `cache::COLD_COMPACT_PERCENT` of it: the next
//!   request rewrites the whole prefix anyway (rule `cache-cold-share`; the same checks as `over-threshold`).
//! - `requested` (manual, compact): the boundary advances. Before the first checkpoint, when every turn
//!   fits the tail budget, only the latest turn is kept; an oversized newest turn is summarized too
//!   (rule `oversized-newest-turn` wins over keeping the latest turn).
//! - `refresh` (manual, compact): messages follow the newest checkpoint but the boundary stays; the summary
//!   is remade from the previous one and nothing new is folded in (`summarizeIds` empty).
//! - `fits` (preflight, `send: 'now'`).
//! - `over-limit` (preflight, compact, `send: 'after-compaction'`).
//! - `too-large` (preflight, `send: 'too-large'`): even after compacting everything it can, the draft
//!   does not fit; it must be shortened.
//!
//! Rule `draft-verbatim` (preflight): the turn being answered is never summarized. It is the given
//! draft, or without one the stored leaf turn (the leaf user message; for a continuation the leaf
//! assistant message with everything from its user message on): the boundary is at its user message
//! or before; when that cannot fit, `too-large`.
//!
//! Rules (named in the tests): `read-only-never-compacts`, `auto-only-when-stable`,
//! `auto-at-threshold`, `auto-boundary-advances`, `auto-frees-room`, `manual-two-turns`, `manual-keeps-latest-turn`,
//! `manual-refresh`, `manual-leaf-checkpoint-noop`, `preflight-send-now`, `preflight-after-compaction`,
//! `preflight-too-large`, `draft-verbatim`, `interrupted-tool`, `summarize-previous-tail` (the previous checkpoint's kept tail that now falls
//! before the new boundary is summarized again, with its summary), plus the boundary rules of
//! `boundary.rs`.
//!
//! Token fields: `tokensBefore` is the estimate of the projection (with the draft in preflight);
//! `tokensAfterEstimate` = summary budget + summary frame (preamble and ledger, see `Planner::frame`) + kept tail
//! (every message from the new boundary to the leaf) + overhead (+ draft in preflight). For a `none`
//! plan it equals `tokensBefore`. `firstKeptMessageId` of a `none` plan is the current boundary.
//! The draft is only read in preflight.
//!
//! With `options.cache` (a `CacheProfile`) the plan reports `cache` (rule `cache-state` of `cache.rs`),
//! and a compacting plan its `cost` (`cache::compaction_cost`). Preflight and the threshold never wait
//! for the cache.

use serde::Serialize;
use serde_json::Value;

use super::cache::{cache_report, cold_compaction_due, compaction_cost, CacheOptions, CacheProfile, CacheReport, CompactionCost};
use super::boundary::{advances, newest_turn, next_boundary, tail_boundary, turn_count, Boundary};
use crate::estimate::{capacity, BranchTokens, Capacity, Draft, EstimateOptions, EstimateRequest, ModelProfile, ProjectionSpan};
use crate::error::{Error, ErrorCode, Result};
use crate::session::{read_branch, Basis, Branch, Mode, Role, Session};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum PlanAction {
    Compact,
    None,
}

/// Preflight's answer: send now, after compacting, or not at all (the draft cannot fit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum SendDecision {
    Now,
    AfterCompaction,
    TooLarge,
}

/// The contract's `Plan`. `reason` is a stable code (see the module comment).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(optional_fields))]
#[serde(rename_all = "camelCase")]
pub struct Plan {
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(inline))]
    pub action: PlanAction,
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(type = "PlanReason"))]
    pub reason: String,
    pub mode: Mode,
    /// The new boundary (for `none`: the current one).
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional = false))]
    pub first_kept_message_id: Option<String>,
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional = false))]
    pub previous_checkpoint_id: Option<String>,
    /// Messages newly folded into the summary, in order.
    pub summarize_ids: Vec<String>,
    pub basis: Basis,
    pub tokens_before: u64,
    /// Summary budget + summary frame (preamble, projected ledger within `ledgerBudget`, registers at
    /// their budgets) + kept tail (+ overhead, draft).
    pub tokens_after_estimate: u64,
    /// Preflight only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub send: Option<SendDecision>,
    /// Compact plans: the projected ledger's budget from the model's capacity, which the checkpoint
    /// keeps and `tokensAfterEstimate` counts (rule `ledger-projection-budget`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ledger_budget: Option<u64>,
    /// Compact plans: the budgets of the user's words and of the cited pages projected beside the
    /// summary (rule `register-budgets`), which the checkpoint keeps and `tokensAfterEstimate` counts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_words_budget: Option<u64>,
    /// Compact plans: the cited pages' budget from the model, which the checkpoint keeps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cited_pages_budget: Option<u64>,
    /// With `options.cache`: the prompt cache's state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cache: Option<CacheReport>,
    /// With `options.cache`, on a compacting plan: what the compaction costs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<CompactionCost>,
}

/// `plan`'s options after validation: `{ mode, draft?, overhead? }`.
#[derive(Debug, Clone)]
pub struct PlanOptions {
    pub mode: Mode,
    pub draft: Option<Draft>,
    pub overhead: u64,
}

impl PlanOptions {
    pub fn new(mode: Mode) -> PlanOptions {
        PlanOptions { mode, draft: None, overhead: 0 }
    }

    pub fn from_value(value: &Value) -> Result<PlanOptions> {
        let mode = match value.get("mode").and_then(Value::as_str) {
            Some("manual") => Mode::Manual,
            Some("auto") => Mode::Auto,
            Some("preflight") => Mode::Preflight,
            _ => return Err(Error::new(ErrorCode::InvalidOptions, "options.mode must be 'manual', 'auto' or 'preflight'")),
        };
        let EstimateRequest { draft, overhead } = EstimateRequest::from_value(Some(value))?;
        Ok(PlanOptions { mode, draft, overhead })
    }
}

/// Stateless `plan(session, model, options)`.
pub fn plan(session: &Session, model: &ModelProfile, options: &PlanOptions) -> Result<Plan> {
    let branch = read_branch(session);
    plan_branch(session, &branch, &mut BranchTokens::default(), model, options)
}

/// `plan` over an already read branch and a cache that may hold earlier work (`SessionIndex`).
pub fn plan_branch(
    session: &Session,
    branch: &Branch,
    tokens: &mut BranchTokens,
    model: &ModelProfile,
    options: &PlanOptions,
) -> Result<Plan> {
    plan_branch_cached(session, branch, tokens, model, options, &CacheOptions::default())
}

/// `plan_branch` with the prompt cache's profile and the time (`options.cache`, `options.now`).
pub fn plan_branch_cached(
    session: &Session,
    branch: &Branch,
    tokens: &mut BranchTokens,
    model: &ModelProfile,
    options: &PlanOptions,
    cache_options: &CacheOptions,
) -> Result<Plan> {
    let capacity = capacity(model)?;
    let basis = Basis { leaf_id: session.leaf_id.clone().unwrap_or_default(), branch_revision: session.branch_revision };
    // Rule `read-only-never-compacts`.
    if branch.read_only {
        return Ok(Plan {
            action: PlanAction::None,
            reason: "read-only".into(),
            mode: options.mode,
            first_kept_message_id: None,
            previous_checkpoint_id: None,
            summarize_ids: Vec::new(),
            basis,
            tokens_before: 0,
            tokens_after_estimate: 0,
            send: None,
            ledger_budget: None,
            user_words_budget: None,
            cited_pages_budget: None,
            cache: None,
            cost: None,
        });
    }
    let estimate_options = model.estimate_options();
    tokens.sync(session, &branch.nodes, &estimate_options);
    let draft = match (options.mode, &options.draft) {
        (Mode::Preflight, Some(d)) => d.tokens(&estimate_options),
        _ => 0,
    };
    let before = tokens.estimate(session, model, capacity.safe_input_limit, draft, options.overhead).tokens;
    let span = tokens.span();
    let draft_start = match options.mode {
        Mode::Preflight => draft_turn_start(tokens, &span, options.draft.as_ref()),
        _ => span.end,
    };
    let profile = cache_options.profile.as_ref();
    let cache = profile.map(|p| cache_report(session, tokens, &span, Some(p), cache_options.now));
    let planner = Planner {
        session,
        tokens,
        estimate_options: &estimate_options,
        capacity,
        span,
        basis,
        mode: options.mode,
        before,
        draft,
        draft_start,
        overhead: options.overhead,
        cache: cache.as_ref(),
    };
    let plan = match options.mode {
        Mode::Auto => planner.auto(),
        Mode::Manual => planner.manual(),
        Mode::Preflight => planner.preflight(),
    };
    Ok(planner.with_cache(plan, profile))
}

/// Rule `draft-verbatim`: the branch position where the turn a preflight answers starts, the latest a
/// boundary may be. A given user draft is new (the end of the branch). Without a draft the turn is
/// stored: the leaf user message, or for a continuation the leaf assistant message with everything
/// from its user message on (a leaf checkpoint answers nothing). A given assistant draft continues the
/// leaf turn too. With no user message in the projection, no boundary can advance (`span.start`).
fn draft_turn_start(tokens: &BranchTokens, span: &ProjectionSpan, draft: Option<&Draft>) -> usize {
    let continues_leaf_turn = match draft {
        Some(Draft::Message(message)) => message.role == Role::Assistant,
        Some(Draft::Text(_)) => false,
        // Display-only nodes after the checkpoint answer nothing either.
        None => !span.checkpoint.is_some_and(|c| tokens.message_count(c + 1, span.end) == 0),
    };
    if !continues_leaf_turn || span.end == 0 {
        return span.end;
    }
    tokens.newest_user_from(span.start).unwrap_or(span.start)
}

struct Planner<'a> {
    session: &'a Session,
    tokens: &'a BranchTokens,
    estimate_options: &'a EstimateOptions,
    capacity: Capacity,
    span: ProjectionSpan,
    basis: Basis,
    mode: Mode,
    before: u64,
    draft: u64,
    /// The latest branch position a preflight boundary may take (`draft_turn_start`).
    draft_start: usize,
    overhead: u64,
    cache: Option<&'a CacheReport>,
}

impl Planner<'_> {
    fn id_at(&self, position: usize) -> Option<String> {
        self.tokens.node_at(position).map(|i| self.session.nodes[i].id.clone())
    }

    fn previous_checkpoint_id(&self) -> Option<String> {
        self.span.checkpoint.and_then(|c| self.id_at(c))
    }

    /// The boundary in force: the newest checkpoint's kept message, if it keeps one.
    fn current_first_kept(&self) -> Option<String> {
        let checkpoint = self.span.checkpoint?;
        (self.span.fold_start < checkpoint).then(|| self.id_at(self.span.fold_start)).flatten()
    }

    fn leaf_is_checkpoint(&self) -> bool {
        // Only display-only nodes after it still end the projection in the checkpoint.
        self.span.checkpoint.is_some_and(|c| self.tokens.message_count(c + 1, self.span.end) == 0)
    }

    fn none(&self, reason: &str, send: Option<SendDecision>) -> Plan {
        Plan {
            action: PlanAction::None,
            reason: reason.into(),
            mode: self.mode,
            first_kept_message_id: self.current_first_kept(),
            previous_checkpoint_id: self.previous_checkpoint_id(),
            summarize_ids: Vec::new(),
            basis: self.basis.clone(),
            tokens_before: self.before,
            tokens_after_estimate: self.before,
            send,
            ledger_budget: None,
            user_words_budget: None,
            cited_pages_budget: None,
            cache: None,
            cost: None,
        }
    }

    /// Projection right after committing a checkpoint at this boundary (see the module comment).
    fn after(&self, boundary: Boundary, frame: u64) -> u64 {
        let kept = self.tokens.sum(boundary.position(&self.span), self.span.end);
        [self.capacity.summary_max_output_tokens, frame, kept, self.overhead, self.draft]
            .into_iter()
            .fold(0u64, u64::saturating_add)
    }

    /// Rule `registers-take-unused-tail`: the tail budget the kept tail leaves (a tail is cut at whole
    /// turns, so it mostly keeps less than its budget) goes to the registers, within the room the
    /// plan's own checks leave: the request must still fit the safe limit and free room. The
    /// projection after the compaction (`after`, without it) stays within rule
    /// `compaction-frees-room`, which counts the tail whole.
    fn unused_tail(&self, boundary: Boundary, after: u64) -> u64 {
        let kept = self.tokens.sum(boundary.position(&self.span), self.span.end);
        self.capacity
            .tail_budget
            .saturating_sub(kept)
            .min(self.capacity.safe_input_limit.saturating_sub(after))
            .min(self.before.saturating_sub(after + 1))
    }

    fn compact(&self, reason: &str, boundary: Boundary, frame: u64, send: Option<SendDecision>) -> Plan {
        let end = boundary.position(&self.span);
        // Rule `summarize-previous-tail`: from the previous boundary (not from the previous checkpoint),
        // so the old verbatim tail that now falls before the new boundary is folded in.
        let summarize_ids = (self.span.fold_start..end)
            .filter_map(|p| self.tokens.node_at(p))
            .filter(|&i| self.session.nodes[i].message().is_some())
            .map(|i| self.session.nodes[i].id.clone())
            .collect();
        let after = self.after(boundary, frame);
        let (words, pages) = crate::estimate::register_budgets(&self.capacity);
        let unused_tail = if (words, pages) == (0, 0) { 0 } else { self.unused_tail(boundary, after) };
        Plan {
            action: PlanAction::Compact,
            reason: reason.into(),
            mode: self.mode,
            first_kept_message_id: match boundary {
                Boundary::At(p) => self.id_at(p),
                Boundary::AfterAll => None,
            },
            previous_checkpoint_id: self.previous_checkpoint_id(),
            summarize_ids,
            basis: self.basis.clone(),
            tokens_before: self.before,
            tokens_after_estimate: after + unused_tail,
            send,
            ledger_budget: Some(crate::estimate::projected_ledger_budget(&self.capacity)),
            user_words_budget: Some(words + unused_tail * 2 / 3),
            cited_pages_budget: Some(pages + (unused_tail - unused_tail * 2 / 3)),
            cache: None,
            cost: None,
        }
    }

    /// The summary frame: the merged ledger's (its largest along the span: a later entry may shorten a
    /// line), or the bound of its projected part when that is smaller (rule `ledger-projection-budget`:
    /// the ledger's size no longer grows the projection, and a span's tool outputs are read only until
    /// the ledger passes the bound). The frame is measured without the summary; the summary's text
    /// joins runs at its edges, so it gets the same slack as the bound (a plan at the safe limit was one
    /// token short without it). The registers beside it are counted at their budgets (rule
    /// `register-budgets`).
    fn frame(&self) -> u64 {
        let slack = crate::estimate::JOIN_SLACK_TOKENS;
        let bound = crate::estimate::bounded_frame_tokens(&self.capacity, self.estimate_options);
        let ledger = self.tokens.summary_frame_peak(self.session, bound.saturating_sub(slack));
        ledger.saturating_add(slack).min(bound).saturating_add(crate::estimate::register_frame_tokens(&self.capacity))
    }

    /// Rules `auto-at-threshold`, `auto-only-when-stable`, `auto-boundary-advances`, `auto-frees-room`.
    fn auto(&self) -> Plan {
        if self.before < self.capacity.auto_compact_at {
            return self.cold_cache_compaction().unwrap_or_else(|| self.none("under-threshold", None));
        }
        if self.tokens.has_pending_workflow() {
            return self.none("workflow-pending", None);
        }
        let boundary = tail_boundary(self.tokens, &self.span, self.capacity.tail_budget);
        if !advances(self.tokens, &self.span, boundary) {
            return self.none("boundary-cannot-advance", None);
        }
        let frame = self.frame();
        // Rule `auto-frees-room`: the estimate after (an upper bound) must be below the estimate now.
        if self.after(boundary, frame) >= self.before {
            return self.none("cannot-free-room", None);
        }
        self.compact("over-threshold", boundary, frame, None)
    }

    /// Rules `manual-leaf-checkpoint-noop`, `manual-two-turns`, `manual-keeps-latest-turn`, `manual-refresh`.
    fn manual(&self) -> Plan {
        if self.span.end == 0 {
            return self.none("nothing-to-compact", None);
        }
        if self.leaf_is_checkpoint() {
            return self.none("leaf-is-checkpoint", None);
        }
        if self.tokens.has_pending_workflow() {
            return self.none("workflow-pending", None);
        }
        let frame = self.frame();
        let boundary = tail_boundary(self.tokens, &self.span, self.capacity.tail_budget);
        if self.span.checkpoint.is_none() {
            // The first summarized, the latest kept: two turns at least.
            if turn_count(self.tokens, &self.span) < 2 {
                return self.none("nothing-to-compact", None);
            }
            if advances(self.tokens, &self.span, boundary) {
                return self.compact("requested", boundary, frame, None);
            }
            // Everything fits the tail budget, but the user asked: keep only the latest turn.
            let latest = newest_turn(self.tokens, &self.span).unwrap_or(Boundary::AfterAll);
            return self.compact("requested", latest, frame, None);
        }
        if advances(self.tokens, &self.span, boundary) {
            self.compact("requested", boundary, frame, None)
        } else {
            self.compact("refresh", boundary, frame, None)
        }
    }

    /// Rules `preflight-send-now`, `preflight-after-compaction`, `preflight-too-large`.
    fn preflight(&self) -> Plan {
        if self.before <= self.capacity.safe_input_limit {
            return self.none("fits", Some(SendDecision::Now));
        }
        if self.tokens.has_pending_workflow() {
            return self.none("workflow-pending", Some(SendDecision::TooLarge));
        }
        let frame = self.frame();
        // Keep as much verbatim tail as fits: from the tail-budget boundary, one turn less at a time,
        // but never past the start of the turn being answered (rule `draft-verbatim`).
        let limit = self.draft_start;
        let first = match tail_boundary(self.tokens, &self.span, self.capacity.tail_budget) {
            b if b.position(&self.span) <= limit => b,
            _ => Boundary::At(limit),
        };
        let mut candidate = Some(first);
        while let Some(boundary) = candidate.filter(|b| b.position(&self.span) <= limit) {
            if advances(self.tokens, &self.span, boundary) && self.after(boundary, frame) <= self.capacity.safe_input_limit {
                return self.compact("over-limit", boundary, frame, Some(SendDecision::AfterCompaction));
            }
            candidate = next_boundary(self.tokens, &self.span, boundary);
        }
        self.none("too-large", Some(SendDecision::TooLarge))
    }
}

/// The prompt-cache additions (`cache.rs`), apart from the mode rules above.
impl Planner<'_> {
    /// Rule `cache-cold-share`: under the threshold, a cold cache past its share compacts as
    /// `over-threshold` would (no pending workflow, a boundary that advances and frees room).
    fn cold_cache_compaction(&self) -> Option<Plan> {
        let report = self.cache?;
        if !cold_compaction_due(report, self.before, self.capacity.auto_compact_at) || self.tokens.has_pending_workflow() {
            return None;
        }
        let boundary = tail_boundary(self.tokens, &self.span, self.capacity.tail_budget);
        if !advances(self.tokens, &self.span, boundary) {
            return None;
        }
        let frame = self.frame();
        (self.after(boundary, frame) < self.before).then(|| self.compact("cache-cold", boundary, frame, None))
    }

    /// The plan with `cache` and, when it compacts, `cost`.
    fn with_cache(&self, mut plan: Plan, profile: Option<&CacheProfile>) -> Plan {
        let Some(report) = self.cache else { return plan };
        if plan.action == PlanAction::Compact {
            let end = match plan.first_kept_message_id.as_deref() {
                Some(id) => (self.span.fold_start..self.span.end).find(|&p| self.id_at(p).as_deref() == Some(id)).unwrap_or(self.span.end),
                None => self.span.end,
            };
            let previous = self.span.checkpoint.map_or(0, |c| self.tokens.summary_tokens(c));
            let summarized = self.tokens.sum(self.span.fold_start, end).saturating_add(previous);
            plan.cost = Some(compaction_cost(
                report,
                profile,
                plan.tokens_before,
                plan.tokens_after_estimate,
                self.overhead,
                summarized,
                self.capacity.summary_max_output_tokens,
            ));
        }
        plan.cache = Some(report.clone());
        plan
    }
}
