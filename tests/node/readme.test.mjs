// The README as a user reads it from the installed package: every relative link resolves to a
// file the tarball ships, and the "Five minutes in Node" example runs as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { consumerDir, resolveInstalled } from './consumer-env.mjs';

const packageDir = dirname(resolveInstalled('bibgenie-compaction/package.json'));

/** Markdown files of the installed package that a reader can reach from its README. */
function shippedMarkdown() {
  const files = ['README.md'];
  for (let i = 0; i < files.length; i++) {
    for (const link of relativeLinks(files[i])) {
      const target = join(dirname(files[i]), link).replace(/\\/g, '/');
      if (target.endsWith('.md') && !files.includes(target) && existsSync(join(packageDir, target))) files.push(target);
    }
  }
  return files;
}

/** The relative link targets of a markdown file, without their #fragment. */
function relativeLinks(file) {
  const text = readFileSync(join(packageDir, file), 'utf8');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1])
    .filter((href) => !/^[a-z]+:/i.test(href) && !href.startsWith('#'))
    .map((href) => href.split('#')[0]);
}

test('every relative link of the README and the docs it reaches names a file the package ships', () => {
  const files = shippedMarkdown();
  assert.ok(files.length > 1, 'the README links to docs/');
  const missing = [];
  for (const file of files) {
    for (const link of relativeLinks(file)) {
      // Links from docs/ to the sources are for readers of the repository, not of the package.
      if (file !== 'README.md' && !link.endsWith('.md')) continue;
      const target = join(packageDir, dirname(file), link);
      if (!existsSync(target)) missing.push(`${file} -> ${link}`);
    }
  }
  assert.deepEqual(missing, []);
});

test("the README's Node example runs as written", () => {
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const section = readme.split('## Five minutes in Node')[1];
  assert.ok(section, 'the README has a "Five minutes in Node" section');
  const code = section.match(/```js\n([\s\S]*?)```/)?.[1];
  assert.ok(code, 'the section has a js example');
  const dir = mkdtempSync(join(consumerDir, 'readme-example-'));
  const file = join(dir, 'example.mjs');
  writeFileSync(file, code);
  const out = execFileSync(process.execPath, [file], { cwd: consumerDir, encoding: 'utf8' });
  assert.match(out, /tokens/, 'the example prints its estimate');
});
