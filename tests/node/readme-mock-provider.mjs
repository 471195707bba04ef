// What the README test puts where a README block imports an AI SDK provider ('@ai-sdk/openai', …):
// each provider function returns the AI SDK's mock model (ai 5, as tests/node_modules has it), which
// streams a short answer and reports usage, so a block runs offline exactly as printed otherwise.
import { MockLanguageModelV2, convertArrayToReadableStream } from 'ai/test';

const ANSWER = 'Two of the twelve report apparent protein digestibility.';

function mockModel(modelId) {
  return new MockLanguageModelV2({
    modelId,
    doGenerate: async () => ({
      content: [{ type: 'text', text: ANSWER }],
      finishReason: 'stop',
      usage: { inputTokens: 900, outputTokens: 12, totalTokens: 912 },
      warnings: [],
    }),
    doStream: async () => ({
      stream: convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: ANSWER },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 900, outputTokens: 12, totalTokens: 912 } },
      ]),
    }),
  });
}

export const openai = (modelId) => mockModel(modelId);
export const anthropic = (modelId) => mockModel(modelId);
export const google = (modelId) => mockModel(modelId);
