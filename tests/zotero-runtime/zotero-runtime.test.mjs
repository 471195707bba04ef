// The package in the runtime Zotero really gives a plugin, with no Zotero binary: headless
// Firefox ESR driven through geckodriver with system access (Marionette's chrome context), a
// plugin scope built like Zotero's (system-principal sandbox, Zotero's global properties), the
// package registered as chrome:// content from a folder and from an .xpi, the IIFE bundle of the
// slim entry loaded into that scope, the wasm loaded by loadCompaction with and without Zotero's
// eval prefs, and ZoteroDBStore over a Zotero.DBConnection on Firefox's own Sqlite.sys.mjs.
// Everything runs offline: the bundle, the package files and the databases live in a temp folder.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { Builder } from 'selenium-webdriver';
import firefox from 'selenium-webdriver/firefox.js';
import { crateVersion, installedWasmBytes } from '../node/consumer-env.mjs';
import { MOZSTORAGE_FACTS } from './connection-probe.mjs';
import { writeXpi } from './xpi.mjs';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const SCRIPT_TIMEOUT_MS = 240_000; // a fresh profile on a loaded 2-core machine, 1,500-node import included
const GLOBAL_NAME = 'BibgenieCompaction';

const { researchSession, syntheticSession } = await import('../fixtures/session-generator.mjs');

let work;
let bundle;
let driver;
let report;

/** esbuild, as a plugin author bundles the slim entry: one classic script defining a global. */
async function bundleSlimEntry() {
  const built = await esbuild.build({
    stdin: { contents: "export * from 'bibgenie-compaction/slim';", resolveDir: HERE, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: GLOBAL_NAME,
    platform: 'browser',
    target: ['firefox115'],
    write: false,
    logLevel: 'silent',
  });
  assert.deepEqual(built.warnings.map((w) => w.text), [], 'esbuild warnings');
  return built.outputFiles[0].text;
}

// The AI SDK a plugin's chat uses, bundled as the plugin bundles it, with the mock model of its
// `ai/test` (no network), each major the package supports (tests/node/transport.test.mjs runs the
// same majors in Node).
const V3_USAGE = {
  inputTokens: { total: 321, noCache: 321, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 12, text: 12, reasoning: undefined },
};
const CHAT_SDKS = [
  { spec: 'ai7', mock: 'MockLanguageModelV4', finishReason: { unified: 'stop', raw: 'stop' }, usage: V3_USAGE },
  { spec: 'ai6', mock: 'MockLanguageModelV3', finishReason: { unified: 'stop', raw: 'stop' }, usage: V3_USAGE },
  { spec: 'ai', mock: 'MockLanguageModelV2', finishReason: 'stop', usage: { inputTokens: 321, outputTokens: 12, totalTokens: 333 } },
];
const sdkVersion = (spec) => JSON.parse(readFileSync(join(HERE, '..', 'node_modules', spec, 'package.json'), 'utf8')).version;
const aiSdkBundles = new Map();

/** esbuild over the AI SDK pieces the chat needs: one classic script defining AiSdk. */
async function bundleAiSdk(sdk) {
  const contents = [
    `export { streamText, generateText, convertToModelMessages, readUIMessageStream } from '${sdk.spec}';`,
    `export { ${sdk.mock}, convertArrayToReadableStream } from '${sdk.spec}/test';`,
  ].join('\n');
  const built = await esbuild.build({
    stdin: { contents, resolveDir: HERE, loader: 'js' },
    bundle: true,
    format: 'iife',
    globalName: 'AiSdk',
    platform: 'browser',
    target: ['firefox115'],
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  assert.deepEqual(built.warnings.map((w) => w.text), [], `esbuild warnings (${sdk.spec})`);
  return built.outputFiles[0].text;
}

// What the AI SDK needs that the plugin scope lacks, in the order it hits them, per major: loading
// its bundle, then a chat turn (the paths the scenario takes). Found by the harness and the plugin
// copying each missing name from Zotero.getMainWindow() and trying again.
const AI_SDK_NEEDS = {
  ai7: { load: ['TransformStream'], turn: ['ReadableStream', 'AbortController', 'structuredClone'] },
  ai6: { load: ['TransformStream'], turn: ['ReadableStream', 'WritableStream', 'AbortController', 'structuredClone'] },
  ai: { load: ['TransformStream'], turn: ['ReadableStream', 'WritableStream', 'AbortController', 'structuredClone'] },
};
// What a plugin takes from the main window before loading the AI SDK (the package's WINDOW_GLOBALS,
// which installWindowGlobals installs; docs/zotero-plugin.md): the names above, and those the SDK's
// code uses bare on paths this test does not take (a real provider's SSE parsing:
// TextDecoderStream; timeouts: AbortSignal.timeout/any; abort errors: DOMException). Copied once
// here; example-plugin.test.mjs runs the stand-ins through windows closing and opening.
const PLUGIN_PROVIDES = [
  'ReadableStream', 'TransformStream', 'WritableStream', 'TextDecoderStream', 'TextEncoderStream',
  'AbortController', 'AbortSignal', 'DOMException', 'structuredClone',
];
const CHAT_RUNS = [
  ...CHAT_SDKS.map((sdk) => ({ name: sdk.spec, sdk, provideUpFront: [] })),
  { name: 'ai7-provided', sdk: CHAT_SDKS[0], provideUpFront: PLUGIN_PROVIDES },
];

/** The plugin's files: manifest.json and content/ (bundle, wasm, plugin code). */
function pluginFiles() {
  return [
    { name: 'manifest.json', data: JSON.stringify({ manifest_version: 2, name: 'bibgenie runtime test', version: crateVersion() }) },
    { name: 'content/bibgenie-compaction.js', data: bundle },
    { name: 'content/bibgenie_compaction_bg.wasm', data: installedWasmBytes() },
    { name: 'content/plugin-checks.js', data: readFileSync(join(HERE, 'chrome', 'plugin-checks.js')) },
    ...CHAT_SDKS.map((sdk) => ({ name: `content/ai-sdk-${sdk.spec}.js`, data: aiSdkBundles.get(sdk.spec) })),
    { name: 'content/chat-checks.js', data: readFileSync(join(HERE, 'chrome', 'chat-checks.js')) },
  ];
}

// Runs in the chrome context: maps the test folder to resource://bibgenie-runtime/ (loadSubScript
// and importESModule refuse file: URLs), loads the harness from there and runs it.
const CHROME_SCRIPT = `
const [runtimeFolderURL, config, done] = arguments;
const resource = Services.io.getProtocolHandler('resource').QueryInterface(Ci.nsIResProtocolHandler);
resource.setSubstitution('bibgenie-runtime', Services.io.newURI(runtimeFolderURL));
const harness = {};
Services.scriptloader.loadSubScript('resource://bibgenie-runtime/chrome/harness.js', harness);
harness.runRuntimeChecks(config).then(done, (e) => done(JSON.stringify({ fatal: String(e), stack: String(e && e.stack) })));
`;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'bibgenie-zotero-runtime-'));
  bundle = await bundleSlimEntry();
  for (const sdk of CHAT_SDKS) aiSdkBundles.set(sdk.spec, await bundleAiSdk(sdk));
  const files = pluginFiles();
  const folder = join(work, 'plugin');
  for (const file of files) {
    mkdirSync(join(folder, file.name, '..'), { recursive: true });
    writeFileSync(join(folder, file.name), file.data);
  }
  const xpi = join(work, 'bibgenie-runtime-test.xpi');
  writeXpi(xpi, files);
  const dbDir = join(work, 'db');
  mkdirSync(dbDir);

  const input = JSON.stringify({
    dbName: 'bibgenie-compaction',
    research: researchSession({ turns: 12 }),
    synthetic: syntheticSession({ messages: 1500 }),
  });
  const config = {
    runtimeURL: 'resource://bibgenie-runtime/',
    dbDir,
    packages: [
      { name: 'bibgenie-folder', rootURI: pathToFileURL(folder).href + '/' },
      { name: 'bibgenie-xpi', rootURI: `jar:${pathToFileURL(xpi).href}!/` },
    ],
    input,
    chatRuns: CHAT_RUNS.map((run) => ({
      name: run.name,
      bundle: `ai-sdk-${run.sdk.spec}.js`,
      provideUpFront: run.provideUpFront,
      input: JSON.stringify({ dbName: `bibgenie-compaction-chat-${run.name}`, sdk: run.sdk }),
    })),
  };

  const options = new firefox.Options().setBinary(process.env.BIBGENIE_FIREFOX).addArguments('-headless');
  const service = new firefox.ServiceBuilder(process.env.BIBGENIE_GECKODRIVER).addArguments('--allow-system-access');
  driver = await new Builder().forBrowser('firefox').setFirefoxOptions(options).setFirefoxService(service).build();
  await driver.manage().setTimeouts({ script: SCRIPT_TIMEOUT_MS });
  await driver.setContext(firefox.Context.CHROME);
  const text = await driver.executeAsyncScript(CHROME_SCRIPT, pathToFileURL(HERE).href, config);
  report = JSON.parse(text);
  if (process.env.BIBGENIE_RUNTIME_REPORT) writeFileSync(process.env.BIBGENIE_RUNTIME_REPORT, JSON.stringify(report, null, 2));
});

after(async () => {
  await driver?.quit();
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the harness ran in the chrome context', () => {
  assert.equal(report.fatal, undefined, `${report.fatal}\n${report.stack}`);
  assert.match(report.firefox, /^\d+\./);
});

test('real Zotero.DBConnection on Sqlite.sys.mjs: rows, parameters and transactions as MOZSTORAGE_FACTS say', () => {
  // Each key is one fact the Node fake (tests/node/zotero-shim.mjs) must reproduce; see zotero-shim.test.mjs.
  for (const [fact, expected] of Object.entries(MOZSTORAGE_FACTS)) {
    assert.deepEqual(report.probe[fact], expected, `fact ${fact}`);
  }
});

// Firefox's Sqlite.sys.mjs alone (chrome/sqlite-engine-probe.mjs), observed on Firefox ESR 153.
const SQLITE_ENGINE_FACTS = {
  nonSelectResult: 'rows',
  rowValues: [[1, 0, ''], [2, 5, 'x'], [3, null, null]],
  rowKeys: null, // as the connection's: MOZSTORAGE_FACTS.rowKeys
  columnAsProperty: 'undefined',
  unknownColumnThrows: true,
  thenOfRow: 'undefined',
  nullBinding: { equalsNull: 0, isNull: 1 },
  bindTypes: { integer: 'integer', fraction: 'real', text: 'text' },
  booleanBinds: 'integer',
  undefinedBinds: 'null',
  firstWord: { leadingSpace: 'rows', newline: 'rows', with: 'rows' },
  transactionOrder: ['first:start', 'first:end', 'second'],
  failedTransaction: { error: 'boom', rolledBack: true },
};
SQLITE_ENGINE_FACTS.rowKeys = MOZSTORAGE_FACTS.rowKeys;

test('Sqlite.sys.mjs alone: what the engine does without the db.js rules', () => {
  for (const [fact, expected] of Object.entries(SQLITE_ENGINE_FACTS)) {
    assert.deepEqual(report.engine[fact], expected, `engine fact ${fact}`);
  }
});

test('the connection passes the engine through where db.js adds nothing, and differs where a rule acts', () => {
  const { probe, engine } = report;
  // Passed through: values, keys of the real row behind the proxy, bind types, transactions.
  assert.deepEqual(probe.rowValues, engine.rowValues, 'row values');
  assert.deepEqual(probe.rowKeys, engine.rowKeys, 'the proxy shows the real row\'s keys');
  assert.deepEqual(probe.bindTypes, engine.bindTypes, 'bind types');
  assert.deepEqual(probe.transactionOrder, engine.transactionOrder, 'transactions queue as Sqlite.sys.mjs queues them');
  assert.deepEqual(probe.failedTransaction, engine.failedTransaction, 'a rejected callback rolls back as in Sqlite.sys.mjs');
  // Each rule changes what the engine alone gives (else it would be no rule, or a wrong one).
  assert.equal(engine.columnAsProperty, 'undefined', 'a bare row has no column properties: the proxy adds them');
  assert.ok(engine.unknownColumnThrows && probe.unknownColumn !== 'no error', 'an unknown column is refused by the engine and by the proxy');
  assert.equal(engine.nullBinding.equalsNull, 0, '`= ?` with a bound NULL matches nothing in the engine');
  assert.ok(probe.nullInlined.selectEquals > 0, 'so the connection\'s match of `= ?` NULL is the inlining rule');
  assert.notEqual(engine.booleanBinds, 'error', 'the engine binds a boolean');
  assert.match(probe.booleanParameter, /Invalid boolean parameter/, 'so its refusal is the parameter rule');
  assert.equal(engine.undefinedBinds, 'null', 'the engine binds undefined as NULL');
  assert.match(probe.undefinedParameter, /is undefined/, 'so its refusal is the parameter rule');
  assert.equal(engine.nonSelectResult, 'rows', 'the engine answers a non-select with rows (none)');
  assert.equal(probe.nonSelectResult, 'undefined', 'the connection with undefined: the first-word rule');
  for (const form of ['leadingSpace', 'newline', 'with']) {
    assert.equal(engine.firstWord[form], 'rows', `${form}: the engine returns rows`);
    assert.equal(probe.firstWord[form], 'undefined', `${form}: the first-word rule drops them`);
  }
});

const [folderPackage, xpiPackage] = [0, 1].map((i) => () => report.packages[i]);

test('the plugin scope lacks console, queueMicrotask, structuredClone and AbortController, and the bundle adds none', () => {
  for (const pkg of report.packages) {
    const lacking = { console: 'undefined', queueMicrotask: 'undefined', structuredClone: 'undefined', AbortController: 'undefined' };
    const needed = { fetch: 'function', WebAssembly: 'object', setTimeout: 'function', Zotero: 'object' };
    assert.deepEqual(pkg.globalsBefore, { ...lacking, ...needed }, pkg.name);
    assert.deepEqual(pkg.globalsAfter, pkg.globalsBefore, `${pkg.name}: loading the bundle changed the scope`);
  }
});

test('without Zotero\'s eval prefs loadCompaction rejects with wasm-compile-blocked, naming the prefs', () => {
  for (const pkg of report.packages) {
    assert.deepEqual(pkg.prefsWithout, {
      'security.allow_eval_with_system_principal': false,
      'security.allow_eval_in_parent_process': false,
    });
    const { ok, error } = pkg.withoutEvalPrefs;
    assert.equal(ok, false, `${pkg.name}: compiled without the prefs`);
    assert.equal(error.code, 'wasm-compile-blocked', `${pkg.name}: ${error.message}`);
    assert.match(error.message, /security\.allow_eval_with_system_principal/);
    assert.doesNotMatch(error.message, /not a valid wasm module/);
  }
});

test('with the eval prefs the wasm loads from chrome:// content, folder-backed and .xpi-backed', () => {
  assert.deepEqual(report.packages.map((p) => p.name), ['bibgenie-folder', 'bibgenie-xpi']);
  for (const pkg of report.packages) assert.deepEqual(pkg.withEvalPrefs, { ok: true, version: crateVersion() }, pkg.name);
});

test('loadCompaction fetched the wasm through Zotero.HTTP; the chrome:// request answers 200 from a file or jar channel', () => {
  const size = installedWasmBytes().length;
  const [folder, xpi] = report.packages;
  assert.deepEqual(folder.xhr, { isFileChannel: true, isJarChannel: false, status: 200, bytes: size });
  assert.deepEqual(xpi.xhr, { isFileChannel: false, isJarChannel: true, status: 200, bytes: size });
  // One request per load: without the prefs, (folder only) with each pref alone, with both, and
  // one per chat run in a fresh scope.
  for (const [pkg, loads] of [[folder, 4 + CHAT_RUNS.length - 1], [xpi, 2]]) {
    const url = `GET chrome://${pkg.name}/content/bibgenie_compaction_bg.wasm`;
    assert.deepEqual(pkg.httpRequests, Array(loads).fill(url), pkg.name);
  }
});

test('either eval pref alone lets loadCompaction compile the wasm', () => {
  assert.deepEqual(folderPackage().onePref, {
    'security.allow_eval_with_system_principal': { ok: true, version: crateVersion() },
    'security.allow_eval_in_parent_process': { ok: true, version: crateVersion() },
  });
});

test('wasm-bindgen\'s deprecated initSync(bytes) works in the plugin scope (its warning has no bare console)', () => {
  assert.deepEqual(xpiPackage().deprecatedInitSync, { ok: true, version: crateVersion() });
});

test('the .xpi-backed package round-trips a message through ZoteroDBStore', () => {
  assert.deepEqual(xpiPackage().checks, { roundTrip: { nodes: ['q-u1'], projected: 1 } });
});

/** A step of the store scenario, failing with the error it reported. */
function scenario(name) {
  const result = folderPackage().checks[name];
  assert.ok(result, `step ${name} did not run`);
  assert.equal(result.error, undefined, `${name}: ${JSON.stringify(result.error)}\n${result.stack}`);
  return result;
}

test('ZoteroDBStore on the real connection: create and append', () => {
  assert.deepEqual(scenario('create'), {
    created: [null, 0],
    heads: [['c-u1', 1], ['c-a1', 2]],
    loaded: [['c-u1', null], ['c-a1', 'c-u1']],
  });
});

test('ZoteroDBStore on the real connection: compact with the embedded summarizer, then a no-op re-compact', () => {
  const compacted = scenario('compact');
  assert.equal(compacted.status, 'committed');
  assert.equal(compacted.revisions[1], compacted.revisions[0] + 1);
  assert.equal(compacted.leafIsCheckpoint, true);
  assert.equal(compacted.basisLeaf, true);
  assert.equal(compacted.nodes[1], compacted.nodes[0] + 1);
  assert.deepEqual(scenario('recompact'), { status: 'noop', unchanged: true });
});

test('ZoteroDBStore on the real connection: a tool result, retry, edit and fork', () => {
  const tool = scenario('toolResult');
  assert.deepEqual(tool, { revisions: [tool.revisions[0], tool.revisions[0] + 1], state: 'output-available', parts: 3 });
  assert.deepEqual(scenario('retry'), { target: 'r-a-tool', parentIsTargetParent: true, leaf: 'r-a-retry' });
  assert.deepEqual(scenario('edit'), { target: 'r-u-tool', siblingOfEdited: true, leaf: 'r-u-edit' });
  assert.deepEqual(scenario('fork'), { head: [true, 0], forkIsChain: true, sourceUnchanged: true, problems: 0 });
});

test('ZoteroDBStore on the real connection: under a table prefix beside the app table, the app row and the store writes in one transaction', () => {
  assert.deepEqual(scenario('appTable'), {
    chats: ['c1'], thrown: 'app failed', unchanged: true,
    tables: ['myplugin_nodes', 'myplugin_schema_version', 'myplugin_sessions'], nodes: ['p-u1'], apart: true,
  });
});

test('ZoteroDBStore on the real connection: a failing transaction is rolled back', () => {
  assert.deepEqual(scenario('failedTransaction'), { thrown: 'boom', unchanged: true });
});

test('ZoteroDBStore on the real connection: a lone surrogate in a session or node id is refused with a code, nothing written', () => {
  assert.deepEqual(scenario('loneSurrogate'), { codes: ['invalid-argument', 'invalid-node'], created: false, unchanged: true });
});

test('ZoteroDBStore on the real connection: eight concurrent appends all land, one revision each', () => {
  assert.deepEqual(scenario('concurrentAppends'), {
    revisions: [1, 2, 3, 4, 5, 6, 7, 8], stored: true, chain: true, finalRevision: 8,
  });
});

test('ZoteroDBStore on the real connection: an import of 1,500 nodes reads back verbatim', () => {
  assert.deepEqual(scenario('import'), { nodes: 1500, same: true, leaf: true, problems: 0 });
});

test('CompactionController and the AI SDK summarizer cancel in the plugin scope (no AbortController there)', () => {
  assert.deepEqual(scenario('controller'), {
    providerCalled: true, gated: false, cancelled: true, outcome: 'cancelled', unchanged: true,
    statuses: ['compacting', 'idle'], committed: 'committed', indexed: true,
  });
});

test('ZoteroDBStore on the real connection: close and reopen, then the crash-safety checks on the file', () => {
  assert.deepEqual(scenario('reopen'), { sessions: ['big', 'chat', 'research', 'research-ctl', 'research-fork'], same: true });
  const checks = scenario('fileChecks');
  assert.deepEqual(checks.failures, []);
  assert.ok(checks.nodesChecked > 1500, `${checks.nodesChecked} node rows checked`);
  assert.ok(checks.checkpointsChecked >= 1, `${checks.checkpointsChecked} checkpoints checked`);
});

test('the bundle reaches console, queueMicrotask, structuredClone, AbortController and the other globals the scope lacks only through globalThis', () => {
  // esbuild drops comments; what is left is code and string literals. A bare name is one not
  // preceded by `.`, a quote or an identifier character, and not the operand of typeof. The
  // second group is what the chat runs found missing too (the AI SDK uses them bare).
  const names = 'console|queueMicrotask|structuredClone|AbortController|' +
    'ReadableStream|TransformStream|WritableStream|TextEncoderStream|TextDecoderStream|AbortSignal|DOMException|performance|navigator';
  const bare = new RegExp(`(?<![.\\w$'"\x60]|typeof )\\b(${names})\\b(?!['"\x60:])`, 'g');
  const uses = [...bundle.matchAll(bare)].map((m) => bundle.slice(Math.max(0, m.index - 40), m.index + 40));
  assert.deepEqual(uses, []);
});

// The chat turn (CompactionChatTransport) over the real connection, with the AI SDK bundled into
// the scope and its mock models (chrome/chat-checks.js): ai 7 in the store scenario's own scope,
// ai 6 and ai 5 each in a fresh plugin scope, then ai 7 once more with PLUGIN_PROVIDES copied in first.
const chatRun = (name) => {
  const run = (folderPackage().chats || []).find((c) => c.name === name);
  assert.ok(run, `chat run ${name} did not run`);
  assert.equal(run.fatal, undefined, `${name}: ${run.fatal}\n${run.stack}`);
  return run;
};

/** A step of a chat run, failing with the error it reported. */
function chatStep(name, step) {
  const result = chatRun(name).report[step];
  assert.ok(result, `${name}: chat step ${step} did not run`);
  assert.equal(result.error, undefined, `${name} ${step}: ${JSON.stringify(result.error)}\n${result.stack}`);
  return result;
}

test('the plugin scope has no web streams, AbortSignal, DOMException, performance or navigator (the AI SDK names them all)', () => {
  for (const run of folderPackage().chats) {
    const expected = {
      ReadableStream: 'undefined', TransformStream: 'undefined', WritableStream: 'undefined',
      TextEncoderStream: 'undefined', TextDecoderStream: 'undefined', AbortSignal: 'undefined',
      DOMException: 'undefined', EventTarget: 'function', Headers: 'function', Response: 'function',
      performance: 'undefined', navigator: 'undefined',
    };
    assert.deepEqual(run.globals, expected, run.name);
  }
});

for (const sdk of CHAT_SDKS) {
  const needs = AI_SDK_NEEDS[sdk.spec];
  const label = `ai@${sdkVersion(sdk.spec)}`;

  test(`${label} in the plugin scope: loading its bundle needs ${needs.load.join(', ')}, a chat turn ${needs.turn.join(', ')} from the main window`, () => {
    const run = chatRun(sdk.spec);
    // Each ReferenceError was thrown by the AI SDK's code, none by the package's glue.
    const sdkFile = `ai-sdk-${sdk.spec}.js`;
    assert.deepEqual(run.aiSdkLoad, { provided: needs.load, thrownBy: needs.load.map(() => sdkFile), failure: null });
    assert.deepEqual(run.report.globals, { provided: needs.turn, thrownBy: needs.turn.map(() => sdkFile), lastFailure: null });
    for (const name of needs.turn) assert.equal(folderPackage().globalsBefore[name] ?? run.globals[name], 'undefined', `${name} was in the scope`);
  });

  test(`${label} in the plugin scope: a chat turn through CompactionChatTransport stores one user message and one response, with id and usage`, () => {
    assert.deepEqual(chatStep(sdk.spec, 'turn'), {
      streamed: ['turn-resp-1', 'Three more papers.'],
      added: [['turn-u', 'user', 'leaf'], ['turn-resp-1', 'assistant', 'turn-u']],
      leaf: 'turn-resp-1',
      usage: 321,
      questionInPrompt: 1,
      promptLength: 1,
      cacheMarks: [4],
      settled: true,
    });
    assert.deepEqual(chatStep(sdk.spec, 'savedFirst'), { added: 1, storedOnce: 1, inPrompt: 1 }, 'saved first: sent and stored once');
  });

  test(`${label} in the plugin scope: a turn that does not fit compacts first; the model sees the summary first, the summary message is never stored`, () => {
    assert.deepEqual(chatStep(sdk.spec, 'preflight'), {
      summarizerCalls: 1,
      mode: 'preflight',
      folded: true,
      shrinks: true,
      added: ['checkpoint', 'user', 'assistant'],
      summaryFirstInPrompt: true,
      promptShorter: true,
      summaryNotStored: true,
    });
  });

  test(`${label} in the plugin scope: cancelling the turn during its compaction (request abort or the status's cancel) rejects with code cancelled, writes nothing, and the provider sees the abort`, () => {
    for (const step of ['cancel', 'cancelFromStatus']) {
      assert.deepEqual(chatStep(sdk.spec, step), {
        wasCompacting: true, code: 'cancelled', result: 'cancelled', unchanged: true, modelStreamed: 0, providerSawAbort: true,
      }, step);
    }
  });
}

test('with the globals docs/zotero-plugin.md lists copied from the main window first, the AI SDK loads and the chat scenario passes with nothing else missing', () => {
  const run = chatRun('ai7-provided');
  assert.deepEqual(run.aiSdkLoad, { provided: [], thrownBy: [], failure: null });
  assert.deepEqual(run.report.globals, { provided: [], thrownBy: [], lastFailure: null });
  for (const step of ['turn', 'savedFirst', 'preflight', 'cancel', 'cancelFromStatus']) {
    assert.deepEqual(chatStep('ai7-provided', step), chatStep('ai7', step), step);
  }
});
