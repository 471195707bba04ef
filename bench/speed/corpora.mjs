// Node only: the estimator bench's real-text corpora (Chinese, Japanese, Korean, Russian and English
// man pages, docs, Rust sources, JSON) for the throughput table, read through its own loader
// (cached under bench/.corpora/ by `node bench/estimator/fidelity.mjs`).
import { pickReal } from './lib.mjs';

export async function realCorpora(log) {
  try {
    const { loadCorpora } = await import('../estimator/lib.mjs');
    return pickReal(await loadCorpora({ log }));
  } catch (e) {
    log(`real-text corpora unavailable (${e.message}); sample-session text only`);
    return [];
  }
}
