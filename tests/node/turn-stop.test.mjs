// What the transport does for any app when a turn is cut from outside or fails (issue 33): close()
// and the unload of the turn's window stop it as Stop does; a resend of the stored, unanswered
// question answers it in place; a `system` function is asked at each turn and counted.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, MODEL, linearSession, storeWith, scriptedSummarizer } from './runner-fixtures.mjs';

const { CompactionController, CompactionChatTransport } = compaction;

const sdks = [];
for (const [name, spec, Mock, v3] of [['ai@5', 'ai', 'MockLanguageModelV2', false], ['ai@6', 'ai6', 'MockLanguageModelV3', true], ['ai@7', 'ai7', 'MockLanguageModelV4', true]]) {
  sdks.push({ name, ai: await import(spec), test: await import(`${spec}/test`), Mock, v3 });
}

const chatMessage = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const textOf = (node) => node.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
const tick = (ms = 10) => new Promise((r) => setTimeout(r, ms));

/** A window as the transport sees one: its own AbortController and an unload to fire. */
function fakeWindow() {
  const listeners = new Set();
  return {
    closed: false,
    AbortController,
    addEventListener: (type, fn) => type === 'unload' && listeners.add(fn),
    removeEventListener: (type, fn) => listeners.delete(fn),
    unload() {
      for (const fn of [...listeners]) fn();
      this.closed = true;
    },
    listeners,
  };
}

for (const sdk of sdks) {
  const Mock = sdk.test[sdk.Mock];
  const finishReason = (r) => (sdk.v3 ? { unified: r, raw: r } : r);
  const usage = sdk.v3
    ? { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 2, text: 2, reasoning: undefined } }
    : { inputTokens: 10, outputTokens: 2, totalTokens: 12 };
  const answerParts = (text) => [
    { type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: text },
    { type: 'text-end', id: 't1' }, { type: 'finish', finishReason: finishReason('stop'), usage },
  ];
  /** A model scripted per call: 'answer', 'throw' (before any token), 'cut' (an error mid-answer), 'hold' (waits for the abort). */
  const scripted = (plan) => {
    const seen = { aborts: 0 };
    const model = new Mock({
      doStream: async ({ abortSignal }) => {
        const step = plan.shift() ?? 'answer';
        if (step === 'throw') throw new Error('Too Many Requests (429)');
        if (step === 'cut') {
          return { stream: sdk.test.convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't1' }, { type: 'text-delta', id: 't1', delta: 'Half' },
            { type: 'error', error: new Error('the connection dropped') },
          ]) };
        }
        if (step === 'hold') {
          return { stream: new ReadableStream({
            start(c) {
              c.enqueue({ type: 'stream-start', warnings: [] });
              c.enqueue({ type: 'text-start', id: 't1' });
              c.enqueue({ type: 'text-delta', id: 't1', delta: 'Shown before the stop' });
              abortSignal?.addEventListener('abort', () => {
                seen.aborts++;
                // Like a stream whose window is gone: it never settles after the abort.
              });
            },
          }) };
        }
        return { stream: sdk.test.convertArrayToReadableStream(answerParts('An answer.')) };
      },
    });
    return { model, seen };
  };
  const setup = async ({ plan = [], globals, system } = {}) => {
    const { store, sessionId } = await storeWith(linearSession(2));
    const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: scriptedSummarizer().summarize });
    const { model, seen } = scripted(plan);
    const transport = new CompactionChatTransport({
      controller, globals, system,
      streamResponse: async ({ messages, abortSignal, system: sys }) =>
        sdk.ai.streamText({ model, system: sys, messages: await sdk.ai.convertToModelMessages(messages), abortSignal }),
    });
    return { store, sessionId, controller, model, seen, transport };
  };
  const send = (transport, message, abortSignal) =>
    transport.sendMessages({ trigger: 'submit-message', chatId: 'c', messageId: undefined, messages: [message], abortSignal });
  /** Reads the UI message stream; `{ last, error }`. */
  async function readAll(stream) {
    let last;
    let error;
    for await (const message of sdk.ai.readUIMessageStream({ stream, onError: (e) => (error = e) })) last = message;
    return { last, error };
  }
  const settle = async (controller) => {
    await tick(5);
    while (controller.busy) await tick(2);
  };
  const promptOf = (model, call) => JSON.stringify(model.doStreamCalls[call].prompt);

  describe(`turn stop and unanswered questions with ${sdk.name}`, () => {
    it('close() while an answer streams: the request is aborted, the app\'s read ends, the partial answer it was shown is stored with metadata.aborted, the session is free; later sends reject closed', async () => {
      const { store, sessionId, controller, seen, transport } = await setup({ plan: ['hold'] });
      const reading = readAll(await send(transport, chatMessage('u-1', 'Tell me everything')));
      await tick(30);
      await transport.close('the pane closed');
      const { last } = await reading;
      assert.equal(seen.aborts, 1, 'the model request saw its abort');
      const session = await store.load(sessionId);
      const leaf = session.nodes.find((n) => n.id === session.leafId);
      assert.equal(leaf.role, 'assistant');
      assert.equal(leaf.parentId, 'u-1');
      assert.equal(textOf(leaf), 'Shown before the stop');
      assert.equal(leaf.metadata.aborted, true);
      assert.equal(last.id, leaf.id, 'the stored answer is the one the app showed');
      await assert.rejects(send(transport, chatMessage('u-2', 'More?')), { code: 'closed' });
      const other = new CompactionChatTransport({
        controller,
        streamResponse: async ({ messages }) => sdk.ai.streamText({ model: scripted([]).model, messages: await sdk.ai.convertToModelMessages(messages) }),
      });
      await readAll(await send(other, chatMessage('u-3', 'Another window asks')));
      assert.equal((await store.load(sessionId)).nodes.some((n) => n.id === 'u-3'), true, 'not turn-in-flight');
      await settle(controller);
    });

    // Issue 43.1: useChat's Stop aborts the request and cancels its stream reader; the answer the page
    // showed is stored once, marked metadata.aborted, and the session is free for the next send.
    for (const [how, stop] of [
      ['useChat\'s Stop (the abort signal, then the reader cancelled)', async (abort, reader) => { abort.abort(); await reader.cancel(); }],
      ['the reader cancelled alone', async (_abort, reader) => { await reader.cancel(); }],
    ]) {
      it(`${how}: the partial answer the page showed is stored once with metadata.aborted; the next send follows it`, async () => {
        const { store, sessionId, controller, seen, transport } = await setup({ plan: ['hold'] });
        const abort = new AbortController();
        const reader = (await send(transport, chatMessage('u-1', 'Tell me everything'), abort.signal)).getReader();
        let shown = '';
        while (!shown.includes('Shown before the stop')) {
          const { value, done } = await reader.read();
          assert.equal(done, false, 'the stream did not end before the stop');
          if (value.type === 'text-delta') shown += value.delta;
        }
        await stop(abort, reader);
        await tick(20);
        const session = await store.load(sessionId);
        const answers = session.nodes.filter((n) => n.role === 'assistant' && n.parentId === 'u-1');
        assert.equal(answers.length, 1, 'stored once');
        assert.equal(textOf(answers[0]), 'Shown before the stop');
        assert.equal(answers[0].metadata.aborted, true);
        assert.equal(session.leafId, answers[0].id);
        assert.ok(seen.aborts >= 1, 'the model request saw its abort');
        const next = await readAll(await send(transport, chatMessage('u-2', 'Go on')));
        assert.equal(textOf(next.last), 'An answer.');
        const after = await store.load(sessionId);
        assert.equal(after.nodes.find((n) => n.id === 'u-2').parentId, answers[0].id, 'the next question follows the stopped answer');
        await settle(controller);
      });
    }

    it('the unload of the window the turn took its globals from stops it the same way, with no close() from the app', async () => {
      const win = fakeWindow();
      const { store, sessionId, controller, seen, transport } = await setup({ plan: ['hold'], globals: () => win });
      const reading = readAll(await send(transport, chatMessage('u-1', 'Tell me everything')));
      await tick(30);
      win.unload();
      await reading;
      await tick(20);
      assert.equal(seen.aborts, 1);
      const session = await store.load(sessionId);
      const leaf = session.nodes.find((n) => n.id === session.leafId);
      assert.equal(leaf.metadata.aborted, true);
      assert.equal(win.listeners.size, 0, 'the listener is removed once the turn ended');
      await settle(controller);
    });

    it('a finished turn leaves nothing to stop: close() resolves at once and the answer is untouched', async () => {
      const win = fakeWindow();
      const { store, sessionId, controller, transport } = await setup({ globals: () => win });
      await readAll(await send(transport, chatMessage('u-1', 'Short one')));
      await settle(controller);
      assert.equal(win.listeners.size, 0);
      const before = JSON.stringify(await store.load(sessionId));
      await transport.close();
      assert.equal(JSON.stringify(await store.load(sessionId)), before);
    });

    it('a 429 before any token leaves the question stored; the same question again (a new id) is answered in place, sent once', async () => {
      const { store, sessionId, controller, model, transport } = await setup({ plan: ['throw'] });
      const failed = await readAll(await send(transport, chatMessage('u-1', 'Which corpora?')));
      assert.ok(failed.error, 'the stream reports the failure');
      assert.equal((await store.load(sessionId)).leafId, 'u-1', 'the question is stored, unanswered');
      await readAll(await send(transport, chatMessage('u-1-again', 'Which corpora?')));
      await settle(controller);
      const session = await store.load(sessionId);
      assert.equal(session.nodes.filter((n) => n.role === 'user' && textOf(n) === 'Which corpora?').length, 1);
      assert.equal(session.nodes.some((n) => n.id === 'u-1-again'), false);
      assert.equal(session.nodes.find((n) => n.id === session.leafId).parentId, 'u-1', 'answered under the stored question');
      const prompt = promptOf(model, model.doStreamCalls.length - 1);
      assert.equal(prompt.split('Which corpora?').length - 1, 1, 'the model gets the question once');
    });

    it('an answer cut by a stream error: the same question again is answered under the same message, the cut reply kept as a sibling', async () => {
      const { store, sessionId, controller, transport } = await setup({ plan: ['cut'] });
      await readAll(await send(transport, chatMessage('u-1', 'How large?')));
      await settle(controller);
      const cut = (await store.load(sessionId)).nodes.find((n) => n.parentId === 'u-1');
      assert.equal(cut.metadata.finishReason, 'error');
      await readAll(await send(transport, chatMessage('u-1b', 'How large?')));
      await settle(controller);
      const session = await store.load(sessionId);
      const answers = session.nodes.filter((n) => n.parentId === 'u-1');
      assert.equal(answers.length, 2, 'the cut reply and the new answer, siblings');
      assert.equal(session.nodes.find((n) => n.id === session.leafId).parentId, 'u-1');
      assert.equal(session.nodes.some((n) => n.id === 'u-1b'), false);
    });

    it('a different question after an unanswered one is stored after it, and the model receives both in a row', async () => {
      const { store, sessionId, controller, model, transport } = await setup({ plan: ['throw'] });
      await readAll(await send(transport, chatMessage('u-1', 'Left unanswered')));
      await readAll(await send(transport, chatMessage('u-2', 'A new question')));
      await settle(controller);
      const session = await store.load(sessionId);
      assert.equal(session.nodes.find((n) => n.id === 'u-2').parentId, 'u-1');
      const prompt = promptOf(model, model.doStreamCalls.length - 1);
      assert.ok(prompt.indexOf('Left unanswered') < prompt.indexOf('A new question') && prompt.includes('Left unanswered'));
    });

    it('a system function is asked at each turn, its text reaches the model and counts: one larger than the window is too-large, nothing stored', async () => {
      let context = 'The item: Sampling frames.';
      const { store, sessionId, controller, model, transport } = await setup({ system: async () => `Instructions. ${context}` });
      await readAll(await send(transport, chatMessage('u-1', 'What is it about?')));
      await settle(controller);
      assert.equal(model.doStreamCalls[0].prompt[0].content, 'Instructions. The item: Sampling frames.');
      context = 'The item: Corpus sizes.';
      await readAll(await send(transport, chatMessage('u-2', 'And now?')));
      await settle(controller);
      assert.equal(model.doStreamCalls[1].prompt[0].content, 'Instructions. The item: Corpus sizes.');
      context = Array.from({ length: 12_000 }, (_, i) => `word${i}`).join(' ');
      const before = JSON.stringify(await store.load(sessionId));
      await assert.rejects(send(transport, chatMessage('u-3', 'Too much?')), { code: 'too-large' });
      assert.equal(JSON.stringify(await store.load(sessionId)), before);
      assert.equal(model.doStreamCalls.length, 2);
    });
  });
}
