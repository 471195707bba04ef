// The package's export list, the same for both entries (index.js and slim.js differ only in how
// they load the wasm): the wasm exports, then the glue by role.
export * from './bibgenie_compaction.js';
// Wrappers that return the caller's own node objects; an explicit export wins over the star above.
export { cacheBreakpoints, estimate, history, plan, project, readBranch, SessionIndex } from './session/calls.js';
// Glue modules: one `export * from './x.js';` line each.
export * from './stores/index.js';
export * from './compaction/controller.js';
export * from './compaction/runner.js';
export * from './chat/ai-sdk.js';
export * from './chat/transport.js';
export * from './chat/prompt-cache.js';
export * from './zotero/loader.js';
export * from './zotero/window-globals.js';
export * from './util/abort-signal.js';
