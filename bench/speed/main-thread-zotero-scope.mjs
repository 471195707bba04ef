// Plugin code for the main-thread bench in Zotero's plugin scope (main-thread-zotero.mjs drives it):
// bundled by esbuild into one classic script, loaded from the bench plugin's chrome:// package into
// the scope tests/zotero-runtime/chrome/harness.js builds, after the IIFE bundle of
// bibgenie-compaction/slim (global BibgenieCompaction), as a plugin's own code is. The sends of
// main-thread-core.mjs run here on ZoteroDBStore over Zotero.DBConnection (the harness's: Firefox's
// Sqlite.sys.mjs), with the timer chain and its control in this same scope, on the scope's own
// setTimeout. Strings only cross the sandbox boundary.
/* global BibgenieCompaction, Zotero, ChromeUtils */
import { syntheticSession } from '../../tests/fixtures/session-generator.mjs';
import { LIMIT_MS, WIDE_MODEL, blockTable, chatSends, useClock } from './main-thread-core.mjs';
import { timerResolutionMs } from './lib.mjs';

/**
 * The scope has no `performance`: ChromeUtils.now() (a high-resolution clock, in the plugin scope's
 * ChromeUtils) if this Firefox has it, else Date.now() (1 ms).
 */
function scopeClock() {
  if (typeof ChromeUtils !== 'undefined' && typeof ChromeUtils.now === 'function') return { name: 'ChromeUtils.now()', now: () => ChromeUtils.now() };
  return { name: 'Date.now()', now: () => Date.now() };
}


const state = { lines: [], done: false, error: null, result: null };

/** What the driver polls: new log lines, and the result once done (JSON text). */
function poll() {
  return JSON.stringify({ lines: state.lines.splice(0), done: state.done, error: state.error, result: state.result });
}

/**
 * Starts the run (the driver polls): `input` is JSON `{ sizes, stores, dbPrefix }` (stores:
 * 'ZoteroDBStore', 'MemoryStore'). `globals` in the result is what the scope has of the names the
 * package reaches through globalThis, as seen from here.
 */
function start(input) {
  const { sizes, stores, dbPrefix } = JSON.parse(input);
  const clock = scopeClock();
  useClock(clock.now);
  const api = BibgenieCompaction;
  const log = (line) => state.lines.push(line);
  (async () => {
    const rows = [];
    for (const messages of sizes) {
      for (const storeName of stores) {
        for (const fits of [true, false]) {
          const name = `${dbPrefix}-${messages}-${fits ? 'fits' : 'compacts'}`;
          // A plugin's store: its own database file through Zotero.DBConnection (docs/zotero-plugin.md,
          // section 3). MemoryStore only to compare with the page, which has no SQLite.
          const open = storeName === 'ZoteroDBStore'
            ? () => new api.ZoteroDBStore(new Zotero.DBConnection(name), { closeConnection: true })
            : () => new api.MemoryStore();
          const reopen = storeName === 'ZoteroDBStore';
          rows.push(...(await chatSends({ api, syntheticSession, messages, storeName, open, fits, reopen, log })));
        }
      }
    }
    // A model with a 1M window, on the plugin's store: a round's summary request is five times the 200k model's.
    const wideStore = stores.includes('ZoteroDBStore') ? 'ZoteroDBStore' : 'MemoryStore';
    const openWide = wideStore === 'ZoteroDBStore'
      ? () => new api.ZoteroDBStore(new Zotero.DBConnection(`${dbPrefix}-wide`), { closeConnection: true })
      : () => new api.MemoryStore();
    rows.push(...(await chatSends({ api, syntheticSession, messages: Math.max(...sizes), storeName: wideStore, open: openWide, fits: false, log, model: WIDE_MODEL })));
    const globals = Object.fromEntries(['performance', 'console', 'queueMicrotask', 'structuredClone', 'AbortController']
      .map((g) => [g, typeof globalThis[g]]));
    state.result = { table: blockTable(rows), limitMs: LIMIT_MS, clock: clock.name, timerMs: timerResolutionMs(clock.now), globals, version: api.version() };
  })().then(
    () => { state.done = true; },
    (e) => { state.error = `${e && e.stack ? `${e}\n${e.stack}` : e}`; state.done = true; },
  );
}

globalThis.bibgenieMainThread = { start, poll };
