// The contract's declarations into the package: the TypeScript src/contract.rs writes from the Rust
// types (ts-rs, one line per declaration) printed as readable TypeScript into pkg/contract.d.ts, and
// the name list of the wasm module's re-export filled in (src/bindings/types.rs: `CONTRACT_NAMES`).
//   node build/contract.mjs <generated.ts> pkg/contract.d.ts pkg/bibgenie_compaction.d.ts
// Fails the build when the placeholder is not there exactly once.
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';

const [generated, contractFile, dtsFile] = process.argv.slice(2);
if (!generated || !contractFile || !dtsFile) {
  throw new Error('usage: node build/contract.mjs <generated.ts> <contract.d.ts> <bibgenie_compaction.d.ts>');
}

const source = ts.createSourceFile('contract.d.ts', readFileSync(generated, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
// The printer keeps the doc comments; a blank line between declarations reads better.
const text = printer.printFile(source).replace(/;\n(\/\*\*|export )/g, ';\n\n$1');
writeFileSync(contractFile, text);

const names = source.statements
  .filter((s) => (ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) && s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword))
  .map((s) => s.name.text);
const dts = readFileSync(dtsFile, 'utf8');
const placeholder = /\bCONTRACT_NAMES\b/g;
const found = dts.match(placeholder) ?? [];
if (found.length !== 1) throw new Error(`${dtsFile}: expected CONTRACT_NAMES once (src/bindings/types.rs), found ${found.length}`);
writeFileSync(dtsFile, dts.replace(placeholder, names.join(', ')));
console.log(`==> contract.d.ts: ${names.length} declarations from the Rust types`);
