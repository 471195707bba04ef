// The one SQL schema shared by SqliteStore (better-sqlite3) and ZoteroDBStore (Zotero.DBConnection).
//
// Every statement is a single line that starts with its verb followed by a space, because
// Zotero's queryAsync decides whether to return rows from the first word of the text
// (a leading space, a newline after SELECT or a WITH query returns nothing). No statement
// binds more than a handful of parameters (Zotero and older SQLite builds allow 999).

/**
 * Written to PRAGMA user_version once the tables exist. 1: sessions and nodes; 2: session title and
 * app key; 3: session generation.
 * @type {number}
 */
export const SCHEMA_VERSION = 3;

/** Zotero.DBConnection.MAX_BOUND_PARAMETERS; the largest statement here binds 10. */
export const MAX_BOUND_PARAMETERS = 999;

const SESSION_INDEXES = [
  // getOrCreateSession: one session per app key (NULLs are distinct in a UNIQUE index).
  'CREATE UNIQUE INDEX IF NOT EXISTS sessions_by_app_key ON sessions (app_key)',
  // The forks of a session (an update of a shared node bumps their revisions).
  'CREATE INDEX IF NOT EXISTS sessions_by_base ON sessions (base_session_id)',
];

/**
 * Tables and indexes of a new file, one statement per entry (Zotero runs one statement per call).
 * Nodes are append-only: the only UPDATE of a node is a tool result arriving
 * (updateMessageParts); nodes are deleted only with their session (deleteSession).
 * A forked session stores no copies: base_session_id/base_node_id name the node chain it
 * continues, and load() prepends that chain (see SessionStoreBase#fork).
 * @type {readonly string[]}
 */
export const SCHEMA_STATEMENTS = Object.freeze([
  'CREATE TABLE IF NOT EXISTS sessions (id TEXT PRIMARY KEY, leaf_id TEXT, branch_revision INTEGER NOT NULL DEFAULT 0, base_session_id TEXT, base_node_id TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, title TEXT, app_key TEXT, generation TEXT)',
  "CREATE TABLE IF NOT EXISTS nodes (session_id TEXT NOT NULL REFERENCES sessions(id), id TEXT NOT NULL, parent_id TEXT, kind TEXT NOT NULL CHECK (kind IN ('message', 'checkpoint')), json TEXT NOT NULL, created_at INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (session_id, id))",
  // Loading a session in insertion order.
  'CREATE UNIQUE INDEX IF NOT EXISTS nodes_by_seq ON nodes (session_id, seq)',
  // Walking parents and finding children (retry/edit siblings).
  'CREATE INDEX IF NOT EXISTS nodes_by_parent ON nodes (session_id, parent_id)',
  ...SESSION_INDEXES,
]);

/** Statements that take a file from schema version `key` to `key + 1`. */
export const MIGRATIONS = Object.freeze({
  1: Object.freeze([
    'ALTER TABLE sessions ADD COLUMN title TEXT',
    'ALTER TABLE sessions ADD COLUMN app_key TEXT',
    ...SESSION_INDEXES,
  ]),
  // A random value per created session row: a session deleted and created again under its id is
  // another generation, which a held index compares (rows of older versions keep NULL).
  2: Object.freeze(['ALTER TABLE sessions ADD COLUMN generation TEXT']),
});

/**
 * The statements that bring a file at `version` to SCHEMA_VERSION (0: a new file).
 * @param {number} version
 * @returns {string[]}
 */
export function schemaSteps(version) {
  if (version === 0) return [...SCHEMA_STATEMENTS];
  const steps = [];
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const migration = /** @type {Record<number, readonly string[]>} */ (MIGRATIONS)[v];
    if (!migration) throw new Error(`no migration from session schema ${v}`);
    steps.push(...migration);
  }
  return steps;
}

const SESSION_COLUMNS = 'id, leaf_id, branch_revision, base_session_id, base_node_id, created_at, updated_at, title, app_key, generation';

/** Named statements; positional `?` parameters in the order given in each comment. */
export const SQL = Object.freeze({
  userVersion: 'PRAGMA user_version',
  setUserVersion: `PRAGMA user_version = ${SCHEMA_VERSION}`,
  // (id)
  selectSession: `SELECT ${SESSION_COLUMNS} FROM sessions WHERE id = ?`,
  // (app_key)
  selectSessionByAppKey: `SELECT ${SESSION_COLUMNS} FROM sessions WHERE app_key = ?`,
  // ()
  selectSessions: `SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY updated_at DESC, id`,
  // (base_session_id)
  selectForks: `SELECT ${SESSION_COLUMNS} FROM sessions WHERE base_session_id = ? ORDER BY id`,
  // (session_id)
  selectNodes: 'SELECT json FROM nodes WHERE session_id = ? ORDER BY seq',
  // (session_id, seq): the rows appended after `seq`, for a store-held index catching up
  selectNodeRowsAfter: 'SELECT seq, id, parent_id, json FROM nodes WHERE session_id = ? AND seq > ? ORDER BY seq',
  // (): changes when another connection committed to the file (the store-held indexes check it)
  dataVersion: 'PRAGMA data_version',
  // (session_id, id)
  selectNode: 'SELECT id, parent_id, kind, json FROM nodes WHERE session_id = ? AND id = ?',
  // (session_id)
  selectMaxSeq: 'SELECT COALESCE(MAX(seq), 0) AS max_seq FROM nodes WHERE session_id = ?',
  // (id, leaf_id, branch_revision, base_session_id, base_node_id, created_at, updated_at, title, app_key, generation)
  insertSession: `INSERT INTO sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  // (session_id, id, parent_id, kind, json, created_at, seq)
  insertNode: 'INSERT INTO nodes (session_id, id, parent_id, kind, json, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)',
  // (leaf_id, branch_revision, updated_at, id)
  updateHead: 'UPDATE sessions SET leaf_id = ?, branch_revision = ?, updated_at = ? WHERE id = ?',
  // (title, app_key, updated_at, id)
  updateInfo: 'UPDATE sessions SET title = ?, app_key = ?, updated_at = ? WHERE id = ?',
  // (json, session_id, id)
  updateNodeJson: 'UPDATE nodes SET json = ? WHERE session_id = ? AND id = ?',
  // (session_id)
  deleteNodes: 'DELETE FROM nodes WHERE session_id = ?',
  // (id)
  deleteSession: 'DELETE FROM sessions WHERE id = ?',
});

/**
 * A sessions row (column names as keys) as the store's SessionRow; numbers through Number()
 * because Zotero may hand back other numeric types.
 * @param {any} r
 * @returns {import('./store-core.js').SessionRow}
 */
export function sessionRow(r) {
  return {
    id: String(r.id),
    leafId: r.leaf_id ?? null,
    branchRevision: Number(r.branch_revision),
    baseSessionId: r.base_session_id ?? null,
    baseNodeId: r.base_node_id ?? null,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    title: r.title ?? null,
    appKey: r.app_key ?? null,
    generation: r.generation ?? null,
  };
}

/** @param {import('./store-core.js').SessionRow} row */
export function sessionParams(row) {
  return [row.id, row.leafId, row.branchRevision, row.baseSessionId, row.baseNodeId, row.createdAt, row.updatedAt, row.title, row.appKey, row.generation];
}
