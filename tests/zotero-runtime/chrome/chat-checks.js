// Plugin code for the chat turn: loaded into the same Zotero-style scope as plugin-checks.js,
// after the IIFE bundle of the slim entry (BibgenieCompaction) and an IIFE bundle of the AI SDK
// with its mock models (AiSdk: streamText, generateText, convertToModelMessages,
// readUIMessageStream, the MockLanguageModel and convertArrayToReadableStream of `ai/test`).
// No network: the models answer from scripted streams. JSON text in and out, as plugin-checks.js.
/* global BibgenieCompaction, AiSdk, Zotero */

var bibgenieChat = (() => {
  const C = BibgenieCompaction;
  const A = AiSdk;
  const MODEL = { id: 'chat-8k', contextWindow: 8192 };
  const SMALL_MODEL = { id: 'chat-1k', contextWindow: 1024 };
  const errorOf = (error) => ({ code: error && error.code, name: error && error.name, message: String(error && error.message) });
  const chatMessage = (id, text) => ({ id, role: 'user', parts: [{ type: 'text', text }] });
  const words = (n, word) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
  const tick = (ms = 5) => new Promise((resolve) => setTimeout(resolve, ms));

  /** U1 A1 ... Un An, as tests/node/runner-fixtures.mjs builds it. */
  function linearSession(turns) {
    const nodes = [];
    let parent = null;
    for (let t = 1; t <= turns; t++) {
      nodes.push({ id: `U${t}`, parentId: parent, role: 'user', parts: [{ type: 'text', text: `question ${t}: ${words(40, 'ask')}` }] });
      nodes.push({ id: `A${t}`, parentId: `U${t}`, role: 'assistant', parts: [{ type: 'text', text: `answer ${t}: ${words(80, 'found')}` }] });
      parent = `A${t}`;
    }
    return { nodes, leafId: parent, branchRevision: 2 * turns };
  }

  /** A streaming mock model answering `text`, with the stream parts of the bundled SDK's version. */
  function answering(sdk, text) {
    return new A[sdk.mock]({
      doStream: async () => ({
        stream: A.convertArrayToReadableStream([
          { type: 'stream-start', warnings: [] },
          { type: 'text-start', id: 't1' },
          { type: 'text-delta', id: 't1', delta: text },
          { type: 'text-end', id: 't1' },
          { type: 'finish', finishReason: sdk.finishReason, usage: sdk.usage },
        ]),
      }),
    });
  }

  /** The texts of a model call's prompt, `role: text`. */
  const promptTexts = (call) =>
    call.prompt.map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('')}`);

  // What toUIMessageStream's onError saw (the error chunk carries only the text).
  const streamErrors = [];

  /**
   * Reads the UI message stream to its last message state, as a chat pane does. An error chunk
   * (how toUIMessageStream reports a throw) is thrown as the error its onError saw.
   */
  async function readAll(stream) {
    const chunks = [];
    const reader = stream.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    const failed = chunks.find((c) => c.type === 'error');
    if (failed) throw streamErrors.shift() ?? new Error(failed.errorText);
    // readUIMessageStream hands a throw to onError and otherwise drops it (a missing global too).
    const errors = [];
    let last;
    const onError = (error) => errors.push(error);
    for await (const message of A.readUIMessageStream({ stream: A.convertArrayToReadableStream(chunks), onError })) last = message;
    if (errors.length) throw errors[0];
    return last;
  }

  /** A session in the store, its controller, and a transport over a mock model answering `text`. */
  async function setup(store, sessionId, { turns = 2, model = MODEL, summarize, text = 'Three more papers.', sdk }) {
    await store.importSession(linearSession(turns), { sessionId: sessionId });
    const statuses = [];
    const controller = new C.CompactionController({ store, sessionId, model, summarize, onStatus: (s) => statuses.push(s) });
    const languageModel = answering(sdk, text);
    let n = 0;
    const transport = new C.CompactionChatTransport({
      controller,
      generateMessageId: () => `${sessionId}-resp-${++n}`,
      onError: (error) => (streamErrors.push(error), String(error && error.message)),
      // The recipe's chat turn: Anthropic cache marks (a low minimum prefix so these short sessions get them).
      promptCache: { provider: 'anthropic', cache: { ...C.cacheProfile('anthropic-5m'), minPrefixTokens: 16 } },
      streamResponse: async ({ messages, abortSignal, applyCacheBreakpoints, cacheCallOptions }) =>
        A.streamText({ model: languageModel, ...cacheCallOptions, messages: applyCacheBreakpoints(await A.convertToModelMessages(messages)), abortSignal }),
    });
    return { controller, transport, languageModel, statuses };
  }

  const send = (transport, messages, abortSignal) =>
    transport.sendMessages({ trigger: 'submit-message', chatId: 'item-pane', messageId: undefined, messages, abortSignal });

  async function idle(controller) {
    for (let i = 0; i < 2000 && controller.busy; i++) await tick(1);
    return !controller.busy;
  }

  /** The embedded summarizer, counting its calls. */
  function countingSummarizer() {
    const calls = [];
    return { calls, summarize: (request) => (calls.push(request), C.extractiveSummary(request)) };
  }

  /** One turn on a fresh session: null, or what went wrong and the package file that threw. */
  async function oneTurn(store, sdk, sessionId) {
    try {
      const { transport, controller } = await setup(store, sessionId, { sdk, summarize: countingSummarizer().summarize });
      const streamed = await readAll(await send(transport, [chatMessage(`${sessionId}-u`, 'Which of them use corpus data?')]));
      await idle(controller);
      const text = streamed && streamed.parts.find((p) => p.type === 'text');
      return text ? null : { message: `no text part in ${JSON.stringify(streamed)}` };
    } catch (error) {
      return { message: String(error && error.message), origin: scriptOf(error) };
    }
  }

  /** The package file whose code threw: the first chrome:// script in the stack. */
  function scriptOf(error) {
    const frame = /chrome:\/\/[^/]+\/content\/([^:]+):/.exec(String(error && error.stack));
    return frame ? frame[1] : null;
  }

  /**
   * Runs a turn in the bare scope; each `X is not defined` the AI SDK throws names a global the
   * plugin must provide: it is copied from Zotero's main window (as a plugin would) and the turn is
   * tried again on a new session. Returns the names in the order they were needed.
   */
  async function provideMissingGlobals(store, sdk) {
    const provided = [];
    const thrownBy = [];
    const win = Zotero.getMainWindow();
    for (let attempt = 0; attempt < 10; attempt++) {
      const failure = await oneTurn(store, sdk, `discover-${attempt}`);
      if (failure === null) return { provided, thrownBy, lastFailure: null };
      const missing = /^(\w+) is not defined$/.exec(failure.message);
      if (!missing || provided.includes(missing[1]) || typeof win[missing[1]] === 'undefined') {
        return { provided, thrownBy, lastFailure: failure.message };
      }
      provided.push(missing[1]);
      thrownBy.push(failure.origin);
      globalThis[missing[1]] = win[missing[1]];
    }
    return { provided, thrownBy, lastFailure: 'too many attempts' };
  }

  async function step(results, name, fn) {
    try {
      results[name] = await fn();
    } catch (error) {
      results[name] = { error: errorOf(error), stack: String(error && error.stack) };
    }
  }

  const userCount = (session) => session.nodes.filter((n) => n.role === 'user' && !n.checkpoint).length;

  /**
   * A turn that must compact first, cancelled while the summarizer's provider hangs. The summarizer
   * is the AI SDK adapter over a mock model that answers only when aborted; the plugin hands in
   * the main window's AbortController (the scope has none).
   * @param {'abortSignal' | 'status'} how
   */
  async function cancelDuringCompaction(store, sdk, sessionId, how) {
    const win = Zotero.getMainWindow();
    let generateCalls = 0;
    let sawAbort = false;
    const never = new A[sdk.mock]({
      doGenerate: ({ abortSignal }) => {
        generateCalls++;
        return new Promise((resolve, reject) => {
          if (!abortSignal) return;
          abortSignal.addEventListener('abort', () => {
            sawAbort = true;
            reject(abortSignal.reason ?? new Error('aborted'));
          });
        });
      },
    });
    const summarize = C.createAiSdkSummarizer({
      model: never, generateText: A.generateText, createAbortController: () => new win.AbortController(),
    });
    const { transport, languageModel, controller, statuses } = await setup(store, sessionId, { sdk, turns: 6, model: SMALL_MODEL, summarize });
    const before = JSON.stringify(await store.load(sessionId));
    const stop = new win.AbortController(); // what useChat's stop() aborts
    const sending = send(transport, [chatMessage(`${sessionId}-u`, 'And the follow-up study?')], stop.signal);
    const settled = sending.then(() => ({ resolved: true }), (error) => ({ error: errorOf(error), result: error.result && error.result.status }));
    for (let i = 0; i < 2000 && !(controller.state.status === 'compacting' && generateCalls > 0); i++) await tick();
    const wasCompacting = controller.state.status === 'compacting';
    if (how === 'abortSignal') stop.abort();
    else statuses.find((s) => s.status === 'compacting').cancel();
    const outcome = await settled;
    for (let i = 0; i < 200 && !sawAbort; i++) await tick();
    await idle(controller);
    return {
      wasCompacting,
      code: outcome.error && outcome.error.code,
      result: outcome.result,
      unchanged: JSON.stringify(await store.load(sessionId)) === before,
      modelStreamed: languageModel.doStreamCalls.length,
      providerSawAbort: sawAbort,
    };
  }

  /**
   * @param {string} inputJson `{ dbName, sdk: { mock, finishReason, usage } }`
   * @param {string} wasmURL for loadCompaction (the loaded instance when the scope has one)
   */
  async function run(inputJson, wasmURL) {
    const input = JSON.parse(inputJson);
    const sdk = input.sdk;
    const r = {};
    await C.loadCompaction({ wasmURL });
    const db = new Zotero.DBConnection(input.dbName);
    const store = new C.ZoteroDBStore(db);
    try {
      r.globals = await provideMissingGlobals(store, sdk);

      await step(r, 'turn', async () => {
        const { transport, controller, languageModel } = await setup(store, 'turn', { sdk, summarize: countingSummarizer().summarize });
        const before = await store.load('turn');
        const streamed = await readAll(await send(transport, [chatMessage('turn-u', 'Which of them use corpus data?')]));
        const settled = await idle(controller);
        const after = await store.load('turn');
        const prompt = promptTexts(languageModel.doStreamCalls[0]);
        return {
          streamed: [streamed.id, streamed.parts.find((p) => p.type === 'text').text],
          added: after.nodes.slice(before.nodes.length).map((n) => [n.id, n.role, n.parentId === before.leafId ? 'leaf' : n.parentId]),
          leaf: after.leafId,
          usage: after.nodes[after.nodes.length - 1].metadata.usage.inputTokens,
          questionInPrompt: prompt.filter((t) => t.includes('Which of them use corpus data?')).length,
          promptLength: prompt.length - before.nodes.length,
          // The recipe's promptCache: the newest message carries Anthropic's mark (no usage baseline yet).
          cacheMarks: languageModel.doStreamCalls[0].prompt.flatMap((m, i) => (m.providerOptions?.anthropic?.cacheControl ? [i] : [])),
          settled,
        };
      });

      await step(r, 'savedFirst', async () => {
        const { transport, languageModel } = await setup(store, 'saved', { sdk, summarize: countingSummarizer().summarize });
        const question = chatMessage('saved-u', 'Saved before sending.');
        await store.appendMessage('saved', question);
        const count = (await store.load('saved')).nodes.length;
        await readAll(await send(transport, [question]));
        const after = await store.load('saved');
        const prompt = promptTexts(languageModel.doStreamCalls[0]);
        return {
          added: after.nodes.length - count,
          storedOnce: after.nodes.filter((n) => n.id === 'saved-u').length,
          inPrompt: prompt.filter((t) => t.includes('Saved before sending.')).length,
        };
      });

      await step(r, 'preflight', async () => {
        const counted = countingSummarizer();
        const { transport, languageModel, statuses, controller } = await setup(store, 'preflight', {
          sdk, turns: 6, model: SMALL_MODEL, summarize: counted.summarize,
        });
        const before = await store.load('preflight');
        await readAll(await send(transport, [chatMessage('preflight-u', 'And the follow-up study?')]));
        await idle(controller);
        const after = await store.load('preflight');
        const compacting = statuses.find((s) => s.status === 'compacting');
        const projection = C.project(after);
        const summaryMessage = projection.messages[0];
        const prompt = promptTexts(languageModel.doStreamCalls[0]);
        const added = after.nodes.slice(before.nodes.length);
        return {
          summarizerCalls: counted.calls.length,
          mode: compacting && compacting.mode,
          folded: !!compacting && compacting.foldedMessages > 0,
          shrinks: !!compacting && compacting.tokensBefore > compacting.tokensAfterEstimate,
          added: added.map((n) => (n.checkpoint ? 'checkpoint' : n.role)),
          summaryFirstInPrompt: prompt[0] === promptTexts({ prompt: [{ role: summaryMessage.role, content: summaryMessage.parts }] })[0],
          promptShorter: prompt.length < before.nodes.length + 1,
          // The summary message carries its checkpoint's id; no message node has its id or its parts.
          summaryNotStored:
            !after.nodes.some((n) => !n.checkpoint && (n.id === summaryMessage.id || JSON.stringify(n.parts) === JSON.stringify(summaryMessage.parts))) &&
            userCount(after) === userCount(before) + 1,
        };
      });

      // Cancelled while the preflight compaction runs: by aborting the request (useChat's stop)
      // and by the compacting status's cancel() (a status line's button).
      for (const [name, how] of [['cancel', 'abortSignal'], ['cancelFromStatus', 'status']]) {
        await step(r, name, () => cancelDuringCompaction(store, sdk, name, how));
      }
    } finally {
      await db.closeDatabase();
    }
    return JSON.stringify(r);
  }

  return { run };
})();
