// The first call of a fresh process on a session just loaded, as an app makes it after a start:
// JSON.parse of the session's text, then a stateless `estimate` of it, each timed once. Run by
// main-thread.mjs, one process per size (the wasm heap, the JIT and V8's heap are all new), which
// reads the one line of JSON this prints.
//
//   node bench/speed/first-call.mjs <messages>
// The package is read from BIBGENIE_PKG_DIR or pkg/.
import { fileURLToPath, pathToFileURL } from 'node:url';
import { firstCall } from './main-thread-core.mjs';

const messages = Number(process.argv[2]);
const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
const { syntheticSession } = await import('../../tests/fixtures/session-generator.mjs');
const wasm = await api.init();
const measured = firstCall({ api, syntheticSession, messages });
console.log(JSON.stringify({ ...measured, wasmMB: wasm.memory.buffer.byteLength / 1e6 }));
