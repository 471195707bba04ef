// The one SQL schema shared by SqliteStore (better-sqlite3) and ZoteroDBStore (Zotero.DBConnection).
//
// Every statement is a single line that starts with its verb followed by a space, because
// Zotero's queryAsync decides whether to return rows from the first word of the text
// (a leading space, a newline after SELECT or a WITH query returns nothing). No statement
// binds more than a handful of parameters (Zotero and older SQLite builds allow 999).

/** Written to PRAGMA user_version once the tables exist. */
export const SCHEMA_VERSION = 1;

/** Zotero.DBConnection.MAX_BOUND_PARAMETERS; the largest statement here binds 7. */
export const MAX_BOUND_PARAMETERS = 999;

/**
 * Tables and indexes, one statement per entry (Zotero runs one statement per call).
 * Nodes are append-only: the only UPDATE of a node is a tool result arriving
 * (updateMessageParts); no statement ever deletes a node.
 * A forked session stores no copies: base_session_id/base_node_id name the node chain it
 * continues, and load() prepends that chain (see SessionStoreBase#fork).
 */
export const SCHEMA_STATEMENTS = Object.freeze([
  'CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, leaf_id TEXT, branch_revision INTEGER NOT NULL DEFAULT 0, base_session_id TEXT, base_node_id TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL)',
  "CREATE TABLE IF NOT EXISTS nodes (session_id TEXT NOT NULL REFERENCES sessions(id), id TEXT NOT NULL, parent_id TEXT, kind TEXT NOT NULL CHECK (kind IN ('message', 'checkpoint')), json TEXT NOT NULL, created_at INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (session_id, id))",
  // Loading a session in insertion order.
  'CREATE UNIQUE INDEX IF NOT EXISTS nodes_by_seq ON nodes (session_id, seq)',
  // Walking parents and finding children (retry/edit siblings).
  'CREATE INDEX IF NOT EXISTS nodes_by_parent ON nodes (session_id, parent_id)',
]);

/** Named statements; positional `?` parameters in the order given in each comment. */
export const SQL = Object.freeze({
  userVersion: 'PRAGMA user_version',
  setUserVersion: `PRAGMA user_version = ${SCHEMA_VERSION}`,
  // (id)
  selectSession: 'SELECT id, leaf_id, branch_revision, base_session_id, base_node_id, created_at, updated_at FROM sessions WHERE id = ?',
  // ()
  selectSessionIds: 'SELECT id FROM sessions ORDER BY updated_at DESC, id',
  // (session_id)
  selectNodes: 'SELECT json FROM nodes WHERE session_id = ? ORDER BY seq',
  // (session_id, id)
  selectNode: 'SELECT id, parent_id, kind, json FROM nodes WHERE session_id = ? AND id = ?',
  // (session_id)
  selectMaxSeq: 'SELECT COALESCE(MAX(seq), 0) AS max_seq FROM nodes WHERE session_id = ?',
  // (id, leaf_id, branch_revision, base_session_id, base_node_id, created_at, updated_at)
  insertSession: 'INSERT INTO sessions (id, leaf_id, branch_revision, base_session_id, base_node_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
  // (session_id, id, parent_id, kind, json, created_at, seq)
  insertNode: 'INSERT INTO nodes (session_id, id, parent_id, kind, json, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
  // (leaf_id, branch_revision, updated_at, id)
  updateHead: 'UPDATE sessions SET leaf_id = ?, branch_revision = ?, updated_at = ? WHERE id = ?',
  // (json, session_id, id)
  updateNodeJson: 'UPDATE nodes SET json = ? WHERE session_id = ? AND id = ?',
});
