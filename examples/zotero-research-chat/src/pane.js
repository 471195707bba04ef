// The item pane section: the chat of the selected item, a text box, Send, Stop and a status line.
// Each window's pane renders its own ItemChat (see chat.js) on the item's shared session.

export const PANE_ID = "research-chat";

/** The section as Zotero.ItemPaneManager.registerSection takes it (Zotero 7+). */
export function chatSection({ pluginID, rootURI, chatFor }) {
  return {
    paneID: PANE_ID,
    pluginID,
    header: { l10nID: "research-chat-header", icon: `${rootURI}content/icon.svg` },
    sidebarButton: { l10nID: "research-chat-sidebar", icon: `${rootURI}content/icon.svg` },
    bodyXHTML: `<html:div class="research-chat">
        <html:div class="research-chat-log"></html:div>
        <html:div class="research-chat-status"></html:div>
        <html:textarea class="research-chat-input" rows="3"></html:textarea>
        <html:button class="research-chat-send">Send</html:button>
        <html:button class="research-chat-stop">Stop</html:button>
      </html:div>`,
    onRender: ({ body, item }) => {
      if (!item?.isRegularItem?.()) return;
      // Nothing the pane starts may reject unhandled: a render the plugin's shutdown or the window's
      // close overtook (its store closed, its document dead) ends quietly; the next render draws.
      renderChat(body, item, chatFor).catch(() => {});
    },
  };
}

/** The chat bound to each pane body: a render for another item detaches the previous one. */
const bound = new WeakMap();

async function renderChat(body, item, chatFor) {
  const doc = body.ownerDocument;
  const log = body.querySelector(".research-chat-log");
  const status = body.querySelector(".research-chat-status");
  const input = body.querySelector(".research-chat-input");
  const view = {}; // this render; the body shows another item once a later render took it
  bound.set(body, view);
  const current = () => bound.get(body) === view;
  const chat = await chatFor(doc.defaultView, item, (state) => {
    if (!current()) return;
    if (state.status === "compacting") {
      status.textContent = `Compacting ${state.foldedMessages ?? ""} earlier messages…`;
      const cancel = doc.createElement("button");
      cancel.textContent = "Cancel";
      cancel.onclick = () => state.cancel();
      status.append(cancel);
    } else {
      status.textContent = state.status === "failed" ? `Compaction failed: ${state.message}` : "";
    }
  });
  if (!current()) return;
  // Drawn only while this render is the body's: an answer streaming for item A never lands in B's pane.
  const show = (message) => {
    if (!current()) return;
    let line = log.querySelector(`[data-id="${message.id}"]`);
    if (!line) {
      line = doc.createElement("div");
      line.dataset.id = message.id;
      line.className = `research-chat-${message.role}`;
      log.append(line);
    }
    line.textContent = message.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
  };
  /** The stored chat, a question without an answer marked as such with a Retry (it is in the session: resending answers it in place). */
  const showHistory = async () => {
    const messages = (await chat.history()).filter((m) => m.role === "user" || m.role === "assistant");
    if (!current()) return null;
    log.replaceChildren();
    for (const message of messages) show(message);
    const last = messages[messages.length - 1];
    const cut = last?.role === "assistant" && last.metadata?.finishReason === "error";
    const question = last?.role === "user" ? last : cut ? messages[messages.length - 2] : null;
    if (question?.role !== "user" || chat.stopController) return null; // still being answered
    const text = question.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
    const note = doc.createElement("div");
    note.className = "research-chat-unanswered";
    note.textContent = cut ? "The answer was cut by an error; the question is stored. " : "Stored, not answered yet. ";
    const retry = doc.createElement("button");
    retry.className = "research-chat-retry";
    retry.textContent = "Retry";
    retry.onclick = () => void send(text).catch(() => {});
    note.append(retry);
    log.append(note);
    return text;
  };
  const send = async (text) => {
    status.textContent = "";
    log.querySelector(".research-chat-unanswered")?.remove();
    show({ id: "pending", role: "user", parts: [{ type: "text", text }] });
    let failed = null;
    try {
      await chat.send(text, (message) => chat.draw?.(message)); // the item's latest pane draws it
    } catch (error) {
      failed = error;
    }
    // What is stored, in the item's latest pane: the question (answered or not), never a draft that was
    // not. Unread when the store has closed meanwhile (the plugin shut down) or the pane's window went.
    const unanswered = await Promise.resolve(chat.refresh?.()).catch(() => null);
    if (failed && bound.get(body) === chat.view) {
      status.textContent = `${unanswered === text ? "Not answered" : "Not stored"} (${failed.code ?? "error"}): ${failed.message}`;
      if (unanswered !== text) input.value = text; // not in the session: the draft goes back to the box
    }
  };
  chat.view = view;
  chat.draw = show;
  chat.refresh = showHistory;
  await showHistory();
  if (!current()) return;
  body.querySelector(".research-chat-send").onclick = () => {
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    void send(text).catch(() => {}); // its outcome is drawn in the pane; a dead pane draws nothing
  };
  body.querySelector(".research-chat-stop").onclick = () => chat.stop();
}
