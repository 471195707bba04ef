// `ai` is an optional peer: the package's declarations name the AI SDK's types only through
// ai-types.d.ts, which falls back to the package's own shapes when `ai` is not installed. tsc
// writes a template's default (`[UI_MESSAGE=UIMessage]`) as the type it resolved to,
// `import("ai").UIMessage<…>`: that is put back to ai-types.js's UIMessage, and any other use of
// `ai` left in a declaration fails the build.
// Usage: node build/ai-optional.mjs <pkg dir>
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const [pkgDir] = process.argv.slice(2);
const walk = (dir) => readdirSync(dir, { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? (e.name === 'node_modules' ? [] : walk(join(dir, e.name))) : [join(dir, e.name)]));
const RESOLVED_DEFAULT = 'import("ai").UIMessage<unknown, import("ai").UIDataTypes, import("ai").UITools>';
const AI_USE = /import\("ai"\)|from ['"]ai['"]/;
const left = [];
for (const file of walk(pkgDir).filter((f) => f.endsWith('.d.ts') && !f.endsWith('ai-types.d.ts'))) {
  const text = readFileSync(file, 'utf8');
  let rel = relative(dirname(file), join(pkgDir, 'ai-types.js'));
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const fixed = text.split(RESOLVED_DEFAULT).join(`import("${rel}").UIMessage`);
  if (fixed !== text) writeFileSync(file, fixed);
  // Comments may name 'ai' (how to call generateText); declarations may not.
  fixed.split('\n').forEach((line, i) => {
    if (AI_USE.test(line) && !/^\s*(\*|\/\/)/.test(line)) left.push(`${relative(pkgDir, file)}:${i + 1}: ${line.trim()}`);
  });
}
if (left.length) {
  console.error(`declarations that need \`ai\` installed (name the type through ai-types.d.ts):\n  ${left.join('\n  ')}`);
  process.exit(1);
}
