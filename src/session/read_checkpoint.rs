//! A checkpoint's content read from its JSON tree by the shared field reader (`text::fields`), as are
//! its ledger and registers: the derived readers of these types were about 17 KB of wasm, and a
//! session holds a few checkpoints against its many messages (docs/performance.md, "Where the wasm's
//! bytes go"). Unknown fields are ignored; the messages are serde's, without a position.

use serde_json::Value;

use super::types::{Basis, Checkpoint, Mode};
use super::{CitedPage, UserWords};
use crate::text::fields::{count, list, string, strings, variant, Fields, Read};
use crate::zotero::{LedgerEntry, LedgerKind, ResourceLedger};

impl Checkpoint {
    pub fn from_value(value: &Value) -> Read<Checkpoint> {
        let f = Fields::of(value, "struct Checkpoint")?;
        Ok(Checkpoint {
            summary: f.required("summary", string)?,
            first_kept_message_id: f.optional("firstKeptMessageId", string)?,
            previous_checkpoint_id: f.optional("previousCheckpointId", string)?,
            mode: f.required("mode", read_mode)?,
            tokens_before: f.required("tokensBefore", count)?,
            tokens_after: f.required("tokensAfter", count)?,
            ledger: f.defaulted("ledger", read_ledger)?,
            basis: f.required("basis", read_basis)?,
            ledger_budget: f.optional("ledgerBudget", count)?,
            user_words: f.defaulted("userWords", |v| list(v, read_user_words))?,
            user_words_budget: f.optional("userWordsBudget", count)?,
            cited_pages: f.defaulted("citedPages", |v| list(v, read_cited_page))?,
            cited_pages_budget: f.optional("citedPagesBudget", count)?,
            summary_budget: f.optional("summaryBudget", count)?,
            recall_handles: f.defaulted("recallHandles", strings)?,
            provider_part: f.optional("providerPart", |v| Ok(v.clone()))?,
            rendered: Default::default(),
        })
    }

    /// The checkpoint of JSON `text` (serde_json's own limits: nesting at most 128).
    pub fn from_json_text(text: &str) -> Read<Checkpoint> {
        Checkpoint::from_value(&serde_json::from_str(text).map_err(|e| crate::text::message_of(&e))?)
    }
}

pub fn read_mode(value: &Value) -> Read<Mode> {
    variant(value, "enum Mode", &[("manual", Mode::Manual), ("auto", Mode::Auto), ("preflight", Mode::Preflight)])
}

pub fn read_basis(value: &Value) -> Read<Basis> {
    let f = Fields::of(value, "struct Basis")?;
    Ok(Basis { leaf_id: f.required("leafId", string)?, branch_revision: f.required("branchRevision", count)? })
}

pub fn read_ledger(value: &Value) -> Read<ResourceLedger> {
    let f = Fields::of(value, "struct ResourceLedger")?;
    Ok(ResourceLedger { entries: f.defaulted("entries", |v| list(v, read_ledger_entry))? })
}

fn read_ledger_entry(value: &Value) -> Read<LedgerEntry> {
    let f = Fields::of(value, "struct LedgerEntry")?;
    Ok(LedgerEntry {
        kind: f.required("kind", read_ledger_kind)?,
        key: f.required("key", string)?,
        label: f.optional("label", string)?,
        parent_key: f.optional("parentKey", string)?,
        detail: f.optional("detail", string)?,
        library_id: f.optional("libraryID", count)?,
        group_id: f.optional("groupID", count)?,
    })
}

pub fn read_ledger_kind(value: &Value) -> Read<LedgerKind> {
    let kinds = [
        ("item", LedgerKind::Item),
        ("attachment", LedgerKind::Attachment),
        ("annotation", LedgerKind::Annotation),
        ("collection", LedgerKind::Collection),
        ("tag", LedgerKind::Tag),
        ("location", LedgerKind::Location),
    ];
    variant(value, "enum LedgerKind", &kinds)
}

pub fn read_user_words(value: &Value) -> Read<UserWords> {
    let f = Fields::of(value, "struct UserWords")?;
    Ok(UserWords { id: f.required("id", string)?, text: f.required("text", string)? })
}

pub fn read_cited_page(value: &Value) -> Read<CitedPage> {
    let f = Fields::of(value, "struct CitedPage")?;
    Ok(CitedPage {
        key: f.required("key", string)?,
        locator: f.required("locator", string)?,
        text: f.required("text", string)?,
        id: f.required("id", string)?,
    })
}
