// Issue 23, items 1 and 2, through the packed package's public exports: the message being answered
// always reaches the model verbatim (a question saved before submit, a regenerate, an edit made with
// store.edit, a continuation with a client-side tool result), and an interrupted tool call (a
// response cut by Stop or an error, or a tool call a newer user message follows) does not block
// compaction. The controller on all three stores; the chat transport on ai 5, 6 and 7 with the SDK's
// mock models. The transport's own writing of the cut mark is not tested here: the mark
// (`metadata.aborted` / `metadata.finishReason`) is written on the stored messages directly.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compaction, scriptedSummarizer, validSummary } from './runner-fixtures.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';
import { answeringModel, sdks } from './ai-sdks.mjs';

const { CompactionController, CompactionChatTransport, MemoryStore, SqliteStore, ZoteroDBStore, estimateMessage, editTarget, plan } = compaction;

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-answered-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const stores = [
  { name: 'MemoryStore', open: () => ({ store: new MemoryStore(), close: async () => {} }) },
  {
    name: 'SqliteStore',
    open: () => {
      const store = new SqliteStore(Database, join(dir, `s-${++files}.sqlite`));
      return { store, close: () => store.close() };
    },
  },
  {
    name: 'ZoteroDBStore',
    open: () => {
      const connection = new ZoteroDBConnectionShim(Database, join(dir, `z-${++files}.sqlite`));
      return { store: new ZoteroDBStore(connection), close: () => connection.closeDatabase() };
    },
  },
];

const MODEL_16K = Object.freeze({ id: 'test-16k', contextWindow: 16_384 });
const SENTENCE = 'Which of the membrane studies report salt rejection above ninety percent? ';
const perSentence = estimateMessage({ id: 'x', role: 'user', parts: [{ type: 'text', text: SENTENCE.repeat(100) }] }) / 100;
/** About `n` estimated tokens of research prose, ending with `tag` so a prompt can be searched for it. */
const prose = (n, tag = '') => SENTENCE.repeat(Math.ceil(n / perSentence)) + tag;

const user = (id, parentId, text) => ({ id, parentId, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id, parentId, text) => ({ id, parentId, role: 'assistant', parts: [{ type: 'text', text }] });
/** A chat message as useChat holds it (no parentId). */
const chat = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** Twelve turns of about 1,000 tokens: over the 16k model's safe limit with a 4.5k question. */
function fullSession() {
  const nodes = [];
  let parent = null;
  for (let t = 1; t <= 12; t++) {
    nodes.push(user(`U${t}`, parent, prose(300, ` turn ${t}`)), assistant(`A${t}`, `U${t}`, prose(700)));
    parent = `A${t}`;
  }
  return { nodes, leafId: parent, branchRevision: 24 };
}

/** An assistant message whose tool call was left in `state`, with the transport's mark in `metadata`. */
function toolCall(id, parentId, state, metadata) {
  const part = { type: 'tool-zoteroSearch', toolCallId: `call-${id}`, state, input: { q: 'graphene' } };
  if (state.startsWith('approval')) part.approval = { id: `ap-${id}` };
  return { id, parentId, role: 'assistant', parts: [{ type: 'step-start' }, part], ...(metadata ? { metadata } : {}) };
}

const withoutParent = ({ parentId, ...rest }) => rest;
const checkpointsOf = (session) => session.nodes.filter((n) => 'checkpoint' in n);

for (const backend of stores) {
  async function open(session) {
    const handle = backend.open();
    const { sessionId } = await handle.store.importSession(session, { sessionId: 'pane-1' });
    const { summarize, calls } = scriptedSummarizer(() => validSummary());
    const controller = new CompactionController({ store: handle.store, sessionId, model: MODEL_16K, summarize });
    return { ...handle, sessionId, controller, summarizerCalls: calls };
  }

  describe(`the message being answered reaches the model verbatim (${backend.name})`, () => {
    it('a 4.5k-token question saved before submit is sent byte-identical after the preflight compaction', async () => {
      const { store, sessionId, controller, close } = await open(fullSession());
      const question = chat('Q', prose(4_500, ' QUESTION-MARKER'));
      assert.ok(estimateMessage(question) >= 4_400);
      await store.appendMessage(sessionId, question);
      const stored = (await store.load(sessionId)).nodes.find((n) => n.id === 'Q');
      const result = await controller.submit(question);
      assert.equal(result.status, 'send', result.reason);
      assert.equal(result.stored, true);
      assert.equal(JSON.stringify(result.messages.at(-1)), JSON.stringify(stored), 'the request ends with the stored question');
      const [checkpoint] = checkpointsOf(await store.load(sessionId));
      assert.equal(checkpoint.checkpoint.firstKeptMessageId, 'Q', 'the question is kept, not folded into the checkpoint');
      await close();
    });

    it('an unsaved question of the same size is sent verbatim too', async () => {
      const { controller, close } = await open(fullSession());
      const question = chat('Q', prose(4_500, ' QUESTION-MARKER'));
      const result = await controller.submit(question);
      assert.equal(result.status, 'send', result.reason);
      assert.equal(result.messages.at(-1), question);
      await close();
    });

    it('an edit made with store.edit is the draft of the next send, whatever its size', async () => {
      const { store, sessionId, controller, close } = await open(fullSession());
      const target = editTarget(await store.load(sessionId));
      const edited = chat('U12-edited', prose(4_500, ' EDITED-MARKER'));
      await store.edit(sessionId, target.parentId, edited);
      const result = await controller.submit(edited);
      assert.equal(result.status, 'send', result.reason);
      assert.deepEqual(withoutParent(result.messages.at(-1)), edited);
      await close();
    });

    it('a continuation keeps its whole turn: the user message, the tool call and its 4k-token result', async () => {
      const session = fullSession();
      session.nodes.push(user('U13', 'A12', 'Fetch the full text of the 2019 review.'));
      const result = { type: 'tool-fetchFullText', toolCallId: 'call-1', state: 'output-available', input: { key: 'ABCD2345' }, output: { text: prose(4_000, ' RESULT-MARKER') } };
      session.nodes.push({ id: 'A13', parentId: 'U13', role: 'assistant', parts: [{ type: 'step-start' }, result] });
      session.leafId = 'A13';
      const { store, sessionId, controller, close } = await open(session);
      const continued = (await store.load(sessionId)).nodes.find((n) => n.id === 'A13');
      const sent = await controller.submit(continued);
      assert.equal(sent.status, 'send', sent.reason);
      assert.deepEqual(sent.messages.slice(-2).map((m) => m.id), ['U13', 'A13']);
      assert.equal(JSON.stringify(sent.messages.at(-1)), JSON.stringify(continued));
      await close();
    });

    it('a stored question that cannot fit even alone is too-large and nothing is written', async () => {
      const { store, sessionId, controller, summarizerCalls, close } = await open(fullSession());
      const question = chat('Q', prose(16_000));
      await store.appendMessage(sessionId, question);
      const before = JSON.stringify(await store.load(sessionId));
      const result = await controller.submit(question);
      assert.equal(result.status, 'too-large');
      assert.equal(result.draft, question);
      assert.equal(summarizerCalls.length, 0);
      assert.equal(JSON.stringify(await store.load(sessionId)), before);
      await close();
    });

    it('the stateless plan treats the stored leaf question as the draft', async () => {
      const { store, sessionId, close } = await open(fullSession());
      await store.appendMessage(sessionId, chat('Q', prose(4_500)));
      const p = plan(await store.load(sessionId), MODEL_16K, { mode: 'preflight' });
      assert.equal(p.send, 'after-compaction');
      assert.equal(p.firstKeptMessageId, 'Q');
      assert.ok(!p.summarizeIds.includes('Q'));
      await close();
    });
  });

  describe(`an interrupted tool call does not block compaction (${backend.name})`, () => {
    /** The full session with a turn whose response was cut during a tool call, `turnsAfter` turns before the leaf. */
    function withCutTurn(state, metadata, turnsAfter) {
      const session = fullSession();
      session.nodes.push(user('UT', session.leafId, 'search the library'), toolCall('AT', 'UT', state, metadata));
      let parent = 'AT';
      for (let t = 0; t < turnsAfter; t++) {
        session.nodes.push(user(`UX${t}`, parent, prose(1_500)), assistant(`AX${t}`, `UX${t}`, prose(1_500)));
        parent = `AX${t}`;
      }
      session.leafId = parent;
      return session;
    }

    for (const [label, metadata] of [['cut by Stop (metadata.aborted)', { aborted: true }], ["cut by an error (finishReason 'error')", { finishReason: 'error' }]]) {
      it(`a response ${label} in input-streaming: a manual compaction commits`, async () => {
        const { controller, store, sessionId, close } = await open(withCutTurn('input-streaming', metadata, 0));
        const outcome = await controller.compact('manual');
        assert.equal(outcome.status, 'committed', `${outcome.status} ${outcome.reason}`);
        assert.equal(checkpointsOf(await store.load(sessionId)).length, 1);
        await close();
      });
    }

    it('an unmarked call in input-streaming two normal turns later: manual compaction commits and a send over the limit compacts', async () => {
      const { controller, summarizerCalls, close } = await open(withCutTurn('input-streaming', undefined, 2));
      const outcome = await controller.compact('manual');
      assert.equal(outcome.status, 'committed', `${outcome.status} ${outcome.reason}`);
      assert.ok(outcome.plan.summarizeIds.includes('AT'), 'the interrupted call is summarized');
      // The fold may take rounds (rule `fold-fits-the-summarizer`): one of them reads the call.
      const history = summarizerCalls.map((call) => call.request.history).join('\n');
      assert.match(history, /--- tool zoteroSearch \| call call-AT \| interrupted, no result ---/);
      const sent = await controller.submit(chat('Q2', prose(4_500)));
      assert.equal(sent.status, 'send', sent.reason);
      await close();
    });

    it('a call of the newest turn that can still complete still blocks (workflow-pending)', async () => {
      const { controller, close } = await open(withCutTurn('approval-requested', { finishReason: 'tool-calls' }, 0));
      const outcome = await controller.compact('manual');
      assert.deepEqual([outcome.status, outcome.reason], ['noop', 'workflow-pending']);
      await close();
    });

    it('the store updates a waiting tool call of the newest turn, never an interrupted one', async () => {
      const session = fullSession();
      session.nodes.push(user('UT', 'A12', 'search'), toolCall('AT', 'UT', 'input-available'), assistant('AT2', 'AT', 'meanwhile'));
      session.leafId = 'AT2';
      const { store, sessionId, close } = await open(session);
      const done = [{ type: 'tool-zoteroSearch', toolCallId: 'call-AT', state: 'output-available', input: { q: 'graphene' }, output: [] }];
      // Not the leaf, but its turn is the newest and it can still complete: updatable.
      const waiting = [{ type: 'tool-zoteroSearch', toolCallId: 'call-AT', state: 'input-available', input: { q: 'graphene membranes' } }];
      assert.deepEqual((await store.updateMessageParts(sessionId, 'AT', waiting)).node.parts, waiting);
      // A newer user message follows: interrupted.
      await store.appendMessage(sessionId, chat('U14', 'next'));
      const before = JSON.stringify(await store.load(sessionId));
      await assert.rejects(store.updateMessageParts(sessionId, 'AT', done), { code: 'not-updatable' });
      assert.equal(JSON.stringify(await store.load(sessionId)), before);
      // Cut: interrupted too, though still in the newest turn.
      const { store: other, sessionId: otherId, close: closeOther } = await open({
        nodes: [user('U1', null, 'q'), toolCall('A1', 'U1', 'input-available', { aborted: true }), assistant('A2', 'A1', 'x')],
        leafId: 'A2',
        branchRevision: 3,
      });
      await assert.rejects(other.updateMessageParts(otherId, 'A1', done), { code: 'not-updatable' });
      await closeOther();
      await close();
    });
  });
}

// ---- the chat transport, ai 5, 6 and 7 ----------------------------------------------------------

for (const sdk of sdks) {
  const answering = () => answeringModel(sdk, 'An answer.', sdk.usage(900, 12));

  async function setup(session) {
    const store = new MemoryStore();
    const { sessionId } = await store.importSession(session, { sessionId: 'chat-pane' });
    const controller = new CompactionController({ store, sessionId, model: MODEL_16K, summarize: scriptedSummarizer(() => validSummary()).summarize });
    const languageModel = answering();
    let n = 0;
    const transport = new CompactionChatTransport({
      controller, generateMessageId: () => `resp-${++n}`,
      streamResponse: async ({ messages, abortSignal }) =>
        sdk.ai.streamText({ model: languageModel, messages: await sdk.ai.convertToModelMessages(messages), abortSignal }),
    });
    const send = async (messages, trigger = 'submit-message') => {
      const stream = await transport.sendMessages({ trigger, chatId: 'c', messageId: undefined, messages, abortSignal: undefined });
      for await (const _ of sdk.ai.readUIMessageStream({ stream })); // eslint-disable-line no-unused-vars
      while (controller.busy) await new Promise((r) => setTimeout(r, 1));
    };
    /** The prompt of the model's `k`-th call, as text. */
    const prompt = (k) => JSON.stringify(languageModel.doStreamCalls[k].prompt);
    return { store, sessionId, send, prompt, languageModel };
  }

  describe(`CompactionChatTransport sends the message being answered verbatim (${sdk.name})`, () => {
    it('a question saved before the turn reaches the model after the preflight compaction', async () => {
      const { store, sessionId, send, prompt } = await setup(fullSession());
      const question = chat('Q', prose(4_500, ' QUESTION-MARKER'));
      await store.appendMessage(sessionId, question);
      await send([question]);
      assert.match(prompt(0), /QUESTION-MARKER/);
      assert.match(prompt(0), /Research Goal/, 'a compaction ran first');
    });

    it('a regenerate of a 4.5k-token question reaches the model', async () => {
      const session = fullSession();
      session.nodes.push(user('Q', 'A12', prose(4_500, ' REGENERATE-MARKER')), assistant('A-old', 'Q', 'An old answer.'));
      session.leafId = 'A-old';
      const { send, prompt } = await setup(session);
      await send([chat('Q', session.nodes.at(-2).parts[0].text)], 'regenerate-message');
      assert.match(prompt(0), /REGENERATE-MARKER/);
    });

    it('a continuation with a client-side tool result sends the turn in progress, result included', async () => {
      const session = fullSession();
      session.nodes.push(user('U13', 'A12', 'Fetch the full text of the 2019 review. CONTINUATION-QUESTION'));
      const call = { type: 'tool-fetchFullText', toolCallId: 'call-1', state: 'input-available', input: { key: 'ABCD2345' } };
      session.nodes.push({ id: 'A13', parentId: 'U13', role: 'assistant', parts: [{ type: 'step-start' }, call] });
      session.leafId = 'A13';
      const { store, sessionId, send, prompt } = await setup(session);
      const withResult = { id: 'A13', role: 'assistant', parts: [{ type: 'step-start' }, { ...call, state: 'output-available', output: { text: prose(4_000, ' RESULT-MARKER') } }] };
      await send([chat('U13', 'Fetch the full text of the 2019 review. CONTINUATION-QUESTION'), withResult]);
      assert.match(prompt(0), /CONTINUATION-QUESTION/);
      assert.match(prompt(0), /RESULT-MARKER/);
      assert.equal(checkpointsOf(await store.load(sessionId))[0]?.checkpoint.firstKeptMessageId, 'U13');
    });

    it('a turn cut during a tool call does not block the next send of a session over the limit', async () => {
      const session = fullSession();
      session.nodes.push(user('UT', 'A12', 'search'), toolCall('AT', 'UT', 'input-streaming', { aborted: true }));
      session.leafId = 'AT';
      const { send, prompt } = await setup(session);
      await send([chat('Q', prose(4_500, ' AFTER-CUT-MARKER'))]);
      assert.match(prompt(0), /AFTER-CUT-MARKER/);
    });
  });
}
