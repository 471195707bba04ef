// A child process of store-processes.test.mjs: one of several processes on one SQLite file.
//
//   node store-process-worker.mjs <db file> <role> <worker number> <operations> [<base updates>]
//
// Roles:
//   base     updates S's leaf message A4 in place, `shared v1`, `shared v2`, ... (a base window
//            correcting a message that forks share)
//   forker   forks S at A4, adds a turn to the fork and compacts it manually with a slow
//            summarizer whose summary says which version of A4 it read (`saw-v<k>`); its last
//            round waits until the base's last update (`shared v<base updates>`) is in, so at
//            least that compaction runs with nobody writing and must commit; in its first round
//            the summarizer waits until the base has updated A4 past the version it read, so
//            that compaction overlaps a base update for sure and must end stale
//            (the base starts only once the first forker's first fork exists)
//   appender appends replies to session T saying which leaf it saw (expectedLeafId and
//            expectedRevision), and runs slow store transactions on T
// Every outcome is one stdout line: `ok <id> <parent>`, `moved`, `tx <id> <parent>`,
// `ckpt <id>`, `stale <reason>`, `update <k>`, or `error <code> <message>` for anything else.
// The worker ends by itself after <operations> operations and prints `done`.
import { writeSync } from 'node:fs';
import Database from 'better-sqlite3';
import * as compaction from 'bibgenie-compaction';

await compaction.init();
const { SqliteStore, compact } = compaction;
const [file, role, workerArg, operationsArg] = process.argv.slice(2);
const worker = Number(workerArg);
const operations = Number(operationsArg);
const baseUpdates = Number(process.argv[6] ?? 0);

const report = (line) => writeSync(1, `${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const SECTIONS = ['Research Goal', 'User Requirements and Constraints', 'Research Progress', 'Findings and Evidence',
  'Key Zotero Resources', 'Decisions', 'Next Steps', 'Critical Context'];
const summaryText = (tag) => SECTIONS.map((s) => `## ${s}\n- (user said) ${tag}: ${s.toLowerCase()}`).join('\n');
const MODEL = { id: 'test-8k', contextWindow: 8192 };
const ALLOWED = new Set(['session-moved', 'store-conflict', 'store-busy']);

const store = new SqliteStore(Database, file);
let counter = 0;
const nextId = (kind) => `w${worker}-${kind}${++counter}`;
const text = (id, words) => ({ type: 'text', text: `${id}: ${'evidence '.repeat(words)}` });

/** Reports a coded store refusal; anything else (a raw driver error) is reported as an error too. */
function failure(error) {
  const code = typeof error?.code === 'string' ? error.code : 'uncoded';
  report(`error ${code} ${String(error?.message ?? error).replace(/\s+/g, ' ')}`);
  if (!ALLOWED.has(code)) process.exitCode = 1;
}

/** The version of A4 in the file: -1 before the base wrote, else k of `shared v<k>`. */
async function sharedVersion() {
  const a4 = (await store.load('S')).nodes.find((n) => n.id === 'A4');
  const seen = /shared v(\d+)/.exec(a4.parts[0].text);
  return seen ? Number(seen[1]) : -1;
}

async function base(k) {
  if (k === 1) {
    for (;;) {
      try {
        await store.load('F1-1');
        break;
      } catch (error) {
        if (error?.code !== 'unknown-session') throw error;
        await sleep(5);
      }
    }
  }
  await store.updateMessageParts('S', 'A4', [{ type: 'text', text: `shared v${k}` }]);
  report(`update ${k}`);
  await sleep(Math.floor(Math.random() * 8));
}

async function forker(k) {
  if (k === operations) {
    while (!JSON.stringify((await store.load('S')).nodes).includes(`shared v${baseUpdates}"`)) await sleep(10);
  }
  const forkId = `F${worker}-${k}`;
  await store.fork('S', 'A4', { sessionId: forkId });
  await store.appendMessage(forkId, { id: nextId('u'), role: 'user', parts: [text('question', 60)] });
  await store.appendMessage(forkId, { id: nextId('a'), role: 'assistant', parts: [text('answer', 120)] });
  const summarize = async (request) => {
    const seen = /shared v(\d+)/.exec(request.prompt);
    const version = seen ? Number(seen[1]) : request.prompt.includes('answer 4:') ? 0 : -1;
    await sleep(5 + Math.floor(Math.random() * 25)); // the base window writes meanwhile
    if (k === 1 && worker === 1) {
      const read = seen ? version : -1;
      while (read < baseUpdates && (await sharedVersion()) <= read) await sleep(2);
    }
    return summaryText(`saw-v${version}`);
  };
  const outcome = await compact({ store, sessionId: forkId, model: MODEL, mode: 'manual', summarize });
  if (outcome.status === 'committed') report(`ckpt ${outcome.checkpoint.id}`);
  else if (outcome.status === 'stale' && k === operations) failure({ code: 'stale-without-writers', message: outcome.reason });
  else if (outcome.status === 'stale') report(`stale ${outcome.reason}`);
  else failure(outcome.error ?? { code: `outcome-${outcome.status}`, message: outcome.reason });
}

async function appender() {
  if (Math.random() < 0.2) {
    // A slow transaction: its async callback holds no lock, other processes append meanwhile.
    let wrote;
    await store.transaction('T', async (tx) => {
      const s = await tx.load();
      await sleep(5 + Math.floor(Math.random() * 30));
      const node = { id: nextId('t'), parentId: s.leafId, role: 'user', parts: [text('slow', 3)] };
      await tx.appendNode(node);
      await tx.setLeaf(node.id, s.branchRevision + 1);
      wrote = node;
    });
    report(`tx ${wrote.id} ${wrote.parentId}`);
    return;
  }
  const seen = await store.load('T');
  await sleep(Math.floor(Math.random() * 3)); // the user types; another window may answer meanwhile
  const message = { id: nextId('m'), role: 'assistant', parts: [text('reply', 3)] };
  try {
    const head = await store.appendMessage('T', message, { expectedLeafId: seen.leafId, expectedRevision: seen.branchRevision });
    report(`ok ${head.node.id} ${head.node.parentId}`);
  } catch (error) {
    if (error?.code !== 'session-moved') throw error;
    report('moved');
  }
}

const ROLES = { base, forker, appender };
for (let k = 1; k <= operations; k++) {
  try {
    await ROLES[role](k);
  } catch (error) {
    failure(error);
  }
}
await store.close();
report('done');
