//! Export of the ledger lookup: `lookupLedger(ledger, query)`, for a tool the app may give the model
//! to reach the entries the projection leaves out.

use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::args::refuse_non_finite;
use super::convert::{from_js, read_js, to_js};
use crate::error::ErrorCode;
use crate::ledger::{lookup, LedgerQuery};
use crate::session::read_ledger;

/// The ledger entries (a checkpoint's `ledger`, which keeps every entry) matching `query`, in ledger order.
#[wasm_bindgen(js_name = lookupLedger, unchecked_return_type = "LedgerEntry[]")]
pub fn lookup_ledger(
    #[wasm_bindgen(unchecked_param_type = "ResourceLedger")] ledger: JsValue,
    #[wasm_bindgen(unchecked_param_type = "LedgerQuery")] query: JsValue,
) -> Result<JsValue, JsValue> {
    let ledger = read_js(&ledger, ErrorCode::InvalidLedger, read_ledger)?;
    refuse_non_finite(&query, &["limit"], ErrorCode::InvalidOptions, "lookupLedger: query")?;
    let query: Value = from_js(&query, ErrorCode::InvalidOptions)?;
    let query = LedgerQuery::from_value(&query)?;
    to_js(&lookup(&ledger, &query))
}
