// The README as a user reads it from the installed package: docs/ stays in the repository, so
// build.sh rewrote the README's relative links into links to the repository (package.json's
// `repository`); each must name a file the repository has. Every js block of the README and of the
// docs it links (read from the repository) runs as printed (a provider's model replaced by the AI
// SDK's mock model), so a block that breaks fails the package stage. sh blocks (installs,
// ./build.sh) are not run here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { spawnSync } from 'node:child_process';
import { consumerDir, repoRoot, resolveInstalled } from './consumer-env.mjs';

const packageDir = dirname(resolveInstalled('bibgenie-compaction/package.json'));
const { repository } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));

/** Where the packaged README's links into the repository start: `<repository>/blob/main/`. */
const repositoryBase = `${String(repository?.url ?? repository).replace(/^git\+/, '').replace(/\.git$/, '')}/blob/main/`;

/** The README from the installed package, a doc (docs/…) from the repository. */
const read = (file) => readFileSync(file === 'README.md' ? join(packageDir, 'README.md') : join(repoRoot, file), 'utf8');

/** Every link target of a markdown file. */
const links = (file) => [...read(file).matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]);

/**
 * The markdown files a reader reaches from the packaged README, as repository paths: the README's
 * links into the repository, then the docs' relative links, without their #fragment.
 */
function reachableFiles(file) {
  const text = links(file).map((href) => href.split('#')[0]).filter(Boolean);
  if (file === 'README.md') return text.filter((href) => href.startsWith(repositoryBase)).map((href) => href.slice(repositoryBase.length));
  return text.filter((href) => !/^[a-z]+:/i.test(href)).map((href) => normalize(join(dirname(file), href)).replace(/\\/g, '/'));
}

/** Markdown files a reader can reach from the package's README: itself, then docs in the repository. */
function shippedMarkdown() {
  const files = ['README.md'];
  for (let i = 0; i < files.length; i++) {
    for (const target of reachableFiles(files[i])) {
      if (target.endsWith('.md') && !files.includes(target) && existsSync(join(repoRoot, target))) files.push(target);
    }
  }
  return files;
}

test('package.json names the repository of Cargo.toml, where the packaged README links', () => {
  const cargo = readFileSync(join(repoRoot, 'Cargo.toml'), 'utf8').match(/^repository\s*=\s*"([^"]+)"/m);
  assert.ok(cargo, 'Cargo.toml has a repository');
  assert.equal(repositoryBase, `${cargo[1].replace(/\/$/, '')}/blob/main/`);
});

test('the packaged README is the repository README with its relative links made links into the repository', () => {
  const packaged = read('README.md');
  const relative = links('README.md').filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('#'));
  assert.deepEqual(relative, [], 'no relative link (docs/ and examples/ do not ship)');
  assert.equal(packaged.split(`](${repositoryBase}`).join(']('), readFileSync(join(repoRoot, 'README.md'), 'utf8'));
  assert.ok(existsSync(join(repoRoot, 'docs')), 'docs/ stays in the repository');
  assert.ok(!existsSync(join(packageDir, 'docs')), 'docs/ does not ship');
});

test('every link of the packaged README into the repository, and every .md link of the docs it reaches, names a file of the repository', () => {
  const files = shippedMarkdown();
  assert.ok(files.length > 1, 'the README links to docs/');
  const missing = [];
  for (const file of files) {
    for (const target of reachableFiles(file)) {
      // From the docs, their links to other docs (their links to the sources are not this test's).
      if (file !== 'README.md' && !target.endsWith('.md')) continue;
      if (!existsSync(join(repoRoot, target))) missing.push(`${file} -> ${target}`);
    }
  }
  assert.deepEqual(missing, []);
});

/**
 * The ```js blocks of a markdown file with the section each sits in. Blocks marked otherwise are
 * not programs: `js example:FILE` quotes the example plugin (zotero-recipe.test.mjs checks them,
 * stage 7 runs them) or the example without the AI SDK (without-ai-sdk.test.mjs checks and runs it), `js recipe-imports` is an import line, `js copy-wasm-hook` the build hook (pack-consumer-build-hook.test.mjs), `js fragment` a part of a call,
 * `jsx example:FILE#REGION` a region of a page the firefox stage builds (readme-usechat.test.mjs checks it).
 */
function jsBlocks(file) {
  const text = read(file);
  const blocks = [];
  let section = '';
  for (const m of text.matchAll(/^(#+ .*)$|^```([^\n]*)\n([\s\S]*?)^```$/gm)) {
    if (m[1]) section = m[1].replace(/^#+ /, '');
    else blocks.push({ file, section, info: m[2].trim(), code: m[3] });
  }
  return blocks;
}

/**
 * Each block as the program a reader runs: alone, or, when its first line says
 * `// …continues "Section"` (or `the blocks above`), after the program of that section's last block.
 */
function programs(blocks) {
  const out = [];
  for (const block of blocks) {
    const continues = /^\/\/ …continues (?:"([^"]+)"|the blocks above)/.exec(block.code);
    // "Section": that section's first block; "the blocks above": the program just before.
    const from = !continues ? null : continues[1] ? out.find((p) => p.file === block.file && p.section === continues[1]) : out.at(-1);
    assert.ok(!continues || from, `${block.file}, "${block.section}": continues a block that is not above it`);
    out.push({ ...block, own: block.code, n: out.length + 1, code: from ? `${from.code}\n${block.code}` : block.code });
  }
  return out;
}

/** Where a block imports an AI SDK provider, the mock model goes (readme-mock-provider.mjs). */
const withMockProvider = (code) => code.replace(/from '@ai-sdk\/[a-z-]+'/g, "from './readme-mock-provider.mjs'");

/** What a block that does [code] must print (beyond exiting 0 with nothing on stderr). */
const EXPECTED_OUTPUT = [
  [/console\.log\(estimate\(/, /tokens/],
  [/new SqliteStore\(/, /^1$/m],
  [/transport\.sendMessages\(/, /Two of the twelve report apparent protein digestibility\./],
  [/isCheckpoint/, /^committed 4 \[ \d+ \]$/m],
];

const markdownBlocks = () => shippedMarkdown().flatMap(jsBlocks);

test('every js block of the README and the docs it links is a program or marked as what else it is', () => {
  const blocks = markdownBlocks();
  const kinds = new Set(blocks.map((b) => b.info.split(/[\s:]/)[0]));
  const unknown = blocks.filter((b) => !/^(js|sh|ts|text|json|)$|^js (example:\S+|recipe-imports|copy-wasm-hook|fragment)$|^jsx example:\S+$/.test(b.info));
  assert.deepEqual(unknown.map((b) => `${b.file} "${b.section}": ${b.info}`), [], `block kinds: ${[...kinds].join(', ')}`);
  assert.ok(blocks.filter((b) => b.file === 'README.md' && b.info === 'js').length >= 4, 'the README has its examples');
});

const blocksToRun = markdownBlocks().filter((b) => b.info === 'js');
const runDir = join(consumerDir, 'tests', 'readme-blocks');
for (const program of programs(blocksToRun)) {
  test(`${program.file}, block ${program.n} ("${program.section}"): runs as printed (the mock model for a provider)`, () => {
    // Inside the consumer's tests/, so 'ai' and 'better-sqlite3' resolve as for the other tests.
    mkdirSync(runDir, { recursive: true });
    const dir = mkdtempSync(join(runDir, 'block-'));
    copyFileSync(join(consumerDir, 'tests', 'node', 'readme-mock-provider.mjs'), join(dir, 'readme-mock-provider.mjs'));
    const file = join(dir, 'block.mjs');
    writeFileSync(file, withMockProvider(program.code));
    const run = spawnSync(process.execPath, [file], { cwd: dir, encoding: 'utf8' });
    assert.equal(run.status, 0, `exit ${run.status}\n${run.stderr}\n--- the program:\n${program.code}`);
    assert.equal(run.stderr, '', 'nothing on stderr');
    for (const [does, prints] of EXPECTED_OUTPUT) if (does.test(program.own)) assert.match(run.stdout, prints);
  });
}
