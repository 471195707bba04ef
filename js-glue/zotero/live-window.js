// Whether a Zotero main window can still be used: the loader's window stand-ins and the chat
// transport ask the same question.

/** The window if it is open and alive, else null (a closed window's objects throw when read). @param {unknown} win */
export function liveWindow(win) {
  if (!win) return null;
  try {
    // A closed window's objects are dead to other compartments: reading through them throws.
    return /** @type {{ closed?: unknown }} */ (win).closed === true ? null : win;
  } catch {
    return null;
  }
}
