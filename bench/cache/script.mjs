// The synthetic Zotero research sessions of the cache benches (bench/cache/sessions.mjs,
// bench/cache/placement.mjs): turns with tool steps (search results, PDF pages), pastes, and the
// pauses between turns.
import { prng } from '../../tests/fixtures/session-generator.mjs';
const MINUTE = 60_000;

const WORDS = ('protein digestibility canine diet trial cohort amino acid lysine methionine kibble extruded raw '
  + 'feeding study sample control group outcome measure fecal score apparent ileal nitrogen balance energy '
  + 'metabolizable breed age weight regression model confidence interval randomized blinded crossover').split(' ');

function text(rand, words) {
  const out = [];
  for (let i = 0; i < words; i++) out.push(rand.pick(WORDS));
  return out.join(' ');
}

function zoteroKey(rand) {
  return rand.chars('23456789ABCDEFGHIJKLMNPQRSTUVWXYZ', 8);
}

/** The gap before a turn: mostly minutes, some long pauses (the default gap mix). */
export function gap(rand) {
  const r = rand.next();
  if (r < 0.55) return rand.int(20, 180) * 1000;
  if (r < 0.8) return rand.int(3, 20) * MINUTE;
  if (r < 0.93) return rand.int(20, 90) * MINUTE;
  return rand.int(120, 480) * MINUTE;
}

/** One research turn: the question (sometimes a paste) and the answer with its tool steps. */
function turn(rand, t) {
  const question = { type: 'text', text: `Q${t}: ${text(rand, rand.int(20, 120))}` };
  const parts = [question];
  if (rand.next() < 0.15) parts.push({ type: 'text', text: `Pasted notes:\n${text(rand, rand.int(800, 3_000))}` });
  const answer = [];
  if (rand.next() < 0.7) {
    const items = Array.from({ length: rand.int(4, 12) }, () => ({
      key: zoteroKey(rand), version: rand.int(1, 900), data: { itemType: 'journalArticle', title: text(rand, 8), abstractNote: text(rand, rand.int(60, 160)) },
    }));
    answer.push({ type: 'step-start' }, { type: 'tool-searchLibrary', toolCallId: `s${t}`, state: 'output-available', input: { q: text(rand, 3) }, output: { items } });
  }
  if (rand.next() < 0.45) {
    const page = rand.int(1, 30);
    answer.push({ type: 'step-start' }, {
      type: 'tool-readPdfPages', toolCallId: `p${t}`, state: 'output-available',
      input: { attachmentKey: zoteroKey(rand), pages: [page, page + 1] }, output: { pages: [{ page, text: text(rand, rand.int(700, 2_200)) }] },
    });
  }
  answer.push({ type: 'step-start' }, { type: 'text', text: `A${t}: ${text(rand, rand.int(120, 500))}` });
  return { user: parts, assistant: answer };
}

/** `turns` research turns from `seed`; `gapOf(rand)` draws the pause before each (default: `gap`). */
export function sessionScript(seed, turns, gapOf = gap) {
  const rand = prng(seed);
  return Array.from({ length: turns }, (_, t) => ({ ...turn(rand, t + 1), gap: gapOf(rand) }));
}

