//! Errors with stable codes. The bindings turn these into JS `Error`s whose `code` is `ErrorCode::as_str`.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    InvalidSession,
    InvalidNode,
    InvalidModel,
    InvalidPlan,
    InvalidOptions,
    InvalidMessage,
    InvalidSummary,
    InvalidRequest,
    InvalidLedger,
    /// A summary whose estimate is over the request's `maxOutputTokens`: committing it could break the plan's promise.
    SummaryOverBudget,
    NotFound,
    MissingLeaf,
    MissingParent,
    Cycle,
    DuplicateId,
    DanglingBoundary,
    ReadOnly,
    Internal,
}

impl ErrorCode {
    /// The stable string a JS caller can switch on.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::InvalidSession => "invalid-session",
            ErrorCode::InvalidNode => "invalid-node",
            ErrorCode::InvalidModel => "invalid-model",
            ErrorCode::InvalidPlan => "invalid-plan",
            ErrorCode::InvalidOptions => "invalid-options",
            ErrorCode::InvalidMessage => "invalid-message",
            ErrorCode::InvalidSummary => "invalid-summary",
            ErrorCode::InvalidRequest => "invalid-request",
            ErrorCode::InvalidLedger => "invalid-ledger",
            ErrorCode::SummaryOverBudget => "summary-over-budget",
            ErrorCode::NotFound => "not-found",
            ErrorCode::MissingLeaf => "missing-leaf",
            ErrorCode::MissingParent => "missing-parent",
            ErrorCode::Cycle => "cycle",
            ErrorCode::DuplicateId => "duplicate-id",
            ErrorCode::DanglingBoundary => "dangling-boundary",
            ErrorCode::ReadOnly => "read-only",
            ErrorCode::Internal => "internal",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error { code, message: message.into() }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
