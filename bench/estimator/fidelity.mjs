// Estimator fidelity against real tokenizers. Prints markdown tables to stdout.
// Usage: npm ci --prefix bench/estimator && node bench/estimator/fidelity.mjs
import os from 'node:os';
import { BASELINES, estimatorFeatures, estimatorThroughput, fidelity, loadCorpora, runEstimator } from './lib.mjs';

const corpora = await loadCorpora();
const pct = (x) => `${(x * 100).toFixed(1)}%`;
const r2 = (x) => x.toFixed(2);
const row = (cells) => `| ${cells.join(' | ')} |`;

const all = corpora.flatMap((c) => c.rows);
const estimates = runEstimator(all.map((r) => r.text));
all.forEach((r, i) => { r.estimate = estimates[i]; });

const TARGET_UNDER = 0.01;
const TARGET_MEDIAN = 1.3;
let misses = [];

console.log(`## Estimator fidelity\n`);
console.log(`${new Date().toISOString().slice(0, 10)}, ${os.cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}. ` +
  `Reference: the largest of o200k_base, cl100k_base (gpt-tokenizer), the Claude tokenizer (@anthropic-ai/tokenizer) ` +
  `and Llama 3 (llama3-tokenizer-js) per message. Ratio = estimate / reference. Messages of 200-4,000 characters; ` +
  `held-out = messages with an odd hash, never seen by tuning.\n`);
for (const split of ['tuning', 'held-out']) {
  console.log(`### estimateText, ${split} split\n`);
  console.log(row(['corpus', 'messages', 'underestimated', 'p1', 'median', 'p99', 'total']));
  console.log(row(['---', '---:', '---:', '---:', '---:', '---:', '---:']));
  for (const c of corpora) {
    const rows = c.rows.filter((r) => r.heldOut === (split === 'held-out'));
    const f = fidelity(rows.map((r) => r.estimate), rows.map((r) => r.ref));
    console.log(row([c.name, f.n, pct(f.under), r2(f.p1), r2(f.median), r2(f.p99), r2(f.total)]));
    if (split === 'held-out' && (f.under > TARGET_UNDER || f.median > TARGET_MEDIAN)) {
      misses.push(`${c.name}: ${pct(f.under)} underestimated, median ${r2(f.median)}`);
    }
  }
  console.log('');
}

console.log(`### Other estimators, all messages\n`);
console.log(row(['estimator', 'corpus', 'underestimated', 'p1', 'median', 'p99', 'total']));
console.log(row(['---', '---', '---:', '---:', '---:', '---:', '---:']));
for (const [name, estimate] of Object.entries(BASELINES)) {
  for (const c of corpora) {
    const f = fidelity(c.rows.map((r) => estimate(r.text)), c.rows.map((r) => r.ref));
    console.log(row([name, c.name, pct(f.under), r2(f.p1), r2(f.median), r2(f.p99), r2(f.total)]));
  }
}
console.log('');

const { names, weights, foreignSpan, foreignWeight } = estimatorFeatures();
console.log(`Weights (thousandths of a token): ${names.map((n, i) => `${n} ${weights[i]}`).join(', ')}; ` +
  `foreign letters ${foreignWeight} (span ${foreignSpan}).\n`);

// Speed of the same texts: native estimate_text against gpt-tokenizer o200k in this Node process.
const { default: o200k } = await import('gpt-tokenizer/encoding/o200k_base');
const texts = all.map((r) => r.text);
const utf8Bytes = texts.reduce((a, t) => a + Buffer.byteLength(t), 0);
const native = estimatorThroughput(texts);
const started = process.hrtime.bigint();
for (const t of texts) o200k.countTokens(t);
const o200kRate = utf8Bytes / (Number(process.hrtime.bigint() - started) / 1e9);
console.log(`Throughput on these ${texts.length} messages (${(utf8Bytes / 1e6).toFixed(1)} MB UTF-8): estimate_text native ` +
  `${(native / 1e6).toFixed(0)} MB/s, gpt-tokenizer o200k countTokens ${(o200kRate / 1e6).toFixed(2)} MB/s ` +
  `(${Math.round(native / o200kRate)}x).\n`);
console.log(misses.length
  ? `Target (at most 1% underestimated, median at most 1.3 on held-out) MISSED: ${misses.join('; ')}.`
  : `Target (at most 1% underestimated, median at most 1.3) holds on the held-out split of every corpus.`);
