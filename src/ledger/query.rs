//! Queries over a ledger (`lookupLedger`): by kind, key, parent or text.

use crate::zotero::{LedgerEntry, LedgerKind, ResourceLedger};

// ---------------------------------------------------------------------------------------------
// Lookup (for a tool the app may give the model).
/// What `lookupLedger` matches: every field given must match (key exactly, kind exactly, text as a
/// case-insensitive substring of the key, label, detail or parent key).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(optional_fields))]
pub struct LedgerQuery {
    /// The exact key (for a location `<attachmentKey>#<locator>`).
    pub key: Option<String>,
    pub kind: Option<LedgerKind>,
    /// Case-insensitive substring of the key, label, detail or parent key.
    pub text: Option<String>,
    /// Most entries returned (default: all).
    pub limit: Option<usize>,
}

impl LedgerQuery {
    /// Reads `{ key?, kind?, text?, limit? }`; anything else is `invalid-options`, naming the field.
    pub fn from_value(value: &serde_json::Value) -> crate::error::Result<LedgerQuery> {
        use crate::error::{Error, ErrorCode};
        let invalid = |message: String| Error::new(ErrorCode::InvalidOptions, message);
        let serde_json::Value::Object(map) = value else {
            return Err(invalid("lookupLedger: query must be an object { key?, kind?, text?, limit? }".into()));
        };
        if let Some(field) = map.keys().find(|k| !["key", "kind", "text", "limit"].contains(&k.as_str())) {
            return Err(invalid(format!("lookupLedger: unknown query field {field:?}")));
        }
        let text_field = |name: &str| -> crate::error::Result<Option<String>> {
            match map.get(name) {
                None | Some(serde_json::Value::Null) => Ok(None),
                Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
                Some(other) => Err(invalid(format!("lookupLedger: query.{name} must be a string, got {other}"))),
            }
        };
        let kind = match text_field("kind")? {
            None => None,
            Some(kind) => Some(
                crate::session::read_ledger_kind(&serde_json::Value::String(kind.clone()))
                    .map_err(|_| invalid(format!("lookupLedger: query.kind {kind:?} is not a ledger kind")))?,
            ),
        };
        let limit = match map.get("limit") {
            None | Some(serde_json::Value::Null) => None,
            Some(v) => Some(
                crate::session::parse_count(v)
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(|| invalid(format!("lookupLedger: query.limit must be a non-negative integer, got {v}")))?,
            ),
        };
        Ok(LedgerQuery { key: text_field("key")?, kind, text: text_field("text")?, limit })
    }
}

/// The entries of `ledger` that match `query`, in ledger order.
pub fn lookup<'a>(ledger: &'a ResourceLedger, query: &LedgerQuery) -> Vec<&'a LedgerEntry> {
    let needle = query.text.as_deref().map(crate::text::fold_case).filter(|t| !t.trim().is_empty());
    let matches = |entry: &&LedgerEntry| {
        query.key.as_deref().is_none_or(|k| entry.key == k)
            && query.kind.is_none_or(|k| entry.kind == k)
            && needle.as_deref().is_none_or(|needle| {
                [Some(entry.key.as_str()), entry.label.as_deref(), entry.detail.as_deref(), entry.parent_key.as_deref()]
                    .into_iter()
                    .flatten()
                    .any(|field| crate::text::fold_case(field).contains(needle))
            })
    };
    ledger.entries.iter().filter(matches).take(query.limit.unwrap_or(usize::MAX)).collect()
}
