// The Firefox side of the main-thread bench (`node bench/speed/firefox.mjs --page=main-thread`): the
// sends of main-thread-core.mjs in a real page, on MemoryStore (a page has no SQLite), polled through
// `globalThis.bench` as page.mjs is.
import * as api from 'bibgenie-compaction';
import { syntheticSession } from '../../tests/fixtures/session-generator.mjs';
import { LIMIT_MS, WIDE_MODEL, blockTable, chatSends } from './main-thread-core.mjs';
import { timerResolutionMs } from './lib.mjs';

const bench = { lines: [], done: false, error: null, sections: null, timerMs: null, userAgent: navigator.userAgent };
globalThis.bench = bench;
const params = new URLSearchParams(location.search);
const sizes = params.get('sizes')?.split(',').map(Number) ?? [1_000, 10_000];

try {
  await api.init();
  bench.timerMs = timerResolutionMs();
  const rows = [];
  const log = (line) => bench.lines.push(line);
  for (const messages of sizes) {
    for (const fits of [true, false]) {
      rows.push(...(await chatSends({ api, syntheticSession, messages, storeName: 'MemoryStore', open: () => new api.MemoryStore(), fits, log })));
    }
  }
  // A model with a 1M window: a round's summary request is five times the 200k model's.
  rows.push(...(await chatSends({ api, syntheticSession, messages: Math.max(...sizes), storeName: 'MemoryStore', open: () => new api.MemoryStore(), fits: false, log, model: WIDE_MODEL })));
  bench.sections = [{
    title: 'What a user waits for: the longest main-thread block of a call, in a page',
    markdown: [
      `A setTimeout(0) chain runs beside each call in the page: its longest gap is the longest stretch the call held the thread (no paint, no input); the control is the chain alone for as long. The limit (issue 42) is ${LIMIT_MS} ms. syntheticSession imported into a MemoryStore, summarizer: the embedded one, extractiveSummaryInSlices.`,
      '',
      ...blockTable(rows),
    ].join('\n'),
  }];
} catch (e) {
  bench.error = `${e?.stack ?? e}`;
}
bench.done = true;
