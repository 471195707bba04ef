//! Bytes -> a file part whose url is `data:<media type>;base64,` + the bytes in base64 (image header
//! parsing, binary and textual files by size and content); the bytes as a raw url string too.
#![no_main]

use bibgenie_compaction::estimate::estimate_one_message;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn estimate_file(media_type: &str, url: &str) {
    let message = json!({
        "id": "m", "role": "user",
        "parts": [{ "type": "file", "mediaType": media_type, "filename": "f", "url": url }],
    });
    let _ = estimate_one_message(&message, None);
}

fuzz_target!(|data: &[u8]| {
    let encoded = base64(data);
    for media_type in ["image/png", "image/jpeg", "application/pdf", "text/plain"] {
        estimate_file(media_type, &format!("data:{media_type};base64,{encoded}"));
    }
    // URL-safe alphabet and a payload cut mid-quad.
    let url_safe: String = encoded.trim_end_matches('=').replace('+', "-").replace('/', "_");
    estimate_file("image/webp", &format!("data:image/webp;base64,{url_safe}"));
    // The bytes themselves as the url (headers with odd parameters, no comma, percent-encoding, ...).
    let raw = String::from_utf8_lossy(data);
    estimate_file("image/gif", &raw);
    estimate_file("application/json", &raw);
    estimate_file("application/octet-stream", &raw);
});
