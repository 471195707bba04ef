// Zotero 7/8 bootstrap of the Research chat example: Zotero loads this file into the plugin's
// scope and calls these hooks. The chat itself is content/research-chat.js (built from src/).
/* global Zotero, Services, Components, ResearchChatPlugin */

var chromeHandle;

function install() {}

async function startup({ id, version, rootURI }) {
  const aomStartup = Components.classes["@mozilla.org/addons/addon-manager-startup;1"]
    .getService(Components.interfaces.amIAddonManagerStartup);
  chromeHandle = aomStartup.registerChrome(Services.io.newURI(rootURI + "manifest.json"), [
    ["content", "research-chat", "content/"],
  ]);
  // Defines ResearchChatPlugin in this scope; needs no main window (Zotero may start with none).
  Services.scriptloader.loadSubScript("chrome://research-chat/content/research-chat.js", globalThis);
  await ResearchChatPlugin.startup({ id, version, rootURI, scope: globalThis });
}

function onMainWindowLoad({ window }) {
  ResearchChatPlugin.onMainWindowLoad(window);
}

function onMainWindowUnload({ window }) {
  ResearchChatPlugin.onMainWindowUnload(window);
}

async function shutdown() {
  await ResearchChatPlugin.shutdown();
  chromeHandle?.destruct();
  chromeHandle = null;
}

function uninstall() {}
