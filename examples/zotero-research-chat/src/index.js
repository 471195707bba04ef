// The Research chat plugin's lifecycle (bootstrap.js calls these) and its chats, one per item and
// window. Bundled by build.mjs into content/research-chat.js as the global ResearchChatPlugin.
import { windowGlobals } from "./window-globals.js"; // first: before the AI SDK's code runs
import { createGateway } from "ai";
import { ItemChat, closeChatCore, loadChatCore, openStore, unloadChatCore } from "./chat.js";
import { PANE_ID, chatSection } from "./pane.js";

const ADDON_REF = "research-chat";
const PREF = "extensions.research-chat.";

let plugin = null;
let starting = null; // { cancelled, done } while startup() runs: a shutdown meanwhile cancels it

/** The models from the prefs: one provider (the AI SDK's gateway) with the key the user pasted. */
function modelsFromPrefs() {
  const apiKey = Zotero.Prefs.get(`${PREF}apiKey`, true) || undefined; // never logged
  const modelId = Zotero.Prefs.get(`${PREF}model`, true) || "openai/gpt-4.1-mini";
  const contextWindow = Number(Zotero.Prefs.get(`${PREF}contextWindow`, true)) || 128_000;
  const gateway = createGateway({ apiKey });
  return {
    chatModel: gateway(modelId), summaryModel: gateway(modelId), contextWindow, modelId, cacheProvider: cacheProviderOf(modelId),
    missingKey: apiKey ? null : "No AI Gateway API key is set: paste one in Zotero's Settings → Research chat, then send again.",
    configKey: [apiKey, modelId, contextWindow].join("\n"), // a chat re-opens on new prefs (compared, never logged)
  };
}

/** The prompt-cache provider of a gateway model id ("anthropic/claude-…"): whose marks to write. */
function cacheProviderOf(modelId) {
  const vendor = String(modelId).split("/")[0];
  return ["anthropic", "bedrock", "openai", "google", "deepseek"].includes(vendor) ? vendor : "implicit";
}

// #region startup
export async function startup({ id, rootURI }) {
  const run = { cancelled: false };
  starting = run;
  run.done = (async () => {
    await loadChatCore(ADDON_REF);
    // Disabled while loading: shutdown() found no plugin and waits for this; undo and stop.
    if (run.cancelled) return unloadChatCore();
    open(id, rootURI);
  })();
  try {
    await run.done;
  } finally {
    if (starting === run) starting = null;
  }
}
// #endregion startup

function open(id, rootURI) {
  const store = openStore(ADDON_REF);
  plugin = { id, rootURI, store, chats: new Map(), models: modelsFromPrefs, windows: new Set(), closing: [] };
  Zotero.PreferencePanes?.register({ pluginID: id, src: `${rootURI}content/preferences.xhtml`, label: "Research chat" });
  plugin.section = Zotero.ItemPaneManager?.registerSection(chatSection({ pluginID: id, rootURI, chatFor }));
  // For other code of the user's (and the tests): the same chats the panes use.
  Zotero.ResearchChat = { chatFor, useModels, store, paneID: PANE_ID };
}

/**
 * The chat of an item in a window, made when first used (its session too).
 * @param {Window} window @param {Zotero.Item} item @param {(state) => void} [onStatus]
 */
async function chatFor(window, item, onStatus) {
  // A pane rendered while the plugin shuts down (or after): refused with a code, never a TypeError.
  const current = plugin;
  if (!current) throw Object.assign(new Error("the Research chat plugin has been shut down"), { code: "closed" });
  const key = `${windowKey(window)} ${item.libraryID}/${item.key}`;
  let chat = current.chats.get(key);
  if (!chat) {
    // This instance's models (useModels changes them in place), also once shutdown cleared `plugin`.
    chat = new ItemChat({ store: current.store, models: () => current.models(), item, onStatus }).open();
    current.chats.set(key, chat);
    chat.catch(() => current.chats.delete(key));
  }
  const opened = await chat;
  if (onStatus) opened.onStatus = onStatus;
  return opened;
}

/** Other models than the prefs' (another provider, or a mock model in tests; none: the prefs' again); chats opened later use them. */
function useModels(models) {
  plugin.models = models ? () => models : modelsFromPrefs;
}

const windowIds = new WeakMap();
let nextWindowId = 0;
function windowKey(window) {
  if (!windowIds.has(window)) windowIds.set(window, ++nextWindowId);
  return windowIds.get(window);
}

export function onMainWindowLoad(window) {
  plugin?.windows.add(window);
  // The pane's labels (addon/locale/, registered for Fluent by Zotero's plugin loader).
  try {
    window.MozXULElement?.insertFTLIfNeeded("research-chat.ftl");
  } catch {
    // a window without Fluent (the tests' plain browser windows) shows no labels, nothing else
  }
}

// #region unload
/**
 * The window's chats end with it: a compaction it runs is cancelled, an answer it streams is stopped
 * and stored as Stop stores it (the transport would also stop it on the window's unload).
 */
export function onMainWindowUnload(window) {
  if (!plugin) return;
  plugin.windows.delete(window);
  const prefix = `${windowKey(window)} `;
  for (const [key, chat] of plugin.chats) {
    if (!key.startsWith(prefix)) continue;
    plugin.chats.delete(key);
    plugin.closing.push(chat.then((c) => c.close()).catch(() => {}));
  }
}

export async function shutdown() {
  if (starting) {
    starting.cancelled = true;
    await starting.done.catch(() => {});
  }
  if (!plugin) return windowGlobals.uninstall();
  const { store, section, closing } = plugin;
  const chats = await Promise.all([...plugin.chats.values()].map((chat) => chat.catch(() => null)));
  if (section) Zotero.ItemPaneManager?.unregisterSection(section);
  delete Zotero.ResearchChat;
  plugin = null;
  await Promise.all(closing); // chats of closed windows still storing their stopped answer
  await closeChatCore({ chats: chats.filter(Boolean), store });
  windowGlobals.uninstall(); // last: the turns that used them have ended
}
// #endregion unload
