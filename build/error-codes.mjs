// The TypeScript `ErrorCode` union, written from the Rust codes: build.sh runs it on the shipped
// declarations right after wasm-bindgen, so the codes are written once (src/error.rs).
//   node build/error-codes.mjs src/error.rs pkg/contract.d.ts
// Reads `pub enum ErrorCode { ... }` and the `ErrorCode::X => "code"` arms of its `as_str`, and
// replaces the right-hand side of `export type ErrorCode = ...;` (declared in src/contract.rs)
// with the union of those strings. Fails the build when a variant has no string or two, when two
// variants share one, or when the declaration is not there exactly once.
import { readFileSync, writeFileSync } from 'node:fs';

const [rustFile, dtsFile] = process.argv.slice(2);
if (!rustFile || !dtsFile) throw new Error("usage: node build/error-codes.mjs <error.rs> <contract.d.ts>");

/** The codes of `rust` in the enum's order: the string each variant's `as_str` arm returns. */
function errorCodes(rust, where = 'error.rs') {
  const body = rust.match(/pub enum ErrorCode\s*\{([^}]*)\}/);
  if (!body) throw new Error(`${where}: no \`pub enum ErrorCode { ... }\``);
  const variants = body[1]
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter((line) => line !== '' && !line.startsWith('#['))
    .map((line) => line.replace(/,$/, ''));
  const arms = new Map();
  for (const [, variant, code] of rust.matchAll(/ErrorCode::(\w+)\s*=>\s*"([^"]*)"/g)) {
    if (arms.has(variant)) throw new Error(`${where}: ErrorCode::${variant} has two strings`);
    arms.set(variant, code);
  }
  const codes = variants.map((variant) => {
    if (!/^[A-Z]\w*$/.test(variant)) throw new Error(`${where}: cannot read the ErrorCode variant ${JSON.stringify(variant)}`);
    const code = arms.get(variant);
    if (code === undefined) throw new Error(`${where}: ErrorCode::${variant} has no string in as_str`);
    if (!/^[a-z]+(-[a-z]+)*$/.test(code)) throw new Error(`${where}: ErrorCode::${variant} is ${JSON.stringify(code)}, not a kebab-case code`);
    return code;
  });
  const stray = [...arms.keys()].filter((variant) => !variants.includes(variant));
  if (stray.length) throw new Error(`${where}: as_str names ${stray.join(', ')}, not variants of ErrorCode`);
  const twice = codes.filter((code, i) => codes.indexOf(code) !== i);
  if (twice.length) throw new Error(`${where}: two variants share the code ${twice.join(', ')}`);
  return codes;
}

/** `export type ErrorCode =` and the union, wrapped as the hand-written declarations are. */
function union(codes) {
  const lines = [];
  let line = ' ';
  for (const code of codes) {
    const term = ` | '${code}'`;
    if (line.length + term.length > 100) {
      lines.push(line);
      line = ' ';
    }
    line += term;
  }
  lines.push(line);
  return `export type ErrorCode =\n${lines.join('\n')};`;
}

const codes = errorCodes(readFileSync(rustFile, 'utf8'), rustFile);
const dts = readFileSync(dtsFile, 'utf8');
const declaration = /export type ErrorCode =[^;]*;/g;
const found = dts.match(declaration) ?? [];
if (found.length !== 1) throw new Error(`${dtsFile}: expected 1 \`export type ErrorCode = ...;\`, found ${found.length}`);
writeFileSync(dtsFile, dts.replace(declaration, union(codes)));
console.log(`==> ErrorCode: ${codes.length} codes from ${rustFile} into ${dtsFile}`);
