//! Answers by node position (indices into `session.nodes`) instead of copies of the nodes: the
//! package's `project`, `history` and `readBranch` (js-glue/api.js) and the `SessionIndex` of the
//! glue (js-glue/session-cache.js) build their arrays from the caller's own node objects, so no
//! node is cloned, serialized and parsed again on the way out.

use serde_json::{json, Value};

use crate::session::{Branch, Session};
use crate::projection::{summary_message, Projected, Projection};

/// `{ items: [nodeIndex | { summary: UIMessage }], checkpointId, keptFromId }`.
pub fn projection_positions(session: &Session, p: &Projection) -> Value {
    let items: Vec<Value> = p
        .items
        .iter()
        .map(|item| match *item {
            Projected::Message(i) => json!(i),
            Projected::Summary(i) => {
                let node = &session.nodes[i];
                json!({ "summary": node.checkpoint().map(|c| summary_message(&node.id, c)) })
            }
        })
        .collect();
    json!({
        "items": items,
        "checkpointId": p.checkpoint.map(|i| session.nodes[i].id.clone()),
        "keptFromId": p.kept_from.map(|i| session.nodes[i].id.clone()),
    })
}

/// `{ nodes: nodeIndex[], readOnly, problems }`: the problems as `readBranch` writes them, without
/// its copies of the nodes.
pub fn branch_positions(session: &Session, branch: &Branch) -> Value {
    let mut read = Branch { nodes: Vec::new(), ..branch.clone() }.to_json(session);
    read["nodes"] = json!(branch.nodes);
    read
}
