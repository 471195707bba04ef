// What a chat request carries besides the session (the system prompt and the tools), as the
// estimate counts it: the transport counts it before every send, and createChat gives the same
// count to the controller, so one options object says it once.

/** @import { Overhead } from '../bibgenie_compaction.js' */

/**
 * The overhead of a request with `system` and `tools` (`overhead` replaces the count); a `system`
 * function is asked at each turn, so only its turn's text counts (the transport adds it then).
 * @param {{ system?: unknown, tools?: unknown, overhead?: Overhead }} request
 * @returns {Overhead | undefined}
 */
export function requestOverhead({ system, tools, overhead }) {
  if (overhead !== undefined) return overhead;
  const fixed = typeof system === 'string' ? system : undefined;
  if (fixed === undefined && tools === undefined) return undefined;
  return { ...(fixed === undefined ? {} : { system: fixed }), ...(tools === undefined ? {} : { tools: /** @type {any} */ (toolsAsSent(tools)) }) };
}

/**
 * The tools as the request sends them, for the estimate: name, description and the JSON schema of
 * the input (an AI SDK `jsonSchema()`/`tool()` keeps it in `inputSchema.jsonSchema`); functions dropped.
 * @param {unknown} tools
 */
function toolsAsSent(tools) {
  if (!tools || typeof tools !== 'object') return tools;
  /** @type {Record<string, unknown>} */
  const sent = {};
  for (const [name, tool] of Object.entries(tools)) {
    const t = /** @type {any} */ (tool) ?? {};
    const schema = t.inputSchema ?? t.parameters;
    sent[name] = {
      ...(typeof t.description === 'string' ? { description: t.description } : {}),
      inputSchema: schema && typeof schema === 'object' && 'jsonSchema' in schema ? plainJson(schema.jsonSchema) : plainJson(schema),
    };
  }
  return sent;
}

/**
 * JSON-safe copy (functions, symbols and cycles dropped). Only an object that contains itself is a
 * cycle: one shared by two tool schemas is written, and counted, at both places.
 * @param {unknown} value
 */
function plainJson(value) {
  /** @type {object[]} the objects from the root down to the one being written */
  const path = [];
  try {
    const text = JSON.stringify(value, function (_, v) {
      if (typeof v === 'function' || typeof v === 'symbol') return undefined;
      if (v && typeof v === 'object') {
        while (path.length > 0 && path[path.length - 1] !== this) path.pop();
        if (path.includes(v)) return undefined;
        path.push(v);
      }
      return v;
    });
    return text === undefined ? null : JSON.parse(text);
  } catch {
    return null;
  }
}
