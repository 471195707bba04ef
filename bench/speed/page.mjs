// The Firefox side of the speed bench: bundled by firefox.mjs with the package, gpt-tokenizer and
// the sample sessions, then polled through `globalThis.bench` (lines, done, sections, error).
import * as api from 'bibgenie-compaction';
import { researchSession, syntheticSession } from '../../tests/fixtures/session-generator.mjs';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import * as baseline from '../baseline/projection.js';
import { runAll, timerResolutionMs } from './lib.mjs';

const bench = { lines: [], done: false, error: null, sections: null, timerMs: null, userAgent: navigator.userAgent };
globalThis.bench = bench;
const params = new URLSearchParams(location.search);

try {
  const wasm = await api.init();
  const real = await (await fetch('/corpora.json')).json();
  bench.timerMs = timerResolutionMs();
  bench.sections = (await runAll({
    api, countTokens, baseline, researchSession, syntheticSession, real,
    wasmMemory: () => wasm.memory,
    sizes: params.get('sizes')?.split(',').map(Number),
    quick: params.has('quick'),
    log: (line) => bench.lines.push(line),
  })).map(({ title, markdown }) => ({ title, markdown }));
} catch (e) {
  bench.error = `${e?.stack ?? e}`;
}
bench.done = true;
