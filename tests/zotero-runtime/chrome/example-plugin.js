// Runs the example plugin (examples/zotero-research-chat) from its .xpi the way Zotero does: its
// bootstrap.js loaded into a plugin scope, startup() with no main window, onMainWindowLoad/Unload
// as real browser windows open and close, shutdown() and a second startup. Loaded with
// loadSubScript next to harness.js (pluginScope, zoteroHttpRequest, setEvalPrefs come from it);
// the chat's models are the AI SDK's mock models (no network) on an 8k window.
/* global ChromeUtils, Services, PathUtils, setTimeout, pluginScope, zoteroHttpRequest, setEvalPrefs */

const SECTIONS = [
  'Research Goal', 'User Requirements and Constraints', 'Research Progress', 'Findings and Evidence',
  'Key Zotero Resources', 'Decisions', 'Next Steps', 'Critical Context',
];
const summaryText = (tag) => SECTIONS.map((s) => `## ${s}\n- (user said) ${tag}: ${s.toLowerCase()}`).join('\n');
const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const tick = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Rejects after `ms` (a hang is a failure, not a stuck test). */
function within(ms, promise, what) {
  return Promise.race([promise, tick(ms).then(() => { throw new Error(`${what}: no answer in ${ms} ms (hang)`); })]);
}

async function openBrowserWindow() {
  const win = Services.ww.openWindow(null, 'chrome://browser/content/browser.xhtml', '_blank', 'chrome,all,dialog=no', null);
  await new Promise((resolve) => win.addEventListener('load', resolve, { once: true }));
  return win;
}

async function closeWindow(win) {
  const closed = new Promise((resolve) => win.addEventListener('unload', resolve, { once: true }));
  win.close();
  await closed;
  for (let i = 0; i < 50 && !win.closed; i++) await tick(20);
}

/**
 * @param {{ runtimeURL: string, workURL: string, dbDir: string, xpiURL: string, mockBundle: string }} config
 */
async function runExamplePlugin(config) {
  const out = { steps: {}, logged: [] };
  const { DBConnection } = ChromeUtils.importESModule(`${config.runtimeURL}chrome/zotero-db-connection.mjs`);
  const resource = Services.io.getProtocolHandler('resource').QueryInterface(Ci.nsIResProtocolHandler);
  // Firefox 153's script loader refuses jar:file: URLs: the .xpi is read through resource://.
  resource.setSubstitution('research-chat-xpi', Services.io.newURI(config.xpiURL));
  let mainWindow = null;
  const prefs = new Map([['extensions.research-chat.apiKey', 'sk-test-never-logged']]);
  const zotero = {
    DBConnection: function ZoteroDBConnection(name, options) {
      return new DBConnection(PathUtils.join(config.dbDir, `${name}.sqlite`), options);
    },
    HTTP: { request: zoteroHttpRequest },
    getMainWindow: () => mainWindow,
    Prefs: { get: (key) => prefs.get(key), set: (key, value) => prefs.set(key, value) },
    PreferencePanes: { register: (pane) => { out.prefPane = String(pane.src).replace(/^.*!\//, ''); } },
    ItemPaneManager: {
      registerSection: (section) => { out.section = section.paneID; return section.paneID; },
      unregisterSection: (id) => { out.unregistered = id; },
    },
    debug: (text) => out.logged.push(String(text)),
    log: (text) => out.logged.push(String(text)),
  };
  const item = { libraryID: 1, key: 'ABCD2345', getField: () => 'Corpus methods in discourse studies', isRegularItem: () => true };
  setEvalPrefs(true);
  let scope;
  const boot = async () => {
    scope = pluginScope('research-chat', zotero);
    scope.Components = Components;
    Services.scriptloader.loadSubScriptWithOptions('resource://research-chat-xpi/bootstrap.js', { target: scope, ignoreCache: true });
    await scope.startup({ id: 'research-chat@bibgenie.example', version: '0.1.0', rootURI: config.xpiURL }, 1);
    // The mock models, loaded like any other plugin code (their streams come from the stand-ins).
    Services.scriptloader.loadSubScriptWithOptions(config.mockBundle, { target: scope, ignoreCache: true });
  };
  const step = async (name, fn) => {
    try {
      out.steps[name] = await fn();
    } catch (error) {
      out.steps[name] = { error: { message: String(error && error.message), code: error && error.code }, stack: String(error && error.stack) };
    }
  };

  // The models: an answer per turn (long enough that the 8k window fills), a summarizer.
  let answerWords = 500;
  let hold = null; // { first, release: Promise, started(): void } makes the next answer wait
  let summaryGate = null; // a promise the next summary waits on (or its abort)
  const summaryCalls = [];
  let chatCalls = 0;
  const finish = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  } };
  const makeModels = () => {
    const Mock = scope.AiSdkMock.MockLanguageModelV4;
    const chatModel = new Mock({
      doStream: async ({ abortSignal }) => {
        chatCalls++;
        const held = hold;
        hold = null;
        const text = `Answer ${chatCalls}: ${words(answerWords, 'finding')}`;
        if (!held) {
          return { stream: scope.AiSdkMock.convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: text }, { type: 'text-end', id: 't' }, finish,
          ]) };
        }
        return { stream: new scope.ReadableStream({
          async start(c) {
            c.enqueue({ type: 'stream-start', warnings: [] });
            c.enqueue({ type: 'text-start', id: 't' });
            c.enqueue({ type: 'text-delta', id: 't', delta: held.first });
            held.started();
            try {
              await new Promise((resolve, reject) => {
                held.release.then(resolve);
                abortSignal?.addEventListener('abort', () => reject(new Error('aborted')));
              });
              c.enqueue({ type: 'text-delta', id: 't', delta: ' and the rest.' });
              c.enqueue({ type: 'text-end', id: 't' });
              c.enqueue(finish);
              c.close();
            } catch (error) {
              c.error(error);
            }
          },
        }) };
      },
    });
    const summaryModel = new Mock({
      doGenerate: async ({ abortSignal }) => {
        summaryCalls.push({ aborted: false });
        const call = summaryCalls[summaryCalls.length - 1];
        if (summaryGate) {
          await new Promise((resolve, reject) => {
            summaryGate.then(resolve);
            abortSignal?.addEventListener('abort', () => { call.aborted = true; reject(new Error('aborted')); });
          });
        }
        return { content: [{ type: 'text', text: summaryText(`s${summaryCalls.length}`) }], finishReason: finish.finishReason, usage: finish.usage, warnings: [] };
      },
    });
    return { chatModel, summaryModel, contextWindow: 8192, modelId: 'mock-8k' };
  };
  const statuses = [];
  const chatIn = async (win) => {
    scope.Zotero.ResearchChat.useModels(makeModels());
    return scope.Zotero.ResearchChat.chatFor(win, item, (state) => statuses.push({ status: state.status, mode: state.mode, cancel: state.cancel }));
  };
  const settle = async (chat) => {
    await tick(10);
    while (chat.controller.busy) await tick(10);
  };
  const stored = async (chat) => chat.store.load(chat.sessionId);
  const snapshot = async (chat) => JSON.stringify(await stored(chat));
  const checkpoints = (session) => session.nodes.filter((n) => 'checkpoint' in n).length;
  const noWindow = {}; // the pane key of a chat opened while no window is open
  const draftOf = (text) => ({ id: 'probe', role: 'user', parts: [{ type: 'text', text }] });
  /** Whether the session plus this draft fits the 8k window now (the controller's own estimate). */
  const fitsNow = (c, text) => c.store.withSessionIndex(c.sessionId, (view) => view.index.estimate({ id: 'mock-8k', contextWindow: 8192 }, { draft: draftOf(text) }).fits);
  /** Normal turns until the draft no longer fits (so sending it compacts first). */
  const fillUntilOverflow = async (c, text) => {
    answerWords = 500;
    for (let i = 0; i < 12 && (await fitsNow(c, text)); i++) {
      await within(60_000, c.send(`Filler ${i}: ${words(30, 'topic')}`), 'filler turn');
      await settle(c);
    }
    return !(await fitsNow(c, text));
  };
  /** Whether `id` is on the session's active branch (an automatic compaction may have put a checkpoint after it). */
  const onBranch = (session, id) => {
    const byId = new Map(session.nodes.map((n) => [n.id, n]));
    for (let at = session.leafId; at; at = byId.get(at)?.parentId) if (at === id) return true;
    return false;
  };
  const textOf = (message) => message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');

  await step('startWithoutWindow', async () => {
    await boot();
    return { started: true, section: out.section, prefPane: out.prefPane, chatAPI: typeof zotero.ResearchChat?.chatFor };
  });
  await step('turnWithoutWindow', async () => {
    const chat = await chatIn(noWindow);
    try {
      await within(20_000, chat.send('Is anyone there?'), 'a turn with no window');
      return { code: null };
    } catch (error) {
      return { code: error.code ?? String(error.message), stored: (await stored(chat)).nodes.length };
    }
  });

  let w1 = await openBrowserWindow();
  mainWindow = w1;
  scope.onMainWindowLoad({ window: w1 });
  let chat;
  await step('turns', async () => {
    chat = await chatIn(w1);
    const answers = [];
    let turns = 0;
    // Turns until the automatic compaction (after a turn) has made a checkpoint.
    while (checkpoints(await stored(chat)) === 0 && turns < 12) {
      const answer = await within(60_000, chat.send(`Question ${++turns}: ${words(40, 'topic')}`), `turn ${turns}`);
      answers.push(answer.id);
      await settle(chat);
    }
    const session = await stored(chat);
    const byId = new Map(session.nodes.map((n) => [n.id, n]));
    return {
      turns,
      checkpoints: checkpoints(session),
      autoCompacted: statuses.some((s) => s.status === 'compacting' && s.mode === 'auto'),
      leafIsLastAnswerOrCheckpoint: session.leafId === answers[answers.length - 1] || 'checkpoint' in byId.get(session.leafId),
      usage: byId.get(answers[0]).metadata?.finishReason,
    };
  });
  await step('preflight', async () => {
    const before = checkpoints(await stored(chat));
    const question = `A long question: ${words(600, 'detail')}`;
    const overflowing = await fillUntilOverflow(chat, question);
    statuses.length = 0;
    answerWords = 60;
    const calls = summaryCalls.length;
    const answer = await within(60_000, chat.send(question), 'preflight turn');
    await settle(chat);
    return {
      overflowing,
      mode: statuses.find((s) => s.status === 'compacting')?.mode,
      newCheckpoints: checkpoints(await stored(chat)) - before,
      summaries: summaryCalls.length - calls,
      answered: textOf(answer).startsWith('Answer'),
    };
  });
  await step('cancelCompaction', async () => {
    const question = `Another long question: ${words(600, 'aspect')}`;
    const overflowing = await fillUntilOverflow(chat, question);
    let releaseSummary;
    summaryGate = new Promise((resolve) => { releaseSummary = resolve; });
    const before = await snapshot(chat);
    const calls = chatCalls;
    statuses.length = 0;
    const sending = chat.send(question);
    for (let i = 0; i < 2000 && !statuses.some((s) => s.status === 'compacting'); i++) await tick(10);
    if (!statuses.some((s) => s.status === 'compacting')) throw new Error('the turn did not compact first');
    statuses.find((s) => s.status === 'compacting').cancel(); // the status line's Cancel button
    let code = null;
    try {
      await within(20_000, sending, 'cancelled turn');
    } catch (error) {
      code = error.code ?? String(error.message);
    }
    releaseSummary();
    summaryGate = null;
    await settle(chat);
    return { overflowing, code, unchanged: (await snapshot(chat)) === before, modelAsked: chatCalls - calls, providerSawAbort: summaryCalls[summaryCalls.length - 1].aborted };
  });
  await step('stopStreaming', async () => {
    let started;
    const streaming = new Promise((resolve) => { started = resolve; });
    hold = { first: 'The first half', release: new Promise(() => {}), started };
    const sending = chat.send('Tell me everything about the corpus.');
    await streaming;
    await tick(20);
    chat.stop(); // the pane's Stop button
    const partial = await within(20_000, sending, 'stopped turn');
    await settle(chat);
    const session = await stored(chat);
    const kept = session.nodes.find((n) => n.id === partial.id);
    return { text: kept && textOf(kept), aborted: kept?.metadata?.aborted, leaf: session.leafId === partial.id };
  });

  let w2 = await openBrowserWindow();
  await step('twoWindows', async () => {
    scope.onMainWindowLoad({ window: w2 });
    const chatB = await chatIn(w2);
    let started;
    let release;
    const streaming = new Promise((resolve) => { started = resolve; });
    hold = { first: 'From window A', release: new Promise((resolve) => { release = resolve; }), started };
    const sendingA = chat.send('Asked in window A');
    await streaming;
    let refused = null;
    try {
      await within(20_000, chatB.send('Asked in window B meanwhile'), 'second window');
    } catch (error) {
      refused = error.code ?? String(error.message);
    }
    release();
    const answerA = await within(20_000, sendingA, 'window A turn');
    await settle(chat);
    const session = await stored(chat);
    return { sameSession: chatB.sessionId === chat.sessionId, refused, leafIsA: session.leafId === answerA.id, bStored: session.nodes.some((n) => n.parts?.some((p) => p.text === 'Asked in window B meanwhile')) };
  });
  await step('windowClosed', async () => {
    scope.onMainWindowUnload({ window: w1 });
    await closeWindow(w1);
    mainWindow = w2;
    const chatB = await chatIn(w2);
    const answer = await within(60_000, chatB.send('Asked after window A closed'), 'turn after a window closed');
    await settle(chatB);
    return { closed: w1.closed, answered: textOf(answer).startsWith('Answer'), onBranch: onBranch(await stored(chatB), answer.id) };
  });
  let w3;
  await step('noWindowThenReopened', async () => {
    scope.onMainWindowUnload({ window: w2 });
    await closeWindow(w2);
    mainWindow = null;
    let code = null;
    try {
      await within(20_000, (await chatIn(noWindow)).send('Nobody home'), 'turn with every window closed');
    } catch (error) {
      code = error.code ?? String(error.message);
    }
    w3 = await openBrowserWindow();
    mainWindow = w3;
    scope.onMainWindowLoad({ window: w3 });
    const chatC = await chatIn(w3);
    const answer = await within(60_000, chatC.send('Asked in a new window'), 'turn in a reopened window');
    await settle(chatC);
    chat = chatC;
    return { code, answered: textOf(answer).startsWith('Answer'), onBranch: onBranch(await stored(chatC), answer.id) };
  });
  await step('restart', async () => {
    const before = await snapshot(chat);
    const session = JSON.parse(before);
    await scope.shutdown();
    const unloaded = typeof zotero.ResearchChat;
    await boot();
    scope.onMainWindowLoad({ window: w3 });
    const again = await chatIn(w3);
    const after = await snapshot(again);
    const answer = await within(60_000, again.send('And after the restart?'), 'turn after restart');
    await settle(again);
    const last = await stored(again);
    const result = {
      unloaded, sameSession: again.sessionId === chat.sessionId, identical: after === before,
      checkpoints: checkpoints(session), nodes: session.nodes.length,
      answerUnderOldLeaf: last.nodes.find((n) => n.role === 'user' && textOf(n) === 'And after the restart?')?.parentId === session.leafId
        && onBranch(last, answer.id),
    };
    await scope.shutdown();
    return result;
  });
  await closeWindow(w3);
  setEvalPrefs(null);
  out.keyLogged = out.logged.some((line) => line.includes('sk-test-never-logged'));
  return JSON.stringify(out);
}
