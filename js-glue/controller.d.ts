// Types of controller.js: the CompactionController of the contract.
import type { UIMessage } from 'ai';
import type {
  CompactOptions, CompactOutcome, CompactionMode, Draft, Estimate, ModelProfile, Overhead, Projection, Session, SessionStore, Summarize,
} from './bibgenie_compaction.js';

export type CompactionState =
  | { status: 'idle'; outcome?: CompactOutcome }
  | { status: 'compacting'; mode: CompactionMode; cancel: () => boolean }
  | { status: 'failed'; mode: CompactionMode; reason: string; message: string; outcome: CompactOutcome };

/**
 * `send`: the projection followed by the draft, ready for the model; only when the request fits (after a
 * preflight compaction it is estimated again; `too-large` with reason `too-large-after-compaction` when it
 * still does not fit). Otherwise the draft comes back untouched; `cancelled`/`failed` also when the
 * compaction the submit waited for (manual, after-turn or its own) was cancelled or failed.
 */
export type SubmitResult =
  | { status: 'send'; messages: UIMessage[]; draft: Draft; outcome: CompactOutcome }
  | { status: 'too-large' | 'cancelled' | 'failed'; reason: string; message?: string; draft: Draft; outcome?: CompactOutcome };

export type ControllerAction = 'retry' | 'edit' | 'fork' | 'switch-model' | 'compact' | 'edit-draft' | 'submit';

/** What the controller calls instead of the wasm exports (tests, or another copy of the module). */
export interface CompactionCore {
  compact(options: CompactOptions): Promise<CompactOutcome>;
  project(session: Session): Pick<Projection, 'messages'>;
  /** Used after a preflight compaction to check that the draft fits; the wasm export when absent. */
  estimate?(session: Session, model: ModelProfile, options: { draft?: Draft; overhead?: Overhead }): Pick<Estimate, 'tokens' | 'safeInputLimit' | 'fits'>;
}

export interface CompactionControllerOptions {
  store: SessionStore;
  sessionId: string;
  model: ModelProfile;
  summarize: Summarize;
  /** What each model request carries besides the session (system prompt, tools). */
  overhead?: Overhead;
  onStatus?: (state: CompactionState) => void;
  /** Replaces the wasm exports `compact` and `project`. */
  core?: CompactionCore;
}

export declare class CompactionController {
  constructor(options: CompactionControllerOptions);
  /** Called with the new state whenever it changes. */
  onStatus: ((state: CompactionState) => void) | null;
  readonly state: CompactionState;
  /** True while a compaction (or its planning) runs. */
  readonly busy: boolean;
  readonly model: ModelProfile;
  setModel(model: ModelProfile): void;
  can(action: ControllerAction): boolean;
  /** Joins a running compaction instead of starting a second one. Never rejects for a failed compaction. */
  compact(mode?: 'manual' | 'auto'): Promise<CompactOutcome>;
  cancel(reason?: unknown): boolean;
  /** Background automatic check; resolves null when skipped because a compaction runs. Never rejects. */
  afterTurn(): Promise<CompactOutcome | null>;
  /** Preflight of a send; waits for a running compaction first. */
  submit<D extends Draft>(draft: D): Promise<SubmitResult & { draft: D }>;
}
