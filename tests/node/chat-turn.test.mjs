// Issue 41.1: ChatTurn, the turn of an app that calls its model itself, on all three stores: the
// question stored once and answered where it belongs, the usage where the next estimate reads it,
// a refusal that stores nothing and hands the question back, one turn at a time, a failed call that
// leaves the question to be answered in place, Stop storing what was shown, one end per turn.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compaction, validSummary } from './runner-fixtures.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';

const { ChatTurn, CompactionController, MemoryStore, SqliteStore, ZoteroDBStore, estimateMessage, history, createAbortSignalLike } = compaction;

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-chat-turn-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

const stores = [
  ['MemoryStore', () => new MemoryStore()],
  ['SqliteStore', () => new SqliteStore(Database, join(dir, `s-${++files}.sqlite`))],
  ['ZoteroDBStore', () => new ZoteroDBStore(new ZoteroDBConnectionShim(Database, join(dir, `z-${++files}.sqlite`)), { closeConnection: true })],
];

const MODEL = Object.freeze({ id: 'test-8k', contextWindow: 8192 });
const SENTENCE = 'The cohort study reports attendance by district and season. ';
const perSentence = estimateMessage({ id: 'x', role: 'user', parts: [{ type: 'text', text: SENTENCE.repeat(100) }] }) / 100;
const prose = (n) => SENTENCE.repeat(Math.ceil(n / perSentence));

async function opened(open) {
  const store = open();
  const { sessionId } = await store.createSession({});
  const summaries = [];
  const controller = new CompactionController({
    store, sessionId, model: MODEL, summarize: async () => { summaries.push(1); return validSummary('turn'); },
  });
  return { store, sessionId, controller, summaries, branch: async () => history(await store.load(sessionId)) };
}

for (const [name, open] of stores) {
  describe(`ChatTurn on ${name}`, () => {
    it('stores the question once and the answer under it, with createdAt and the usage in metadata.usage', async () => {
      const { controller, branch, store } = await opened(open);
      const turn = await ChatTurn.begin(controller, 'What does the cohort study report?');
      assert.deepEqual(turn.messages.map((m) => m.role), ['user']);
      assert.equal(turn.messages[0].id, turn.question.id);
      const stored = await turn.finish({ text: 'Attendance by district.', usage: { inputTokens: 40, outputTokens: 6 }, finishReason: 'stop' });
      assert.equal(turn.ended, true);
      const nodes = await branch();
      assert.deepEqual(nodes.map((n) => [n.role, n.parentId ?? null]), [['user', null], ['assistant', turn.question.id]]);
      assert.equal(nodes[1].id, stored.id);
      assert.equal(typeof nodes[1].createdAt, 'number');
      assert.equal(nodes[1].metadata.usage.inputTokens, 40);
      assert.equal(nodes[1].metadata.usage.outputTokens, 6);
      assert.equal(nodes[1].metadata.finishReason, 'stop');
      await store.close();
    });

    it('a second turn sends the first; a second end throws turn-ended; a turn while one is open is turn-in-flight', async () => {
      const { controller, store } = await opened(open);
      const first = await ChatTurn.begin(controller, 'First question');
      await assert.rejects(ChatTurn.begin(controller, 'Second, too early'), { code: 'turn-in-flight' });
      await first.finish({ text: 'First answer' });
      await assert.rejects(first.finish({ text: 'again' }), { code: 'turn-ended' });
      await assert.rejects(first.fail(new Error('late')), { code: 'turn-ended' });
      const second = await ChatTurn.begin(controller, 'Second question');
      assert.deepEqual(second.messages.map((m) => m.parts[0].text), ['First question', 'First answer', 'Second question']);
      await second.finish({ parts: [{ type: 'text', text: 'Second answer' }] });
      await store.close();
    });

    it('a failed call leaves the question stored and unanswered; asking it again answers it in place', async () => {
      const { controller, branch, store } = await opened(open);
      const turn = await ChatTurn.begin(controller, 'Which districts improved?');
      await turn.fail(new Error('HTTP 429'));
      assert.deepEqual((await branch()).map((n) => n.role), ['user']);
      const again = await ChatTurn.begin(controller, 'Which districts improved?');
      assert.equal(again.question.id, turn.question.id, 'the stored question, not a second copy');
      assert.deepEqual(again.messages.map((m) => m.role), ['user']);
      await again.finish({ text: 'The northern ones.' });
      assert.deepEqual((await branch()).map((n) => n.role), ['user', 'assistant']);
      await store.close();
    });

    it('Stop stores what was shown with metadata.aborted; nothing shown stores nothing', async () => {
      const { controller, branch, store } = await opened(open);
      const turn = await ChatTurn.begin(controller, 'Summarize the findings');
      await turn.stop({ text: 'The findings so f' });
      const nodes = await branch();
      assert.equal(nodes[1].metadata.aborted, true);
      assert.equal(nodes[1].parts[0].text, 'The findings so f');
      const empty = await ChatTurn.begin(controller, 'And the limits?');
      assert.equal(await empty.stop(), null);
      assert.deepEqual((await branch()).map((n) => n.role), ['user', 'assistant', 'user']);
      await store.close();
    });

    it('a question too large is refused: nothing stored, the question handed back, the turn free again', async () => {
      const { controller, branch, store } = await opened(open);
      const huge = prose(9000);
      await assert.rejects(ChatTurn.begin(controller, huge), (error) => {
        assert.equal(error.code, 'too-large');
        assert.equal(error.draft.parts[0].text, huge);
        assert.equal(error.result.status, 'too-large');
        return true;
      });
      assert.deepEqual(await branch(), []);
      const next = await ChatTurn.begin(controller, 'A short one');
      await next.finish({ text: 'ok' });
      await store.close();
    });

    it('an aborted signal is cancelled: nothing stored, no summary asked', async () => {
      const { controller, branch, summaries, store } = await opened(open);
      const abort = createAbortSignalLike();
      abort.abort();
      await assert.rejects(ChatTurn.begin(controller, 'Never sent', { signal: abort.signal }), { code: 'cancelled' });
      assert.deepEqual(await branch(), []);
      assert.equal(summaries.length, 0);
      await store.close();
    });

    it('a question that does not fit compacts first; the answer goes under it and the next turn sends the summary first', async () => {
      const { controller, branch, summaries, store } = await opened(open);
      for (let t = 0; t < 6; t++) {
        const turn = await ChatTurn.begin(controller, `Question ${t}: ${prose(300)}`);
        await turn.finish({ text: `Answer ${t}: ${prose(500)}` });
        while (controller.busy) await new Promise((r) => setTimeout(r, 5));
      }
      const turn = await ChatTurn.begin(controller, `The last question: ${prose(2500)}`, { system: prose(200) });
      assert.ok(summaries.length >= 1, 'compacted');
      assert.equal(turn.messages[0].role, 'user', 'the summary message first');
      assert.match(turn.messages[0].parts[0].text, /Research Goal/);
      await turn.finish({ text: 'Last answer' });
      const nodes = await branch();
      assert.equal(nodes.at(-1).parentId, turn.question.id);
      await store.close();
    });

    it('bad input is refused with invalid-options and the turn stays open', async () => {
      const { controller, store } = await opened(open);
      await assert.rejects(ChatTurn.begin({}, 'x'), { code: 'invalid-options' });
      await assert.rejects(ChatTurn.begin(controller, ''), { code: 'invalid-options' });
      await assert.rejects(ChatTurn.begin(controller, { role: 'assistant', parts: [] }), { code: 'invalid-options' });
      const turn = await ChatTurn.begin(controller, 'Fine');
      await assert.rejects(turn.finish({}), { code: 'invalid-options' });
      await assert.rejects(turn.finish({ text: 'x', usage: 5 }), { code: 'invalid-options' });
      assert.equal(turn.ended, false);
      await turn.finish({ text: 'Answered' });
      await store.close();
    });
  });
}
