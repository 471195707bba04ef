// Throwaway (not committed): the wasm's node-by-node cold estimate, natively, for perf.
use bibgenie_compaction::{EstimateRequest, ModelProfile, Node, Session, SessionIndex};
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let nodes: Vec<String> = value["nodes"].as_array().unwrap().iter().map(|n| serde_json::to_string(n).unwrap()).collect();
    let leaf = value["leafId"].as_str().unwrap().to_string();
    let model = ModelProfile::from_value(&serde_json::json!({"id":"m","contextWindow":200000,"maxOutputTokens":32000})).unwrap();
    let request = EstimateRequest::from_value(None).unwrap();
    let rounds: usize = std::env::args().nth(2).map(|s| s.parse().unwrap()).unwrap_or(20);
    let started = std::time::Instant::now();
    let mut sink = 0u64;
    for _ in 0..rounds {
        let mut index = SessionIndex::from_session(Session::from_json_str(r#"{"nodes":[],"leafId":null,"branchRevision":0}"#).unwrap());
        for n in &nodes { index.append_node(Node::read_text_within(n, 62).unwrap()).unwrap(); }
        index.set_leaf(&leaf, 0).unwrap();
        sink += index.estimate(&model, &request).unwrap().tokens;
    }
    eprintln!("{:.1} ms per cold estimate ({sink})", started.elapsed().as_secs_f64() * 1000.0 / rounds as f64);
}
