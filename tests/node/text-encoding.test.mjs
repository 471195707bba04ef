// The stateless calls encode the session's JSON text into wasm memory in rounds (one byte per
// UTF-16 unit first, then three per unit left: src/bindings/convert.rs, encode_utf8). Text that does
// not fit the first round must arrive whole: the answers equal those of a SessionIndex, whose
// glue encodes each node with TextEncoder.encode.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compaction, MODEL } from './runner-fixtures.mjs';

const { estimate, plan, estimateMessage, SessionIndex } = compaction;

const TEXTS = {
  'ASCII only': 'The retrieval unit is the passage (p. 57). '.repeat(40),
  'ASCII, then Chinese': `${'plain words first '.repeat(30)}${'检索单元是段落，第五十七页。'.repeat(40)}`,
  'Chinese only': '检索单元是段落，第五十七页。'.repeat(60),
  'emoji (surrogate pairs) after ASCII': `${'x'.repeat(101)}${'📚🔍'.repeat(80)}`,
  'two-byte letters': 'Élément déjà référencé à la page 57. '.repeat(50),
};

/** A fresh three-node session whose messages carry `text` (fresh objects: nothing cached). */
function session(text) {
  const node = (id, parentId, role, body) => ({ id, parentId, role, parts: [{ type: 'text', text: body }] });
  return {
    nodes: [node('u1', null, 'user', text), node('a1', 'u1', 'assistant', `${text} (answer)`), node('u2', 'a1', 'user', text.slice(0, 200))],
    leafId: 'u2',
    branchRevision: 0,
  };
}

for (const [name, text] of Object.entries(TEXTS)) {
  test(`stateless estimate and plan read ${name} whole, as the held index does`, () => {
    const index = SessionIndex.from(session(text));
    try {
      assert.deepEqual(estimate(session(text), MODEL), index.estimate(MODEL));
      assert.deepEqual(plan(session(text), MODEL, { mode: 'auto' }), index.plan(MODEL, { mode: 'auto' }));
    } finally {
      index.free();
    }
    // One message alone: its estimate grows with its text (a cut text would count less or fail).
    const one = (body) => estimateMessage({ id: 'm', role: 'user', parts: [{ type: 'text', text: body }] }, MODEL);
    assert.ok(one(text + text) > one(text), `${one(text + text)} > ${one(text)}`);
  });
}
