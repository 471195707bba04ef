//! The model projection: summary -> verbatim tail -> newer messages. Only the newest checkpoint counts.

use serde_json::{json, Value};

use crate::text::object;

use crate::error::Result;
use crate::ledger;
use crate::registers;
use crate::session::{read_branch, Branch, Checkpoint, Session};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Projected {
    /// The summary message made from the checkpoint at this node index.
    Summary(usize),
    /// A message node, verbatim.
    Message(usize),
}

/// The model's view: summary message, verbatim tail, newer messages.
#[derive(Debug, Clone, Default)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS))]
pub struct Projection {
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(rename = "messages", type = "UIMessage[]"))]
    pub items: Vec<Projected>,
    /// Node index of the checkpoint that counts (its id in JS).
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(rename = "checkpointId", type = "string | null"))]
    pub checkpoint: Option<usize>,
    /// Node index of the first message kept verbatim from before that checkpoint (its id in JS).
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(rename = "keptFromId", type = "string | null"))]
    pub kept_from: Option<usize>,
}

/// Projects the session's active branch; a session with any integrity problem is an error (its code).
pub fn project(session: &Session) -> Result<Projection> {
    let branch = read_branch(session);
    branch.require_readable()?;
    Ok(project_branch(session, &branch))
}

/// Projects a readable branch (one without problems).
pub fn project_branch(session: &Session, branch: &Branch) -> Projection {
    let messages_from = |start: usize| -> Vec<Projected> {
        branch.nodes[start..].iter().filter(|&&i| session.nodes[i].message().is_some()).map(|&i| Projected::Message(i)).collect()
    };
    let Some(checkpoint_position) = branch.newest_checkpoint_position(session) else {
        let start = provider_block(session, branch, 0).unwrap_or(0);
        return Projection { items: messages_from(start), checkpoint: None, kept_from: None };
    };
    let checkpoint_index = branch.nodes[checkpoint_position];
    let boundary = session.nodes[checkpoint_index].checkpoint().and_then(|c| c.first_kept_message_id.as_deref());
    // From the checkpoint up: the kept tail is just above it, and ids on a branch are unique (the walk
    // stops at a duplicated id or a cycle), so this is the only match, found without reading every
    // node's id from the root (a send's projection at 1,000 messages, issue 42).
    let tail_start = boundary
        .and_then(|id| branch.nodes[..checkpoint_position].iter().rposition(|&i| session.nodes[i].id == id))
        .unwrap_or(checkpoint_position);
    if let Some(block) = provider_block(session, branch, tail_start) {
        return Projection { items: messages_from(block), checkpoint: None, kept_from: None };
    }
    let mut items = vec![Projected::Summary(checkpoint_index)];
    items.extend(
        branch.nodes[tail_start..]
            .iter()
            .filter(|&&i| session.nodes[i].message().is_some())
            .map(|&i| Projected::Message(i)),
    );
    let kept_from = (tail_start < checkpoint_position).then(|| branch.nodes[tail_start]);
    Projection { items, checkpoint: Some(checkpoint_index), kept_from }
}

/// Rule `provider-block-boundary` (issue 39, as `BranchTokens::span`): the branch position of the newest
/// message at or after `from` holding a provider's compaction block. The provider drops everything
/// before that block, so the projection starts there and the package's summary is not sent.
pub fn provider_block(session: &Session, branch: &Branch, from: usize) -> Option<usize> {
    let holds_block = |i: usize| {
        session.nodes[i].message().is_some_and(|m| m.parts.iter().any(|p| matches!(p, crate::session::Part::ProviderCompaction { .. })))
    };
    (from..branch.nodes.len()).rev().find(|&p| holds_block(branch.nodes[p]))
}

/// Opening of the summary message: frames the summary as earlier context, not a new request.
pub const SUMMARY_PREAMBLE: &str = "[Research checkpoint] The earlier part of this conversation was compacted into the summary \
below. It is context from earlier turns, not a new request; the conversation continues after it.";

/// What comes between the summary and the ledger's lines in the summary message.
pub const LEDGER_HEADING: &str = "\n\nZotero resources referenced so far (exact keys and locators):\n";

/// Tokens of the summary's unused budget kept back for the joins where the registers meet it.
const UNUSED_SUMMARY_SLACK: u64 = 8;

/// Tokens kept back for the join where the recall note meets the registers.
const RECALL_JOIN_SLACK: u64 = 2;

/// The text of the projected summary message: preamble, summary, then the ledger's projected part
/// (rule `ledger-projection-budget` in `ledger.rs`: the whole ledger when it fits the checkpoint's
/// budget, else the entries the summary names first within it, and a line saying how many are left out).
///
/// Between the summary and the ledger: the registers carried by code (rules `user-words-budget` and
/// `cited-pages-budget` in `registers`), each within the checkpoint's budget for it; a checkpoint
/// without registers (written before they existed, or with nothing to carry) projects as before.
pub fn summary_message_text(checkpoint: &Checkpoint) -> String {
    summary_message_text_with(checkpoint, true)
}

/// Opening of the text beside a provider's readable block, which is the summary itself.
pub const BESIDE_PROVIDER_BLOCK: &str = "[Research checkpoint] The provider's summary above stands for the earlier part of this \
conversation; below is what was carried beside it.";

/// `summary_message_text`, or without the summary (beside a provider's readable block, which is it);
/// the text with it made once per checkpoint read.
fn summary_message_text_with(checkpoint: &Checkpoint, with_summary: bool) -> String {
    if with_summary {
        checkpoint.rendered.get_or_init(|| render_summary_message_text(checkpoint, true)).to_string()
    } else {
        render_summary_message_text(checkpoint, false)
    }
}

fn render_summary_message_text(checkpoint: &Checkpoint, with_summary: bool) -> String {
    let budget = checkpoint.ledger_budget.unwrap_or_else(|| ledger::projected_budget(&checkpoint.summary));
    let projected = ledger::project_ledger(&checkpoint.ledger, &checkpoint.summary, budget);
    let (words_fallback, pages_fallback) = registers::budgets_for_summary_budget(crate::tokens::estimate_text(&checkpoint.summary));
    let (words_budget, pages_budget) =
        (checkpoint.user_words_budget.unwrap_or(words_fallback), checkpoint.cited_pages_budget.unwrap_or(pages_fallback));
    // Rule `registers-take-unused-summary`: the room the summary leaves of its budget (which
    // `tokensAfter` counts whole) goes to the registers: the cited pages take up to half of it, the
    // user's words the rest, and the pages then what the words leave (the user's chatter last, rule
    // `chatter-after-pages`).
    let unused = checkpoint
        .summary_budget
        .map_or(0, |budget| budget.saturating_sub(crate::tokens::estimate_text(&checkpoint.summary) + UNUSED_SUMMARY_SLACK));
    let (words, pages, recall) = registers_and_recall(checkpoint, words_budget, pages_budget, unused);
    let mut text = if with_summary { summary_text_with_ledger(&checkpoint.summary, "") } else { BESIDE_PROVIDER_BLOCK.to_string() };
    text.push_str(&words);
    text.push_str(&pages);
    text.push_str(&recall);
    if !projected.text.is_empty() {
        text.push_str(LEDGER_HEADING);
        text.push_str(&projected.text);
    }
    text
}

/// The user's words, the cited pages and the recall note within the registers' room (rule
/// `registers-take-unused-summary`). Rule `recall-note`: the note takes at most a fifth of that room,
/// the registers the rest; priced together, since the estimate of joined texts is not the sum of
/// theirs (English letters beside accented text count as foreign): the note is made shorter by what the three
/// pass the room by (so `tokensAfter` still counts them), else left out.
fn registers_and_recall(checkpoint: &Checkpoint, words_budget: u64, pages_budget: u64, unused: u64) -> (String, String, String) {
    let room = words_budget + pages_budget + unused;
    let mut recall = registers::project_recall_handles(&checkpoint.recall_handles, room / 5);
    let taken = if recall.is_empty() { 0 } else { crate::tokens::estimate_text(&recall) + RECALL_JOIN_SLACK };
    let total = room.saturating_sub(taken);
    let est = crate::tokens::estimate_text;
    let mut pages = registers::project_cited_pages(&checkpoint.cited_pages, (pages_budget + unused / 2).min(total), &checkpoint.summary);
    // Rule `chatter-after-pages`: the user's acknowledgements and repeated messages ("next one pls")
    // take only what the cited pages leave: a page with its finding says more than a "k".
    let statements = registers::project_user_words_without_chatter(&checkpoint.user_words, total.saturating_sub(est(&pages)), &checkpoint.summary);
    // Only ever more pages than the first pass: the words took their room after it.
    let more = registers::project_cited_pages(&checkpoint.cited_pages, total.saturating_sub(est(&statements)), &checkpoint.summary);
    if more.len() >= pages.len() {
        pages = more;
    }
    let words = registers::project_user_words(&checkpoint.user_words, total.saturating_sub(est(&pages)), &checkpoint.summary);
    // Priced together: made shorter by what the three pass the room by, else left out.
    let over = |recall: &str| (est(&(words.clone() + &pages + recall)).max(est(&words) + est(&(pages.clone() + recall))) + RECALL_JOIN_SLACK).saturating_sub(room);
    let excess = over(&recall);
    if excess > 0 {
        recall = registers::project_recall_handles(&checkpoint.recall_handles, est(&recall).saturating_sub(excess + 4));
        if over(&recall) > 0 {
            recall.clear();
        }
    }
    (words, pages, recall)
}

/// Preamble, summary and the given rendered ledger lines (none: no ledger heading).
pub fn summary_text_with_ledger(summary: &str, ledger_lines: &str) -> String {
    let mut text = format!("{SUMMARY_PREAMBLE}\n\n<summary>\n{}\n</summary>", summary.trim());
    if !ledger_lines.is_empty() {
        text.push_str(LEDGER_HEADING);
        text.push_str(ledger_lines);
    }
    text
}

/// The summary message of the checkpoint at `position` as JSON text; `None` when that node is no checkpoint.
pub fn summary_message_json(session: &Session, position: usize) -> Option<String> {
    let node = &session.nodes[position];
    Some(summary_message(&node.id, node.checkpoint()?).to_string())
}

/// The summary message as the UIMessage the contract describes. Rule `provider-summary-message`
/// (issue 39): with a provider's compaction part, the assistant message the provider requires, that
/// part first; the text after it carries the registers and the ledger, and the readable summary too
/// when the part is encrypted, so a model of another provider (whose converter drops the item) still
/// reads it. A readable block is sent as text to other providers, so it serves them as it is.
pub fn summary_message(checkpoint_id: &str, checkpoint: &Checkpoint) -> Value {
    let text = |with_summary| object(vec![("type", Value::from("text")), ("text", Value::from(summary_message_text_with(checkpoint, with_summary)))]);
    let provider = checkpoint.provider_part.as_ref().and_then(|p| match crate::session::read_part(p) {
        Ok(crate::session::Part::ProviderCompaction { text, .. }) => Some((p.clone(), text.is_none())),
        _ => None,
    });
    let (role, parts) = match provider {
        Some((part, encrypted)) => ("assistant", vec![part, text(encrypted)]),
        None => ("user", vec![text(true)]),
    };
    object(vec![
        ("id", Value::from(checkpoint_id)),
        ("role", Value::from(role)),
        ("parts", Value::Array(parts)),
        ("metadata", json!({ "checkpoint": true })),
    ])
}

impl Projection {
    /// The projection as a JSON value (tests and native callers; `to_json_text` keeps each node's numbers as written).
    pub fn to_json(&self, session: &Session) -> Value {
        serde_json::from_str(&self.to_json_text(session)).unwrap_or(Value::Null)
    }

    /// `{ messages, checkpointId, keptFromId }` as JSON text: message nodes exactly as given.
    pub fn to_json_text(&self, session: &Session) -> String {
        let mut out = String::from("{\"messages\":[");
        for (k, item) in self.items.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            match *item {
                Projected::Message(i) => out.push_str(session.nodes[i].raw.as_str()),
                Projected::Summary(i) => out.push_str(summary_message_json(session, i).as_deref().unwrap_or("null")),
            }
        }
        out.push_str("],\"checkpointId\":");
        out.push_str(&Value::from(self.checkpoint.map(|i| session.nodes[i].id.clone())).to_string());
        out.push_str(",\"keptFromId\":");
        out.push_str(&Value::from(self.kept_from.map(|i| session.nodes[i].id.clone())).to_string());
        out.push('}');
        out
    }
}
