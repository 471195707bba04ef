//! Answers by node position (indices into `session.nodes`) instead of copies of the nodes: the
//! package's `project`, `history` and `readBranch` (js-glue/api.js) and the `SessionIndex` of the
//! glue (js-glue/session-cache.js) build their arrays from the caller's own node objects, so no
//! node is cloned, serialized and parsed again on the way out.

use std::rc::Rc;

use serde_json::Value;

use crate::session::{Branch, Session};
use crate::projection::{Projected, Projection};

/// `{ checkpointId, items: [nodeIndex | { summary: UIMessage }], keptFromId }` as JSON text (keys in
/// the order a `serde_json::Value` writes them); `summary_json` gives the summary message of the
/// checkpoint at a position as JSON text (`None`: not a checkpoint).
pub fn projection_positions(session: &Session, p: &Projection, mut summary_json: impl FnMut(usize) -> Option<Rc<str>>) -> String {
    let id_at = |at: Option<usize>| Value::from(at.map(|i| session.nodes[i].id.clone())).to_string();
    let mut out = format!("{{\"checkpointId\":{},\"items\":[", id_at(p.checkpoint));
    for (k, item) in p.items.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        match *item {
            Projected::Message(i) => out.push_str(&i.to_string()),
            Projected::Summary(i) => {
                out.push_str("{\"summary\":");
                out.push_str(summary_json(i).as_deref().unwrap_or("null"));
                out.push('}');
            }
        }
    }
    out.push_str("],\"keptFromId\":");
    out.push_str(&id_at(p.kept_from));
    out.push('}');
    out
}

/// `{ nodes: nodeIndex[], readOnly, problems }`: the problems as `readBranch` writes them, without
/// its copies of the nodes.
pub fn branch_positions(session: &Session, branch: &Branch) -> Value {
    let mut read = Branch { nodes: Vec::new(), ..branch.clone() }.to_json(session);
    read["nodes"] = Value::Array(branch.nodes.iter().map(|&i| Value::from(i)).collect());
    read
}
