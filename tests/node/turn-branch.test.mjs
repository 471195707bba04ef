// The everyday turn as a chat pane sends it, on all three stores and ai 5, 6 and 7 (issue 32, 1-2):
// new questions, questions saved first, regenerates, edits made with `store.edit` and client-side
// tool continuations, on a model small enough that preflights compact often. After every turn:
// the checkpoint the request was made on is on the active branch, the response (or the continued
// message) is stored there with what the model streamed (also after reopening the file), and the
// transport's onFinish ran once.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compaction, linearSession, scriptedSummarizer, validSummary } from './runner-fixtures.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';
import { sdks } from './ai-sdks.mjs';

const { CompactionController, CompactionChatTransport, MemoryStore, SqliteStore, ZoteroDBStore, readBranch, project, editTarget } = compaction;

/** Small enough that a few turns overflow it: most sends compact first. */
const MODEL = Object.freeze({ id: 'test-2k', contextWindow: 2048, maxOutputTokens: 256 });

const tmp = mkdtempSync(join(tmpdir(), 'bibgenie-turns-'));
let files = 0;
const backends = [
  { name: 'MemoryStore', open: () => ({ store: new MemoryStore(), reopen: null, close: async () => {} }) },
  {
    name: 'SqliteStore',
    open(file = join(tmp, `s${++files}.sqlite`)) {
      const store = new SqliteStore(Database, file);
      return { store, reopen: () => (store.close(), this.open(file)), close: async () => store.close() };
    },
  },
  {
    name: 'ZoteroDBStore',
    open(file = join(tmp, `z${++files}.sqlite`)) {
      const connection = new ZoteroDBConnectionShim(Database, file);
      const store = new ZoteroDBStore(connection);
      return { store, reopen: async () => (await store.close(), await connection.closeDatabase(), this.open(file)), close: async () => (await store.close(), await connection.closeDatabase()) };
    },
  },
];

/** The kinds of send, in turn (a tool call is followed by its continuation). */
const SCHEDULE = ['new', 'saved-first', 'tool', 'regenerate', 'new', 'edit', 'saved-first', 'tool', 'edit', 'regenerate', 'new'];
const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const question = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
const isCheckpoint = (node) => 'checkpoint' in node;

for (const sdk of sdks) {
  const Mock = sdk.test[sdk.Mock];
  const { jsonSchema, tool } = sdk.ai;
  // A client-side tool (no execute): its call ends the step, the pane adds the result and sends again.
  const tools = { zoteroSearch: tool({ description: 'Search the Zotero library', inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } } }) }) };

  /** Answers with a tool call when asked to search, else with text naming the turn. */
  function languageModel(log) {
    return new Mock({
      doStream: async ({ prompt }) => {
        const last = prompt.at(-1);
        const wantsTool = last.role === 'user' && JSON.stringify(last.content).includes('[search]');
        const n = log.push(prompt);
        const parts = wantsTool
          ? [{ type: 'tool-call', toolCallId: `call-${n}`, toolName: 'zoteroSearch', input: JSON.stringify({ q: `query ${n}` }) }]
          : [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: `answer ${n}: ${words(60, 'found')}` }, { type: 'text-end', id: 't' }];
        return {
          stream: sdk.test.convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] },
            ...parts,
            // Usage as a provider reports it: about a token per four characters of the prompt.
            { type: 'finish', finishReason: sdk.finishReason(wantsTool ? 'tool-calls' : 'stop'), usage: sdk.usage(Math.ceil(JSON.stringify(prompt).length / 4), 40) },
          ]),
        };
      },
    });
  }

  for (const backend of backends) {
    describe(`the everyday turn on ${backend.name} with ${sdk.name}`, () => {
      it('keeps the checkpoint each request was made on on the active branch, and stores every answer there once', async () => {
        let handle = backend.open();
        const sessionId = 'turns';
        await handle.store.importSession(linearSession(3), { sessionId: sessionId });
        const prompts = [];
        const model = languageModel(prompts);
        const { summarize, calls: summaries } = scriptedSummarizer(() => validSummary());
        const finished = [];
        let requestCheckpoint = null;
        let summariesAtRequest = 0;
        const make = (store) => {
          const controller = new CompactionController({ store, sessionId, model: MODEL, summarize });
          const transport = new CompactionChatTransport({
            controller, tools,
            onFinish: (event) => finished.push(event),
            streamResponse: async ({ messages, abortSignal }) => {
              // The checkpoint this request is planned on: the newest one on the branch as stored now.
              requestCheckpoint = project(await store.load(sessionId)).checkpointId;
              summariesAtRequest = summaries.length;
              return sdk.ai.streamText({ model, tools, messages: await sdk.ai.convertToModelMessages(messages), abortSignal });
            },
          });
          return { controller, transport };
        };
        let { controller, transport } = make(handle.store);
        const seenKinds = new Set();
        const branchOf = async () => {
          const session = await handle.store.load(sessionId);
          return { session, branch: readBranch(session).nodes };
        };
        const readStream = async (stream) => {
          let last;
          for await (const message of sdk.ai.readUIMessageStream({ stream })) last = message;
          return last;
        };
        let n = 0;
        const preflighted = new Set();
        for (let turn = 0; turn < 30; turn++) {
          const { session, branch } = await branchOf();
          const leaf = branch.at(-1);
          const pending = leaf && !isCheckpoint(leaf) && leaf.role === 'assistant' && leaf.parts.some((p) => p.type === 'tool-zoteroSearch' && p.state === 'input-available');
          const kind = pending ? 'continuation' : SCHEDULE[turn % SCHEDULE.length];
          seenKinds.add(kind);
          const history = branch.filter((node) => !isCheckpoint(node));
          // Now and then a long question: the send must compact first (a preflight), whatever the kind.
          const text = `${kind} ${++n}: ${words(turn % 3 === 1 ? 350 : [20, 40, 60][(turn * 7 + sdks.indexOf(sdk) + backends.indexOf(backend)) % 3], 'ask')}${kind === 'tool' ? ' [search]' : ''}`;
          let messages;
          let trigger = 'submit-message';
          if (kind === 'new' || kind === 'tool') {
            messages = [...history, question(`q${n}`, text)];
          } else if (kind === 'saved-first') {
            const saved = question(`q${n}`, text);
            await handle.store.appendMessage(sessionId, saved);
            messages = [...history, saved];
          } else if (kind === 'regenerate') {
            const lastUser = history.findLast((node) => node.role === 'user');
            messages = history.slice(0, history.indexOf(lastUser) + 1);
            trigger = 'regenerate-message';
          } else if (kind === 'edit') {
            const target = editTarget(session);
            const edited = question(`q${n}`, text);
            await handle.store.edit(sessionId, target.parentId, edited);
            messages = [...history.slice(0, history.findIndex((node) => node.id === target.userId)), edited];
          } else {
            const output = [{ key: `KEY${String(n).padStart(4, '0')}`, title: `Paper ${n}` }];
            const resolved = { ...leaf, parts: leaf.parts.map((p) => (p.type === 'tool-zoteroSearch' && p.state === 'input-available' ? { ...p, state: 'output-available', output } : p)) };
            const { parentId, ...asInChat } = resolved;
            messages = [...history.slice(0, -1), asInChat];
          }
          const finishedBefore = finished.length;
          const summariesBefore = summaries.length;
          requestCheckpoint = null;
          const streamed = await readStream(await transport.sendMessages({ trigger, chatId: 'c', messageId: undefined, messages, abortSignal: undefined }));
          while (controller.busy) await new Promise((r) => setTimeout(r, 1)); // the after-turn check
          const label = `turn ${turn} (${kind})`;
          if (summariesAtRequest > summariesBefore) preflighted.add(kind);
          assert.equal(finished.length, finishedBefore + 1, `${label}: onFinish ran once`);
          if (handle.reopen && turn % 4 === 3) {
            handle = await handle.reopen();
            ({ controller, transport } = make(handle.store));
          }
          const after = await branchOf();
          const ids = after.branch.map((node) => node.id);
          if (requestCheckpoint !== null) assert.ok(ids.includes(requestCheckpoint), `${label}: checkpoint ${requestCheckpoint} of the request left the branch ${ids.join(' ')}`);
          const answered = after.branch.find((node) => node.id === streamed.id);
          assert.ok(answered, `${label}: the answer ${streamed.id} is on the active branch`);
          const streamedText = streamed.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
          const storedText = answered.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
          assert.ok(streamedText === '' || storedText.endsWith(streamedText), `${label}: the stored answer holds what was streamed`);
          if (kind === 'continuation') {
            assert.equal(answered.id, leaf.id, `${label}: the continued message is updated in place`);
            assert.ok(answered.parts.some((p) => p.type === 'tool-zoteroSearch' && p.state === 'output-available'), `${label}: with its tool result`);
          }
        }
        assert.ok(summaries.length >= 3, `compactions happened (${summaries.length})`);
        for (const kind of ['saved-first', 'regenerate', 'edit', 'continuation']) assert.ok(seenKinds.has(kind), `the sequence sent a ${kind}`);
        // The cases of issue 32: a stored question or a continuation whose send compacted first.
        assert.ok(['saved-first', 'regenerate', 'edit'].some((kind) => preflighted.has(kind)), `a stored question compacted first (${[...preflighted]})`);
        await handle.close();
      });
    });
  }
}
