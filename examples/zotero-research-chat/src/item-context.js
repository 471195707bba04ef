// What the model is told about the selected item, read at each turn through Zotero's item API: its
// metadata, its notes, and its attachments' full text as Zotero indexed it, cut to a budget that is
// a share of the model's context window. The transport sends it as the system prompt and counts it
// as the request's overhead, so a chat that would overflow with it compacts first.

/** The share of the context window the item may take. */
export const ITEM_SHARE = 0.25;
/** Characters per token assumed for the cut (on the safe side for English and code). */
const CHARS_PER_TOKEN = 3;

const FIELDS = [
  ["title", "Title"], ["date", "Date"], ["publicationTitle", "Publication"], ["bookTitle", "Book"],
  ["publisher", "Publisher"], ["DOI", "DOI"], ["ISBN", "ISBN"], ["url", "URL"], ["abstractNote", "Abstract"],
];

/**
 * The item as text for the system prompt, at most `contextWindow * ITEM_SHARE` tokens (estimated).
 * @param {Zotero.Item} item @param {{ contextWindow: number }} model
 */
export async function itemContext(item, { contextWindow }) {
  let left = Math.floor(contextWindow * ITEM_SHARE * CHARS_PER_TOKEN);
  const sections = [];
  const add = (heading, text) => {
    if (!text || left <= heading.length) return;
    const room = left - heading.length - 1;
    const kept = text.length <= room ? text : `${text.slice(0, room)}\n[… cut: ${room} of ${text.length} characters]`;
    sections.push(`${heading}\n${kept}`);
    left -= heading.length + 1 + kept.length;
  };
  add(`## The selected item (Zotero key ${item.key}, library ${item.libraryID})`, metadataOf(item));
  for (const note of itemsOf(item.getNotes?.())) add("## A note of the item", plainText(note.getNote?.() ?? ""));
  for (const attachment of itemsOf(item.getAttachments?.())) {
    const title = attachment.getField?.("title") || attachment.attachmentFilename || "attachment";
    add(`## Full text of the attachment "${title}" (as Zotero indexed it)`, await indexedText(attachment));
  }
  return sections.join("\n\n");
}

function metadataOf(item) {
  const lines = [`Type: ${item.itemType ?? "item"}`];
  const creators = item.getCreators?.() ?? [];
  if (creators.length) {
    lines.push(`Creators: ${creators.map((c) => (c.name ?? [c.lastName, c.firstName].filter(Boolean).join(", ")) + (c.creatorType && c.creatorType !== "author" ? ` (${c.creatorType})` : "")).join("; ")}`);
  }
  for (const [field, label] of FIELDS) {
    let value = "";
    try {
      value = item.getField(field) || "";
    } catch {
      // a field this item type does not have
    }
    if (value) lines.push(`${label}: ${value}`);
  }
  const tags = (item.getTags?.() ?? []).map((t) => t.tag).filter(Boolean);
  if (tags.length) lines.push(`Tags: ${tags.join(", ")}`);
  return lines.join("\n");
}

function itemsOf(ids) {
  return (ids ?? []).map((id) => Zotero.Items.get(id)).filter(Boolean);
}

/**
 * An attachment's text as Zotero indexed it: the .zotero-ft-cache file its indexer wrote (PDF,
 * EPUB); a text or HTML attachment has none and is read from its file (attachmentText). Nothing is
 * extracted here: an unindexed PDF gives no text.
 */
async function indexedText(attachment) {
  try {
    const cache = Zotero.Fulltext.getItemCacheFile(attachment);
    if (cache?.exists()) return String(await Zotero.File.getContentsAsync(cache)).trim();
  } catch {
    // no cache file for this attachment
  }
  const type = attachment.attachmentContentType ?? "";
  if (type === "text/plain" || type === "text/html") return String((await attachment.attachmentText) ?? "").trim();
  return "";
}

/** A note's HTML as plain text. */
function plainText(html) {
  const text = String(html).replace(/<(br|\/p|\/div|\/li|\/h\d)\s*\/?>/gi, "\n").replace(/<[^>]*>/g, "");
  const decoded = Zotero.Utilities?.unescapeHTML ? Zotero.Utilities.unescapeHTML(text) : text;
  return decoded.replace(/\n{3,}/g, "\n\n").trim();
}
