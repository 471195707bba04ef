// Runs in Firefox's parent process (Marionette's chrome context), loaded with loadSubScript from
// a resource:// URL: Sqlite.sys.mjs's executeTransaction needs a caller frame from a loaded file.
// Plays Zotero's part: registers the test plugin's chrome:// package (a folder and an .xpi),
// builds the plugin's scope the way Zotero's plugin loader does, hands it a Zotero object
// whose DBConnection is the real-engine adapter, and collects what the plugin code reports.
/* global ChromeUtils, Services, Cc, Ci, Cu, PathUtils, XMLHttpRequest, setTimeout, clearTimeout, setInterval, clearInterval */

const EVAL_PREFS = ['security.allow_eval_with_system_principal', 'security.allow_eval_in_parent_process'];

// What Zotero's plugin loader asks the sandbox for (plugins.js, _loadScope).
const PLUGIN_GLOBAL_PROPERTIES = [
  'atob', 'btoa', 'Blob', 'crypto', 'CSS', 'ChromeUtils', 'DOMParser', 'fetch', 'File', 'FileReader',
  'TextDecoder', 'TextEncoder', 'URL', 'URLSearchParams', 'XMLHttpRequest',
];

/** Names whose absence the glue must survive, and ones the loader needs. */
const PROBED_GLOBALS = ['console', 'queueMicrotask', 'structuredClone', 'AbortController', 'fetch', 'WebAssembly', 'setTimeout', 'Zotero'];

/** What the AI SDK's streaming reaches for, probed in the scope before the chat turn. */
const CHAT_PROBED_GLOBALS = [
  'ReadableStream', 'TransformStream', 'WritableStream', 'TextEncoderStream', 'TextDecoderStream', 'AbortSignal',
  'DOMException', 'EventTarget', 'Headers', 'Response', 'performance', 'navigator',
];

/**
 * Zotero.HTTP.request as http.js behaves for a GET of package content (written from reading it):
 * an XMLHttpRequest from Zotero's own window, resolved with the request when the status is 2xx, or
 * 0 or 200 when the channel is a file channel; rejected otherwise.
 */
function zoteroHttpRequest(method, url, options = {}) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url, true);
    const isFile = xhr.channel instanceof Ci.nsIFileChannel;
    if (options.responseType) xhr.responseType = options.responseType;
    xhr.onloadend = () => {
      const ok = isFile ? xhr.status === 0 || xhr.status === 200 : xhr.status >= 200 && xhr.status < 300;
      if (ok) resolve(xhr);
      else reject(new Error(`HTTP ${method} ${url} failed with status code ${xhr.status}`));
    };
    xhr.send(null);
  });
}

/** What Zotero.HTTP.request sees for a package URL: the status and the kind of channel. */
function xhrFacts(url) {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open('GET', url, true);
    const channel = xhr.channel;
    const facts = { isFileChannel: channel instanceof Ci.nsIFileChannel, isJarChannel: channel instanceof Ci.nsIJARChannel };
    xhr.responseType = 'arraybuffer';
    xhr.onloadend = () => resolve({ ...facts, status: xhr.status, bytes: xhr.response ? xhr.response.byteLength : 0 });
    xhr.send(null);
  });
}

function pluginScope(name, zotero) {
  const scope = Cu.Sandbox(Services.scriptSecurityManager.getSystemPrincipal(), {
    sandboxName: name,
    wantGlobalProperties: PLUGIN_GLOBAL_PROPERTIES,
  });
  // What Zotero copies in from its own window.
  Object.assign(scope, { Zotero: zotero, Services, setTimeout, clearTimeout, setInterval, clearInterval });
  return scope;
}

/** @param {boolean | null} value @param {string[]} [prefs] null restores the default */
function setEvalPrefs(value, prefs = EVAL_PREFS) {
  for (const pref of prefs) {
    if (value === null) Services.prefs.clearUserPref(pref);
    else Services.prefs.setBoolPref(pref, value);
  }
}

function evalPrefValues() {
  return Object.fromEntries(EVAL_PREFS.map((pref) => [pref, Services.prefs.getBoolPref(pref, false)]));
}

/**
 * Loads a script into the scope; each `X is not defined` thrown while it loads names a global the
 * scope lacks: it is copied from the main window (what the plugin must do before loading it) and
 * the load is repeated. Returns the names in the order they were needed and the last failure.
 */
function loadProvidingGlobals(url, scope, win) {
  const provided = [];
  const thrownBy = [];
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      Services.scriptloader.loadSubScriptWithOptions(url, { target: scope, ignoreCache: true });
      return { provided, thrownBy, failure: null };
    } catch (error) {
      const missing = /^(\w+) is not defined$/.exec(String(error && error.message));
      if (!missing || provided.includes(missing[1]) || typeof win[missing[1]] === 'undefined') {
        return { provided, thrownBy, failure: String(error) };
      }
      provided.push(missing[1]);
      thrownBy.push(String(error.fileName).replace(/^.*\/content\//, ''));
      scope[missing[1]] = win[missing[1]];
    }
  }
  return { provided, thrownBy, failure: 'too many attempts' };
}

/**
 * The chat turn in a scope holding the slim bundle: the plugin's own code first copies
 * `run.provideUpFront` from the main window (as docs/zotero-plugin.md shows), then the AI SDK
 * bundle and chat-checks.js load, and the chat scenario runs.
 */
async function runChat(scope, base, zotero, run, wasmURL) {
  const out = { name: run.name };
  out.globals = Object.fromEntries(CHAT_PROBED_GLOBALS.map((g) => [g, Cu.evalInSandbox(`typeof ${g}`, scope)]));
  try {
    Cu.evalInSandbox(`{
      const win = Zotero.getMainWindow();
      for (const name of ${JSON.stringify(run.provideUpFront)}) globalThis[name] ??= win[name];
    }`, scope);
    out.aiSdkLoad = loadProvidingGlobals(`${base}${run.bundle}`, scope, zotero.getMainWindow());
    Services.scriptloader.loadSubScriptWithOptions(`${base}chat-checks.js`, { target: scope, ignoreCache: true });
    out.report = JSON.parse(await scope.bibgenieChat.run(run.input, wasmURL));
  } catch (error) {
    out.fatal = String(error);
    out.stack = String(error && error.stack);
  }
  return out;
}

/** One plugin package: registered, loaded into a fresh scope, checked, unregistered. */
async function runPackage(pkg, zotero, input, full, chatRuns) {
  const aomStartup = Cc['@mozilla.org/addons/addon-manager-startup;1'].getService(Ci.amIAddonManagerStartup);
  const handle = aomStartup.registerChrome(Services.io.newURI(`${pkg.rootURI}manifest.json`), [['content', pkg.name, 'content/']]);
  const result = { name: pkg.name };
  try {
    const base = `chrome://${pkg.name}/content/`;
    const scope = pluginScope(pkg.name, zotero);
    result.globalsBefore = Object.fromEntries(PROBED_GLOBALS.map((g) => [g, Cu.evalInSandbox(`typeof ${g}`, scope)]));
    Services.scriptloader.loadSubScriptWithOptions(`${base}bibgenie-compaction.js`, { target: scope, ignoreCache: true });
    Services.scriptloader.loadSubScriptWithOptions(`${base}plugin-checks.js`, { target: scope, ignoreCache: true });
    // Loading the bundle must not have added what the sandbox lacks.
    result.globalsAfter = Object.fromEntries(PROBED_GLOBALS.map((g) => [g, Cu.evalInSandbox(`typeof ${g}`, scope)]));
    const wasmURL = `${base}bibgenie_compaction_bg.wasm`;
    result.xhr = await xhrFacts(wasmURL);
    setEvalPrefs(null);
    result.prefsWithout = evalPrefValues();
    result.withoutEvalPrefs = JSON.parse(await scope.bibgenieChecks.load(wasmURL));
    if (full) {
      // Either pref alone is enough (the loader's message says "or").
      result.onePref = {};
      for (const pref of EVAL_PREFS) {
        setEvalPrefs(true, [pref]);
        result.onePref[pref] = JSON.parse(await scope.bibgenieChecks.load(wasmURL));
        scope.bibgenieChecks.unload();
        setEvalPrefs(null);
      }
    }
    setEvalPrefs(true);
    // The second package initializes through wasm-bindgen's deprecated call first (its warning path).
    if (!full) result.deprecatedInitSync = JSON.parse(await scope.bibgenieChecks.deprecatedInitSync(wasmURL));
    result.withEvalPrefs = JSON.parse(await scope.bibgenieChecks.load(wasmURL));
    if (result.withEvalPrefs.ok) {
      result.checks = JSON.parse(await (full ? scope.bibgenieChecks.store(input) : scope.bibgenieChecks.quick(input)));
    }
    if (full && result.withEvalPrefs.ok && chatRuns) {
      result.chats = [];
      for (const [j, run] of chatRuns.entries()) {
        // The first chat runs in the store scenario's scope; the others each in a fresh plugin scope.
        const chatScope = j === 0 ? scope : pluginScope(`${pkg.name}-${run.name}`, zotero);
        if (j !== 0) Services.scriptloader.loadSubScriptWithOptions(`${base}bibgenie-compaction.js`, { target: chatScope, ignoreCache: true });
        result.chats.push(await runChat(chatScope, base, zotero, run, wasmURL));
      }
    }
  } finally {
    setEvalPrefs(null);
    handle.destruct();
  }
  return result;
}

/**
 * @param {{ runtimeURL: string, dbDir: string, packages: Array<{ name: string, rootURI: string }>, input: string, chatRuns?: Array<{ name: string, bundle: string, provideUpFront: string[], input: string }> }} config
 * @returns {Promise<string>} JSON of everything observed
 */
async function runRuntimeChecks(config) {
  const { DBConnection } = ChromeUtils.importESModule(`${config.runtimeURL}chrome/zotero-db-connection.mjs`);
  const { probeConnection } = ChromeUtils.importESModule(`${config.runtimeURL}connection-probe.mjs`);
  const out = { firefox: Services.appinfo.version };

  const probeDb = new DBConnection(PathUtils.join(config.dbDir, 'probe.sqlite'));
  try {
    out.probe = await probeConnection(probeDb, { nestedWaitTimeout: 300 });
  } finally {
    await probeDb.closeDatabase();
  }
  const { probeSqliteEngine } = ChromeUtils.importESModule(`${config.runtimeURL}chrome/sqlite-engine-probe.mjs`);
  out.engine = await probeSqliteEngine(PathUtils.join(config.dbDir, 'engine-probe.sqlite'));

  // Zotero.DBConnection(name) opens <data dir>/<name>.sqlite.
  function ZoteroDBConnection(name, options) {
    return new DBConnection(PathUtils.join(config.dbDir, `${name}.sqlite`), options);
  }
  out.packages = [];
  for (const [i, pkg] of config.packages.entries()) {
    // In Zotero the loader fetches through Zotero.HTTP; the scope's own fetch is the fallback.
    const httpRequests = [];
    const request = (method, url, options) => (httpRequests.push(`${method} ${url}`), zoteroHttpRequest(method, url, options));
    // Zotero.getMainWindow(): here Firefox's browser window (a plugin takes missing globals from it).
    const getMainWindow = () => Services.wm.getMostRecentWindow('navigator:browser');
    const zotero = { DBConnection: ZoteroDBConnection, HTTP: { request }, getMainWindow };
    const result = await runPackage(pkg, zotero, config.input, i === 0, config.chatRuns);
    out.packages.push({ ...result, httpRequests });
  }
  return JSON.stringify(out);
}

/**
 * A plugin scope for a bench (bench/speed/main-thread-zotero.mjs), built as runRuntimeChecks builds
 * the store scenario's: the package registered as chrome:// content from `pkg.rootURI`, a fresh
 * scope with the same Zotero object (DBConnection over the real engine in `dbDir`, HTTP, getMainWindow),
 * the slim bundle and then each of `scripts` (file names in content/) loaded into it, Zotero's eval
 * prefs set (real Zotero sets both) and the wasm loaded by the plugin's loadCompaction.
 * close() unregisters the package and clears the prefs.
 * @param {{ runtimeURL: string, dbDir: string, pkg: { name: string, rootURI: string }, scripts: string[] }} config
 */
async function openPluginScope(config) {
  const { DBConnection } = ChromeUtils.importESModule(`${config.runtimeURL}chrome/zotero-db-connection.mjs`);
  function ZoteroDBConnection(name, options) {
    return new DBConnection(PathUtils.join(config.dbDir, `${name}.sqlite`), options);
  }
  const getMainWindow = () => Services.wm.getMostRecentWindow('navigator:browser');
  const zotero = { DBConnection: ZoteroDBConnection, HTTP: { request: zoteroHttpRequest }, getMainWindow };
  const aomStartup = Cc['@mozilla.org/addons/addon-manager-startup;1'].getService(Ci.amIAddonManagerStartup);
  const { pkg } = config;
  const handle = aomStartup.registerChrome(Services.io.newURI(`${pkg.rootURI}manifest.json`), [['content', pkg.name, 'content/']]);
  const close = () => {
    setEvalPrefs(null);
    handle.destruct();
  };
  try {
    const base = `chrome://${pkg.name}/content/`;
    const scope = pluginScope(pkg.name, zotero);
    for (const file of ['bibgenie-compaction.js', ...config.scripts]) {
      Services.scriptloader.loadSubScriptWithOptions(`${base}${file}`, { target: scope, ignoreCache: true });
    }
    setEvalPrefs(true);
    const wasmURL = `${base}bibgenie_compaction_bg.wasm`;
    const version = await Cu.evalInSandbox(
      `BibgenieCompaction.loadCompaction({ wasmURL: ${JSON.stringify(wasmURL)} }).then(() => BibgenieCompaction.version())`, scope);
    return { scope, version, firefox: Services.appinfo.version, close };
  } catch (error) {
    close();
    throw error;
  }
}
