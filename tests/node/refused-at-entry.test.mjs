// Bad input refused where it enters (issue 35): a message the core would read as an invalid node is
// refused by every store at appendMessage, retry, edit, importMessages, importSession and
// updateMessageParts with `invalid-node` naming the node and the reason; nothing is written and the
// session stays usable. Then the controller's model profile, checked by its constructor and
// setModel, and SqliteStore given a file it cannot open.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import * as compaction from 'bibgenie-compaction';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';

await compaction.init();
const { MemoryStore, SqliteStore, ZoteroDBStore, CompactionController, extractiveSummary, readBranch } = compaction;

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-door-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const freshFile = () => join(dir, `s-${++files}.sqlite`);

const backends = [
  ['MemoryStore', () => new MemoryStore()],
  ['SqliteStore', () => new SqliteStore(Database, freshFile())],
  ['ZoteroDBStore', () => new ZoteroDBStore(new ZoteroDBConnectionShim(Database, freshFile()), { closeConnection: true })],
];

const text = (t) => [{ type: 'text', text: t }];
const user = (id, t = `question ${id}`) => ({ id, role: 'user', parts: text(t) });
const assistant = (id, t = `answer ${id}`) => ({ id, role: 'assistant', parts: text(t) });

/** What users hand a store by mistake, each with what the refusal must say. */
const BAD_MESSAGES = [
  ['an AI SDK 4 message { id, role, content }', { id: 'bad', role: 'user', content: 'hi' }, /node bad: parts is missing.*AI SDK 4/],
  ['an AI SDK 4 message with toolInvocations', {
    id: 'bad', role: 'assistant', content: 'searching', parts: text('searching'),
    toolInvocations: [{ state: 'result', toolCallId: 'c1', toolName: 'search', args: { q: 'x' }, result: [] }],
  }, /node bad: .*AI SDK 4.*toolInvocations/],
  ['an AI SDK 4 tool-invocation part', {
    id: 'bad', role: 'assistant', parts: [{ type: 'tool-invocation', toolInvocation: { state: 'call', toolCallId: 'c1', toolName: 'search', args: {} } }],
  }, /node bad: .*AI SDK 4/],
  ['a wrong role', { id: 'bad', role: 'robot', parts: text('beep') }, /node bad: role "robot" is not user, assistant or system/],
  ['parts that are not an array', { id: 'bad', role: 'user', parts: 'x' }, /node bad: parts must be an array/],
  ['a part that is not an object', { id: 'bad', role: 'user', parts: ['hi'] }, /node bad: parts\[0\]: a part must be an object/],
  ['a text part without text', { id: 'bad', role: 'user', parts: [{ type: 'text' }] }, /node bad: parts\[0\]: text is missing/],
  ['a tool part without toolCallId', { id: 'bad', role: 'assistant', parts: [{ type: 'tool-search', state: 'output-available', input: {}, output: [] }] }, /node bad: parts\[0\]: toolCallId is missing/],
  ['a numeric createdAt given as a boolean', { id: 'bad', role: 'user', parts: text('x'), createdAt: true }, /node bad: createdAt must be a number/],
];

const refused = (where, pattern) => (error) => {
  assert.equal(error?.code, 'invalid-node', `${where}: ${error?.message}`);
  assert.match(error.message, pattern, where);
  assert.match(error.message, new RegExp(`^${where}: `), 'the message names the call');
  return true;
};

for (const [name, open] of backends) {
  describe(`${name}: a message the core would call invalid is refused where it enters`, () => {
    it('appendMessage, retry, edit: refused with the node and the reason; nothing written; the session stays usable', async () => {
      const store = open();
      const { sessionId } = await store.createSession();
      await store.appendMessage(sessionId, user('u1'));
      await store.appendMessage(sessionId, assistant('a1'));
      const before = await store.load(sessionId);
      for (const [what, message, pattern] of BAD_MESSAGES) {
        await assert.rejects(store.appendMessage(sessionId, message), refused('appendMessage', pattern), what);
        await assert.rejects(store.retry(sessionId, 'u1', message), refused('retry', pattern), what);
        await assert.rejects(store.edit(sessionId, null, message), refused('edit', pattern), what);
      }
      assert.deepEqual(await store.load(sessionId), before, 'nothing was written, the head did not move');
      const appended = await store.appendMessage(sessionId, user('u2'));
      const branch = readBranch(await store.load(sessionId));
      assert.equal(branch.readOnly, false, JSON.stringify(branch.problems));
      assert.deepEqual(branch.nodes.map((n) => n.id), ['u1', 'a1', 'u2']);
      assert.equal(appended.leafId, 'u2');
      await store.close();
    });

    it('importMessages and importSession: refused naming the position and the node; no session is made', async () => {
      const store = open();
      for (const [what, message, pattern] of BAD_MESSAGES) {
        await assert.rejects(store.importMessages([user('u1'), message]), refused('importSession', pattern), what);
        await assert.rejects(
          store.importSession({ nodes: [{ ...user('u1'), parentId: null }, { ...message, parentId: 'u1' }], leafId: 'bad', branchRevision: 2 }),
          (error) => refused('importSession', pattern)(error) && /nodes\[1\]/.test(error.message),
          what,
        );
      }
      assert.deepEqual(await store.listSessions(), [], 'no session was created');
      await store.close();
    });

    it('a tool output nested deep (100 objects each in an array, valid JSON the AI SDK handles) is accepted and read; only what cannot be read is refused (issue 43.5)', async () => {
      const nested = (levels) => {
        let value = { leaf: 'ABCD2345' };
        for (let i = 0; i < levels; i++) value = { items: [value] };
        return value;
      };
      const toolAnswer = (id, output) => ({ id, role: 'assistant', parts: [{ type: 'tool-deep', toolCallId: `c-${id}`, state: 'output-available', input: {}, output }] });
      const store = open();
      const { sessionId } = await store.createSession();
      await store.appendMessage(sessionId, user('u1'));
      for (const [id, levels] of [['a100', 100], ['a200', 200]]) {
        const message = toolAnswer(id, nested(levels));
        await store.appendMessage(sessionId, message);
        const stored = (await store.load(sessionId)).nodes.find((node) => node.id === id);
        assert.deepEqual(stored.parts, message.parts, `${levels} levels stored intact`);
        await store.appendMessage(sessionId, user(`u-${id}`));
      }
      const session = await store.load(sessionId);
      assert.equal(readBranch(session).readOnly, false);
      assert.ok(compaction.estimate(session, { contextWindow: 128_000 }).tokens > 0);
      assert.deepEqual(compaction.project(session).messages.map((m) => m.id), ['u1', 'a100', 'u-a100', 'a200', 'u-a200']);
      // Deeper than anything can be read: refused at the door, no crash, nothing written.
      await assert.rejects(store.appendMessage(sessionId, toolAnswer('too-deep', nested(1000))), (error) => error.code === 'invalid-node' && /recursion limit/.test(error.message));
      assert.deepEqual(await store.load(sessionId), session);
      // At the limit: the deepest node the door takes leaves the whole session readable; one level
      // pair more is refused (a node accepted alone must not make its session unreadable).
      await assert.rejects(store.appendMessage(sessionId, toolAnswer('a-254', nested(254))), (error) => error.code === 'invalid-node' && /recursion limit/.test(error.message));
      await store.appendMessage(sessionId, toolAnswer('a-253', nested(253)));
      const deepest = await store.load(sessionId);
      assert.ok(compaction.estimate(deepest, { contextWindow: 128_000 }).tokens > 0);
      assert.equal(readBranch(deepest).readOnly, false);
      await store.close();
    });

    it('updateMessageParts: parts the core would call invalid are refused and the message keeps its parts', async () => {
      const store = open();
      const { sessionId } = await store.createSession();
      await store.appendMessage(sessionId, user('u1'));
      await store.appendMessage(sessionId, assistant('a1'));
      const before = await store.load(sessionId);
      await assert.rejects(store.updateMessageParts(sessionId, 'a1', [{ type: 'text', text: 5 }]),
        refused('updateMessageParts', /node a1: parts\[0\]: text must be a string/));
      await assert.rejects(store.updateMessageParts(sessionId, 'a1', [null]),
        refused('updateMessageParts', /node a1: parts\[0\]: a part must be an object/));
      assert.deepEqual(await store.load(sessionId), before);
      await store.close();
    });
  });
}

describe('CompactionController: the model profile is checked by the constructor (and setModel), not at the first submit', () => {
  const options = (model) => ({ store: new MemoryStore(), sessionId: 's', model, summarize: async (r) => extractiveSummary(r) });
  const refusedModel = (field, pattern) => (error) => {
    assert.equal(error?.code, 'invalid-model', error?.message);
    assert.equal(error.field, field, error.message);
    assert.match(error.message, pattern);
    return true;
  };
  const cases = [
    ['no contextWindow, maxTokens instead', { maxTokens: 128000 }, 'contextWindow', /contextWindow is missing \(`maxTokens` is not a ModelProfile field\)/],
    ['no contextWindow at all', {}, 'contextWindow', /contextWindow is missing: a ModelProfile needs/],
    ['contextWindow 0', { contextWindow: 0 }, 'contextWindow', /contextWindow must be at least 1024 tokens, got 0/],
    ['contextWindow 256', { contextWindow: 256 }, 'contextWindow', /at least 1024 tokens, got 256/],
    ['maxOutputTokens larger than the window', { contextWindow: 4000, maxOutputTokens: 16384 }, 'maxOutputTokens',
      /maxOutputTokens 16384 is larger than model\.contextWindow 4000.*reserve would be 1000 tokens/],
    ['maxOutputTokens 0', { contextWindow: 8192, maxOutputTokens: 0 }, 'maxOutputTokens', /maxOutputTokens must be positive/],
    ['contextWindow NaN', { contextWindow: NaN }, 'contextWindow', /contextWindow must be a non-negative integer, got NaN/],
    ['not an object', 'gpt-4o', 'model', /must be a ModelProfile object/],
    ['autoCompactRatio 0', { contextWindow: 8192, autoCompactRatio: 0 }, 'autoCompactRatio', /autoCompactRatio must be a number in \(0, 1\], got 0/],
    ['autoCompactRatio NaN', { contextWindow: 8192, autoCompactRatio: NaN }, 'autoCompactRatio', /autoCompactRatio must be a number in \(0, 1\], got NaN/],
    ['tailShare 1.5', { contextWindow: 8192, tailShare: 1.5 }, 'tailShare', /tailShare must be a number in \(0, 1\], got 1\.5/],
    ['tailShare a string', { contextWindow: 8192, tailShare: '0.2' }, 'tailShare', /tailShare must be a number in \(0, 1\]/],
    ['autoCompactRatio over the safe limit', { contextWindow: 8192, autoCompactRatio: 0.9 }, 'autoCompactRatio',
      /over the safe input limit of 7168 .*lower autoCompactRatio to at most 0\.875/],
    ['autoCompactRatio too low for the tail', { contextWindow: 128000, autoCompactRatio: 0.3 }, 'autoCompactRatio',
      /compaction-frees-room.*raise autoCompactRatio to at least 0\.561/],
    ['tailShare too large for the threshold', { contextWindow: 200000, autoCompactRatio: 0.6, tailShare: 0.3 }, 'tailShare',
      /compaction-frees-room.*lower tailShare to at most 0\.248 or raise autoCompactRatio to at least 0\.703/],
  ];
  for (const [what, model, field, pattern] of cases) {
    it(`${what}: invalid-model (field ${field})`, () => {
      assert.throws(() => new CompactionController(options(model)), refusedModel(field, pattern));
      const controller = new CompactionController(options({ contextWindow: 8192 }));
      assert.throws(() => controller.setModel(model), refusedModel(field, pattern));
    });
  }
  it('a share that is NaN or Infinity is refused by the stateless calls too, never read as absent', () => {
    for (const [field, value, shown] of [['autoCompactRatio', NaN, 'NaN'], ['tailShare', Infinity, 'Infinity']]) {
      assert.throws(() => compaction.capacity({ contextWindow: 8192, [field]: value }),
        (error) => error.code === 'invalid-model' && error.message.includes(`model.${field} must be a finite number, got ${shown}`));
    }
  });
  it('no error message says "NaN arrives as null" to someone who passed no NaN', () => {
    assert.throws(() => compaction.capacity({ maxTokens: 1 }), (error) => error.code === 'invalid-model' && !/NaN/.test(error.message));
  });
  it('a profile the core accepts is accepted', () => {
    for (const model of [{ contextWindow: 1024 }, { contextWindow: 128000, maxOutputTokens: 16384 }, { contextWindow: 4096, maxOutputTokens: 4096 },
      { contextWindow: 200000, autoCompactRatio: 0.6, tailShare: 0.1 }, { contextWindow: 8192, autoCompactRatio: 0.875 }]) {
      assert.ok(new CompactionController(options(model)), JSON.stringify(model));
    }
  });
});

describe('SqliteStore: a file it cannot open is a coded error', () => {
  it('a file in a missing directory: store-open-failed naming the file', () => {
    const file = join(dir, 'no-such-folder', 'sessions.sqlite');
    assert.throws(() => new SqliteStore(Database, file), (error) => {
      assert.equal(error.code, 'store-open-failed', error.message);
      assert.equal(error.filename, file);
      assert.ok(error.message.includes(JSON.stringify(file)), error.message);
      assert.match(error.message, /directory does not exist/);
      return true;
    });
  });
});
