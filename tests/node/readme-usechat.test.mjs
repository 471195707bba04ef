// The README's `useChat` example against the page it quotes: every ```jsx example:FILE#REGION block
// of the README is that region of FILE (a path in the repository), as it is, so the example cannot
// drift from the page tests/firefox/usechat.test.mjs builds with Vite and drives in headless Firefox.
// The README's js blocks run in readme.test.mjs; a jsx block cannot run there, this check keeps it true.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './consumer-env.mjs';
import { region } from './quoted-region.mjs';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

test('the README\'s useChat example is the page\'s component, as it is', () => {
  const quotes = [...readme.matchAll(/^```jsx example:([^\s#]+)(?:#(\S+))?\n([\s\S]*?)^```$/gm)];
  assert.deepEqual(quotes.map((q) => `${q[1]}#${q[2]}`), ['tests/firefox/usechat/App.jsx#chat'], 'one quoted page component');
  for (const [, file, name, quoted] of quotes) {
    const source = readFileSync(join(repoRoot, file), 'utf8');
    assert.equal(quoted, region(source, name), `README.md quotes ${file}#${name}`);
  }
  const section = readme.slice(readme.indexOf('## The chat turn'), readme.indexOf('## In a Zotero plugin'));
  assert.ok(section.includes('```jsx example:tests/firefox/usechat/App.jsx#chat'), 'the example is in "The chat turn"');
});

test('the page the example is from renders useChat over the transport, with Stop, edit, regenerate, a status line and the refused turn\'s onError', () => {
  const page = region(readFileSync(join(repoRoot, 'tests/firefox/usechat/App.jsx'), 'utf8'), 'chat');
  for (const used of ['useChat({', 'transport,', 'stop()', 'regenerate()', 'messageId: editing', 'id="status"', 'setMessages(await transport.storedMessages())', 'error.draft']) {
    assert.ok(page.includes(used), `the example has ${used}`);
  }
});
