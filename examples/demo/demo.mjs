#!/usr/bin/env node
// The bibgenie-compaction demo: a 44-turn Zotero research session in a SQLite file, its context
// estimate against a 32k model, an automatic compaction through the CompactionController, the
// resulting checkpoint and projection, then a send that is too large for an 8k model.
//
//   ./build.sh demo                      # from a clone: build, pack, install, run this file
//   node demo.mjs [--json] [--db PATH] [--keep] [--session FILE]
//
// Code to copy: it imports only `bibgenie-compaction` (plus better-sqlite3, and optionally the AI
// SDK), and reads the session from tests/fixtures/sample-session.json of the repository (or the
// file given with --session).
//
// The summary comes from the embedded extractive summarizer, or from a real OpenAI-compatible
// model when BIBGENIE_OPENAI_BASE_URL and BIBGENIE_MODEL are set (BIBGENIE_OPENAI_API_KEY is
// sent as the bearer token) and `ai` plus `@ai-sdk/openai-compatible` can be imported.

import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as compaction from 'bibgenie-compaction';
import { SqliteStore, createAiSdkSummarizer } from 'bibgenie-compaction';

const SESSION_ID = 'demo-research-session';
/** The model the session is checked against: a 32k window, so the 44-turn session is over it. */
const MODEL_32K = { id: 'demo-32k', contextWindow: 32768, maxOutputTokens: 4096 };
/** The small model of the preflight: an 8k window. */
const MODEL_8K = { id: 'demo-8k', contextWindow: 8192, maxOutputTokens: 1024 };
/** Size of the pasted draft in the preflight (UTF-8 bytes). */
const DRAFT_BYTES = 40 * 1024;
/** What the assistant sends with every request besides the session. */
const OVERHEAD = {
  system:
    'You are a research assistant inside Zotero. Use the tools to search the library, read PDF and EPUB attachments and annotations. Cite every claim with the Zotero item key and the page label. Never change the library without approval.',
  tools: {
    zoteroSearch: { q: 'string', qmode: 'titleCreatorYear | everything', itemType: 'string', dateFrom: 'string', collection: 'string', limit: 'number' },
    zoteroGetItem: { itemKey: 'string', includeChildren: 'boolean' },
    readPdfPage: { attachmentKey: 'string', pageIndex: 'number' },
    readEpubSection: { attachmentKey: 'string', sectionIndex: 'number' },
    zoteroAnnotations: { attachmentKey: 'string', pageLabel: 'string' },
    zoteroCollections: { parentCollection: 'string', includeSubcollections: 'boolean' },
    zoteroTags: { itemKeys: 'string[]' },
    zoteroAddTag: { itemKeys: 'string[]', tag: 'string', type: 'number', needsApproval: true },
  },
};

// ---------------------------------------------------------------------------------------------
// Arguments and output

function parseArgs(argv) {
  const args = { json: false, keep: false, db: null, session: null, help: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--json') args.json = true;
    else if (a === '--keep') args.keep = true;
    else if (a === '--db') args.db = argv[++i];
    else if (a.startsWith('--db=')) args.db = a.slice(5);
    else if (a === '--session') args.session = argv[++i];
    else if (a.startsWith('--session=')) args.session = a.slice(10);
    else if (a === '-h' || a === '--help') args.help = true;
    else throw new Error(`unknown argument ${a} (try --help)`);
  }
  if (args.db === undefined || args.db === '') throw new Error('--db needs a path');
  if (args.session === undefined || args.session === '') throw new Error('--session needs a path');
  return args;
}

const USAGE = `usage: demo.mjs [--json] [--db PATH] [--keep] [--session FILE]

  --db PATH   the SQLite session file (default: .work/demo.sqlite)
  --session FILE  the session to import, as JSON (default: tests/fixtures/sample-session.json of the
              repository: BIBGENIE_REPO_ROOT's, else the one two folders above this file)
  --keep      reuse the file instead of recreating it (a second run compacts the compacted session)
  --json      print one JSON object instead of the report

  BIBGENIE_OPENAI_BASE_URL, BIBGENIE_MODEL, BIBGENIE_OPENAI_API_KEY: summarize with a real
  OpenAI-compatible model (needs the npm packages ai and @ai-sdk/openai-compatible).`;

const isTTY = Boolean(process.stdout.isTTY);
const style = (code) => (s) => (isTTY && !process.env.NO_COLOR ? `\x1b[${code}m${s}\x1b[0m` : String(s));
const bold = style('1');
const dim = style('2');
const green = style('32');
const red = style('31');

const fmt = (n) => Number(n).toLocaleString('en-US');
const pct = (part, whole) => `${Math.round((100 * part) / whole)}%`;

/** One line of a text, at most `width` columns (CJK counted double). */
function preview(text, width = 72) {
  const flat = String(text).replace(/\s+/g, ' ').trim();
  let out = '';
  let cols = 0;
  for (const ch of flat) {
    const w = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/.test(ch) ? 2 : 1;
    if (cols + w > width - 1) return out + '…';
    out += ch;
    cols += w;
  }
  return out;
}

/** What a message is about, in one line: its text, or its tools when it has no text. */
function messagePreview(message) {
  if (message.metadata?.checkpoint) return `[checkpoint summary] ${message.parts[0]?.text ?? ''}`;
  const parts = message.parts ?? [];
  const texts = parts.filter((p) => p.type === 'text').map((p) => p.text);
  const tools = parts.filter((p) => p.type.startsWith('tool-')).map((p) => `${p.type.slice(5)}${p.state === 'output-available' ? '' : `:${p.state}`}`);
  const files = parts.filter((p) => p.type === 'file').map((p) => `[${p.mediaType}]`);
  const prefix = [...files, ...(tools.length ? [`[${tools.join(', ')}]`] : [])].join(' ');
  return [prefix, texts.join(' ')].filter(Boolean).join(' ');
}

/** The checkpoint summary split at its `## ` headings. */
function sections(summary) {
  const out = [];
  for (const block of summary.split(/^(?=## )/m)) {
    const [heading, ...body] = block.split('\n');
    if (heading.startsWith('## ')) out.push({ heading: heading.slice(3).trim(), body: body.join('\n').trim() });
  }
  return out;
}

/** A progress line on stderr while a compaction runs (one line when stderr is not a terminal). */
function progressLine(enabled) {
  const frames = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
  let timer = null;
  let started = 0;
  let label = '';
  return {
    start(text) {
      if (!enabled) return;
      label = text;
      started = Date.now();
      if (!process.stderr.isTTY) {
        process.stderr.write(`… ${label}\n`);
        return;
      }
      let i = 0;
      const draw = () => process.stderr.write(`\r${frames[i++ % frames.length]} ${label} ${dim(`${((Date.now() - started) / 1000).toFixed(1)}s`)}\x1b[K`);
      draw();
      timer = setInterval(draw, 80);
    },
    stop() {
      if (!enabled || !started) return;
      if (timer) clearInterval(timer);
      timer = null;
      if (process.stderr.isTTY) process.stderr.write('\r\x1b[K');
      started = 0;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Dependencies the package does not bundle (better-sqlite3; optionally the AI SDK)

/** Folders whose node_modules may hold the demo's dependencies, nearest first. */
function searchRoots() {
  const here = dirname(fileURLToPath(import.meta.url));
  const roots = [process.cwd()];
  if (process.env.BIBGENIE_REPO_ROOT) roots.push(join(process.env.BIBGENIE_REPO_ROOT, 'tests'));
  roots.push(resolve(here, '..', '..', 'tests')); // examples/demo/ inside a clone
  return roots;
}

/** Imports a package from the usual resolution, then from the search roots; null when absent. */
async function importOptional(name) {
  try {
    return await import(name);
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  }
  for (const root of searchRoots()) {
    let path;
    try {
      path = createRequire(join(root, 'package.json')).resolve(name);
    } catch {
      continue;
    }
    return import(pathToFileURL(path).href);
  }
  return null;
}

async function openStore(file, keep) {
  const sqlite = await importOptional('better-sqlite3');
  if (!sqlite) {
    throw new Error('better-sqlite3 is not installed: run ./build.sh demo, or `npm install better-sqlite3@12` where you run the demo');
  }
  mkdirSync(dirname(file), { recursive: true });
  if (!keep) for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
  return new SqliteStore(sqlite.default ?? sqlite, file);
}

/** The session to import: --session, else the repository's fixture (tests/fixtures/sample-session.json). */
function readSession(path) {
  const root = process.env.BIBGENIE_REPO_ROOT;
  const file = path
    ? resolve(path)
    : root
      ? join(root, 'tests', 'fixtures', 'sample-session.json')
      : fileURLToPath(new URL('../../tests/fixtures/sample-session.json', import.meta.url));
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the session ${file} (${error.message}); pass --session FILE`);
  }
}

/** The summarizer: a real model when configured and installed, else the extractive one. */
async function chooseSummarizer(notes) {
  const extractive = { name: 'embedded extractive summarizer (no model)', summarize: compaction.extractiveSummaryInSlices };
  const baseURL = process.env.BIBGENIE_OPENAI_BASE_URL;
  const modelId = process.env.BIBGENIE_MODEL;
  if (!baseURL || !modelId) return extractive;
  let ai;
  let provider;
  try {
    [ai, provider] = [await importOptional('ai'), await importOptional('@ai-sdk/openai-compatible')];
  } catch (error) {
    notes.push(`the AI SDK could not be loaded (${error.message.split('\n')[0]}): using the extractive summarizer.`);
    return extractive;
  }
  if (!ai?.generateText || !provider?.createOpenAICompatible) {
    notes.push('BIBGENIE_OPENAI_BASE_URL is set, but `ai` and `@ai-sdk/openai-compatible` are not both installed: using the extractive summarizer (npm install ai@5 @ai-sdk/openai-compatible@1).');
    return extractive;
  }
  const openai = provider.createOpenAICompatible({ name: 'bibgenie-demo', baseURL, apiKey: process.env.BIBGENIE_OPENAI_API_KEY });
  return {
    name: `${modelId} at ${baseURL} (AI SDK generateText)`,
    summarize: createAiSdkSummarizer({ model: openai(modelId), generateText: ai.generateText, callOptions: { temperature: 0, maxRetries: 1 } }),
  };
}

/** A 40 KB pasted draft: the user's own notes, far more than an 8k model can take. */
function pastedDraft() {
  const paragraph =
    'Draft 2.1 (pasted from my notes): Retrieval-augmented generation for scientific question answering depends on three choices — the unit of retrieval, the amount of evidence, and how the generator is held to it. Section-aware chunks outperform fixed windows; about eight passages suffice; self-critique improves citation precision largely by citing less. 下一步：补充 SciQA-Long 的评价指标与页码。\n\n';
  let text = '';
  while (Buffer.byteLength(text) < DRAFT_BYTES) text += paragraph;
  return text;
}

// ---------------------------------------------------------------------------------------------
// The demo

async function run(args) {
  const notes = [];
  const report = { notes };
  await compaction.init();

  const root = process.env.BIBGENIE_REPO_ROOT ?? process.cwd();
  const file = resolve(root, args.db ?? join('.work', 'demo.sqlite'));
  const store = await openStore(file, args.keep);
  try {
    // 1. The session file
    const existing = (await store.listSessions()).includes(SESSION_ID);
    if (!existing) await store.importSession(readSession(args.session), { sessionId: SESSION_ID });
    const session = await store.load(SESSION_ID);
    const branch = compaction.readBranch(session);
    const userTurns = branch.nodes.filter((n) => n.role === 'user').length;
    report.db = file;
    report.session = {
      id: SESSION_ID,
      reused: existing,
      nodes: session.nodes.length,
      userTurns,
      checkpoints: branch.nodes.filter((n) => n.checkpoint).length,
      jsonBytes: Buffer.byteLength(JSON.stringify(session)),
      leafId: session.leafId,
      branchRevision: session.branchRevision,
    };
    if (!args.json) {
      console.log(bold('bibgenie-compaction demo'));
      const bytes = ['', '-wal'].reduce((sum, suffix) => sum + (statSync(file + suffix, { throwIfNoEntry: false })?.size ?? 0), 0);
      console.log(`\n${bold('1. Session file')}  ${file} (${fmt(bytes)} bytes with its WAL, SQLite via better-sqlite3)`);
      console.log(`   ${existing ? 'reused' : 'imported'} session "${SESSION_ID}": ${report.session.nodes} nodes, ${userTurns} user turns, ` +
        `${fmt(report.session.jsonBytes)} bytes of JSON, ${report.session.checkpoints} checkpoints, leaf ${session.leafId} (revision ${session.branchRevision})`);
      console.log(dim('   Zotero searches, item records, PDF pages, annotations, an EPUB chapter, collections and tags,'));
      console.log(dim('   a Chinese paper, a failed tool call, a denied approval, a pasted 1280x800 screenshot.'));
    }

    // 2. The estimate against a 32k model
    const capacity = compaction.capacity(MODEL_32K);
    const before = compaction.estimate(session, MODEL_32K, { overhead: OVERHEAD });
    report.model = MODEL_32K;
    report.capacity = capacity;
    report.estimateBefore = before;
    if (!args.json) {
      console.log(`\n${bold('2. Context estimate')} for ${MODEL_32K.id} (window ${fmt(capacity.contextWindow)}, reserve ${fmt(capacity.reservedTokens)} for output)`);
      const baseline = before.source === 'estimate'
        ? 'no provider usage to build on: all estimated'
        : `${fmt(before.baselineTokens)} from the provider's usage on ${before.baselineMessageId} + ${fmt(before.estimatedTokens)} estimated after it`;
      console.log(`   projected context  ${bold(fmt(before.tokens))} tokens  (${baseline})`);
      console.log(`   safe input limit   ${fmt(before.safeInputLimit)}   auto-compact at ${fmt(capacity.autoCompactAt)}   tail budget ${fmt(capacity.tailBudget)}`);
      console.log(`   → ${before.fits ? green('fits') : red(`over the limit (${pct(before.tokens, before.safeInputLimit)} of it)`)}`);
    }

    // 3. Automatic compaction through the controller
    const summarizer = await chooseSummarizer(notes);
    const progress = progressLine(!args.json);
    let summaryRequest = null;
    const summarize = async (request, signal) => {
      summaryRequest = request;
      progress.start(`compacting: summarizing with the ${summarizer.name}`);
      try {
        return await summarizer.summarize(request, signal);
      } finally {
        progress.stop();
      }
    };
    const controller = new compaction.CompactionController({
      store, sessionId: SESSION_ID, model: MODEL_32K, summarize, overhead: OVERHEAD,
      // Prices and lifetime of Anthropic's 5-minute cache: the plan reports the cache and what compacting costs.
      cache: compaction.cacheProfile('anthropic-5m'),
    });
    const states = [];
    controller.onStatus = (state) => states.push(state.status);
    const startedAt = Date.now();
    const outcome = await controller.afterTurn();
    const elapsedMs = Date.now() - startedAt;
    report.summarizer = summarizer.name;
    report.compaction = { status: outcome?.status ?? 'skipped', reason: outcome?.reason ?? null, elapsedMs, states, message: outcome?.message };
    if (!args.json) {
      console.log(`\n${bold('3. Automatic compaction')} (controller.afterTurn(), as an app calls it once a response is stored)`);
      console.log(`   summarizer: ${summarizer.name}`);
      const status = outcome?.status ?? 'skipped';
      const shown = status === 'committed' ? green(status) : status === 'noop' ? bold(status) : red(status);
      console.log(`   outcome: ${shown} (${outcome?.reason ?? 'no outcome'}) in ${fmt(elapsedMs)} ms; status events: ${states.join(' → ') || 'none'}`);
      if (outcome?.message) console.log(`   ${red(outcome.message)}`);
    }
    const compacted = outcome?.status === 'committed';
    if (!compacted && outcome?.status !== 'noop') {
      report.ok = false;
      return report;
    }

    // A noop (e.g. a second run with --keep, already under the threshold) shows the newest
    // checkpoint already on the branch, if there is one.
    const after = compacted ? outcome.session : await store.load(SESSION_ID);
    const node = compacted ? outcome.checkpoint : compaction.readBranch(after).nodes.findLast((n) => n.checkpoint);
    const afterEstimate = compaction.estimate(after, MODEL_32K, { overhead: OVERHEAD });
    report.estimateAfter = afterEstimate;
    report.sessionAfter = { nodes: after.nodes.length, leafId: after.leafId, branchRevision: after.branchRevision };
    if (node) {
      const cp = node.checkpoint;
      const byId = new Map(after.nodes.map((n) => [n.id, n]));
      const afterBranch = compaction.readBranch(after).nodes;
      const summarized = compacted ? outcome.plan.summarizeIds.length : null;
      const boundaryIndex = afterBranch.findIndex((n) => n.id === cp.firstKeptMessageId);
      const kept = boundaryIndex >= 0 ? afterBranch.slice(boundaryIndex, afterBranch.indexOf(node)).length : 0;
      const boundaryMessage = byId.get(cp.firstKeptMessageId);
      const ledgerByKind = {};
      for (const e of cp.ledger.entries) (ledgerByKind[e.kind] ??= []).push(e);
      report.checkpoint = {
        id: node.id,
        new: compacted,
        parentId: node.parentId,
        mode: cp.mode,
        firstKeptMessageId: cp.firstKeptMessageId,
        previousCheckpointId: cp.previousCheckpointId,
        tokensBefore: cp.tokensBefore,
        tokensAfter: cp.tokensAfter,
        cost: compacted ? outcome.plan.cost ?? null : null,
        basis: cp.basis,
        summarizedMessages: summarized,
        keptMessages: kept,
        summaryMaxOutputTokens: summaryRequest?.maxOutputTokens ?? null,
        summaryPromptChars: summaryRequest?.prompt.length ?? null,
        sections: Object.fromEntries(sections(cp.summary).map((s) => [s.heading, s.body])),
        ledger: cp.ledger,
      };

      if (!args.json) {
        const how = compacted ? `appended after ${node.parentId}; revision ${session.branchRevision} → ${after.branchRevision}` : 'already on the branch from an earlier run';
        console.log(`\n${bold('4. The checkpoint')} ${node.id} (mode ${cp.mode}, ${how})`);
        console.log(`   tokens before ${bold(fmt(cp.tokensBefore))} → after ${bold(fmt(cp.tokensAfter))} (estimate of the new projection now: ${fmt(afterEstimate.tokens)}, ${afterEstimate.fits ? green('fits') : red('still over')} ${fmt(afterEstimate.safeInputLimit)})`);
        const cost = compacted ? outcome.plan.cost : null;
        if (cost) {
          const usd = (x) => `$${x.toFixed(4)}`;
          console.log(`   cost (anthropic-5m, cache ${outcome.plan.cache.state}): cached prefix invalidated ${fmt(cost.cachedPrefixInvalidated)} tokens; next request ${usd(cost.nextRequestWith)} with the compaction, ${usd(cost.nextRequestWithout)} without; summary request ${usd(cost.summaryRequest)}`);
        }
        const folded = summarized === null ? '' : `${summarized} messages summarized, `;
        console.log(`   boundary: ${folded}${kept} kept verbatim from ${cp.firstKeptMessageId}:`);
        console.log(`     ${dim('user:')} ${preview(messagePreview(boundaryMessage ?? { parts: [] }), 90)}`);
        if (summaryRequest) {
          console.log(`   summary request: ${fmt(summaryRequest.prompt.length)} characters of material, at most ${fmt(summaryRequest.maxOutputTokens)} output tokens, no tools`);
        }
        console.log(`\n   ${bold('Summary sections')}`);
        for (const s of sections(cp.summary)) {
          const lines = s.body.split('\n').filter(Boolean);
          console.log(`   ${bold('## ' + s.heading)} ${dim(`(${lines.length} lines)`)}`);
          for (const line of lines.slice(0, 3)) console.log(`     ${preview(line, 100)}`);
          if (lines.length > 3) console.log(dim(`     … ${lines.length - 3} more`));
        }
        console.log(`\n   ${bold('Ledger')} ${cp.ledger.entries.length} Zotero locators, built by code (kept even if the summary drops them):`);
        for (const [kind, entries] of Object.entries(ledgerByKind)) {
          const shown = entries.slice(0, 3).map((e) => `${e.key}${e.label ? ` ${preview(e.label, 38)}` : ''}`);
          console.log(`   ${kind.padEnd(11)} ${String(entries.length).padStart(3)}  ${shown.join('; ')}${entries.length > 3 ? dim(' …') : ''}`);
        }
      }
    }

    // 5. The projection the model sees now
    const projection = compaction.project(after);
    report.projection = {
      checkpointId: projection.checkpointId,
      keptFromId: projection.keptFromId,
      messages: projection.messages.map((m) => ({ id: m.id, role: m.role, preview: preview(messagePreview(m), 100) })),
    };
    if (!args.json) {
      console.log(`\n${bold('5. Projection')} (what the next request sends): ${projection.messages.length} messages instead of ${branch.nodes.length}`);
      for (const m of projection.messages) {
        const role = m.metadata?.checkpoint ? 'summary' : m.role;
        console.log(`   ${dim(m.id.padEnd(16))} ${role.padEnd(9)} ${preview(messagePreview(m), 78)}`);
      }
    }

    // 6. Preflight of a 40 KB pasted draft on an 8k model
    controller.setModel(MODEL_8K);
    const draft = pastedDraft();
    const revisionBefore = (await store.load(SESSION_ID)).branchRevision;
    const sent = await controller.submit(draft);
    const revisionAfter = (await store.load(SESSION_ID)).branchRevision;
    const capacity8k = compaction.capacity(MODEL_8K);
    report.preflight = {
      model: MODEL_8K,
      capacity: capacity8k,
      draftBytes: Buffer.byteLength(draft),
      draftTokens: compaction.estimateMessage({ id: 'draft', role: 'user', parts: [{ type: 'text', text: draft }] }, MODEL_8K),
      status: sent.status,
      reason: sent.reason,
      draftKept: sent.draft === draft,
      plan: sent.outcome?.plan ?? null,
      sessionUnchanged: revisionBefore === revisionAfter,
    };
    if (!args.json) {
      const p = report.preflight;
      console.log(`\n${bold('6. Preflight')} on ${MODEL_8K.id} (window ${fmt(capacity8k.contextWindow)}, safe input ${fmt(capacity8k.safeInputLimit)}): the user pastes a ${fmt(p.draftBytes)}-byte draft`);
      console.log(`   draft alone ≈ ${fmt(p.draftTokens)} tokens; plan: send=${p.plan?.send ?? '-'}, tokens after compacting ≈ ${fmt(p.plan?.tokensAfterEstimate ?? 0)}`);
      const why = p.reason && p.reason !== p.status ? ` (${p.reason})` : '';
      console.log(`   controller.submit(draft) → ${p.status === 'too-large' ? red(p.status) : p.status}${why}: nothing sent, nothing compacted (revision ${revisionBefore} → ${revisionAfter}),`);
      console.log(`   and the draft comes back untouched (${p.draftKept ? green('same string, all ' + fmt(p.draftBytes) + ' bytes') : red('changed!')}) for the user to shorten.`);
    }
    report.ok = sent.status === 'too-large' && report.preflight.draftKept && report.preflight.sessionUnchanged;
    if (!args.json) {
      for (const note of notes) console.log(`\n${dim('note: ' + note)}`);
      console.log(`\n${report.ok ? green('demo finished') : red('demo finished with unexpected results')}; the session stays in ${file}${args.keep ? '' : ' (run with --keep to build on it)'}.`);
    }
    return report;
  } finally {
    store.close();
  }
}

async function main() {
  let args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    console.error(`demo: ${error.message}`);
    process.exit(2);
  }
  if (args.help) {
    console.log(USAGE);
    return;
  }
  try {
    const report = await run(args);
    if (args.json) console.log(JSON.stringify(report, null, 2));
    process.exitCode = report.ok ? 0 : 1;
  } catch (error) {
    if (args.json) console.log(JSON.stringify({ ok: false, error: { code: error.code ?? null, message: error.message } }));
    else console.error(`demo failed: ${error.code ? `[${error.code}] ` : ''}${error.message}`);
    process.exitCode = 1;
  }
}

await main();
