// CompactionChatTransport (the chat turn) against the AI SDK itself, v5, v6 and v7, with the SDK's
// mock models: the user message is persisted once, the model sees the projection (summary first
// after a compaction), only the response is persisted (ids and usage set), regenerate is a retry.
// Also the controller's side of it: a draft already stored is not sent twice (issue 15, bug 1).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, MODEL, SMALL_MODEL, linearSession, storeWith, scriptedSummarizer, validSummary } from './runner-fixtures.mjs';
import { answeringModel, sdks } from './ai-sdks.mjs';

const { CompactionController, CompactionChatTransport } = compaction;


/** A user message as useChat makes it (no parentId). */
const chatMessage = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** The texts of the model prompt's messages, by role. */
const promptTexts = (call) =>
  call.prompt.map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('')}`);

for (const sdk of sdks) {
  const answering = (/** @type {string} */ text) => answeringModel(sdk, text, sdk.usage(321, 12));

  /** A session, its controller and a transport whose model answers `text`. */
  async function setup({ session = linearSession(2), model = MODEL, text = 'Three more papers.', ids } = {}) {
    const { store, sessionId } = await storeWith(session);
    const { summarize, calls } = scriptedSummarizer(() => validSummary());
    const statuses = [];
    const controller = new CompactionController({ store, sessionId, model, summarize, onStatus: (s) => statuses.push(s) });
    const languageModel = answering(text);
    let n = 0;
    const transport = new CompactionChatTransport({
      controller,
      generateMessageId: ids ?? (() => `resp-${++n}`),
      streamResponse: async ({ messages, abortSignal }) =>
        sdk.ai.streamText({ model: languageModel, messages: await sdk.ai.convertToModelMessages(messages), abortSignal }),
    });
    return { store, sessionId, controller, transport, languageModel, summarizerCalls: calls, statuses };
  }

  /** Reads the stream as useChat would, to its last message state. */
  async function readAll(stream) {
    let last;
    for await (const message of sdk.ai.readUIMessageStream({ stream })) last = message;
    return last;
  }

  const send = (transport, messages, trigger = 'submit-message') =>
    transport.sendMessages({ trigger, chatId: 'chat-1', messageId: undefined, messages, abortSignal: undefined });

  describe(`CompactionChatTransport with ${sdk.name}`, () => {
    it('persists the user message once and only the response, with its id and usage', async () => {
      const { store, sessionId, transport, languageModel, controller } = await setup();
      const before = await store.load(sessionId);
      const question = chatMessage('u-new', 'Which of them use corpus data?');
      const streamed = await readAll(await send(transport, [question]));
      assert.equal(streamed.id, 'resp-1');
      assert.equal(streamed.parts.find((p) => p.type === 'text').text, 'Three more papers.');
      const after = await store.load(sessionId);
      assert.deepEqual(after.nodes.slice(before.nodes.length).map((n) => [n.id, n.role, n.parentId]), [
        ['u-new', 'user', before.leafId],
        ['resp-1', 'assistant', 'u-new'],
      ]);
      assert.equal(after.leafId, 'resp-1');
      assert.equal(after.nodes.at(-1).metadata.usage.inputTokens, 321, 'usage recorded for the next estimate');
      const prompt = promptTexts(languageModel.doStreamCalls[0]);
      assert.equal(prompt.filter((t) => t.includes('Which of them use corpus data?')).length, 1);
      assert.equal(prompt.length, before.nodes.length + 1);
      while (controller.busy) await new Promise((r) => setTimeout(r, 1)); // afterTurn ran
    });

    it("the controller's now option alone (no cache profile) is its clock and the stored response's createdAt (issue 43.5)", async () => {
      const { store, sessionId } = await storeWith(linearSession(2));
      const { summarize } = scriptedSummarizer(() => validSummary());
      const at = 1_700_000_000_000;
      const controller = new CompactionController({ store, sessionId, model: MODEL, summarize, now: () => at });
      assert.equal(controller.now(), at);
      const transport = new CompactionChatTransport({
        controller,
        generateMessageId: () => 'resp-now',
        streamResponse: async ({ messages, abortSignal }) =>
          sdk.ai.streamText({ model: answering('Dated.'), messages: await sdk.ai.convertToModelMessages(messages), abortSignal }),
      });
      await readAll(await send(transport, [chatMessage('u-now', 'When?')]));
      const stored = (await store.load(sessionId)).nodes.find((node) => node.id === 'resp-now');
      assert.equal(stored.createdAt, at);
    });

    it('a message persisted before the turn ("save first") is sent and stored once', async () => {
      const { store, sessionId, transport, languageModel } = await setup();
      const question = chatMessage('u-saved', 'Saved before sending.');
      await store.appendMessage(sessionId, question);
      const count = (await store.load(sessionId)).nodes.length;
      await readAll(await send(transport, [question]));
      const after = await store.load(sessionId);
      assert.equal(after.nodes.length, count + 1, 'only the response was added');
      assert.equal(after.nodes.filter((n) => n.id === 'u-saved').length, 1);
      const prompt = promptTexts(languageModel.doStreamCalls[0]);
      assert.equal(prompt.filter((t) => t.includes('Saved before sending.')).length, 1, 'the model sees it once');
    });

    it('compacts first when the turn would not fit: the model sees the summary first, the store gets no summary message', async () => {
      const { store, sessionId, transport, languageModel, summarizerCalls, statuses } = await setup({ session: linearSession(6), model: SMALL_MODEL });
      const users = (s) => s.nodes.filter((n) => n.role === 'user' && !('checkpoint' in n)).length;
      const before = await store.load(sessionId);
      await readAll(await send(transport, [chatMessage('u-big', 'And the follow-up study?')]));
      assert.equal(summarizerCalls.length, 1, 'one compaction');
      const compacting = statuses.find((s) => s.status === 'compacting');
      assert.equal(compacting.mode, 'preflight');
      assert.ok(compacting.foldedMessages > 0, 'messages folded in');
      assert.ok(compacting.tokensBefore > compacting.tokensAfterEstimate, `${compacting.tokensBefore} -> ${compacting.tokensAfterEstimate}`);
      const prompt = promptTexts(languageModel.doStreamCalls[0]);
      assert.match(prompt[0], /Research Goal/, 'the summary message comes first');
      assert.ok(prompt.length < before.nodes.length + 1, 'older messages were folded');
      const after = await store.load(sessionId);
      assert.equal(users(after), users(before) + 1, 'one new user message, no summary stored as a user message');
      assert.equal(after.nodes.at(-1).role, 'assistant');
    });

    it('a draft too large to send rejects with code too-large and persists nothing', async () => {
      const { store, sessionId, transport, languageModel } = await setup({ model: SMALL_MODEL });
      const before = JSON.stringify(await store.load(sessionId));
      const huge = chatMessage('u-huge', Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' '));
      await assert.rejects(send(transport, [huge]), (error) => error.code === 'too-large' && error.result.draft === huge);
      assert.equal(JSON.stringify(await store.load(sessionId)), before);
      assert.equal(languageModel.doStreamCalls.length, 0);
    });

    it('after a refused turn, storedMessages() is the stored branch as useChat holds it (no draft, no checkpoint) and error.draft the message to put back (issue 43.2)', async () => {
      const { store, sessionId, controller, transport } = await setup({ model: SMALL_MODEL, session: linearSession(4, 30) });
      await controller.compact('manual');
      const huge = chatMessage('u-huge', Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' '));
      const pageList = [...(await transport.storedMessages()), huge]; // what useChat shows after sendMessage
      await assert.rejects(send(transport, pageList), (error) => error.code === 'too-large' && error.draft === huge);
      const restored = await transport.storedMessages();
      const branch = compaction.history(await store.load(sessionId)).filter((node) => !compaction.isCheckpoint(node));
      assert.deepEqual(restored.map((m) => m.id), branch.map((n) => n.id));
      assert.ok(restored.length > 0 && !restored.some((m) => m.id === 'u-huge' || 'checkpoint' in m || 'parentId' in m));
      assert.ok((await store.load(sessionId)).nodes.some((n) => 'checkpoint' in n), 'the session has a checkpoint, which the list leaves out');
      // A refusal at the store's door carries the draft too.
      const bad = { id: 'u-bad', role: 'user', parts: [{ type: 'text' }] };
      await assert.rejects(send(transport, [bad]), (error) => error.code === 'invalid-node' && error.draft === bad);
    });

    it("useChat's edit (sendMessage({ text, messageId })) stores a sibling of the edited question, keeps the old branch, answers the new text; regenerate then retries the edit (issue 43.2)", async () => {
      const { store, sessionId, transport, languageModel } = await setup();
      const q1 = chatMessage('u-1', 'Which papers measure digestibility?');
      const a1 = await readAll(await send(transport, [q1]));
      const q2 = chatMessage('u-2', 'And in cats?');
      await readAll(await send(transport, [q1, a1, q2]));
      // useChat rewrites u-1 in place (same id), drops what followed, and sends with messageId.
      const edited = chatMessage('u-1', 'Which papers measure protein digestibility in dogs?');
      const stream = await transport.sendMessages({ trigger: 'submit-message', chatId: 'chat-1', messageId: 'u-1', messages: [edited], abortSignal: undefined });
      const answer = await readAll(stream);
      const after = await store.load(sessionId);
      const byId = new Map(after.nodes.map((n) => [n.id, n]));
      const original = byId.get('u-1');
      assert.equal(original.parts[0].text, 'Which papers measure digestibility?', 'the old question is kept');
      assert.ok(byId.has('u-2'), 'the old branch is kept');
      const edits = after.nodes.filter((n) => n.role === 'user' && n.parentId === original.parentId && n.id !== 'u-1');
      assert.equal(edits.length, 1, 'one sibling of the edited question');
      assert.equal(edits[0].parts[0].text, edited.parts[0].text);
      assert.equal(byId.get(after.leafId).parentId, edits[0].id, 'the answer is under the edit');
      assert.equal(answer.id, after.leafId);
      const prompt = JSON.stringify(languageModel.doStreamCalls.at(-1).prompt);
      assert.ok(prompt.includes('protein digestibility in dogs') && !prompt.includes('And in cats?'), 'the model got the edited branch');
      // Regenerate from the page (its message still has id u-1): a new answer under the edit.
      await readAll(await send(transport, [edited], 'regenerate-message'));
      const regenerated = await store.load(sessionId);
      assert.equal(regenerated.nodes.filter((n) => n.role === 'assistant' && n.parentId === edits[0].id).length, 2);
      // The same message with its stored parts is a resend, not an edit: nothing new under u-1's parent.
      const count = regenerated.nodes.length;
      await assert.rejects(transport.sendMessages({ trigger: 'submit-message', chatId: 'chat-1', messageId: 'u-1', messages: [q1], abortSignal: undefined }), { code: 'draft-already-stored' });
      assert.equal((await store.load(sessionId)).nodes.length, count);
    });

    it('regenerate answers the same user message again as a sibling response (retry)', async () => {
      const { store, sessionId, transport } = await setup();
      const question = chatMessage('u-q', 'Summarize the second paper.');
      await readAll(await send(transport, [question]));
      await readAll(await send(transport, [question], 'regenerate-message'));
      const after = await store.load(sessionId);
      const responses = after.nodes.filter((n) => n.parentId === 'u-q').map((n) => n.id);
      assert.deepEqual(responses, ['resp-1', 'resp-2']);
      assert.equal(after.leafId, 'resp-2');
      assert.equal(after.nodes.filter((n) => n.id === 'u-q').length, 1);
    });

    it('an aborted request is cancelled before anything is stored or streamed', async () => {
      const { store, sessionId, transport, languageModel } = await setup();
      const before = JSON.stringify(await store.load(sessionId));
      const abortSignal = { aborted: true, addEventListener() {}, removeEventListener() {} };
      await assert.rejects(
        transport.sendMessages({ trigger: 'submit-message', chatId: 'chat-1', messageId: undefined, messages: [chatMessage('u-x', 'never')], abortSignal }),
        (error) => error.code === 'cancelled',
      );
      assert.equal(JSON.stringify(await store.load(sessionId)), before, 'nothing stored');
      assert.equal(languageModel.doStreamCalls.length, 0, 'the model was not asked');
    });

    it('the response is stored under the message it answers, though another window moved the leaf while it streamed', async () => {
      const { store, sessionId, controller } = await setup();
      let other;
      const languageModel = answering('Answer to the question.');
      const transport = new CompactionChatTransport({
        controller, generateMessageId: () => 'resp-mine',
        streamResponse: async ({ messages, abortSignal }) => {
          // Another window appends its own message while this request streams.
          other = await store.appendMessage(sessionId, chatMessage('u-other-window', 'A question from another window.'));
          return sdk.ai.streamText({ model: languageModel, messages: await sdk.ai.convertToModelMessages(messages), abortSignal });
        },
      });
      await readAll(await send(transport, [chatMessage('u-mine', 'My question.')]));
      const after = await store.load(sessionId);
      const byId = new Map(after.nodes.map((n) => [n.id, n]));
      assert.equal(byId.get('resp-mine').parentId, 'u-mine', 'the response answers the message the model saw');
      assert.equal(byId.get('u-other-window').parentId, 'u-mine');
      assert.ok(other);
      while (controller.busy) await new Promise((r) => setTimeout(r, 1));
    });

    it('a user message is refused with session-moved when another window answered after the projection was made', async () => {
      const { store, sessionId } = await setup();
      // A controller whose submit answers from a session that has moved on since (as when another
      // window appended between the preflight and the write).
      const stale = await store.load(sessionId);
      await store.appendMessage(sessionId, chatMessage('u-other', 'Another window.'));
      const controller = {
        store,
        sessionId,
        submit: async (draft) => ({ status: 'send', messages: [draft], draft, outcome: { status: 'noop', session: stale } }),
        afterTurn: () => Promise.resolve(null),
        cancel: () => false,
        can: () => true,
      };
      const languageModel = answering('unused');
      const transport = new CompactionChatTransport({
        controller,
        streamResponse: async ({ messages }) => sdk.ai.streamText({ model: languageModel, messages: await sdk.ai.convertToModelMessages(messages) }),
      });
      const before = JSON.stringify(await store.load(sessionId));
      await assert.rejects(send(transport, [chatMessage('u-late', 'Late.')]), (error) => error.code === 'session-moved');
      assert.equal(JSON.stringify(await store.load(sessionId)), before, 'nothing stored');
      assert.equal(languageModel.doStreamCalls.length, 0, 'the model was not asked');
    });

    it('reconnectToStream resolves null (nothing to resume in-process)', async () => {
      const { transport } = await setup();
      assert.equal(await transport.reconnectToStream({ chatId: 'chat-1' }), null);
    });
  });
}

describe('controller.submit with a draft already in the session', () => {
  it('the stored leaf is used, not appended again', async () => {
    const { store, sessionId } = await storeWith(linearSession(2));
    const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: scriptedSummarizer().summarize });
    const draft = chatMessage('u-saved', 'persisted first');
    await store.appendMessage(sessionId, draft);
    const result = await controller.submit(draft);
    assert.equal(result.status, 'send');
    assert.equal(result.stored, true);
    const ids = result.messages.map((m) => m.id);
    assert.deepEqual(ids, ['U1', 'A1', 'U2', 'A2', 'u-saved'], 'u-saved once, last');
  });

  it('a draft whose id is elsewhere in the session is refused with draft-already-stored', async () => {
    const { store, sessionId } = await storeWith(linearSession(2));
    const controller = new CompactionController({ store, sessionId, model: MODEL, summarize: scriptedSummarizer().summarize });
    const old = (await store.load(sessionId)).nodes.find((n) => n.id === 'U2');
    const result = await controller.submit(old);
    assert.equal(result.status, 'failed');
    assert.equal(result.reason, 'draft-already-stored');
    assert.equal(result.draft, old);
    assert.match(result.message, /U2/);
  });
});
