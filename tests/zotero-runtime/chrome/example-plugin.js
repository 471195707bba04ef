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

/** How a send ended within `ms`: `{ value }`, `{ error, code }` or `{ hang: true }`. */
async function outcomeOf(promise, ms) {
  let timer;
  const hang = new Promise((resolve) => { timer = setTimeout(() => resolve({ hang: true }), ms); });
  try {
    return await Promise.race([promise.then((value) => ({ value }), (error) => ({ error: String(error && error.message), code: error && error.code })), hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `check` (sync or async) every 20 ms until it is truthy or `ms` passed; its last value. */
async function until(check, ms = 5000) {
  const end = Date.now() + ms;
  let value = await check();
  while (!value && Date.now() < end) {
    await tick(20);
    value = await check();
  }
  return value;
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
  const live = { connections: 0, sections: 0 }; // what a startup left open
  const itemsById = new Map(); // Zotero.Items.get
  const ftCache = new Map(); // attachment id -> its .zotero-ft-cache text
  const zotero = {
    DBConnection: function ZoteroDBConnection(name, options) {
      const connection = new DBConnection(PathUtils.join(config.dbDir, `${name}.sqlite`), options);
      live.connections++;
      const close = connection.closeDatabase.bind(connection);
      connection.closeDatabase = async (...args) => {
        live.connections--;
        return close(...args);
      };
      return connection;
    },
    HTTP: { request: zoteroHttpRequest },
    getMainWindow: () => mainWindow,
    Prefs: { get: (key) => prefs.get(key), set: (key, value) => prefs.set(key, value) },
    PreferencePanes: { register: (pane) => { out.prefPane = String(pane.src).replace(/^.*!\//, ''); } },
    ItemPaneManager: {
      registerSection: (section) => { out.section = section.paneID; live.sections++; live.registered = section; return section.paneID; },
      unregisterSection: (id) => { out.unregistered = id; live.sections--; },
    },
    // The item API the example reads an item through (item-context.js), a double the test fills.
    Items: { get: (id) => itemsById.get(id) ?? false },
    Fulltext: { getItemCacheFile: (attachment) => ({ id: attachment.id, path: `storage/${attachment.key}/.zotero-ft-cache`, exists: () => ftCache.has(attachment.id) }) },
    File: { getContentsAsync: async (file) => ftCache.get(file.id) },
    Utilities: { unescapeHTML: (text) => String(text).replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&') },
    debug: (text) => out.logged.push(String(text)),
    log: (text) => out.logged.push(String(text)),
  };
  const item = { libraryID: 1, key: 'ABCD2345', getField: () => 'Corpus methods in discourse studies', isRegularItem: () => true };
  setEvalPrefs(true);
  let scope;
  /** A fresh plugin scope and its bootstrap's startup (not awaited). */
  const startBoot = () => {
    scope = pluginScope('research-chat', zotero);
    scope.Components = Components;
    Services.scriptloader.loadSubScriptWithOptions('resource://research-chat-xpi/bootstrap.js', { target: scope, ignoreCache: true });
    return scope.startup({ id: 'research-chat@bibgenie.example', version: '0.1.0', rootURI: config.xpiURL }, 1);
  };
  const boot = async () => {
    await startBoot();
    // The mock models, loaded like any other plugin code (their streams come from the stand-ins).
    Services.scriptloader.loadSubScriptWithOptions(config.mockBundle, { target: scope, ignoreCache: true });
  };
  // A step that hangs fails alone (90 s), and the scenario goes on to report the others.
  const step = async (name, fn) => {
    try {
      out.steps[name] = await within(90_000, fn(), `step ${name}`);
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
  let chatAborts = 0; // held answers whose request saw its abort signal
  let failNext = null; // 'throw' (a 429 before any token) or 'midstream' (an error after a first part)
  const prompts = []; // what the chat model received, per call
  const consoleErrors = [];
  const consoleListener = {
    observe(message) {
      try {
        const error = message.QueryInterface(Ci.nsIScriptError);
        // Firefox's own files report their own faults (a session-store or profile hiccup under load):
        // what counts is what the plugin, the package or this harness left, named with its source.
        const source = String(error.sourceName || '');
        if (/^(resource:\/\/gre\/|resource:\/\/\/|chrome:\/\/(global|browser|mozapps)\/)/.test(source)) return;
        if (!(error.flags & Ci.nsIScriptError.warningFlag)) consoleErrors.push(`${String(error.errorMessage)}${source ? ` (${source}:${error.lineNumber})` : ''}`);
      } catch {
        // a plain console message
      }
    },
  };
  Services.console.registerListener(consoleListener);
  const finish = { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: {
    inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: undefined, text: undefined, reasoning: undefined },
  } };
  const makeModels = () => {
    const Mock = scope.AiSdkMock.MockLanguageModelV4;
    const chatModel = new Mock({
      doStream: async ({ abortSignal, prompt }) => {
        chatCalls++;
        prompts.push(JSON.stringify(prompt));
        const held = hold;
        hold = null;
        const text = `Answer ${chatCalls}: ${words(answerWords, 'finding')}`;
        const failing = failNext;
        failNext = null;
        if (failing === 'throw') throw Object.assign(new Error('Too Many Requests (429)'), { statusCode: 429 });
        if (failing === 'midstream') {
          return { stream: scope.AiSdkMock.convertArrayToReadableStream([
            { type: 'stream-start', warnings: [] }, { type: 'text-start', id: 't' },
            { type: 'text-delta', id: 't', delta: 'A first half that' }, { type: 'error', error: new Error('the connection dropped') },
          ]) };
        }
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
                abortSignal?.addEventListener('abort', () => { chatAborts++; reject(new Error('aborted')); });
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
 const chatIn = async (win, about = item) => {
    scope.Zotero.ResearchChat.useModels(makeModels());
    return scope.Zotero.ResearchChat.chatFor(win, about, (state) => statuses.push({ status: state.status, mode: state.mode, cancel: state.cancel }));
  };
  const settle = async (chat) => {
    await tick(10);
    for (let i = 0; i < 3000 && chat.controller.busy; i++) await tick(10);
  };
  const stored = async (chat) => chat.store.load(chat.sessionId);
  const snapshot = async (chat) => JSON.stringify(await stored(chat));
  const checkpoints = (session) => session.nodes.filter((n) => 'checkpoint' in n).length;
  const noWindow = {}; // the pane key of a chat opened while no window is open
  const draftOf = (text) => ({ id: 'probe', role: 'user', parts: [{ type: 'text', text }] });
  /** Whether the session plus this draft fits the 8k window now (the controller's own estimate). */
  const fitsNow = (c, text) => c.store.withSessionIndex(c.sessionId, (view) => view.estimate({ id: 'mock-8k', contextWindow: 8192 }, { draft: draftOf(text) }).fits);
  /** Normal turns until the draft no longer fits (so sending it compacts first). */
  const estimateNow = (c) => c.store.withSessionIndex(c.sessionId, (view) => view.estimate({ id: 'mock-8k', contextWindow: 8192 }));
  /**
   * A question that does not fit now but fits once the history is folded (so sending it compacts
   * first): filler turns until the projection holds 75 % of the safe limit (after-turn compactions
   * keep it below the threshold), then the question grown until it no longer fits. Built from the
   * session's own estimate, whatever the checkpoint and its registers take.
   */
  const overflowingQuestion = async (c, lead, tag) => {
    answerWords = 500;
    for (let i = 0; i < 12; i++) {
      const { tokens, safeInputLimit } = await estimateNow(c);
      if (tokens >= safeInputLimit * 0.75) break;
      await within(60_000, c.send(`Filler ${i}: ${words(30, 'topic')}`), 'filler turn');
      await settle(c);
    }
    let n = 100;
    while (n < 6000 && (await fitsNow(c, `${lead} ${words(n, tag)}`))) n += 50;
    const question = `${lead} ${words(n, tag)}`;
    return { question, overflowing: !(await fitsNow(c, question)) };
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
    const { question, overflowing } = await overflowingQuestion(chat, 'A long question:', 'detail');
    const before = checkpoints(await stored(chat)); // the filler turns' own after-turn compactions aside
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
    const { question, overflowing } = await overflowingQuestion(chat, 'Another long question:', 'aspect');
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
  try {
    await whatUsersDo();
    out.steps.whatUsersDo = {};
  } catch (error) {
    out.steps.whatUsersDo = { error: { message: String(error && error.message) }, stack: String(error && error.stack) };
  }
  // Issue 33: what users do while a turn is in flight, each on the example's .xpi.
  async function whatUsersDo() {
    const errorsSince = (from) => consoleErrors.slice(from).filter((e) => /no-main-window|no main window|has been closed|dead object|is not defined|turn-in-flight|[Uu]nhandled|uncaught/.test(e));
    const holdAnswer = (first) => {
      let started;
      let release;
      const streaming = new Promise((resolve) => { started = resolve; });
      hold = { first, release: new Promise((resolve) => { release = resolve; }), started };
      return { streaming, release: () => release() };
    };
    const assistantStarting = (session, text) => session.nodes.find((n) => n.role === 'assistant' && textOf(n).startsWith(text));
    const usersSaying = (session, text) => session.nodes.filter((n) => n.role === 'user' && textOf(n) === text);
    // Each scenario on an item of its own: one that fails leaves no turn in flight for the next.
    const itemNamed = (key) => ({ libraryID: 1, key, getField: () => `The item ${key}`, isRegularItem: () => true });
    const started = (held) => within(10_000, held.streaming, 'the held answer starting');
    await boot();
    mainWindow = w3;
    scope.onMainWindowLoad({ window: w3 });
    let w4 = await openBrowserWindow();
    scope.onMainWindowLoad({ window: w4 });

    await step('closedMidStreamTwoWindows', async () => {
      mainWindow = w3; // the streaming window is the main one: the turn's streams are its
      const chatA = await chatIn(w3, itemNamed('CLOSEAA2'));
      const held = holdAnswer('Streaming in the window that closes');
      const aborts = chatAborts;
      const errors = consoleErrors.length;
      const sending = chatA.send('Asked in the window about to close');
      await started(held);
      await tick(20);
      scope.onMainWindowUnload({ window: w3 });
      await closeWindow(w3);
      mainWindow = w4;
      const sent = await outcomeOf(sending, 5000);
      const chatB = await chatIn(w4, itemNamed('CLOSEAA2'));
      const next = await outcomeOf(chatB.send('Asked in the window left open'), 20_000);
      await settle(chatB);
      const session = await stored(chatB);
      const partial = assistantStarting(session, 'Streaming in the window that closes');
      return {
        sendSettled: !sent.hang, requestAborted: chatAborts > aborts, partialStored: Boolean(partial), aborted: partial?.metadata?.aborted === true,
        otherWindow: next.value ? (textOf(next.value).startsWith('Answer') ? 'answered' : 'other') : (next.code ?? next.error ?? 'hang'),
        uncaught: errorsSince(errors),
      };
    });
    let w5 = null;
    await step('closedMidStreamLastWindow', async () => {
      mainWindow = w4;
      const chatA = await chatIn(w4, itemNamed('CLOSEBB2'));
      const held = holdAnswer('Streaming in the last window');
      const aborts = chatAborts;
      const errors = consoleErrors.length;
      const sending = chatA.send('Asked in the last window');
      await started(held);
      await tick(20);
      scope.onMainWindowUnload({ window: w4 });
      await closeWindow(w4);
      mainWindow = null;
      const sent = await outcomeOf(sending, 5000);
      await tick(200); // what the SDK's stream code does after the window is gone
      const uncaught = errorsSince(errors);
      w5 = await openBrowserWindow();
      mainWindow = w5;
      scope.onMainWindowLoad({ window: w5 });
      const chatC = await chatIn(w5, itemNamed('CLOSEBB2'));
      const next = await outcomeOf(chatC.send('Asked in a window opened afterwards'), 20_000);
      await settle(chatC);
      const partial = assistantStarting(await stored(chatC), 'Streaming in the last window');
      return {
        sendSettled: !sent.hang, requestAborted: chatAborts > aborts, partialStored: Boolean(partial), aborted: partial?.metadata?.aborted === true,
        nextSend: next.value ? (textOf(next.value).startsWith('Answer') ? 'answered' : 'other') : (next.code ?? next.error ?? 'hang'),
        uncaught,
      };
    });
    if (!w5) { // the step above failed before opening it
      w5 = await openBrowserWindow();
      mainWindow = w5;
      scope.onMainWindowLoad({ window: w5 });
    }
    await step('failedSends', async () => {
      const chat5 = await chatIn(w5, itemNamed('FAILED22'));
      const result = {};
      // A 429 before any token, then the same question again.
      const question = 'Which corpora did we compare?';
      failNext = 'throw';
      const failed = await outcomeOf(chat5.send(question), 20_000);
      result.first = failed.code ?? (failed.error ? 'error' : failed.hang ? 'hang' : 'answered');
      const resent = await outcomeOf(chat5.send(question), 20_000);
      await settle(chat5);
      let session = await stored(chat5);
      let asked = usersSaying(session, question);
      result.stored429 = asked.length;
      result.answeredInPlace = Boolean(resent.value) && session.nodes.find((n) => n.id === resent.value.id)?.parentId === asked[0]?.id;
      result.sentOnce429 = (prompts[prompts.length - 1].split(question).length - 1) === 1;
      // An error in the middle of the answer, then the same question again.
      const second = 'And how large were they?';
      failNext = 'midstream';
      const cut = await outcomeOf(chat5.send(second), 20_000);
      result.cut = cut.value ? 'resolved' : (cut.code ?? (cut.hang ? 'hang' : 'error'));
      const again = await outcomeOf(chat5.send(second), 20_000);
      await settle(chat5);
      session = await stored(chat5);
      asked = usersSaying(session, second);
      result.storedMidstream = asked.length;
      result.answeredInPlaceMidstream = Boolean(again.value) && session.nodes.find((n) => n.id === again.value.id)?.parentId === asked[0]?.id;
      result.cutKept = assistantStarting(session, 'A first half that')?.metadata?.finishReason;
      // A question a crash left unanswered, then another one: the model gets both, in a row.
      await chat5.store.appendMessage(chat5.sessionId, { id: 'u_left_by_crash', role: 'user', parts: [{ type: 'text', text: 'Left unanswered by a crash' }] });
      const after = await outcomeOf(chat5.send('A new question after the crash'), 20_000);
      await settle(chat5);
      const prompt = prompts[prompts.length - 1];
      result.afterCrash = Boolean(after.value) && prompt.includes('Left unanswered by a crash') && prompt.includes('A new question after the crash');
      return result;
    });
    await step('missingKey', async () => {
      // A user who has not pasted a key yet: the plugin started with the prefs' models.
      await within(20_000, scope.shutdown(), 'shutdown');
      prefs.set('extensions.research-chat.apiKey', '');
      await boot();
      scope.onMainWindowLoad({ window: w5 });
      const itemK = { libraryID: 1, key: 'KEYLESS2', getField: () => 'An item chatted about without a key', isRegularItem: () => true };
      let outcome;
      let nodes = null;
      const started = Date.now();
      try {
        const chatK = await scope.Zotero.ResearchChat.chatFor(w5, itemK);
        outcome = await outcomeOf(chatK.send('Hello?'), 20_000);
        nodes = (await stored(chatK)).nodes.length;
      } catch (error) {
        outcome = { error: String(error.message), code: error.code };
      } finally {
        prefs.set('extensions.research-chat.apiKey', 'sk-test-never-logged');
      }
      return {
        code: outcome.code ?? outcome.error ?? 'answered', saysWhere: /Settings.*Research chat/.test(outcome.error ?? ''),
        atOnce: Date.now() - started < 1000, stored: nodes,
      };
    });
    await step('pane', async () => {
      const section = live.registered;
      const doc = w5.document;
      const body = doc.createXULElement('vbox');
      body.append(w5.MozXULElement.parseXULToFragment(section.bodyXHTML));
      doc.documentElement.append(body);
      const $ = (selector) => body.querySelector(selector);
      const itemA = { libraryID: 1, key: 'PANEAAA2', getField: () => 'Item A of the pane', isRegularItem: () => true };
      const itemB = { libraryID: 1, key: 'PANEBBB2', getField: () => 'Item B of the pane', isRegularItem: () => true };
      scope.Zotero.ResearchChat.useModels(makeModels());
      const chatOf = (it) => scope.Zotero.ResearchChat.chatFor(w5, it);
      const render = async (it) => {
        const before = (await chatOf(it)).view;
        section.onRender({ body, item: it });
        await until(async () => (await chatOf(it)).view !== before, 3000);
        await tick(50);
      };
      const result = {};
      // Item switch while A's answer streams.
      await render(itemA);
      const held = holdAnswer('The answer about item A');
      $('.research-chat-input').value = 'A question about item A';
      $('.research-chat-send').click();
      await started(held);
      await tick(50);
      await render(itemB);
      held.release();
      const chatA = await chatOf(itemA);
      await until(async () => assistantStarting(await stored(chatA), 'The answer about item A'), 5000);
      await settle(chatA);
      await tick(100);
      result.aInBsPane = $('.research-chat-log').textContent.includes('The answer about item A');
      await render(itemA);
      result.aInAsPane = $('.research-chat-log').textContent.includes('The answer about item A and the rest.');
      // A failed send: stored, not answered, with a Retry that answers it in place.
      failNext = 'throw';
      $('.research-chat-input').value = 'A question the provider refuses';
      $('.research-chat-send').click();
      await until(() => $('.research-chat-status').textContent !== '', 10_000);
      result.status = $('.research-chat-status').textContent.replace(/:.*/s, '');
      result.note = $('.research-chat-unanswered')?.textContent.trim() ?? null;
      result.inputAfterFailure = $('.research-chat-input').value;
      $('.research-chat-retry')?.click();
      await until(async () => !$('.research-chat-unanswered') && textOf((await stored(chatA)).nodes.at(-1)).startsWith('Answer'), 10_000);
      await settle(chatA);
      result.retried = $('.research-chat-log').textContent.includes('A question the provider refuses') && !$('.research-chat-unanswered');
      result.storedOnce = usersSaying(await stored(chatA), 'A question the provider refuses').length;
      // A draft refused before it is stored (a paste too large for the window) leaves the log.
      const paste = `A pasted chapter: ${words(20_000, 'paste')}`;
      $('.research-chat-input').value = paste;
      $('.research-chat-send').click();
      await until(() => $('.research-chat-status').textContent !== '', 10_000);
      await tick(50);
      result.refused = {
        status: $('.research-chat-status').textContent.replace(/:.*/s, ''),
        inLog: $('.research-chat-log').textContent.includes('A pasted chapter'),
        backInBox: $('.research-chat-input').value === paste,
      };
      body.remove();
      return result;
    });
    await step('itemInRequest', async () => {
      const fields = { title: 'Sampling frames in corpus linguistics', date: '2021', publicationTitle: 'Discourse Studies', DOI: '10.1000/dis.42' };
      const itemI = {
        id: 9000, libraryID: 1, key: 'ITEMCTX2', itemType: 'journalArticle', isRegularItem: () => true,
        getField: (field) => fields[field] ?? '', getCreators: () => [{ firstName: 'Ana', lastName: 'Ruiz', creatorType: 'author' }],
        getTags: () => [{ tag: 'corpora' }], getNotes: () => [9001], getAttachments: () => [9003, 9002],
      };
      itemsById.set(9001, { id: 9001, key: 'NOTE0001', getNote: () => '<p>My reading note: the &amp; sampling frame is <b>biased</b>.</p>' });
      itemsById.set(9002, { id: 9002, key: 'PDFATT22', attachmentContentType: 'application/pdf', getField: () => 'Full Text PDF' });
      itemsById.set(9003, { id: 9003, key: 'SNAPSHO2', attachmentContentType: 'text/html', getField: () => 'Snapshot', get attachmentText() { return Promise.resolve('Snapshot text of the web page.'); } });
      ftCache.set(9002, `The PDF's opening sentence. ${words(30_000, 'pdfword')}`); // far more than the budget
      const chatI = await chatIn(w5, itemI);
      const calls = prompts.length;
      const answer = await within(20_000, chatI.send('What is this item about?'), 'a turn about the item');
      await settle(chatI);
      const prompt = prompts[calls];
      const system = JSON.parse(prompt).find((m) => m.role === 'system')?.content ?? '';
      return {
        answered: textOf(answer).startsWith('Answer'),
        title: system.includes('Sampling frames in corpus linguistics'), key: system.includes('ITEMCTX2'), creator: system.includes('Ruiz, Ana'),
        note: system.includes('the & sampling frame is biased.'), snapshot: system.includes('Snapshot text of the web page.'),
        pdf: system.includes("The PDF's opening sentence."), cut: /\[… cut: \d+ of \d+ characters\]/.test(system),
        withinBudget: system.length < 8192 * 0.25 * 3 + 1000, // the share of the 8k window, plus the instructions
        notStored: !JSON.stringify(await stored(chatI)).includes('pdfword'),
      };
    });
    await step('shutdownMidStream', async () => {
      const chat5 = await chatIn(w5, itemNamed('SHUTDOW2'));
      const held = holdAnswer('Streaming while the plugin is disabled');
      const aborts = chatAborts;
      const errors = consoleErrors.length;
      let sendEnded = false;
      const sending = chat5.send('Asked just before the disable');
      void sending.then(() => { sendEnded = true; }, () => { sendEnded = true; });
      await started(held);
      await tick(20);
      await within(10_000, scope.shutdown(), 'shutdown');
      const awaited = sendEnded;
      await tick(200);
      const uncaught = errorsSince(errors);
      await boot();
      scope.onMainWindowLoad({ window: w5 });
      const again = await chatIn(w5, itemNamed('SHUTDOW2'));
      const partial = assistantStarting(await stored(again), 'Streaming while the plugin is disabled');
      await scope.shutdown();
      return { requestAborted: chatAborts > aborts, sendAwaited: awaited, partialStored: Boolean(partial), aborted: partial?.metadata?.aborted === true, uncaught };
    });
    /** The plugin's item pane section in `win`, rendered for the item `key` (its chat's view shown). */
    const paneShowing = async (win, key) => {
      const section = live.registered;
      const body = win.document.createXULElement('vbox');
      body.append(win.MozXULElement.parseXULToFragment(section.bodyXHTML));
      win.document.documentElement.append(body);
      const item = itemNamed(key);
      const chat = await scope.Zotero.ResearchChat.chatFor(win, item);
      const before = chat.view;
      section.onRender({ body, item });
      await until(() => chat.view !== before, 3000);
      await tick(50);
      return { section, body };
    };
    // Issue 43.3: the same through the item pane (its Send button), and a render Zotero started just
    // before the section went: every console error after the disable counts, whatever it says.
    await step('paneShutdownMidStream', async () => {
      await boot();
      scope.onMainWindowLoad({ window: w5 });
      scope.Zotero.ResearchChat.useModels(makeModels());
      const { section, body } = await paneShowing(w5, 'PANESHU2');
      const $ = (selector) => body.querySelector(selector);
      const held = holdAnswer('Streaming in the pane while the plugin is disabled');
      $('.research-chat-input').value = 'Asked in the pane just before the disable';
      $('.research-chat-send').click();
      await started(held);
      await tick(20);
      const errors = consoleErrors.length;
      const shutdown = scope.shutdown();
      section.onRender({ body, item: itemNamed('PANESHU3') }); // Zotero rendering the pane while the plugin goes
      await within(10_000, shutdown, 'shutdown');
      await tick(300);
      const uncaught = consoleErrors.slice(errors);
      body.remove();
      return { uncaught };
    });
    // Issue 43.3: the last window closes while an answer streams into its item pane (Send clicked there).
    await step('paneLastWindowClosed', async () => {
      await boot();
      const w6 = await openBrowserWindow();
      mainWindow = w6;
      scope.onMainWindowLoad({ window: w6 });
      scope.Zotero.ResearchChat.useModels(makeModels());
      const { body } = await paneShowing(w6, 'PANELAS2');
      const held = holdAnswer('Streaming in the pane of the last window');
      body.querySelector('.research-chat-input').value = 'Asked in the pane of the last window';
      body.querySelector('.research-chat-send').click();
      await started(held);
      await tick(20);
      const errors = consoleErrors.length;
      // As in Zotero: by the time the unload hook runs, getMainWindow() no longer returns the window,
      // so what the turn's end asks of the globals finds none.
      mainWindow = null;
      scope.onMainWindowUnload({ window: w6 });
      await closeWindow(w6);
      await tick(500); // what the SDK's stream code and the pane do after the window is gone
      const uncaught = consoleErrors.slice(errors);
      mainWindow = w5;
      await within(10_000, scope.shutdown(), 'shutdown');
      return { uncaught };
    });
    await step('disableDuringStartup', async () => {
      const before = { connections: live.connections, sections: live.sections };
      const starting = startBoot();
      await tick(0); // loading the wasm
      const stopping = scope.shutdown();
      const settledBoth = await Promise.allSettled([starting, stopping]);
      await tick(100);
      const left = { chatAPI: typeof zotero.ResearchChat, connections: live.connections - before.connections, sections: live.sections - before.sections };
      // An update: disabled while starting, then enabled again: one instance.
      const again = startBoot();
      await tick(0);
      await scope.shutdown();
      await Promise.allSettled([again]);
      await boot();
      const one = { chatAPI: typeof zotero.ResearchChat, connections: live.connections - before.connections, sections: live.sections - before.sections };
      await scope.shutdown();
      return { left, afterUpdate: one, shutdownResolved: settledBoth[1].status };
    });
    await step('windowGoneNoHook', async () => {
      // An app that never stops its chats on onMainWindowUnload: the transport's own watch of the
      // turn's window is all there is.
      await boot();
      scope.onMainWindowLoad({ window: w5 });
      const w6 = await openBrowserWindow();
      scope.onMainWindowLoad({ window: w6 });
      mainWindow = w6;
      const chatF = await chatIn(w6, itemNamed('FORGOT22'));
      const held = holdAnswer('Streaming while nobody is told');
      const aborts = chatAborts;
      const errors = consoleErrors.length;
      const sending = chatF.send('Asked before the window went away');
      await started(held);
      await tick(20);
      await closeWindow(w6); // no onMainWindowUnload call
      mainWindow = w5;
      const sent = await outcomeOf(sending, 5000);
      await tick(200);
      const next = await outcomeOf((await chatIn(w5, itemNamed('FORGOT22'))).send('And from the window left open?'), 20_000);
      const session = await stored(await chatIn(w5, itemNamed('FORGOT22')));
      const partial = assistantStarting(session, 'Streaming while nobody is told');
      await scope.shutdown();
      return {
        sendSettled: !sent.hang, requestAborted: chatAborts > aborts, partialStored: Boolean(partial), aborted: partial?.metadata?.aborted === true,
        nextSend: next.value ? (textOf(next.value).startsWith('Answer') ? 'answered' : 'other') : (next.code ?? next.error ?? 'hang'),
        uncaught: errorsSince(errors),
      };
    });
    await closeWindow(w5);
    if (!w3.closed) await closeWindow(w3);
    if (!w4.closed) await closeWindow(w4);
  }
  Services.console.unregisterListener(consoleListener);
  setEvalPrefs(null);
  out.keyLogged = out.logged.some((line) => line.includes('sk-test-never-logged'));
  return JSON.stringify(out);
}
