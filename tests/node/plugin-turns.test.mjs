// What a Zotero plugin following docs/zotero-plugin.md relies on around a chat turn (issue 24):
// web globals from the CURRENT main window, the request's system prompt and tools counted before
// sending, a missing session named as such, one turn and one compaction at a time per session
// across windows, and the mark a stopped or failed response carries in the store.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, MODEL, linearSession, storeWith, scriptedSummarizer, gatedSummarizer, validSummary, deferred, MemoryStore } from './runner-fixtures.mjs';

const { CompactionController, CompactionChatTransport, installWindowGlobals, estimate } = compaction;

const sdks = [];
for (const [name, spec, Mock, v3] of [['ai@5', 'ai', 'MockLanguageModelV2', false], ['ai@7', 'ai7', 'MockLanguageModelV4', true]]) {
  sdks.push({ name, ai: await import(spec), test: await import(`${spec}/test`), Mock, v3 });
}

const chatMessage = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

describe('installWindowGlobals: the AI SDK\'s globals from the current main window', () => {
  const windowWith = (tag) => {
    class ReadableStream { constructor() { this.tag = tag; } }
    return { closed: false, ReadableStream, structuredClone: (v) => ({ cloned: v, tag }) };
  };

  it('resolves each name from the window current at each use, and throws no-main-window when there is none', () => {
    const scope = {};
    let current = null;
    const globals = installWindowGlobals(scope, () => current); // no window at install: no failure
    assert.ok(globals.installed.includes('ReadableStream'));
    assert.throws(() => new scope.ReadableStream(), { code: 'no-main-window' });
    const a = windowWith('A');
    current = a;
    assert.equal(new scope.ReadableStream().tag, 'A');
    const b = windowWith('B');
    a.closed = true; // A closed, B opened: the next use takes B's
    current = b;
    assert.equal(new scope.ReadableStream().tag, 'B');
    assert.equal(scope.structuredClone(1).tag, 'B');
    current = a; // a closed window is no window
    assert.throws(() => scope.structuredClone(1), { code: 'no-main-window' });
    // A window whose objects are dead (a nuked wrapper throws on any access) is none either.
    current = new Proxy({}, { get() { throw new TypeError("can't access dead object"); } });
    assert.throws(() => new scope.ReadableStream(), { code: 'no-main-window' });
    // A subclass made with no window (the AI SDK's `extends TransformStream` when its bundle loads)
    // constructs the window's class once there is one.
    current = null;
    class Parser extends scope.ReadableStream {}
    current = b;
    const parsed = new Parser();
    assert.equal(parsed.tag, 'B');
    assert.ok(parsed instanceof scope.ReadableStream);
    globals.uninstall();
    assert.equal(Object.getOwnPropertyDescriptor(scope, 'ReadableStream'), undefined);
  });

  it('answers instanceof with no window open instead of throwing (the AI SDK asks it of an abort error after the last window closed)', () => {
    const scope = {};
    let current = windowWith('A');
    installWindowGlobals(scope, () => current);
    const fromClosedWindow = new current.ReadableStream(); // an object made by a window now gone
    current = null;
    assert.equal(fromClosedWindow instanceof scope.ReadableStream, true, 'its class is named ReadableStream');
    assert.equal(new Error('aborted') instanceof scope.ReadableStream, false);
    assert.equal(null instanceof scope.ReadableStream, false);
    const dead = new Proxy({}, { getPrototypeOf() { throw new TypeError("can't access dead object"); } });
    assert.equal(dead instanceof scope.ReadableStream, false);
    assert.throws(() => new scope.ReadableStream(), { code: 'no-main-window' }, 'making one still needs a window');
  });

  it('leaves what the scope already has', () => {
    const own = class {};
    const scope = { ReadableStream: own };
    const globals = installWindowGlobals(scope, () => null);
    assert.equal(scope.ReadableStream, own);
    assert.ok(!globals.installed.includes('ReadableStream'));
  });
});

for (const sdk of sdks) {
  const Mock = sdk.test[sdk.Mock];
  const finishReason = (r) => (sdk.v3 ? { unified: r, raw: r } : r);
  const usage = sdk.v3
    ? { inputTokens: { total: 321, noCache: 321, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 12, text: 12, reasoning: undefined } }
    : { inputTokens: 321, outputTokens: 12, totalTokens: 333 };
  const parts = (text) => [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    { type: 'text-delta', id: 't1', delta: text },
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: finishReason('stop'), usage },
  ];
  const answering = (text = 'An answer.') => new Mock({ doStream: async () => ({ stream: sdk.test.convertArrayToReadableStream(parts(text)) }) });
  /** A model that streams `first`, then waits for `gate` (or the abort) before finishing. */
  const holding = (first, gate) => new Mock({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream({
        async start(c) {
          c.enqueue({ type: 'stream-start', warnings: [] });
          c.enqueue({ type: 'text-start', id: 't1' });
          c.enqueue({ type: 'text-delta', id: 't1', delta: first });
          await new Promise((resolve, reject) => {
            gate.then(resolve);
            abortSignal?.addEventListener('abort', () => reject(abortSignal.reason ?? new Error('aborted')));
          }).catch((error) => c.error(error));
          try {
            c.enqueue({ type: 'text-delta', id: 't1', delta: ' and the rest.' });
            c.enqueue({ type: 'text-end', id: 't1' });
            c.enqueue({ type: 'finish', finishReason: finishReason('stop'), usage });
            c.close();
          } catch {
            // errored by the abort
          }
        },
      }),
    }),
  });
  const failing = () => new Mock({
    doStream: async () => ({
      stream: sdk.test.convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: 'Half an answer' },
        { type: 'error', error: new Error('provider went away') },
      ]),
    }),
  });

  const transportFor = ({ store, sessionId, controller, model, ...rest }) => new CompactionChatTransport({
    controller,
    streamResponse: async ({ messages, abortSignal, system, tools }) =>
      sdk.ai.streamText({ model, system, tools, messages: await sdk.ai.convertToModelMessages(messages), abortSignal }),
    ...rest,
  });
  const send = (transport, message, abortSignal) =>
    transport.sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages: [message], abortSignal });
  async function readAll(stream) {
    let last;
    for await (const message of sdk.ai.readUIMessageStream({ stream, onError: () => {} })) last = message;
    return last;
  }
  const settle = async (controller) => {
    await new Promise((r) => setTimeout(r, 5));
    while (controller.busy) await new Promise((r) => setTimeout(r, 2));
  };

  describe(`plugin turns with ${sdk.name}`, () => {
    it('a transport given globals rejects with no-main-window when there is no window, before asking anything', async () => {
      const { store, sessionId } = await storeWith(linearSession(2));
      const { summarize } = scriptedSummarizer();
      const controller = new CompactionController({ store, sessionId, model: MODEL, summarize });
      const model = answering();
      let win = null;
      const transport = transportFor({ store, sessionId, controller, model, globals: () => win });
      const before = JSON.stringify(await store.load(sessionId));
      await assert.rejects(send(transport, chatMessage('u-1', 'hello')), { code: 'no-main-window' });
      assert.equal(JSON.stringify(await store.load(sessionId)), before, 'nothing stored');
      assert.equal(model.doStreamCalls.length, 0);
      win = { closed: false };
      await readAll(await send(transport, chatMessage('u-1', 'hello')));
      assert.equal(model.doStreamCalls.length, 1, 'with a window the turn runs');
      await settle(controller);
    });

    it('the system prompt and tools given to the transport reach the model and count: an 8k model with a 1.5k-token system prompt compacts first', async () => {
      // A session that fits an 8k window alone, and does not with the system prompt.
      let turns = 4;
      while (estimate(linearSession(turns, 60), MODEL).tokens < 6000) turns++;
      const session = linearSession(turns, 60);
      const system = `You are a research assistant. ${words(700, 'rule')}`;
      const overheadTokens = estimate(session, MODEL, { overhead: { system } }).tokens - estimate(session, MODEL).tokens;
      assert.ok(overheadTokens >= 1400 && overheadTokens <= 2200, `the system prompt is ${overheadTokens} tokens`);
      const draft = chatMessage('u-new', 'Which of these use corpus data?');
      assert.equal(estimate(session, MODEL, { draft }).fits, true, 'without the system prompt it fits');
      assert.equal(estimate(session, MODEL, { draft, overhead: { system } }).fits, false, 'with it, it does not');

      const { store, sessionId } = await storeWith(session);
      const { summarize, calls } = scriptedSummarizer(() => validSummary());
      const controller = new CompactionController({ store, sessionId, model: MODEL, summarize });
      const model = answering();
      const tools = { lookup: sdk.ai.tool({ description: 'Looks an item up in the library', inputSchema: sdk.ai.jsonSchema({ type: 'object', properties: { key: { type: 'string' } } }) }) };
      const transport = transportFor({ store, sessionId, controller, model, system, tools });
      await readAll(await send(transport, draft));
      assert.equal(calls.length, 1, 'compacted before sending');
      const prompt = model.doStreamCalls[0].prompt;
      assert.equal(prompt[0].role, 'system');
      assert.equal(prompt[0].content, system, 'the system prompt reached the model');
      assert.deepEqual(model.doStreamCalls[0].tools.map((t) => t.name), ['lookup'], 'the tools reached the model');
      const after = await store.load(sessionId);
      assert.ok(estimate(after, MODEL, { overhead: { system } }).tokens < session.nodes.length * 1000);
      await settle(controller);
    });

    it('a missing session is unknown-session for the controller and the transport, never store-failed', async () => {
      const store = new MemoryStore();
      const { summarize } = scriptedSummarizer();
      const controller = new CompactionController({ store, sessionId: 'no-such-session', model: MODEL, summarize });
      const result = await controller.submit(chatMessage('u-1', 'hello'));
      assert.equal(result.status, 'failed');
      assert.equal(result.reason, 'unknown-session', result.message);
      const transport = transportFor({ store, sessionId: 'no-such-session', controller, model: answering() });
      await assert.rejects(send(transport, chatMessage('u-2', 'hello')), { code: 'unknown-session' });
      assert.equal((await controller.compact()).reason, 'unknown-session');
      // The recipe: one session per item, keyed by library and item key, made when first used.
      const a = await store.getOrCreateSession({ appKey: 'zotero:1/ABCD1234' });
      const b = await store.getOrCreateSession({ appKey: 'zotero:2/ABCD1234' });
      const again = await store.getOrCreateSession({ appKey: 'zotero:1/ABCD1234' });
      assert.notEqual(a.sessionId, b.sessionId);
      assert.deepEqual([a.created, again.created, again.sessionId], [true, false, a.sessionId]);
    });

    it('two windows on one session: the second send is refused with turn-in-flight while the first is answered; the answer stays the leaf', async () => {
      const { store, sessionId } = await storeWith(linearSession(2));
      const gate = deferred();
      const model = holding('Window A', gate.promise);
      const windows = ['A', 'B'].map(() => {
        const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: scriptedSummarizer().summarize });
        return { controller, transport: transportFor({ store, sessionId, controller, model }) };
      });
      const streamA = await send(windows[0].transport, chatMessage('u-a', 'From window A'));
      const readingA = readAll(streamA);
      await assert.rejects(send(windows[1].transport, chatMessage('u-b', 'From window B')), { code: 'turn-in-flight' });
      gate.resolve();
      const answerA = await readingA;
      await settle(windows[0].controller);
      const afterA = await store.load(sessionId);
      assert.equal(afterA.leafId, answerA.id, "A's answer is the leaf");
      assert.equal(afterA.nodes.some((n) => n.id === 'u-b'), false, "B's message was not stored");
      await readAll(await send(windows[1].transport, chatMessage('u-b', 'From window B')));
      const afterB = await store.load(sessionId);
      const byId = new Map(afterB.nodes.map((n) => [n.id, n]));
      assert.equal(byId.get('u-b').parentId, answerA.id, "B's message follows A's answer");
      await settle(windows[1].controller);
    });

    it('two controllers of one session run one compaction: the second joins it (one summary, none discarded as stale)', async () => {
      const { store, sessionId } = await storeWith(linearSession(8));
      const gated = gatedSummarizer(validSummary('shared'));
      const other = scriptedSummarizer(() => validSummary('other'));
      const a = new CompactionController({ store, sessionId, model: MODEL, summarize: gated.summarize });
      const b = new CompactionController({ store, sessionId, model: MODEL, summarize: other.summarize });
      const first = a.compact('manual');
      await gated.started;
      assert.equal(b.busy, true, 'B sees the compaction A runs');
      assert.equal(b.can('retry'), false);
      const second = b.compact('manual');
      gated.release();
      const [outA, outB] = await Promise.all([first, second]);
      assert.equal(outA.status, 'committed');
      assert.equal(outB, outA, 'the same outcome');
      assert.equal(other.calls.length, 0, "B's summarizer was never called");
    });

    it("closing one window cancels only its own controller's compaction, never another window's", async () => {
      const { store, sessionId } = await storeWith(linearSession(8));
      const gated = gatedSummarizer(validSummary('shared'));
      const a = new CompactionController({ store, sessionId, model: MODEL, summarize: gated.summarize });
      const b = new CompactionController({ store, sessionId, model: MODEL, summarize: () => validSummary('other') });
      const first = a.compact('manual');
      await gated.started;
      assert.equal(b.cancel('window B closed'), false, "B did not start it: nothing of B's to cancel");
      gated.release();
      assert.equal((await first).status, 'committed', "A's compaction goes on");
    });

    it('Stop during streaming: the stored partial answer has metadata.aborted; a finished one finishReason stop; a stream error finishReason error', async () => {
      const { store, sessionId } = await storeWith(linearSession(2));
      const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: scriptedSummarizer().summarize });
      const gate = deferred();
      const stop = new AbortController();
      const stopped = transportFor({ store, sessionId, controller, model: holding('The first half', gate.promise) });
      const reading = readAll(await send(stopped, chatMessage('u-stop', 'Tell me everything'), stop.signal));
      await new Promise((r) => setTimeout(r, 20));
      stop.abort();
      const partial = await reading;
      await settle(controller);
      let session = await store.load(sessionId);
      const storedPartial = session.nodes.find((n) => n.id === partial.id);
      assert.ok(storedPartial, 'the partial answer is stored');
      assert.match(storedPartial.parts.find((p) => p.type === 'text').text, /^The first half/);
      assert.equal(storedPartial.metadata?.aborted, true);

      await readAll(await send(transportFor({ store, sessionId, controller, model: answering('Done.') }), chatMessage('u-ok', 'Short one')));
      await settle(controller);
      session = await store.load(sessionId);
      const finished = session.nodes.find((n) => n.id === session.leafId);
      assert.equal(finished.metadata.finishReason, 'stop');
      assert.equal(finished.metadata.aborted, undefined);

      await readAll(await send(transportFor({ store, sessionId, controller, model: failing() }), chatMessage('u-err', 'Again')));
      await settle(controller);
      session = await store.load(sessionId);
      const cut = session.nodes.find((n) => n.parentId === 'u-err');
      assert.ok(cut, 'the partial answer of a failed stream is stored');
      assert.equal(cut.metadata.finishReason, 'error');
      assert.equal(cut.metadata.aborted, undefined);
    });
  });
}
