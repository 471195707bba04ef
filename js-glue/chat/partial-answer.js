// The answer as the app has been shown it so far, rebuilt from the UI message chunks it read (ai 5,
// 6 and 7 share these chunk types): what a stopped turn stores when the AI SDK cannot finish the
// message itself (its stream belonged to a window that is gone).

export class PartialAnswer {
  /** @type {string | undefined} */
  id = undefined;
  /** @type {Record<string, unknown> | undefined} */
  metadata = undefined;
  /** @type {any[]} */
  parts = [];
  /** @type {Map<string, any>} open text and reasoning parts by chunk id */
  #open = new Map();
  /** @type {Map<string, any>} tool parts by call id */
  #tools = new Map();

  /** @param {any} chunk */
  add(chunk) {
    if (!chunk || typeof chunk !== 'object' || typeof chunk.type !== 'string') return;
    const type = chunk.type;
    if (type === 'start') {
      if (typeof chunk.messageId === 'string') this.id = chunk.messageId;
      this.#meta(chunk.messageMetadata);
    } else if (type === 'message-metadata' || type === 'finish') {
      this.#meta(chunk.messageMetadata);
    } else if (type === 'start-step') {
      this.parts.push({ type: 'step-start' });
    } else if (type === 'text-start' || type === 'reasoning-start') {
      const part = { type: type === 'text-start' ? 'text' : 'reasoning', text: '', state: 'streaming' };
      this.#open.set(`${part.type}:${chunk.id}`, part);
      this.parts.push(part);
    } else if (type === 'text-delta' || type === 'reasoning-delta') {
      const part = this.#open.get(`${type === 'text-delta' ? 'text' : 'reasoning'}:${chunk.id}`);
      if (part && typeof chunk.delta === 'string') part.text += chunk.delta;
    } else if (type === 'text-end' || type === 'reasoning-end') {
      const key = `${type === 'text-end' ? 'text' : 'reasoning'}:${chunk.id}`;
      const part = this.#open.get(key);
      if (part) part.state = 'done';
      this.#open.delete(key);
    } else if (type === 'tool-input-available') {
      const part = {
        ...(chunk.dynamic ? { type: 'dynamic-tool', toolName: chunk.toolName } : { type: `tool-${chunk.toolName}` }),
        toolCallId: chunk.toolCallId, state: 'input-available', input: chunk.input,
        ...(chunk.providerExecuted === undefined ? {} : { providerExecuted: chunk.providerExecuted }),
      };
      const known = this.#tools.get(chunk.toolCallId);
      if (known) Object.assign(known, part);
      else {
        this.#tools.set(chunk.toolCallId, part);
        this.parts.push(part);
      }
    } else if (type === 'tool-output-available' || type === 'tool-output-error') {
      const part = this.#tools.get(chunk.toolCallId);
      if (!part) return;
      if (type === 'tool-output-available') Object.assign(part, { state: 'output-available', output: chunk.output });
      else Object.assign(part, { state: 'output-error', errorText: chunk.errorText });
    } else if (type === 'source-url') {
      this.parts.push({ type, sourceId: chunk.sourceId, url: chunk.url, ...(chunk.title === undefined ? {} : { title: chunk.title }) });
    } else if (type === 'source-document') {
      this.parts.push({ type, sourceId: chunk.sourceId, mediaType: chunk.mediaType, title: chunk.title, ...(chunk.filename === undefined ? {} : { filename: chunk.filename }) });
    } else if (type === 'file') {
      this.parts.push({ type, url: chunk.url, mediaType: chunk.mediaType });
    } else if (type.startsWith('data-') && !chunk.transient) {
      this.parts.push({ type, ...(chunk.id === undefined ? {} : { id: chunk.id }), data: chunk.data });
    }
  }

  /** @param {unknown} value */
  #meta(value) {
    if (value && typeof value === 'object') this.metadata = { ...this.metadata, ...value };
  }

  /** The assistant message shown so far (no parts: nothing was shown). */
  message() {
    const parts = this.parts.filter((part) => part.type !== 'step-start' || this.parts.some((p) => p.type !== 'step-start'));
    return {
      id: this.id ?? `msg_stopped_${Date.now().toString(36)}`,
      role: 'assistant',
      parts: parts.map((part) => ({ ...part })),
      ...(this.metadata === undefined ? {} : { metadata: this.metadata }),
    };
  }
}
