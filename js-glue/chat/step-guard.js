// The guard of every step of a tool loop (issue 38). The preflight checks the request a turn starts
// with; the tool outputs a loop adds within the turn are not checked by it. streamText asks
// `prepareStep` before each step: the guard estimates that step's request (the transport's system
// prompt and tools, and the step's messages) and, when it would pass the model's safe input limit,
// shows the oldest tool outputs of the current turn as short handles instead of their text, in that
// step's messages only (the stored answer keeps every output verbatim). A step that still cannot fit
// is not sent: the guard throws `step-too-large`, which ends the stream; the transport stores the
// answer so far as Stop stores it (`metadata.aborted`, `metadata.refusal`).

import { capacity, estimateMessage } from '../bibgenie_compaction.js';
import { codedError } from '../util/coded-error.js';
import { asUIPart, estimateModelMessages, overheadTokens } from './model-estimate.js';

/** @import { ModelProfile, Overhead } from '../bibgenie_compaction.js' */
/**
 * streamText's `prepareStep` as the transport composes it (the app's own, the cache marks, the guard).
 * `any`: the step options and results differ slightly between ai 5, 6 and 7.
 * @typedef {(step: any) => Promise<any>} GuardedPrepareStep
 */

/** A system message's framing (the estimator's message and part overheads), not in the overhead count. */
const SYSTEM_FRAMING_TOKENS = 8;

/** @type {WeakMap<object, Map<string, Map<string, unknown>>>} store → session → call id → output */
const held = new WeakMap();

/**
 * The outputs the guard showed as handles in the turn in flight on this store's session, by call id
 * (recall reads them: the turn's answer is not stored yet); cleared when the turn ends.
 * @param {object} store @param {string} sessionId
 */
export function heldOutputs(store, sessionId) {
  let sessions = held.get(store);
  if (!sessions) held.set(store, (sessions = new Map()));
  let outputs = sessions.get(sessionId);
  if (!outputs) sessions.set(sessionId, (outputs = new Map()));
  return outputs;
}

/** Forgets the outputs of the turn that ended. @param {object} store @param {string} sessionId */
export function releaseOutputs(store, sessionId) {
  held.get(store)?.delete(sessionId);
}

/** The text a tool output is shown as when it does not fit the step. @param {any} part @param {number} tokens */
export function recallHandle(part, tokens) {
  return `[tool output of ${String(part.toolName)} (call ${String(part.toolCallId)}) is stored; ${tokens} tokens, not shown: the request would not fit the context window]`;
}

/** Index of the newest user message: the tool outputs after it are the current turn's. @param {readonly any[]} messages */
function turnStart(messages) {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]?.role === 'user') return i + 1;
  return 0;
}

/**
 * `messages` made to fit `limit`: the oldest tool outputs of the current turn shown as handles, one
 * at a time, until it fits. The request is `base` tokens for `messages[..from]` (the turn's first
 * request, as the preflight estimated it, overhead included) plus the estimate of the rest.
 * `{ messages, tokens, folded, hidden }` (`hidden`: the tokens the handles saved); `tokens` over
 * the limit when even every output as a handle does not fit.
 * @param {readonly any[]} messages @param {ModelProfile} model @param {number} base @param {number} from @param {number} limit
 * @param {Map<string, unknown>} [keep] where each output shown as a handle is kept (for recall)
 */
export function fitStep(messages, model, base, from, limit, keep = undefined) {
  // Only what the loop added is estimated at each step (the first request's messages are in `base`).
  const sizes = [...Array(Math.min(from, messages.length)).fill(0), ...estimateModelMessages(messages.slice(from), model)];
  let tokens = sizes.reduce((a, b) => a + b, base);
  const out = [...messages];
  let folded = 0;
  let hidden = 0;
  for (let m = Math.max(from, turnStart(messages)); m < out.length && tokens > limit; m++) {
    const message = out[m];
    if (message?.role !== 'tool' || !Array.isArray(message.content)) continue;
    for (let p = 0; p < message.content.length && tokens > limit; p++) {
      const part = out[m].content[p];
      if (part?.type !== 'tool-result') continue;
      keep?.set(String(part.toolCallId), part.output ?? part.result);
      const alone = estimateMessage(/** @type {any} */ ({ id: 'r', role: 'user', parts: [asUIPart(part)] }), model);
      const content = [...out[m].content];
      content[p] = { ...part, output: { type: 'text', value: recallHandle(part, alone) } };
      out[m] = { ...out[m], content };
      const size = estimateModelMessages([out[m]], model)[0];
      tokens += size - sizes[m];
      hidden += sizes[m] - size;
      sizes[m] = size;
      folded += 1;
    }
  }
  return { messages: folded ? out : messages, tokens, folded, hidden };
}

/**
 * An app's own tool loop (`ChatTurn.guard`): the answer so far as UIMessage parts, as ModelMessages
 * the guard reads (each text or tool call an assistant message, each output a tool message).
 * @param {readonly any[]} parts
 */
function partsAsModelMessages(parts) {
  /** @type {any[]} */
  const out = [];
  for (const part of parts) {
    if (part?.type === 'text' && part.text) out.push({ role: 'assistant', content: [{ type: 'text', text: part.text }] });
    if (typeof part?.toolCallId !== 'string') continue;
    const toolName = part.type === 'dynamic-tool' ? String(part.toolName) : String(part.type).slice(5);
    out.push({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: part.toolCallId, toolName, input: part.input ?? {} }] });
    if (part.output !== undefined || part.errorText !== undefined) {
      const output = part.output !== undefined ? { type: 'json', value: part.output } : { type: 'error-text', value: String(part.errorText) };
      out.push({ role: 'tool', content: [{ type: 'tool-result', toolCallId: part.toolCallId, toolName, output }] });
    }
  }
  return out;
}

/**
 * The guard of an app's own tool loop, one request at a time (`ChatTurn.guard`): the same
 * `guardSteps`, asked with the turn's first request as one message of `startTokens` and each later
 * request as that plus the answer so far. `guard(parts)` resolves the parts to send (outputs shown
 * as handles: `output` the handle's text), and `folded`, the call ids shown so; throws `step-too-large`.
 * @param {{ model: ModelProfile, overhead: Overhead | undefined, startTokens: number, keep?: Map<string, unknown> }} options
 */
export function guardParts({ model, overhead, startTokens, keep }) {
  const { prepareStep } = guardSteps({ model, overhead, startTokens, keep });
  const first = { role: 'user', content: [] }; // stands for the turn's first request (startTokens)
  let stepNumber = 0;
  /** @param {readonly any[]} parts */
  return async (parts) => {
    if (!Array.isArray(parts)) throw codedError('invalid-options', 'guard: parts must be the answer so far as UIMessage parts');
    if (stepNumber === 0) await prepareStep({ stepNumber: stepNumber++, messages: [first] });
    const messages = [first, ...partsAsModelMessages(parts)];
    const result = await prepareStep({ stepNumber: stepNumber++, messages });
    /** @type {Map<string, string>} */
    const shown = new Map();
    for (const message of result?.messages ?? []) {
      for (const part of message.role === 'tool' ? message.content : []) {
        const value = part.output?.value;
        if (part.output?.type === 'text' && typeof value === 'string' && value.startsWith('[tool output of ')) shown.set(part.toolCallId, value);
      }
    }
    return {
      parts: shown.size ? parts.map((p) => (shown.has(p?.toolCallId) ? { ...p, output: shown.get(p.toolCallId) } : p)) : [...parts],
      folded: [...shown.keys()],
    };
  };
}

/**
 * streamText's `prepareStep` for one turn: the app's own (`own`) first, then the cache marks of the
 * step (`marks`), then the guard on the messages they leave. The turn's first request counts as the
 * preflight estimated it (`startTokens`: a provider baseline plus estimates; else its estimate
 * here), what the loop added is estimated on top. Throws `step-too-large` (with `tokens`
 * and `limit`) for a step that cannot fit; `onRefused` hears of it first. `hiddenAt(stepNumber)`: the
 * tokens that step's request did not carry (its usage does not cover them: `metadata.usageFolded`).
 * @param {{ model: ModelProfile, overhead: Overhead | undefined, startTokens?: number, own?: Function, marks?: Function, onRefused?: (error: Error) => void, keep?: Map<string, unknown> }} options
 * @returns {{ prepareStep: GuardedPrepareStep, hiddenAt: (stepNumber: number) => number }}
 */
export function guardSteps({ model, overhead, startTokens, own, marks, onRefused, keep }) {
  const limit = capacity(model).safeInputLimit;
  // The system prompt goes as a message of its own: its framing on top of the text.
  const fixed = overheadTokens(overhead, model) + SYSTEM_FRAMING_TOKENS;
  /** @type {Map<number, number>} */
  const hidden = new Map();
  /** @type {{ count: number, tokens: number } | null} the turn's first request: its messages and tokens */
  let start = null;
  /** @type {GuardedPrepareStep} */
  const prepareStep = async (step) => {
    const result = own ? ((await own(step)) ?? undefined) : undefined;
    let messages = result?.messages ?? step.messages;
    const marked = marks ? marks({ ...step, messages }) : undefined;
    if (marked?.messages) messages = marked.messages;
    // A system prompt the app's step changes is counted instead of the turn's.
    const base = typeof result?.system === 'string' && overhead && 'system' in overhead ? overheadTokens({ ...overhead, system: result.system }, model) + SYSTEM_FRAMING_TOKENS : fixed;
    if (!start) {
      // The messages of the first request (a later step's begin with them); a guard first asked at a
      // later step takes the messages up to the newest user message.
      const count = step.stepNumber === 0 ? messages.length : turnStart(messages);
      const preflight = typeof startTokens === 'number' && step.stepNumber === 0;
      start = { count, tokens: preflight ? startTokens + SYSTEM_FRAMING_TOKENS : estimateModelMessages(messages.slice(0, count), model).reduce((a, b) => a + b, base) };
    }
    const fit = fitStep(messages, model, start.tokens + base - fixed, start.count, limit, keep);
    if (fit.tokens > limit) {
      const error = codedError('step-too-large', `step ${step.stepNumber} of the turn would send ${fit.tokens} estimated tokens, over the safe input limit of ${limit}, even with every tool output of the turn left out; it was not sent`, { tokens: fit.tokens, limit });
      onRefused?.(error);
      throw error;
    }
    if (fit.hidden > 0) hidden.set(step.stepNumber, fit.hidden);
    if (fit.messages === step.messages && result === undefined) return undefined;
    return { ...result, messages: fit.messages };
  };
  return { prepareStep, hiddenAt: (stepNumber) => hidden.get(stepNumber) ?? 0 };
}
