// The page side of first-call.mjs (`node bench/speed/firefox.mjs --page=first-call --sizes=10000`): in
// a page just loaded, the first JSON.parse of a session's text and the first `estimate` of it, one
// size per page load (the first call is the page's first), polled through `globalThis.bench`.
import * as api from 'bibgenie-compaction';
import { syntheticSession } from '../../tests/fixtures/session-generator.mjs';
import { firstCall } from './main-thread-core.mjs';
import { timerResolutionMs } from './lib.mjs';

const bench = { lines: [], done: false, error: null, sections: null, timerMs: null, userAgent: navigator.userAgent };
globalThis.bench = bench;
const messages = Number(new URLSearchParams(location.search).get('sizes')?.split(',')[0] ?? 10_000);

try {
  const wasm = await api.init();
  bench.timerMs = timerResolutionMs();
  const { parse, estimate } = firstCall({ api, syntheticSession, messages });
  const mb = wasm.memory.buffer.byteLength / 1e6;
  bench.sections = [{
    title: 'The first call in a page just loaded',
    markdown: [
      '| session | JSON.parse ms | first estimate ms | first / JSON.parse | wasm MB |',
      '| --- | ---: | ---: | ---: | ---: |',
      `| ${messages} msgs | ${parse.toFixed(1)} | ${estimate.toFixed(1)} | ${(estimate / parse).toFixed(2)}x | ${mb.toFixed(1)} |`,
    ].join('\n'),
  }];
} catch (e) {
  bench.error = `${e?.stack ?? e}`;
}
bench.done = true;
