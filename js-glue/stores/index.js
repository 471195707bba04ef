// The session stores, re-exported by the package entries (`export * from './stores/index.js'`).
export { SessionStoreBase } from './base.js';
export { sessionFromMessages } from './linear-import.js';
export { isCheckpoint } from './nodes.js';
export { MemoryStore } from './memory-store.js';
export { SqliteStore } from './sqlite-store.js';
export { ZoteroDBStore } from './zotero-db-store.js';
export { SCHEMA_VERSION as SESSION_SCHEMA_VERSION, SCHEMA_STATEMENTS as SESSION_SCHEMA_STATEMENTS, sessionSchemaStatements } from './schema.js';
