import type { QueueState } from '../contract/workflow-payloads.js';

export { QUEUE_FIRST_WAIT_SECONDS } from '../environment/config.js';
/**
 * At most 5 minutes between asks: an ask is one ledger read, but each costs the parent execution 11 history
 * events (Preflight 5, ScanComplete? 2, WaitingForLanes? 2, WaitForLanes 2), 41 if preflight used every retry
 * (10 x 3 more), so the 24 hours of waiting the README promises cost at most (24 x 12 + 6) x 41 = 12,054 of its
 * 25,000 events (test/lib/history-limits.test.ts). Lanes free up whenever an import ends; a shorter cap would
 * start a waiting import sooner but wait fewer hours in all.
 */
export const QUEUE_MAX_WAIT_SECONDS = 300;

export const NOT_QUEUED: QueueState = { waiting: false, reason: null, waitSeconds: 0, waitedSeconds: 0 };

/** The queue after an ask the ledger answered with no lanes: wait again, twice as long as the last time. */
export function waitAgain(previous: QueueState, reason: string, firstWaitSeconds: number): QueueState {
  const waitSeconds = previous.waiting ? Math.min(QUEUE_MAX_WAIT_SECONDS, previous.waitSeconds * 2) : firstWaitSeconds;
  return { waiting: true, reason, waitSeconds, waitedSeconds: waited(previous) };
}

/** The queue once lanes are granted: no longer waiting, the time waited kept for the console. */
export function admitted(previous: QueueState): QueueState {
  return { ...NOT_QUEUED, waitedSeconds: waited(previous) };
}

const waited = (previous: QueueState) => previous.waitedSeconds + (previous.waiting ? previous.waitSeconds : 0);
