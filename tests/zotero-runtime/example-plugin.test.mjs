// The example plugin (examples/zotero-research-chat) as a user installs it: built by its
// build.mjs into an .xpi against the installed tarball, then run in headless Firefox's parent
// process through its own bootstrap.js (chrome/example-plugin.js plays Zotero's part): started with
// no main window, a multi-turn chat on an 8k window with the AI SDK's mock models (automatic and
// preflight compaction, Cancel during one, Stop during a stream), two windows on one item, a window
// closed and another opened, and a restart with the history byte-identical.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { Builder } from 'selenium-webdriver';
import firefox from 'selenium-webdriver/firefox.js';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = process.env.BIBGENIE_REPO_ROOT ?? join(HERE, '..', '..');
const consumerDir = process.env.BIBGENIE_CONSUMER_DIR;

let work;
let driver;
let report;
let built;

const CHROME_SCRIPT = `
const [runtimeFolderURL, config, done] = arguments;
const resource = Services.io.getProtocolHandler('resource').QueryInterface(Ci.nsIResProtocolHandler);
resource.setSubstitution('bibgenie-runtime', Services.io.newURI(runtimeFolderURL));
resource.setSubstitution('research-chat-work', Services.io.newURI(config.workFolderURL));
const harness = {};
Services.scriptloader.loadSubScript('resource://bibgenie-runtime/chrome/harness.js', harness);
Services.scriptloader.loadSubScript('resource://bibgenie-runtime/chrome/example-plugin.js', harness);
harness.runExamplePlugin(config).then(done, (e) => done(JSON.stringify({ fatal: String(e), stack: String(e && e.stack) })));
`;

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'bibgenie-example-plugin-'));
  const { buildExample } = await import(pathToFileURL(join(repoRoot, 'examples', 'zotero-research-chat', 'build.mjs')).href);
  built = await buildExample({ packageRoot: consumerDir ?? repoRoot, depsRoot: join(HERE, '..'), out: join(work, 'research-chat.xpi') });
  // The AI SDK's mock models, bundled like plugin code (ai 7, the major the example bundles).
  const mock = await esbuild.build({
    stdin: { contents: "export { MockLanguageModelV4, convertArrayToReadableStream } from 'ai7/test';", resolveDir: HERE, loader: 'js' },
    bundle: true, format: 'iife', globalName: 'AiSdkMock', platform: 'browser', target: ['firefox115'], write: false, logLevel: 'silent',
  });
  writeFileSync(join(work, 'ai-sdk-mock.js'), mock.outputFiles[0].text);
  const dbDir = join(work, 'db');
  mkdirSync(dbDir);
  const config = {
    runtimeURL: 'resource://bibgenie-runtime/',
    workFolderURL: pathToFileURL(work).href + '/',
    dbDir,
    xpiURL: `jar:${pathToFileURL(built.xpi).href}!/`,
    mockBundle: 'resource://research-chat-work/ai-sdk-mock.js',
  };
  const options = new firefox.Options().setBinary(process.env.BIBGENIE_FIREFOX).addArguments('-headless');
  const service = new firefox.ServiceBuilder(process.env.BIBGENIE_GECKODRIVER).addArguments('--allow-system-access');
  driver = await new Builder().forBrowser('firefox').setFirefoxOptions(options).setFirefoxService(service).build();
  await driver.manage().setTimeouts({ script: 480_000 });
  await driver.setContext(firefox.Context.CHROME);
  report = JSON.parse(await driver.executeAsyncScript(CHROME_SCRIPT, pathToFileURL(HERE).href, config));
  if (process.env.BIBGENIE_RUNTIME_REPORT) writeFileSync(`${process.env.BIBGENIE_RUNTIME_REPORT}.example.json`, JSON.stringify(report, null, 2));
});

after(async () => {
  await driver?.quit();
  if (work) rmSync(work, { recursive: true, force: true });
});

/** A step of the scenario, failing with the error it reported. */
function step(name) {
  assert.equal(report.fatal, undefined, `${report.fatal}\n${report.stack}`);
  const result = report.steps[name];
  assert.ok(result, `step ${name} did not run`);
  assert.equal(result.error, undefined, `${name}: ${JSON.stringify(result.error)}\n${result.stack}`);
  return result;
}

test('build.mjs makes the .xpi with esbuild and no warning: bootstrap.js, manifest, prefs, the bundle and the .wasm', () => {
  assert.deepEqual(built.warnings, []);
  for (const file of ['bootstrap.js', 'manifest.json', 'prefs.js', 'content/preferences.xhtml', 'content/research-chat.js', 'content/bibgenie_compaction_bg.wasm']) {
    assert.ok(built.files.includes(file), file);
  }
});

test('startup() with no main window succeeds; a turn then is refused with no-main-window, nothing stored', () => {
  assert.deepEqual(step('startWithoutWindow'), { started: true, section: 'research-chat', prefPane: 'content/preferences.xhtml', chatAPI: 'function' });
  assert.deepEqual(step('turnWithoutWindow'), { code: 'no-main-window', stored: 0 });
});

test('a multi-turn chat on an 8k window compacts automatically after a turn', () => {
  const turns = step('turns');
  assert.equal(turns.autoCompacted, true, JSON.stringify(turns));
  assert.ok(turns.checkpoints >= 1);
  assert.ok(turns.turns >= 2);
  assert.equal(turns.usage, 'stop', 'the stored answer carries its finish reason');
});

test('a question that does not fit compacts first (preflight), then is answered', () => {
  assert.deepEqual(step('preflight'), { overflowing: true, mode: 'preflight', newCheckpoints: 1, summaries: 1, answered: true });
});

test('Cancel during the compaction: the send rejects with cancelled, the session is unchanged, the provider sees the abort', () => {
  assert.deepEqual(step('cancelCompaction'), { overflowing: true, code: 'cancelled', unchanged: true, modelAsked: 0, providerSawAbort: true });
});

test('Stop during a stream: the partial answer is stored with metadata.aborted and stays the leaf', () => {
  assert.deepEqual(step('stopStreaming'), { text: 'The first half', aborted: true, leaf: true });
});

test('two windows on one item: the second send is refused with turn-in-flight, the first answer stays the leaf', () => {
  assert.deepEqual(step('twoWindows'), { sameSession: true, refused: 'turn-in-flight', leafIsA: true, bStored: false });
});

test('a window closed and another open: the next turn completes (no hang); with none open it is no-main-window, and a reopened window works', () => {
  assert.deepEqual(step('windowClosed'), { closed: true, answered: true, onBranch: true });
  assert.deepEqual(step('noWindowThenReopened'), { code: 'no-main-window', answered: true, onBranch: true });
});

test('shutdown() and a second startup: the same session, history and checkpoints byte-identical, and it chats on', () => {
  const restart = step('restart');
  assert.equal(restart.unloaded, 'undefined', 'shutdown removed Zotero.ResearchChat');
  assert.equal(restart.sameSession, true);
  assert.equal(restart.identical, true);
  assert.ok(restart.checkpoints >= 2, `${restart.checkpoints} checkpoints`);
  assert.equal(restart.answerUnderOldLeaf, true);
});

test('the window an answer streams in closes, another stays open: the send settles, the request is aborted, the partial answer is stored as Stop stores it, the other window chats on', () => {
  assert.deepEqual(step('closedMidStreamTwoWindows'), { sendSettled: true, requestAborted: true, partialStored: true, aborted: true, otherWindow: 'answered', uncaught: [] });
});

test('the last window closes while an answer streams: the send settles, nothing is thrown uncaught, the session is not left turn-in-flight', () => {
  assert.deepEqual(step('closedMidStreamLastWindow'), { sendSettled: true, requestAborted: true, partialStored: true, aborted: true, nextSend: 'answered', uncaught: [] });
});

test('an app that never stops its chats on the window\'s unload: the transport stops the turn itself when its window goes, the send settles, and the session is not left turn-in-flight', () => {
  assert.deepEqual(step('windowGoneNoHook'), { sendSettled: true, requestAborted: true, partialStored: true, aborted: true, nextSend: 'answered', uncaught: [] });
});

test('a failed send (429, an error mid-answer) stores the question once: sending it again answers it in place; a question a crash left is sent with the next one', () => {
  assert.deepEqual(step('failedSends'), {
    first: 'error', stored429: 1, answeredInPlace: true, sentOnce429: true,
    cut: 'error', storedMidstream: 1, answeredInPlaceMidstream: true, cutKept: 'error',
    afterCrash: true,
  });
});

test('no API key: the send is refused at once, naming where to set it, and nothing is stored', () => {
  assert.deepEqual(step('missingKey'), { code: 'missing-api-key', saysWhere: true, atOnce: true, stored: 0 });
});

test('the item pane: an answer lands in its own item\'s pane across an item switch; a failed send shows the question stored, not answered, with a Retry that answers it in place; a draft refused before it is stored leaves the log and goes back to the box', () => {
  assert.deepEqual(step('pane'), {
    aInBsPane: false, aInAsPane: true,
    status: 'Not answered (error)', note: 'Stored, not answered yet. Retry', inputAfterFailure: '', retried: true, storedOnce: 1,
    refused: { status: 'Not stored (too-large)', inLog: false, backInBox: true },
  });
});

test('the model is told about the item: metadata, notes and the attachments\' indexed text, cut to a share of the window, sent as the system prompt and not stored', () => {
  assert.deepEqual(step('itemInRequest'), {
    answered: true, title: true, key: true, creator: true, note: true, snapshot: true, pdf: true, cut: true, withinBudget: true, notStored: true,
  });
});

test('disable while an answer streams: shutdown aborts the request and waits for the turn, the partial answer is stored, nothing runs after the globals are gone', () => {
  assert.deepEqual(step('shutdownMidStream'), { requestAborted: true, sendAwaited: true, partialStored: true, aborted: true, uncaught: [] });
});

test('disable while an answer streams in the item pane, with a pane render under way: nothing the plugin started rejects unhandled (no "the store has been closed")', () => {
  assert.deepEqual(step('paneShutdownMidStream'), { uncaught: [] });
});

test('the last window closes while an answer streams into its item pane: nothing the plugin started rejects unhandled (no "no main window is open")', () => {
  assert.deepEqual(step('paneLastWindowClosed'), { uncaught: [] });
});

test('disable while startup is still loading: nothing is left behind, and an update (disable, enable) makes one instance', () => {
  assert.deepEqual(step('disableDuringStartup'), {
    left: { chatAPI: 'undefined', connections: 0, sections: 0 },
    afterUpdate: { chatAPI: 'object', connections: 1, sections: 1 },
    shutdownResolved: 'fulfilled',
  });
});

test('the scenarios of what users do mid-turn ran to their end', () => {
  assert.deepEqual(step('whatUsersDo'), {});
});

test('the API key from the prefs is never logged', () => {
  assert.equal(report.keyLogged, false);
});
