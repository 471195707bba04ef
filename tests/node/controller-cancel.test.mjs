// A cancel at any moment of a send (issue 43, item 4): on a store whose reads take a few
// milliseconds (as `Zotero.DB` calls do), `controller.cancel()` while `submit` is still in its
// first read (before a compaction run exists), while summarizing and while committing ends the
// send `cancelled`, with no summarizer call when it came before one, and nothing written. On all
// three stores; the transport's abort signal likewise.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { compaction, linearSession, scriptedSummarizer, validSummary, SMALL_MODEL, deferred } from './runner-fixtures.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';

const { CompactionController, MemoryStore, SqliteStore, ZoteroDBStore } = compaction;

const tmp = mkdtempSync(join(tmpdir(), 'bibgenie-cancel-'));
let files = 0;
const backends = [
  { name: 'MemoryStore', open: () => ({ store: new MemoryStore(), close: async () => {} }) },
  {
    name: 'SqliteStore',
    open() {
      const store = new SqliteStore(Database, join(tmp, `s${++files}.sqlite`));
      return { store, close: async () => store.close() };
    },
  },
  {
    name: 'ZoteroDBStore',
    open() {
      const connection = new ZoteroDBConnectionShim(Database, join(tmp, `z${++files}.sqlite`));
      const store = new ZoteroDBStore(connection);
      return { store, close: async () => (await store.close(), await connection.closeDatabase()) };
    },
  },
];

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const READ_DELAY_MS = 5;

/**
 * The store with its reads (`withSessionIndex`, `load`) answering after a few milliseconds, and
 * `onTransaction(tx)` called inside each transaction before its first write.
 */
function slowReads(store, { onWrite = () => {} } = {}) {
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      if (prop === 'withSessionIndex' || prop === 'load') {
        return async (...args) => {
          await sleep(READ_DELAY_MS);
          return value.apply(target, args);
        };
      }
      if (prop === 'transaction') {
        return (id, fn) => value.call(target, id, (tx) => fn(new Proxy(tx, {
          get(t, p) {
            const v = Reflect.get(t, p, t);
            if (typeof v !== 'function') return v;
            if (p === 'appendNode') return (...args) => (onWrite(), v.apply(t, args));
            return v.bind(t);
          },
        })));
      }
      return value.bind(target);
    },
  });
}

/** A session on `backend` that a SMALL_MODEL send must compact first. */
async function sessionOn(backend) {
  const opened = backend.open();
  const { sessionId } = await opened.store.importSession(linearSession(8, 10));
  return { ...opened, sessionId };
}

for (const backend of backends) {
  describe(`a cancel at any moment of a send, ${backend.name} with slow reads`, () => {
    it('cancel() while submit is still in its first read: cancelled, no summarizer call, nothing written', async () => {
      const { store, sessionId, close } = await sessionOn(backend);
      const before = JSON.stringify(await store.load(sessionId));
      const { summarize, calls } = scriptedSummarizer(async () => validSummary());
      const controller = new CompactionController({ store: slowReads(store), sessionId, model: SMALL_MODEL, summarize });
      const sending = controller.submit('next question');
      assert.equal(controller.cancel(), true, 'the send in its first read is cancelled');
      const result = await sending;
      assert.equal(result.status, 'cancelled');
      assert.equal(result.draft, 'next question');
      assert.equal(calls.length, 0, 'no summarizer call');
      assert.equal(JSON.stringify(await store.load(sessionId)), before, 'nothing written');
      assert.equal(controller.busy, false);
      assert.equal(controller.cancel(), false, 'nothing left to cancel');
      // The next send is not affected by the cancelled one.
      const next = await controller.submit('next question');
      assert.equal(next.status, 'send');
      assert.equal(calls.length, 1);
      await close();
    });

    it('cancel() a few milliseconds into the first read, of a send that fits: cancelled, nothing sent', async () => {
      const { store, sessionId, close } = await sessionOn(backend);
      const { summarize, calls } = scriptedSummarizer(async () => validSummary());
      const controller = new CompactionController({ store: slowReads(store), sessionId, model: { id: 'big', contextWindow: 128_000 }, summarize });
      const sending = controller.submit('next question');
      await sleep(1);
      assert.equal(controller.cancel(), true);
      const result = await sending;
      assert.equal(result.status, 'cancelled');
      assert.equal(calls.length, 0);
      await close();
    });

    it('cancel() while summarizing: cancelled, one summarizer call, nothing written', async () => {
      const { store, sessionId, close } = await sessionOn(backend);
      const before = JSON.stringify(await store.load(sessionId));
      const started = deferred();
      const { summarize, calls } = scriptedSummarizer(async () => (started.resolve(), await sleep(20), validSummary()));
      const controller = new CompactionController({ store: slowReads(store), sessionId, model: SMALL_MODEL, summarize });
      const sending = controller.submit('next question');
      await started.promise;
      assert.equal(controller.cancel(), true);
      const result = await sending;
      assert.equal(result.status, 'cancelled');
      assert.equal(calls.length, 1);
      assert.equal(JSON.stringify(await store.load(sessionId)), before, 'nothing written');
      await close();
    });

    it('cancel() while committing: cancelled, the writes rolled back', async () => {
      const { store, sessionId, close } = await sessionOn(backend);
      const before = JSON.stringify(await store.load(sessionId));
      const { summarize, calls } = scriptedSummarizer(async () => validSummary());
      let controller;
      let cancelled;
      const slow = slowReads(store, { onWrite: () => (cancelled ??= controller.cancel()) });
      controller = new CompactionController({ store: slow, sessionId, model: SMALL_MODEL, summarize });
      const result = await controller.submit('next question');
      assert.equal(cancelled, true, 'the cancel came during the commit');
      assert.equal(result.status, 'cancelled');
      assert.equal(calls.length, 1);
      assert.equal(JSON.stringify(await store.load(sessionId)), before, 'nothing written');
      await close();
    });
  });
}
