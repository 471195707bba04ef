//! Boundary search: where the verbatim tail of a new checkpoint starts.
//!
//! Rule `user-turn-boundary`: a boundary is always the start of a user turn (a user message on the branch),
//! never inside an assistant response or its tool parts; `Boundary::AfterAll` means no verbatim tail.
//! Rule `tail-fit`: walking back from the newest turn, whole turns are kept while they fit the tail budget.
//! Rule `oversized-newest-turn`: if the newest turn alone is over budget the boundary is the next user
//! boundary after it, which does not exist yet: no verbatim tail. The first turn that does not fit ends
//! the search, so no oversized turn is skipped to keep an older one.
//! Rule `monotonic-boundary`: candidates start at the previous checkpoint's boundary, so a new boundary is
//! never before it.
//!
//! Turn sums come from prefix sums, so the search is a binary search: the estimate of "every turn from
//! user message `u` to the leaf" only shrinks as `u` moves towards the leaf.

use crate::estimate::{BranchTokens, ProjectionSpan};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Boundary {
    /// The user message at this branch position is the first one kept verbatim.
    At(usize),
    /// Everything up to the leaf is summarized.
    AfterAll,
}

impl Boundary {
    /// The branch position the summarized range ends at (exclusive).
    pub fn position(self, span: &ProjectionSpan) -> usize {
        match self {
            Boundary::At(p) => p,
            Boundary::AfterAll => span.end,
        }
    }
}

/// Rules `tail-fit`, `oversized-newest-turn` and `monotonic-boundary`.
pub fn tail_boundary(tokens: &BranchTokens, span: &ProjectionSpan, tail_budget: u64) -> Boundary {
    let users = tokens.user_positions_from(span.start);
    let over_budget = users.partition_point(|&u| tokens.sum(u, span.end) > tail_budget);
    users.get(over_budget).map_or(Boundary::AfterAll, |&p| Boundary::At(p))
}

/// The next boundary after `boundary` (one turn less kept verbatim).
pub fn next_boundary(tokens: &BranchTokens, span: &ProjectionSpan, boundary: Boundary) -> Option<Boundary> {
    match boundary {
        Boundary::AfterAll => None,
        Boundary::At(p) => {
            let users = tokens.user_positions_from(p + 1);
            Some(users.first().map_or(Boundary::AfterAll, |&u| Boundary::At(u)))
        }
    }
    .filter(|b| b.position(span) <= span.end)
}

/// The newest user turn's start, if any turn starts at or after the previous boundary.
pub fn newest_turn(tokens: &BranchTokens, span: &ProjectionSpan) -> Option<Boundary> {
    tokens.user_positions_from(span.start).last().map(|&p| Boundary::At(p))
}

/// Number of user turns in the projection.
pub fn turn_count(tokens: &BranchTokens, span: &ProjectionSpan) -> usize {
    tokens.user_positions_from(span.start).len()
}

/// Rule `boundary-advances`: the boundary folds at least one message into the summary.
pub fn advances(tokens: &BranchTokens, span: &ProjectionSpan, boundary: Boundary) -> bool {
    tokens.message_count(span.start, boundary.position(span)) > 0
}
