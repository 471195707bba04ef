// Hand-written types of the JS glue: the session stores (stores/), the Zotero loader and window
// globals (zotero/), the abort signal (util/abort-signal.js), the AI SDK adapters and prompt-cache
// marks (chat/) and the runner (compaction/runner.js). exports.d.ts re-exports them with
// `export * from './glue.js'` next to the wasm-bindgen types; the JS names them in JSDoc.
import type { LanguageModel, UIMessage } from 'ai';
import type {
  AbortListener, AbortSignalLike, BranchReadResult, CacheBreakpointOptions, CacheBreakpoints, EditTarget, ForkCheck, RetryTarget, CacheProfile, CheckpointNode, CommitCheck, CommitRefusal, CompactionMode, Draft, ErrorCode, Estimate, EstimateOptions,
  ModelProfile, Overhead, Plan, PlanOptions, PlanReason, Projection, Session, SessionNode, SessionStore, StoreTx, Summarize,
  SummaryRequest, WasmBytes, WasmModule,
} from './bibgenie_compaction.js';

// ---- Data ---------------------------------------------------------------------------------
// The contract's types (Session, SessionNode, SessionStore, StoreTx, AbortSignalLike, ...) are
// declared once, in the wasm module's declarations (src/bindings/types.rs).

/** What an app operation leaves behind: the node it wrote (if any) and the new head. */
export interface SessionHead {
  node?: SessionNode;
  sessionId: string;
  leafId: string | null;
  branchRevision: number;
}

// ---- Stores -------------------------------------------------------------------------------

/**
 * Error codes thrown by the stores (as `error.code`): invalid-argument, invalid-node,
 * invalid-session, duplicate-id, missing-parent, missing-leaf, unknown-session, unknown-node,
 * session-exists, not-updatable, invalid-revision, transaction-closed, unsupported-schema;
 * session-moved (an append's expectedLeafId / expectedRevision no longer hold), app-key-exists,
 * has-forks (deleteSession without withForks), store-closed; and the retryable store-busy (the
 * file stayed locked by another connection) and store-conflict (a transaction's session kept
 * changing under every attempt), both with `retryable: true`; store-open-failed (SqliteStore given
 * the Database class could not open its file: a missing folder, no permission, not a database).
 */
export type StoreErrorCode =
  | 'invalid-argument' | 'invalid-node' | 'invalid-session' | 'duplicate-id' | 'missing-parent'
  | 'missing-leaf' | 'unknown-session' | 'unknown-node' | 'session-exists' | 'not-updatable'
  | 'invalid-revision' | 'transaction-closed' | 'unsupported-schema'
  | 'session-moved' | 'app-key-exists' | 'has-forks' | 'store-closed' | 'store-busy' | 'store-conflict'
  | 'store-open-failed';

/** A session's metadata, as `listSessions({ details: true })` lists it. */
export interface SessionInfo {
  sessionId: string;
  /** The app's title for the session (null when none was set). */
  title: string | null;
  /** The app's key for it, unique in the store, e.g. the Zotero item key (null when none). */
  appKey: string | null;
  /** Milliseconds since 1970 (Date.now()) at creation and at the last change. */
  createdAt: number;
  updatedAt: number;
  leafId: string | null;
  branchRevision: number;
  /** For a fork: the session and node it continues. */
  baseSessionId: string | null;
  baseNodeId: string | null;
}

/** Metadata a new session may be given. */
export interface SessionInfoInput {
  title?: string | null;
  appKey?: string | null;
}

/**
 * What the caller saw before appending: the append is refused with `session-moved` (the
 * current head in the error's `leafId` and `branchRevision`) when the session moved since.
 */
export interface AppendExpectation {
  expectedLeafId?: string | null;
  expectedRevision?: number;
}

/** A refusal with a stable code, as the stores throw it. */
export interface StoreError extends Error {
  code: StoreErrorCode;
  /** True for store-busy and store-conflict: the same call may succeed later. */
  retryable?: boolean;
  /** session-moved: the head as it is now. */
  leafId?: string | null;
  branchRevision?: number;
  /** has-forks: the sessions forked from the one to delete. */
  forks?: string[];
}

// The one held session's class is declared in session/session-index.d.ts.
import type { SessionIndex } from './session/session-index.js';
export type { SessionIndex };

/** The model projection: the summary message, then your message objects (a pure read: nothing is held). */
export function project(session: Session): Projection;
/** The active branch, root first, checkpoints in place: your node objects. */
export function history(session: Session): SessionNode[];
/** The active branch with its integrity problems: your node objects. */
export function readBranch(session: Session): BranchReadResult;

/** The shared implementation of every store: the contract plus the app operations. */
export declare class SessionStoreBase implements SessionStore {
  protected constructor(driver: unknown);
  load(sessionId: string): Promise<Session>;
  /** The stored JSON text of the session's visible nodes (one JSON array) and its head. */
  loadJson(sessionId: string): Promise<{ nodesJson: string; leafId: string | null; branchRevision: number }>;
  /**
   * fn's writes are buffered and applied after it resolved, in one write transaction, if the
   * session is still what fn read; otherwise fn runs again on the fresh state (at most 4 times,
   * then `store-conflict`). No database transaction is open while fn runs.
   */
  transaction<T>(sessionId: string, fn: (tx: StoreTx) => Promise<T>): Promise<T>;
  /** An empty session (leafId null, revision 0); a random `sessionId` unless given. */
  createSession(options?: { sessionId?: string } & SessionInfoInput): Promise<Session & { sessionId: string }>;
  /** Stores a whole session verbatim (nodes, leaf, revision), e.g. the demo's bundled session. */
  importSession(session: Session, options?: { sessionId?: string } & SessionInfoInput): Promise<SessionHead>;
  /** Imports a linear UIMessage list (no parentId) as a new session: see sessionFromMessages. */
  importMessages(messages: ReadonlyArray<UIMessage & { parentId?: string | null }>, options?: { sessionId?: string } & SessionInfoInput): Promise<SessionHead>;
  /** Session ids, most recently changed first; with `{ details: true }` their metadata. */
  listSessions(options?: { details?: false }): Promise<string[]>;
  listSessions(options: { details: true }): Promise<SessionInfo[]>;
  getSessionInfo(sessionId: string): Promise<SessionInfo>;
  /** Sets the title and/or app key (null clears); the revision stays, updatedAt moves. */
  setSessionInfo(sessionId: string, info: SessionInfoInput): Promise<SessionInfo>;
  /** The session of an app key (e.g. a Zotero item key), created empty if there is none. */
  getOrCreateSession(options: { appKey: string; title?: string | null; sessionId?: string }): Promise<SessionInfo & { created: boolean }>;
  /** Deletes a session and its nodes; one with forks only with `withForks` (forks deleted first). */
  deleteSession(sessionId: string, options?: { withForks?: boolean }): Promise<{ deleted: string[] }>;
  /** The checkpoints on the branch ending at leafId (the session's leaf by default), oldest first. */
  listCheckpoints(sessionId: string, options?: { leafId?: string }): Promise<SessionNode[]>;
  /** Appends under the leaf (or options.parentId / message.parentId), moves the leaf, bumps the revision. */
  appendMessage(
    sessionId: string,
    message: UIMessage & { parentId?: string | null },
    options?: { parentId?: string | null } & AppendExpectation,
  ): Promise<SessionHead>;
  /**
   * A tool result (or final metadata) arriving: only for the leaf or a message of the newest turn with a tool part that can still complete (not cut by `metadata.aborted` / `finishReason: 'error'`, no user message after it).
   * A change also bumps the revision of every fork whose inherited chain holds the message.
   */
  updateMessageParts(sessionId: string, messageId: string, parts: UIMessage['parts'], options?: { metadata?: unknown }): Promise<SessionHead>;
  /** Makes nodeId the leaf (branch switch); bumps the revision unless it already was. */
  moveLeaf(sessionId: string, nodeId: string): Promise<SessionHead>;
  /** Retry under parentId (core's retryTarget): moves the leaf there, or appends `message` there. */
  retry(sessionId: string, parentId: string, message?: UIMessage, options?: AppendExpectation): Promise<SessionHead>;
  /** Edit: `message` becomes a sibling under parentId (core's editTarget) and the leaf. */
  edit(sessionId: string, parentId: string | null, message: UIMessage, options?: AppendExpectation): Promise<SessionHead>;
  /**
   * A new session continuing the ancestor chain of nodeId (nothing copied; load() prepends the
   * chain). Starts at leaf nodeId, revision 0. Check the core's canFork first.
   */
  fork(sessionId: string, nodeId: string, options?: { sessionId?: string } & SessionInfoInput): Promise<SessionHead>;
  /**
   * Runs `use` on the session's store-held index, caught up with the durable state first, in one read
   * (use must not await). `view` is null when the index cannot hold the session (then use load()).
   */
  withSessionIndex<T>(sessionId: string, use: (index: SessionIndex | null) => T): Promise<T>;
  /** Frees the session's store-held index (a later use rebuilds it). */
  releaseSessionIndex(sessionId: string): Promise<void>;
  /** True once close() was called. */
  readonly closed: boolean;
  /** Later calls reject with `store-closed`; resolves once calls already made settled and the backend let go. */
  close(): Promise<void>;
}

/** In memory (tests, browsers). Nodes are kept as JSON text, so callers never alias stored state. */
export declare class MemoryStore extends SessionStoreBase {
  constructor();
}

/** The part of a better-sqlite3 Database the store uses (the package never imports it). */
export interface SqliteDatabaseLike {
  prepare(sql: string): { all(...params: unknown[]): any[]; get(...params: unknown[]): any; run(...params: unknown[]): unknown };
  exec(sql: string): unknown;
  pragma(sql: string, options?: { simple?: boolean }): unknown;
  close(): unknown;
  readonly inTransaction: boolean;
}

export interface SqliteStoreOptions {
  /** How long a call retries a file another connection keeps locked before `store-busy` (default 5000 ms). */
  busyTimeoutMs?: number;
}

/**
 * On better-sqlite3 (12.x), WAL mode. `new SqliteStore(Database, file)` or `new SqliteStore(db)`.
 * Stores opened from the class on one file in one process share one connection.
 */
export declare class SqliteStore extends SessionStoreBase {
  constructor(database: SqliteDatabaseLike, options?: SqliteStoreOptions);
  constructor(Database: new (filename: string) => SqliteDatabaseLike, filename: string, options?: SqliteStoreOptions);
  readonly database: SqliteDatabaseLike;
  /** The connection closes with the last store using it, if a store opened it. */
  close(): Promise<void>;
}
