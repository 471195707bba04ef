// The child process of crash-safety.test.mjs: it works on one session of a SQLite file until the
// parent kills it with SIGKILL. After every awaited store call it writes one line to stdout saying
// what is now durable, so the parent knows what must survive the kill.
//
//   node crash-worker.mjs <db file> <session id> <worker number> <seed> <session-generator.mjs URL>
//
// The worker loads the package and the wasm and warms up (one of each operation on a small session
// in an in-memory database, so the first operations on the file are as fast as later ones), prints
// `loaded` and waits for `go` on stdin (the parent keeps the next workers warm this way), then
// opens the database and reports
//   ready <revision> <leaf>            the state it starts from
//   node <id> <revision> <leaf>        a message was appended (turn, tool call, retry, edit)
//   head <revision> <leaf>             a message's parts were updated in place (a tool result)
//   tx+ / ckpt? <id> / tx-             inside the compaction's store transaction: begun, the
//                                      checkpoint appended (not committed yet), callback done
//   ckpt <id> <revision>               the compaction committed
// Writes to a pipe are synchronous in Node on Linux, so a line is in the pipe before the next
// store call starts.
import { writeSync } from 'node:fs';
import Database from 'better-sqlite3';

const [file, fileSessionId, workerArg, seedArg, generatorUrl] = process.argv.slice(2);
const worker = Number(workerArg);

const compaction = await import(process.env.BIBGENIE_PKG ?? new URL('../../pkg/index.js', import.meta.url).href);
await compaction.init();
const { SqliteStore, compact, extractiveSummary, retryTarget, editTarget, readBranch } = compaction;

let muted = false;
/** One line on stdout, written synchronously (fd 1 is a pipe to the parent); none while warming up. */
const report = (line) => muted || writeSync(1, `${line}\n`);

const { prng } = await import(generatorUrl);
const random = prng(Number(seedArg)).next;
const pick = (list) => list[Math.floor(random() * list.length)];

/** The demo's 32k model (manual compactions) and its 8k model (automatic ones fire often). */
const MODELS = [
  { id: 'demo-32k', contextWindow: 32768, maxOutputTokens: 4096 },
  { id: 'demo-8k', contextWindow: 8192, maxOutputTokens: 1024 },
];
const QUESTIONS = [
  'Which retrieval unit does the second paper use? Keep the page numbers.',
  'Compare that with the annotation on p. 12 of the Chinese survey.',
  'Tag the three RAG papers with "to-read" (needs approval).',
  '请总结第二篇论文的实验设置。',
  'Find the EPUB chapter on citation precision and quote it.',
];
const ANSWERS = [
  'The paper (item KEY4ABCD, p. 7) retrieves 128-token passages; BM25 first, then a cross-encoder.',
  'Page 12 (annotation ANNO2345) notes a 4.1 point precision gain over sentence-level units.',
  '实验使用了 NQ 和 HotpotQA 两个数据集（第 5 页）。',
];

let counter = 0;
const nextId = (kind) => `w${worker}-${kind}${++counter}`;
const userMessage = () => ({ id: nextId('u'), role: 'user', parts: [{ type: 'text', text: pick(QUESTIONS) }] });
const assistantMessage = () => ({
  id: nextId('a'),
  role: 'assistant',
  parts: [{ type: 'step-start' }, { type: 'text', text: pick(ANSWERS) }],
  metadata: random() < 0.5 ? { usage: { inputTokens: 900 + counter, outputTokens: 120, totalTokens: 1020 + counter } } : undefined,
});
const toolCall = (state) => ({
  type: 'tool-zoteroSearch',
  toolCallId: `call_w${worker}_${counter}`,
  state,
  input: { q: 'retrieval augmented generation', limit: 5 },
  ...(state === 'output-available'
    ? { output: [{ key: 'KEY4ABCD', itemType: 'journalArticle', title: 'Dense passage retrieval', date: '2020' }] }
    : {}),
});

let store;
let sessionId;
// Holds the compaction's transaction open a little after the checkpoint is appended, so that some
// kills land between the append and the commit (the window is otherwise a few microseconds).
const holdingTransaction = (transaction) => (id, fn) =>
  transaction(id, async (tx) => {
    report('tx+');
    try {
      return await fn({
        ...tx,
        appendNode: async (node) => {
          await tx.appendNode(node);
          report(`ckpt? ${node.id}`);
          await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 4)));
        },
      });
    } finally {
      report('tx-');
    }
  });

/** Opens a store whose compaction transactions report themselves. */
function openStore(filename) {
  const opened = new SqliteStore(Database, filename);
  opened.transaction = holdingTransaction(opened.transaction.bind(opened));
  return opened;
}

const appended = (head) => report(`node ${head.node.id} ${head.branchRevision} ${head.leafId}`);

/** A user turn and its answer. */
async function turn() {
  appended(await store.appendMessage(sessionId, userMessage()));
  appended(await store.appendMessage(sessionId, assistantMessage()));
}

/** A tool call that waits for its result, then the result arriving (an in-place update). */
async function toolTurn() {
  appended(await store.appendMessage(sessionId, userMessage()));
  const call = { id: nextId('a'), role: 'assistant', parts: [{ type: 'step-start' }, toolCall('input-available')] };
  appended(await store.appendMessage(sessionId, call));
  await finishTool(call.id, call.parts);
}

async function finishTool(messageId, parts) {
  const done = parts.map((p) => (p.state && p.state !== 'output-available' ? { ...toolCall('output-available'), toolCallId: p.toolCallId } : p));
  const head = await store.updateMessageParts(sessionId, messageId, [...done, { type: 'text', text: pick(ANSWERS) }]);
  report(`head ${head.branchRevision} ${head.leafId}`);
}

async function compactNow(model = pick(MODELS)) {
  const mode = model.contextWindow < 10000 ? 'auto' : 'manual';
  const outcome = await compact({ store, sessionId, model, mode, summarize: (request) => extractiveSummary(request) });
  if (outcome.status === 'committed') report(`ckpt ${outcome.checkpoint.id} ${outcome.session.branchRevision}`);
  else if (outcome.status === 'failed') throw new Error(`compaction failed: ${outcome.error?.message ?? outcome.reason}`);
}

async function retry() {
  const target = retryTarget(await store.load(sessionId));
  if (target) appended(await store.retry(sessionId, target.parentId, assistantMessage()));
}

async function edit() {
  const target = editTarget(await store.load(sessionId));
  if (!target) return;
  appended(await store.edit(sessionId, target.parentId, userMessage()));
  appended(await store.appendMessage(sessionId, assistantMessage()));
}

const OPERATIONS = [turn, turn, turn, toolTurn, toolTurn, compactNow, compactNow, compactNow, retry, edit];

/** One of each operation on a small copy of the research session in memory, reports muted. */
async function warmUp() {
  const { researchSession } = await import(generatorUrl);
  muted = true;
  store = openStore(':memory:');
  sessionId = 'warm-up';
  await store.importSession(researchSession({ turns: 2 }), { sessionId: sessionId });
  for (const operation of [turn, toolTurn, retry, edit]) await operation();
  await compactNow(MODELS[0]);
  store.close();
  muted = false;
}

async function main() {
  store = openStore(file);
  sessionId = fileSessionId;
  const session = await store.load(sessionId);
  report(`ready ${session.branchRevision} ${session.leafId}`);
  // A tool call left waiting by the previous worker's kill gets its result first.
  const branch = readBranch(session);
  const leaf = branch.nodes.at(-1);
  if (leaf?.parts?.some((p) => p.state === 'input-available')) await finishTool(leaf.id, leaf.parts);
  for (;;) await pick(OPERATIONS)();
}

await warmUp();
report('loaded');
process.stdin.setEncoding('utf8');
process.stdin.once('data', () => {
  main().catch((error) => {
    process.stderr.write(`crash-worker: ${error?.stack ?? error}\n`);
    process.exit(1);
  });
});
