//! Stateless export of the commit stage: `checkpointNode` (`checkCommit` is a `SessionIndex` method).

use wasm_bindgen::prelude::*;

use super::args::{max_output_tokens_from_js, plan_from_js, refuse_non_finite, summary_from_js};
use super::convert::{from_json_text, read_js_or_default};
use crate::commit::{checkpoint_node_text, new_checkpoint_id, Carried};
use crate::error::ErrorCode;
use crate::session::read_ledger;

/// A new checkpoint node with a random id, `parentId = plan.basis.leafId`.
/// `ledger` may be omitted (an empty ledger). Given the request's `maxOutputTokens`, a summary over
/// the budget rule (`summary-over-budget`) is refused first. `carried` is what the summary request
/// carried by code (`{ userWords, citedPages, recallHandles }` of `SummaryRequest`); omitted, the checkpoint has no
/// registers.
#[wasm_bindgen(js_name = checkpointNode, unchecked_return_type = "CheckpointNode")]
pub fn checkpoint_node_js(
    #[wasm_bindgen(unchecked_param_type = "Plan")] plan: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] summary: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ResourceLedger")] ledger: JsValue,
    #[wasm_bindgen(js_name = maxOutputTokens, unchecked_optional_param_type = "number")] max_output_tokens: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CarriedRegisters")] carried: JsValue,
) -> Result<JsValue, JsValue> {
    refuse_non_finite(&plan, &["ledgerBudget", "userWordsBudget", "citedPagesBudget"], ErrorCode::InvalidPlan, "plan")?;
    let plan = plan_from_js(&plan)?;
    let summary = summary_from_js(&summary)?;
    let ledger = read_js_or_default(&ledger, ErrorCode::InvalidLedger, read_ledger)?;
    let budget = max_output_tokens_from_js(&max_output_tokens)?;
    let carried = read_js_or_default(&carried, ErrorCode::InvalidOptions, Carried::from_value)?;
    let id = new_checkpoint_id()?;
    // `createdAt`: ms since the epoch, as the stores and the AI SDK apps write it.
    let now = js_sys::Date::now();
    let created_at = (now.is_finite() && now >= 0.0).then_some(now as u64);
    from_json_text(&checkpoint_node_text(&plan, &summary, &ledger, &carried, &id, budget, created_at)?)
}
