// Speed of the native estimate_text against a baseline build of another revision, in the same run:
// per corpus, ROUNDS paired runs (baseline and candidate one after the other, the order alternating),
// each `estimate_stdin --throughput` (about a second of estimating the corpus's messages over and over);
// the figure is the median over rounds of candidate / baseline throughput. Prints a markdown table.
// With --instructions, also the instructions executed inside estimate_text per byte under valgrind
// (callgrind, --toggle-collect): a count that, unlike the times, a loaded machine does not move.
// Usage: node bench/estimator/speed.mjs [--baseline=REF] [--rounds=N] [--instructions]
//   REF (default main) is exported with `git archive` under target/estimator-baseline/ and built there
//   with its own target directory; BIBGENIE_BASELINE_BIN=path uses an estimate_stdin built already.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crateRoot, estimatorThroughput, loadCorpora, quantile, runEstimator } from './lib.mjs';

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const ref = arg('baseline', 'main');
const rounds = Number(arg('rounds', 5));

function baselineBin() {
  if (process.env.BIBGENIE_BASELINE_BIN) return process.env.BIBGENIE_BASELINE_BIN;
  const sha = execFileSync('git', ['rev-parse', ref], { cwd: crateRoot }).toString().trim();
  const root = path.join(crateRoot, 'target', 'estimator-baseline');
  const src = path.join(root, sha.slice(0, 12));
  if (!fs.existsSync(path.join(src, 'Cargo.toml'))) {
    fs.mkdirSync(src, { recursive: true });
    execFileSync('bash', ['-c', 'git archive "$1" | tar -x -C "$2"', '_', sha, src], { cwd: crateRoot });
  }
  const target = path.join(root, 'target');
  execFileSync('cargo', ['build', '--quiet', '--release', '--example', 'estimate_stdin'],
    { cwd: src, stdio: 'inherit', env: { ...process.env, CARGO_TARGET_DIR: target } });
  return path.join(target, 'release', 'examples', 'estimate_stdin');
}

const corpora = await loadCorpora();
runEstimator([]); // builds the candidate
const candidate = path.join(process.env.CARGO_TARGET_DIR ?? path.join(crateRoot, 'target'), 'release', 'examples', 'estimate_stdin');
const baseline = baselineBin();

console.log(`## estimate_text speed against ${process.env.BIBGENIE_BASELINE_BIN ? 'a baseline binary' : ref}\n`);
console.log(`${new Date().toISOString().slice(0, 10)}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, load ${os.loadavg()[0].toFixed(1)}. ` +
  `Native release builds; ${rounds} paired runs of about a second each per corpus, order alternating; ratio = candidate / baseline MB/s.\n`);
const instructions = process.argv.includes('--instructions');
/** Instructions inside estimate_text per byte of the texts, each estimated once. */
function instructionsPerByte(bin, texts) {
  const input = texts.map((t) => JSON.stringify(t)).join('\n') + '\n';
  const run = spawnSync('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', '--toggle-collect=*estimate_text*', bin],
    { input, maxBuffer: 1 << 28 });
  const collected = /Collected : (\d+)/.exec(run.stderr?.toString() ?? '');
  if (!collected) throw new Error(`valgrind failed: ${run.error ?? run.stderr}`);
  return Number(collected[1]) / texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
}
const extra = instructions ? ' baseline instr/B | candidate instr/B | instr ratio |' : '';
console.log(`| corpus | baseline MB/s | candidate MB/s | median ratio | min | max |${extra}`);
console.log(`| --- | ---: | ---: | ---: | ---: | ---: |${instructions ? ' ---: | ---: | ---: |' : ''}`);
for (const c of corpora) {
  const texts = c.rows.map((r) => r.text);
  const base = [], cand = [], ratios = [];
  for (let i = 0; i < rounds; i++) {
    let b, k;
    if (i % 2 === 0) { b = estimatorThroughput(texts, baseline); k = estimatorThroughput(texts, candidate); }
    else { k = estimatorThroughput(texts, candidate); b = estimatorThroughput(texts, baseline); }
    base.push(b); cand.push(k); ratios.push(k / b);
  }
  const med = (xs) => quantile([...xs].sort((a, b) => a - b), 0.5);
  console.log(`| ${c.name} | ${(med(base) / 1e6).toFixed(0)} | ${(med(cand) / 1e6).toFixed(0)} | ${med(ratios).toFixed(3)} | ` +
    `${Math.min(...ratios).toFixed(3)} | ${Math.max(...ratios).toFixed(3)} |` +
    (instructions ? (() => {
      const [b, k] = [instructionsPerByte(baseline, texts), instructionsPerByte(candidate, texts)];
      return ` ${b.toFixed(1)} | ${k.toFixed(1)} | ${(k / b).toFixed(3)} |`;
    })() : ''));
}
