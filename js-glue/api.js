// project, history and readBranch as the package exports them: the wasm answers with positions in
// `session.nodes`, and the arrays are built here from the caller's own node objects (no copy of
// every node through JSON on the way out). The input is not mutated; the arrays are new.
import { historyPositions, projectPositions, readBranchPositions } from './bibgenie_compaction.js';

/** The model projection: the summary message, then the caller's message objects (same errors as before). */
export function project(session) {
  const { items, checkpointId, keptFromId } = projectPositions(session);
  const nodes = session.nodes;
  return { checkpointId, keptFromId, messages: items.map((item) => (typeof item === 'number' ? nodes[item] : item.summary)) };
}

/** The active branch, root first: the caller's node objects. */
export function history(session) {
  const positions = historyPositions(session);
  const nodes = session.nodes;
  return positions.map((i) => nodes[i]);
}

/** The active branch with its integrity problems; `nodes` are the caller's node objects. */
export function readBranch(session) {
  const { nodes: positions, problems, readOnly } = readBranchPositions(session);
  const nodes = session.nodes;
  return { nodes: positions.map((i) => nodes[i]), problems, readOnly };
}
