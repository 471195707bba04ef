// The embedded summarizer as a `summarize` callback that lets the page (or Zotero's window) run:
// extractiveSummary's text, made in slices with a pause between them (rule `summarized-in-slices`).
// A round's request on a 1M-token window is about 3 MB of history, which extractiveSummary reads in
// one piece of over 100 ms.
import { ExtractiveFold } from '../bibgenie_compaction.js';
import { SLICE_MS, clock, pause } from '../util/pause.js';
import { abortReason, isAborted } from '../util/abort-signal.js';

/** @import { AbortSignalLike, SummaryRequest } from '../bibgenie_compaction.js' */

/** Bytes of text one step reads before the clock is read again (well under a millisecond). */
const STEP_BYTES = 1 << 14;

/**
 * `extractiveSummary(request)` in slices of about 8 ms with a pause between them: the same text,
 * for `compact`'s, the controller's and `createChat`'s `summarize` where no model summarizes. The
 * request is read when it is called; it rejects as `extractiveSummary` throws (`invalid-request`),
 * or with the signal's reason once the signal aborts (no slice runs after).
 * @param {SummaryRequest} request @param {AbortSignalLike} [signal]
 * @returns {Promise<string>}
 */
export async function extractiveSummaryInSlices(request, signal) {
  const fold = new ExtractiveFold(request);
  try {
    for (let done = false; !done; ) {
      const start = clock();
      while (!done && clock() - start < SLICE_MS) done = fold.step(STEP_BYTES);
      if (done) break;
      await pause();
      if (signal && isAborted(signal)) throw abortReason(signal, 'The summary was aborted.');
    }
    return fold.finish();
  } finally {
    fold.free();
  }
}
