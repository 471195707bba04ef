//! Whether a finished summary may be committed, and the checkpoint node it becomes.
//! The check runs inside the store's transaction on the state read there (version-conditional commit).

use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, ErrorCode, Result};
use crate::zotero::ResourceLedger;
use crate::session::{read_branch, read_cited_page, read_user_words, Branch, Checkpoint, CitedPage, Node, Session, UserWords};
use crate::text::fields::{list, strings, Fields, Read};
use crate::plan::{Plan, PlanAction};
use crate::summarize::{validate_summary, SummaryRequest};

/// Prefix of checkpoint ids, so a checkpoint is recognisable in logs and stores.
pub const CHECKPOINT_ID_PREFIX: &str = "ckpt_";
/// Random bytes in a checkpoint id: 96 bits, so ids from concurrent compactions never collide.
pub const CHECKPOINT_ID_BYTES: usize = 12;

/// Why a plan may no longer be committed (`checkCommit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum CommitRefusal {
    ReadOnly,
    LeafMoved,
    RevisionChanged,
    WorkflowPending,
    BoundaryOffBranch,
}

impl CommitRefusal {
    pub fn as_str(self) -> &'static str {
        match self {
            CommitRefusal::ReadOnly => "read-only",
            CommitRefusal::LeafMoved => "leaf-moved",
            CommitRefusal::RevisionChanged => "revision-changed",
            CommitRefusal::WorkflowPending => "workflow-pending",
            CommitRefusal::BoundaryOffBranch => "boundary-off-branch",
        }
    }
}

/// `Ok(())` when the plan may be committed onto `fresh`; otherwise the first reason it may not.
/// A plan that does not compact is a caller error, not a refusal.
pub fn check_commit(fresh: &Session, plan: &Plan) -> Result<std::result::Result<(), CommitRefusal>> {
    check_commit_on_branch(fresh, &read_branch(fresh), plan)
}

/// `check_commit` with `fresh`'s active branch already read (a held index keeps it).
pub fn check_commit_on_branch(fresh: &Session, branch: &Branch, plan: &Plan) -> Result<std::result::Result<(), CommitRefusal>> {
    if plan.action != PlanAction::Compact {
        return Err(Error::new(ErrorCode::InvalidPlan, "only a plan with action 'compact' can be committed"));
    }
    if branch.read_only {
        return Ok(Err(CommitRefusal::ReadOnly));
    }
    if fresh.leaf_id.as_deref() != Some(plan.basis.leaf_id.as_str()) {
        return Ok(Err(CommitRefusal::LeafMoved));
    }
    if fresh.branch_revision != plan.basis.branch_revision {
        return Ok(Err(CommitRefusal::RevisionChanged));
    }
    // Rule `interrupted-tool`: only a workflow that can still complete blocks the commit.
    if crate::session::pending_workflow(fresh, &branch.nodes) {
        return Ok(Err(CommitRefusal::WorkflowPending));
    }
    let boundary_ok = plan.first_kept_message_id.as_deref().is_none_or(|id| {
        branch.nodes.iter().any(|&i| fresh.nodes[i].id == id && fresh.nodes[i].is_user_message())
    });
    let previous_ok = plan.previous_checkpoint_id.as_deref().is_none_or(|id| branch.nodes.iter().any(|&i| fresh.nodes[i].id == id));
    if !boundary_ok || !previous_ok || branch.positions_of(fresh, &plan.summarize_ids, |_| true).is_err() {
        return Ok(Err(CommitRefusal::BoundaryOffBranch));
    }
    Ok(Ok(()))
}

/// The estimator is conservative: it prices the largest of four tokenizers, so a summary a model
/// wrote within `maxOutputTokens` real tokens is estimated at up to about twice that in English (the
/// test fixtures' eight one-line sections: 205 estimated tokens, about 120 real) and four to six times
/// that in Greek, Hebrew, Thai, Arabic or Hindi against o200k (measured 2026-12-01 on short research
/// paragraphs: 4.65, 4.27, 4.32, 6.13, 5.25). The ceiling refuses only what no model can have
/// written within its cap; the controller's estimate of the compacted request is the exact check.
pub const SUMMARY_ESTIMATE_FACTOR: u64 = 8;
/// Room for the eight headings and the extractive summarizer's fixed notes on tiny budgets (a model
/// whose output cap is a few dozen tokens).
pub const SUMMARY_HEADINGS_ALLOWANCE: u64 = 256;

/// The largest estimate a summary for `budget` may have (see `check_summary_budget`).
pub fn summary_estimate_ceiling(budget: u64) -> u64 {
    budget.saturating_mul(SUMMARY_ESTIMATE_FACTOR).saturating_add(SUMMARY_HEADINGS_ALLOWANCE)
}

/// Rule `summary-within-budget`: a summary whose estimate is over `summary_estimate_ceiling(budget)`
/// (`budget` = the request's `maxOutputTokens`) cannot have been written within the budget and is
/// refused with `summary-over-budget`; nothing is written. The controller still estimates the
/// compacted request before sending it (a summary within the ceiling can exceed the plan's figure).
pub fn check_summary_budget(summary: &str, budget: u64) -> Result<()> {
    let tokens = crate::tokens::estimate_text(summary);
    let ceiling = summary_estimate_ceiling(budget);
    if tokens > ceiling {
        return Err(Error::new(
            ErrorCode::SummaryOverBudget,
            format!(
                "the summary is estimated at {tokens} tokens, over the {ceiling} a summary within its budget of {budget} (maxOutputTokens) can have; nothing was written"
            ),
        ));
    }
    Ok(())
}

/// A fresh checkpoint id ("ckpt_" + 24 hex digits) from the platform's secure random source
/// (`crypto.getRandomValues` in Firefox and Node).
pub fn new_checkpoint_id() -> Result<String> {
    let mut bytes = [0u8; CHECKPOINT_ID_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| Error::new(ErrorCode::Internal, format!("no random source for a checkpoint id: {e}")))?;
    let mut id = String::with_capacity(CHECKPOINT_ID_PREFIX.len() + 2 * CHECKPOINT_ID_BYTES);
    id.push_str(CHECKPOINT_ID_PREFIX);
    for byte in bytes {
        id.push_str(&format!("{byte:02x}"));
    }
    Ok(id)
}

/// What a summary request carried by code for its checkpoint besides the ledger: the registers
/// (`checkpointNode`'s last argument).
// Serialize only for its `serde` attributes, which the contract's declarations read (ts-rs).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename = "CarriedRegisters"))]
#[serde(rename_all = "camelCase")]
pub struct Carried {
    #[serde(default)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional, as = "Option<_>"))]
    pub user_words: Vec<UserWords>,
    #[serde(default)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional, as = "Option<_>"))]
    pub cited_pages: Vec<CitedPage>,
    #[serde(default)]
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(optional, as = "Option<_>"))]
    pub recall_handles: Vec<String>,
}

impl Carried {
    /// `checkpointNode`'s registers argument; each list may be absent.
    pub fn from_value(value: &Value) -> Read<Carried> {
        let f = Fields::of(value, "struct Carried")?;
        Ok(Carried {
            user_words: f.defaulted("userWords", |v| list(v, read_user_words))?,
            cited_pages: f.defaulted("citedPages", |v| list(v, read_cited_page))?,
            recall_handles: f.defaulted("recallHandles", strings)?,
        })
    }

    pub fn of(request: &SummaryRequest) -> Carried {
        Carried { user_words: request.user_words.clone(), cited_pages: request.cited_pages.clone(), recall_handles: request.recall_handles.clone() }
    }
}

/// `checkpoint_node` after rule `summary-within-budget` when the request's `maxOutputTokens` is
/// given (`check_summary_budget` first: a summary over it is refused whatever else it lacks), with
/// the registers the request carried.
pub fn checkpoint_node_within(
    plan: &Plan,
    summary: &str,
    ledger: &ResourceLedger,
    carried: &Carried,
    id: &str,
    budget: Option<u64>,
) -> Result<Value> {
    node_value(&checkpoint_node_text(plan, summary, ledger, carried, id, budget, None)?)
}

/// `checkpoint_node_within` as the node's JSON text, with `createdAt` when given: what the
/// `checkpointNode` export hands back (a checkpoint node of a long session is half a megabyte: no
/// tree of it is made, and it is read back only in debug builds).
pub fn checkpoint_node_text(
    plan: &Plan,
    summary: &str,
    ledger: &ResourceLedger,
    carried: &Carried,
    id: &str,
    budget: Option<u64>,
    created_at: Option<u64>,
) -> Result<String> {
    if let Some(budget) = budget {
        check_summary_budget(summary, budget)?;
    }
    // A plan from before plans carried the ledger and register budgets: the summary budget gives them.
    let mut plan = std::borrow::Cow::Borrowed(plan);
    if let (None, Some(budget)) = (plan.ledger_budget, budget) {
        plan.to_mut().ledger_budget = Some(crate::estimate::ledger_budget_for_summary_budget(budget));
    }
    if let (None, Some(budget)) = (plan.user_words_budget, budget) {
        let (words, pages) = crate::registers::budgets_for_summary_budget(budget);
        plan.to_mut().user_words_budget = Some(words);
        plan.to_mut().cited_pages_budget.get_or_insert(pages);
    }
    checkpoint_node_made(&plan, summary, ledger, carried, id, budget, created_at)
}

fn node_value(text: &str) -> Result<Value> {
    serde_json::from_str(text).map_err(|e| Error::new(ErrorCode::Internal, e.to_string()))
}

/// The checkpoint node for a summary of `request` (its ledger, registers and budget).
pub fn checkpoint_node_for_request(plan: &Plan, summary: &str, request: &SummaryRequest, id: &str) -> Result<Value> {
    checkpoint_node_within(plan, summary, &request.ledger, &Carried::of(request), id, Some(request.max_output_tokens))
}

/// The checkpoint node that commits `plan` with `summary` and `ledger`, under `id`.
///
/// `parentId` is the leaf the summary was made from; `tokensAfter` is the plan's estimate
/// (summary budget + frame with the projected ledger's budget + kept tail), an upper bound of the
/// real projection for a summary within its budget; `ledgerBudget` is the plan's.
pub fn checkpoint_node(plan: &Plan, summary: &str, ledger: &ResourceLedger, id: &str) -> Result<Value> {
    checkpoint_node_carrying(plan, summary, ledger, &Carried::default(), id)
}

/// `checkpoint_node` with the registers; their budgets are the plan's (rule `register-budgets`).
pub fn checkpoint_node_carrying(plan: &Plan, summary: &str, ledger: &ResourceLedger, carried: &Carried, id: &str) -> Result<Value> {
    node_value(&checkpoint_node_made(plan, summary, ledger, carried, id, None, None)?)
}

/// `checkpoint_node_carrying` with the summary's budget, which the checkpoint keeps (`summaryBudget`)
/// when it has registers: the projection gives what the summary leaves of it to the registers.
fn checkpoint_node_made(
    plan: &Plan,
    summary: &str,
    ledger: &ResourceLedger,
    carried: &Carried,
    id: &str,
    summary_budget: Option<u64>,
    created_at: Option<u64>,
) -> Result<String> {
    if plan.action != PlanAction::Compact {
        return Err(Error::new(ErrorCode::InvalidPlan, format!("plan.action is not 'compact' (reason: {})", plan.reason)));
    }
    if plan.basis.leaf_id.is_empty() {
        return Err(Error::new(ErrorCode::InvalidPlan, "plan.basis.leafId is empty"));
    }
    if id.is_empty() {
        return Err(Error::new(ErrorCode::InvalidOptions, "checkpoint id is empty"));
    }
    validate_summary(summary)?;
    let checkpoint = Checkpoint {
        summary: summary.to_string(),
        first_kept_message_id: plan.first_kept_message_id.clone(),
        previous_checkpoint_id: plan.previous_checkpoint_id.clone(),
        mode: plan.mode,
        tokens_before: plan.tokens_before,
        tokens_after: plan.tokens_after_estimate,
        ledger: ledger.clone(),
        basis: plan.basis.clone(),
        ledger_budget: plan.ledger_budget,
        user_words: carried.user_words.clone(),
        user_words_budget: plan.user_words_budget,
        cited_pages: carried.cited_pages.clone(),
        cited_pages_budget: plan.cited_pages_budget,
        summary_budget: summary_budget.filter(|_| plan.user_words_budget.is_some() || plan.cited_pages_budget.is_some()),
        provider_part: None,
        recall_handles: carried.recall_handles.clone(),
        rendered: Default::default(),
    };
    // Written as text: a late round's checkpoint is half a megabyte, and a `Value` tree of it (to
    // add the node's fields) costs a parse and a second write of it all.
    let json = |result: serde_json::Result<String>| result.map_err(|e| Error::new(ErrorCode::Internal, e.to_string()));
    let checkpoint = json(serde_json::to_string(&checkpoint))?;
    let mut text = String::with_capacity(checkpoint.len() + 160);
    text.push_str("{\"id\":");
    text.push_str(&json(serde_json::to_string(id))?);
    text.push_str(",\"parentId\":");
    text.push_str(&json(serde_json::to_string(&plan.basis.leaf_id))?);
    text.push_str(",\"checkpoint\":");
    text.push_str(&checkpoint);
    if let Some(ms) = created_at {
        text.push_str(&format!(",\"createdAt\":{ms}"));
    }
    text.push('}');
    // What the store writes is what readers accept: written from values the same readers made, so
    // checked in the native tests (a late round's node is half a megabyte to read again), and read
    // at the store's door anyway (`checkNodeText`, the held index's append).
    debug_assert!(Node::parse_strict_text(&text).is_ok_and(|node| node.checkpoint().is_some()), "a checkpoint node that does not read back");
    Ok(text)
}
