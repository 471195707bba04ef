//! Writing nodes back out as JSON text, each node exactly as it was given.

use serde_json::Value;

use super::types::Session;

/// Writes `[text,text,...]` of the nodes at `positions`: each node exactly as given (numbers as
/// written: a `Value` round trip could read a 17-digit number back one unit off).
/// `write_node_texts` into a new string.
pub fn node_texts(session: &Session, positions: impl Iterator<Item = usize>) -> String {
    let mut out = String::new();
    write_node_texts(&mut out, session, positions);
    out
}

pub fn write_node_texts(out: &mut String, session: &Session, positions: impl Iterator<Item = usize>) {
    out.push('[');
    for (k, i) in positions.enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(session.nodes[i].raw.as_str());
    }
    out.push(']');
}

impl Session {
    /// `{ nodes, leafId, branchRevision }` as JSON text, every node exactly as given.
    pub fn to_json_text(&self) -> String {
        let mut out = String::from("{\"nodes\":");
        write_node_texts(&mut out, self, 0..self.nodes.len());
        out.push_str(",\"leafId\":");
        out.push_str(&Value::from(self.leaf_id.clone()).to_string());
        out.push_str(",\"branchRevision\":");
        out.push_str(&self.branch_revision.to_string());
        out.push('}');
        out
    }
}
