// The turns of a scripted session through the controller, as an app sends them: the preflight
// (which may compact first), the question and the answer stored, then the after-turn check (which
// may compact). Shared by the retention benches; each reads the projection in `afterCompaction`.

/**
 * Runs `script` ([{ user, assistant }], one entry a turn) and returns how many turns were sent.
 * `beforeTurn(turn)` runs before the turn's preflight, `afterStored(turn, user, assistant)` once both
 * messages are stored; `afterCompaction()` after each committed compaction. A turn the preflight
 * does not send ends the run, logged under `label`.
 */
export async function driveTurns({ controller, store, sessionId, script, label, log, afterCompaction, beforeTurn = () => {}, afterStored = () => {} }) {
  let sent = 0;
  for (const [turn, { user, assistant }] of script.entries()) {
    beforeTurn(turn);
    const result = await controller.submit(user);
    if (result.outcome?.status === 'committed') await afterCompaction();
    if (result.status !== 'send') {
      log(`${label}: turn ${turn} not sent (${result.status} ${result.reason})`);
      break;
    }
    if (!result.stored) await store.appendMessage(sessionId, user);
    await store.appendMessage(sessionId, assistant);
    afterStored(turn, user, assistant);
    sent += 1;
    const outcome = await controller.afterTurn();
    if (outcome?.status === 'committed') await afterCompaction();
  }
  return sent;
}
