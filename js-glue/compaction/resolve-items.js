// The app's `resolveItem` option: its numeric item ids (`itemId`, `itemID`, `contextItemId` in tool
// results) turned into `{ libraryID, key }` for the ledger and the cited pages. The core lists the ids
// of the range being folded (`SummaryRequest.itemIds`, unique, bounded); the runner asks here, then
// builds the request again with the answers. The wasm stays pure: nothing in it awaits the app.
import { codedError } from '../util/coded-error.js';

/**
 * @import { ResolvedItem } from '../bibgenie_compaction.js'
 */
/**
 * The app's resolver: an item's library and key from its numeric id, or null when unknown. A throw or
 * a rejection leaves that id unresolved; it never fails the compaction.
 * @typedef {(itemID: number) => ResolvedItem | null | undefined | Promise<ResolvedItem | null | undefined>} ResolveItem
 */

/**
 * The option checked where it enters (`compact()` and the controller): a function, or absent.
 * @param {unknown} value @param {string} where @returns {ResolveItem | null}
 */
export function checkResolveItem(value, where) {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'function') throw codedError('invalid-options', `${where}: resolveItem must be a function (itemID) => ({ libraryID, key } | null)`);
  return /** @type {ResolveItem} */ (value);
}

/**
 * `{ [id]: { libraryID, key } }` of the ids the resolver answered with a usable item; every id asked
 * once, all at a time, each failure that id's alone. `wait` stops waiting (the run's signal): the ids
 * not answered by then stay unresolved.
 * @param {ResolveItem} resolveItem @param {number[]} ids
 * @param {(promise: Promise<unknown>) => Promise<{ value: unknown } | { stopped: true }>} wait
 * @returns {Promise<Record<string, ResolvedItem>>}
 */
export async function resolveItems(resolveItem, ids, wait) {
  const unique = [...new Set(ids)];
  const answers = await wait(Promise.all(unique.map((id) => answerOf(resolveItem, id))));
  /** @type {Record<string, ResolvedItem>} */
  const items = {};
  if (!('value' in answers)) return items;
  /** @type {unknown[]} */ (answers.value).forEach((answer, at) => {
    const item = usable(answer);
    if (item !== null) items[String(unique[at])] = item;
  });
  return items;
}

/** What the resolver answered for `id`, or null when it threw or rejected. @param {ResolveItem} resolveItem @param {number} id */
async function answerOf(resolveItem, id) {
  try {
    return await resolveItem.call(undefined, id);
  } catch {
    return null;
  }
}

/** A plain `{ libraryID, key }` of an answer, or null (the core checks that the key is a Zotero key). @param {unknown} answer */
function usable(answer) {
  if (typeof answer !== 'object' || answer === null) return null;
  try {
    const { libraryID, key } = /** @type {any} */ (answer);
    return Number.isSafeInteger(libraryID) && libraryID >= 0 && typeof key === 'string' ? { libraryID, key } : null;
  } catch {
    return null;
  }
}
