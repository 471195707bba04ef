// What recall costs (issue 38): a session of page reads and questions on 8k and 32k, compacted five
// times by the controller with the embedded extractive summarizer, then every folded page read back
// through the recall. Tokens: what the model receives to read a folded page whole (the answers'
// JSON, paged at the default 2,000 tokens) against the page's own tokens, and a lookup by key and
// page or a search against the same page; the fixed costs (the tool's definition in every request,
// the sentence in the summary message). Time: a recall against a projection of the same session
// (each with its store read), medians of interleaved rounds in one run; nothing here asserts a time.
//
//   node bench/speed/recall.mjs [--quick]
// The package is read from BIBGENIE_PKG_DIR (./build.sh bench sets it) or pkg/.
import { fileURLToPath, pathToFileURL } from 'node:url';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 9 : 41;
const pkgDir = process.env.BIBGENIE_PKG_DIR ?? fileURLToPath(new URL('../../pkg/', import.meta.url));
const api = await import(pathToFileURL(`${pkgDir}/index.js`).href);
await api.init();
const { CompactionController, MemoryStore, createRecall, recallTool, extractiveSummary, project, history, estimate, estimateMessage } = api;

const log = (line) => process.stderr.write(`${line}\n`);
const now = () => performance.now();
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const tokensOf = (text) => estimateMessage({ id: 't', role: 'user', parts: [{ type: 'text', text }] });
const SENTENCE = 'The membrane samples kept their salt rejection above ninety percent after forty cycles. ';
const ALPHABET = '23456789ABCDEFGHIJKLMNPQRSTUVWXYZ';
const keyOf = (t) => `PDF${ALPHABET[Math.floor(t / ALPHABET.length) % ALPHABET.length]}${ALPHABET[t % ALPHABET.length]}XYZ`;
/** The AI SDK's tool() and jsonSchema(), as far as the definition's size goes. */
const ai = { tool: (definition) => definition, jsonSchema: (schema) => ({ jsonSchema: schema }) };

async function grow(model, pageTokens) {
  const store = new MemoryStore();
  const { sessionId } = await store.createSession({});
  const controller = new CompactionController({ store, sessionId, model, summarize: async (request) => extractiveSummary(request) });
  const pages = new Map();
  const perSentence = tokensOf(SENTENCE.repeat(100)) / 100;
  let committed = 0;
  for (let t = 1; committed < 5; t++) {
    if (t > 400) throw new Error(`only ${committed} compactions`);
    const key = keyOf(t);
    const page = 10 + t;
    await store.appendMessage(sessionId, { id: `U${t}`, role: 'user', parts: [{ type: 'text', text: `Now page ${page} of the paper ${key}, please (turn ${t}).` }] });
    const output = { attachmentKey: key, pageIndex: page - 1, pageLabel: String(page), text: SENTENCE.repeat(Math.ceil(pageTokens / perSentence)) };
    pages.set(`call-${t}`, { key, page, output });
    await store.appendMessage(sessionId, { id: `A${t}`, role: 'assistant', parts: [
      { type: 'tool-readPdfPage', toolCallId: `call-${t}`, state: 'output-available', input: { attachmentKey: key, pageIndex: page - 1 }, output },
      { type: 'text', text: `On p. ${page} of ${key} the membrane kept its salt rejection (turn ${t}).` },
    ] });
    if ((await controller.afterTurn())?.status === 'committed') committed += 1;
  }
  return { store, sessionId, controller, pages };
}

async function measure(model, pageTokens) {
  const { store, sessionId, controller, pages } = await grow(model, pageTokens);
  const session = await store.load(sessionId);
  const branch = history(session);
  const checkpoint = branch.filter((n) => 'checkpoint' in n).at(-1).checkpoint;
  const keptFrom = branch.findIndex((n) => n.id === checkpoint.firstKeptMessageId);
  const folded = branch.slice(0, keptFrom).flatMap((n) => (n.parts ?? []).filter((p) => p.toolCallId)).map((p) => p.toolCallId);
  const summary = project(session).messages[0].parts[0].text;
  const note = /\n\nThe recall tool reads what was compacted:[^\n]*/.exec(summary)?.[0] ?? '';
  const listed = /newest first: ([^;)]*)/.exec(note)?.[1].split(', ').length ?? 0;
  const recall = createRecall(controller);
  const asTool = recallTool(ai, recall);
  const definition = estimate({ nodes: [], leafId: null, branchRevision: 0 }, model, { overhead: { tools: { recall: { description: asTool.description, inputSchema: asTool.inputSchema.jsonSchema } } } }).tokens;

  // Tokens: each folded page read whole (its answers as the model receives them) against its own text.
  let pageTotal = 0;
  let readTotal = 0;
  let lookupTotal = 0;
  for (const id of folded) {
    const { key, page, output } = pages.get(id);
    pageTotal += tokensOf(JSON.stringify(output));
    for (let offset = 0; offset !== null;) {
      const answer = await recall.read({ handle: id, offset });
      readTotal += tokensOf(JSON.stringify(answer));
      offset = answer.nextOffset;
    }
    lookupTotal += tokensOf(JSON.stringify(await recall.lookup({ key, page })));
  }
  const search = tokensOf(JSON.stringify(await recall.search({ query: 'turn 1)' })));

  // Time: a read of the oldest folded page's first answer, a lookup and a search, against a
  // projection of the same session; each with its store read, interleaved.
  const oldest = pages.get(folded[0]);
  const sides = {
    projection: async () => project(await store.load(sessionId)),
    read: () => recall.read({ handle: folded[0] }),
    lookup: () => recall.lookup({ key: oldest.key, page: oldest.page }),
    search: () => recall.search({ query: 'turn 1)' }),
  };
  const times = Object.fromEntries(Object.keys(sides).map((k) => [k, []]));
  const order = Object.keys(sides);
  for (let r = 0; r < ROUNDS; r++) {
    for (const side of [...order.slice(r % order.length), ...order.slice(0, r % order.length)]) {
      const start = now();
      await sides[side]();
      times[side].push(now() - start);
    }
  }
  const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
  log(`  ${model.id}: ${branch.length} nodes, ${folded.length} folded page reads (${listed} listed); read ${m.read.toFixed(2)} ms, projection ${m.projection.toFixed(2)} ms`);
  return { model, nodes: branch.length, folded: folded.length, listed, pageTokens, pageTotal, readTotal, lookupTotal, search, definition, note: note ? tokensOf(note.trim()) : 0, m };
}

const rows = [];
for (const [model, pageTokens] of [[{ id: 'bench-8k', contextWindow: 8_192 }, 900], [{ id: 'bench-32k', contextWindow: 32_768 }, 3_000]]) {
  rows.push(await measure(model, pageTokens));
}
const f = (n, d = 0) => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
console.log('\n## Recall: what it costs (bench/speed/recall.mjs)\n');
console.log('Sessions of page reads compacted five times (the embedded summarizer); every folded page read back whole through `read` (answers of at most 2,000 tokens, as the model receives them), found by `lookup` (key and page) and by a `search`. Tokens are the package\'s estimates; the baseline is the page\'s own text, measured in the same run.\n');
console.log('| window | folded page reads (listed in the summary) | page tokens (all) | read back (all answers) | read / page | lookup answers / page | a search answer | tool definition (every request) | summary sentence |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${f(r.model.contextWindow / 1024)}k | ${r.folded} (${r.listed}) | ${f(r.pageTotal)} | ${f(r.readTotal)} | ${f(r.readTotal / r.pageTotal, 3)} | ${f(r.lookupTotal / r.pageTotal, 3)} | ${f(r.search)} | ${f(r.definition)} | ${f(r.note)} |`);
}
console.log(`\nTime, medians of ${ROUNDS} interleaved rounds (each with its store read; MemoryStore):\n`);
console.log('| window | nodes | projection (baseline) | read | lookup | search | read / projection |');
console.log('|---|---|---|---|---|---|---|');
for (const r of rows) {
  console.log(`| ${f(r.model.contextWindow / 1024)}k | ${r.nodes} | ${f(r.m.projection, 2)} ms | ${f(r.m.read, 2)} ms | ${f(r.m.lookup, 2)} ms | ${f(r.m.search, 2)} ms | ${f(r.m.read / r.m.projection, 2)} |`);
}
