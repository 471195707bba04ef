// The longest main-thread block of the calls a chat makes, measured the same way in Node
// (main-thread.mjs) and in a real page in headless Firefox (main-thread-page.mjs): a timer chain
// (setTimeout 0) runs beside each call and the longest gap between its callbacks is the longest
// stretch the call held the thread. The control is the same chain over the same time with nothing
// else running. Issue 42's limit is 50 ms; nothing here asserts a time.

export const SEED = 20_250_310;
export const MODEL = { id: 'bench-200k', contextWindow: 200_000, maxOutputTokens: 32_000 };
/** A 1M-window model (Gemini's, Claude's 1M): the largest summary request a round builds. */
export const WIDE_MODEL = { id: 'bench-1m', contextWindow: 1_000_000, maxOutputTokens: 64_000 };
export const LIMIT_MS = 50;
// Zotero's plugin scope has no `performance` (and adding one would change the package's own slice
// clock, which falls back to Date.now()): the scope's bench hands its own clock to useClock.
let now = () => performance.now();

/** Sets the clock `watched` and `control` read (a `() => number` in milliseconds). */
export function useClock(clock) {
  now = clock;
}

/** `{ value, wall, longest }` of `fn()`: the longest gap of a setTimeout(0) chain while it ran. */
export async function watched(fn) {
  let last = now();
  let longest = 0;
  let running = true;
  const tick = () => {
    const t = now();
    longest = Math.max(longest, t - last);
    last = t;
    if (running) setTimeout(tick, 0);
  };
  setTimeout(tick, 0);
  const start = now();
  const value = await fn();
  const wall = now() - start;
  running = false;
  longest = Math.max(longest, now() - last); // a block at the very end
  await new Promise((resolve) => setTimeout(resolve, 2));
  return { value, wall, longest };
}

/** The chain alone for `ms`: its longest gap is the floor of what `watched` can report. */
export async function control(ms) {
  return (await watched(() => new Promise((resolve) => setTimeout(resolve, Math.max(5, ms))))).longest;
}

const draft = (k) => ({ id: `mt-d${k}`, role: 'user', parts: [{ type: 'text', text: 'Compare the retrieval units of the last three papers and keep the page labels.' }] });
const answer = (k, parentId) => ({ id: `mt-a${k}`, parentId, role: 'assistant', parts: [{ type: 'text', text: 'The section reports a 7.4 point gain (p. 57).' }] });

/**
 * The first JSON.parse of a session's text and the first `estimate` of it, each timed once: called
 * first thing in a fresh process (first-call.mjs) or a page just loaded (first-call-page.mjs).
 */
export function firstCall({ api, syntheticSession, messages }) {
  const text = JSON.stringify(syntheticSession({ messages, seed: SEED }));
  let start = performance.now();
  const session = JSON.parse(text);
  const parse = performance.now() - start;
  start = performance.now();
  api.estimate(session, MODEL);
  return { messages, parse, estimate: performance.now() - start };
}

/**
 * The sends of one chat imported into a store: the first (builds the store's index; a chat that
 * must compact also plans, summarizes with the embedded summarizer, `extractiveSummaryInSlices` as the README
 * gives it, and commits), the
 * after-turn check, a later send, and with `reopen` the first send after the store is opened again.
 * `open()` makes the store (again, for the reopen); `fits`: a checkpoint every 50 messages, so the
 * projection (the tail after the last) fits the window.
 */
export async function chatSends({ api, syntheticSession, messages, storeName, open, fits, reopen = false, log = () => {}, model = MODEL }) {
  const session = syntheticSession({ messages, seed: SEED, checkpoints: fits ? Math.max(1, Math.floor(messages / 50) - 1) : 0 });
  let store = open();
  const { sessionId } = await store.importSession(session);
  const controller = (s) => new api.CompactionController({ store: s, sessionId, model, summarize: api.extractiveSummaryInSlices });
  const rows = [];
  const chat = `${fits ? 'a chat that fits' : 'a chat that must compact'}${model === MODEL ? '' : `, ${model.id}`}`;
  const row = async (name, fn) => {
    const r = await watched(fn);
    const floor = await control(r.wall);
    rows.push({ messages, storeName, name: `${name}, ${chat}`, ...r, floor });
    log(`  ${messages} ${storeName} ${name}, ${chat}: longest block ${r.longest.toFixed(1)} ms (control ${floor.toFixed(1)} ms), wall ${r.wall.toFixed(0)} ms`);
    return r.value;
  };
  let c = controller(store);
  const first = await row('first send', () => c.submit(draft(0)));
  if (first.status !== 'send') throw new Error(`first send: ${first.status} ${first.reason ?? ''}`);
  const head = (await store.appendMessage(sessionId, draft(0))).node;
  await store.appendMessage(sessionId, answer(0, head.id));
  await row('after-turn check', () => c.afterTurn());
  const later = await row('later send', () => c.submit(draft(1)));
  if (later.status !== 'send') throw new Error(`later send: ${later.status}`);
  if (reopen) {
    await store.close();
    store = open();
    c = controller(store);
    await row('reopen, first send', () => c.submit(draft(2)));
  }
  await store.close();
  return rows;
}

/** The table of `chatSends` rows, as markdown lines. */
export function blockTable(rows) {
  const fmt = (n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));
  return [
    '| session | store | call | longest block ms | control ms | block / control | block / 50 ms | wall ms |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((r) => `| ${r.messages} msgs | ${r.storeName} | ${r.name} | ${fmt(r.longest)} | ${fmt(r.floor)} | ${(r.longest / r.floor).toFixed(1)}x | ${(r.longest / LIMIT_MS).toFixed(2)}x | ${fmt(r.wall)} |`),
  ];
}
