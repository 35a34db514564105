import type { ExecutionRef, RunningImport } from '../control-plane/control-plane.js';
import type { QueueState } from '../contract/workflow-payloads.js';

/** The first wait; each next one doubles, up to QUEUE_MAX_WAIT_SECONDS. */
export const QUEUE_FIRST_WAIT_SECONDS = 5;
/**
 * At most 15 minutes between asks (an import worth queueing behind runs for hours). One ask costs the parent
 * execution 9 history events (Task 5, Choice 2, Wait 2), 39 if preflight used every retry (10 x 3 more), so
 * the 72 hours of waiting the README promises (arithmetic in docs/limits.md) cost at most (72 x 4 + 8) x 39 = 11,544 of its 25,000 events.
 */
export const QUEUE_MAX_WAIT_SECONDS = 900;

export const NOT_QUEUED: QueueState = { waiting: false, behind: null, waitSeconds: 0, waitedSeconds: 0 };

/** Whether `self` must wait for an earlier import into `table`, and how long before it asks again. */
export function queuePosition(
  self: ExecutionRef,
  table: string,
  running: RunningImport[],
  previous: QueueState,
  firstWaitSeconds = QUEUE_FIRST_WAIT_SECONDS,
): QueueState {
  const ahead = running
    .filter((other) => other.id !== self.id && other.table === table && startsBefore(other, self))
    .sort((a, b) => (startsBefore(a, b) ? -1 : 1));
  const waitedSeconds = previous.waitedSeconds + (previous.waiting ? previous.waitSeconds : 0);
  if (ahead.length === 0) return { ...NOT_QUEUED, waitedSeconds };
  const waitSeconds = previous.waiting ? Math.min(QUEUE_MAX_WAIT_SECONDS, previous.waitSeconds * 2) : firstWaitSeconds;
  return { waiting: true, behind: ahead[0].id, waitSeconds, waitedSeconds };
}

function startsBefore(a: ExecutionRef, b: ExecutionRef): boolean {
  const [ta, tb] = [Date.parse(a.startTime), Date.parse(b.startTime)];
  return ta < tb || (ta === tb && a.id < b.id);
}
