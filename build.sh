#!/usr/bin/env bash
# The one entry point of bibgenie-compaction. Every subcommand first installs what it uses and is
# missing (`setup` installs everything), so a fresh machine needs nothing else. See
# docs/build-and-test.md for what each step does.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$ROOT"

CARGO_BIN="${CARGO_HOME:-$HOME/.cargo}/bin"
export PATH="$CARGO_BIN:$PATH"

FIREFOX_BIN=/usr/bin/firefox-esr
# Zotero 8's engine, Firefox ESR 140, unpacked beside the installed one (stages 6 and 7 run on both).
FIREFOX_140_DIR="${BIBGENIE_FIREFOX_140_DIR:-$HOME/.cache/bibgenie/firefox-esr-140}"
FIREFOX_140_BIN="$FIREFOX_140_DIR/usr/lib/firefox-esr/firefox-esr"
GECKODRIVER_BIN="$CARGO_BIN/geckodriver"
WASM_TARGET=wasm32-unknown-unknown
CRATE_FILE=bibgenie_compaction                  # the lib name: target/.../$CRATE_FILE.wasm
PKG="$ROOT/pkg"
WORK="$ROOT/.work"                              # scratch space, ignored by git
CONSUMER="$WORK/consumer"                       # throwaway project that installs the packed tarball
TEST_NODE_MODULES="$ROOT/tests/node_modules"
BUILD_NODE_MODULES="$ROOT/build/node_modules"  # binaryen's wasm-opt, the one npm tool of the build

usage() {
  cat <<'EOF'
usage: ./build.sh <command>

  setup   install everything that is missing: wasm32 target, wasm-bindgen-cli (the version pinned
          in Cargo.toml), the npm packages of build/ (binaryen), geckodriver, firefox-esr, the npm
          packages of tests/ and bench/; each other command installs only what it uses
  build   build the npm package into pkg/ and print the .wasm size
  test    [stage...] every stage, or only the named ones (native browser package types node
          firefox zotero; BIBGENIE_TESTS='word …' keeps the node test files named so): cargo test;
          every test target for wasm32 in headless Firefox (as wasm-pack test --headless --firefox);
          npm pack + tsc over a TypeScript consumer + Node consumer tests; the Zotero-style IIFE
          bundle in headless Firefox; the package in a Zotero plugin scope (Firefox chrome context,
          Sqlite.sys.mjs)
  check   the one-minute loop: a debug wasm build, the fast Node tests of tests/node against the
          sources (no npm pack; BIBGENIE_TESTS='word …' picks others), BIBGENIE_CHECK_CASES
          model-based cases (default 300); prints the time taken. CI runs `test`
  demo    build, pack, then run the demo (examples/demo/demo.mjs, `--json` for one JSON object)
          against the installed package on the sample session (tests/fixtures/sample-session.json)
  example build, then the example Zotero plugin (examples/zotero-research-chat) into
          .work/research-chat.xpi (esbuild and a zip writer in Node; stage 7 runs that build)
  bench   build, then run the benchmarks
  soak    [native|store-model] the long reliability run: the model-based property tests in
          release mode (BIBGENIE_SOAK_CASES cases, default 200,000), then the stores' model test
          on BIBGENIE_SOAK_SEEDS consecutive seeds (default 200) from BIBGENIE_SOAK_FIRST_SEED
  fuzz    [target...] run the cargo-fuzz targets of fuzz/ (nightly) for BIBGENIE_FUZZ_SECONDS each
          (default 60), or BIBGENIE_FUZZ_RUNS executions each, and print the executions per target
EOF
}

log() { printf '==> %s\n' "$*"; }
fail() { printf 'build.sh: %s\n' "$*" >&2; exit 1; }

# Runs a step and prints how long it took.
timed() {
  local label=$1 start=$SECONDS
  shift
  log "$label"
  "$@"
  log "$label: done in $((SECONDS - start))s"
}

# The exact wasm-bindgen version from Cargo.toml (`wasm-bindgen = "=X"` or `{ version = "=X" ... }`).
pinned_wasm_bindgen_version() {
  local line
  line=$(grep -E '^wasm-bindgen[[:space:]]*=' Cargo.toml | head -n 1) || true
  [[ $line =~ \"=([0-9]+\.[0-9]+\.[0-9]+)\" ]] || fail "Cargo.toml must pin wasm-bindgen exactly (\"=X.Y.Z\")"
  printf '%s\n' "${BASH_REMATCH[1]}"
}

crate_version() {
  sed -n 's/^version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' Cargo.toml | head -n 1
}

# ---------------------------------------------------------------------------------------------
# setup: idempotent, installs only what is missing

ensure_wasm_target() {
  if rustup target list --installed | grep -qx "$WASM_TARGET"; then
    log "rust target $WASM_TARGET: present"
  else
    timed "rustup target add $WASM_TARGET" rustup target add "$WASM_TARGET"
  fi
}

ensure_wasm_bindgen() {
  local want have=""
  want=$(pinned_wasm_bindgen_version)
  if command -v wasm-bindgen >/dev/null; then have=$(wasm-bindgen --version | awk '{print $2}'); fi
  if [[ $have == "$want" ]]; then
    log "wasm-bindgen-cli $want: present"
  else
    # No --locked: the CLI's lock file names versions this registry does not carry.
    timed "cargo install wasm-bindgen-cli $want (had: ${have:-none})" \
      cargo install wasm-bindgen-cli --version "$want" --force
  fi
}

# 0.36 added --allow-system-access, without which Marionette refuses the chrome context that
# tests/zotero-runtime needs ("System access is required").
GECKODRIVER_MIN=0.36.0

ensure_geckodriver() {
  local have=""
  [[ -x $GECKODRIVER_BIN ]] && have=$("$GECKODRIVER_BIN" --version | awk 'NR == 1 {print $2}')
  if [[ -n $have ]] && version_at_least "$have" "$GECKODRIVER_MIN"; then
    log "geckodriver $have: present"
  else
    timed "cargo install geckodriver >= $GECKODRIVER_MIN (had: ${have:-none})" install_geckodriver
  fi
}

install_geckodriver() {
  cargo install geckodriver --version ">=$GECKODRIVER_MIN" --locked --force ||
    cargo install geckodriver --version ">=$GECKODRIVER_MIN" --force
}

# version_at_least HAVE WANT: dotted versions compared field by field.
version_at_least() {
  [[ $(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1) == "$2" ]]
}

ensure_firefox() {
  if [[ -x $FIREFOX_BIN ]]; then
    log "firefox-esr: present"
  else
    timed "apt-get install firefox-esr" install_firefox
  fi
}

# Firefox ESR 140 (Zotero 8's) from the same Debian archive: the .deb downloaded and unpacked with
# dpkg -x (not installed: it would replace 153); it uses the libraries firefox-esr 153 pulled in.
ensure_firefox_140() {
  if [[ -x $FIREFOX_140_BIN ]]; then
    log "firefox-esr 140: present ($("$FIREFOX_140_BIN" --version 2>/dev/null | awk '{print $3}'))"
  else
    timed "apt-get download firefox-esr=140.* + dpkg -x into ${FIREFOX_140_DIR/#$HOME/\~}" install_firefox_140
  fi
}

install_firefox_140() {
  local tmp
  tmp=$(mktemp -d)
  (cd "$tmp" && apt-get download 'firefox-esr=140.*') || fail "apt-get download firefox-esr=140.* failed (is the Debian archive in the apt sources, and apt-get update run?)"
  rm -rf "$FIREFOX_140_DIR"
  mkdir -p "$FIREFOX_140_DIR"
  dpkg -x "$tmp"/firefox-esr_140.*.deb "$FIREFOX_140_DIR"
  rm -rf "$tmp"
  [[ -x $FIREFOX_140_BIN ]] || fail "no $FIREFOX_140_BIN after unpacking firefox-esr 140"
}

install_firefox() {
  [[ $(id -u) == 0 ]] || fail "firefox-esr is missing and installing it needs root (apt-get install firefox-esr)"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends firefox-esr
}

# npm ci in DIR when its lock file changed since the last install (a stamp of its hash in
# DIR/node_modules).
ensure_npm_ci() {
  local dir=$1 stamp="$1/node_modules/.bibgenie-lock.sha256" want
  want=$(sha256sum "$dir/package-lock.json" | awk '{print $1}')
  if [[ -f $stamp && $(cat "$stamp") == "$want" ]]; then
    log "npm packages of $dir/: present"
  else
    timed "npm ci in $dir/" npm ci --prefix "$dir" --no-audit --no-fund
    printf '%s\n' "$want" >"$stamp"
  fi
}

ensure_npm_packages() { ensure_npm_ci tests; ensure_npm_ci tests/providers; }
# The bundlers the firefox stage builds apps with (Vite, webpack), apart from tests/ (docs/build-and-test.md).
ensure_bundler_npm_packages() { ensure_npm_ci tests/bundlers; }
ensure_build_npm_packages() { ensure_npm_ci build; }

# What each command uses (docs/build-and-test.md, "setup"); `setup` is all of it.
setup_build() { ensure_wasm_target; ensure_wasm_bindgen; ensure_build_npm_packages; }
setup_browser() { ensure_geckodriver; ensure_firefox; ensure_firefox_140; }
# bench/ keeps its own freshness check (the lock file newer than npm's record of the install).
setup_bench() {
  local dir
  for dir in bench/estimator bench; do
    if [[ ! -f $dir/node_modules/.package-lock.json || $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]]; then
      timed "npm ci in $dir/" npm ci --prefix "$dir" --no-audit --no-fund
    else
      log "npm packages of $dir/: present"
    fi
  done
}

# setup_for what...: what those commands or test stages use, each step once, then the time taken.
setup_for() {
  local start=$SECONDS what build=0 browser=0 tests=0 bench=0 bundlers=0
  for what in "$@"; do
    case $what in
      build) build=1 ;;
      # The browser stage builds the wasm test binaries and runs them with wasm-bindgen-test-runner.
      browser) ensure_wasm_target; ensure_wasm_bindgen; browser=1 ;;
      package | types | node | demo | example) build=1 tests=1 ;;
      firefox) build=1 tests=1 browser=1 bundlers=1 ;;
      zotero) build=1 tests=1 browser=1 ;;
      bench | all) build=1 tests=1 browser=1 bench=1 bundlers=1 ;;
      native) ;;
      soak) build=1 tests=1 ;;
      *) fail "unknown test stage '$what' (native browser package types node firefox zotero)" ;;
    esac
  done
  ((build)) && setup_build
  ((browser)) && setup_browser
  ((tests)) && ensure_npm_packages
  ((bundlers)) && ensure_bundler_npm_packages
  ((bench)) && setup_bench
  log "setup ($*): done in $((SECONDS - start))s"
}

setup() { setup_for all; }

# ---------------------------------------------------------------------------------------------
# build

# build_pkg [debug]: the release build into $PKG; `debug` (./build.sh check, which points PKG at
# its own folder) builds the wasm without --release and skips wasm-opt, the rest is the same.
build_pkg() {
  local start=$SECONDS wasm codes_rs profile=${1:-release}
  if [[ $profile == debug ]]; then
    cargo build --target "$WASM_TARGET" --lib
  else
    cargo build --release --target "$WASM_TARGET" --lib
  fi
  rm -rf "$PKG"
  # --omit-default-module-path: no `new URL(..., import.meta.url)` in the generated JS, so the
  # slim entry bundles as a classic script.
  wasm-bindgen "target/$WASM_TARGET/$profile/$CRATE_FILE.wasm" \
    --target web --omit-default-module-path --out-dir "$PKG"
  guard_plugin_scope_globals "$PKG/$CRATE_FILE.js"
  wasm="$PKG/${CRATE_FILE}_bg.wasm"
  if [[ $profile == debug ]]; then log "wasm-opt: skipped (debug build)"; else shrink_wasm "$wasm"; fi
  # Module state safe for a plugin loader, declarations that need no DOM lib (see the script).
  node build/patch-bindgen.mjs "$PKG/$CRATE_FILE.js" "$PKG/$CRATE_FILE.d.ts"
  # The contract's declarations from the Rust types, then the TS ErrorCode union from the Rust codes
  # (written once: the file with `pub enum ErrorCode`).
  write_contract
  codes_rs=$(error_codes_file)
  node build/error-codes.mjs "$codes_rs" "$PKG/contract.d.ts"
  cp -R js-glue/. "$PKG/"
  rm "$PKG/package.template.json"
  # The version the glue expects of the .wasm (loadCompaction compares it with version()).
  printf "/** @type {string} */\nexport const PACKAGE_VERSION = '%s';\n" "$(crate_version)" >"$PKG/util/version.js"
  # The README ships, docs/ stays home: its relative links become links into the repository.
  write_package_readme README.md "$PKG/README.md"
  emit_glue_declarations
  write_package_json
  count_declarations
  log "${PKG#"$ROOT"/}/ built in $((SECONDS - start))s"
  report_wasm_size "$wasm" "$profile"
}

# The release .wasm's size against its budget: BIBGENIE_WASM_GZIP_BUDGET bytes gzipped (`gzip -9`),
# by default WASM_GZIP_BUDGET. Printed on every build; a release build past it fails (a debug build,
# or one with BIBGENIE_WASM_OPT=0, is not optimized and only prints its size). Raise the budget only
# with the reason in docs/performance.md ("Where the wasm's bytes go"), which also says what the
# bytes are (issue 42: the aim is 150 KB, 153,600 bytes).
WASM_GZIP_BUDGET=246784
report_wasm_size() {
  local wasm=$1 profile=$2 raw gz budget=${BIBGENIE_WASM_GZIP_BUDGET:-$WASM_GZIP_BUDGET}
  raw=$(stat -c %s "$wasm")
  gz=$(gzip -9 -c "$wasm" | wc -c)
  [[ $budget =~ ^[0-9]+$ && $budget -gt 0 ]] || fail "BIBGENIE_WASM_GZIP_BUDGET must be a positive number of bytes, got '$budget'"
  if [[ $profile != release || ${BIBGENIE_WASM_OPT:-1} == 0 ]]; then
    log "wasm size: $raw bytes raw, $gz bytes gzipped ($(basename "$wasm"); not optimized, budget not checked)"
    return
  fi
  log "wasm size: $raw bytes raw, $gz bytes gzipped ($(basename "$wasm"); budget $budget bytes gzipped, $((gz * 100 / budget))% used)"
  ((gz <= budget)) || fail "the wasm is $gz bytes gzipped, $((gz - budget)) past its budget of $budget: see docs/performance.md, \"Where the wasm's bytes go\" (what the bytes are and what to do before raising the budget)"
}

# pkg/contract.d.ts: the contract's TypeScript written from the Rust types (src/contract.rs, ts-rs, a
# native dev-dependency: nothing of it reaches the .wasm) by a native `cargo test`, printed by
# build/contract.mjs, which also fills in the names the wasm module's declarations re-export.
write_contract() {
  local start=$SECONDS raw="$WORK/contract.generated.ts"
  mkdir -p "$WORK"
  rm -f "$raw"
  BIBGENIE_CONTRACT_OUT="$raw" cargo test --quiet --lib contract >"$WORK/contract.log" 2>&1 \
    || { cat "$WORK/contract.log" >&2; fail "src/contract.rs: the contract's declarations were not written"; }
  [[ -s $raw ]] || fail "src/contract.rs wrote no declarations (BIBGENIE_CONTRACT_OUT)"
  node build/contract.mjs "$raw" "$PKG/contract.d.ts" "$PKG/$CRATE_FILE.d.ts"
  log "contract.d.ts written in $((SECONDS - start))s"
}

# The glue's declarations, emitted by tsc (TypeScript of build/) from the JSDoc types of its .js files
# in pkg/, each X.d.ts beside its X.js: every runtime .js but wasm-bindgen's output and a .js
# whose .d.ts is still written by hand in js-glue/. Unchecked here: stage types checks the JS (checkJs).
# `ai` (the peer) from build/ resolves the AI SDK types the JSDoc names (unresolved, tsc drops their imports);
# build/ai-optional.mjs then keeps them behind ai-types.d.ts, so the declarations need no `ai` installed.
emit_glue_declarations() {
  local tsc="$BUILD_NODE_MODULES/.bin/tsc" config="$PKG/tsconfig.declarations.json" start=$SECONDS files
  [[ -x $tsc ]] || fail "no tsc in build/node_modules (./build.sh setup installs it)"
  files=$(cd "$PKG" && find . -name '*.js' ! -name "$CRATE_FILE.js" | sed 's|^\./||' | sort |
    while read -r js; do [[ -e $ROOT/js-glue/${js%.js}.d.ts ]] || printf '"%s",' "$js"; done)
  cat >"$config" <<EOF
{
  "compilerOptions": {
    "allowJs": true, "checkJs": false, "declaration": true, "emitDeclarationOnly": true,
    "module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2022",
    "lib": ["ES2022", "DOM", "ESNext.Disposable"], "types": [], "skipLibCheck": true, "strict": true,
    "rootDir": ".", "outDir": ".", "paths": { "ai": ["$BUILD_NODE_MODULES/ai/dist/index.d.ts"] }
  },
  "files": [${files%,}]
}
EOF
  "$tsc" -p "$config" || fail "tsc could not emit the glue's declarations"
  rm "$config"
  node build/ai-optional.mjs "$PKG" || fail "a declaration needs \`ai\` installed (build/ai-optional.mjs)"
  log "glue declarations: $(tr -cd ',' <<<"$files" | wc -c) .d.ts emitted from JSDoc in $((SECONDS - start))s"
}

# The declaration lines still written by hand (.d.ts of js-glue/, TypeScript inside src/): printed,
# and the build fails past 200 (issue 44; build/declaration-lines.mjs says what counts). The rest is
# generated: the contract from the Rust types (write_contract), the glue from its JSDoc.
count_declarations() {
  node build/declaration-lines.mjs --max 200
}

# The Rust file that declares the error codes (src/error.rs; found by its enum, wherever it lives in src/).
error_codes_file() {
  local file
  file=$(grep -rlE --include='*.rs' '^pub enum ErrorCode' src | head -n 1) || true
  [[ -n $file ]] || fail "no \`pub enum ErrorCode\` under src/ (build/error-codes.mjs reads the codes from it)"
  printf '%s\n' "$file"
}

# Zotero's plugin scope has no `console` (nor queueMicrotask): a bare use is a ReferenceError there.
# wasm-bindgen's --target web template (not our Rust code) warns through bare console.warn on
# deprecated init arguments and on a streaming fallback; wasm-bindgen-futures calls bare
# queueMicrotask, though only after checking globalThis has it. Both are reached through
# globalThis instead (optional call for console), and the build fails if a bare use remains.
# tests/zotero-runtime proves it in a real plugin scope.
guard_plugin_scope_globals() {
  local js=$1 bare='(^|[^.[:alnum:]_$])(console|queueMicrotask|structuredClone|AbortController)[.(]'
  sed -E -i \
    -e 's/(^|[^.[:alnum:]_$])console\.(warn|error|log|debug|info)\(/\1globalThis.console?.\2(/g' \
    -e 's/(^|[^.[:alnum:]_$])queueMicrotask\(/\1globalThis.queueMicrotask(/g' \
    "$js"
  if grep -nE "$bare" "$js"; then fail "$js: a bare plugin-scope global remains (see guard_plugin_scope_globals)"; fi
}

# wasm-opt from the npm package binaryen in build/ (its own download in wasm-pack fails offline).
# The features are those rustc's wasm32 target emits by default; Firefox 115 (Zotero 7) has them all.
shrink_wasm() {
  local wasm=$1 opt="$BUILD_NODE_MODULES/.bin/wasm-opt" before after
  [[ ${BIBGENIE_WASM_OPT:-1} == 0 ]] && { log "wasm-opt: skipped (BIBGENIE_WASM_OPT=0)"; return; }
  # Not a silent skip: the package would ship a larger .wasm unnoticed.
  [[ -x $opt ]] || fail "no wasm-opt in build/node_modules (./build.sh setup installs it; BIBGENIE_WASM_OPT=0 skips it)"
  before=$(stat -c %s "$wasm")
  # -ocimfs 0: no inlining of functions with one caller. It shrinks the raw file but grows the
  # gzipped one by 12.5 KB (6%); speed unchanged within noise (docs/performance.md, "Size").
  # --converge: the passes again until the module stops shrinking (-0.7 KB gzipped, a few seconds;
  # docs/performance.md, "Where the wasm's bytes go").
  "$opt" -Oz --one-caller-inline-max-function-size 0 --converge --strip-debug --strip-producers \
    --enable-bulk-memory --enable-bulk-memory-opt --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$wasm" -o "$wasm.opt"
  mv "$wasm.opt" "$wasm"
  after=$(stat -c %s "$wasm")
  log "wasm-opt -Oz -ocimfs 0 --converge: $before -> $after bytes"
}



write_package_json() {
  CRATE_VERSION="$(crate_version)" node --input-type=module - "$ROOT/js-glue/package.template.json" "$PKG" <<'EOF'
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
const [template, pkgDir] = process.argv.slice(2);
const walk = (dir) => readdirSync(dir, { withFileTypes: true })
  .flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [relative(pkgDir, join(dir, e.name))]));
const pkg = JSON.parse(readFileSync(template, 'utf8'));
pkg.version = process.env.CRATE_VERSION;
pkg.files = walk(pkgDir).filter((f) => f !== 'package.json').sort();
writeFileSync(join(pkgDir, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');
EOF
}

# ---------------------------------------------------------------------------------------------
# test

# Every test target compiled for wasm32 and run in headless Firefox: what `wasm-pack test --headless
# --firefox` runs (cargo test with wasm-bindgen-test-runner as the runner, GECKODRIVER and
# WASM_BINDGEN_TEST_ONLY_WEB set), without installing wasm-pack (docs/build-and-test.md). The runner,
# its timeout and tests/browser/webdriver.json come from .cargo/config.toml, as for wasm-pack.
# tests/web/ holds the tests of the wasm boundary; the other files' #[test]s run there too, except
# those that are native only (proptest, or too slow in the browser), which print "no tests to run!".
wasm_browser_tests() {
  local out="$WORK/browser-tests.log" binaries=0 empty=0 passed=0 result
  mkdir -p "$WORK"
  # Output to the terminal as before, and into a file for the checks below.
  CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner GECKODRIVER="$GECKODRIVER_BIN" \
    WASM_BINDGEN_TEST_ONLY_WEB=1 cargo test --target "$WASM_TARGET" 2>&1 | tee "$out"
  # ONLY_WEB skips a binary configured for Node with exit 0: a test file that lost its
  # wasm_bindgen_test_configure!(run_in_browser) would stop running unseen.
  if grep -q "only configured to run in node.js" "$out"; then
    fail "a wasm test binary is configured for Node, not the browser (wasm_bindgen_test_configure!(run_in_browser) missing)"
  fi
  binaries=$(grep -c '^Running headless tests in Firefox' "$out" || true)
  empty=$(grep -c '^no tests to run!' "$out" || true)
  while read -r result; do passed=$((passed + result)); done < <(sed -n 's/^test result: ok\. \([0-9]*\) passed.*/\1/p' "$out")
  ((binaries > 0)) || fail "no wasm test binary ran in Firefox"
  log "browser: $passed tests passed in $binaries test binaries in Firefox; $empty binaries with no browser tests (native only)"
}

# npm pack of pkg/, installed into a throwaway consumer; tests/ is copied beside it so that
# `import 'bibgenie-compaction'` in a test resolves to the installed tarball, while the test
# tools resolve through a link to tests/node_modules.
pack_and_install() {
  local tarball
  rm -rf "$WORK/pack" "$CONSUMER"
  mkdir -p "$WORK/pack" "$CONSUMER/tests"
  tarball=$(cd "$PKG" && npm pack --pack-destination "$WORK/pack" --silent | tail -n 1)
  TARBALL="$WORK/pack/$tarball"
  printf '{ "name": "bibgenie-compaction-consumer", "private": true, "type": "module" }\n' >"$CONSUMER/package.json"
  # --legacy-peer-deps: peers (the AI SDK) come from tests/node_modules, not a second download.
  npm install --prefix "$CONSUMER" --no-audit --no-fund --legacy-peer-deps "$TARBALL"
  tar -C tests --exclude=./node_modules --exclude=./providers/node_modules --exclude=./bundlers/node_modules -cf - . | tar -C "$CONSUMER/tests" -xf -
  ln -s "$TEST_NODE_MODULES" "$CONSUMER/tests/node_modules"
  ln -s "$ROOT/tests/providers/node_modules" "$CONSUMER/tests/providers/node_modules"
  log "packed $(basename "$TARBALL"): $(tar -tzf "$TARBALL" | wc -l) files; installed into ${CONSUMER#"$ROOT"/}"
}

# node --test over the given folder of the consumer's copy of tests/.
consumer_node_tests() {
  local dir="$CONSUMER/tests/$1" files
  shopt -s nullglob
  files=("$dir"/*.test.mjs)
  shopt -u nullglob
  ((${#files[@]})) || fail "no test files in tests/$1"
  # BIBGENIE_TESTS='word …': only the files whose names contain one of the words (for development).
  if [[ -n ${BIBGENIE_TESTS:-} ]]; then
    local kept=() file word
    for file in "${files[@]}"; do
      for word in $BIBGENIE_TESTS; do [[ $(basename "$file") == *"$word"* ]] && { kept+=("$file"); break; }; done
    done
    ((${#kept[@]})) || { log "no file of tests/$1 matches BIBGENIE_TESTS=$BIBGENIE_TESTS"; return 0; }
    files=("${kept[@]}")
  fi
  # TAP on stdout as before, and into a file for the skip check.
  local firefox=${2:-$FIREFOX_BIN} tap="$WORK/tests-${1//\//-}${3:+-$3}.tap"
  BIBGENIE_REPO_ROOT="$ROOT" BIBGENIE_CONSUMER_DIR="$CONSUMER" BIBGENIE_TARBALL="$TARBALL" \
    BIBGENIE_PKG=bibgenie-compaction BIBGENIE_GECKODRIVER="$GECKODRIVER_BIN" BIBGENIE_FIREFOX="$firefox" \
    node --test --test-concurrency=1 --test-reporter=tap --test-reporter-destination=stdout \
    --test-reporter=tap --test-reporter-destination="$tap" "${files[@]}"
  check_skips "tests/$1" "$tap"
}

# The tests of a browser folder (firefox, zotero-runtime) on each Firefox ESR: 153 (the installed
# one) and 140 (Zotero 8's, unpacked by ensure_firefox_140).
firefox_node_tests() {
  local dir=$1
  log "$dir on Firefox ESR 153 ($("$FIREFOX_BIN" --version | awk '{print $3}'))"
  consumer_node_tests "$dir" "$FIREFOX_BIN" ff153
  log "$dir on Firefox ESR 140 ($("$FIREFOX_140_BIN" --version | awk '{print $3}'))"
  consumer_node_tests "$dir" "$FIREFOX_140_BIN" ff140
}

# node --test exits 0 when tests were skipped (t.skip, { skip }, todo): a test that stopped running
# would pass unseen. Prints the count, and fails on a skip whose line no entry of
# tests/allowed-skips.txt (fixed strings, one a line) matches.
check_skips() {
  local what=$1 tap=$2 skipped allowed unexpected count
  skipped=$(sed -nE 's/^[[:space:]]*((not )?ok [0-9]+ - .* # (SKIP|TODO).*)$/\1/p' "$tap")
  count=$(grep -c . <<<"$skipped" || true)
  allowed=$(grep -vE '^[[:space:]]*(#|$)' tests/allowed-skips.txt 2>/dev/null || true)
  unexpected=$skipped
  [[ -z $allowed || -z $skipped ]] || unexpected=$(grep -vF -- "$allowed" <<<"$skipped" || true)
  log "$what: $count skipped or todo ($(grep -c . <<<"$unexpected" || true) not allowed by tests/allowed-skips.txt)"
  [[ -z $skipped ]] || sed 's/^/    /' <<<"$skipped"
  [[ -z $unexpected ]] || fail "$what: tests skipped that tests/allowed-skips.txt does not allow:"$'\n'"$unexpected"
}

# The fuzz targets (fuzz/, its own workspace) built as `cargo fuzz build --sanitizer none` builds
# them (the coverage instrumentation and cfg(fuzzing) of cargo-fuzz, without needing cargo-fuzz),
# then a short run of each over its committed seeds: a target that stops compiling or panics on a
# seed fails the stage. Nightly when installed (what `./build.sh fuzz` uses), else stable: these
# flags need no -Z option. BIBGENIE_FUZZ_SMOKE_RUNS executions each (default 5,000; 0 = build only).
FUZZ_TRIPLE=x86_64-unknown-linux-gnu
FUZZ_RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 -Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Cdebug-assertions"

fuzz_smoke() {
  local toolchain=stable runs=${BIBGENIE_FUZZ_SMOKE_RUNS:-5000} target bin corpus
  rustup toolchain list | grep -q '^nightly' && toolchain=nightly
  log "fuzz targets: cargo +$toolchain build (cargo-fuzz's flags, no sanitizer)"
  RUSTFLAGS="$FUZZ_RUSTFLAGS" cargo "+$toolchain" build --manifest-path fuzz/Cargo.toml --target "$FUZZ_TRIPLE" --release --bins
  ((runs > 0)) || return 0
  for target in session_json parts summary_text data_url; do
    bin="fuzz/target/$FUZZ_TRIPLE/release/$target"
    corpus="$WORK/fuzz-smoke/$target"
    rm -rf "$corpus"
    mkdir -p "$corpus"
    # The scratch corpus first: libFuzzer writes new inputs there, never into the committed seeds.
    "$bin" -runs="$runs" -max_total_time=60 -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$WORK/fuzz-smoke-$target-" "$corpus" "fuzz/seeds/$target" >"$WORK/fuzz-smoke-$target.log" 2>&1 ||
      { tail -n 30 "$WORK/fuzz-smoke-$target.log" >&2; fail "fuzz target $target failed on its seeds or within $runs runs (the input: .work/fuzz-smoke-$target-*)"; }
    log "fuzz $target: $(sed -n 's/^Done \([0-9]*\) runs in \([0-9]*\) second.*/\1 runs in \2 s/p' "$WORK/fuzz-smoke-$target.log" | tail -n 1)"
  done
}

# tsc --noEmit over tests/types/consumer.ts, as a TypeScript app that installed the tarball and the
# AI SDK compiles it: a project in the consumer folder holding a copy of the installed package, with
# `ai` and `@types` linked from tests/node_modules. Three times: AI SDK v5 with Node16 resolution,
# v6 and v7 with bundler resolution. Then tests/types/zotero-plugin.ts as a Zotero plugin compiles
# it: the community template's tsconfig (zotero-types' sandbox globals, no DOM lib, no @types/node)
# with skipLibCheck as the template sets it (true) and false. Then every runtime export of both
# entries must be one consumer.ts declares.
consumer_type_check() {
  local tsc="$TEST_NODE_MODULES/.bin/tsc" run sdk config project
  [[ -x $tsc ]] || fail "no tsc in tests/node_modules (run ./build.sh setup)"
  for run in ai:tsconfig.json ai6:tsconfig.bundler.json ai7:tsconfig.bundler.json; do
    sdk=${run%%:*} config=${run#*:}
    project=$(type_check_project "types-$sdk" "$sdk")
    ln -s "$TEST_NODE_MODULES/@types" "$project/node_modules/@types"
    cp "$CONSUMER/tests/types/consumer.ts" "$CONSUMER/tests/types/"tsconfig*.json "$project/"
    log "tsc --noEmit -p $config with ai@$(node -p "require('$TEST_NODE_MODULES/$sdk/package.json').version")"
    "$tsc" --noEmit -p "$project/$config"
  done
  project=$(type_check_project types-zotero ai7)
  # A copy (a link would be included twice, by its path and its real path); what its declarations
  # reach for is linked: react, bluebird, and the stubbed epubjs / pdfjs-dist.
  cp -R "$TEST_NODE_MODULES/zotero-types" "$project/node_modules/"
  for dep in epubjs pdfjs-dist; do ln -s "$TEST_NODE_MODULES/$dep" "$project/node_modules/$dep"; done
  mkdir -p "$project/node_modules/@types"
  for dep in react bluebird; do ln -s "$TEST_NODE_MODULES/@types/$dep" "$project/node_modules/@types/$dep"; done
  cp "$CONSUMER/tests/types/zotero-plugin.ts" "$CONSUMER/tests/types/"tsconfig.zotero*.json "$project/"
  log "tsc --noEmit -p tsconfig.zotero.json (zotero-types $(node -p "require('$TEST_NODE_MODULES/zotero-types/package.json').version"), no DOM lib, ai@7, skipLibCheck true)"
  "$tsc" --noEmit -p "$project/tsconfig.zotero.json"
  zotero_strict_type_check "$tsc" "$project"
  # An app without the AI SDK: no `ai` in its node_modules, every declaration checked.
  project=$(type_check_project types-no-ai "")
  ln -s "$TEST_NODE_MODULES/@types" "$project/node_modules/@types"
  cp "$CONSUMER/tests/types/no-ai.ts" "$CONSUMER/tests/types/tsconfig.no-ai.json" "$project/"
  log "tsc --noEmit -p tsconfig.no-ai.json (no ai installed, skipLibCheck false)"
  "$tsc" --noEmit -p "$project/tsconfig.no-ai.json"
  glue_type_check "$tsc"
  node "$CONSUMER/tests/types/types-exports.mjs" "$CONSUMER/tests/types/consumer.ts"
}

# checkJs over the glue as it ships (tests/types/tsconfig.glue.json): the JS of the installed package
# against the .d.ts files it takes its types from. Every runtime .js must be in it.
glue_type_check() {
  local tsc=$1 project="$CONSUMER/types-glue" missing
  rm -rf "$project"
  mkdir -p "$project/node_modules"
  cp -R "$CONSUMER/node_modules/bibgenie-compaction" "$project/pkg"
  ln -s "$TEST_NODE_MODULES/ai" "$project/node_modules/ai"
  printf '{ "private": true, "type": "module" }\n' >"$project/package.json"
  cp "$CONSUMER/tests/types/tsconfig.glue.json" "$project/"
  log "tsc --noEmit -p tsconfig.glue.json (checkJs over the glue, strict)"
  "$tsc" --noEmit -p "$project/tsconfig.glue.json"
  missing=$(comm -23 <(glue_js_files "$project") \
    <("$tsc" --listFilesOnly -p "$project/tsconfig.glue.json" | sed "s|^$project/||" | sort))
  [[ -z $missing ]] || fail "tsconfig.glue.json leaves out (add them to its files):"$'\n'"$missing"
  log "checkJs: $(glue_js_files "$project" | wc -l) glue files, no error"
}

# The glue's runtime .js files in the project's pkg/: not wasm-bindgen's output.
glue_js_files() {
  (cd "$1" && find pkg -name '*.js' ! -name "$CRATE_FILE.js" | sort)
}

# skipLibCheck false checks every declaration file, and in this setup the template's own stack
# does not pass: zotero-types' Gecko DOM against TypeScript's DOM (its include pulls both in),
# @types/react against Gecko, ai 7's declarations wanting @types/node. Those are counted and shown;
# an error in the package's declarations or in the plugin file fails the stage.
zotero_strict_type_check() {
  local tsc=$1 project=$2 out ours others
  log "tsc --noEmit -p tsconfig.zotero.strict.json (the same, skipLibCheck false)"
  out=$("$tsc" --noEmit -p "$project/tsconfig.zotero.strict.json" 2>&1) || true
  ours=$(grep -E 'types-zotero/(node_modules/bibgenie-compaction/|zotero-plugin\.ts)' <<<"$out" || true)
  others=$(grep -E 'error TS' <<<"$out" | grep -vE 'types-zotero/(node_modules/bibgenie-compaction/|zotero-plugin\.ts)' | sed -E 's/\(.*//' | sort | uniq -c || true)
  [[ -z $others ]] || log "errors in other packages' declarations (not this package's):"$'\n'"$others"
  [[ -z $ours ]] || { printf '%s\n' "$ours" >&2; fail "the package's declarations or zotero-plugin.ts do not compile under zotero-types with skipLibCheck false"; }
  log "no error in the package's declarations or zotero-plugin.ts"
}

# A fresh folder in the consumer with a copy of the installed package and `ai` linked to the
# given tests/node_modules alias; prints its path.
type_check_project() {
  local project="$CONSUMER/$1"
  rm -rf "$project"
  mkdir -p "$project/node_modules"
  cp -R "$CONSUMER/node_modules/bibgenie-compaction" "$project/node_modules/"
  [[ -z $2 ]] || ln -s "$TEST_NODE_MODULES/$2" "$project/node_modules/ai"
  printf '{ "private": true, "type": "module" }\n' >"$project/package.json"
  printf '%s\n' "$project"
}

# `./build.sh test STAGE…` runs only those stages (native browser package types node firefox
# zotero), for development; the stages after `package` need it and run it first.
run_stages() {
  local stage packed=0
  for stage in "$@"; do
    case $stage in
      native) timed "native: cargo test" cargo test --workspace; timed "native: fuzz targets" fuzz_smoke ;;
      browser) timed "browser: wasm-bindgen-test" wasm_browser_tests ;;
      package) timed "package" build_and_pack; packed=1 ;;
      types | node | firefox | zotero)
        ((packed)) || { timed "package" build_and_pack; packed=1; }
        case $stage in
          types) timed "types" consumer_type_check ;;
          node) timed "node" consumer_node_tests node; timed "node: provider wire tests" consumer_node_tests providers ;;
          firefox) timed "firefox" firefox_node_tests firefox ;;
          zotero) timed "zotero" firefox_node_tests zotero-runtime ;;
        esac ;;
      *) fail "unknown test stage '$stage' (native browser package types node firefox zotero)" ;;
    esac
  done
}

run_tests() {
  local start=$SECONDS
  if (($#)); then run_stages "$@"; return; fi
  timed "1/7 native: cargo test" cargo test --workspace
  timed "1/7 native: fuzz targets build, a short run of each" fuzz_smoke
  timed "2/7 browser: wasm-bindgen-test in headless Firefox ESR" wasm_browser_tests
  timed "3/7 package: build pkg/, npm pack, install into a consumer" build_and_pack
  timed "4/7 types: tsc --noEmit over a TypeScript consumer (AI SDK v5, v6, v7) and a Zotero plugin (zotero-types)" consumer_type_check
  timed "5/7 node: consumer tests against the packed package" consumer_node_tests node
  timed "5/7 node: the turn on the wire through the real provider packages (ai 5, 6, 7)" consumer_node_tests providers
  timed "6/7 firefox: Zotero-style IIFE bundle in headless Firefox ESR 153 and 140" firefox_node_tests firefox
  timed "7/7 zotero: a Zotero plugin scope in Firefox's parent process (chrome://, Sqlite.sys.mjs), ESR 153 and 140" firefox_node_tests zotero-runtime
  log "./build.sh test: all 7 stages passed in $((SECONDS - start))s (cargo test, Firefox wasm-bindgen-test, npm pack, tsc, Node consumer, IIFE in Firefox, Zotero plugin scope)"
}

build_and_pack() {
  build_pkg
  pack_and_install
}

# ---------------------------------------------------------------------------------------------
# demo, bench, soak: thin launchers of what other modules ship

# Runs DIR/SCRIPT from a copy inside the consumer, like the tests: `import 'bibgenie-compaction'`
# resolves to the installed tarball, other packages to tests/node_modules.
run_in_consumer() {
  local dir=$1 script=$2
  shift 2
  [[ -f $dir/$script ]] || fail "$dir/$script does not exist yet"
  build_and_pack
  rm -rf "${CONSUMER:?}/$dir"
  mkdir -p "$CONSUMER/$dir"
  tar -C "$dir" --exclude=./node_modules -cf - . | tar -C "$CONSUMER/$dir" -xf -
  ln -s "$TEST_NODE_MODULES" "$CONSUMER/$dir/node_modules"
  BIBGENIE_REPO_ROOT="$ROOT" BIBGENIE_CONSUMER_DIR="$CONSUMER" node "$CONSUMER/$dir/$script" "$@"
}

# The demo is code a user can copy (examples/demo/demo.mjs imports only `bibgenie-compaction`), so it
# runs from a copy inside the consumer against the installed tarball, as a user's script would; it
# reads the session from tests/fixtures/sample-session.json and finds better-sqlite3 (not a package
# dependency) in tests/node_modules, both through BIBGENIE_REPO_ROOT, and writes .work/demo.sqlite
# there. Setup and build logs go to stderr, so stdout is only the demo's (`--json`: one JSON object).
run_demo() {
  build_and_pack >&2
  rm -rf "${CONSUMER:?}/examples/demo"
  mkdir -p "$CONSUMER/examples/demo"
  cp -R examples/demo/. "$CONSUMER/examples/demo/"
  BIBGENIE_REPO_ROOT="$ROOT" node "$CONSUMER/examples/demo/demo.mjs" "$@"
}

# The example plugin as a user builds it: esbuild over its src/ against the installed tarball (the AI
# SDK from tests/node_modules), zipped by Node into an .xpi. tests/zotero-runtime runs the same build.
run_example() {
  build_and_pack
  node examples/zotero-research-chat/build.mjs --package-root "$CONSUMER" --deps-root tests --out "$WORK/research-chat.xpi"
}

# The benchmarks, each printing markdown tables (also collected in .work/bench.md): the
# estimator's fidelity against real tokenizers (bench/estimator), speed in Node and in headless
# Firefox against the installed tarball (bench/speed; the baseline is bench/baseline/, the peer pi;
# the longest main-thread block in Node, in a page and in Zotero's plugin scope, main-thread*.mjs;
# a send through the controller and a store-held index, bench/speed/controller.mjs), then the
# size of what a consumer downloads, the prompt-cache policies (bench/cache: a simulated provider
# cache behind the AI SDK's mock model), then what survives compaction (bench/retention: planted facts
# in seeded long sessions through the controller, beside a truncation baseline; registers.mjs: the
# multilingual sessions of issue 34, retention, precision and stale counts per window). Arguments go to the
# speed runs (`--quick`, `--sizes=100,1000`).
run_bench() {
  local dir report="$WORK/bench.md"
  # What the bench scripts read: the package as installed from the tarball, and the browser binaries.
  local -x BIBGENIE_PKG_DIR="$CONSUMER/node_modules/bibgenie-compaction" \
    BIBGENIE_FIREFOX="$FIREFOX_BIN" BIBGENIE_GECKODRIVER="$GECKODRIVER_BIN"
  build_and_pack
  mkdir -p "$WORK"
  : >"$report"
  timed "bench 1/14: estimator fidelity" bash -c 'set -o pipefail; node bench/estimator/fidelity.mjs | tee -a "$1"' _ "$report"
  log "load before the speed runs:$(uptime | sed 's/.*load average/ load average/')"
  timed "bench 2/14: speed in Node" bash -c 'set -o pipefail; node bench/speed/node.mjs "${@:2}" | tee -a "$1"' _ "$report" "$@"
  timed "bench 3/14: a send through the controller and the store-held index" bash -c 'set -o pipefail; node bench/speed/controller.mjs "${@:2}" | tee -a "$1"' _ "$report" "$@"
  timed "bench 4/14: what recall costs (tokens against the folded page, time against a projection)" bash -c 'set -o pipefail; node bench/speed/recall.mjs "${@:2}" | tee -a "$1"' _ "$report" "$@"
  timed "bench 5/14: what a user waits for (the longest main-thread block, the cold call)" bash -c 'set -o pipefail; node bench/speed/main-thread.mjs | tee -a "$1"' _ "$report"
  timed "bench 6/14: speed in headless Firefox ESR" bash -c 'set -o pipefail; node bench/speed/firefox.mjs "${@:2}" | tee -a "$1"' _ "$report" "$@"
  timed "bench 7/14: the longest main-thread block in a page (headless Firefox ESR)" bash -c 'set -o pipefail; node bench/speed/firefox.mjs --page=main-thread | tee -a "$1"' _ "$report"
  timed "bench 8/14: the longest main-thread block in the Zotero plugin scope (headless Firefox ESR, chrome context)" bash -c 'set -o pipefail; node bench/speed/main-thread-zotero.mjs | tee -a "$1"' _ "$report"
  timed "bench 9/14: size" bash -c 'set -o pipefail; node bench/speed/size.mjs | tee -a "$1"' _ "$report"
  timed "bench 10/14: prompt cache policies" bash -c 'set -o pipefail; node bench/cache/sessions.mjs | tee -a "$1"' _ "$report"
  timed "bench 11/14: cache mark placement against one rolling mark, and plan.cost against the simulated bill" bash -c 'set -o pipefail; node bench/cache/placement.mjs | tee -a "$1"' _ "$report"
  timed "bench 12/14: what survives compaction (retention)" bash -c 'set -o pipefail; node bench/retention/retention.mjs | tee -a "$1"' _ "$report"
  timed "bench 13/14: retention by construction (registers, multilingual)" bash -c 'set -o pipefail; node bench/retention/registers.mjs | tee -a "$1"' _ "$report"
  # The fifth corpus is the one no rule was written against (docs/controller-and-ledger.md, "Round 12").
  timed "bench 14/14: untuned sessions (issue 40), development, held-out, fifth and sixth corpora" bash -c 'set -o pipefail; node bench/retention/untuned.mjs | tee -a "$1" && node bench/retention/untuned.mjs --heldout | tee -a "$1" && node bench/retention/untuned.mjs --fifth | tee -a "$1" && node bench/retention/untuned.mjs --sixth | tee -a "$1"' _ "$report"
  log "tables collected in ${report#"$ROOT"/}"
}

# The long reliability run, in two parts (`soak native`, `soak store-model`; both by default):
# - native: the model-based property tests (tests/model_based.rs) over many more generated
#   sessions, optimized; BIBGENIE_SOAK_CASES sets the count.
# - store-model: the stores' model test (tests/node/store-model.test.mjs) on
#   BIBGENIE_SOAK_SEEDS consecutive seeds (default 200) from BIBGENIE_SOAK_FIRST_SEED (default
#   1), one process per seed, stopping at the first seed that fails.
run_soak() {
  local parts=("$@") start=$SECONDS
  ((${#parts[@]})) || parts=(native store-model)
  local part
  for part in "${parts[@]}"; do
    case $part in
      native)
        local cases=${BIBGENIE_SOAK_CASES:-200000}
        log "soak: $cases model-based cases (cargo test --release --test model_based)"
        BIBGENIE_SOAK_CASES=$cases cargo test --release --test model_based -- --nocapture
        log "soak: $cases cases passed in $((SECONDS - start))s" ;;
      store-model)
        local seeds=${BIBGENIE_SOAK_SEEDS:-200} first=${BIBGENIE_SOAK_FIRST_SEED:-1} seed
        build_pkg
        # Its own copy of the package: a build during the hour this takes must not change it.
        rm -rf "$WORK/soak-pkg" && cp -r "$PKG" "$WORK/soak-pkg"
        log "soak: the stores' model test on $seeds consecutive seeds from $first"
        for ((seed = first; seed < first + seeds; seed++)); do
          BIBGENIE_PKG="file://$WORK/soak-pkg/index.js" BIBGENIE_STORE_MODEL_SEED=$seed node --test --test-reporter=dot tests/node/store-model.test.mjs \
            >"$WORK/soak-store-model.log" 2>&1 ||
            { tail -n 40 "$WORK/soak-store-model.log" >&2; fail "the stores' model test failed on seed $seed (BIBGENIE_STORE_MODEL_SEED=$seed replays)"; }
          printf 'soak: seed %d passed (%d of %d)\n' "$seed" $((seed - first + 1)) "$seeds"
        done
        log "soak: $seeds consecutive seeds ($first to $((first + seeds - 1))) passed in $((SECONDS - start))s" ;;
      *) fail "soak: unknown part $part (native, store-model)" ;;
    esac
  done
}

# Every target runs on its own growing corpus (fuzz/corpus, ignored) seeded from fuzz/seeds (committed).
# No sanitizer: src/ has no `unsafe`, so ASan would only slow the search; panics and overflow checks
# (debug assertions are on in cargo-fuzz builds) are what the targets catch.
run_fuzz() {
  local seconds=${BIBGENIE_FUZZ_SECONDS:-60} failed=0 target logfile runs status started
  # BIBGENIE_FUZZ_RUNS stops each target after that many executions instead of after a time.
  local budget=(-max_total_time="$seconds") what="${seconds}s"
  [[ -z ${BIBGENIE_FUZZ_RUNS:-} ]] || budget=(-runs="$BIBGENIE_FUZZ_RUNS") what="$BIBGENIE_FUZZ_RUNS runs"
  local targets=("$@")
  [[ ${#targets[@]} -gt 0 ]] || targets=(session_json parts summary_text data_url)
  rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
  command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
  mkdir -p "$WORK"
  for target in "${targets[@]}"; do
    log "fuzz: $target for $what"
    mkdir -p "fuzz/corpus/$target"
    logfile="$WORK/fuzz-$target.log"
    status='' started=$SECONDS
    if ! cargo +nightly fuzz run --sanitizer none "$target" "fuzz/corpus/$target" "fuzz/seeds/$target" -- \
      "${budget[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 >"$logfile" 2>&1; then
      failed=1 status=' (FAILED, see fuzz/artifacts)'
      tail -n 40 "$logfile" >&2
    fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logfile" | tail -n 1)
    printf 'fuzz %-13s %12s executions in %ss%s\n' "$target" "${runs:-?}" "$((SECONDS - started))" "$status"
  done
  ((failed == 0)) || fail "fuzz: a target crashed; the input is in fuzz/artifacts/"
}

# ---------------------------------------------------------------------------------------------
# check: the one-minute loop, and the package's README

# The README of the package: the repository's, its relative links (docs/, examples/) made absolute
# links into the repository (package.json's `repository`, set in js-glue/package.template.json),
# since docs/ does not ship. tests/node/readme.test.mjs checks every link resolves there.
write_package_readme() {
  node --input-type=module - "$ROOT/js-glue/package.template.json" "$1" "$2" <<'EOF'
import { readFileSync, writeFileSync } from 'node:fs';
const [template, source, out] = process.argv.slice(2);
const { repository } = JSON.parse(readFileSync(template, 'utf8'));
const url = typeof repository === 'string' ? repository : repository?.url;
if (!url) throw new Error(`${template}: no repository url (the README's links to docs/ point there)`);
const base = `${url.replace(/^git\+/, '').replace(/\.git$/, '').replace(/\/$/, '')}/blob/main/`;
const text = readFileSync(source, 'utf8').replace(/\]\(([^)\s]+)\)/g, (link, href) =>
  /^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#') ? link : `](${base}${href.replace(/^\.\//, '')})`);
writeFileSync(out, text);
EOF
}

# The test files of tests/node that ./build.sh check runs, chosen by measurement (docs/build-and-test.md,
# "check"): all but the slow ones on the debug wasm (crash-safety 159 s, session-index 36 s at load 8,
# store-model 32 s, turn-branch 17 s at load 9, bad-input 11 s) and pack-consumer (it reads the
# tarball); ./build.sh test runs them all.
CHECK_NODE_TESTS=(
  ai-sdk.test.mjs answered-turn.test.mjs extractive-slices.test.mjs background-guard.test.mjs chat-turn.test.mjs controller.test.mjs
  controller-cancel.test.mjs cut-loop.test.mjs display-only.test.mjs recall.test.mjs recall-compacted.test.mjs tool-loop.test.mjs chat-turn-guard.test.mjs
  pack-consumer-build-hook.test.mjs pack-consumer-loader.test.mjs pack-consumer-slim.test.mjs
  plugin-turns.test.mjs prompt-cache.test.mjs readme.test.mjs readme-usechat.test.mjs refused-at-entry.test.mjs
  plugin-ledger.test.mjs runner.test.mjs sample-session.test.mjs store-app-db.test.mjs store-index.test.mjs store-index-own-writes.test.mjs store-processes.test.mjs
  store-sharing.test.mjs stores.test.mjs transport-reads.test.mjs transport.test.mjs
  text-encoding.test.mjs turn-stop.test.mjs wasm-not-found.test.mjs zotero-loader.test.mjs
  provider-compaction.test.mjs summary-rounds.test.mjs without-ai-sdk.test.mjs zotero-recipe.test.mjs zotero-shim.test.mjs
)

# ./build.sh check: a debug wasm build (no --release, no wasm-opt) into .work/dev/node_modules/
# bibgenie-compaction (wasm-bindgen's output, patched as for the package, and a copy of js-glue/), the
# CHECK_NODE_TESTS of tests/node against it (no npm pack), and BIBGENIE_CHECK_CASES model-based
# cases (default 300). At most a minute warm; prints the time taken.
run_check() {
  local start=$SECONDS cases=${BIBGENIE_CHECK_CASES:-300}
  local CONSUMER="$WORK/dev" TARBALL=''
  local PKG="$CONSUMER/node_modules/bibgenie-compaction"
  local BIBGENIE_TESTS=${BIBGENIE_TESTS:-${CHECK_NODE_TESTS[*]}}
  timed "check 1/3: debug wasm build into ${PKG#"$ROOT"/}" build_pkg debug
  printf '{ "name": "bibgenie-compaction-dev", "private": true, "type": "module" }\n' >"$CONSUMER/package.json"
  rm -rf "$CONSUMER/tests"
  mkdir -p "$CONSUMER/tests"
  tar -C tests --exclude=./node_modules --exclude=./providers/node_modules --exclude=./bundlers/node_modules -cf - . | tar -C "$CONSUMER/tests" -xf -
  ln -s "$TEST_NODE_MODULES" "$CONSUMER/tests/node_modules"
  log "check: tests/node files: $BIBGENIE_TESTS"
  timed "check 2/3: Node tests against the sources" consumer_node_tests node
  timed "check 3/3: $cases model-based cases (cargo test --test model_based)" \
    env -u BIBGENIE_SOAK_CASES BIBGENIE_MODEL_CASES="$cases" cargo test --test model_based -- --nocapture
  log "./build.sh check: passed in $((SECONDS - start))s"
}

main() {
  local command=${1:-}
  [[ -n $command ]] || { usage; exit 0; }
  shift
  case $command in
    setup) setup ;;
    build) setup_for build; build_pkg ;;
    test) if (($#)); then setup_for "$@"; else setup_for native browser package firefox zotero; fi; run_tests "$@" ;;
    check) setup_for node; run_check ;;
    demo) setup_for demo >&2; run_demo "$@" ;;
    example) setup_for example; run_example ;;
    bench) setup_for bench; run_bench "$@" ;;
    soak) setup_for soak; run_soak "$@" ;;
    fuzz) run_fuzz "$@" ;;
    -h | --help | help) usage ;;
    *) usage >&2; exit 2 ;;
  esac
}

main "$@"
