// The page's chat: `useChat` over the transport `createChat` made (main.jsx). The region between
// the markers is the README's `useChat` example, quoted as it is (tests/node/readme-usechat.test.mjs).
// #region chat
import { useState } from 'react';
import { useChat } from '@ai-sdk/react';

const textOf = (message) => message.parts.filter((part) => part.type === 'text').map((part) => part.text).join('');

// transport: createChat(...).transport; stored: await transport.storedMessages() when the page opens
export function Chat({ transport, stored }) {
  const [input, setInput] = useState('');
  const [editing, setEditing] = useState(null);       // the id of the question being edited
  const { messages, setMessages, sendMessage, regenerate, stop, status, error } = useChat({
    transport,
    messages: stored,
    onError: async (error) => {                       // a refused turn: too-large, cancelled, failed, ...
      setMessages(await transport.storedMessages());  // the page shows the stored branch again
      if (error.draft) setInput(textOf(error.draft)); // and the refused message is back in the input
    },
  });
  const submit = (event) => {
    event.preventDefault();
    sendMessage(editing ? { text: input, messageId: editing } : { text: input });   // with messageId: an edit
    setInput('');
    setEditing(null);
  };
  const busy = status === 'submitted' || status === 'streaming';
  return (
    <main>
      <ul id="messages">
        {messages.map((message) => (
          <li key={message.id} data-role={message.role}>
            <span className="text">{textOf(message)}</span>
            {message.role === 'user' && !busy && (
              <button className="edit" onClick={() => { setEditing(message.id); setInput(textOf(message)); }}>Edit</button>
            )}
          </li>
        ))}
      </ul>
      <p id="status">{status}{error ? `: ${error.code ?? ''} ${error.message}` : ''}</p>
      <form onSubmit={submit}>
        <textarea id="input" value={input} onChange={(event) => setInput(event.target.value)} />
        <button id="send" type="submit" disabled={busy || !input.trim()}>{editing ? 'Save and send' : 'Send'}</button>
        <button id="stop" type="button" onClick={() => stop()} disabled={!busy}>Stop</button>
        <button id="regenerate" type="button" onClick={() => regenerate()} disabled={busy || messages.at(-1)?.role !== 'assistant'}>Regenerate</button>
      </form>
    </main>
  );
}
// #endregion chat
