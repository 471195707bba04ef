//! The projected ledger: the entries a summary message shows within its budget, the ones the summary
//! names first.

use crate::zotero::{LedgerEntry, LedgerKind, ResourceLedger};

use super::render::{render, render_line};

// ---------------------------------------------------------------------------------------------
// The projected part of the ledger.
/// Rule `ledger-projection-budget`: the ledger lines projected beside a summary take at most the
/// checkpoint's `ledgerBudget`, fixed from the model's capacity when it was made
/// (`capacity::projected_ledger_budget`: an eighth of the estimate of a summary within its budget,
/// about a quarter of that budget), however short the summary is; the checkpoint keeps the whole
/// ledger and `lookup` reaches the rest.
pub const PROJECTED_LEDGER_DIVISOR: u64 = 8;

/// The older rule, for checkpoints without `ledgerBudget`: an eighth of the summary's own estimate.
pub fn projected_budget(summary: &str) -> u64 {
    crate::tokens::estimate_text(summary.trim()) / PROJECTED_LEDGER_DIVISOR
}

/// The ledger lines a projection shows, and how many it left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectedLedger {
    /// Rendered lines (as `render`), plus a last line saying how many were left out, if any.
    pub text: String,
    pub shown: usize,
    pub left_out: usize,
}

/// The line that stands for the entries left out.
pub fn left_out_line(left_out: usize) -> String {
    format!(
        "- {left_out} more entries are kept in this checkpoint's ledger and not shown here; lookupLedger finds them by key, kind or text."
    )
}

/// Where `summary` last names the entry (its key; for a location, the full locator or its
/// attachment key), as a byte offset.
fn last_mention(summary: &Mentions, entry: &LedgerEntry) -> Option<usize> {
    if entry.key.is_empty() {
        return None;
    }
    let attachment = (entry.kind == LedgerKind::Location).then(|| entry.key.split('#').next()).flatten().filter(|k| !k.is_empty());
    match attachment {
        // The attachment key begins the locator, so it is named wherever the locator is, and last.
        Some(attachment) => summary.rfind(attachment),
        None => summary.rfind(&entry.key),
    }
}

/// A text with the runs of eight Zotero-key letters it holds: `rfind` of a Zotero key it does not
/// hold (most of a long ledger's) answered without a search.
struct Mentions<'a> {
    text: &'a str,
    held: std::collections::HashSet<&'a str>,
}

impl<'a> Mentions<'a> {
    fn new(text: &'a str) -> Mentions<'a> {
        let mut held = std::collections::HashSet::new();
        let mut run = 0;
        for (i, b) in text.bytes().enumerate() {
            run = if crate::zotero::KEY_ALPHABET.as_bytes().contains(&b) { run + 1 } else { 0 };
            // ASCII bytes: the run's bounds are character bounds.
            if run >= 8 {
                held.insert(&text[i - 7..=i]);
            }
        }
        Mentions { text, held }
    }

    fn rfind(&self, needle: &str) -> Option<usize> {
        if crate::zotero::is_zotero_key(needle) && !self.held.contains(needle) {
            return None;
        }
        self.text.rfind(needle)
    }
}

/// The summary's lines that report what the user said (`- (user)`, `- (user, key)`, ...), joined.
fn user_lines(summary: &str) -> String {
    summary.lines().filter(|l| l.trim_start().starts_with("- (user")).collect::<Vec<_>>().join("\n")
}

/// Picks the entries shown beside `summary` within `budget` tokens: first those the summary names on
/// a line of the user's (`- (user...`: keys the user designated), then the other entries the summary
/// names, in each group the most recently used first (summaries list findings oldest to newest and end with the latest
/// request, so the later the last mention, the more recent the use; the ledger stores no use time),
/// then the others in ledger order (items, attachments, annotations, collections, tags, locations),
/// each taken while its line fits. Everything is shown when the whole ledger fits the budget plus
/// the left-out line, so the projected part is never larger than the whole ledger.
pub fn project_ledger(ledger: &ResourceLedger, summary: &str, budget: u64) -> ProjectedLedger {
    let whole = render(ledger);
    let note_tokens = crate::tokens::estimate_text(&left_out_line(ledger.entries.len()));
    if crate::tokens::estimate_text(&whole) <= budget.saturating_add(note_tokens) {
        return ProjectedLedger { text: whole, shown: ledger.entries.len(), left_out: 0 };
    }
    let line_tokens = |entry: &LedgerEntry| {
        let mut line = String::new();
        render_line(&mut line, entry);
        crate::tokens::estimate_text(&line)
    };
    let mut chosen = vec![false; ledger.entries.len()];
    let mut used = 0u64;
    let named = Mentions::new(summary);
    let mentions: Vec<Option<usize>> = ledger.entries.iter().map(|e| last_mention(&named, e)).collect();
    let user_lines = user_lines(summary);
    let user_lines = Mentions::new(&user_lines);
    let user_named: Vec<bool> = ledger.entries.iter().map(|e| last_mention(&user_lines, e).is_some()).collect();
    let mut order: Vec<usize> = (0..ledger.entries.len()).collect();
    // Keys on the user's lines, then the other named entries, each by latest mention first; the rest
    // keep ledger order (ties broken by position: what a stable sort of `0..n` gives).
    let key = |i: usize| (std::cmp::Reverse(user_named[i]), std::cmp::Reverse(mentions[i].map(|at| at + 1).unwrap_or(0)));
    crate::order::sort_positions(&mut order, &|a, b| key(a).cmp(&key(b)).then(a.cmp(&b)));
    for i in order {
        let tokens = line_tokens(&ledger.entries[i]);
        if used.saturating_add(tokens) <= budget {
            used += tokens;
            chosen[i] = true;
        }
    }
    let mut text = String::new();
    let mut shown = 0;
    for (entry, _) in ledger.entries.iter().zip(&chosen).filter(|(_, &c)| c) {
        render_line(&mut text, entry);
        shown += 1;
    }
    let left_out = ledger.entries.len() - shown;
    text.push_str(&left_out_line(left_out));
    ProjectedLedger { text, shown, left_out }
}
