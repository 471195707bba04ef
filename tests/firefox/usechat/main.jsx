// The page around the chat: the package loaded with init(), a MemoryStore session, createChat with a
// streaming mock model of ai/test (its chunks spaced, so Stop lands mid-answer), and a hook on
// `window` for tests/firefox/usechat.test.mjs: what the store holds and what the model received.
import { createRoot } from 'react-dom/client';
import { init, MemoryStore, createChat, extractiveSummary } from 'bibgenie-compaction';
import { streamText, convertToModelMessages, simulateReadableStream } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { Chat } from './App.jsx';

const contentText = (content) => (typeof content === 'string' ? content : content.filter((p) => p.type === 'text').map((p) => p.text).join(''));
const usage = { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 20, text: 20, reasoning: undefined } };

/** Every prompt the model received, as [{ role, text }] without the system message. */
const prompts = [];
/** The full answer of each call, to tell a cut answer from a whole one. */
const answers = [];

// Answer n to "question": a few words, or 60 spaced 80 ms apart when the question says "slowly".
const languageModel = new MockLanguageModelV4({
  doStream: async ({ prompt }) => {
    const turn = prompt.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, text: contentText(m.content) }));
    prompts.push(turn);
    const question = turn.at(-1).text;
    const slow = /slowly/i.test(question);
    const words = [`Answer ${prompts.length} to "${question}":`, ...Array.from({ length: slow ? 60 : 5 }, (_, i) => `word${i + 1}`)];
    answers.push(words.join(' '));
    const chunks = [
      { type: 'stream-start', warnings: [] },
      { type: 'text-start', id: 't1' },
      ...words.map((word, i) => ({ type: 'text-delta', id: 't1', delta: i ? ` ${word}` : word })),
      { type: 'text-end', id: 't1' },
      { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
    ];
    return { stream: simulateReadableStream({ chunks, initialDelayInMs: 20, chunkDelayInMs: slow ? 80 : 5 }) };
  },
});

async function start() {
  await init();
  const store = new MemoryStore();
  const { sessionId } = await store.createSession({ title: 'useChat page' });
  const { transport } = createChat({
    store, sessionId,
    model: { id: 'mock-4k', contextWindow: 4096, maxOutputTokens: 512 },
    summarize: async (request) => extractiveSummary(request),
    system: 'You are a research assistant.',
    streamResponse: async ({ messages, abortSignal, system }) =>
      streamText({ model: languageModel, system, abortSignal, messages: await convertToModelMessages(messages) }),
  });
  globalThis.bibgenieTest = {
    prompts,
    answers,
    /** What the store holds: every node (all branches) and the active branch as useChat would hold it. */
    async stored() {
      const nodes = (await store.load(sessionId)).nodes.map((node) => ({
        id: node.id, parentId: node.parentId ?? null, role: node.role ?? 'checkpoint',
        text: node.parts ? contentText(node.parts) : '', metadata: node.metadata ?? null,
      }));
      const branch = (await transport.storedMessages()).map((m) => ({ role: m.role, text: contentText(m.parts) }));
      return { nodes, branch };
    },
  };
  createRoot(document.getElementById('root')).render(<Chat transport={transport} stored={await transport.storedMessages()} />);
  globalThis.bibgenieReady = true;
}

start().catch((error) => globalThis.bibgenieErrors.push(`start: ${error?.stack ?? error}`));
