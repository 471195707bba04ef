//! The wasm edge: the only code that knows about `JsValue`.
//!
//! One file per JS class (`session_index.rs` is the whole wasm `SessionIndex`: every call that
//! takes a session, the glue's pure calls included), the stateless exports that take none in one
//! file per pipeline stage (`plan`, `cache`, `summarize`, `commit`, `ledger`), and the conversions
//! apart: `error` (a core error as the coded JS error), `convert` (values in and out as JSON text),
//! `args` (the arguments' readers), `answers` (the position answers) and `types` (the TypeScript
//! declarations of the contract).
//! Values cross as JSON text (one `JSON.stringify` in, one `JSON.parse` out) rather than
//! field by field, which is both faster for large sessions and keeps the core free of JS types.

mod answers;
mod args;
pub mod cache;
pub mod commit;
mod convert;
mod error;
pub mod ledger;
pub mod plan;
pub mod session_index;
pub mod summarize;
pub mod types;

use wasm_bindgen::prelude::*;

// The conversions the browser tests (tests/web/edge.rs) check directly.
pub use convert::{from_js, from_js_optional, js_result, to_js};
pub use error::js_error;

/// The crate version, so a caller can check which build it loaded.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
