// The AI SDK majors the chat tests run on (ai 5, 6, 7 from tests/package.json), each with its mock
// language model and the shapes of finish reasons and usage its model interface uses.
// Required by tests/package.json: an import error fails the importing file rather than dropping a suite.

const v2 = { finishReason: (r) => r, usage: (input, output) => ({ inputTokens: input, outputTokens: output, totalTokens: input + output }) };
const v3 = {
  finishReason: (r) => ({ unified: r, raw: r }),
  usage: (input, output) => ({
    inputTokens: { total: input, noCache: input, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: output, text: output, reasoning: undefined },
  }),
};

/** `{ name, ai, test, Mock, finishReason, usage }` for ai 5, 6 and 7. */
export const sdks = [{ name: 'ai@5', ai: await import('ai'), test: await import('ai/test'), Mock: 'MockLanguageModelV2', ...v2 }];
for (const [name, spec, Mock] of [['ai@6', 'ai6', 'MockLanguageModelV3'], ['ai@7', 'ai7', 'MockLanguageModelV4']]) {
  sdks.push({ name, ai: await import(spec), test: await import(`${spec}/test`), Mock, ...v3 });
}

/** A mock model of `sdk` that answers every call with `text`, finishing with `usage` (`sdk.usage(input, output)`). */
export function answeringModel(sdk, text, usage) {
  return new sdk.test[sdk.Mock]({
    doStream: async () => ({
      stream: sdk.test.convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't1' },
        { type: 'text-delta', id: 't1', delta: text },
        { type: 'text-end', id: 't1' },
        { type: 'finish', finishReason: sdk.finishReason('stop'), usage },
      ]),
    }),
  });
}
