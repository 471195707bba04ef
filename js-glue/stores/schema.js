// The one SQL schema shared by SqliteStore (better-sqlite3) and ZoteroDBStore (Zotero.DBConnection).
//
// Every statement is a single line that starts with its verb followed by a space, because
// Zotero's queryAsync decides whether to return rows from the first word of the text
// (a leading space, a newline after SELECT or a WITH query returns nothing). No statement
// binds more than a handful of parameters (Zotero and older SQLite builds allow 999).
// Every name is under the app's table prefix ('' by default), so the store can share a database
// with the app's own tables (docs/stores.md, "The app's tables and transactions").

import { storeError } from './nodes.js';

/**
 * Written to PRAGMA user_version (with a table prefix: the prefix's schema_version row) once the tables exist. 1: sessions and nodes; 2: session title and
 * app key; 3: session generation.
 * @type {number}
 */
export const SCHEMA_VERSION = 3;

/** Zotero.DBConnection.MAX_BOUND_PARAMETERS; the largest statement here binds 10. */
export const MAX_BOUND_PARAMETERS = 999;

/** What a table prefix may be: a plain SQL identifier start, so it is written into the SQL as is. */
const TABLE_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Longer prefixes are refused: a prefix names the app, it is not a place for data. */
export const MAX_TABLE_PREFIX_LENGTH = 32;

/**
 * The app's table prefix as given to a store's options: '' (the default, no prefix) or a short
 * identifier; anything else is `invalid-options`, before the store touches the database.
 * @param {string} where @param {unknown} value
 * @returns {string}
 */
export function tablePrefixOption(where, value) {
  if (value === undefined || value === '') return '';
  // SQLite reserves names starting with sqlite_ for itself: CREATE TABLE would fail later.
  if (typeof value !== 'string' || !TABLE_PREFIX.test(value) || value.length > MAX_TABLE_PREFIX_LENGTH || /^sqlite_/i.test(value)) {
    throw storeError('invalid-options', `${where}: tablePrefix must be letters, digits and _ (not starting with a digit or sqlite_), at most ${MAX_TABLE_PREFIX_LENGTH} characters; got ${typeof value === 'string' ? JSON.stringify(value) : typeof value}`, { field: 'tablePrefix' });
  }
  return value;
}

/** @param {string} p the table prefix @returns {string[]} */
function sessionIndexes(p) {
  return [
    // getOrCreateSession: one session per app key (NULLs are distinct in a UNIQUE index).
    `CREATE UNIQUE INDEX IF NOT EXISTS ${p}sessions_by_app_key ON ${p}sessions (app_key)`,
    // The forks of a session (an update of a shared node bumps their revisions).
    `CREATE INDEX IF NOT EXISTS ${p}sessions_by_base ON ${p}sessions (base_session_id)`,
  ];
}

/**
 * Tables and indexes of a new file, one statement per entry (Zotero runs one statement per call),
 * every name under the app's table prefix. Nodes are append-only: the only UPDATE of a node is a
 * tool result arriving (updateMessageParts); nodes are deleted only with their session
 * (deleteSession). A forked session stores no copies: base_session_id/base_node_id name the node
 * chain it continues, and load() prepends that chain (see SessionStoreBase#fork).
 * With a prefix the schema version is a row of `<prefix>schema_version` (PRAGMA user_version is the
 * file's, which the app or Zotero may use); without one it stays PRAGMA user_version, as before.
 * @param {string} [tablePrefix] '' (default) or the prefix the store was given
 * @returns {string[]}
 */
export function sessionSchemaStatements(tablePrefix = '') {
  const p = tablePrefixOption('sessionSchemaStatements', tablePrefix);
  return [
    ...(p ? [`CREATE TABLE IF NOT EXISTS ${p}schema_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)`] : []),
    `CREATE TABLE IF NOT EXISTS ${p}sessions (id TEXT PRIMARY KEY, leaf_id TEXT, branch_revision INTEGER NOT NULL DEFAULT 0, base_session_id TEXT, base_node_id TEXT, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, title TEXT, app_key TEXT, generation TEXT)`,
    `CREATE TABLE IF NOT EXISTS ${p}nodes (session_id TEXT NOT NULL REFERENCES ${p}sessions(id), id TEXT NOT NULL, parent_id TEXT, kind TEXT NOT NULL CHECK (kind IN ('message', 'checkpoint')), json TEXT NOT NULL, created_at INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (session_id, id))`,
    // Loading a session in insertion order.
    `CREATE UNIQUE INDEX IF NOT EXISTS ${p}nodes_by_seq ON ${p}nodes (session_id, seq)`,
    // Walking parents and finding children (retry/edit siblings).
    `CREATE INDEX IF NOT EXISTS ${p}nodes_by_parent ON ${p}nodes (session_id, parent_id)`,
    ...sessionIndexes(p),
  ];
}

/** The statements of a file without a prefix (the export SESSION_SCHEMA_STATEMENTS). @type {readonly string[]} */
export const SCHEMA_STATEMENTS = Object.freeze(sessionSchemaStatements(''));

/**
 * Statements that take a file from schema version `key` to `key + 1`. Only files without a prefix
 * have older versions (the prefix came with version 3).
 * @param {string} p
 * @returns {Record<number, string[]>}
 */
function migrations(p) {
  return {
    1: [`ALTER TABLE ${p}sessions ADD COLUMN title TEXT`, `ALTER TABLE ${p}sessions ADD COLUMN app_key TEXT`, ...sessionIndexes(p)],
    // A random value per created session row: a session deleted and created again under its id is
    // another generation, which a held index compares (rows of older versions keep NULL).
    2: [`ALTER TABLE ${p}sessions ADD COLUMN generation TEXT`],
  };
}

/**
 * The statements that bring a file at `version` to SCHEMA_VERSION (0: a new file).
 * @param {number} version
 * @param {string} [tablePrefix]
 * @returns {string[]}
 */
export function schemaSteps(version, tablePrefix = '') {
  if (version === 0) return sessionSchemaStatements(tablePrefix);
  const steps = [];
  const byVersion = migrations(tablePrefix);
  for (let v = version; v < SCHEMA_VERSION; v++) {
    const migration = byVersion[v];
    if (!migration) throw new Error(`no migration from session schema ${v}`);
    steps.push(...migration);
  }
  return steps;
}

const SESSION_COLUMNS = 'id, leaf_id, branch_revision, base_session_id, base_node_id, created_at, updated_at, title, app_key, generation';

/**
 * Named statements under a table prefix; positional `?` parameters in the order given in each
 * comment. The prefix is checked (tablePrefixOption) before it is written into the SQL.
 * @param {string} p
 */
function statements(p) {
  return Object.freeze({
    // The schema version: PRAGMA user_version without a prefix, the prefix's own row with one.
    // (): 1 when the version row's table exists (null without a prefix: the pragma always answers)
    versionTableExists: p ? `SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = '${p}schema_version'` : null,
    userVersion: p ? `SELECT version FROM ${p}schema_version WHERE id = 1` : 'PRAGMA user_version',
    setUserVersion: p ? `INSERT OR REPLACE INTO ${p}schema_version (id, version) VALUES (1, ${SCHEMA_VERSION})` : `PRAGMA user_version = ${SCHEMA_VERSION}`,
    // (id)
    selectSession: `SELECT ${SESSION_COLUMNS} FROM ${p}sessions WHERE id = ?`,
    // (app_key)
    selectSessionByAppKey: `SELECT ${SESSION_COLUMNS} FROM ${p}sessions WHERE app_key = ?`,
    // ()
    selectSessions: `SELECT ${SESSION_COLUMNS} FROM ${p}sessions ORDER BY updated_at DESC, id`,
    // (base_session_id)
    selectForks: `SELECT ${SESSION_COLUMNS} FROM ${p}sessions WHERE base_session_id = ? ORDER BY id`,
    // (session_id)
    selectNodes: `SELECT json FROM ${p}nodes WHERE session_id = ? ORDER BY seq`,
    // (session_id, seq): the rows appended after `seq`, for a store-held index catching up
    selectNodeRowsAfter: `SELECT seq, id, parent_id, json FROM ${p}nodes WHERE session_id = ? AND seq > ? ORDER BY seq`,
    // (session_id, seq, limit): a page of them (a large session's first read, in slices)
    selectNodeRowsPage: `SELECT seq, id, parent_id, json FROM ${p}nodes WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
    // (): changes when another connection committed to the file (the store-held indexes check it)
    dataVersion: 'PRAGMA data_version',
    // (): rows this connection changed since it opened (the store's own writes are taken into the indexes)
    totalChanges: 'SELECT total_changes() AS changes',
    // (session_id, id)
    selectNode: `SELECT id, parent_id, kind, json FROM ${p}nodes WHERE session_id = ? AND id = ?`,
    // (session_id)
    selectMaxSeq: `SELECT COALESCE(MAX(seq), 0) AS max_seq FROM ${p}nodes WHERE session_id = ?`,
    // (id, leaf_id, branch_revision, base_session_id, base_node_id, created_at, updated_at, title, app_key, generation)
    insertSession: `INSERT INTO ${p}sessions (${SESSION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    // (session_id, id, parent_id, kind, json, created_at, seq)
    insertNode: `INSERT INTO ${p}nodes (session_id, id, parent_id, kind, json, created_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    // (leaf_id, branch_revision, updated_at, id)
    updateHead: `UPDATE ${p}sessions SET leaf_id = ?, branch_revision = ?, updated_at = ? WHERE id = ?`,
    // (title, app_key, updated_at, id)
    updateInfo: `UPDATE ${p}sessions SET title = ?, app_key = ?, updated_at = ? WHERE id = ?`,
    // (json, session_id, id)
    updateNodeJson: `UPDATE ${p}nodes SET json = ? WHERE session_id = ? AND id = ?`,
    // (session_id)
    deleteNodes: `DELETE FROM ${p}nodes WHERE session_id = ?`,
    // (id)
    deleteSession: `DELETE FROM ${p}sessions WHERE id = ?`,
  });
}

/** @typedef {ReturnType<typeof statements>} SessionSql */

/** @type {Map<string, SessionSql>} */
const SQL_BY_PREFIX = new Map();

/**
 * The store's statements under a (checked) table prefix, built once per prefix.
 * @param {string} tablePrefix
 * @returns {SessionSql}
 */
export function sqlFor(tablePrefix) {
  let sql = SQL_BY_PREFIX.get(tablePrefix);
  if (!sql) SQL_BY_PREFIX.set(tablePrefix, (sql = statements(tablePrefixOption('sqlFor', tablePrefix))));
  return sql;
}

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
