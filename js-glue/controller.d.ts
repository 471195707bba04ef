// Types of controller.js: the CompactionController of the contract.
import type { CompactOutcome, CompactStore, CompactSummarize } from './bibgenie_compaction.js';

export type CompactionMode = 'manual' | 'auto' | 'preflight';

export type CompactionState =
  | { status: 'idle'; outcome?: CompactOutcome }
  | { status: 'compacting'; mode: CompactionMode; cancel: () => boolean }
  | { status: 'failed'; mode: CompactionMode; reason: string; message: string; outcome: CompactOutcome };

export type SubmitResult =
  | { status: 'send'; messages: unknown[]; draft: unknown; outcome: CompactOutcome }
  | { status: 'too-large' | 'cancelled' | 'failed'; reason: string; message?: string; draft: unknown; outcome?: CompactOutcome };

export type ControllerAction = 'retry' | 'edit' | 'fork' | 'switch-model' | 'compact' | 'edit-draft' | 'submit';

export interface CompactionControllerOptions {
  store: CompactStore;
  sessionId: string;
  model: { id?: string; contextWindow: number; maxOutputTokens?: number; replaysReasoning?: boolean; imageTokens?: number };
  summarize: CompactSummarize;
  /** What each model request carries besides the session (system prompt, tools). */
  overhead?: { system?: string; tools?: unknown } | { tokens: number };
  onStatus?: (state: CompactionState) => void;
  /** Replaces the wasm exports `compact` and `project` (tests, or another copy of the module). */
  core?: { compact(options: object): Promise<CompactOutcome>; project(session: unknown): { messages: unknown[] } };
}

export declare class CompactionController {
  constructor(options: CompactionControllerOptions);
  /** Called with the new state whenever it changes. */
  onStatus: ((state: CompactionState) => void) | null;
  readonly state: CompactionState;
  /** True while a compaction (or its planning) runs. */
  readonly busy: boolean;
  readonly model: CompactionControllerOptions['model'];
  setModel(model: CompactionControllerOptions['model']): void;
  can(action: ControllerAction): boolean;
  /** Joins a running compaction instead of starting a second one. Never rejects for a failed compaction. */
  compact(mode?: 'manual' | 'auto'): Promise<CompactOutcome>;
  cancel(reason?: unknown): boolean;
  /** Background automatic check; resolves null when skipped because a compaction runs. Never rejects. */
  afterTurn(): Promise<CompactOutcome | null>;
  /** Preflight of a send; waits for a running compaction first. */
  submit(draft: string | { parts: unknown[]; [key: string]: unknown }): Promise<SubmitResult>;
}
