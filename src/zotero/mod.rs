//! Zotero objects inside arbitrary JSON, the references plugins write instead (links, `{ libraryID,
//! key }` pairs, numeric item ids), and the ledger entries that name them.

mod entry;
mod objects;
mod refs;

pub use entry::{ResourceLedger, LedgerKind, LedgerEntry};
pub use objects::{ZoteroKind, ZoteroObject, find, compact, render, render_line, citation};
pub(crate) use entry::{KeyPositions, Upserts};
pub use refs::{
    find_links, find_refs, is_key_field, is_zotero_key, key_words, labelled_keys, item_id, item_id_of, LinkAction, Refs, ResolvedItem, ResolvedItems, ZoteroLink, ITEM_ID_FIELDS,
    KEY_ALPHABET, MAX_ITEM_IDS,
};
