//! A session kept in memory across calls, so that repeated operations on a long session cost time
//! for the new nodes only (the branch is extended, not re-walked, when the leaf moves to a child).

use std::cell::RefCell;
use std::rc::Rc;

use serde_json::Value;

use crate::error::{Error, ErrorCode, Result};
use crate::session::{read_branch_to, Branch, IdIndex, Node, NodeKind, Session};
use crate::estimate::{estimate_branch, BranchTokens, Estimate, EstimateRequest, ModelProfile};
use crate::projection::summary_message_json;
use crate::plan::{cache_breakpoints_branch, plan_branch, plan_branch_cached, Breakpoint, CacheOptions, Plan, PlanOptions};
use crate::summarize::{begin_request_parts, finished_request, next_request_part, summary_request_resolved, RequestParts, Round, SummaryRequest};
use crate::zotero::ResolvedItems;

#[derive(Debug, Clone)]
pub struct SessionIndex {
    session: Session,
    ids: IdIndex,
    branch: Branch,
    /// Per-node estimates and branch sums for `estimate`/`plan` (filled lazily, extended with the leaf).
    tokens: BranchTokens,
    /// The projected summary message (JSON text) of the last checkpoint projected, by its position:
    /// a checkpoint node is never replaced in place, so the text of a position never changes.
    summary_message: RefCell<Option<(usize, Rc<str>)>>,
    /// The parts of a summary request `begin_summary_request` began, under the number it answered;
    /// forgotten when the session changes.
    prepared: Option<(u32, RequestParts)>,
}

impl SessionIndex {
    pub fn from_session(session: Session) -> SessionIndex {
        let ids = IdIndex::build(&session);
        let branch = read_branch_to(&session, &ids, session.leaf_id.as_deref());
        SessionIndex { session, ids, branch, tokens: BranchTokens::default(), summary_message: RefCell::default(), prepared: None }
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn branch(&self) -> &Branch {
        &self.branch
    }

    /// Appends a durable node; it must be readable and its id new. The leaf does not move.
    pub fn append(&mut self, raw: Value) -> Result<()> {
        self.append_node(Node::parse_strict(raw)?)
    }

    /// As `append`, for a node already read (e.g. with `Node::parse_strict_text`).
    pub fn append_node(&mut self, node: Node) -> Result<()> {
        if self.ids.get(&node.id).is_some() {
            return Err(Error::new(ErrorCode::InvalidNode, format!("node {}: id already in the session", node.id)));
        }
        self.session.nodes.push(node);
        self.ids.add(&self.session, self.session.nodes.len() - 1);
        self.prepared = None;
        Ok(())
    }

    /// Replaces a message with a new version of it (same id and parent: a tool result or an approval
    /// arriving); the branch stays, and what was cached of the message is read again when needed.
    pub fn replace_node(&mut self, node: Node) -> Result<()> {
        let Some(position) = self.ids.get(&node.id) else {
            return Err(Error::new(ErrorCode::NotFound, format!("node {} is not a node of the session", node.id)));
        };
        let old = &self.session.nodes[position];
        // A message stays one the model receives, a display-only node stays display-only.
        let same_kind = match (&old.kind, &node.kind) {
            (NodeKind::Message(_), NodeKind::Message(_)) | (NodeKind::DisplayOnly(..), NodeKind::DisplayOnly(..)) => true,
            _ => false,
        };
        if !same_kind || old.parent_id != node.parent_id {
            return Err(Error::new(ErrorCode::InvalidNode, format!("node {}: only a message keeping its parent and its displayOnly is replaced", node.id)));
        }
        self.session.nodes[position] = node;
        self.tokens.forget_node(position);
        self.prepared = None;
        Ok(())
    }

    /// The projected summary message of the checkpoint at `position` as JSON text (`None` when that
    /// node is no checkpoint), made once per checkpoint while it stays the one projected.
    pub fn summary_message_json(&self, position: usize) -> Option<Rc<str>> {
        if let Some((at, text)) = self.summary_message.borrow().as_ref() {
            if *at == position {
                return Some(Rc::clone(text));
            }
        }
        let text: Rc<str> = summary_message_json(&self.session, position)?.into();
        *self.summary_message.borrow_mut() = Some((position, Rc::clone(&text)));
        Some(text)
    }

    /// Moves the leaf. Moving to a child of the current leaf extends the branch in place.
    pub fn set_leaf(&mut self, leaf_id: &str, branch_revision: u64) -> Result<()> {
        let Some(position) = self.ids.get(leaf_id) else {
            return Err(Error::new(ErrorCode::NotFound, format!("leaf {leaf_id} is not a node of the session")));
        };
        self.prepared = None;
        // The same leaf at a new revision (an update in place): the chain of parents is the same.
        if !self.branch.read_only && self.session.leaf_id.as_deref() == Some(leaf_id) {
            self.session.branch_revision = branch_revision;
            return Ok(());
        }
        let extends = !self.branch.read_only
            && self.branch.nodes.last().map(|&last| &self.session.nodes[last].id) == self.session.nodes[position].parent_id.as_ref()
            && self.session.nodes[position].parent_id.is_some()
            && !matches!(self.session.nodes[position].kind, NodeKind::Checkpoint(_));
        self.session.leaf_id = Some(leaf_id.to_string());
        self.session.branch_revision = branch_revision;
        if extends {
            self.branch.nodes.push(position);
        } else {
            self.branch = read_branch_to(&self.session, &self.ids, Some(leaf_id));
        }
        Ok(())
    }

    /// `estimate` on the held session. After `append` + `set_leaf` to a child, only the new node is
    /// estimated; moving the leaf elsewhere rebuilds the sums from cached per-node estimates.
    pub fn estimate(&mut self, model: &ModelProfile, request: &EstimateRequest) -> Result<Estimate> {
        estimate_branch(&self.session, &self.branch, &mut self.tokens, model, request)
    }

    /// Estimates up to `count` more nodes of the branch into the cache, as for a model without
    /// `replaysReasoning` or `imageTokens`, then merges the ledger of up to `count` more positions of
    /// the unsummarized span: the work of the first `estimate` or `plan` (a plan reads the summary
    /// frame), in parts a store runs with a pause between them. True once both are done.
    pub fn warm_tokens(&mut self, count: usize) -> bool {
        let len = self.branch.nodes.len();
        if self.tokens.synced() < len {
            let upto = self.tokens.synced().saturating_add(count).min(len);
            self.tokens.sync(&self.session, &self.branch.nodes[..upto], &Default::default());
            return false;
        }
        self.tokens.warm_frame(&self.session, count)
    }

    /// The estimate cache, for checks that a call after one append costs one node.
    pub fn branch_tokens(&self) -> &BranchTokens {
        &self.tokens
    }

    /// `plan` on the held session, with the same caching as `estimate`.
    pub fn plan(&mut self, model: &ModelProfile, options: &PlanOptions) -> Result<Plan> {
        plan_branch(&self.session, &self.branch, &mut self.tokens, model, options)
    }

    /// `plan` with the prompt cache's profile and the time.
    pub fn plan_cached(&mut self, model: &ModelProfile, options: &PlanOptions, cache: &CacheOptions) -> Result<Plan> {
        plan_branch_cached(&self.session, &self.branch, &mut self.tokens, model, options, cache)
    }

    /// Begins `summary_request`'s work for this plan, model, resolved items and round in parts, one
    /// per call (this one, then `continue_summary_request`): the serialized history, the ledger and
    /// the cited pages of the messages it holds, each in steps of about 256 KB, then their other
    /// registers, then the request, which `take_summary_request` hands out. A runner
    /// builds a large request in several tasks, with the page running between them, and the last
    /// task only hands it out; the request is the one `summary_request` builds in one call. Answers
    /// the number the other calls name the parts by, new in the whole module (two runs on one index,
    /// or on indexes a store makes anew, never continue or take each other's parts).
    pub fn begin_summary_request(&mut self, plan: &Plan, model: &ModelProfile, resolved: &ResolvedItems, round: &Round) -> Result<u32> {
        self.prepared = None;
        let parts = begin_request_parts(&self.session, &self.branch, plan, model, resolved, round)?;
        let number = next_parts_number();
        self.prepared = Some((number, parts));
        Ok(number)
    }

    /// The next part of the request begun under `number` (its inputs do not cross again); false,
    /// with nothing done, when none is left, the session changed since, or others were begun.
    pub fn continue_summary_request(&mut self, number: u32) -> Result<bool> {
        match self.prepared.as_mut() {
            Some((begun, parts)) if *begun == number => next_request_part(&self.session, &self.branch, parts),
            _ => Ok(false),
        }
    }

    /// The request begun under `number`, once every part is built (the session unchanged since it
    /// began); None otherwise, and the parts kept.
    pub fn take_summary_request(&mut self, number: u32) -> Option<SummaryRequest> {
        match self.prepared.take() {
            Some((begun, parts)) if begun == number && parts.is_finished() => finished_request(parts),
            other => {
                self.prepared = other;
                None
            }
        }
    }

    /// `summary_request_resolved` on the held session.
    pub fn summary_request(&self, plan: &Plan, model: &ModelProfile, resolved: &ResolvedItems, round: &Round) -> Result<SummaryRequest> {
        summary_request_resolved(&self.session, &self.branch, plan, model, resolved, round)
    }

    /// `cacheBreakpoints` on the held session.
    pub fn cache_breakpoints(
        &mut self,
        model: &ModelProfile,
        request: &EstimateRequest,
        draft_id: Option<String>,
        cache: &CacheOptions,
    ) -> Result<Vec<Breakpoint>> {
        cache_breakpoints_branch(&self.session, &self.branch, &mut self.tokens, model, request, draft_id, cache)
    }
}

/// A number for each request begun in parts, unique in the module for its first 2^32 - 1.
fn next_parts_number() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static BEGUN: AtomicU32 = AtomicU32::new(0);
    BEGUN.fetch_add(1, Ordering::Relaxed).wrapping_add(1).max(1)
}
