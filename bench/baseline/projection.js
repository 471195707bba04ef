// The baseline of the speed bench: projection, estimate and a threshold plan in plain JavaScript,
// the way a plugin author would write them without this library (chars/4, no validation, no
// integrity checks, no turn-aware boundary). It exists to price the JS -> wasm boundary: the same
// walk over the same objects, with no copy. Not shipped, not a reference for correctness.

/** The common rule of thumb: four characters per token. */
const CHARS_PER_TOKEN = 4;

/** The active branch, root to leaf: follow `parentId` from the leaf. */
export function readBranch(session) {
  const byId = new Map();
  for (const node of session.nodes) byId.set(node.id, node);
  const branch = [];
  const seen = new Set();
  for (let node = byId.get(session.leafId); node && !seen.has(node.id); node = byId.get(node.parentId)) {
    seen.add(node.id);
    branch.push(node);
  }
  return branch.reverse();
}

/** The model's view: the newest checkpoint's summary, its kept tail, and everything after it. */
export function project(session) {
  const branch = readBranch(session);
  let c = branch.length - 1;
  while (c >= 0 && !branch[c].checkpoint) c--;
  if (c < 0) return { messages: branch, checkpointId: null };
  const checkpoint = branch[c].checkpoint;
  let start = checkpoint.firstKeptMessageId === null ? c : branch.findIndex((n) => n.id === checkpoint.firstKeptMessageId);
  if (start < 0) start = c;
  const summary = { id: branch[c].id, role: 'user', parts: [{ type: 'text', text: checkpoint.summary }], metadata: { checkpoint: true } };
  const messages = [summary, ...branch.slice(start, c), ...branch.slice(c + 1)].filter((n) => !n.checkpoint);
  return { messages, checkpointId: branch[c].id };
}

/** chars/4 over what a message sends: text, reasoning, and tool input and output as JSON. */
export function estimateMessage(message) {
  let chars = 0;
  for (const part of message.parts ?? []) {
    if (typeof part.text === 'string') chars += part.text.length;
    if (part.input !== undefined) chars += JSON.stringify(part.input).length;
    if (part.output !== undefined) chars += JSON.stringify(part.output).length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export function estimate(session, model) {
  const { messages } = project(session);
  let tokens = 0;
  for (const message of messages) tokens += estimateMessage(message);
  return { tokens, fits: tokens <= model.contextWindow - (model.maxOutputTokens ?? 0) };
}

/** Compact when over 80% of the window; keep the newest user turns that fit a quarter of it. */
export function plan(session, model) {
  const { messages } = project(session);
  const sizes = messages.map(estimateMessage);
  const tokens = sizes.reduce((a, b) => a + b, 0);
  if (tokens < model.contextWindow * 0.8) return { action: 'none', tokens, summarizeIds: [] };
  let kept = 0;
  let boundary = messages.length;
  for (let i = messages.length - 1; i > 0; i--) {
    kept += sizes[i];
    if (kept > model.contextWindow / 4) break;
    if (messages[i].role === 'user') boundary = i;
  }
  return { action: 'compact', tokens, summarizeIds: messages.slice(0, boundary).map((m) => m.id) };
}
