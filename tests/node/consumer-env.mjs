// Where ./build.sh test put things. The tests run from a copy of tests/ inside the throwaway
// consumer folder, so `import 'bibgenie-compaction'` resolves to the installed tarball.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run these tests through ./build.sh test`);
  return value;
}

export const repoRoot = required('BIBGENIE_REPO_ROOT');
export const consumerDir = required('BIBGENIE_CONSUMER_DIR');
export const tarball = () => required('BIBGENIE_TARBALL');

const requireFromConsumer = createRequire(join(consumerDir, 'package.json'));

/** Absolute path of a file of the installed package, through its `exports`. */
export const resolveInstalled = (specifier) => requireFromConsumer.resolve(specifier);

/** The bytes of the installed .wasm, as a plugin would load them. */
export const installedWasmBytes = () => readFileSync(resolveInstalled('bibgenie-compaction/wasm'));

/** The crate version in Cargo.toml, which `version()` must report. */
export function crateVersion() {
  const match = readFileSync(join(repoRoot, 'Cargo.toml'), 'utf8').match(/^version\s*=\s*"([^"]+)"/m);
  if (!match) throw new Error('no version in Cargo.toml');
  return match[1];
}
