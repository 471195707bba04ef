//! What a checkpoint carries by code beside its summary, whatever wrote the summary: the user's own
//! words and the pages cited with their Zotero keys (collected and projected in `registers`).

use serde::Serialize;

/// One user message's own text, as said (pasted material over 800 characters excerpted).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct UserWords {
    /// The message's node id.
    pub id: String,
    pub text: String,
}

/// A sentence of the assistant or of a tool result naming a ledger key together with a page or locator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub struct CitedPage {
    /// The Zotero key the sentence names.
    pub key: String,
    /// The locator as written: "p. 14", "S. 22–24", "第14页".
    pub locator: String,
    /// The sentence (clipped).
    pub text: String,
    /// The node id of the message it came from.
    pub id: String,
}
