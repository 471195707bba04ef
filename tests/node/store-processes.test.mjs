// Several processes on one SqliteStore file at once (issue 18), each a store-process-worker.mjs
// with a fixed number of operations (and a time bound after which the test kills it and fails):
//   - a base window updates S's message A4 in place while forker processes fork S at A4 and
//     compact the forks with slow summarizers: a checkpoint may only be committed from the
//     version of A4 that is current when it commits (checked against the commit order SQLite
//     itself recorded, through triggers on a side table);
//   - appender processes reply on session T with the leaf and revision they saw, and run slow
//     store transactions: every reply lands under the leaf its writer saw or is refused with
//     `session-moved`, and the revision counts every head move exactly once;
//   - no process sees anything but coded refusals (never a raw SQLITE_BUSY); integrity holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

import { compaction, linearSession } from './runner-fixtures.mjs';

const { SqliteStore } = compaction;
const WORKER = fileURLToPath(new URL('./store-process-worker.mjs', import.meta.url));
/** The workers: role and number of operations. */
const PLAN = [
  ['base', 60],
  ['forker', 20],
  ['forker', 20],
  ['appender', 80],
  ['appender', 80],
];
/** A worker still running after this long is killed and the test fails (no timed assertion otherwise). */
const WORKER_LIMIT_MS = 120_000;

function run(file, role, number, operations) {
  const baseUpdates = PLAN.find(([name]) => name === 'base')[1];
  const child = spawn(process.execPath, [WORKER, file, role, String(number), String(operations), String(baseUpdates)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: process.env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const limit = setTimeout(() => child.kill('SIGKILL'), WORKER_LIMIT_MS);
  return new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(limit);
      resolve({ role, number, code, signal, lines: stdout.split('\n').filter(Boolean), stderr });
    }),
  );
}

test(`${PLAN.length} processes on one SQLite file: no stale fork commit, no misplaced reply, only coded refusals`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bibgenie-processes-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'sessions.sqlite');

  const seed = new SqliteStore(Database, file);
  await seed.importSession(linearSession(4), { sessionId: 'S' }); // leaf A4
  const t0 = await seed.importSession(linearSession(1), { sessionId: 'T' });
  await seed.close();
  // The commit order of A4's updates and of every checkpoint, recorded by SQLite in the writing transaction.
  const db = new Database(file);
  db.exec('CREATE TABLE commit_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, what TEXT NOT NULL, json TEXT NOT NULL)');
  db.exec("CREATE TRIGGER log_a4 AFTER UPDATE OF json ON nodes WHEN NEW.session_id = 'S' AND NEW.id = 'A4' BEGIN INSERT INTO commit_log (what, json) VALUES ('update', NEW.json); END");
  db.exec("CREATE TRIGGER log_checkpoint AFTER INSERT ON nodes WHEN NEW.kind = 'checkpoint' BEGIN INSERT INTO commit_log (what, json) VALUES ('checkpoint', NEW.json); END");
  db.close();

  const results = await Promise.all(PLAN.map(([role, operations], number) => run(file, role, number, operations)));
  const count = (predicate) => results.flatMap((r) => r.lines).filter(predicate).length;
  for (const r of results) {
    assert.equal(r.signal, null, `worker ${r.number} (${r.role}) was killed after ${WORKER_LIMIT_MS} ms: ${r.stderr}`);
    assert.equal(r.code, 0, `worker ${r.number} (${r.role}) failed: ${r.stderr}\n${r.lines.filter((l) => l.startsWith('error')).join('\n')}`);
    assert.equal(r.lines.at(-1), 'done');
    for (const line of r.lines.filter((l) => l.startsWith('error'))) {
      assert.match(line, /^error (session-moved|store-conflict|store-busy) /, `only coded refusals: ${line}`);
    }
  }

  const check = new Database(file, { readonly: true });
  try {
    assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');

    // 1. Every committed checkpoint summarized the version of A4 current at its commit.
    let current = 0;
    let checkpoints = 0;
    for (const { what, json } of check.prepare('SELECT what, json FROM commit_log ORDER BY seq').all()) {
      const node = JSON.parse(json);
      if (what === 'update') {
        current = Number(/shared v(\d+)/.exec(node.parts[0].text)[1]);
      } else {
        checkpoints++;
        const saw = Number(/saw-v(-?\d+)/.exec(node.checkpoint.summary)[1]);
        assert.equal(saw, current, `checkpoint ${node.id} was summarized from A4 v${saw} but committed when v${current} was current`);
      }
    }
    assert.equal(checkpoints, count((l) => l.startsWith('ckpt ')), 'every reported commit is in the file, and only those');
    assert.ok(checkpoints >= 2, 'each forker\'s last compaction, run after the base stopped writing, committed');
    // The check above holds trivially unless a compaction overlapped a base update: the first forker's
    // first one is made to (its summarizer waits for the base), and must have been refused.
    assert.ok(count((l) => l.startsWith('stale ')) >= 1, 'a fork compaction overlapped a base update of A4 and was refused as stale');

    // 2. Every reply landed under the leaf its writer saw; the revision counts each head move once.
    const parents = new Map(check.prepare("SELECT id, parent_id FROM nodes WHERE session_id = 'T'").all().map((r) => [r.id, r.parent_id]));
    const writes = results.flatMap((r) => r.lines).filter((l) => l.startsWith('ok ') || l.startsWith('tx '));
    for (const line of writes) {
      const [, id, parent] = line.split(' ');
      assert.equal(parents.get(id), parent, `${id} is stored under the leaf it was written for`);
    }
    assert.equal(parents.size, 2 + writes.length, 'nothing else was written to T');
    const head = check.prepare("SELECT leaf_id, branch_revision FROM sessions WHERE id = 'T'").get();
    assert.equal(head.branch_revision, t0.branchRevision + writes.length, 'one revision per head move, none lost');
    // A chain: each write's parent is the previous write (or A1), so no two replies share a parent.
    assert.equal(new Set([...parents.values()]).size, parents.size, 'no two nodes of T share a parent: nothing landed beside another window\'s message');

    console.log(
      `store processes: ${checkpoints} fork commits, ${count((l) => l.startsWith('stale '))} refused as stale; ` +
        `${count((l) => l.startsWith('ok '))} replies and ${count((l) => l.startsWith('tx '))} slow transactions on T, ` +
        `${count((l) => l === 'moved')} replies refused as session-moved; ` +
        `other coded refusals: ${['store-conflict', 'store-busy'].map((code) => `${count((l) => l.startsWith(`error ${code} `))} ${code}`).join(', ')}`,
    );
  } finally {
    check.close();
  }
});
