// An app that never installs `ai` (issue 41.1): its own messages and model calls through ChatTurn,
// compiled strictly (skipLibCheck false) in a project with no `ai` in node_modules. The package's
// declarations then use their own shapes of the AI SDK's types.
import { ChatTurn, CompactionController, MemoryStore, history, init } from 'bibgenie-compaction';
import type { MessageNode, TurnResponse } from 'bibgenie-compaction';

type AppMessage = { role: 'system' | 'user' | 'assistant'; content: string };

const toApp = (node: MessageNode): AppMessage => ({
  role: node.role,
  content: node.parts.map((part) => (part.type === 'text' && typeof part['text'] === 'string' ? part['text'] : '')).join(''),
});

export async function ask(callModel: (messages: AppMessage[]) => Promise<{ text: string; prompt_tokens: number }>): Promise<string> {
  await init();
  const store = new MemoryStore();
  const { sessionId } = await store.createSession({});
  const controller = new CompactionController({ store, sessionId, model: { contextWindow: 8192 }, summarize: async (request) => request.prompt });
  const turn = await ChatTurn.begin(controller, 'What does the survey report?', { system: 'You are a research assistant.' });
  try {
    const reply = await callModel(turn.messages.map((message) => toApp({ ...message, parentId: null })));
    const response: TurnResponse = { text: reply.text, usage: { inputTokens: reply.prompt_tokens, outputTokens: null } };
    await turn.finish(response);
  } catch (error) {
    await turn.fail(error);
    throw error;
  }
  const shown = history(await store.load(sessionId));
  // @ts-expect-error a message role the package does not know
  const wrong: MessageNode['role'] = 'robot';
  void wrong;
  return shown.map((node) => ('checkpoint' in node ? '' : toApp(node).content)).join('\n');
}
