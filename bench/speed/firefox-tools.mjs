// What the benches that drive headless Firefox share (firefox.mjs: a page; main-thread-zotero.mjs:
// the Zotero plugin scope): the repository, the package under test, the binaries, and the test tools
// (esbuild, selenium-webdriver), which live in tests/node_modules.
// BIBGENIE_PKG_DIR: the package (default pkg/); BIBGENIE_FIREFOX, BIBGENIE_GECKODRIVER: the binaries.
import os from 'node:os';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const pkgDir = process.env.BIBGENIE_PKG_DIR ?? join(ROOT, 'pkg');
export const firefoxBin = process.env.BIBGENIE_FIREFOX ?? '/usr/bin/firefox-esr';
export const geckodriverBin = process.env.BIBGENIE_GECKODRIVER ?? join(os.homedir(), '.cargo/bin/geckodriver');
const requireTool = createRequire(join(ROOT, 'tests/package.json'));
export const esbuild = requireTool('esbuild');
export const { Builder } = requireTool('selenium-webdriver');
export const firefox = requireTool('selenium-webdriver/firefox');
