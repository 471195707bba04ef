//! Branch reading and integrity: the active branch from the leaf up to the root, and every problem
//! that makes a session unsafe to write. Nothing is repaired, reordered or rewritten.

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use crate::error::{Error, ErrorCode};
use super::write::{node_texts, write_node_texts};
use super::types::{Node, NodeKind, Session};

/// A reason the session is unsafe to write (`BranchReadResult.problems`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename = "BranchProblem", rename_all = "camelCase"))]
pub struct Problem {
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(type = "ProblemCode"))]
    pub code: ErrorCode,
    pub node_id: Option<String>,
    pub message: String,
}

impl Problem {
    fn new(code: ErrorCode, node_id: Option<String>, message: String) -> Problem {
        Problem { code, node_id, message }
    }

    pub fn to_error(&self) -> Error {
        Error::new(self.code, self.message.clone())
    }
}

/// The active branch as indices into `session.nodes`, root to leaf (`readBranch` gives the nodes):
/// with any problem it is read-only and only the safe part.
#[derive(Debug, Clone, Default)]
#[cfg_attr(all(test, not(target_arch = "wasm32")), derive(ts_rs::TS), ts(rename = "BranchReadResult", rename_all = "camelCase"))]
pub struct Branch {
    #[cfg_attr(all(test, not(target_arch = "wasm32")), ts(type = "SessionNode[]"))]
    pub nodes: Vec<usize>,
    pub read_only: bool,
    pub problems: Vec<Problem>,
}

impl Branch {
    /// The first problem as an error, for operations that need a fully readable branch.
    pub fn require_readable(&self) -> Result<(), Error> {
        match self.problems.first() {
            Some(p) => Err(p.to_error()),
            None => Ok(()),
        }
    }

    /// The branch positions of the nodes `ids` name that `keep` accepts, in branch order, each once;
    /// the first id that names none of them as the error. Ids in branch order (as the core's plans
    /// list them) are matched in one walk; any other order through a set (a search per id was
    /// quadratic, and a set of every id of a 10,000-message fold costs as much as the walk).
    pub fn positions_of<'i>(&self, session: &Session, ids: &'i [String], keep: impl Fn(&Node) -> bool) -> Result<Vec<usize>, &'i str> {
        let mut positions = Vec::with_capacity(ids.len());
        for (position, &i) in self.nodes.iter().enumerate() {
            let node = &session.nodes[i];
            if ids.get(positions.len()).is_some_and(|id| *id == node.id) && keep(node) {
                positions.push(position);
            }
        }
        if positions.len() == ids.len() {
            return Ok(positions);
        }
        let wanted: HashSet<&str> = ids.iter().map(String::as_str).collect();
        let mut found: HashSet<&str> = HashSet::new();
        positions.clear();
        for (position, &i) in self.nodes.iter().enumerate() {
            let node = &session.nodes[i];
            if keep(node) && wanted.contains(node.id.as_str()) && found.insert(node.id.as_str()) {
                positions.push(position);
            }
        }
        match ids.iter().find(|id| !found.contains(id.as_str())) {
            Some(id) => Err(id),
            None => Ok(positions),
        }
    }

    /// Position on the branch of the newest checkpoint, if any.
    pub fn newest_checkpoint_position(&self, session: &Session) -> Option<usize> {
        self.nodes.iter().rposition(|&i| session.nodes[i].checkpoint().is_some())
    }

    /// The branch as a JSON value (tests and native callers; `to_json_text` keeps each node's numbers as written).
    pub fn to_json(&self, session: &Session) -> Value {
        serde_json::from_str(&self.to_json_text(session)).unwrap_or(Value::Null)
    }

    /// `{ nodes, readOnly, problems }` as JSON text: nodes exactly as given.
    pub fn to_json_text(&self, session: &Session) -> String {
        let mut out = String::from("{\"nodes\":");
        write_node_texts(&mut out, session, self.nodes.iter().copied());
        let problems: Vec<Value> = self
            .problems
            .iter()
            .map(|p| {
                crate::text::object(vec![
                    ("code", Value::from(p.code.as_str())),
                    ("nodeId", p.node_id.clone().map_or(Value::Null, Value::from)),
                    ("message", Value::from(p.message.as_str())),
                ])
            })
            .collect();
        out.push_str(",\"readOnly\":");
        out.push_str(if self.read_only { "true" } else { "false" });
        out.push_str(",\"problems\":");
        out.push_str(&Value::Array(problems).to_string());
        out.push('}');
        out
    }
}

/// Id lookup over all nodes, with the session-wide defects (duplicate ids, unreadable nodes).
#[derive(Debug, Clone, Default)]
pub struct IdIndex {
    by_id: HashMap<String, usize>,
    duplicated: HashSet<String>,
    /// Session-wide problems, in node order.
    problems: Vec<Problem>,
}

impl IdIndex {
    pub fn build(session: &Session) -> IdIndex {
        let mut index = IdIndex::default();
        for position in 0..session.nodes.len() {
            index.add(session, position);
        }
        index
    }

    /// Registers `session.nodes[position]`, which must be the last node added.
    pub fn add(&mut self, session: &Session, position: usize) {
        let node = &session.nodes[position];
        if let NodeKind::Invalid(why) = &node.kind {
            self.problems.push(Problem::new(ErrorCode::InvalidNode, Some(node.label(position)), why.clone()));
        }
        if node.id.is_empty() {
            return;
        }
        if self.by_id.contains_key(&node.id) {
            if self.duplicated.insert(node.id.clone()) {
                self.problems.push(Problem::new(
                    ErrorCode::DuplicateId,
                    Some(node.id.clone()),
                    format!("node id {} appears more than once", node.id),
                ));
            }
        } else {
            self.by_id.insert(node.id.clone(), position);
        }
    }

    pub fn get(&self, id: &str) -> Option<usize> {
        self.by_id.get(id).copied()
    }

    pub fn is_duplicated(&self, id: &str) -> bool {
        self.duplicated.contains(id)
    }

    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }
}

pub fn read_branch(session: &Session) -> Branch {
    let index = IdIndex::build(session);
    read_branch_to(session, &index, session.leaf_id.as_deref())
}

/// The branch ending at `leaf` (the session's leaf, or a fork point).
pub fn read_branch_to(session: &Session, index: &IdIndex, leaf: Option<&str>) -> Branch {
    let mut problems: Vec<Problem> = index.problems().to_vec();
    let mut chain = Vec::new();
    if let Some(leaf) = leaf {
        walk_to_root(session, index, leaf, &mut chain, &mut problems);
    } else if !session.nodes.is_empty() {
        problems.push(Problem::new(ErrorCode::MissingLeaf, None, "session has nodes but leafId is null".into()));
    }
    chain.reverse();
    problems.extend(dangling_boundaries(session, index, &chain));
    Branch { read_only: !problems.is_empty(), nodes: chain, problems }
}

/// Collects leaf..root into `chain`, stopping before the first node that cannot be read safely.
fn walk_to_root(session: &Session, index: &IdIndex, leaf: &str, chain: &mut Vec<usize>, problems: &mut Vec<Problem>) {
    let Some(mut position) = index.get(leaf) else {
        problems.push(Problem::new(ErrorCode::MissingLeaf, Some(leaf.to_string()), format!("leaf {leaf} is not a node of the session")));
        return;
    };
    // By position, not a set: the first read of a 10,000-message branch hashed every position twice.
    let mut seen = vec![false; session.nodes.len()];
    loop {
        let node = &session.nodes[position];
        // An ambiguous id or an unreadable node ends the readable part (already reported by the index).
        if index.is_duplicated(&node.id) || matches!(node.kind, NodeKind::Invalid(_)) {
            return;
        }
        seen[position] = true;
        chain.push(position);
        let Some(parent_id) = node.parent_id.as_deref() else { return };
        match index.get(parent_id) {
            None => {
                problems.push(Problem::new(
                    ErrorCode::MissingParent,
                    Some(node.id.clone()),
                    format!("node {}: parent {parent_id} is not a node of the session", node.id),
                ));
                return;
            }
            Some(parent) if seen[parent] => {
                problems.push(Problem::new(
                    ErrorCode::Cycle,
                    Some(node.id.clone()),
                    format!("node {}: parent {parent_id} closes a cycle", node.id),
                ));
                return;
            }
            Some(parent) => position = parent,
        }
    }
}

/// A checkpoint's boundary must be a message on its own ancestor chain. Marked by position (no id on
/// the chain is ambiguous: the walk stops before one), and looked up once per checkpoint.
fn dangling_boundaries(session: &Session, index: &IdIndex, chain: &[usize]) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut message_above = vec![false; session.nodes.len()];
    for &i in chain {
        let node = &session.nodes[i];
        match &node.kind {
            NodeKind::Message(_) => message_above[i] = true,
            NodeKind::Checkpoint(c) => {
                if let Some(kept) = c.first_kept_message_id.as_deref() {
                    if !index.get(kept).is_some_and(|at| message_above[at]) {
                        problems.push(Problem::new(
                            ErrorCode::DanglingBoundary,
                            Some(node.id.clone()),
                            format!("checkpoint {}: firstKeptMessageId {kept} is not a message on its ancestor chain", node.id),
                        ));
                    }
                }
            }
            // Never a boundary: a checkpoint naming one is dangling.
            NodeKind::DisplayOnly(..) | NodeKind::Invalid(_) => {}
        }
    }
    problems
}

/// The durable view for the UI: the readable part of the branch, checkpoints in place.
pub fn history(session: &Session) -> Value {
    serde_json::from_str(&history_text(session)).unwrap_or(Value::Null)
}

/// `history` as JSON text: the nodes exactly as given.
pub fn history_text(session: &Session) -> String {
    node_texts(session, read_branch(session).nodes.iter().copied())
}
