// Run by build.sh (stage types) after tsc: the names each installed entry really exports must be
// the names consumer.ts lists for it. tsc already proved that the list equals the declared exports,
// so together: every runtime export is declared, and nothing is declared that does not exist.
// Usage: node types-exports.mjs <consumer.ts>   (cwd: a folder where 'bibgenie-compaction' resolves)
import { readFileSync } from 'node:fs';

const [consumerFile] = process.argv.slice(2);
if (!consumerFile) throw new Error('usage: node types-exports.mjs <consumer.ts>');
const source = readFileSync(consumerFile, 'utf8');

/** The `name` or `name: value` keys between "// exports of '<entry>':" and its end marker. */
function listedNames(entry) {
  const start = source.indexOf(`// exports of '${entry}':`);
  const end = source.indexOf(`// end of exports of '${entry}'`);
  if (start < 0 || end < start) throw new Error(`consumer.ts has no export list for '${entry}'`);
  const names = [...source.slice(start, end).matchAll(/^\s+([A-Za-z_$][\w$]*)\s*[:,]/gm)].map((m) => m[1]);
  return new Set(names);
}

let failed = false;
for (const entry of ['bibgenie-compaction', 'bibgenie-compaction/slim']) {
  const runtime = new Set(Object.keys(await import(entry)));
  const listed = listedNames(entry);
  const undeclared = [...runtime].filter((name) => !listed.has(name)).sort();
  const missing = [...listed].filter((name) => !runtime.has(name)).sort();
  if (undeclared.length) console.error(`${entry}: exported at runtime but not in consumer.ts (declare and use it): ${undeclared.join(', ')}`);
  if (missing.length) console.error(`${entry}: declared but not exported at runtime: ${missing.join(', ')}`);
  if (undeclared.length || missing.length) failed = true;
  else console.log(`${entry}: ${runtime.size} runtime exports, each declared and used by consumer.ts`);
}
if (failed) process.exit(1);
