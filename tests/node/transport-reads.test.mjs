// One store read per decision (issue 27): the store reads, writes and wasm calls of one chat turn
// through CompactionChatTransport, on MemoryStore and SqliteStore. A turn that fits reads the store
// once before the send and once after (the automatic check on the persisted response); a preflight
// compaction plans once (the runner reuses the controller's plan) and checks the commit on the held
// index; so does afterTurn's automatic compaction. No whole session crosses into wasm on the way.
//
// Wasm calls are counted at the module's own exports: WebAssembly.instantiate is wrapped before
// the package loads its .wasm, so every call the glue makes into wasm goes through a counter.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';

/** Calls into wasm by export name (the wasm-bindgen helpers `__…` left out). */
const wasmCalls = new Map();
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (...args) {
  const made = await instantiate.apply(this, args);
  const instance = made instanceof WebAssembly.Instance ? made : made.instance;
  const exports = {};
  for (const [name, value] of Object.entries(instance.exports)) {
    exports[name] = typeof value === 'function' && !name.startsWith('__')
      ? (...callArgs) => {
          wasmCalls.set(name, (wasmCalls.get(name) ?? 0) + 1);
          return value(...callArgs);
        }
      : value;
  }
  const counted = { exports };
  return made instanceof WebAssembly.Instance ? counted : { module: made.module, instance: counted };
};
const compaction = await import('bibgenie-compaction');
await compaction.init();
WebAssembly.instantiate = instantiate;
const { CompactionController, CompactionChatTransport, MemoryStore, SqliteStore } = compaction;

const Database = createRequire(import.meta.url)('better-sqlite3');
const ai = await import('ai');
const aiTest = await import('ai/test');

const READS = new Set(['load', 'loadJson', 'withSessionIndex', 'getSessionInfo', 'listSessions']);
const WRITES = new Set(['appendMessage', 'updateMessageParts', 'retry', 'edit', 'moveLeaf', 'importSession']);

/** The store with every method call recorded (the store's own methods run on the store itself). */
function countingStore(store) {
  const calls = [];
  const wrapper = new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name, target);
      if (typeof value !== 'function') return value;
      return (...args) => {
        calls.push(String(name));
        return value.apply(target, args);
      };
    },
  });
  return { store: wrapper, calls };
}

/** What happened between two marks: store reads, transactions, writes and wasm calls. */
function tally(calls, wasmBefore) {
  const count = (names) => calls.filter((c) => names.has(c)).length;
  const wasm = {};
  for (const [name, n] of wasmCalls) {
    const d = n - (wasmBefore.get(name) ?? 0);
    if (d > 0) wasm[name] = d;
  }
  return {
    reads: count(READS),
    transactions: calls.filter((c) => c === 'transaction').length,
    writes: count(WRITES),
    calls: [...calls],
    wasm,
    wasmTotal: Object.values(wasm).reduce((a, b) => a + b, 0),
  };
}

const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const user = (id, parentId, text) => ({ id, parentId, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id, parentId, text) => ({ id, parentId, role: 'assistant', parts: [{ type: 'text', text }] });
function linearSession(turns, wordsPerMessage = 40) {
  const nodes = [];
  let parent = null;
  for (let t = 1; t <= turns; t++) {
    nodes.push(user(`U${t}`, parent, `question ${t}: ${words(wordsPerMessage, 'ask')}`));
    nodes.push(assistant(`A${t}`, `U${t}`, `answer ${t}: ${words(wordsPerMessage * 2, 'found')}`));
    parent = `A${t}`;
  }
  return { nodes, leafId: parent, branchRevision: 2 * turns };
}
const SECTIONS = ['Research Goal', 'User Requirements and Constraints', 'Research Progress', 'Findings and Evidence',
  'Key Zotero Resources', 'Decisions', 'Next Steps', 'Critical Context'];
const summary = () => SECTIONS.map((s) => `## ${s}\n- (user said) ${s.toLowerCase()}`).join('\n');

const BIG_MODEL = { id: 'test-8k', contextWindow: 8192 };
const SMALL_MODEL = { id: 'test-1k', contextWindow: 1024 };

const answering = (text) =>
  new aiTest.MockLanguageModelV2({
    doStream: async () => ({
      stream: aiTest.convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: text },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 321, outputTokens: 12, totalTokens: 333 } },
      ]),
    }),
  });

const backends = [
  ['MemoryStore', () => ({ store: new MemoryStore(), close: () => {} })],
  ['SqliteStore', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bibgenie-reads-'));
    return { store: new SqliteStore(Database, join(dir, 'reads.sqlite')), close: () => rmSync(dir, { recursive: true, force: true }) };
  }],
];

/**
 * One turn through the transport: the counts up to the send (streamResponse called), and from there
 * to the end of the automatic check after the response was persisted.
 */
async function countTurn(openBackend, { session, model, text }) {
  const { store: inner, close } = openBackend();
  const { sessionId } = await inner.importSession(session);
  // The first read builds the store's index (the cold read); a turn in an open pane finds it held.
  await inner.withSessionIndex(sessionId, () => null);
  const { store, calls } = countingStore(inner);
  const controller = new CompactionController({ store, sessionId, model, summarize: async () => summary() });
  let afterTurn = null;
  const ownAfterTurn = controller.afterTurn.bind(controller);
  controller.afterTurn = (options) => (afterTurn = ownAfterTurn(options));
  let before = null;
  let marks = null;
  let wasmMark = new Map(wasmCalls);
  const transport = new CompactionChatTransport({
    controller,
    promptCache: { provider: 'anthropic' },
    streamResponse: async ({ messages, applyCacheBreakpoints, cacheBreakpoints }) => {
      before = tally(calls.splice(0), wasmMark);
      // The marks as placed on the stored session, which now ends with the message sent.
      marks = { given: cacheBreakpoints, stored: compaction.cacheBreakpoints(await inner.load(sessionId), model).breakpoints };
      wasmMark = new Map(wasmCalls);
      return ai.streamText({ model: answering('Three more papers.'), messages: applyCacheBreakpoints(await ai.convertToModelMessages(messages)) });
    },
  });
  const stream = await transport.sendMessages({
    trigger: 'submit-message', chatId: 'c', messageId: undefined, abortSignal: undefined,
    messages: [{ id: 'u-new', role: 'user', parts: [{ type: 'text', text }] }],
  });
  for await (const _ of ai.readUIMessageStream({ stream })); // eslint-disable-line no-unused-vars
  assert.ok(afterTurn, 'the transport started the automatic check');
  const checked = await afterTurn;
  const after = tally(calls.splice(0), wasmMark);
  const stored = await inner.load(sessionId);
  await inner.close();
  close();
  return { before, after, checked, stored, marks };
}

for (const [name, open] of backends) {
  describe(`the reads and wasm calls of one turn (${name})`, () => {
    it('a turn that fits: one read before the send, one after, the plan made once each', async (t) => {
      const { before, after, checked, stored, marks } = await countTurn(open, { session: linearSession(6, 60), model: BIG_MODEL, text: 'Which of them use corpus data?' });
      assert.ok(marks.given.length > 0, 'the send carries cache marks');
      assert.deepEqual(marks.given, marks.stored, 'the marks placed in the read before the send are those of the stored session');
      t.diagnostic(`before the send: ${JSON.stringify(before)}`);
      t.diagnostic(`after the send: ${JSON.stringify(after)}`);
      assert.equal(checked.status, 'noop');
      assert.equal(stored.nodes.length, 14, 'the user message and the response were stored');
      assert.equal(before.reads, 1, `one store read before the send, got ${before.calls.join(', ')}`);
      assert.equal(before.transactions, 0);
      assert.equal(before.writes, 1, 'the user message');
      assert.equal(after.reads, 1, `one store read after the send, got ${after.calls.join(', ')}`);
      assert.equal(after.writes, 1, 'the response');
      assert.equal(before.wasm.sessionindex_plan, 1, 'the preflight is planned once');
      assert.equal(after.wasm.sessionindex_plan, 1, 'the automatic check is planned once');
      // The plan that succeeded took the draft, the model and the overhead: no second check of them.
      assert.equal(before.wasm.sessionindex_checkCompactInputs, undefined, 'a send that fits checks its inputs once, in its plan');
      for (const tallied of [before, after]) {
        // A pure call (plan, estimate, checkCommit, ...) builds an index of the session it is given.
        for (const whole of ['sessionindex_from', 'sessionindex_appendShallowUtf8', 'sessionindex_appendShallow']) {
          assert.equal(tallied.wasm[whole], undefined, `no session crosses into a new index (${whole})`);
        }
      }
    });

    it('a preflight compaction: planned once (the runner reuses the plan), the commit checked on the held index', async (t) => {
      const { before, stored, marks } = await countTurn(open, { session: linearSession(4, 30), model: SMALL_MODEL, text: `one more ${words(40, 'w')}` });
      assert.deepEqual(marks.given, marks.stored, 'the marks placed after the commit are those of the stored session');
      t.diagnostic(`before the send: ${JSON.stringify(before)}`);
      assert.equal(stored.nodes.filter((n) => 'checkpoint' in n).length, 1, 'the turn compacted first');
      assert.equal(before.wasm.sessionindex_plan, 1, 'one plan: the runner reuses the controller\'s');
      assert.equal(before.wasm.sessionindex_summaryRequest, 1);
      assert.equal(before.wasm.sessionindex_checkCommit, 1, 'the commit is checked on the held index');
      assert.equal(before.wasm.sessionindex_from, undefined, 'no index of the session is built for the commit check');
      // The plan (with the summary request), the commit check, the commit, the estimate of what is sent.
      assert.equal(before.reads, 3, `reads before the send: ${before.calls.join(', ')}`);
      assert.equal(before.transactions, 1);
    });

    it("afterTurn's automatic compaction: planned once, the commit checked on the held index", async (t) => {
      const { store: inner, close } = open();
      const { sessionId } = await inner.importSession(linearSession(5, 30));
      await inner.withSessionIndex(sessionId, () => null);
      const { store, calls } = countingStore(inner);
      const controller = new CompactionController({ store, sessionId, model: SMALL_MODEL, summarize: async () => summary() });
      const mark = new Map(wasmCalls);
      const outcome = await controller.afterTurn();
      const counted = tally(calls, mark);
      t.diagnostic(JSON.stringify(counted));
      assert.equal(outcome.status, 'committed');
      assert.equal(counted.wasm.sessionindex_plan, 1, 'one plan: the runner reuses the controller\'s');
      assert.equal(counted.wasm.sessionindex_checkCommit, 1);
      assert.equal(counted.wasm.sessionindex_from, undefined, 'no index of the session is built for the commit check');
      assert.equal(counted.reads, 2, `the plan and the commit check: ${counted.calls.join(', ')}`);
      assert.equal(counted.transactions, 1);
      await inner.close();
      close();
    });
  });
}

for (const [name, open] of backends) {
  describe(`the projection of the held index, parsed once per text (${name})`, () => {
    it('hands out fresh messages equal to a parse of the text, updated when the text changes', async () => {
      const { store, close } = open();
      const session = linearSession(3);
      // A key JSON.parse keeps as an own property (on the metadata and on a part), and nested values.
      session.nodes[3] = { ...session.nodes[3], metadata: JSON.parse('{"__proto__": {"x": 1}, "n": [1, {"m": null}]}') };
      session.nodes[5] = { ...session.nodes[5], parts: [...session.nodes[5].parts, JSON.parse('{"type": "data-note", "__proto__": {"y": 2}, "data": {"k": [1]}}')] };
      const { sessionId } = await store.importSession(session);
      const project = () => store.withSessionIndex(sessionId, (view) => view.project().messages);
      const texts = async () => (await store.load(sessionId)).nodes.map((node) => JSON.stringify(node));
      const first = await project();
      const second = await project();
      assert.deepStrictEqual(second, first);
      assert.deepStrictEqual(JSON.stringify(second), JSON.stringify((await store.load(sessionId)).nodes));
      assert.notEqual(second[3], first[3]);
      assert.ok(Object.hasOwn(second[3].metadata, '__proto__'), '__proto__ stays an own key');
      assert.equal(Object.getPrototypeOf(second[3].metadata), Object.prototype);
      const part = second[5].parts[1];
      assert.ok(Object.hasOwn(part, '__proto__'), "a part's __proto__ stays an own key of its fresh copy");
      assert.equal(Object.getPrototypeOf(part), Object.prototype);
      assert.deepStrictEqual(part.__proto__, { y: 2 }); // eslint-disable-line no-proto
      first[5].parts[0].text = 'changed by the caller';
      assert.equal((await project())[5].parts[0].text.startsWith('answer 3'), true, 'a caller\'s change does not reach the next projection');
      await store.updateMessageParts(sessionId, 'A3', [{ type: 'text', text: 'answer 3, revised' }]);
      const updated = await project();
      assert.equal(updated[5].parts[0].text, 'answer 3, revised');
      assert.deepStrictEqual(updated.map((m) => JSON.stringify(m)), await texts());
      await store.close();
      close();
    });

    // Issue 42: a send copies only the levels a chat changes; what a part holds is shared, frozen.
    it('shares what the parts hold between calls, frozen: a change in place throws and never reaches the next projection', async () => {
      const { store, close } = open();
      const session = linearSession(3);
      session.nodes[3] = { ...session.nodes[3], metadata: { n: [1, { m: null }] } };
      session.nodes[5] = { ...session.nodes[5], parts: [...session.nodes[5].parts, toolPart('call-1', { q: 'tone sandhi' }, { items: [{ key: 'K1', creators: [{ lastName: 'Chen' }] }] })] };
      const { sessionId } = await store.importSession(session);
      const project = () => store.withSessionIndex(sessionId, (view) => view.project().messages);
      const parsed = async () => JSON.parse(JSON.stringify((await store.load(sessionId)).nodes));
      const first = await project();
      const second = await project();
      // Fresh on every call: the message, its parts array and each part; a chat changes these.
      assert.notEqual(second[5], first[5]);
      assert.notEqual(second[5].parts, first[5].parts);
      assert.notEqual(second[5].parts[1], first[5].parts[1]);
      assert.ok(!Object.isFrozen(second[5]) && !Object.isFrozen(second[5].parts) && !Object.isFrozen(second[5].parts[1]));
      // Shared and frozen: what they hold, to the bottom.
      assert.equal(second[5].parts[1].output, first[5].parts[1].output);
      assert.equal(second[3].metadata, first[3].metadata);
      for (const value of [second[5].parts[1].input, second[5].parts[1].output, second[5].parts[1].output.items[0].creators[0], second[3].metadata.n, second[3].metadata.n[1]]) {
        assert.ok(Object.isFrozen(value));
      }
      assert.throws(() => { first[5].parts[1].output.items.push({ key: 'K2' }); }, TypeError);
      assert.throws(() => { first[5].parts[1].output.items[0].creators[0].lastName = 'changed'; }, TypeError);
      assert.throws(() => { first[3].metadata.n[1].m = 1; }, TypeError);
      // What a chat does (the AI SDK's stream and tool-result code): assignments at the fresh levels.
      first[5].parts[1].output = { items: [] };
      first[5].parts[1].state = 'output-error';
      first[5].parts.push({ type: 'text', text: 'pushed by the caller' });
      first[5].metadata = { changed: true };
      const third = await project();
      assert.deepStrictEqual(JSON.parse(JSON.stringify(third)), await parsed());
      assert.deepStrictEqual(third, second);
      await store.close();
      close();
    });

    it("the AI SDK reads and continues the projected messages as it does their parse (convertToModelMessages, readUIMessageStream)", async () => {
      const { store, close } = open();
      const session = linearSession(2);
      session.nodes[3] = {
        ...session.nodes[3],
        metadata: { usage: { inputTokens: 10 } },
        parts: [
          { type: 'step-start' },
          { ...toolPart('call-1', { q: 'tone sandhi' }, { items: [{ key: 'K1' }] }), callProviderMetadata: { anthropic: { cacheControl: { type: 'ephemeral' } } } },
          { type: 'tool-zoteroSearch', toolCallId: 'call-2', state: 'input-available', input: { q: 'prosody' } },
        ],
      };
      const { sessionId } = await store.importSession(session);
      const project = () => store.withSessionIndex(sessionId, (view) => view.project().messages);
      const parsed = async () => JSON.parse(JSON.stringify((await store.load(sessionId)).nodes));
      for (const sdk of [ai, await import('ai6'), await import('ai7')]) {
        const converted = await sdk.convertToModelMessages(await project());
        assert.deepStrictEqual(converted, await sdk.convertToModelMessages(await parsed()));
        // A stream that continues the last assistant message changes it in place (v6, v7: no copy).
        const chunks = [
          { type: 'start' },
          { type: 'tool-output-available', toolCallId: 'call-2', output: { items: [{ key: 'K2' }] } },
          { type: 'message-metadata', messageMetadata: { usage: { outputTokens: 5 } } },
          { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'found it' }, { type: 'text-end', id: 't' },
          { type: 'finish' },
        ];
        const expected = await last(sdk.readUIMessageStream({ message: (await parsed())[3], stream: streamOf(chunks) }));
        const continued = await last(sdk.readUIMessageStream({ message: (await project())[3], stream: streamOf(chunks) }));
        assert.deepStrictEqual(JSON.parse(JSON.stringify(continued)), JSON.parse(JSON.stringify(expected)));
        assert.equal(continued.parts.at(-1).text, 'found it');
        assert.deepStrictEqual(await project(), await parsed(), 'the stored state is unchanged');
      }
      await store.close();
      close();
    });
  });
}

/** A static tool part with its output. */
function toolPart(toolCallId, input, output) {
  return { type: 'tool-zoteroSearch', toolCallId, state: 'output-available', input, output };
}

/** @param {object[]} chunks */
function streamOf(chunks) {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/** The last message a readUIMessageStream gives. */
async function last(stream) {
  let message;
  for await (const m of stream) message = m;
  return message;
}
