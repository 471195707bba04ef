//! The registers a checkpoint carries by code beside its summary, whatever summarizer wrote it: the
//! user's own words and the pages cited with their Zotero keys. Collected from summarized history,
//! merged across checkpoints like the ledger, projected within budgets fixed from the model.

mod collect;
mod locator;
mod project;

pub use collect::{collect_cited_pages, collect_cited_pages_resolved, collect_user_words, merge_cited_pages, merge_recall_handles, merge_user_words, USER_WORDS_MAX_CHARS};
pub use locator::find_locator;
pub use project::{budgets_for_summary_budget, project_cited_pages, project_recall_handles, project_user_words, project_user_words_without_chatter, CITED_PAGES_HEADING, USER_WORDS_HEADING};
pub use crate::session::{CitedPage, UserWords};
