// Imported first by index.js (esbuild evaluates imports in order): the AI SDK's code uses web
// streams, AbortController and structuredClone bare, and Zotero's plugin scope has none of them.
// They come from the CURRENT main window at each use, so the chat survives its window closing and
// another opening; with no window open a turn fails with code `no-main-window` instead of hanging.
import { installWindowGlobals } from "bibgenie-compaction/slim";

export const windowGlobals = installWindowGlobals(globalThis, () => Zotero.getMainWindow());
