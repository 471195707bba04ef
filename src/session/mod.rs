//! The session tree: typed nodes read from JSON text or values, written back unchanged, the active branch
//! and the branch operations (retry, edit, fork).

mod carried;
mod ops;
mod read_checkpoint;
mod read_text;
mod read_value;
mod tree;
mod types;
mod workflow;
mod write;

pub use carried::{UserWords, CitedPage};
pub use ops::{RetryTarget, EditTarget, ForkCheck, retry_target, edit_target, can_fork};
pub use read_checkpoint::{read_mode, read_basis, read_ledger, read_ledger_kind, read_user_words, read_cited_page};
pub use read_text::{SessionText, read_node};
pub use read_value::parse_count;
pub(crate) use read_value::read_part;
pub use tree::{Problem, Branch, IdIndex, read_branch, read_branch_to, history, history_text};
pub use types::{MAX_SAFE_INTEGER, Session, Node, RawJson, NodeKind, Role, Message, DisplayOnly, Part, ToolPart, ToolState, Approval, Mode, Basis, Checkpoint, ReadNode};
pub use workflow::pending_workflow;
pub use write::{node_texts, write_node_texts};
