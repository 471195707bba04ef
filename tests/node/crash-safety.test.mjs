// Crash safety with the real SQLite store: a child process (crash-worker.mjs) appends messages,
// runs tool calls, retries, edits and compactions (the wasm `compact` runner with the extractive
// summarizer) on the sample research session (tests/fixtures/sample-session.json) in a better-sqlite3 WAL file, and is killed with
// SIGKILL at a random point, hundreds of times. After every kill the database is reopened and
// checked; the checks hold for any kill point:
//   1. `PRAGMA integrity_check` is ok and no foreign key dangles;
//   2. no partial checkpoint: every node row parses and matches its columns, every checkpoint's
//      parent exists, its basis is its parent, its summary validates, its references exist; a
//      checkpoint appended in a transaction the kill cut short is either committed with the leaf
//      moved to it or absent;
//   3. no message is lost: every node the worker reported as written is in the file;
//   4. the leaf and the revision agree with the nodes: the revision is the last reported one or
//      one more (an operation that committed before its report), the leaf is then the reported
//      leaf or the newest node, and the next worker starts from exactly that state;
//   5. readBranch on the reloaded session reports no problem and the projection reads.
// The kill delays come from a seeded PRNG; the seed is printed (BIBGENIE_CRASH_SEED replays its
// choices, though not the machine's timing). BIBGENIE_CRASH_KILLS sets the number of kills.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

const pkgSpec = process.env.BIBGENIE_PKG ?? new URL('../../pkg/index.js', import.meta.url).href;
const compaction = await import(pkgSpec);
await compaction.init();
const { SqliteStore, readBranch, project, validateSummary } = compaction;

// The test fixtures beside the tests (not in the package): the generator the worker also imports.
const generatorUrl = new URL('../fixtures/session-generator.mjs', import.meta.url).href;
const { prng } = await import(generatorUrl);
const sampleSession = JSON.parse(readFileSync(new URL('../fixtures/sample-session.json', import.meta.url), 'utf8'));

const WORKER = fileURLToPath(new URL('./crash-worker.mjs', import.meta.url));
const SESSION_ID = 'crash-research';
const KILLS = Number(process.env.BIBGENIE_CRASH_KILLS ?? 200);
const SEED = Number(process.env.BIBGENIE_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
/** The kill comes after 0..MAX_REPORTS_BEFORE_KILL report lines past `ready` (a few operations; counted in
 * lines rather than time so that a slow machine still kills at every stage), then 0..MAX_JITTER_MS. */
const MAX_REPORTS_BEFORE_KILL = 12;
const MAX_JITTER_MS = 25;
/** One kill in this many lands while the worker opens the database and loads the session. */
const STARTUP_KILL_EVERY = 10;
/** One kill in this many is aimed at a compaction's open transaction: sent when the worker reports the
 * checkpoint appended (`ckpt?`), before its commit. Random kills land there too rarely to count on. */
const AIMED_KILL_EVERY = 5;
/** How long a kill waits for reports that do not come. */
const STALL_MS = 30_000;
/** Workers started ahead, loading and warming up while the current one works (startup is the slow part). */
const WARM_WORKERS = 3;


const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A worker process with its stdout split into complete lines (a cut last line is dropped). */
function startWorker(file, number, seed) {
  const child = spawn(process.execPath, [WORKER, file, SESSION_ID, String(number), String(seed), generatorUrl], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: process.env,
  });
  const worker = { child, lines: [], stderr: '', waiters: [] };
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      worker.lines.push(buffer.slice(0, newline));
      buffer = buffer.slice(newline + 1);
    }
    worker.waiters = worker.waiters.filter((w) => !w());
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => (worker.stderr += chunk));
  child.stdin.on('error', () => {}); // the kill closes the pipe under a pending write
  worker.closed = new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
  /** Resolves true once `done(lines)` holds, or false when the process ends before. */
  worker.until = (done) =>
    new Promise((resolve) => {
      const check = () => (done(worker.lines) ? (resolve(true), true) : false);
      if (!check()) {
        worker.waiters.push(check);
        worker.closed.then(() => resolve(done(worker.lines)));
      }
    });
  worker.waitFor = (prefix) => worker.until((lines) => lines.some((l) => l.startsWith(prefix)));
  return worker;
}

/** What the worker's report lines say is durable, starting from `expected` ({ revision, leaf }). */
function replay(lines, expected, reported, stats) {
  let state = { ...expected };
  let transaction = null; // { checkpointId } while the compaction's transaction is open or unreported
  for (const line of lines) {
    const [kind, a, b, c] = line.split(' ');
    if (kind === 'ready') {
      assert.deepEqual({ revision: Number(a), leaf: b }, expected, 'a worker starts from the state the last check found');
    } else if (kind === 'node') {
      assert.equal(Number(b), state.revision + 1, `appending ${a} bumps the revision once`);
      reported.add(a);
      state = { revision: Number(b), leaf: c };
      transaction = null;
      stats.messages++;
    } else if (kind === 'head') {
      assert.equal(Number(a), state.revision + 1, 'a tool result bumps the revision once');
      state = { revision: Number(a), leaf: b };
      transaction = null;
    } else if (kind === 'tx+') {
      transaction = { checkpointId: null };
    } else if (kind === 'ckpt?') {
      transaction = { checkpointId: a };
    } else if (kind === 'ckpt') {
      assert.equal(Number(b), state.revision + 1, `committing ${a} bumps the revision once`);
      reported.add(a);
      state = { revision: Number(b), leaf: a };
      transaction = null;
      stats.checkpoints++;
    }
  }
  return { state, transaction };
}

/** Reopens the file and checks it against what was reported; returns the durable { revision, leaf }. */
async function verify(file, reported, { state, transaction }, stats) {
  const db = new Database(file);
  let rows, head;
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok', 'PRAGMA integrity_check');
    assert.deepEqual(db.pragma('foreign_key_check'), [], 'PRAGMA foreign_key_check');
    head = db.prepare('SELECT leaf_id, branch_revision FROM sessions WHERE id = ?').get(SESSION_ID);
    rows = db.prepare('SELECT id, parent_id, kind, json FROM nodes WHERE session_id = ? ORDER BY seq').all(SESSION_ID);
  } finally {
    db.close();
  }
  assert.ok(head, 'the session row exists');

  // No partial or malformed node, and no partial checkpoint.
  const earlier = new Map();
  for (const row of rows) {
    const node = JSON.parse(row.json);
    assert.equal(node.id, row.id, `node ${row.id}: json id`);
    assert.equal(node.parentId, row.parent_id, `node ${row.id}: json parentId`);
    assert.equal(row.kind, node.checkpoint ? 'checkpoint' : 'message', `node ${row.id}: kind`);
    if (node.parentId !== null) assert.ok(earlier.has(node.parentId), `node ${row.id}: parent ${node.parentId} exists`);
    if (node.checkpoint) {
      const c = node.checkpoint;
      assert.equal(c.basis.leafId, node.parentId, `checkpoint ${row.id}: made from its parent`);
      assert.ok(c.basis.branchRevision < head.branch_revision, `checkpoint ${row.id}: basis revision before now`);
      validateSummary(c.summary);
      if (c.firstKeptMessageId !== null) assert.ok(earlier.has(c.firstKeptMessageId), `checkpoint ${row.id}: boundary exists`);
      if (c.previousCheckpointId !== null) {
        assert.ok(earlier.get(c.previousCheckpointId)?.checkpoint, `checkpoint ${row.id}: previous checkpoint exists`);
      }
    }
    earlier.set(row.id, node);
  }

  // No message lost.
  for (const id of reported) assert.ok(earlier.has(id), `reported node ${id} survived the kill`);

  // Leaf and revision agree with the nodes and with the reports. Every operation of the worker
  // appends under the leaf or updates the leaf, so the leaf is always the newest node.
  const revision = head.branch_revision;
  assert.equal(head.leaf_id, rows.at(-1).id, 'the leaf is the newest node');
  assert.ok(revision === state.revision || revision === state.revision + 1,
    `revision ${revision} is the last reported ${state.revision} or one operation more`);
  if (revision === state.revision) assert.equal(head.leaf_id, state.leaf, 'the leaf is the last reported one');
  if (transaction?.checkpointId) {
    stats.killsInCompaction++;
    const committed = earlier.has(transaction.checkpointId);
    if (committed) {
      stats.cutCommitted++;
      assert.equal(head.leaf_id, transaction.checkpointId, 'a committed checkpoint is the leaf');
      assert.equal(revision, state.revision + 1, 'a committed checkpoint bumped the revision');
    } else {
      stats.cutRolledBack++;
      assert.equal(revision, state.revision, 'a rolled back compaction left the revision');
    }
  }

  // The store reads it back and the core finds it whole.
  const store = new SqliteStore(Database, file);
  let session;
  try {
    session = await store.load(SESSION_ID);
  } finally {
    store.close();
  }
  const branch = readBranch(session);
  assert.deepEqual(branch.problems, [], 'readBranch finds no problem');
  assert.equal(branch.readOnly, false);
  project(session);
  stats.checks++;
  return { revision, leaf: head.leaf_id };
}

test(`SIGKILL at random points never corrupts or loses the SQLite session (${KILLS} kills)`, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'bibgenie-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'sessions.sqlite');
  const random = prng(SEED).next;
  console.log(`crash safety: seed ${SEED} (BIBGENIE_CRASH_SEED=${SEED} replays the delays), ${KILLS} kills`);

  const seeded = new SqliteStore(Database, file);
  const imported = await seeded.importSession(sampleSession, { sessionId: SESSION_ID });
  seeded.close();
  let expected = { revision: imported.branchRevision, leaf: imported.leafId };

  const reported = new Set();
  const stats = { kills: 0, checks: 0, messages: 0, checkpoints: 0, startupKills: 0, aimedKills: 0, killsInCompaction: 0, cutCommitted: 0, cutRolledBack: 0, checkMs: 0 };
  const workerSeed = () => Math.floor(random() * 2 ** 31);
  // Warm workers load the package while another one works; they touch the file only after `go`.
  const warm = [];
  t.after(() => warm.forEach((w) => w.child.kill('SIGKILL'))); // after a failure, or they would wait forever
  let spawned = 0;
  const topUp = () => {
    while (warm.length < WARM_WORKERS && spawned < KILLS) warm.push(startWorker(file, spawned++, workerSeed()));
  };
  topUp();
  const started = Date.now();
  for (let k = 0; k < KILLS; k++) {
    const worker = warm.shift();
    topUp();
    assert.ok(await worker.waitFor('loaded'), `worker ${k} failed to start: ${worker.stderr}`);
    worker.child.stdin.write('go\n');
    if (random() * STARTUP_KILL_EVERY < 1) {
      stats.startupKills++;
      await sleep(Math.floor(random() * 15));
    } else if (k % AIMED_KILL_EVERY === AIMED_KILL_EVERY - 1) {
      stats.aimedKills++;
      // No jitter: the worker holds the transaction 0..3 ms after reporting the append.
      await Promise.race([worker.waitFor('ckpt?'), new Promise((resolve) => setTimeout(resolve, STALL_MS).unref())]);
    } else {
      assert.ok(await worker.waitFor('ready'), `worker ${k} ended before ready: ${worker.stderr}`);
      const reports = Math.floor(random() * (MAX_REPORTS_BEFORE_KILL + 1));
      const ready = worker.lines.findIndex((l) => l.startsWith('ready'));
      // A worker that stops reporting is killed all the same after a while (no timed assertion).
      await Promise.race([worker.until((lines) => lines.length > ready + reports), new Promise((resolve) => setTimeout(resolve, STALL_MS).unref())]);
      await sleep(Math.floor(random() * (MAX_JITTER_MS + 1)));
    }
    const exitedEarly = worker.child.exitCode !== null;
    worker.child.kill('SIGKILL');
    const { signal } = await worker.closed;
    assert.ok(!exitedEarly && signal === 'SIGKILL', `worker ${k} ended on its own: ${worker.stderr}`);
    stats.kills++;
    const outcome = replay(worker.lines, expected, reported, stats);
    const checkStart = Date.now();
    expected = await verify(file, reported, outcome, stats);
    stats.checkMs += Date.now() - checkStart;
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(
    `crash safety: ${stats.kills} SIGKILLs (${stats.startupKills} while opening, ${stats.aimedKills} aimed at a compaction, ${stats.killsInCompaction} inside a ` +
      `compaction transaction after its append: ${stats.cutCommitted} committed, ${stats.cutRolledBack} rolled back), ` +
      `${stats.checks} reopen checks (${(stats.checkMs / 1000).toFixed(1)}s), ${stats.messages} messages and ${stats.checkpoints} checkpoints reported durable ` +
      `and found, final revision ${expected.revision}, ${seconds}s`,
  );
  assert.equal(stats.checks, KILLS);
  assert.ok(stats.checkpoints > 0, 'compactions committed between kills');
  // The partial-checkpoint check above runs only for a kill inside a compaction's transaction.
  if (stats.aimedKills >= 10) {
    assert.ok(stats.killsInCompaction > 0 && stats.cutRolledBack > 0,
      `kills inside a compaction transaction were checked (${stats.killsInCompaction} of ${stats.aimedKills} aimed, ${stats.cutRolledBack} rolled back)`);
  }
});
