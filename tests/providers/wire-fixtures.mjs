// What the wire tests need around the real provider packages: a `fetch` that records every request
// body and answers in the provider's own streaming format (Anthropic and OpenAI SSE, OpenAI's
// Responses events, Google's SSE, Bedrock's binary event stream), and readers of the cache marks
// in a recorded body.
import { crc32 } from 'node:zlib';

/** The provider packages, per AI SDK major (tests/providers/package.json). */
export const SDKS = [
  { name: 'ai@5', ai: await import('ai'), major: 5 },
  { name: 'ai@6', ai: await import('ai6'), major: 6 },
  { name: 'ai@7', ai: await import('ai7'), major: 7 },
];

export async function providerPackages(major) {
  const [anthropic, bedrock, openrouter, openai, google] = await Promise.all(
    ['anthropic', 'bedrock', 'openrouter', 'openai', 'google'].map((name) => import(`${name}${major}`)),
  );
  return { anthropic, bedrock, openrouter, openai, google };
}

// ---- canned answers ---------------------------------------------------------------------------

/** An answer the fake server gives: text, or one tool call of `zoteroSearch`. */
export const textAnswer = (text) => ({ kind: 'text', text });
export const toolAnswer = (id, input) => ({ kind: 'tool', id, input });
/** A whole stream body written by the test (the providers' compaction streams below). */
export const rawAnswer = (body) => ({ kind: 'raw', body });
/** A JSON body (a provider's non-streaming answer, as generateText reads it). */
export const jsonAnswer = (body) => ({ kind: 'json', body });

const sse = (events) => events.map((e) => (e.event ? `event: ${e.event}\n` : '') + `data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`).join('');

function anthropicStream(answer, n) {
  const usage = { input_tokens: 1200, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const events = [{ event: 'message_start', data: { type: 'message_start', message: { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage } } }];
  if (answer.kind === 'text') {
    events.push(
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: answer.text } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    );
  } else {
    events.push(
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: answer.id, name: 'zoteroSearch', input: {} } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(answer.input) } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    );
  }
  events.push(
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: answer.kind === 'text' ? 'end_turn' : 'tool_use', stop_sequence: null }, usage: { output_tokens: 20 } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return sse(events);
}

function chatCompletionsStream(answer, n) {
  const chunk = (delta, finish = null, extra = {}) => ({ id: `gen-${n}`, object: 'chat.completion.chunk', created: 1_700_000_000, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }], ...extra });
  const usage = { prompt_tokens: 1200, completion_tokens: 20, total_tokens: 1220 };
  const events = answer.kind === 'text'
    ? [chunk({ role: 'assistant', content: answer.text }), chunk({}, 'stop', { usage })]
    : [chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: answer.id, type: 'function', function: { name: 'zoteroSearch', arguments: JSON.stringify(answer.input) } }] }), chunk({}, 'tool_calls', { usage })];
  return sse([...events.map((data) => ({ data })), { data: '[DONE]' }]);
}

function responsesStream(answer, n) {
  const item = answer.kind === 'text'
    ? { type: 'message', id: `msg_${n}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer.text, annotations: [] }] }
    : { type: 'function_call', id: `fc_${n}`, call_id: answer.id, name: 'zoteroSearch', arguments: JSON.stringify(answer.input), status: 'completed' };
  const events = [
    { type: 'response.created', response: { id: `resp_${n}`, object: 'response', created_at: 1_700_000_000, model: 'gpt-4.1', status: 'in_progress', output: [], service_tier: null } },
    { type: 'response.output_item.added', output_index: 0, item: answer.kind === 'text' ? { ...item, status: 'in_progress', content: [] } : { ...item, arguments: '', status: 'in_progress' } },
    ...(answer.kind === 'text'
      ? [{ type: 'response.output_text.delta', item_id: `msg_${n}`, output_index: 0, content_index: 0, delta: answer.text, logprobs: [] }]
      : [{ type: 'response.function_call_arguments.delta', item_id: `fc_${n}`, output_index: 0, delta: JSON.stringify(answer.input) }]),
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: { id: `resp_${n}`, object: 'response', created_at: 1_700_000_000, model: 'gpt-4.1', status: 'completed', output: [item], incomplete_details: null, service_tier: null,
      usage: { input_tokens: 1200, input_tokens_details: { cached_tokens: 0 }, output_tokens: 20, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 1220 } } },
  ];
  return sse(events.map((data) => ({ data })));
}

function googleStream(answer) {
  const part = answer.kind === 'text' ? { text: answer.text } : { functionCall: { name: 'zoteroSearch', args: answer.input } };
  return sse([{ data: { candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }], usageMetadata: { promptTokenCount: 1200, candidatesTokenCount: 20, totalTokenCount: 1220 } } }]);
}

// Bedrock's ConverseStream answers in AWS's binary event-stream framing: per message a prelude
// (total and header length, CRC32), string headers, the JSON payload, and a CRC32 of it all.
function eventFrame(eventType, payload) {
  const enc = new TextEncoder();
  const headers = [];
  for (const [name, value] of [[':event-type', eventType], [':content-type', 'application/json'], [':message-type', 'event']]) {
    const n = enc.encode(name);
    const v = enc.encode(value);
    headers.push(Uint8Array.of(n.length), n, Uint8Array.of(7, v.length >> 8, v.length & 0xff), v);
  }
  const headerBytes = Buffer.concat(headers);
  const body = enc.encode(JSON.stringify(payload));
  const total = 12 + headerBytes.length + body.length + 4;
  const frame = Buffer.alloc(total);
  frame.writeUInt32BE(total, 0);
  frame.writeUInt32BE(headerBytes.length, 4);
  frame.writeUInt32BE(crc32(frame.subarray(0, 8)), 8);
  headerBytes.copy(frame, 12);
  Buffer.from(body).copy(frame, 12 + headerBytes.length);
  frame.writeUInt32BE(crc32(frame.subarray(0, total - 4)), total - 4);
  return frame;
}
function bedrockStream(answer) {
  const frames = [eventFrame('messageStart', { role: 'assistant' })];
  if (answer.kind === 'text') {
    frames.push(eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { text: answer.text } }), eventFrame('contentBlockStop', { contentBlockIndex: 0 }));
  } else {
    frames.push(
      // `input` is required by @ai-sdk/amazon-bedrock 3's schema of this event; the input itself comes in the deltas.
      eventFrame('contentBlockStart', { contentBlockIndex: 0, start: { toolUse: { toolUseId: answer.id, name: 'zoteroSearch', input: {} } } }),
      eventFrame('contentBlockDelta', { contentBlockIndex: 0, delta: { toolUse: { input: JSON.stringify(answer.input) } } }),
      eventFrame('contentBlockStop', { contentBlockIndex: 0 }),
    );
  }
  frames.push(
    eventFrame('messageStop', { stopReason: answer.kind === 'text' ? 'end_turn' : 'tool_use' }),
    eventFrame('metadata', { usage: { inputTokens: 1200, outputTokens: 20, totalTokens: 1220 }, metrics: { latencyMs: 10 } }),
  );
  return Buffer.concat(frames);
}

/**
 * A recording fetch: `requests` gets `{ url, body }` of every call; each call takes the next answer
 * of `answers` (the last one repeats). The answer is written in the format the URL asks for.
 */
export function recordingFetch() {
  const requests = [];
  const answers = [];
  const fetch = async (url, init) => {
    const href = String(url);
    const body = JSON.parse(init.body);
    requests.push({ url: href, body });
    const answer = answers.length > 1 ? answers.shift() : answers[0] ?? textAnswer('ok');
    const n = requests.length;
    if (answer.kind === 'raw') return new Response(answer.body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
    if (answer.kind === 'json') return new Response(JSON.stringify(answer.body), { status: 200, headers: { 'content-type': 'application/json' } });
    if (href.includes('converse-stream')) {
      return new Response(bedrockStream(answer), { status: 200, headers: { 'content-type': 'application/vnd.amazon.eventstream' } });
    }
    // Bedrock's Anthropic Messages endpoint (`@ai-sdk/amazon-bedrock/anthropic`) takes Anthropic's SSE.
    const text = href.includes('/messages') || href.includes('invoke-with-response-stream') ? anthropicStream(answer, n)
      : href.includes('/responses') ? responsesStream(answer, n)
        : href.includes('streamGenerateContent') ? googleStream(answer)
          : chatCompletionsStream(answer, n);
    return new Response(text, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch, requests, answers };
}

// ---- reading the marks ---------------------------------------------------------------------------

/** Every cache mark in a request body: `cache_control` objects and Bedrock `cachePoint` blocks. */
export function countMarks(value) {
  if (Array.isArray(value)) return value.reduce((n, v) => n + countMarks(v), 0);
  if (!value || typeof value !== 'object') return 0;
  let n = 0;
  for (const [key, v] of Object.entries(value)) {
    if ((key === 'cache_control' || key === 'cachePoint') && v) n += 1;
    else n += countMarks(v);
  }
  return n;
}

/**
 * The request's messages with the marks taken out, for comparing prefixes byte for byte. A content
 * of one plain text block is written as the string it is: OpenRouter sends a user message's text as
 * a string unmarked and as one text block marked, and the Anthropic API it forwards to reads the
 * string as exactly that block.
 */
export function withoutMarks(value) {
  if (Array.isArray(value)) return value.filter((v) => !(v && typeof v === 'object' && 'cachePoint' in v)).map(withoutMarks);
  if (!value || typeof value !== 'object') return value;
  const bare = Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'cache_control').map(([key, v]) => [key, withoutMarks(v)]));
  const only = Array.isArray(bare.content) && bare.content.length === 1 ? bare.content[0] : null;
  if (only && only.type === 'text' && Object.keys(only).length === 2) bare.content = only.text;
  return bare;
}

/** The indices of the body's messages that carry a mark (on themselves or a block of theirs). */
export function markedMessages(body) {
  return (body.messages ?? []).flatMap((message, i) => (countMarks(message) > 0 ? [i] : []));
}

/** Content blocks of the messages up to and including `index` (a string content is one block). */
export function blocksThrough(body, index) {
  return body.messages.slice(0, index + 1).reduce((n, m) => n + (Array.isArray(m.content) ? m.content.length : 1), 0);
}

/** About `tokens` tokens of English prose (a research assistant's system prompt). */
export function prose(tokens) {
  const sentence = 'Answer from the researcher\'s Zotero library, cite every claim with its item key and page, and say when a source is missing. ';
  return sentence.repeat(Math.ceil(tokens / 25));
}

// ---- the providers' own compaction (issue 39) ---------------------------------------------------

/**
 * Anthropic's answer when its threshold compaction ran within the request (`compact_20260112`): a
 * `compaction` block opening the reply (its summary in one `compaction_delta`, as its streaming docs
 * say), then the answer, and the usage per iteration (the compaction's first) in `message_delta`.
 * `signature` makes it the on-demand (`compact-2026-09-04`) block, whose content arrives whole in
 * `content_block_start`.
 */
export function anthropicCompactionStream({ summary, answer, compactionInput, input, output, signature }) {
  const usage = { input_tokens: input, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const block = signature ? { type: 'compaction', content: summary, signature } : { type: 'compaction', content: null };
  const events = [
    { event: 'message_start', data: { type: 'message_start', message: { id: 'msg_c', type: 'message', role: 'assistant', model: 'claude-opus-4-6', content: [], stop_reason: null, stop_sequence: null, usage } } },
    { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: block } },
    ...(signature ? [] : [{ event: 'content_block_delta', data: { type: 'content_block_delta', index: 0, delta: { type: 'compaction_delta', content: summary } } }]),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
  ];
  if (answer) {
    events.push(
      { event: 'content_block_start', data: { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } } },
      { event: 'content_block_delta', data: { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: answer } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 1 } },
    );
  }
  const iterations = [
    { type: 'compaction', input_tokens: compactionInput, output_tokens: Math.ceil(summary.length / 4) },
    ...(answer ? [{ type: 'message', input_tokens: input, output_tokens: output }] : []),
  ];
  events.push(
    { event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: answer ? 'end_turn' : 'compaction', stop_sequence: null }, usage: { input_tokens: input, output_tokens: output, iterations } } },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return sse(events);
}

/** OpenAI Responses' answer with its server-side compaction item (encrypted) before the reply. */
export function responsesCompactionStream({ encrypted, answer, input, output }) {
  const compaction = { type: 'compaction', id: 'cmp_1', encrypted_content: encrypted };
  const message = { type: 'message', id: 'msg_r', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: answer, annotations: [] }] };
  const response = (status, out, usage) => ({ id: 'resp_c', object: 'response', created_at: 1_700_000_000, model: 'gpt-5', status, output: out, incomplete_details: null, service_tier: null, ...(usage ? { usage } : {}) });
  const events = [
    { type: 'response.created', response: response('in_progress', []) },
    { type: 'response.output_item.added', output_index: 0, item: compaction },
    { type: 'response.output_item.done', output_index: 0, item: compaction },
    { type: 'response.output_item.added', output_index: 1, item: { ...message, status: 'in_progress', content: [] } },
    { type: 'response.output_text.delta', item_id: 'msg_r', output_index: 1, content_index: 0, delta: answer, logprobs: [] },
    { type: 'response.output_item.done', output_index: 1, item: message },
    { type: 'response.completed', response: response('completed', [compaction, message], { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output }) },
  ];
  return sse(events.map((data) => ({ data })));
}
