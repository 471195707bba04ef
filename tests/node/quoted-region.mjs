// The region of a source file that a document quotes (docs/zotero-plugin.md quotes the example
// plugin, the README the useChat page): zotero-recipe.test.mjs and readme-usechat.test.mjs compare
// each quoted block with it.
import assert from 'node:assert/strict';

/** The lines between `// #region NAME` and `// #endregion NAME`, without their common indent. */
export function region(text, name) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.trim() === `// #region ${name}`);
  const end = lines.findIndex((l, i) => i > start && l.trim() === `// #endregion ${name}`);
  assert.ok(start >= 0 && end > start, `region ${name}`);
  const body = lines.slice(start + 1, end);
  const indent = Math.min(...body.filter((l) => l.trim()).map((l) => l.match(/^ */)[0].length));
  return body.map((l) => l.slice(indent)).join('\n') + '\n';
}
