// The chat as a web developer drives it (issue 43, items 1 and 2): a React page built with Vite
// against the packed package (tests/firefox/usechat/: App.jsx is the README's `useChat` example),
// `@ai-sdk/react`'s `useChat({ transport })` over createChat's transport, a MemoryStore session and
// a streaming mock model of `ai/test`, in headless Firefox ESR (selenium-webdriver, the local
// geckodriver). Each step is driven through the page (typing, Send, Stop, Edit, Regenerate) and
// compared with what the store holds and what the model received.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Builder, By, until } from 'selenium-webdriver';
import firefox from 'selenium-webdriver/firefox.js';
import { serveStatic } from './static-server.mjs';
import { consumerDir, repoRoot } from '../node/consumer-env.mjs';

const PAGE_TIMEOUT_MS = 60_000; // first start of a fresh Firefox profile on a loaded 2-core machine
const STEP_TIMEOUT_MS = 30_000;
const bundlersDir = join(repoRoot, 'tests/bundlers');
const bundlerRequire = createRequire(join(bundlersDir, 'package.json'));
const sourceDir = join(repoRoot, 'tests/firefox/usechat');
const appDir = join(consumerDir, 'bundler-apps', 'usechat');

let server;
let driver;
let buildError;

/** The app folder: its sources, the installed package (a copy), and the React and AI SDK packages of tests/bundlers. */
function appFolder() {
  rmSync(appDir, { recursive: true, force: true });
  mkdirSync(join(appDir, 'node_modules/@ai-sdk'), { recursive: true });
  cpSync(join(consumerDir, 'node_modules/bibgenie-compaction'), join(appDir, 'node_modules/bibgenie-compaction'), { recursive: true });
  for (const name of ['react', 'react-dom', 'ai', '@ai-sdk/react']) symlinkSync(join(bundlersDir, 'node_modules', name), join(appDir, 'node_modules', name), 'dir');
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'app-usechat', private: true, type: 'module' }, null, 2));
  for (const file of ['index.html', 'main.jsx', 'App.jsx']) cpSync(join(sourceDir, file), join(appDir, file));
}

before(async () => {
  let url;
  try {
    appFolder();
    const vite = await import(pathToFileURL(bundlerRequire.resolve('vite')).href);
    await vite.build({ root: appDir, logLevel: 'silent' });
    server = await serveStatic(join(appDir, 'dist'));
    url = server.url;
  } catch (error) {
    buildError = String(error?.stack ?? error);
    return;
  }
  const options = new firefox.Options().setBinary(process.env.BIBGENIE_FIREFOX).addArguments('-headless');
  const service = new firefox.ServiceBuilder(process.env.BIBGENIE_GECKODRIVER);
  driver = await new Builder().forBrowser('firefox').setFirefoxOptions(options).setFirefoxService(service).build();
  await driver.manage().setTimeouts({ script: PAGE_TIMEOUT_MS, pageLoad: PAGE_TIMEOUT_MS });
  await driver.get(url);
  await driver.wait(async () => driver.executeScript('return globalThis.bibgenieReady === true || globalThis.bibgenieErrors.length > 0'), PAGE_TIMEOUT_MS);
});

after(async () => {
  await driver?.quit();
  await server?.close();
});

/** What the page shows: [{ role, text }] of the message list. */
const shown = () => driver.executeScript(
  'return [...document.querySelectorAll("#messages li")].map((li) => ({ role: li.dataset.role, text: li.querySelector(".text").textContent }))',
);
const status = () => driver.findElement(By.id('status')).getText();
const inputValue = () => driver.executeScript('return document.getElementById("input").value');
/** The store's nodes (every branch) and its active branch, from the page's hook. */
const stored = () => driver.executeAsyncScript('const done = arguments[arguments.length - 1]; globalThis.bibgenieTest.stored().then(done, (e) => done({ error: String(e) }))');
const prompts = () => driver.executeScript('return globalThis.bibgenieTest.prompts');
const answers = () => driver.executeScript('return globalThis.bibgenieTest.answers');
const pageErrors = () => driver.executeScript('return globalThis.bibgenieErrors');

async function waitFor(what, check) {
  let last;
  try {
    await driver.wait(async () => (last = await check()), STEP_TIMEOUT_MS);
  } catch (error) {
    throw new Error(`waiting for ${what}: ${error.message}; status "${await status()}", page ${JSON.stringify(await shown())}, errors ${JSON.stringify(await pageErrors())}`);
  }
  return last;
}
const ready = () => waitFor('status ready', async () => (await status()) === 'ready');

async function type(text) {
  const input = driver.findElement(By.id('input'));
  await input.clear();
  await input.sendKeys(text);
}
async function send(text) {
  await type(text);
  await driver.findElement(By.id('send')).click();
}
/** The page and the store's branch agree (the store's write of an answer may land just after the page's last render); returns the store. */
async function pageIsStoredBranch() {
  let store;
  try {
    await driver.wait(async () => JSON.stringify(await shown()) === JSON.stringify((store = await stored()).branch), 5_000);
  } catch {
    // the assertion below says how they differ
  }
  assert.deepEqual(await shown(), store.branch, 'the page shows the stored branch');
  return store;
}

function requirePage() {
  assert.equal(buildError, undefined, `the page did not build: ${buildError}`);
  assert.ok(driver, 'the page is open');
}

// The steps share one page and build on each other, in order.
test('send: the answer is shown and stored under the question', async () => {
  requirePage();
  assert.deepEqual(await pageErrors(), []);
  assert.equal(await status(), 'ready');
  await send('What do dogs need?');
  await waitFor('the answer', async () => (await shown()).length === 2 && (await status()) === 'ready');
  const [answer] = await answers();
  assert.deepEqual(await shown(), [{ role: 'user', text: 'What do dogs need?' }, { role: 'assistant', text: answer }]);
  const { nodes } = await pageIsStoredBranch();
  assert.deepEqual(nodes.map((n) => n.role), ['user', 'assistant']);
  assert.equal(nodes[1].parentId, nodes[0].id);
  assert.deepEqual((await prompts())[0], [{ role: 'user', text: 'What do dogs need?' }]);
});

test('Stop mid-stream: the page keeps the partial answer, the store holds exactly it once with metadata.aborted, the next send goes under it', async () => {
  requirePage();
  await send('Tell me slowly about protein digestibility.');
  await waitFor('a few words of the slow answer', async () => {
    const last = (await shown()).at(-1);
    return last.role === 'assistant' && /word5\b/.test(last.text);
  });
  await driver.findElement(By.id('stop')).click();
  await ready();
  await driver.sleep(300); // the stream's last reads: nothing may change after Stop
  const page = await shown();
  const partial = page.at(-1);
  const full = (await answers())[1];
  assert.equal(partial.role, 'assistant');
  assert.ok(full.startsWith(partial.text) && partial.text.length < full.length, `a cut answer: ${partial.text}`);
  const { nodes } = await pageIsStoredBranch();
  const aborted = nodes.filter((n) => n.metadata?.aborted === true);
  assert.equal(aborted.length, 1, 'stored once, marked aborted');
  assert.equal(aborted[0].text, partial.text, 'the store holds exactly what the page shows');
  assert.equal(nodes.length, 4);

  await send('And which of them are peer-reviewed?');
  await waitFor('the third answer', async () => (await shown()).length === 6 && (await status()) === 'ready');
  const after = await pageIsStoredBranch();
  const question = after.nodes.find((n) => n.text === 'And which of them are peer-reviewed?');
  assert.equal(question.parentId, aborted[0].id, 'the next question goes under the cut answer');
  assert.equal(after.nodes.filter((n) => n.metadata?.aborted === true).length, 1);
  assert.deepEqual((await prompts()).at(-1), [
    { role: 'user', text: 'What do dogs need?' }, { role: 'assistant', text: (await answers())[0] },
    { role: 'user', text: 'Tell me slowly about protein digestibility.' }, { role: 'assistant', text: partial.text },
    { role: 'user', text: 'And which of them are peer-reviewed?' },
  ], 'the model received the cut answer, one user message per turn');
});

test('edit (sendMessage with messageId): a sibling is stored, the old branch kept, the page is the stored branch', async () => {
  requirePage();
  const before = await stored();
  const old = before.nodes.find((n) => n.text === 'And which of them are peer-reviewed?');
  const oldAnswer = before.nodes.find((n) => n.parentId === old.id);
  const edits = await driver.findElements(By.css('#messages li[data-role="user"] .edit'));
  await edits.at(-1).click();
  assert.equal(await inputValue(), 'And which of them are peer-reviewed?');
  await send('And which of them were published after 2015?');
  await waitFor('the answer to the edit', async () => (await status()) === 'ready' && (await shown()).at(-1).text.includes('after 2015'));
  const after = await pageIsStoredBranch();
  const edited = after.nodes.find((n) => n.text === 'And which of them were published after 2015?');
  assert.ok(edited && edited.id !== old.id, 'the edit is a new node');
  assert.equal(edited.parentId, old.parentId, 'a sibling of the edited question');
  assert.ok(after.nodes.some((n) => n.id === old.id) && after.nodes.some((n) => n.id === oldAnswer.id), 'the old branch is kept');
  assert.equal(after.nodes.length, before.nodes.length + 2);
  assert.deepEqual(after.branch.map((m) => m.role), ['user', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  const prompt = (await prompts()).at(-1);
  assert.equal(prompt.length, 5);
  assert.deepEqual(prompt.at(-1), { role: 'user', text: 'And which of them were published after 2015?' });
});

test('regenerate: a retry, a second answer under the same question', async () => {
  requirePage();
  const before = await stored();
  const calls = (await prompts()).length;
  await driver.findElement(By.id('regenerate')).click();
  await waitFor('the retried answer', async () => (await status()) === 'ready' && (await answers()).length === calls + 1 && (await shown()).at(-1).text === (await answers()).at(-1));
  const after = await pageIsStoredBranch();
  const question = after.nodes.find((n) => n.text === 'And which of them were published after 2015?');
  const responses = after.nodes.filter((n) => n.parentId === question.id);
  assert.equal(responses.length, 2, 'two answers under the question');
  assert.equal(after.nodes.length, before.nodes.length + 1, 'only the retry was added');
  assert.equal(after.branch.at(-1).text, (await answers()).at(-1));
  assert.deepEqual((await prompts()).at(-1), (await prompts()).at(-2), 'the retry sent the same prompt');
});

test('a refused turn (a paste too large for the window): too-large, the page shows the stored branch, the draft is back in the input', async () => {
  requirePage();
  const before = await stored();
  const calls = (await prompts()).length;
  const paste = `Summarize this: ${'lorem ipsum dolor sit amet '.repeat(2000)}`;
  // A paste: the value set at once and the input event React listens to.
  await driver.executeScript(`
    const input = document.getElementById('input');
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(input, arguments[0]);
    input.dispatchEvent(new Event('input', { bubbles: true }));`, paste);
  await driver.findElement(By.id('send')).click();
  await waitFor('the refusal', async () => /^error: too-large/.test(await status()));
  await waitFor('the stored branch on the page', async () => JSON.stringify(await shown()) === JSON.stringify(before.branch));
  await waitFor('the draft in the input', async () => (await inputValue()) === paste);
  const after = await pageIsStoredBranch();
  assert.deepEqual(after.nodes, before.nodes, 'nothing stored');
  assert.equal((await prompts()).length, calls, 'the model was not asked');

  // The user shortens it and sends again: a normal turn.
  await send('Summarize the abstract only.');
  await waitFor('the answer', async () => (await status()) === 'ready' && (await shown()).at(-1).text === (await answers()).at(-1));
  const last = await pageIsStoredBranch();
  assert.equal(last.nodes.length, before.nodes.length + 2);
  assert.deepEqual(await pageErrors(), [], 'no error event or unhandled rejection in the page');
});
