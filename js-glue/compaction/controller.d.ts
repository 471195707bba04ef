// Types of controller.js: the CompactionController of the contract.
import type { UIMessage } from 'ai';
import type {
  CacheBreakpointOptions, CacheBreakpoints, CacheProfile, CompactionMode, Draft, ModelProfile, Overhead, SessionStore, Summarize,
} from '../bibgenie_compaction.js';
import type { CompactOutcome } from './runner.js';

export type CompactionState =
  | { status: 'idle'; outcome?: CompactOutcome }
  | {
      status: 'compacting';
      mode: CompactionMode;
      cancel: () => boolean;
      /** For a status line, from the plan being carried out. */
      foldedMessages?: number;
      tokensBefore?: number;
      tokensAfterEstimate?: number;
    }
  | { status: 'failed'; mode: CompactionMode; reason: string; message: string; outcome: CompactOutcome };

/**
 * `send`: the projection followed by the draft, ready for the model; only when the request fits (after a
 * preflight compaction it is estimated again; `too-large` with reason `too-large-after-compaction` when it
 * still does not fit). `stored` when the draft was already the session's leaf (persisted before
 * submit): then the projection ends with it and it is not appended again. A draft whose id is
 * elsewhere in the session is refused: `failed` with reason `draft-already-stored`. Otherwise the
 * draft comes back untouched; `cancelled`/`failed` also when the compaction the submit waited for
 * (manual, after-turn or its own) was cancelled or failed.
 *
 * A send that fits is planned in one read of the session (the store-held index of the package's
 * stores: no load, no runner call). Its `outcome` is the runner's `noop` (same plan), whose
 * `session.nodes` is parsed when first read on a store's index (`leafId` and `branchRevision` are
 * plain fields).
 */
export type SubmitResult =
  | {
      status: 'send';
      messages: UIMessage[];
      draft: Draft;
      outcome: CompactOutcome;
      /** The draft was already the session's leaf: it is not to be appended again. */
      stored?: true;
      /**
       * Where the response goes: append it with this `parentId`. The draft's id, or, when the draft
       * was stored before the send and a preflight compacted, the checkpoint appended after it (so
       * the checkpoint stays on the branch). A continuation (the draft is the stored assistant
       * message) updates that message in place instead.
       */
      responseParentId: string;
      /** The cache marks of what is sent, when the submit asked for them (`cacheBreakpoints` option), from the read that made `messages`. */
      cacheBreakpoints?: CacheBreakpoints['breakpoints'];
    }
  | { status: 'too-large' | 'cancelled' | 'failed'; reason: string; message?: string; draft: Draft; outcome?: CompactOutcome };

export type ControllerAction = 'retry' | 'edit' | 'fork' | 'switch-model' | 'compact' | 'edit-draft' | 'submit';

export interface SubmitOptions {
  /** What this request carries besides the session (`{ system, tools }` or `{ tokens }`): replaces the controller's for this send. */
  overhead?: Overhead;
  /** Asks for the cache marks of what is sent (the options of `cacheBreakpoints`): `SubmitResult.cacheBreakpoints`. */
  cacheBreakpoints?: CacheBreakpointOptions;
}

export interface CompactionControllerOptions {
  store: SessionStore;
  sessionId: string;
  model: ModelProfile;
  summarize: Summarize;
  /** What each model request carries besides the session (system prompt, tools). */
  overhead?: Overhead;
  onStatus?: (state: CompactionState) => void;
  /** The provider's prompt cache: plans report `cache` and `cost`, and a cold cache compacts from 3/4 of the threshold. */
  cache?: CacheProfile;
  /** The clock (default `Date.now`): the cache state, and the `createdAt` the transport stamps on a response. */
  now?: () => number;
  /** With `cache`: run the automatic check again once the cache's lifetime has passed with no new message. */
  backgroundCompaction?: boolean;
}

export declare class CompactionController {
  constructor(options: CompactionControllerOptions);
  /** Called with the new state whenever it changes. */
  onStatus: ((state: CompactionState) => void) | null;
  readonly state: CompactionState;
  /** True while a compaction (or its planning) runs. */
  readonly busy: boolean;
  readonly model: ModelProfile;
  /** The store and session this controller decides for (the transport stores the turn there). */
  readonly store: SessionStore;
  readonly sessionId: string;
  /** The controller's clock (the `now` option, else `Date.now()`): the transport stamps a stored response's `createdAt` with it. */
  now(): number;
  setModel(model: ModelProfile): void;
  can(action: ControllerAction): boolean;
  /** Joins a running compaction instead of starting a second one. Never rejects for a failed compaction. */
  compact(mode?: 'manual' | 'auto'): Promise<CompactOutcome>;
  cancel(reason?: unknown): boolean;
  /**
   * Background automatic check; resolves null when skipped because a compaction runs. Never rejects.
   * Planned on the store-held index when the store has one: the runner runs only to compact.
   */
  afterTurn(options?: { overhead?: Overhead }): Promise<CompactOutcome | null>;
  /** Preflight of a send; waits for a running compaction first. Rejects with code `not-loaded` before the wasm is loaded. */
  submit<D extends Draft>(draft: D, options?: SubmitOptions): Promise<SubmitResult & { draft: D }>;
}
