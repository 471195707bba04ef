// Issue 41, item 5: display-only markers (`displayOnly: { kind }`) on every store. Appended like any
// message and kept with their kind (reopen, import, fork); shown by the history; never projected,
// sent, counted or summarized (the core's rule: the glue does not filter them).
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

import { compaction, SMALL_MODEL, MODEL, linearSession, scriptedSummarizer, validSummary } from './runner-fixtures.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';
import { answeringModel, sdks } from './ai-sdks.mjs';

const { MemoryStore, SqliteStore, ZoteroDBStore, CompactionController, CompactionChatTransport, history, project, estimate } = compaction;

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-display-only-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `sessions-${++files}.sqlite`);

/** Each backend: a store, and the same store opened again (MemoryStore: its export imported into a new one). */
const backends = [
  {
    name: 'MemoryStore',
    open: () => ({ store: new MemoryStore(), close() {} }),
    async reopen(handle, sessionId) {
      const store = new MemoryStore();
      await store.importSession(await handle.store.load(sessionId), { sessionId });
      return { store, close() {} };
    },
  },
  {
    name: 'SqliteStore',
    open(file = freshFile()) {
      const store = new SqliteStore(Database, file);
      return { store, file, close: () => store.close() };
    },
    async reopen(handle) {
      handle.close();
      return this.open(handle.file);
    },
  },
  {
    name: 'ZoteroDBStore',
    open(file = freshFile()) {
      const connection = new ZoteroDBConnectionShim(Database, file);
      return { store: new ZoteroDBStore(connection), file, close: () => connection.closeDatabase() };
    },
    async reopen(handle) {
      await handle.close();
      return this.open(handle.file);
    },
  },
];

/** The text a marker shows; it must never reach a request, an estimate or a summary. */
const SHOWN = 'MARKER-SHOWN-ONLY';
const marker = (id, kind, role = 'system', parentId = undefined) => ({
  id, role, displayOnly: { kind }, parts: [{ type: 'text', text: `${SHOWN} (${kind}) ${'notice '.repeat(30)}` }],
  ...(parentId === undefined ? {} : { parentId }),
});
const user = (id, text = `question ${id}`) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const assistant = (id, text = `answer ${id}`) => ({ id, role: 'assistant', parts: [{ type: 'text', text }] });

/** `session` with a marker after every assistant message (roles cycling, one of them user), the next message under it. */
function withMarkers(session) {
  const nodes = [];
  const renamed = new Map();
  let n = 0;
  for (const node of session.nodes) {
    const parentId = renamed.get(node.parentId) ?? node.parentId;
    nodes.push({ ...node, parentId });
    if (node.role === 'assistant') {
      const id = `M${++n}`;
      nodes.push(marker(id, n % 2 ? 'model-switch' : 'runtime-notice', ['system', 'assistant', 'user'][n % 3], node.id));
      renamed.set(node.id, id);
    }
  }
  return { nodes, leafId: renamed.get(session.leafId) ?? session.leafId, branchRevision: session.branchRevision };
}

const ids = (messages) => messages.map((m) => m.id);
const markersOf = (nodes) => nodes.filter((n) => n.displayOnly !== undefined);
const noMarkerText = (value, what) => assert.ok(!JSON.stringify(value).includes(SHOWN), `${what} holds a marker's text`);

for (const backend of backends) {
  describe(`display-only markers on ${backend.name}`, () => {
    it('appends a marker like any message and keeps it, with its kind, across reopen, import and fork', async () => {
      let h = backend.open();
      const { store } = h;
      await store.createSession({ sessionId: 's' });
      await store.appendMessage('s', user('u1'));
      await store.appendMessage('s', assistant('a1'));
      const head = await store.appendMessage('s', marker('m1', 'model-switch'));
      assert.equal(head.leafId, 'm1', 'a marker moves the leaf like any node');
      assert.deepEqual(head.node.displayOnly, { kind: 'model-switch' });
      await store.appendMessage('s', user('u2'));
      await store.appendMessage('s', assistant('a2'));
      await store.appendMessage('s', marker('m2', 'context-compacted', 'assistant'));
      // Its text may change in place while it is the leaf; it stays display-only.
      await store.updateMessageParts('s', 'm2', [{ type: 'text', text: `${SHOWN} compacted` }]);
      // The answer before it is still the newest message the model sees: updatable in place.
      await store.updateMessageParts('s', 'a2', [{ type: 'text', text: 'answer a2, revised' }]);

      h = await backend.reopen(h, 's');
      const session = await h.store.load('s');
      assert.equal(session.leafId, 'm2');
      assert.equal(session.nodes.find((n) => n.id === 'u2').parentId, 'm1', 'the next message goes under the marker');
      assert.deepEqual(markersOf(session.nodes).map((n) => [n.id, n.role, n.displayOnly.kind]), [
        ['m1', 'system', 'model-switch'],
        ['m2', 'assistant', 'context-compacted'],
      ]);
      assert.deepEqual(markersOf(history(session)).map((n) => n.displayOnly), [{ kind: 'model-switch' }, { kind: 'context-compacted' }]);
      assert.deepEqual(ids(project(session).messages), ['u1', 'a1', 'u2', 'a2']);
      noMarkerText(project(session), 'the projection');

      const forked = await h.store.fork('s', 'a2', { sessionId: 'f' });
      const fork = await h.store.load(forked.sessionId);
      assert.deepEqual(markersOf(fork.nodes).map((n) => n.displayOnly.kind), ['model-switch']);
      const imported = await h.store.importMessages([user('x1'), assistant('x2'), marker('x3', 'runtime-notice')], { sessionId: 'i' });
      assert.deepEqual((await h.store.load(imported.sessionId)).nodes.at(-1).displayOnly, { kind: 'runtime-notice' });
      await h.close();
    });

    it('a user-role marker after a pending tool call ends no turn: the tool result is still written in place', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1'));
      const call = { type: 'tool-zoteroAddNote', toolCallId: 'c1', state: 'approval-requested', input: { note: 'n' }, approval: { id: 'ap1' } };
      await h.store.appendMessage('s', { id: 'a1', role: 'assistant', parts: [call] });
      await h.store.appendMessage('s', marker('m1', 'awaiting-approval', 'user'));
      await h.store.appendMessage('s', assistant('a2', 'waiting for your approval'));
      const answered = { ...call, state: 'output-available', approval: { id: 'ap1', approved: true }, output: { ok: true } };
      await h.store.updateMessageParts('s', 'a1', [answered]);
      assert.equal((await h.store.load('s')).nodes.find((n) => n.id === 'a1').parts[0].state, 'output-available');
      await h.close();
    });

    it('refuses a malformed displayOnly with invalid-node and writes nothing', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1'));
      const before = JSON.stringify(await h.store.load('s'));
      for (const displayOnly of ['model-switch', null, [], {}, { kind: '' }, { kind: 7 }]) {
        await assert.rejects(h.store.appendMessage('s', { ...marker('bad', 'x'), displayOnly }), (e) => e.code === 'invalid-node', JSON.stringify(displayOnly));
      }
      await assert.rejects(h.store.importMessages([user('x'), { ...marker('bad', 'x'), displayOnly: { kind: '' } }]), (e) => e.code === 'invalid-node');
      assert.equal(JSON.stringify(await h.store.load('s')), before);
      await h.close();
    });

    it('the estimate, the plan and a compaction are the same with markers interleaved; no request holds one', async () => {
      const plain = linearSession(8, 40);
      const marked = withMarkers(plain);
      const h = backend.open();
      await h.store.importSession(plain, { sessionId: 'plain' });
      await h.store.importSession(marked, { sessionId: 'marked' });
      const [p, m] = [await h.store.load('plain'), await h.store.load('marked')];
      assert.equal(markersOf(m.nodes).length, 8);
      assert.deepEqual(estimate(m, SMALL_MODEL), estimate(p, SMALL_MODEL));
      const draft = { draft: 'one more question', overhead: { system: 'You are a research assistant.' } };
      assert.deepEqual(estimate(m, SMALL_MODEL, draft), estimate(p, SMALL_MODEL, draft));

      const sends = {};
      for (const sessionId of ['plain', 'marked']) {
        const { summarize, calls } = scriptedSummarizer(() => validSummary());
        const controller = new CompactionController({ store: h.store, sessionId, model: SMALL_MODEL, summarize });
        const result = await controller.submit(user(`q-${sessionId}`, 'one more question'));
        assert.equal(result.status, 'send', result.message);
        assert.equal(result.outcome.status, 'committed', 'the preflight compacted first');
        assert.equal(result.responseParentId, `q-${sessionId}`);
        assert.equal(calls.length, 1);
        sends[sessionId] = { result, request: calls[0].request };
      }
      const { result, request } = sends.marked;
      noMarkerText(request, 'the summary request');
      noMarkerText(result.messages, 'the messages to send');
      assert.ok(ids(result.messages).every((id) => !id.startsWith('M')));
      assert.equal(request.history, sends.plain.request.history, 'the same history, numbered the same');
      assert.deepEqual(request.ledger, sends.plain.request.ledger);
      const plan = (r) => { const { basis, ...rest } = r.outcome.plan; return rest; };
      assert.deepEqual(plan(result), plan(sends.plain.result));
      const checkpoint = result.outcome.checkpoint;
      assert.ok(!checkpoint.checkpoint.firstKeptMessageId?.startsWith('M'), 'a marker is never the boundary');
      noMarkerText(checkpoint, 'the checkpoint');

      // The markers stay in the history after the compaction, the checkpoint under the leaf marker.
      const after = await h.store.load('marked');
      assert.equal(checkpoint.parentId, marked.leafId);
      assert.equal(markersOf(history(after)).length, 8);
      noMarkerText(project(after), 'the projection after the compaction');
      await h.close();
    });
  });
}

describe('display-only markers through the chat transport', () => {
  const sdk = sdks[0];

  /** A transport over `session` in a MemoryStore, its model answering, and the messages each request sent. */
  async function chatOver(session) {
    const store = new MemoryStore();
    await store.importSession(session, { sessionId: 'chat' });
    const { summarize } = scriptedSummarizer(() => validSummary());
    const controller = new CompactionController({ store, sessionId: 'chat', model: MODEL, summarize });
    const model = answeringModel(sdk, 'An answer.', sdk.usage(300, 5));
    const sent = [];
    const transport = new CompactionChatTransport({
      controller,
      generateMessageId: () => 'resp-1',
      streamResponse: async ({ messages }) => {
        sent.push(messages);
        return sdk.ai.streamText({ model, messages: await sdk.ai.convertToModelMessages(messages) });
      },
    });
    /** Sends `draft` after the session's history, as useChat would, to the end of the answer. */
    const send = async (draft) => {
      const stream = await transport.sendMessages({
        trigger: 'submit-message', chatId: 'chat', messageId: undefined, abortSignal: undefined,
        messages: [...history(session), draft],
      });
      for await (const _ of sdk.ai.readUIMessageStream({ stream })) { /* to the end */ }
      while (controller.busy) await new Promise((r) => setTimeout(r, 1)); // afterTurn ran
    };
    return { store, model, sent, send };
  }

  it('never sends a marker; the question goes under the leaf marker and the answer under the question', async () => {
    const session = withMarkers(linearSession(3, 10));
    const { store, model, sent, send } = await chatOver(session);
    await send(user('q', 'and the fourth?'));
    assert.deepEqual(ids(sent[0]), ['U1', 'A1', 'U2', 'A2', 'U3', 'A3', 'q']);
    noMarkerText(sent[0], 'the model request');
    noMarkerText(model.doStreamCalls[0].prompt, 'the model prompt');
    const stored = await store.load('chat');
    assert.equal(stored.nodes.find((n) => n.id === 'q').parentId, session.leafId);
    assert.equal(stored.nodes.find((n) => n.id === 'resp-1').parentId, 'q');
  });

  it('a marker after an unanswered question (a runtime notice): the resend answers the stored question under the marker', async () => {
    const session = linearSession(2, 10);
    session.nodes.push({ ...user('Q', 'which of them use corpus data?'), parentId: 'A2' });
    session.nodes.push(marker('notice', 'runtime-notice', 'system', 'Q'));
    session.leafId = 'notice';
    const { store, model, sent, send } = await chatOver(session);
    await send(user('Q-again', 'which of them use corpus data?'));
    assert.deepEqual(ids(sent[0]), ['U1', 'A1', 'U2', 'A2', 'Q'], 'the question once, not the marker');
    noMarkerText(model.doStreamCalls[0].prompt, 'the model prompt');
    const stored = await store.load('chat');
    assert.ok(!stored.nodes.some((n) => n.id === 'Q-again'), 'the question is not stored twice');
    assert.equal(stored.nodes.find((n) => n.id === 'resp-1').parentId, 'notice', 'the marker stays on the branch');
    assert.equal(stored.leafId, 'resp-1');
  });
});
