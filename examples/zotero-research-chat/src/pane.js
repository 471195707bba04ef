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
      void renderChat(body, item, chatFor);
    },
  };
}

async function renderChat(body, item, chatFor) {
  const doc = body.ownerDocument;
  const log = body.querySelector(".research-chat-log");
  const status = body.querySelector(".research-chat-status");
  const input = body.querySelector(".research-chat-input");
  const chat = await chatFor(doc.defaultView, item, (state) => {
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
  const show = (message) => {
    let line = log.querySelector(`[data-id="${message.id}"]`);
    if (!line) {
      line = doc.createElement("div");
      line.dataset.id = message.id;
      line.className = `research-chat-${message.role}`;
      log.append(line);
    }
    line.textContent = message.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
  };
  log.replaceChildren();
  for (const message of await chat.history()) if (message.role === "user" || message.role === "assistant") show(message);
  body.querySelector(".research-chat-send").onclick = async () => {
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    show({ id: "pending", role: "user", parts: [{ type: "text", text }] });
    try {
      await chat.send(text, show);
    } catch (error) {
      status.textContent = `Not sent (${error.code ?? "error"}): ${error.message}`;
      input.value = text;
    }
  };
  body.querySelector(".research-chat-stop").onclick = () => chat.stop();
}
