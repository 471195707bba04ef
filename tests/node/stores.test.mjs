// One behavioural suite for every SessionStore backend: MemoryStore, SqliteStore on a real
// file, and ZoteroDBStore through a shim with Zotero.DBConnection's semantics.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

import { glue } from './glue-modules.mjs';
import { ZoteroDBConnectionShim } from './zotero-shim.mjs';

const { MemoryStore, SqliteStore, ZoteroDBStore } = glue;
// The stores' node checks and the in-place update rule (`interrupted-tool`) are the core's.
await glue.init();

const dir = mkdtempSync(join(tmpdir(), 'bibgenie-stores-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let fileCounter = 0;
const freshFile = () => join(dir, `sessions-${++fileCounter}.sqlite`);

/** A node with a parent that does not exist, written by hand (what a buggy app might leave). */
const orphan = { id: 'orphan', role: 'user', parts: [{ type: 'text', text: 'lost' }], parentId: 'never-written' };

/** Inserts `node` into the nodes table behind the store's back. */
function insertRawSql(file, sessionId, node) {
  const db = new Database(file);
  const seq = db.prepare('SELECT COALESCE(MAX(seq), 0) + 1 AS s FROM nodes WHERE session_id = ?').get(sessionId).s;
  db.prepare('INSERT INTO nodes (session_id, id, parent_id, kind, json, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)')
    .run(sessionId, node.id, node.parentId, 'message', JSON.stringify(node), Date.now(), seq);
  db.close();
}

const backends = [
  {
    name: 'MemoryStore',
    open() {
      const store = new MemoryStore();
      return { store, reopen: null, close() {} };
    },
    // No file to write behind its back: a session imported verbatim is the same situation.
    async corrupt(handle) {
      await handle.store.importSession({ nodes: [user('u1', null), orphan], leafId: 'orphan', branchRevision: 3 }, { sessionId: 'broken' });
      return 'broken';
    },
  },
  {
    name: 'SqliteStore',
    open(file = freshFile()) {
      const store = new SqliteStore(Database, file);
      return { store, file, reopen: () => (store.close(), this.open(file)), close: () => store.close() };
    },
    async corrupt(handle) {
      await handle.store.importSession({ nodes: [user('u1', null)], leafId: 'u1', branchRevision: 3 }, { sessionId: 'broken' });
      insertRawSql(handle.file, 'broken', orphan);
      return 'broken';
    },
  },
  {
    name: 'ZoteroDBStore',
    open(file = freshFile()) {
      const connection = new ZoteroDBConnectionShim(Database, file);
      const store = new ZoteroDBStore(connection);
      return {
        store,
        file,
        connection,
        reopen: async () => (await connection.closeDatabase(), this.open(file)),
        close: () => connection.closeDatabase(),
      };
    },
    async corrupt(handle) {
      await handle.store.importSession({ nodes: [user('u1', null)], leafId: 'u1', branchRevision: 3 }, { sessionId: 'broken' });
      insertRawSql(handle.file, 'broken', orphan);
      return 'broken';
    },
  },
];

function user(id, parentId, text = `question ${id}`) {
  return { id, role: 'user', parts: [{ type: 'text', text }], parentId };
}
function assistant(id, text = `answer ${id}`, extra = {}) {
  return { id, role: 'assistant', parts: [{ type: 'text', text }], ...extra };
}
function checkpoint(id, parentId) {
  return {
    id,
    parentId,
    checkpoint: {
      summary: '## Research Goal\n...',
      firstKeptMessageId: null,
      previousCheckpointId: null,
      mode: 'manual',
      tokensBefore: 1000,
      tokensAfter: 100,
      ledger: { entries: [] },
      basis: { leafId: parentId, branchRevision: 2 },
    },
  };
}
function deferred() {
  let resolve;
  const promise = new Promise((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
/** Lets every queued promise job and I/O callback run. */
const settle = () => new Promise((r) => setImmediate(r));

for (const backend of backends) {
  describe(backend.name, () => {
    it('creates, appends and loads a session in insertion order with exact JSON', async () => {
      const h = backend.open();
      const created = await h.store.createSession({ sessionId: 's1' });
      assert.deepEqual(created, { sessionId: 's1', nodes: [], leafId: null, branchRevision: 0 });
      const u = { id: 'u1', role: 'user', metadata: { createdAt: 1, nested: { zh: '中文', emoji: '📚' } }, parts: [{ type: 'text', text: 'find papers' }] };
      const head = await h.store.appendMessage('s1', u);
      assert.deepEqual(head, { node: { ...u, parentId: null }, sessionId: 's1', leafId: 'u1', branchRevision: 1 });
      await h.store.appendMessage('s1', assistant('a1'));
      const session = await h.store.load('s1');
      assert.deepEqual(session, {
        nodes: [{ ...u, parentId: null }, { ...assistant('a1'), parentId: 'u1' }],
        leafId: 'a1',
        branchRevision: 2,
      });
      // Exactly JSON.stringify of the stored node, key order included.
      assert.equal(JSON.stringify(session.nodes[0]), JSON.stringify({ ...u, parentId: null }));
      await h.close();
    });

    // A MemoryStore has nothing to reopen: the test is not registered for it (a skip would fail the stage).
    if (backend.name !== 'MemoryStore') it('reopening yields the same session', async () => {
      let h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      await h.store.transaction('s', async (tx) => {
        const s = await tx.load();
        await tx.appendNode(checkpoint('c1', s.leafId));
        await tx.setLeaf('c1', s.branchRevision + 1);
      });
      const before = await h.store.load('s');
      h = await h.reopen();
      assert.deepEqual(await h.store.load('s'), before);
      assert.deepEqual(await h.store.listSessions(), ['s']);
      await h.close();
    });

    it('rolls back everything a throwing transaction wrote', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      const before = await h.store.load('s');
      await assert.rejects(
        h.store.transaction('s', async (tx) => {
          await tx.appendNode(checkpoint('c1', 'a1'));
          await tx.setLeaf('c1', before.branchRevision + 1);
          assert.equal((await tx.load()).leafId, 'c1'); // visible inside the transaction
          throw new Error('summary rejected');
        }),
        /summary rejected/,
      );
      assert.deepEqual(await h.store.load('s'), before);
      // The id is free again: nothing of the rolled-back node remains.
      await h.store.transaction('s', async (tx) => {
        await tx.appendNode(checkpoint('c1', 'a1'));
        await tx.setLeaf('c1', before.branchRevision + 1);
      });
      assert.equal((await h.store.load('s')).leafId, 'c1');
      await h.close();
    });

    it('serializes an append that arrives while a transaction is open', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      const gate = deferred();
      const inside = deferred();
      const committing = h.store.transaction('s', async (tx) => {
        const s = await tx.load();
        inside.resolve();
        await gate.promise; // e.g. the runner between tx.load and the write
        await tx.appendNode(checkpoint('c1', s.leafId));
        await tx.setLeaf('c1', s.branchRevision + 1);
        return s.branchRevision;
      });
      await inside.promise;
      const reading = h.store.load('s'); // calls run in the order they were made
      let appended = false;
      const appending = h.store.appendMessage('s', user('u2', undefined)).then((head) => {
        appended = true;
        return head;
      });
      await settle();
      assert.equal(appended, false, 'the append waits for the open transaction');
      gate.resolve();
      assert.equal(await committing, 2);
      const head = await appending;
      assert.equal(head.node.parentId, 'c1', 'the append lands after the commit, on the new leaf');
      assert.equal(head.branchRevision, 4);
      assert.equal((await reading).leafId, 'c1', 'a read issued during the transaction sees its commit, not its uncommitted writes nor later calls');
      const s = await h.store.load('s');
      assert.deepEqual(s.nodes.map((n) => n.id), ['u1', 'a1', 'c1', 'u2']);
      await h.close();
    });

    it('serializes two transactions: the second sees the first one\'s commit', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      const commit = (id) => h.store.transaction('s', async (tx) => {
        const s = await tx.load();
        await settle();
        if (s.leafId !== 'u1') return 'stale';
        await tx.appendNode(checkpoint(id, s.leafId));
        await tx.setLeaf(id, s.branchRevision + 1);
        return 'committed';
      });
      const outcomes = await Promise.all([commit('c1'), commit('c2')]);
      assert.deepEqual(outcomes, ['committed', 'stale']);
      assert.deepEqual((await h.store.load('s')).nodes.map((n) => n.id), ['u1', 'c1']);
      await h.close();
    });

    it('bumps the revision only when durable content changes', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      const rev = async () => (await h.store.load('s')).branchRevision;
      await h.store.appendMessage('s', user('u1', null));
      assert.equal(await rev(), 1);
      const pending = { type: 'tool-searchLibrary', toolCallId: 't1', state: 'input-available', input: { q: 'x' } };
      await h.store.appendMessage('s', assistant('a1', 'searching', { parts: [pending] }));
      assert.equal(await rev(), 2);
      // Reads, no-op leaf moves and identical updates change nothing.
      await h.store.load('s');
      await h.store.moveLeaf('s', 'a1');
      await h.store.updateMessageParts('s', 'a1', [pending]);
      await h.store.transaction('s', async (tx) => {
        await tx.load();
      });
      assert.equal(await rev(), 2);
      // A failed operation changes nothing.
      await assert.rejects(h.store.appendMessage('s', user('u1', 'a1')), { code: 'duplicate-id' });
      await assert.rejects(h.store.appendMessage('s', user('x', 'nowhere')), { code: 'missing-parent' });
      assert.equal(await rev(), 2);
      // A tool result arriving is a durable change.
      const done = { ...pending, state: 'output-available', output: { items: [{ key: 'ABCD2345' }] } };
      const updated = await h.store.updateMessageParts('s', 'a1', [done], { metadata: { usage: { inputTokens: 10 } } });
      assert.deepEqual(updated.node.parts, [done]);
      assert.deepEqual(updated.node.metadata, { usage: { inputTokens: 10 } });
      assert.equal(updated.branchRevision, 3);
      // Retry moves the leaf back (one bump), edit adds a sibling (one bump).
      assert.equal((await h.store.retry('s', 'u1')).branchRevision, 4);
      const retried = await h.store.appendMessage('s', assistant('a2'));
      assert.equal(retried.node.parentId, 'u1');
      assert.equal(retried.branchRevision, 5);
      const edited = await h.store.edit('s', null, user('u1b', undefined, 'better question'));
      assert.equal(edited.node.parentId, null);
      assert.equal(edited.branchRevision, 6);
      const retriedWithMessage = await h.store.retry('s', 'u1', assistant('a3'));
      assert.deepEqual([retriedWithMessage.leafId, retriedWithMessage.branchRevision, retriedWithMessage.node.parentId], ['a3', 7, 'u1']);
      // tx.setLeaf refuses a leaf move without a higher revision.
      await assert.rejects(
        h.store.transaction('s', (tx) => tx.setLeaf('a1', 7)),
        { code: 'invalid-revision' },
      );
      assert.equal(await rev(), 7);
      await h.close();
    });

    it('allows in-place updates only at the leaf or for a pending tool part', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      await h.store.appendMessage('s', user('u2', undefined));
      await assert.rejects(h.store.updateMessageParts('s', 'a1', []), { code: 'not-updatable' });
      await h.store.transaction('s', async (tx) => {
        await tx.appendNode(checkpoint('c1', 'u2'));
        await tx.setLeaf('c1', 4);
      });
      await assert.rejects(h.store.updateMessageParts('s', 'c1', []), { code: 'not-updatable' });
      await assert.rejects(h.store.appendMessage('s', checkpoint('c2', 'c1')), { code: 'invalid-node' });
      assert.equal((await h.store.load('s')).branchRevision, 4);
      await h.close();
    });

    it('forks into a new session that shares the ancestor chain without copying it', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      await h.store.appendMessage('s', user('u2', undefined));
      await h.store.appendMessage('s', assistant('a2'));
      const source = await h.store.load('s');
      const fork = await h.store.fork('s', 'a1', { sessionId: 'f' });
      assert.deepEqual(fork, { sessionId: 'f', leafId: 'a1', branchRevision: 0 });
      await h.store.appendMessage('f', user('fu', undefined));
      const f = await h.store.load('f');
      assert.deepEqual(f.nodes.map((n) => n.id), ['u1', 'a1', 'fu']);
      assert.deepEqual([f.leafId, f.branchRevision], ['fu', 1]);
      assert.deepEqual(await h.store.load('s'), source, 'the source session is untouched');
      // Ids stay unique across the fork's whole view; inherited nodes are read-only through it.
      await assert.rejects(h.store.appendMessage('f', user('u1', 'fu')), { code: 'duplicate-id' });
      await assert.rejects(h.store.updateMessageParts('f', 'a1', []), { code: 'unknown-node' });
      // Forks of forks follow the chain through both sessions.
      await h.store.appendMessage('f', assistant('fa'));
      await h.store.fork('f', 'fa', { sessionId: 'ff' });
      assert.deepEqual((await h.store.load('ff')).nodes.map((n) => n.id), ['u1', 'a1', 'fu', 'fa']);
      // A compaction transaction on the fork sees the inherited chain.
      await h.store.transaction('ff', async (tx) => {
        const s = await tx.load();
        await tx.appendNode(checkpoint('fc', s.leafId));
        await tx.setLeaf('fc', s.branchRevision + 1);
      });
      assert.deepEqual((await h.store.load('ff')).nodes.map((n) => n.id), ['u1', 'a1', 'fu', 'fa', 'fc']);
      await h.close();
    });

    it('loads a corrupt parent chain as it is and does not repair it', async () => {
      const h = backend.open();
      const id = await backend.corrupt(h);
      const s = await h.store.load(id);
      assert.deepEqual(s.nodes.map((n) => [n.id, n.parentId]), [['u1', null], ['orphan', 'never-written']]);
      // Appending continues; the broken node is stored unchanged.
      await h.store.moveLeaf(id, 'orphan');
      await h.store.appendMessage(id, assistant('a1'));
      const again = await h.store.load(id);
      assert.deepEqual(again.nodes[1], orphan);
      assert.equal(again.nodes[2].parentId, 'orphan');
      await h.close();
    });

    it('never mutates inputs and never hands out stored objects', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      const message = Object.freeze({ id: 'u1', role: 'user', parts: Object.freeze([Object.freeze({ type: 'text', text: 'hi' })]) });
      const head = await h.store.appendMessage('s', message);
      assert.equal(Object.hasOwn(message, 'parentId'), false);
      head.node.parts[0].text = 'changed by caller';
      const first = await h.store.load('s');
      first.nodes[0].parts[0].text = 'changed by caller';
      first.nodes.push(user('fake', null));
      const second = await h.store.load('s');
      assert.equal(second.nodes.length, 1);
      assert.equal(second.nodes[0].parts[0].text, 'hi');
      const cp = checkpoint('c1', 'u1');
      const snapshot = JSON.stringify(cp);
      await h.store.transaction('s', async (tx) => {
        await tx.appendNode(cp);
        await tx.setLeaf('c1', 2);
      });
      assert.equal(JSON.stringify(cp), snapshot);
      await h.close();
    });

    it('bumps the revision of every fork whose inherited chain holds an updated node', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      await h.store.fork('s', 'a1', { sessionId: 'f' });
      await h.store.appendMessage('f', user('fu', undefined));
      await h.store.appendMessage('f', assistant('fa'));
      await h.store.fork('f', 'fa', { sessionId: 'ff' });
      await h.store.fork('s', 'u1', { sessionId: 'early' }); // its chain is u1 only
      await h.store.appendMessage('s', user('u2', undefined));
      await h.store.moveLeaf('s', 'a1');
      const before = {};
      for (const id of ['f', 'ff', 'early']) before[id] = (await h.store.load(id)).branchRevision;
      const corrected = [{ type: 'text', text: 'corrected answer a1' }];
      await h.store.updateMessageParts('s', 'a1', corrected);
      const f = await h.store.load('f');
      assert.equal(f.branchRevision, before.f + 1, 'the fork sees a changed a1, so its revision moved');
      assert.equal(f.leafId, 'fa', 'the fork\'s leaf stays');
      assert.deepEqual(f.nodes.find((n) => n.id === 'a1').parts, corrected);
      assert.equal((await h.store.load('ff')).branchRevision, before.ff + 1, 'a fork of the fork too');
      assert.equal((await h.store.load('early')).branchRevision, before.early, 'a fork that does not hold a1 stays');
      // An identical update is no change anywhere.
      await h.store.updateMessageParts('s', 'a1', corrected);
      assert.equal((await h.store.load('f')).branchRevision, before.f + 1);
      await h.close();
    });

    it('refuses an append whose expected leaf or revision is no longer current', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      const seen = await h.store.appendMessage('s', user('u1', null), { expectedLeafId: null, expectedRevision: 0 });
      await h.store.appendMessage('s', assistant('a1'), { expectedLeafId: 'u1' });
      // Another window answered meanwhile: the reply this window wrote for u1 must not land under a1.
      await assert.rejects(h.store.appendMessage('s', assistant('late'), { expectedLeafId: seen.leafId }), (error) => {
        assert.equal(error.code, 'session-moved');
        assert.deepEqual([error.leafId, error.branchRevision], ['a1', 2]);
        return true;
      });
      await assert.rejects(h.store.appendMessage('s', user('u2', undefined), { expectedRevision: seen.branchRevision }), { code: 'session-moved' });
      await assert.rejects(h.store.retry('s', 'u1', assistant('r1'), { expectedRevision: 1 }), { code: 'session-moved' });
      await assert.rejects(h.store.edit('s', null, user('e1', undefined), { expectedLeafId: 'u1' }), { code: 'session-moved' });
      await assert.rejects(h.store.appendMessage('s', user('u2', undefined), { expectedRevision: -1 }), { code: 'invalid-argument' });
      const s = await h.store.load('s');
      assert.deepEqual([s.nodes.map((n) => n.id), s.branchRevision], [['u1', 'a1'], 2], 'refused appends wrote nothing');
      const ok = await h.store.appendMessage('s', user('u2', undefined), { expectedLeafId: 'a1', expectedRevision: 2 });
      assert.deepEqual([ok.node.parentId, ok.branchRevision], ['a1', 3]);
      await h.close();
    });

    it('keeps session metadata: title, app key, times; lists it; gets or creates by app key', async () => {
      const h = backend.open();
      const t0 = Date.now();
      await h.store.createSession({ sessionId: 'a', title: 'Dense retrieval', appKey: 'ITEMKEY1' });
      await h.store.createSession({ sessionId: 'b' });
      await h.store.appendMessage('a', user('u1', null));
      assert.deepEqual(await h.store.listSessions().then((ids) => [...ids].sort()), ['a', 'b'], 'the old form: ids');
      const listed = await h.store.listSessions({ details: true });
      const a = listed.find((info) => info.sessionId === 'a');
      assert.deepEqual({ ...a, createdAt: 0, updatedAt: 0 }, {
        sessionId: 'a', title: 'Dense retrieval', appKey: 'ITEMKEY1', createdAt: 0, updatedAt: 0,
        leafId: 'u1', branchRevision: 1, baseSessionId: null, baseNodeId: null,
      });
      assert.ok(a.createdAt >= t0 && a.updatedAt >= a.createdAt);
      assert.deepEqual(listed.find((info) => info.sessionId === 'b').title, null);
      const again = await h.store.getOrCreateSession({ appKey: 'ITEMKEY1', title: 'ignored' });
      assert.deepEqual([again.created, again.sessionId, again.title], [false, 'a', 'Dense retrieval']);
      const made = await h.store.getOrCreateSession({ appKey: 'ITEMKEY2', title: 'Second item', sessionId: 'c' });
      assert.deepEqual([made.created, made.sessionId, made.leafId, made.branchRevision], [true, 'c', null, 0]);
      assert.equal((await h.store.getOrCreateSession({ appKey: 'ITEMKEY2' })).created, false);
      await assert.rejects(h.store.createSession({ sessionId: 'd', appKey: 'ITEMKEY1' }), { code: 'app-key-exists' });
      await assert.rejects(h.store.setSessionInfo('b', { appKey: 'ITEMKEY2' }), { code: 'app-key-exists' });
      const renamed = await h.store.setSessionInfo('a', { title: 'Dense passage retrieval' });
      assert.deepEqual([renamed.title, renamed.appKey, renamed.branchRevision], ['Dense passage retrieval', 'ITEMKEY1', 1]);
      assert.equal((await h.store.getSessionInfo('a')).title, 'Dense passage retrieval');
      assert.equal((await h.store.setSessionInfo('a', { appKey: null })).appKey, null);
      await assert.rejects(h.store.getSessionInfo('nope'), { code: 'unknown-session' });
      await assert.rejects(h.store.getOrCreateSession({}), { code: 'invalid-argument' });
      await assert.rejects(h.store.createSession({ title: 7 }), { code: 'invalid-argument' });
      await h.close();
    });

    it('deletes a session; one with forks only with withForks', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's', appKey: 'K' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      await h.store.fork('s', 'a1', { sessionId: 'f' });
      await h.store.fork('f', 'a1', { sessionId: 'ff' });
      await h.store.createSession({ sessionId: 'other' });
      await assert.rejects(h.store.deleteSession('s'), (error) => {
        assert.equal(error.code, 'has-forks');
        assert.deepEqual(error.forks, ['f']);
        return true;
      });
      assert.equal((await h.store.load('ff')).nodes.length, 2, 'a refused delete removed nothing');
      assert.deepEqual(await h.store.deleteSession('s', { withForks: true }), { deleted: ['ff', 'f', 's'] });
      assert.deepEqual(await h.store.listSessions(), ['other']);
      await assert.rejects(h.store.load('f'), { code: 'unknown-session' });
      await assert.rejects(h.store.deleteSession('s'), { code: 'unknown-session' });
      // The id and the app key are free again; no node of the old session remains.
      await h.store.createSession({ sessionId: 's', appKey: 'K' });
      await h.store.appendMessage('s', user('u1', null));
      assert.deepEqual((await h.store.load('s')).nodes.map((n) => n.id), ['u1']);
      await h.close();
    });

    it('imports a linear UIMessage list (no parentId) as a session', async () => {
      const h = backend.open();
      const chat = [
        { id: 'm1', role: 'user', parts: [{ type: 'text', text: 'find papers on RAG' }] },
        { id: 'm2', role: 'assistant', parts: [{ type: 'text', text: 'three papers' }] },
        { id: 'm3', role: 'user', parts: [{ type: 'text', text: 'summarize the second' }] },
      ];
      const frozen = JSON.stringify(chat);
      const head = await h.store.importMessages(chat, { sessionId: 'old', title: 'From useChat', appKey: 'ITEM' });
      assert.deepEqual(head, { sessionId: 'old', leafId: 'm3', branchRevision: 3 });
      assert.equal(JSON.stringify(chat), frozen, 'input not mutated');
      const s = await h.store.load('old');
      assert.deepEqual(s.nodes.map((n) => [n.id, n.parentId]), [['m1', null], ['m2', 'm1'], ['m3', 'm2']]);
      assert.equal((await h.store.getSessionInfo('old')).title, 'From useChat');
      const next = await h.store.appendMessage('old', assistant('m4'));
      assert.equal(next.node.parentId, 'm3');
      await assert.rejects(h.store.importMessages([chat[0], chat[0]]), { code: 'duplicate-id' });
      await assert.rejects(h.store.importMessages([chat[0], { ...chat[1], parentId: 'elsewhere' }]), { code: 'invalid-node' });
      await assert.rejects(h.store.importMessages([{ role: 'user', parts: [] }]), { code: 'invalid-node' });
      await assert.rejects(h.store.importMessages('nope'), { code: 'invalid-session' });
      assert.deepEqual(glue.sessionFromMessages([]), { nodes: [], leafId: null, branchRevision: 0 });
      await h.close();
    });

    it('lists the checkpoints of a branch, oldest first', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      await h.store.transaction('s', async (tx) => {
        await tx.appendNode(checkpoint('c1', 'a1'));
        await tx.setLeaf('c1', 3);
      });
      await h.store.appendMessage('s', user('u2', undefined));
      await h.store.transaction('s', async (tx) => {
        await tx.appendNode(checkpoint('c2', 'u2'));
        await tx.setLeaf('c2', 5);
      });
      assert.deepEqual((await h.store.listCheckpoints('s')).map((n) => n.id), ['c1', 'c2']);
      assert.deepEqual((await h.store.listCheckpoints('s', { leafId: 'u2' })).map((n) => n.id), ['c1']);
      await h.store.retry('s', 'u1', assistant('a1b')); // a branch without checkpoints
      assert.deepEqual(await h.store.listCheckpoints('s'), []);
      const [c1] = await h.store.listCheckpoints('s', { leafId: 'c1' });
      assert.deepEqual(c1, checkpoint('c1', 'a1'));
      await assert.rejects(h.store.listCheckpoints('s', { leafId: 'nope' }), { code: 'unknown-node' });
      await h.close();
    });

    it('close(): later calls are refused with store-closed, calls already made finish', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      const pending = h.store.appendMessage('s', user('u1', null));
      const closing = h.store.close();
      assert.equal((await pending).leafId, 'u1');
      await closing;
      assert.equal(h.store.closed, true);
      await assert.rejects(h.store.load('s'), { code: 'store-closed' });
      await assert.rejects(h.store.appendMessage('s', user('u2', undefined)), { code: 'store-closed' });
      await h.store.close(); // twice is fine
      if (h.reopen) {
        const again = backend.open(h.file);
        assert.deepEqual((await again.store.load('s')).nodes.map((n) => n.id), ['u1'], 'what was written before close is there');
        await again.store.close();
        await again.close();
      }
      await h.close();
    });

    it('hands out the stored JSON text of a session for an index kept elsewhere', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      await h.store.appendMessage('s', user('u1', null));
      await h.store.appendMessage('s', assistant('a1'));
      const text = await h.store.loadJson('s');
      const session = await h.store.load('s');
      assert.deepEqual({ nodes: JSON.parse(text.nodesJson), leafId: text.leafId, branchRevision: text.branchRevision }, session);
      await h.close();
    });

    it('rejects a tx used after its transaction ended and unknown sessions', async () => {
      const h = backend.open();
      await h.store.createSession({ sessionId: 's' });
      let leaked;
      await h.store.transaction('s', async (tx) => {
        leaked = tx;
      });
      await assert.rejects(leaked.load(), { code: 'transaction-closed' });
      await assert.rejects(h.store.load('nope'), { code: 'unknown-session' });
      await assert.rejects(h.store.transaction('nope', async () => 1), { code: 'unknown-session' });
      await assert.rejects(h.store.createSession({ sessionId: 's' }), { code: 'session-exists' });
      await h.close();
    });
  });
}

describe('ZoteroDBStore specifics', () => {
  it('loads more than 999 nodes (no statement binds one parameter per node)', async () => {
    const h = backends[2].open();
    const nodes = [];
    for (let i = 0; i < 1500; i++) nodes.push(i % 2 ? { ...assistant(`m${i}`), parentId: `m${i - 1}` } : user(`m${i}`, i ? `m${i - 1}` : null));
    await h.store.importSession({ nodes, leafId: 'm1499', branchRevision: 1500 }, { sessionId: 'long' });
    const s = await h.store.load('long');
    assert.equal(s.nodes.length, 1500);
    assert.deepEqual(s.nodes, nodes);
    const head = await h.store.appendMessage('long', user('m1500', undefined));
    assert.deepEqual([head.node.parentId, head.branchRevision], ['m1499', 1501]);
    await h.close();
  });

  it('issues every SELECT in the form queryAsync returns rows for', async () => {
    const h = backends[2].open();
    await h.store.createSession({ sessionId: 's' });
    await h.store.appendMessage('s', user('u1', null));
    await h.store.load('s');
    const selects = h.connection.log.filter((sql) => /^\s*(select|with)\b/i.test(sql));
    assert.ok(selects.length > 0);
    for (const sql of selects) assert.match(sql, /^SELECT /, sql);
    await h.close();
  });

  it('creates its schema inside a transaction, once', async () => {
    const h = backends[2].open();
    // Transaction boundaries into the statement log, to see which statements ran inside one.
    const { connection } = h;
    const run = connection.executeTransaction.bind(connection);
    connection.executeTransaction = async (fn, options) => run(async () => {
      connection.log.push('<begin>');
      try {
        return await fn();
      } finally {
        connection.log.push('<end>');
      }
    }, options);
    await h.store.listSessions();
    await h.store.listSessions();
    const schemaWrites = (sql) => sql.startsWith('CREATE ') || sql === 'PRAGMA user_version = ' + glue.SESSION_SCHEMA_VERSION;
    let depth = 0;
    const outside = [];
    let creatingTransactions = 0;
    let wroteInThis = false;
    for (const sql of connection.log) {
      if (sql === '<begin>') (depth += 1), (wroteInThis = false);
      else if (sql === '<end>') depth -= 1;
      else if (schemaWrites(sql)) {
        if (depth === 0) outside.push(sql);
        else if (!wroteInThis) (wroteInThis = true), (creatingTransactions += 1);
      }
    }
    assert.ok(connection.log.some(schemaWrites), 'the schema was written');
    assert.deepEqual(outside, [], 'no schema statement outside a transaction');
    assert.equal(creatingTransactions, 1, 'one transaction created the whole schema');
    assert.equal(connection.log.filter((sql) => sql.startsWith('CREATE TABLE')).length, 2, 'each table created once');
    assert.equal(await connection.valueQueryAsync('PRAGMA user_version'), glue.SESSION_SCHEMA_VERSION);
    await h.close();
  });
});

// The Zotero.DBConnection fake's own semantics are pinned against the real runtime in zotero-shim.test.mjs.

describe('SqliteStore', () => {
  it('opens its file in WAL mode and accepts an already open database', async () => {
    const file = freshFile();
    const store = new SqliteStore(Database, file);
    assert.equal(store.database.pragma('journal_mode', { simple: true }), 'wal');
    await store.createSession({ sessionId: 's' });
    store.close();
    const db = new Database(file);
    const shared = new SqliteStore(db);
    assert.deepEqual(await shared.listSessions(), ['s']);
    shared.close(); // not its database: stays open
    assert.equal(db.open, true);
    db.close();
  });
});

// Issue 23, item 6: an id (or key) a store cannot keep exactly is refused at once, with the same code
// on every store. SQLite keeps text as UTF-8, where a lone surrogate becomes U+FFFD: the session row
// was written as 'pane-\ufffd' while its nodes referred to 'pane-\ud83d'.
const LONE = ['pane-\ud83d', 'pane-\udc00-x', '\ud83d'];
for (const backend of backends) {
  describe(`${backend.name}: ids that cannot be stored exactly`, () => {
    it('refuses a lone surrogate in a session id, node id, parent id, app key or title with a code, writing nothing', async () => {
      const handle = backend.open();
      const { store } = handle;
      const { sessionId } = await store.createSession({ sessionId: 'pane-ok' });
      await store.appendMessage(sessionId, user('u1', null));
      const before = JSON.stringify(await store.load(sessionId));
      for (const bad of LONE) {
        const label = JSON.stringify(bad);
        await assert.rejects(store.createSession({ sessionId: bad }), { code: 'invalid-argument' }, label);
        await assert.rejects(store.importSession({ nodes: [user('u1', null)], leafId: 'u1', branchRevision: 1 }, { sessionId: bad }), { code: 'invalid-argument' }, label);
        await assert.rejects(store.getOrCreateSession({ appKey: bad }), { code: 'invalid-argument' }, label);
        await assert.rejects(store.createSession({ sessionId: 'pane-title', title: bad }), { code: 'invalid-argument' }, label);
        await assert.rejects(store.fork(sessionId, 'u1', { sessionId: bad }), { code: 'invalid-argument' }, label);
        await assert.rejects(store.load(bad), { code: 'invalid-argument' }, label);
        await assert.rejects(store.appendMessage(bad, user('u9', null)), { code: 'invalid-argument' }, label);
        await assert.rejects(store.appendMessage(sessionId, user(bad, 'u1')), { code: 'invalid-node' }, label);
        await assert.rejects(store.appendMessage(sessionId, user('u2', bad)), { code: 'invalid-node' }, label);
        await assert.rejects(store.importSession({ nodes: [user(bad, null)], leafId: bad, branchRevision: 1 }, { sessionId: 'pane-nodes' }), { code: 'invalid-node' }, label);
      }
      assert.deepEqual((await store.listSessions()).sort(), ['pane-ok'], 'no session was created');
      assert.equal(JSON.stringify(await store.load(sessionId)), before, 'nothing was written');
      // A well-formed pair (an emoji) is kept exactly, on every store.
      const { sessionId: emoji } = await store.createSession({ sessionId: 'pane-\ud83d\ude00', title: 'dogs \ud83d\udc15' });
      await store.appendMessage(emoji, user('u-\ud83d\ude00', null));
      assert.deepEqual((await store.load(emoji)).nodes.map((n) => n.id), ['u-\ud83d\ude00']);
      assert.equal((await store.getSessionInfo(emoji)).title, 'dogs \ud83d\udc15');
      await handle.close();
    });
  });
}
