// The packed package as a consumer gets it: the tarball's contents, the main entry that loads
// its own .wasm, and values and errors crossing the boundary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { crateVersion, repoRoot, tarball } from './consumer-env.mjs';
import * as compaction from 'bibgenie-compaction';

const listTarball = () =>
  execFileSync('tar', ['-tzf', tarball()], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)],
  );

test('the tarball holds the wasm, the generated JS and types, the entries and every glue file', () => {
  const files = new Set(listTarball());
  for (const expected of [
    'package.json',
    'bibgenie_compaction_bg.wasm',
    'bibgenie_compaction.js',
    'bibgenie_compaction.d.ts',
    'index.js',
    'index.d.ts',
    'slim.js',
    'slim.d.ts',
  ]) {
    assert.ok(files.has(expected), `${expected} missing from the tarball`);
  }
  const glueDir = join(repoRoot, 'js-glue');
  const glueFiles = walk(glueDir)
    .map((file) => relative(glueDir, file))
    .filter((file) => file !== 'package.template.json');
  for (const file of glueFiles) assert.ok(files.has(file), `js-glue/${file} missing from the tarball`);
});

test('the tarball holds no workshop: no demo/, no docs/, no sample session', () => {
  const workshop = listTarball().filter((file) => /^(demo|docs|examples|tests)\//.test(file) || /sample-session/.test(file));
  assert.deepEqual(workshop, []);
  const top = new Set(listTarball().filter((file) => file.endsWith('.md')));
  assert.deepEqual([...top], ['README.md'], 'the one markdown file is the README');
});

test('the tarball holds no build intermediates or sources', () => {
  const stray = listTarball().filter((file) =>
    /(^|\/)(target|node_modules|src|\.work)\//.test(file) || /\.(rs|tgz|toml)$/.test(file),
  );
  assert.deepEqual(stray, []);
});

test('package.json exports the main and slim entries with types', async () => {
  const { default: pkg } = await import('bibgenie-compaction/package.json', { with: { type: 'json' } });
  assert.equal(pkg.name, 'bibgenie-compaction');
  assert.equal(pkg.type, 'module');
  assert.equal(pkg.version, crateVersion());
  assert.equal(pkg.exports['.'].default, './index.js');
  assert.equal(pkg.exports['./slim'].default, './slim.js');
  assert.ok(pkg.exports['.'].types && pkg.exports['./slim'].types);
  assert.ok(pkg.files.includes('bibgenie_compaction_bg.wasm'));
});

test('the main entry loads its own wasm, once', async () => {
  const first = compaction.init();
  assert.equal(compaction.init(), first, 'a second init() returns the same promise');
  const exports = await first;
  assert.ok(exports.memory instanceof WebAssembly.Memory);
  assert.equal(compaction.version(), crateVersion());
});

test('errors thrown across the boundary are JS Errors with a stable code', async () => {
  await compaction.init();
  assert.equal(typeof compaction.project, 'function', 'the main entry exports project()');
  const input = { nodes: 'not an array', leafId: 'x', branchRevision: 0 };
  const snapshot = structuredClone(input);
  assert.throws(
    () => compaction.project(input),
    (error) => error instanceof Error && error.code === 'invalid-session' && error.message.length > 0,
  );
  assert.deepEqual(input, snapshot, 'the input is not mutated');
});

test('a projection crosses the boundary as plain data', async () => {
  await compaction.init();
  assert.equal(typeof compaction.project, 'function', 'the main entry exports project()');
  const session = {
    nodes: [
      { id: 'u1', parentId: null, role: 'user', parts: [{ type: 'text', text: 'Find papers on 文献 reuse' }] },
      { id: 'a1', parentId: 'u1', role: 'assistant', parts: [{ type: 'text', text: 'Here are three.' }] },
    ],
    leafId: 'a1',
    branchRevision: 1,
  };
  const projection = compaction.project(session);
  assert.deepEqual(projection.messages.map((m) => m.id), ['u1', 'a1']);
  assert.equal(projection.messages[0].parts[0].text, 'Find papers on 文献 reuse');
  assert.equal(projection.checkpointId, null);
});

test('the ai peer range takes the AI SDK versions the tests run against: 5, 6 and 7', async () => {
  const { default: pkg } = await import('bibgenie-compaction/package.json', { with: { type: 'json' } });
  const { default: semver } = await import('semver');
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  const range = pkg.peerDependencies.ai;
  const versions = ['ai', 'ai6', 'ai7'].map((alias) => require(`${alias}/package.json`).version);
  assert.deepEqual(versions.map((v) => semver.major(v)), [5, 6, 7]);
  for (const version of versions) assert.ok(semver.satisfies(version, range), `ai@${version} is outside ${range}`);
  assert.ok(!semver.satisfies('4.3.0', range) && !semver.satisfies('8.0.0', range), `${range} stays bounded`);
  // Optional: the declarations fall back to the package's own message shape without it (ai-types.d.ts,
  // stage types compiles tests/types/no-ai.ts with no ai installed), so an app without the AI SDK
  // is not made to install it.
  assert.equal(pkg.peerDependenciesMeta?.ai?.optional, true, 'ai is an optional peer');
});
