// Size of what a consumer downloads: the .wasm and each JS file of the package, raw, gzip -9 and
// brotli, plus the minified IIFE bundle of the slim entry (what a Zotero plugin ships).
//   node bench/speed/size.mjs        (after ./build.sh build; BIBGENIE_PKG_DIR picks the package)
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const pkgDir = process.env.BIBGENIE_PKG_DIR ?? join(ROOT, 'pkg');
const esbuild = createRequire(join(ROOT, 'tests/package.json'))('esbuild');
/** The issue's target for the compressed .wasm. */
const WASM_GZIP_TARGET = 100 * 1024;

const sizes = (bytes) => ({
  raw: bytes.length,
  gzip: gzipSync(bytes, { level: 9 }).length,
  brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
});
const kb = (n) => (n / 1024).toFixed(1);
const walk = (dir) => readdirSync(dir, { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]));

const rows = [];
const wasm = sizes(readFileSync(join(pkgDir, 'bibgenie_compaction_bg.wasm')));
rows.push(['bibgenie_compaction_bg.wasm', wasm]);
// The runtime JS a consumer loads (the type declarations are not loaded).
const js = walk(pkgDir)
  .map((f) => relative(pkgDir, f))
  .filter((f) => f.endsWith('.js'))
  .sort();
const total = { raw: 0, gzip: 0, brotli: 0 };
for (const f of js) {
  const s = sizes(readFileSync(join(pkgDir, f)));
  rows.push([f, s]);
  for (const k of Object.keys(total)) total[k] += s[k];
}
rows.push(['all JS above (each compressed alone)', total]);
const bundle = await esbuild.build({
  entryPoints: [join(pkgDir, 'slim.js')], bundle: true, minify: true, format: 'iife', globalName: 'bibgenie',
  platform: 'browser', target: ['firefox115'], write: false, logLevel: 'silent',
});
rows.push(['slim.js bundled + minified (esbuild IIFE, as a Zotero plugin ships it)', sizes(Buffer.from(bundle.outputFiles[0].contents))]);

console.log('## Size\n');
console.log('| file | raw KB | gzip -9 KB | brotli KB |');
console.log('| --- | ---: | ---: | ---: |');
for (const [name, s] of rows) console.log(`| ${name} | ${kb(s.raw)} | ${kb(s.gzip)} | ${kb(s.brotli)} |`);
console.log(`\nTarget .wasm at most ${kb(WASM_GZIP_TARGET)} KB gzipped: ${wasm.gzip <= WASM_GZIP_TARGET
  ? 'holds' : `MISSED by ${kb(wasm.gzip - WASM_GZIP_TARGET)} KB (${((wasm.gzip / WASM_GZIP_TARGET - 1) * 100).toFixed(0)}% over)`}.`);
