// Shared fixtures of runner.test.mjs and controller.test.mjs: the packed package, an in-memory
// store, sessions, valid summaries and scripted summarizers.
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveInstalled } from './consumer-env.mjs';
import * as compaction from 'bibgenie-compaction';

await compaction.init();
export { compaction };

/** A glue export from the package entry, or (while the entry does not re-export it yet) its file. */
async function glue(name, file) {
  if (compaction[name]) return compaction[name];
  const url = pathToFileURL(join(dirname(resolveInstalled('bibgenie-compaction')), file));
  return (await import(url.href))[name];
}

export const MemoryStore = await glue('MemoryStore', 'stores/memory-store.js');
export const createAbortSignalLike = await glue('createAbortSignalLike', 'util/abort-signal.js');

export const SECTIONS = [
  'Research Goal',
  'User Requirements and Constraints',
  'Research Progress',
  'Findings and Evidence',
  'Key Zotero Resources',
  'Decisions',
  'Next Steps',
  'Critical Context',
];

/** A summary with the eight sections; `tag` tells summaries apart. */
export const validSummary = (tag = 'v1') => SECTIONS.map((s) => `## ${s}\n- (user said) ${tag}: ${s.toLowerCase()}`).join('\n');

/** A model whose window is large enough that the fixture sessions stay under the auto threshold. */
export const MODEL = Object.freeze({ id: 'test-8k', contextWindow: 8192 });
/** A small window the auto and preflight tests go over. */
export const SMALL_MODEL = Object.freeze({ id: 'test-1k', contextWindow: 1024 });

const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

export const userMessage = (id, parentId, text) => ({ id, parentId, role: 'user', parts: [{ type: 'text', text }] });
export const assistantMessage = (id, parentId, text) => ({ id, parentId, role: 'assistant', parts: [{ type: 'text', text }] });

/** U1 A1 ... Un An; the leaf is An and the revision 2n (one bump per append). */
export function linearSession(turns = 4, wordsPerMessage = 40) {
  const nodes = [];
  let parent = null;
  for (let t = 1; t <= turns; t++) {
    nodes.push(userMessage(`U${t}`, parent, `question ${t}: ${words(wordsPerMessage, 'ask')}`));
    nodes.push(assistantMessage(`A${t}`, `U${t}`, `answer ${t}: ${words(wordsPerMessage * 2, 'found')}`));
    parent = `A${t}`;
  }
  return { nodes, leafId: parent, branchRevision: 2 * turns };
}

let sessionCount = 0;

/** A fresh MemoryStore holding `session` under a new id. */
export async function storeWith(session) {
  const store = new MemoryStore();
  const sessionId = `session-${++sessionCount}`;
  await store.importSession(session, { sessionId: sessionId });
  return { store, sessionId };
}

/** The stored session as JSON text (to compare before and after). */
export const snapshot = async (store, sessionId) => JSON.stringify(await store.load(sessionId));

export const checkpointsOf = (session) => session.nodes.filter((n) => 'checkpoint' in n);

/** A promise with its resolve/reject outside. */
export function deferred() {
  let resolve;
  let reject;
  const promise = new Promise((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A summarizer that records its calls and answers with `answer(request, signal, callIndex)`. */
export function scriptedSummarizer(answer = () => validSummary()) {
  const calls = [];
  const summarize = (request, signal) => {
    calls.push({ request, signal });
    return answer(request, signal, calls.length - 1);
  };
  return { summarize, calls };
}

/** A summarizer that waits until `release()` (or never, until aborted); `started` resolves on the first call. */
export function gatedSummarizer(text = validSummary()) {
  const started = deferred();
  const gate = deferred();
  const { summarize, calls } = scriptedSummarizer(async (request, signal) => {
    started.resolve({ request, signal });
    await gate.promise;
    return text;
  });
  return { summarize, calls, started: started.promise, release: () => gate.resolve() };
}

/** A summarizer that never settles (only cancellation ends it). */
export const neverSettles = () => new Promise(() => {});

/**
 * The smallest signal the runner accepts: `aborted` and `addEventListener`, no AbortSignal,
 * no removeEventListener, no EventTarget (what a sandbox may offer).
 */
export function minimalSignal() {
  const listeners = [];
  const signal = {
    aborted: false,
    addEventListener(type, listener) {
      if (type === 'abort') listeners.push(listener);
    },
  };
  return {
    signal,
    abort() {
      signal.aborted = true;
      for (const listener of listeners.splice(0)) listener({ type: 'abort' });
    },
  };
}

/**
 * A store whose transactions go through `wrapTx(tx)`: used to fail or cancel midway through a commit.
 * Everything else is the MemoryStore's.
 */
export function wrapTransactions(store, wrapTx) {
  return {
    load: (id) => store.load(id),
    transaction: (id, fn) => store.transaction(id, (tx) => fn(wrapTx(tx))),
  };
}
