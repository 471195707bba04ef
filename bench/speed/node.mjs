// Speed bench in Node. Prints markdown tables to stdout, progress to stderr.
//   node bench/speed/node.mjs [--quick] [--sizes=100,1000]        (after ./build.sh build)
// Its last table is the peer, pi (bench/speed/pi.mjs; also runnable alone).
// BIBGENIE_PKG_DIR picks the package (./build.sh bench: the installed tarball; default: pkg/).
// `--memory=N` is the child run that measures wasm memory of one fresh instance (see below).
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import * as baseline from '../baseline/projection.js';
import { realCorpora } from './corpora.mjs';
import { MODEL, runAll, VARIANTS } from './lib.mjs';
import { loadPi, piMarkdown, piRun } from './pi.mjs';

const args = process.argv.slice(2);
const flag = (name) => args.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))?.split('=')[1] ?? (args.includes(`--${name}`) ? '' : undefined);
const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
const { researchSession, syntheticSession } = await import('../../tests/fixtures/session-generator.mjs');
const wasm = await api.init();

if (flag('memory') !== undefined) {
  memoryChild(Number(flag('memory')));
} else {
  await main();
}

async function main() {
  const quick = flag('quick') !== undefined;
  const sizes = flag('sizes')?.split(',').map(Number);
  const log = (line) => process.stderr.write(`${line}\n`);
  const real = await realCorpora(log);
  const [load1] = os.loadavg();
  const sections = await runAll({ api, countTokens, baseline, researchSession, syntheticSession, real, wasmMemory: () => wasm.memory, sizes, quick, log });
  const [load2] = os.loadavg();
  console.log(`## Speed, Node ${process.version}\n`);
  console.log(`${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${os.cpus()[0]?.model ?? 'unknown CPU'} x ${os.cpus().length}, ` +
    `load average ${load1.toFixed(2)} at start, ${load2.toFixed(2)} at end${quick ? ', --quick' : ''}. ` +
    `Times are medians (and p90) per call in ms; "x floor" is the ratio to JSON.parse of the same session text in the same run.\n`);
  for (const s of sections) console.log(`### ${s.title}\n\n${s.markdown}\n`);

  // The peer, pi's compaction, on the same sessions (1,000 and 10,000 messages unless --sizes says).
  const pi = await loadPi();
  const piSizes = sizes ?? [1_000, 10_000];
  log(`against pi ${pi.version} ...`);
  const [load3] = os.loadavg();
  const piResults = await piRun({ api, pi, syntheticSession, sizes: piSizes, quick, log });
  console.log(`### Against pi ${pi.version} (its real published compaction code, bench/speed/pi.mjs)\n`);
  console.log(`Same syntheticSession sessions converted to pi entries, same process; medians of interleaved rounds, ms per call; ` +
    `ratios within this run (load average ${load3.toFixed(2)} at start). Targets: (a), (c1), (c2) at most 1.00x.\n`);
  console.log(`${piMarkdown(piResults, pi.version)}\n`);

  // Peak wasm memory: a fresh process per variant, so the figure is the 10k session's alone.
  const largest = Math.max(...(sizes ?? [10_000]));
  console.log(`### Memory, ${largest.toLocaleString('en')} messages (fresh process each)\n`);
  console.log('| session | JSON MB | wasm memory after stateless calls MB | after SessionIndex.from + preflight MB | JS heap used MB (session objects included) |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const [v] of VARIANTS.entries()) {
    const child = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), `--memory=${largest}`, `--variant=${v}`], { encoding: 'utf8', env: process.env });
    if (child.status !== 0) throw new Error(`memory child failed: ${child.stderr}`);
    console.log(child.stdout.trim());
  }
  console.log('\nWasm memory only grows, so its size after the calls is the peak.');
}

function memoryChild(messages) {
  const variant = VARIANTS[Number(flag('variant') ?? 0)];
  const session = syntheticSession({ messages, seed: 20_250_310, ...variant.options });
  const mb = Buffer.byteLength(JSON.stringify(session)) / 1e6;
  api.project(session);
  api.estimate(session, MODEL, {});
  const plan = api.plan(session, MODEL, { mode: 'auto' });
  const byId = new Map(session.nodes.map((n) => [n.id, n]));
  api.serialize(plan.summarizeIds.map((id) => byId.get(id)));
  const stateless = wasm.memory.buffer.byteLength / 1e6;
  const index = api.SessionIndex.from(session);
  index.append({ id: 'bench-extra', parentId: session.leafId, role: 'user', parts: [{ type: 'text', text: 'one more' }] });
  index.setLeaf('bench-extra', session.branchRevision + 1);
  index.plan(MODEL, { mode: 'preflight', draft: { id: 'd', role: 'user', parts: [{ type: 'text', text: 'draft' }] } });
  const indexed = wasm.memory.buffer.byteLength / 1e6;
  globalThis.gc?.();
  const heap = process.memoryUsage().heapUsed / 1e6;
  console.log(`| ${variant.name} | ${mb.toFixed(1)} | ${stateless.toFixed(1)} | ${indexed.toFixed(1)} | ${heap.toFixed(0)} |`);
  index.free();
}
