// A TypeScript consumer of the packed package: `tsc --noEmit` over this file (build.sh, stage
// "types") proves that the declarations of every export are present, precise and compatible with
// the AI SDK's own UIMessage. Never run: values the check needs but cannot build (a model, a
// database) are `declare`d. Each `@ts-expect-error` line is a wrong use that must stay rejected.
import {
  ChatTurn,
  CompactionChatTransport,
  CompactionController,
  MemoryStore,
  SESSION_SCHEMA_STATEMENTS,
  SESSION_SCHEMA_VERSION,
  SessionIndex,
  SessionStoreBase,
  SqliteStore,
  WINDOW_GLOBALS,
  ZoteroDBStore,
  applyCacheBreakpoints,
  cacheBreakpoints,
  cacheProfile,
  cacheStepMarks,
  canFork,
  capacity,
  checkCommit,
  checkpointNode,
  compact,
  createAbortSignalLike,
  createAiSdkSummarizer,
  createChat,
  createRecall,
  editTarget,
  estimate,
  estimateMessage,
  extractiveSummary,
  extractiveSummaryInSlices,
  history,
  init,
  isCheckpoint,
  initSync,
  installWindowGlobals,
  loadCompaction,
  lookupLedger,
  plan,
  project,
  promptCacheCallOptions,
  readBranch,
  recallAnswer,
  recallTool,
  retryTarget,
  serialize,
  sessionCacheKey,
  sessionFromMessages,
  sessionSchemaStatements,
  summaryRequest,
  unloadCompaction,
  usageMetadata,
  validateSummary,
  version,
  withUsageMetadata,
} from 'bibgenie-compaction';
import type {
  AbortSignalLike,
  BranchReadResult,
  CacheProfile,
  Capacity,
  CheckpointNode,
  CommitCheck,
  CompactOptions,
  CompactOutcome,
  CompactionError,
  CompactionMode,
  CompactionState,
  DisplayOnly,
  Draft,
  EditTarget,
  ErrorCode,
  Estimate,
  EstimateOptions,
  ForkCheck,
  LedgerEntry,
  LedgerQuery,
  MessageNode,
  ModelProfile,
  Plan,
  PlanOptions,
  Projection,
  RecordedUsage,
  ResolveItem,
  ResolvedItem,
  ResourceLedger,
  RetryTarget,
  SerializeOptions,
  AppendExpectation,
  Session,
  SessionHead,
  SessionInfo,
  SessionInfoInput,
  SessionNode,
  SessionStore,
  SqliteDatabaseLike,
  SqliteStoreOptions,
  StoreError,
  StoreErrorCode,
  StoreInTransaction,
  StoreTx,
  SubmitResult,
  Summarize,
  SummaryRepair,
  SummaryRequest,
  SummaryRequestOptions,
  ZoteroDBConnectionLike,
  ZoteroDBStoreOptions,
} from 'bibgenie-compaction';
import * as main from 'bibgenie-compaction';
import * as slim from 'bibgenie-compaction/slim';
import { convertToModelMessages, generateText, jsonSchema, streamText, tool } from 'ai';
import type { ChatTransport, LanguageModel, UIMessage } from 'ai';

// Every runtime export of each entry, by name. `satisfies` fails on a missing or an extra name, so
// a new export cannot go untyped or unlisted here; types-exports.mjs compares these names with what
// the installed entries really export. Keep each block one `name,` per line.
// exports of 'bibgenie-compaction':
export const MAIN_EXPORTS = {
  ChatTurn,
  CompactionChatTransport,
  CompactionController,
  MemoryStore,
  SESSION_SCHEMA_STATEMENTS,
  SESSION_SCHEMA_VERSION,
  SessionIndex,
  SessionStoreBase,
  SqliteStore,
  WINDOW_GLOBALS,
  ZoteroDBStore,
  applyCacheBreakpoints,
  cacheBreakpoints,
  cacheProfile,
  cacheStepMarks,
  canFork,
  capacity,
  checkCommit,
  checkpointNode,
  compact,
  createAbortSignalLike,
  createAiSdkSummarizer,
  createChat,
  createRecall,
  editTarget,
  estimate,
  estimateMessage,
  extractiveSummary,
  extractiveSummaryInSlices,
  history,
  init,
  initSync,
  isCheckpoint,
  installWindowGlobals,
  loadCompaction,
  lookupLedger,
  plan,
  project,
  promptCacheCallOptions,
  readBranch,
  recallAnswer,
  recallTool,
  retryTarget,
  serialize,
  sessionCacheKey,
  sessionFromMessages,
  sessionSchemaStatements,
  summaryRequest,
  unloadCompaction,
  usageMetadata,
  validateSummary,
  version,
  withUsageMetadata,
} satisfies Record<keyof typeof main, unknown>;
// end of exports of 'bibgenie-compaction'
// exports of 'bibgenie-compaction/slim':
export const SLIM_EXPORTS = {
  ChatTurn: slim.ChatTurn,
  CompactionChatTransport: slim.CompactionChatTransport,
  CompactionController: slim.CompactionController,
  MemoryStore: slim.MemoryStore,
  SESSION_SCHEMA_STATEMENTS: slim.SESSION_SCHEMA_STATEMENTS,
  SESSION_SCHEMA_VERSION: slim.SESSION_SCHEMA_VERSION,
  SessionIndex: slim.SessionIndex,
  SessionStoreBase: slim.SessionStoreBase,
  SqliteStore: slim.SqliteStore,
  WINDOW_GLOBALS: slim.WINDOW_GLOBALS,
  ZoteroDBStore: slim.ZoteroDBStore,
  applyCacheBreakpoints: slim.applyCacheBreakpoints,
  cacheBreakpoints: slim.cacheBreakpoints,
  cacheProfile: slim.cacheProfile,
  cacheStepMarks: slim.cacheStepMarks,
  canFork: slim.canFork,
  capacity: slim.capacity,
  checkCommit: slim.checkCommit,
  checkpointNode: slim.checkpointNode,
  compact: slim.compact,
  createAbortSignalLike: slim.createAbortSignalLike,
  createAiSdkSummarizer: slim.createAiSdkSummarizer,
  createChat: slim.createChat,
  createRecall: slim.createRecall,
  editTarget: slim.editTarget,
  estimate: slim.estimate,
  estimateMessage: slim.estimateMessage,
  extractiveSummary: slim.extractiveSummary,
  extractiveSummaryInSlices: slim.extractiveSummaryInSlices,
  history: slim.history,
  init: slim.init,
  initSync: slim.initSync,
  isCheckpoint: slim.isCheckpoint,
  installWindowGlobals: slim.installWindowGlobals,
  loadCompaction: slim.loadCompaction,
  lookupLedger: slim.lookupLedger,
  plan: slim.plan,
  project: slim.project,
  promptCacheCallOptions: slim.promptCacheCallOptions,
  readBranch: slim.readBranch,
  recallAnswer: slim.recallAnswer,
  recallTool: slim.recallTool,
  retryTarget: slim.retryTarget,
  serialize: slim.serialize,
  sessionCacheKey: slim.sessionCacheKey,
  sessionFromMessages: slim.sessionFromMessages,
  sessionSchemaStatements: slim.sessionSchemaStatements,
  summaryRequest: slim.summaryRequest,
  unloadCompaction: slim.unloadCompaction,
  usageMetadata: slim.usageMetadata,
  validateSummary: slim.validateSummary,
  version: slim.version,
  withUsageMetadata: slim.withUsageMetadata,
} satisfies Record<keyof typeof slim, unknown>;
// end of exports of 'bibgenie-compaction/slim'

/** Fails to compile unless A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
function assertType<T extends true>(): T | void {}

declare const wasmBytes: Uint8Array;
declare const aiModel: LanguageModel;

// ---- The AI SDK's UIMessage is a session node once it has parentId ---------------------------------

const sdkMessages: UIMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Find the RAG papers in my library' }] },
  {
    id: 'a1',
    role: 'assistant',
    metadata: { usage: { inputTokens: 1200, outputTokens: 80, totalTokens: 1280 } },
    parts: [
      { type: 'step-start' },
      { type: 'reasoning', text: 'Search the library first.' },
      {
        type: 'tool-searchLibrary',
        toolCallId: 'call-1',
        state: 'output-available',
        input: { query: 'retrieval augmented generation' },
        output: { items: [{ key: 'ABCD1234', itemType: 'journalArticle', title: 'Grounded Answers' }] },
      },
      { type: 'data-zoteroItem', data: { key: 'ABCD1234' } },
      { type: 'file', mediaType: 'image/png', url: 'data:image/png;base64,AAAA', filename: 'screenshot.png' },
      { type: 'text', text: 'One item matches.' },
    ],
  },
];
const nodes: Session['nodes'] = sdkMessages.map((message, i) => ({ ...message, parentId: i === 0 ? null : sdkMessages[i - 1]!.id }));
const session: Session = { nodes, leafId: 'a1', branchRevision: 1 };
const emptySession: Session = { nodes: [], leafId: null, branchRevision: 0 };

// An app's own typed UIMessage fits too.
type ResearchMessage = UIMessage<
  { usage?: RecordedUsage; createdAt?: number },
  { zoteroItem: { key: string; title?: string } },
  { searchLibrary: { input: { query: string }; output: { keys: string[] } } }
>;
declare const researchMessages: ResearchMessage[];
const typedNodes: MessageNode[] = researchMessages.map((message) => ({ ...message, parentId: null, createdAt: Date.now() }));
const typedSession: Session = { nodes: typedNodes, leafId: null, branchRevision: 0 };

const checkpointNodeLiteral: CheckpointNode = {
  id: 'ckpt_1',
  parentId: 'a1',
  createdAt: 1_700_000_000_000,
  checkpoint: {
    summary: '## Research Goal\n...',
    firstKeptMessageId: 'u1',
    previousCheckpointId: null,
    mode: 'manual',
    tokensBefore: 1000,
    tokensAfter: 400,
    ledger: { entries: [{ kind: 'item', key: 'ABCD1234', label: 'Grounded Answers', detail: 'journalArticle' }] },
    basis: { leafId: 'a1', branchRevision: 1 },
  },
};
const withCheckpoint: Session = { nodes: [...nodes, checkpointNodeLiteral], leafId: 'ckpt_1', branchRevision: 2 };

function describeNode(node: SessionNode): string {
  if (node.checkpoint) return `checkpoint ${node.id}: ${node.checkpoint.summary.length} chars, kept from ${node.checkpoint.firstKeptMessageId}`;
  return `${node.role} ${node.id} under ${node.parentId ?? 'root'}: ${node.parts.length} parts`;
}
withCheckpoint.nodes.map(describeNode);

// @ts-expect-error a message node needs parentId
const orphan: MessageNode = { id: 'x', role: 'user', parts: [] };
// @ts-expect-error a checkpoint always has a parent
const rootCheckpoint: CheckpointNode = { ...checkpointNodeLiteral, parentId: null };
// @ts-expect-error a node cannot be a message and a checkpoint at once
const both: SessionNode = { ...sdkMessages[0]!, parentId: null, checkpoint: checkpointNodeLiteral.checkpoint };
// @ts-expect-error role is the SDK's union
const badRole: MessageNode = { id: 'x', role: 'tool', parts: [], parentId: null };
// A display-only marker (issue 41): shown by the history, never sent; its kind is the app's.
const marker: MessageNode = {
  id: 'm1', parentId: 'a1', role: 'system', displayOnly: { kind: 'model-switch' },
  parts: [{ type: 'text', text: 'Switched to gpt-4.1-mini' }],
};
const markerKind: string | undefined = marker.displayOnly?.kind;
const markerShape: DisplayOnly = { kind: 'context-compacted' };
// @ts-expect-error displayOnly needs its kind
const kindless: MessageNode = { ...marker, displayOnly: {} };

// ---- Stateless exports ----------------------------------------------------------------------------

const model: ModelProfile = { id: 'gpt-4.1-mini', contextWindow: 128_000, maxOutputTokens: 16_384, replaysReasoning: false };
const small: ModelProfile = { contextWindow: 8_000 };
const userThreshold: ModelProfile = { contextWindow: 200_000, autoCompactRatio: 0.6, tailShare: 0.1 };
// @ts-expect-error a share is a number
const shareAsText: ModelProfile = { contextWindow: 200_000, tailShare: '0.1' };

const ver: string = version();
const cap: Capacity = capacity(model);
const limit: number = cap.safeInputLimit + cap.autoCompactAt + cap.tailBudget + cap.summaryMaxOutputTokens + cap.reservedTokens;

const branch: BranchReadResult = readBranch(session);
if (branch.readOnly) {
  for (const problem of branch.problems) {
    const code: 'missing-leaf' | 'missing-parent' | 'cycle' | 'duplicate-id' | 'invalid-node' | 'dangling-boundary' = problem.code;
    const where: string | null = problem.nodeId;
    console.log(code, where, problem.message);
  }
}
const projection: Projection = project(withCheckpoint);
const forModel: UIMessage[] = projection.messages;
const keptFrom: string | null = projection.keptFromId ?? projection.checkpointId;
const durable: SessionNode[] = history(session);
// isCheckpoint narrows: what a chat UI shows is the AI SDK's UIMessage[], no cast.
const shown: UIMessage[] = durable.filter((node) => !isCheckpoint(node));
const checkpoints: CheckpointNode[] = durable.filter(isCheckpoint);
// @ts-expect-error a plain negated filter does not narrow to messages
const unnarrowed: UIMessage[] = durable.filter((node) => !('checkpoint' in node));

const retry: RetryTarget | null = retryTarget(session);
if (retry) console.log(retry.assistantId, retry.parentId);
const edit: EditTarget | null = editTarget(session);
if (edit) console.log(edit.userId, edit.parentId);
const fork: ForkCheck = canFork(session, 'a1');
if (!fork.ok) {
  const why: 'not-found' | 'checkpoint' | 'invalid-node' | 'not-assistant' | 'workflow-pending' | 'read-only' = fork.reason;
  console.log(why);
}

const estimateOptions: EstimateOptions = { draft: 'What does Wang 2023 say about chunking?', overhead: { system: 'You are a research assistant.', tools: { searchLibrary: {} } } };
const est: Estimate = estimate(session, model, estimateOptions);
const noOptions: Estimate = estimate(session, model);
const source: 'usage' | 'estimate' = est.source;
const fits: boolean = est.fits && noOptions.tokens <= est.safeInputLimit && est.baselineTokens + est.estimatedTokens >= 0;
const baseline: string | null = est.baselineMessageId;
const oneMessage: number = estimateMessage(sdkMessages[1]!) + estimateMessage(sdkMessages[0]!, small);

const draftMessage: Draft = { parts: [{ type: 'text', text: 'Summarize the PDF on page 4' }] };
const planOptions: PlanOptions = { mode: 'preflight', draft: draftMessage, overhead: { tokens: 2_000 } };
const preflight: Plan = plan(session, small, planOptions);
const manual: Plan = plan(session, model, { mode: 'manual' });
if (preflight.send === 'too-large') console.log('shorten the draft');
const planned: 'compact' | 'none' = manual.action;
const folded: string[] = manual.summarizeIds;
const basis: { leafId: string; branchRevision: number } = manual.basis;
switch (manual.reason) {
  case 'requested':
  case 'refresh':
  case 'nothing-to-compact':
  case 'leaf-is-checkpoint':
    break;
}

const serializeOptions: SerializeOptions = { maxToolResultChars: 4_000, maxToolInputChars: 1_000 };
const text: string = serialize(sdkMessages, serializeOptions) + serialize(projection.messages);
const request: SummaryRequest = summaryRequest(session, manual, model);
const material: string = request.history + (request.previousSummary ?? '') + request.system + request.prompt;
const ledger: ResourceLedger = request.ledger;
const entries: LedgerEntry[] = ledger.entries.filter((entry) => entry.kind === 'annotation' || entry.parentKey !== undefined);
const ledgerQuery: LedgerQuery = { kind: 'item', text: 'longevity', limit: 20 };
const found: LedgerEntry[] = lookupLedger(request.ledger, ledgerQuery).concat(lookupLedger(ledger, { key: 'ABCD2345' }));
// @ts-expect-error kind is a LedgerKind
lookupLedger(ledger, { kind: 'book' });
// The app's numeric item ids (issue 41): resolved items, and the ids a request still lists.
const resolvedItem: ResolvedItem = { libraryID: 1, key: 'WXYZ2345' };
const requestOptions: SummaryRequestOptions = { items: { 123: resolvedItem } };
const resolvedRequest: SummaryRequest = summaryRequest(session, manual, model, requestOptions);
const stillUnresolved: number[] = resolvedRequest.itemIds;
const groupOf: number | undefined = resolvedRequest.ledger.entries[0]?.groupID ?? resolvedRequest.ledger.entries[0]?.libraryID;
// @ts-expect-error a resolved item's libraryID is a number
const badItem: ResolvedItem = { libraryID: '1', key: 'WXYZ2345' };
const summary: string = extractiveSummary(request);
const valid: void = validateSummary(summary);
const node: CheckpointNode = checkpointNode(manual, summary, request.ledger);
const nodeWithoutLedger: CheckpointNode = checkpointNode(manual, summary);
const check: CommitCheck = checkCommit({ ...session, nodes: [...session.nodes, node] }, manual);
if (!check.ok) {
  const why: 'leaf-moved' | 'revision-changed' | 'workflow-pending' | 'boundary-off-branch' | 'read-only' = check.reason;
  console.log(why);
}

try {
  project(session);
} catch (error) {
  const code: ErrorCode = (error as CompactionError).code;
  if (code === 'invalid-session' || code === 'dangling-boundary') console.log((error as CompactionError).message);
}

// @ts-expect-error a number is not a Session
project(42);
// @ts-expect-error nodes must be session nodes
readBranch({ nodes: [{ id: 'x' }], leafId: 'x', branchRevision: 0 });
// @ts-expect-error the mode is 'manual' | 'auto' | 'preflight'
plan(session, model, { mode: 'sometimes' });
// @ts-expect-error plan needs its options (the mode)
plan(session, model);
// @ts-expect-error contextWindow is a number of tokens
capacity({ contextWindow: '128k' });
// @ts-expect-error overhead is { system?, tools? } or { tokens }
estimate(session, model, { overhead: { tokens: '2000' } });
// @ts-expect-error a plan is a whole Plan, not a fragment
checkCommit(session, { action: 'compact' });
// @ts-expect-error the summary is text
checkpointNode(manual, 42);
// @ts-expect-error canFork takes a node id
canFork(session, 3);
// @ts-expect-error serialize takes UIMessages
serialize('text');
// @ts-expect-error retryTarget may be null
retryTarget(session).assistantId;
// @ts-expect-error the plan reason is one of the stable codes
const reasonTypo: Plan['reason'] = 'under-treshold';

// ---- SessionIndex --------------------------------------------------------------------------------

const index: SessionIndex = SessionIndex.from(session);
index.append({ id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And the Chinese paper?' }], parentId: 'a1' });
index.setLeaf('u2', 2);
const indexBranch: BranchReadResult = index.readBranch();
const indexProjection: Projection = index.project();
const indexHistory: SessionNode[] = index.history();
const indexRetry: RetryTarget | null = index.retryTarget();
const indexEdit: EditTarget | null = index.editTarget();
const indexFork: ForkCheck = index.canFork('a1');
const indexEstimate: Estimate = index.estimate(model, { draft: 'next question' });
const indexEstimateDefault: Estimate = index.estimate(model);
const indexPlan: Plan = index.plan(model, { mode: 'auto' });
const roundTrip: Session = index.toSession();
index.free();
{
  using scoped = SessionIndex.from(typedSession);
  scoped.project();
}
// @ts-expect-error append takes a session node (parentId missing)
index.append({ id: 'u3', role: 'user', parts: [] });
// @ts-expect-error the revision is a number
index.setLeaf('u2', '3');
// @ts-expect-error the constructor is private: use SessionIndex.from
new SessionIndex();

// ---- Stores ---------------------------------------------------------------------------------------

declare const Database: new (filename: string) => SqliteDatabaseLike;
declare const Zotero: { DBConnection: new (name: string) => ZoteroDBConnectionLike };

const memory = new MemoryStore();
const sqlite = new SqliteStore(Database, 'sessions.sqlite');
const sqliteOnDb = new SqliteStore(new Database(':memory:'));
const zoteroStore = new ZoteroDBStore(new Zotero.DBConnection('bibgenie-compaction'));
const stores: SessionStoreBase[] = [memory, sqlite, sqliteOnDb, zoteroStore];
const contractStores: SessionStore[] = stores;
const schema: string = `${SESSION_SCHEMA_VERSION}: ${SESSION_SCHEMA_STATEMENTS.join(';\n')}`;
sqlite.close();
const database: SqliteDatabaseLike = sqlite.database;
const connection: ZoteroDBConnectionLike = zoteroStore.connection;

async function storeOperations(store: SessionStoreBase): Promise<Session> {
  const created: Session & { sessionId: string } = await store.createSession();
  const sameId: string = created.sessionId;
  const imported: SessionHead = await store.importSession(session, { sessionId: 'demo' });
  const ids: string[] = await store.listSessions();
  const appended: SessionHead = await store.appendMessage(created.sessionId, { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'hi' }] });
  const updated: SessionHead = await store.updateMessageParts(created.sessionId, 'a1', sdkMessages[1]!.parts, { metadata: { usage: null } });
  const moved: SessionHead = await store.moveLeaf(created.sessionId, 'u1');
  const retried: SessionHead = await store.retry(created.sessionId, 'u1');
  const edited: SessionHead = await store.edit(created.sessionId, null, { id: 'u1b', role: 'user', parts: [{ type: 'text', text: 'hello' }] });
  const forked: SessionHead = await store.fork(created.sessionId, 'a1', { sessionId: 'fork' });
  console.log(imported.leafId, ids, appended.node, updated.branchRevision, moved, retried, edited, forked.sessionId);
  const viaTx: number = await store.transaction('demo', async (tx: StoreTx) => {
    const fresh: Session = await tx.load();
    await tx.appendNode(node);
    await tx.setLeaf(node.id, fresh.branchRevision + 1);
    return fresh.nodes.length;
  });
  console.log(viaTx);
  return store.load('demo');
}
storeOperations(memory);

async function chatPaneStores(store: SessionStoreBase): Promise<void> {
  const ids: string[] = await store.listSessions();
  const infos: SessionInfo[] = await store.listSessions({ details: true });
  const titles: Array<string | null> = infos.map((info) => info.title);
  const pane: SessionInfo & { created: boolean } = await store.getOrCreateSession({ appKey: 'ABCD2345', title: 'Dense retrieval' });
  const renamed: SessionInfo = await store.setSessionInfo(pane.sessionId, { title: null } satisfies SessionInfoInput);
  const info: SessionInfo = await store.getSessionInfo(pane.sessionId);
  const expectation: AppendExpectation = { expectedLeafId: info.leafId, expectedRevision: info.branchRevision };
  try {
    await store.appendMessage(pane.sessionId, { id: 'u9', role: 'user', parts: [{ type: 'text', text: 'hi' }] }, expectation);
  } catch (error) {
    const refusal = error as StoreError;
    const code: StoreErrorCode = refusal.code;
    if (code === 'session-moved') console.log(refusal.leafId, refusal.branchRevision);
    if (refusal.retryable) console.log('try again later');
  }
  await store.retry(pane.sessionId, 'u9', sdkMessages[1]!, { expectedRevision: 3 });
  await store.edit(pane.sessionId, null, sdkMessages[0]!, { expectedLeafId: null });
  const imported: SessionHead = await store.importMessages(sdkMessages, { sessionId: 'legacy', title: 'Older plugin', appKey: 'OLDKEY' });
  const linear: Session = sessionFromMessages(sdkMessages);
  const checkpoints: SessionNode[] = await store.listCheckpoints(imported.sessionId, { leafId: linear.leafId ?? undefined });
  const text: { nodesJson: string; leafId: string | null; branchRevision: number } = await store.loadJson('legacy');
  const removed: { deleted: string[] } = await store.deleteSession('legacy', { withForks: true });
  const closed: boolean = store.closed;
  await store.close();
  console.log(ids, titles, renamed, checkpoints.length, text.nodesJson, removed.deleted, closed);
}
chatPaneStores(memory);
const busyAware = new SqliteStore(Database, 'sessions.sqlite', { busyTimeoutMs: 1000 } satisfies SqliteStoreOptions);
const busyAwareOnDb = new SqliteStore(new Database(':memory:'), { busyTimeoutMs: 0 });
const zoteroOwned = new ZoteroDBStore(new Zotero.DBConnection('my-plugin-sessions'), { closeConnection: true });
console.log(busyAware, busyAwareOnDb, zoteroOwned);
// The store beside the app's own tables, and a write of the app's and the store's in one transaction.
const zoteroPrefixed = new ZoteroDBStore(new Zotero.DBConnection('my-plugin'), { tablePrefix: 'myplugin_' } satisfies ZoteroDBStoreOptions);
const sqlitePrefixed = new SqliteStore(Database, 'app.sqlite', { tablePrefix: 'myplugin_', busyTimeoutMs: 1000 });
const prefixedSchema: string[] = sessionSchemaStatements('myplugin_');
async function appAndStoreTogether(store: SessionStoreBase): Promise<number> {
  const branchRevision: number = await store.withinTransaction(async (tx: StoreInTransaction) => {
    await zoteroPrefixed.connection.queryAsync('INSERT INTO chats (id, title) VALUES (?, ?)', ['c1', 'A chat']);
    const head: SessionHead = await tx.appendMessage('s1', { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'hi' }] });
    // @ts-expect-error tx opens no transaction of its own
    await tx.transaction('s1', async () => undefined);
    return head.branchRevision;
  });
  return branchRevision;
}
console.log(zoteroPrefixed, sqlitePrefixed, prefixedSchema, appAndStoreTogether);
// @ts-expect-error listSessions({ details: true }) lists SessionInfo, not ids
const wrongIds: Promise<string[]> = memory.listSessions({ details: true });
// @ts-expect-error getOrCreateSession needs an appKey
memory.getOrCreateSession({ title: 'no key' });
// @ts-expect-error a store needs a database
new SqliteStore();
// @ts-expect-error appendNode takes a node, not a string
memory.transaction('demo', async (tx) => tx.appendNode('u1'));

// ---- compact, summarizers, signals -----------------------------------------------------------------

const extractive: Summarize = (summaryInput) => extractiveSummary(summaryInput);
const extractiveInSlices: Summarize = extractiveSummaryInSlices;
const slicedSummary: Promise<string> = extractiveSummaryInSlices(request, createAbortSignalLike().signal);
const viaModel = createAiSdkSummarizer({ model: aiModel, generateText, callOptions: { temperature: 0 } });
const asContractSummarize: Summarize = viaModel;
const abort = createAbortSignalLike();
const signalLike: AbortSignalLike = abort.signal;
const domSignal: AbortSignalLike = new AbortController().signal;

async function runCompaction(): Promise<Session | undefined> {
  const resolveItem: ResolveItem = async (itemID) => (itemID === 123 ? { libraryID: 1, key: 'WXYZ2345' } : null);
  const options: CompactOptions = { store: memory, sessionId: 'demo', model, mode: 'auto', summarize: extractive, signal: signalLike, resolveItem };
  // @ts-expect-error resolveItem takes a numeric item id
  await compact({ store: memory, sessionId: 'demo', model, summarize: extractiveInSlices, resolveItem: (key: string) => ({ libraryID: 1, key }) });
  const outcome: CompactOutcome = await compact(options);
  await compact({ store: sqlite, sessionId: 'demo', model, summarize: viaModel, signal: domSignal, draft: 'draft text', overhead: { tokens: 10 } });
  abort.abort('user closed the pane');
  switch (outcome.status) {
    case 'committed': {
      const repair: SummaryRepair | undefined = outcome.summaryRepair;
      if (repair) console.log(repair.kind === 'kept' || repair.kind === 'embedded', repair.problem);
      return { ...outcome.session, leafId: outcome.checkpoint.id };
    }
    case 'stale':
      console.log(outcome.reason === 'leaf-moved', outcome.plan.basis);
      return outcome.session;
    case 'noop':
    case 'too-large':
      return outcome.session;
    case 'cancelled':
      return undefined;
    case 'failed':
      console.log(outcome.reason, outcome.message, outcome.error);
      return undefined;
  }
}
runCompaction();

// @ts-expect-error summarize resolves with text
compact({ store: memory, sessionId: 'demo', model, summarize: async () => 42 });
// @ts-expect-error the outcome must be narrowed before reading the checkpoint
compact({ store: memory, sessionId: 'demo', model, summarize: extractive }).then((outcome) => outcome.checkpoint.id);
// @ts-expect-error a signal needs addEventListener
compact({ store: memory, sessionId: 'demo', model, summarize: extractive, signal: { aborted: false } });
// @ts-expect-error createAiSdkSummarizer needs generateText
createAiSdkSummarizer({ model: aiModel });

// ---- The controller ----------------------------------------------------------------------------------

const controller = new CompactionController({
  store: memory,
  sessionId: 'demo',
  model,
  summarize: viaModel,
  overhead: { system: 'You are a research assistant.' },
  onStatus: (state: CompactionState) => {
    if (state.status === 'compacting') {
      const line = `Compacting ${state.foldedMessages ?? '?'} earlier messages (${state.tokensBefore ?? '?'} -> ${state.tokensAfterEstimate ?? '?'} tokens)`;
      console.log(line);
      state.cancel();
    }
    if (state.status === 'failed') console.log(state.reason, state.message, state.outcome.status);
  },
});
controller.onStatus = null;
const state: CompactionState = controller.state;
const busy: boolean = controller.busy;
const controllerModel: ModelProfile = controller.model;
controller.setModel(small);
const allowed: boolean = controller.can('fork') && controller.can('switch-model') && controller.can('submit');
const cancelled: boolean = controller.cancel('switching sessions');

async function useController(): Promise<UIMessage[] | string> {
  const manualOutcome: CompactOutcome = await controller.compact();
  const autoOutcome: CompactOutcome = await controller.compact('auto');
  const background: CompactOutcome | null = await controller.afterTurn();
  console.log(manualOutcome.status, autoOutcome.status, background?.status);
  const result: SubmitResult = await controller.submit('Compare the two papers');
  if (result.status === 'send') return result.stored ? result.messages.slice(0, -1) : result.messages;
  const kept: Draft = result.draft;
  return typeof kept === 'string' ? kept : result.reason;
}
useController();

// ---- The chat turn as a ChatTransport ----------------------------------------------------------------

const transport = new CompactionChatTransport({
  controller,
  generateMessageId: () => 'resp-1',
  messageMetadata: ({ part }) => (part.type === 'start' ? { createdAt: Date.now() } : undefined),
  onFinish: ({ responseMessage, isAborted }) => console.log(responseMessage.id, isAborted),
  sendReasoning: true,
  streamResponse: async ({ messages, abortSignal }) =>
    streamText({ model: aiModel, messages: await convertToModelMessages(messages), abortSignal }),
});
const asChatTransport: ChatTransport<UIMessage> = transport;
// @ts-expect-error the transport needs streamResponse
new CompactionChatTransport({ controller});
const zoteroSummarizer = createAiSdkSummarizer({ model: aiModel, generateText, createAbortController: () => new AbortController() });

// @ts-expect-error a send uses submit, not compact('preflight')
controller.compact('preflight');
// @ts-expect-error unknown action
controller.can('delete');
// @ts-expect-error the controller needs summarize
new CompactionController({ store: memory, sessionId: 'demo', model });
// @ts-expect-error a draft is text or a UIMessage
controller.submit(42);

// ---- Loading, usage metadata ----------------------------------------------------------------------------

async function load(): Promise<void> {
  await init();
  await init({ module_or_path: wasmBytes });
  initSync({ module: wasmBytes });
  await slim.init({ module_or_path: wasmBytes });
  slim.initSync({ module: wasmBytes });
  const loaded: void = await loadCompaction({ wasmURL: 'chrome://bibgenie/content/bibgenie_compaction_bg.wasm' });
  console.log(loaded, version());
  await loadCompaction({ wasmBytes });
  unloadCompaction();
}
load();
// @ts-expect-error the slim entry has no default location for the wasm
slim.init();
// @ts-expect-error a string is not wasm bytes
initSync({ module: 'bibgenie_compaction_bg.wasm' });
// A compiled module is (the DOM lib's WebAssembly.Module).
declare const compiledModule: WebAssembly.Module;
initSync({ module: compiledModule });
loadCompaction({ wasmBytes: compiledModule });
// @ts-expect-error a string is not wasm bytes for the loader either
loadCompaction({ wasmBytes: 'bibgenie_compaction_bg.wasm' });
// @ts-expect-error the loader starts the package's own module: no bindings to pass
loadCompaction({ bindings: slim, wasmBytes: compiledModule });

declare const streamed: ReturnType<typeof streamText>;
streamed.toUIMessageStream({ messageMetadata: usageMetadata });
streamed.toUIMessageStream({ messageMetadata: withUsageMetadata(({ part }) => (part.type === 'start' ? { createdAt: Date.now() } : undefined)) });
const recorded: RecordedUsage | undefined = usageMetadata({ part: { type: 'finish-step', usage: { inputTokens: 10 } } })?.usage;

assertType<Equal<ReturnType<typeof project>, Projection>>();
assertType<Equal<ReturnType<typeof plan>, Plan>>();
assertType<Equal<Parameters<typeof estimate>[2], EstimateOptions | undefined>>();
assertType<Equal<Parameters<typeof plan>[2], PlanOptions>>();
assertType<Equal<CompactionMode, 'manual' | 'auto' | 'preflight'>>();
assertType<Equal<Awaited<ReturnType<typeof compact>>, CompactOutcome>>();
assertType<Equal<typeof slim.project, typeof project>>();

// ---- prompt cache ------------------------------------------------------------------------------
declare const cacheSession: Session;
const anthropicProfile: CacheProfile = cacheProfile('anthropic-5m');
const marks = cacheBreakpoints(cacheSession, { contextWindow: 200_000 }, { draft: 'next?', cache: anthropicProfile });
const markReason: 'summary' | 'previous-request' | 'newest' | undefined = marks.breakpoints[0]?.reason;
const cachedPlan = plan(cacheSession, { contextWindow: 200_000 }, { mode: 'auto', cache: anthropicProfile, now: Date.now() });
const cacheState: 'warm' | 'cold' | 'unknown' | undefined = cachedPlan.cache?.state;
const nextCost: number | undefined = cachedPlan.cost?.nextRequestWith;
const markedMessages = applyCacheBreakpoints(convertToModelMessages([]) as unknown as Array<{ role: string }>, { provider: 'anthropic', breakpoints: marks, messages: [] });
const cacheKey: string = sessionCacheKey('s1');
const callOptions = promptCacheCallOptions('openai', 's1');
const stepMarks = cacheStepMarks('anthropic', { ttl: '1h' });
const steppedMessages = stepMarks?.({ stepNumber: 1, messages: convertToModelMessages([]) as unknown as Array<{ role: string }> })?.messages;
// @ts-expect-error an unknown provider
cacheStepMarks('acme');
// @ts-expect-error an unknown provider
promptCacheCallOptions('acme', 's1');
new CompactionController({ store: new MemoryStore(), sessionId: 's', model: { contextWindow: 8192 }, summarize: () => '', cache: anthropicProfile, backgroundCompaction: true });
new CompactionController({ store: new MemoryStore(), sessionId: 's', model: { contextWindow: 8192 }, summarize: () => '', resolveItem: (itemID) => (itemID > 0 ? { libraryID: 1, key: 'WXYZ2345' } : null) });
new CompactionChatTransport({
  controller: {} as CompactionController, promptCache: { provider: 'bedrock' },
  streamResponse: async ({ messages, applyCacheBreakpoints: mark, cacheCallOptions }) =>
    streamText({ model: aiModel, ...cacheCallOptions, messages: mark(await convertToModelMessages(messages)) }),
});
// Issue 38: recall over the session's branch, and as an AI SDK tool.
declare const recallController: CompactionController;
const recall = createRecall(recallController);
const recallPage: Promise<{ text: string, nextOffset: number | null }> = recall.read({ handle: 'call-1', maxTokens: 500 });
const recallFound: Promise<{ results: Array<{ handle: string }>, more: boolean }> = recall.search({ query: 'K-17' });
const recallAsTool = recallTool({ tool, jsonSchema }, recall);
void [recallPage, recallFound, recallAsTool];
// Issue 38: the step guard, given as prepareStep (and in cacheCallOptions); an app's own prepareStep goes to the transport.
new CompactionChatTransport({
  controller: {} as CompactionController,
  prepareStep: async ({ stepNumber }: { stepNumber: number }) => (stepNumber > 3 ? { activeTools: [] } : undefined),
  streamResponse: async ({ messages, prepareStep }) =>
    streamText({ model: aiModel, prepareStep, messages: await convertToModelMessages(messages) }),
});

export {
  ver, limit, forModel, keptFrom, durable, source, fits, baseline, oneMessage, preflight, planned, folded, basis, text, material,
  entries, valid, nodeWithoutLedger, indexBranch, indexProjection, indexHistory, indexRetry, indexEdit, indexFork, indexEstimate,
  indexEstimateDefault, indexPlan, roundTrip, contractStores, schema, database, connection, asContractSummarize, state, busy,
  controllerModel, allowed, cancelled, recorded, markReason, cacheState, nextCost, markedMessages, cacheKey, callOptions, steppedMessages, asChatTransport, zoteroSummarizer, emptySession, orphan, rootCheckpoint, both, badRole, reasonTypo,
};

// Issue 24: the AI SDK's web globals from the current main window, and a transport that knows what
// each request carries besides the session.
declare const pluginWindow: { closed: boolean } | null;
const windowGlobals = installWindowGlobals(globalThis, () => pluginWindow, WINDOW_GLOBALS);
const installedNames: string[] = windowGlobals.installed;
windowGlobals.uninstall();
// @ts-expect-error getWindow is a function, not a window
installWindowGlobals(globalThis, pluginWindow);
declare const turnController: CompactionController;
declare const turnStore: MemoryStore;
const systemTransport = new CompactionChatTransport({
  controller: turnController,
  system: 'You are a research assistant.',
  tools: {},
  globals: () => pluginWindow,
  streamResponse: async ({ messages, system, tools }) => {
    const prompt: string | undefined = system;
    void [messages, prompt, tools];
    return { toUIMessageStream: (): any => null };
  },
});
void [installedNames, systemTransport];
// A system prompt asked at each turn (the selected item), and close() of what the transport started.
const itemTransport = new CompactionChatTransport({
  controller: turnController,
  system: async () => 'You are a research assistant. The selected item: ...',
  streamResponse: async () => ({ toUIMessageStream: (): any => null }),
});
const closing: Promise<void> = itemTransport.close('the window closed');
void closing;
// @ts-expect-error system returns a string
new CompactionChatTransport({ controller: turnController, system: () => 42, streamResponse: async () => ({ toUIMessageStream: (): any => null }) });
void turnController.submit('draft', { overhead: { tokens: 1500 } });
void turnController.afterTurn({ overhead: { system: 'You are a research assistant.' } });
// ChatTurn: an app's own model call; its messages are the AI SDK's UIMessages when `ai` is installed.
async function ownTurn(): Promise<void> {
  const turn: ChatTurn = await ChatTurn.begin(turnController, 'What does the survey report?', { system: 'You are a research assistant.', tools: {} });
  const sent: UIMessage[] = turn.messages;
  const stored = await turn.finish({ text: 'It reports attendance.', usage: { inputTokens: 120, outputTokens: 8 }, finishReason: 'stop' });
  const stopped: unknown = await turn.stop({ parts: [{ type: 'text', text: 'It rep' }] });
  await turn.fail(new Error('HTTP 429'));
  // @ts-expect-error usage is an object of counts
  await turn.finish({ text: 'x', usage: 5 });
  void [sent, stored, stopped];
}
void ownTurn;
