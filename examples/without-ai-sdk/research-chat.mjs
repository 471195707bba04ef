// A research chat that does not use the AI SDK: its own OpenAI-style messages, its own model calls
// with `fetch` (any OpenAI-compatible endpoint, small local models too), its own numeric item ids,
// its own table in the database the session store shares. bibgenie-compaction keeps the session
// (the tree, the preflight, the checkpoints); `ChatTurn` owns the rules of a turn.
//
// Code to copy: it imports only `bibgenie-compaction`. README "Without the AI SDK" quotes its
// regions; tests/node/without-ai-sdk.test.mjs runs it for 30 turns against a fake endpoint.
import { ChatTurn, CompactionController, ZoteroDBStore, createRecall, history, recallAnswer } from 'bibgenie-compaction';

// #region messages
/**
 * The app's message ({ role, content, tool_calls?, tool_call_id? }, OpenAI's chat format) from the
 * package's message (a UIMessage: parts). A tool part becomes the assistant's tool call plus a
 * `tool` message with its result, so one stored answer may give several app messages.
 */
export function toChatMessages(message) {
  const text = message.parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
  const tools = message.parts.filter((p) => p.type.startsWith('tool-'));
  if (message.role !== 'assistant' || tools.length === 0) return [{ role: message.role, content: text }];
  return [
    {
      role: 'assistant', content: null,
      tool_calls: tools.map((p) => ({ id: p.toolCallId, type: 'function', function: { name: p.type.slice(5), arguments: JSON.stringify(p.input) } })),
    },
    ...tools.map((p) => ({ role: 'tool', tool_call_id: p.toolCallId, content: JSON.stringify(p.output) })),
    ...(text ? [{ role: 'assistant', content: text }] : []),
  ];
}

/**
 * The package's message from the app's messages of one answer: the tool calls and their results
 * become tool parts (so the ledger reads the results), the final text a text part.
 */
export function toUIMessage(id, chatMessages) {
  const results = new Map(chatMessages.filter((m) => m.role === 'tool').map((m) => [m.tool_call_id, JSON.parse(m.content)]));
  const parts = [];
  for (const m of chatMessages) {
    for (const call of m.tool_calls ?? []) {
      parts.push({
        type: `tool-${call.function.name}`, toolCallId: call.id, state: 'output-available',
        input: JSON.parse(call.function.arguments), output: results.get(call.id),
      });
    }
    if (m.role === 'assistant' && typeof m.content === 'string' && m.content) parts.push({ type: 'text', text: m.content });
  }
  const role = chatMessages[0]?.role === 'user' ? 'user' : 'assistant';
  return { id, role, parts };
}
// #endregion messages

export class ResearchChat {
  /**
   * @param {object} options
   * @param {any} options.db a Zotero.DBConnection (the plugin's own database)
   * @param {(url: string, init: object) => Promise<any>} options.fetch
   * @param {string} options.endpoint an OpenAI-compatible base URL, e.g. http://localhost:11434/v1
   * @param {string} options.model @param {number} options.contextWindow
   * @param {(itemID: number) => ({ libraryID: number, key: string } | null)} options.resolveItem e.g. Zotero.Items.get
   * @param {Record<string, (input: any) => Promise<unknown>>} options.tools the app's own tools
   */
  constructor({ db, fetch, endpoint, model, contextWindow, resolveItem, tools }) {
    Object.assign(this, { db, fetch, endpoint, model, contextWindow, resolveItem, tools });
    this.store = new ZoteroDBStore(db, { tablePrefix: 'researchchat_' });
  }

  /** One OpenAI-style chat completion. */
  async complete(messages, { tools } = {}) {
    const response = await this.fetch(`${this.endpoint}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: this.model, messages, ...(tools ? { tools } : {}) }),
    });
    if (!response.ok) throw new Error(`the model answered ${response.status}`);
    const body = await response.json();
    return { message: body.choices[0].message, usage: body.usage };
  }

  // #region open
  /** The chat of one item: the app's row and the session, created together in one transaction. */
  async open(itemID, title) {
    await this.db.queryAsync('CREATE TABLE IF NOT EXISTS chats (itemID INTEGER PRIMARY KEY, sessionId TEXT NOT NULL, title TEXT)');
    const row = await this.db.rowQueryAsync('SELECT sessionId FROM chats WHERE itemID = ?', [itemID]);
    let sessionId = row?.sessionId;
    if (!sessionId) {
      // The app's row and the session commit together, or neither (the store's writes through tx).
      await this.store.withinTransaction(async (tx) => {
        ({ sessionId } = await tx.createSession({ title }));
        await this.db.queryAsync('INSERT INTO chats (itemID, sessionId, title) VALUES (?, ?, ?)', [itemID, sessionId, title]);
      });
    }
    this.controller = new CompactionController({
      store: this.store, sessionId,
      model: this.profile(),
      summarize: (request, signal) => this.summarize(request, signal),
      resolveItem: this.resolveItem, // the ledger then knows items the tools name by numeric id
    });
    // The model reads back what compaction folded: a tool of the app's like the others.
    this.recall = createRecall(this.controller);
    return sessionId;
  }
  // #endregion open

  /** The model's profile; when compaction starts (a share of the window) is the plugin's own setting. */
  profile() {
    return { id: this.model, contextWindow: this.contextWindow, autoCompactRatio: 0.75 };
  }

  /** The user picked another model: the chat shows where (a marker), the model never sees it. */
  async switchModel(model, contextWindow) {
    Object.assign(this, { model, contextWindow });
    this.controller.setModel(this.profile());
    await this.mark('model-switch', `Now answering with ${model}`);
  }

  /** The summary call: the same endpoint, no tools. A small model may answer in prose: it is kept. */
  async summarize(request, signal) {
    if (signal?.aborted) throw new Error('cancelled');
    const { message } = await this.complete([
      { role: 'system', content: request.system },
      { role: 'user', content: request.prompt },
    ]);
    return message.content;
  }

  /** A row the chat shows and the model never receives (display only). */
  async mark(kind, text) {
    const id = `mark_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    await this.store.appendMessage(this.controller.sessionId, { id, role: 'system', parts: [{ type: 'text', text }], displayOnly: { kind } });
  }

  // #region turn
  /** One turn: the question in, the answer out (the app's own format both ways). */
  async ask(question) {
    const run = { ...this.tools, recall: (input) => recallAnswer(this.recall, input) };
    const tools = Object.keys(run).map((name) => ({ type: 'function', function: { name, parameters: { type: 'object' } } }));
    const turn = await ChatTurn.begin(this.controller, question, { tools: Object.fromEntries(tools.map((t) => [t.function.name, t.function])) });
    try {
      const sent = turn.messages.flatMap(toChatMessages);
      const answer = [];
      let usage;
      for (let step = 0; step < 4; step++) {
        // Each request guarded: when it would not fit, the oldest tool outputs go as recall handles.
        const guarded = await turn.guard(toUIMessage('step', answer).parts);
        const steps = guarded.folded.length ? toChatMessages({ role: 'assistant', parts: guarded.parts }) : answer;
        const reply = await this.complete([...sent, ...steps], { tools });
        answer.push(reply.message);
        usage = reply.usage;
        if (!reply.message.tool_calls?.length) break;
        for (const call of reply.message.tool_calls) {
          const tool = run[call.function.name];
          const output = await tool(JSON.parse(call.function.arguments));
          answer.push({ role: 'tool', tool_call_id: call.id, content: JSON.stringify(output) });
        }
      }
      const stored = toUIMessage(`a_${turn.question.id}`, answer);
      await turn.finish({
        id: stored.id, parts: stored.parts,
        usage: { inputTokens: usage?.prompt_tokens ?? null, outputTokens: usage?.completion_tokens ?? null },
      });
      return answer[answer.length - 1].content;
    } catch (error) {
      // A request that cannot fit even so was not sent: what there is is stored, as Stop stores it.
      if (error?.code === 'step-too-large') await turn.stop(toUIMessage('partial', answer));
      else await turn.fail(error); // the question stays stored; asking it again answers it in place
      throw error;
    }
  }
  // #endregion turn

  /** What the chat shows: the stored branch, markers included, in the app's own format. */
  async messages() {
    return history(await this.store.load(this.controller.sessionId)).flatMap((node) =>
      'checkpoint' in node ? [] : node.displayOnly ? [{ role: 'marker', kind: node.displayOnly.kind, content: node.parts[0]?.text }] : toChatMessages(node));
  }
}
