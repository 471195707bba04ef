// Defaults of the plugin's prefs (Zotero reads this file at startup). The API key is empty until
// the user pastes it in the preferences pane; it is stored in Zotero's prefs and never logged.
pref("extensions.research-chat.apiKey", "");
pref("extensions.research-chat.model", "openai/gpt-4.1-mini");
pref("extensions.research-chat.contextWindow", 128000);
