// docs/zotero-plugin.md against what it describes: every code block quoted from the example plugin
// (```js example:FILE#REGION) is that region of examples/zotero-research-chat/FILE, and the bundle
// sizes it states are what esbuild makes of its import line against the installed tarball.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { consumerDir, repoRoot } from './consumer-env.mjs';
import { region } from './quoted-region.mjs';

const doc = readFileSync(join(repoRoot, 'docs', 'zotero-plugin.md'), 'utf8');
const exampleDir = join(repoRoot, 'examples', 'zotero-research-chat');

test('every example block of docs/zotero-plugin.md is the example plugin\'s code, as it is', () => {
  const quotes = [...doc.matchAll(/```js example:([^\s#]+)(?:#(\S+))?\n([\s\S]*?)```/g)];
  assert.ok(quotes.length >= 7, `${quotes.length} quoted blocks`);
  const regions = [];
  for (const [, file, name, quoted] of quotes) {
    const source = readFileSync(join(exampleDir, file), 'utf8');
    assert.equal(quoted, name ? region(source, name) : source, `${file}${name ? `#${name}` : ''}`);
    regions.push(`${file}#${name ?? ''}`);
  }
  for (const name of ['load', 'store', 'session', 'chat', 'send', 'shutdown']) {
    assert.ok(regions.includes(`src/chat.js#${name}`), `the recipe quotes ${name}`);
  }
});

test('the recipe\'s import line is the example\'s', () => {
  const imports = /```js recipe-imports\n([\s\S]*?)```/.exec(doc)[1];
  const names = (text) => /import \{([^}]*)\} from "bibgenie-compaction\/slim"/.exec(text)[1].split(',').map((s) => s.trim()).filter(Boolean).sort();
  const used = [readFileSync(join(exampleDir, 'src', 'chat.js'), 'utf8'), readFileSync(join(exampleDir, 'src', 'window-globals.js'), 'utf8')]
    .flatMap((text) => [...text.matchAll(/import \{([^}]*)\} from "bibgenie-compaction\/slim"/g)].flatMap((m) => m[1].split(',').map((s) => s.trim()).filter(Boolean)));
  assert.deepEqual(names(imports), [...new Set(used)].sort());
});

/** Minified and gzipped KB of an IIFE bundle of `contents`, as the docs measure it. */
async function bundleKB(contents) {
  const built = await esbuild.build({
    stdin: { contents, resolveDir: consumerDir, loader: 'js' },
    bundle: true, format: 'iife', minify: true, platform: 'browser', target: ['firefox115'], write: false, logLevel: 'silent',
  });
  const bytes = built.outputFiles[0].contents;
  return [bytes.length / 1024, gzipSync(bytes).length / 1024];
}

test('the bundle sizes docs/zotero-plugin.md states are within 3 % of what esbuild makes now', async () => {
  const stated = /is ([\d.]+) KB \(([\d.]+) KB gzipped\) with named\s+imports against ([\d.]+) KB \(([\d.]+) KB\) with the namespace/.exec(doc);
  assert.ok(stated, 'the sizes sentence');
  const [namedMin, namedGzip, wholeMin, wholeGzip] = stated.slice(1).map(Number);
  const imports = /```js recipe-imports\n([\s\S]*?)```/.exec(doc)[1];
  const names = /import \{([^}]*)\}/.exec(imports)[1].split(',').map((s) => s.trim()).filter(Boolean);
  // Every name used, as the plugin uses them (an unused import would be dropped).
  const named = await bundleKB(`${imports}\nglobalThis.used = { ${names.join(', ')} };`);
  const whole = await bundleKB('import * as compaction from "bibgenie-compaction/slim";\nglobalThis.used = compaction;');
  const near = (measured, doc, what) => assert.ok(Math.abs(measured - doc) / doc <= 0.03, `${what}: measured ${measured.toFixed(1)} KB, the docs say ${doc} KB`);
  near(named[0], namedMin, 'named, minified');
  near(named[1], namedGzip, 'named, gzipped');
  near(whole[0], wholeMin, 'namespace, minified');
  near(whole[1], wholeGzip, 'namespace, gzipped');
});
