//! Reads JSON lines, one JSON string (a text) per line, and prints one line per text:
//! its estimated tokens, or with `--counts` the run counts as a JSON array (for `bench/estimator`).
//! `--features` prints the feature names and weights once and exits; `--throughput` reads all texts, estimates
//! them repeatedly for about a second and prints `{"bytes":..,"seconds":..}` (native speed of `estimate_text`).

use std::io::{BufRead, BufWriter, Write};

use bibgenie_compaction::tokens::{estimate_text, run_counts, FEATURE_NAMES, FOREIGN_SPAN, WEIGHTS, W_FOREIGN_LETTERS};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.iter().any(|a| a == "--features") {
        let features = serde_json::json!({
            "names": &FEATURE_NAMES[..], "weights": &WEIGHTS[..], "foreignSpan": FOREIGN_SPAN, "foreignWeight": W_FOREIGN_LETTERS,
        });
        let _ = writeln!(out, "{features}");
        return;
    }
    if args.iter().any(|a| a == "--throughput") {
        let texts: Vec<String> = std::io::stdin()
            .lock()
            .lines()
            .map_while(Result::ok)
            .map(|line| serde_json::from_str(&line).unwrap_or_default())
            .collect();
        let (mut bytes, mut sink) = (0usize, 0u64);
        let started = std::time::Instant::now();
        while started.elapsed().as_secs_f64() < 1.0 {
            for text in &texts {
                sink = sink.wrapping_add(std::hint::black_box(estimate_text(std::hint::black_box(text))));
                bytes += text.len();
            }
        }
        let seconds = started.elapsed().as_secs_f64();
        let _ = writeln!(out, "{}", serde_json::json!({ "bytes": bytes, "seconds": seconds, "sink": sink }));
        return;
    }
    let counts = args.iter().any(|a| a == "--counts");
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let text: String = serde_json::from_str(&line).unwrap_or_default();
        let result = if counts {
            serde_json::to_string(&run_counts(&text).counts[..]).unwrap_or_default()
        } else {
            estimate_text(&text).to_string()
        };
        if writeln!(out, "{result}").is_err() {
            break;
        }
    }
}
