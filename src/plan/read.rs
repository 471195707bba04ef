//! A `Plan` handed back by the app (to `summaryRequest`, `checkpointNode`, `checkCommit`), read from
//! its JSON tree by the shared field reader rather than a derived deserializer: a plan is read once
//! per compaction, and the derived readers of it and its parts were about 9 KB of wasm.

use serde_json::Value;

use super::cache::{CacheReport, CacheState, CompactionCost};
use super::decision::{Plan, PlanAction, SendDecision};
use crate::session::{read_basis, read_mode};
use crate::text::fields::{count, number, string, strings, variant, Fields, Read};

impl Plan {
    /// The plan of JSON `value`, or serde's message for a missing field or one of the wrong type.
    /// Unknown fields are ignored.
    pub fn from_value(value: &Value) -> Read<Plan> {
        read_plan(value)
    }
}

fn read_plan(value: &Value) -> Read<Plan> {
    let f = Fields::of(value, "struct Plan")?;
    Ok(Plan {
        action: f.required("action", |v| variant(v, "enum PlanAction", &[("compact", PlanAction::Compact), ("none", PlanAction::None)]))?,
        reason: f.required("reason", string)?,
        mode: f.required("mode", read_mode)?,
        first_kept_message_id: f.optional("firstKeptMessageId", string)?,
        previous_checkpoint_id: f.optional("previousCheckpointId", string)?,
        summarize_ids: f.required("summarizeIds", strings)?,
        basis: f.required("basis", read_basis)?,
        tokens_before: f.required("tokensBefore", count)?,
        tokens_after_estimate: f.required("tokensAfterEstimate", count)?,
        send: f.optional("send", |v| {
            let decisions = [("now", SendDecision::Now), ("after-compaction", SendDecision::AfterCompaction), ("too-large", SendDecision::TooLarge)];
            variant(v, "enum SendDecision", &decisions)
        })?,
        ledger_budget: f.optional("ledgerBudget", count)?,
        user_words_budget: f.optional("userWordsBudget", count)?,
        cited_pages_budget: f.optional("citedPagesBudget", count)?,
        cache: f.optional("cache", cache_report)?,
        cost: f.optional("cost", cost)?,
    })
}

fn cache_report(value: &Value) -> Read<CacheReport> {
    let f = Fields::of(value, "struct CacheReport")?;
    Ok(CacheReport {
        state: f.required("state", |v| variant(v, "enum CacheState", &[("warm", CacheState::Warm), ("cold", CacheState::Cold), ("unknown", CacheState::Unknown)]))?,
        idle_ms: f.optional("idleMs", count)?,
        cached_prefix_tokens: f.required("cachedPrefixTokens", count)?,
        baseline_message_id: f.optional("baselineMessageId", string)?,
    })
}

fn cost(value: &Value) -> Read<CompactionCost> {
    let f = Fields::of(value, "struct CompactionCost")?;
    Ok(CompactionCost {
        tokens_before: f.required("tokensBefore", count)?,
        tokens_after: f.required("tokensAfter", count)?,
        cached_prefix_invalidated: f.required("cachedPrefixInvalidated", count)?,
        next_request_without: f.optional("nextRequestWithout", number)?,
        next_request_with: f.optional("nextRequestWith", number)?,
        summary_request: f.optional("summaryRequest", number)?,
    })
}
