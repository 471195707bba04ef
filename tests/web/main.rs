//! The browser suite: wasm-bindgen-test in headless Firefox ESR, one test binary (one wasm build,
//! one browser start) with a module per concept.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

mod edge;
mod plan;
mod session_index;
mod summary;
mod tree;
mod support;
