// Builds the example plugin into an .xpi with esbuild and a zip writer in Node (no
// zotero-plugin-scaffold, which needs Node 22):
//   node build.mjs --package-root DIR [--deps-root DIR] [--ai ai7] [--out research-chat.xpi]
// --package-root: a folder whose node_modules has bibgenie-compaction (the installed tarball);
// --deps-root: one whose node_modules has esbuild and the AI SDK (default: the repo's tests/);
// --ai: the name the AI SDK is installed under there (`ai`, or an alias such as `ai7`).
import { mkdirSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeXpi } from '../../tests/zotero-runtime/xpi.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));

/** Every file under `dir`, as { name, data } with names relative to it. */
function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path).map((f) => ({ ...f, name: `${entry}/${f.name}` })));
    else out.push({ name: entry, data: readFileSync(path) });
  }
  return out;
}

/**
 * @param {{ packageRoot: string, depsRoot?: string, ai?: string, out?: string, minify?: boolean }} options
 * @returns {Promise<{ xpi: string, files: string[], bundleBytes: number, warnings: string[] }>}
 */
export async function buildExample({ packageRoot, depsRoot = join(HERE, '..', '..', 'tests'), ai = 'ai7', out = join(HERE, 'research-chat.xpi'), minify = true }) {
  const requireFromDeps = createRequire(join(resolve(depsRoot), 'package.json'));
  const esbuild = await import(pathToFileURL(requireFromDeps.resolve('esbuild')).href);
  const requireFromPackage = createRequire(join(resolve(packageRoot), 'package.json'));
  const wasm = requireFromPackage.resolve('bibgenie-compaction/wasm');
  const resolveFrom = {
    name: 'resolve-from',
    setup(build) {
      // The package from the package root, the AI SDK (under its installed name) from the deps root.
      build.onResolve({ filter: /^bibgenie-compaction(\/|$)/ }, (args) => (args.pluginData?.fromPackageRoot
        ? undefined // the second pass: esbuild's own resolution from the package root
        : build.resolve(args.path, { kind: args.kind, resolveDir: resolve(packageRoot), pluginData: { fromPackageRoot: true } })));
      build.onResolve({ filter: /^ai(\/|$)/ }, (args) => build.resolve(args.path.replace(/^ai/, ai), { kind: args.kind, resolveDir: resolve(depsRoot) }));
    },
  };
  const built = await esbuild.build({
    entryPoints: [join(HERE, 'src', 'index.js')],
    bundle: true,
    format: 'iife',
    globalName: 'ResearchChatPlugin',
    platform: 'browser',
    target: ['firefox115'],
    minify,
    write: false,
    logLevel: 'silent',
    plugins: [resolveFrom],
  });
  const bundle = built.outputFiles[0].contents;
  const entries = [
    ...filesUnder(join(HERE, 'addon')),
    { name: 'content/research-chat.js', data: bundle },
    { name: 'content/bibgenie_compaction_bg.wasm', data: readFileSync(wasm) },
  ];
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeXpi(resolve(out), entries);
  return { xpi: resolve(out), files: entries.map((e) => e.name), bundleBytes: bundle.length, warnings: built.warnings.map((w) => w.text) };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = Object.fromEntries(process.argv.slice(2).map((a, i, all) => (a.startsWith('--') ? [a.slice(2), all[i + 1]] : null)).filter(Boolean));
  if (!args['package-root']) {
    process.stderr.write('usage: node build.mjs --package-root DIR [--deps-root DIR] [--ai ai7] [--out FILE.xpi]\n');
    process.exit(2);
  }
  const result = await buildExample({ packageRoot: args['package-root'], depsRoot: args['deps-root'], ai: args.ai, out: args.out });
  for (const warning of result.warnings) process.stderr.write(`esbuild: ${warning}\n`);
  process.stdout.write(`${relative(process.cwd(), result.xpi)}: ${result.files.length} files, bundle ${(result.bundleBytes / 1024).toFixed(1)} KB\n`);
}
