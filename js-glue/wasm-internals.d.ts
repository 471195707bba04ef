// The wasm methods the glue calls that the package's declarations leave out (`skip_typescript` in
// src/bindings/: not API). Written once here so that the checkJs run (tests/types/tsconfig.glue.json)
// checks the glue's calls to them; nothing re-exports this file.
import type { SessionIndex, SummaryRepair } from './bibgenie_compaction.js';

/** A wasm SessionIndex with the appends the glue and the stores use. */
export interface InternalSessionIndex extends SessionIndex {
  /** Appends one node from its JSON text's UTF-8 (throws for a node the session's read must decide). */
  appendShallowUtf8(text: Uint8Array): void;
  /** Appends one node from its JSON text (the store's rows). */
  appendText(text: string): void;
  /** Replaces the node of the same id from its JSON text (a node updated in place). */
  replaceText(text: string): void;
}

/** The wasm SessionIndex class with its hidden statics. */
export interface InternalSessionIndexClass {
  from(session: unknown): InternalSessionIndex;
  /** Grows the wasm's text buffer for a session of about `bytes` (a hint; never throws). */
  reserveText(bytes: number): void;
  /** Throws `invalid-node` (naming the node and field) for a node's JSON text the session's read would call invalid. */
  checkNodeText(text: string): void;
  /** Rule `interrupted-tool` on one stored message's JSON text: an unfinished tool part that can still complete (not cut). */
  mayStillCompleteTool(text: string): boolean;
  /** The checks `compact` rejects with before it loads anything: model, mode, draft, overhead. */
  checkCompactInputs(model: unknown, mode: unknown, draft: unknown, overhead: unknown): void;
  /** The summary to commit for the summarizer's text: repaired (`kept`) or the extractive one of the request as taken (`embedded`) when invalid. */
  settleSummary(summary: string, fieldsText: string, history: string): { summary: string; repair?: SummaryRepair };
}
