// project, history and readBranch as the package exports them: pure reads of the session they are
// given (nothing is held between calls). The wasm answers with positions, and the arrays are built
// here from the caller's own node objects (no copy of every node through JSON on the way out). For
// repeated calls on one session, hold it: `SessionIndex.from(session)`.
import { historyPositions, projectPositions, readBranchPositions } from '../bibgenie_compaction.js';
import { ObjectNodes } from './node-source.js';

/** @import { BranchReadResult, Projection, Session, SessionNode } from '../bibgenie_compaction.js' */

/** The model projection: the summary message, then the caller's message objects. @param {Session} session @returns {Projection} */
export function project(session) {
  const { items, checkpointId, keptFromId } = projectPositions(session);
  return { checkpointId, keptFromId, messages: new ObjectNodes(session.nodes).messages(items) };
}

/** The active branch, root first: the caller's node objects. @param {Session} session @returns {SessionNode[]} */
export function history(session) {
  const positions = historyPositions(session);
  const nodes = session.nodes;
  return positions.map((i) => nodes[i]);
}

/** The active branch with its integrity problems; `nodes` are the caller's node objects. @param {Session} session @returns {BranchReadResult} */
export function readBranch(session) {
  const { nodes: positions, problems, readOnly } = readBranchPositions(session);
  const nodes = session.nodes; // read after the wasm checked the session
  return { nodes: positions.map((i) => nodes[i]), problems, readOnly };
}
