//! The TypeScript declarations of the contract's data (API.md) as the wasm module's declarations
//! see them: generated from the Rust types into the package's `contract.d.ts` (src/contract.rs,
//! run by build.sh), re-exported here.
//!
//! wasm-bindgen puts custom sections at the top of the generated `bibgenie_compaction.d.ts`, so the
//! exports' `unchecked_*_type` attributes and the glue (which imports from `./bibgenie_compaction.js`)
//! name these. `CONTRACT_NAMES` is replaced by build/contract.mjs with every name contract.d.ts exports.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const CONTRACT_TYPES: &str = r#"
import type { UIMessage } from './ai-types.js';
import type { CONTRACT_NAMES } from './contract.js';
export * from './contract.js';
"#;
