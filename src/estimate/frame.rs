//! The summary frame: the tokens of the summary message a new checkpoint will project, without its
//! summary text (the preamble and the ledger). The ledger is the newest checkpoint's merged with every
//! Zotero locator of the projected messages, an upper bound of what any new boundary summarizes.
//!
//! [`FrameCache`] keeps that figure for a branch that grows at its leaf: the ledger entries of each node
//! are collected once, and the merged ledger of the projection span is extended on append and rebuilt
//! only when the span starts elsewhere (a new checkpoint) or the branch is re-read. Its figure equals
//! [`frame_tokens`] of the merged ledger exactly, because the estimator counts runs and characters and
//! adds the counts: every ledger line starts with `- ` after a line break, so the scanner is in the same
//! state at each line start and a line's counts do not depend on the lines around it.

use serde_json::json;

use crate::ledger::{collect, left_out_line, render, render_line};
use crate::zotero::{KeyPositions, LedgerEntry, ResourceLedger};
use crate::session::{Message, Part, Role, Session};
use crate::projection::{summary_text_with_ledger, LEDGER_HEADING};
use super::message::{estimate_message, EstimateOptions, MESSAGE_OVERHEAD_TOKENS, PART_OVERHEAD_TOKENS};
use crate::tokens::{estimate_text, run_counts, RunCounts};

/// The frame for a given ledger, computed from scratch.
/// The frame with the whole ledger projected (what `FrameCache` tracks).
pub fn frame_tokens(ledger: ResourceLedger, options: &EstimateOptions) -> u64 {
    frame_of_text(summary_text_with_ledger("", &render(&ledger)), options)
}

fn frame_of_text(text: String, options: &EstimateOptions) -> u64 {
    let message = Message { role: Role::User, parts: vec![Part::Text { text }], metadata: Some(json!({ "checkpoint": true })) };
    estimate_message(&message, options)
}

/// Run boundaries between the pieces can add a token each (a piece's first run may join the
/// previous one's last); a few pieces are joined.
pub const JOIN_SLACK_TOKENS: u64 = 8;

/// Upper bound of the frame of a summary made for `capacity` and estimated within twice its budget
/// (see `capacity::projected_ledger_budget`): the ledger's projected part is at most `projected_ledger_budget`,
/// plus the left-out line (rule `ledger-projection-budget`), whatever the
/// ledger's size.
pub fn bounded_frame_tokens(capacity: &super::capacity::Capacity, options: &EstimateOptions) -> u64 {
    bound_for_ledger_budget(super::capacity::projected_ledger_budget(capacity), options)
}

/// The largest `bounded_frame_tokens` of any model (its summary budget at `SUMMARY_CEILING`): a
/// frame past it is past every plan's bound.
pub fn largest_frame_bound() -> u64 {
    let budget = super::capacity::ledger_budget_for_summary_budget(super::capacity::SUMMARY_CEILING);
    bound_for_ledger_budget(budget, &EstimateOptions::default())
}

fn bound_for_ledger_budget(ledger_budget: u64, options: &EstimateOptions) -> u64 {
    let empty = frame_of_text(summary_text_with_ledger("", ""), options);
    [empty, estimate_text(LEDGER_HEADING), estimate_text(&left_out_line(usize::MAX)), ledger_budget, JOIN_SLACK_TOKENS]
        .into_iter()
        .fold(0, u64::saturating_add)
}

/// A merged ledger entry and the counts of its rendered line (with its line break).
#[derive(Debug, Clone)]
struct Line {
    entry: LedgerEntry,
    counts: RunCounts,
}

impl Line {
    fn new(entry: LedgerEntry) -> Line {
        let counts = run_counts(&line_text(&entry));
        Line { entry, counts }
    }
}

fn line_text(entry: &LedgerEntry) -> String {
    let mut text = String::new();
    render_line(&mut text, entry);
    text
}

/// The merged ledger of one projection span and the summed counts of its lines.
#[derive(Debug, Clone, Default)]
pub struct FrameCache {
    /// Ledger entries each message node contributes (by node index), collected once.
    node_entries: Vec<Option<Vec<LedgerEntry>>>,
    /// The span merged so far: (checkpoint node index, branch position of the span start).
    span: Option<(Option<usize>, usize)>,
    /// Branch positions `span start..through` are merged.
    through: usize,
    /// The merged lines (`lines`) by (kind, key), as positions into `lines`.
    line_at: KeyPositions,
    lines: Vec<Line>,
    line_counts: RunCounts,
    /// The largest figure of the span so far, after each message that brought entries (and of the
    /// checkpoint's own ledger): a later entry may shorten a merged line, so the figure is not monotone.
    peak: u64,
    /// Work counters: message nodes whose entries were collected, entries merged into a span.
    nodes_collected: usize,
    entries_merged: usize,
}

impl FrameCache {
    /// Forgets the merged span (the branch was re-read); per-node entries stay.
    pub fn forget_span(&mut self) {
        self.span = None;
    }

    /// Forgets the entries collected from node `index` and the merged span (the node was replaced).
    pub fn forget_node(&mut self, index: usize) {
        if let Some(entries) = self.node_entries.get_mut(index) {
            *entries = None;
        }
        self.span = None;
    }

    /// The branch position merged up to, for the span after `checkpoint` from `start` (`start` when
    /// another span is merged).
    pub fn merged_through(&self, checkpoint: Option<usize>, start: usize) -> usize {
        if self.span == Some((checkpoint, start)) { self.through } else { start }
    }

    /// (message nodes collected, entries merged) since creation.
    pub fn work(&self) -> (usize, usize) {
        (self.nodes_collected, self.entries_merged)
    }

    /// Merges the ledger entries of the projection of `branch[start..end]` after the checkpoint at node
    /// index `checkpoint`, stopping after the message that takes `peak` to `limit` (`u64::MAX`: the
    /// whole span): a plan counts the frame at most at its bound, so the rest of a long span's tool
    /// outputs need not be read. `branch` must extend the branch of the previous call unless
    /// `forget_span` was called since.
    pub fn read_span(&mut self, session: &Session, branch: &[usize], checkpoint: Option<usize>, start: usize, end: usize, limit: u64) {
        if self.span != Some((checkpoint, start)) || self.through > end {
            self.span = Some((checkpoint, start));
            self.through = start;
            self.line_at.clear();
            self.lines.clear();
            self.line_counts = RunCounts::default();
            let carried = checkpoint.and_then(|i| session.nodes.get(i)).and_then(|n| n.checkpoint());
            for entry in carried.map(|c| c.ledger.entries.as_slice()).unwrap_or_default() {
                self.merge(entry);
            }
            self.peak = self.figure(&EstimateOptions::default());
        }
        if self.node_entries.len() < session.nodes.len() {
            self.node_entries.resize(session.nodes.len(), None);
        }
        while self.through < end && self.peak < limit {
            let position = self.through;
            self.through += 1;
            let Some(&index) = branch.get(position) else {
                self.through = end;
                break;
            };
            let Some(message) = session.nodes.get(index).and_then(|n| n.message()) else { continue };
            let entries = match self.node_entries[index].take() {
                Some(entries) => entries,
                None => {
                    self.nodes_collected += 1;
                    collect([message]).entries
                }
            };
            for entry in &entries {
                self.merge(entry);
            }
            if !entries.is_empty() {
                self.peak = self.peak.max(self.figure(&EstimateOptions::default()));
            }
            self.node_entries[index] = Some(entries);
        }
    }

    /// The largest frame along the span read (after each message that brought ledger entries, and of
    /// the checkpoint's own ledger). The same whatever was read before (the index) or not (a stateless
    /// call) once `read_span` stopped at a `limit`: each message's figure is the same, and the largest
    /// is reached at or after the first that passes it.
    pub fn peak(&self) -> u64 {
        self.peak
    }

    /// Upserts `entry` as `ledger::merge` does (a newer label, parent, detail or library wins where known).
    fn merge(&mut self, entry: &LedgerEntry) {
        self.entries_merged += 1;
        match self.line_at.get(&(entry.kind, entry.key.clone())) {
            Some(&at) => {
                let line = &mut self.lines[at];
                let mut merged = line.entry.clone();
                if entry.label.is_some() {
                    merged.label.clone_from(&entry.label);
                }
                if entry.parent_key.is_some() {
                    merged.parent_key.clone_from(&entry.parent_key);
                }
                if entry.detail.is_some() {
                    merged.detail.clone_from(&entry.detail);
                }
                if entry.library_id.is_some() {
                    merged.library_id = entry.library_id;
                }
                if entry.group_id.is_some() {
                    merged.group_id = entry.group_id;
                }
                if merged != line.entry {
                    self.line_counts = self.line_counts.minus(&line.counts);
                    *line = Line::new(merged);
                    self.line_counts = self.line_counts.plus(&line.counts);
                }
            }
            None => {
                let line = Line::new(entry.clone());
                self.line_counts = self.line_counts.plus(&line.counts);
                self.line_at.insert((entry.kind, entry.key.clone()), self.lines.len());
                self.lines.push(line);
            }
        }
    }

    /// The summary message's estimate: heading + every line, the last one without its trailing whitespace
    /// (`ledger::render` trims the end), framed as `estimate_message` frames a one-part text message.
    pub fn figure(&self, options: &EstimateOptions) -> u64 {
        let Some(last) = self.line_at.values().next_back().map(|&at| &self.lines[at]) else {
            return frame_tokens(ResourceLedger::default(), options);
        };
        let heading = format!("{}{LEDGER_HEADING}", summary_text_with_ledger("", ""));
        let last_text = line_text(&last.entry);
        let counts = run_counts(&heading)
            .plus(&self.line_counts.minus(&last.counts))
            .plus(&run_counts(last_text.trim_end()));
        match counts.tokens() {
            0 => MESSAGE_OVERHEAD_TOKENS,
            text => MESSAGE_OVERHEAD_TOKENS.saturating_add(text).saturating_add(PART_OVERHEAD_TOKENS),
        }
    }
}
