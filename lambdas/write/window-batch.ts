import { sendWithRetries, type AttemptReply } from '../retry/retry-loop.js';
import { batchRetriesSpent, batchWriteFailed } from './batch-errors.js';
import { leftoverEntries } from './leftovers.js';
import type { PartitionWindow, WindowEntry } from './partition-window.js';
import type { WindowedSenderOptions } from './windowed-sender.js';

/**
 * A reply that refused more than this share of its rows counts as pushed back for the adaptive limit. Locally and in
 * AWS a reply comes back in milliseconds, so requests in flight set the rate offered: 16 x 25 rows every few ms is many
 * times a table at its capacity, and every row it refuses costs a seat in a later request. One hot partition refuses
 * only its own rows, a few of 25 (4% each): those alone do not cut. At 0.5 the limit hardly moved and random keys cost
 * 0.08-0.09 requests per item at P = 8 (2x the floor); at 0.1, 0.044-0.055 at the same share of capacity
 * (docs/performance.md, what was tried).
 */
export const TABLE_FULL_SHARE = 0.1;

/** What one batch of the window is sent with: the sender's options, its window, clock, back-off and halt. */
export interface WindowBatchContext extends WindowedSenderOptions {
  readonly window: PartitionWindow;
  readonly now: () => number;
  /** A partition's back-off on the retry ladder's rung. */
  readonly delay: (rung: number) => number;
  /** True once the lane stops sending (a pause, its deadline): the batch's rows go back to the window unsent. */
  readonly halted: () => boolean;
}

/**
 * One batch through the writers' one retry loop (retry/retry-loop.ts): a reply that wrote nothing (a throttle, an
 * error worth retrying, every row refused) is a stall, and the slot sends the same batch again after the ladder's
 * wait, failing after `maxAttempts` stalls in a row, as every batch did; a reply that wrote some rows hands the
 * rest back to the window, their keys backing off a partition's refill, and frees the slot for other keys. Once the
 * lane halts, the next attempt sends nothing: the rows go back to the window, where the lane's checkpoint finds them.
 */
export async function sendWindowBatch(batch: WindowEntry[], context: WindowBatchContext): Promise<void> {
  const { table, retrying, retries, window } = context;
  let pending: readonly WindowEntry[] = batch;
  const attempt = async (): Promise<AttemptReply> => {
    if (context.halted()) {
      window.restore(pending);
      pending = [];
      return { pushedBack: false, progressed: true };
    }
    const refused = await sendOnce(pending, context);
    if (refused.length === pending.length) return { pushedBack: true, progressed: false };
    if (refused.length > 0) {
      retries.forLeftovers++;
      retrying.onThrottle?.();
    }
    window.settled(pending, refused, context.now(), context.delay);
    context.tally.replaced = window.combined;
    pending = [];
    return { pushedBack: false, progressed: true };
  };
  const failed = (error: unknown) => batchWriteFailed(table, error);
  const exhausted = (attempts: number, lastError: unknown) =>
    batchRetriesSpent(table, pending.length, attempts, lastError);
  // The limit is told of each reply here, whose share of refused rows it judges, not by the loop.
  const loopContext = { ...retrying, limit: undefined };
  await sendWithRetries({ pending: () => pending.length, attempt, failed, exhausted }, loopContext, retries).catch(
    (error: unknown) => {
      window.restore(pending);
      throw error;
    },
  );
}

/** Sends `pending` once; returns the rows the reply refused, and tells the adaptive limit how the reply went. */
async function sendOnce(pending: readonly WindowEntry[], context: WindowBatchContext): Promise<WindowEntry[]> {
  const { table, send, toRequest, retrying, keys } = context;
  const ticket = retrying.limit?.started() ?? 0;
  const input = { RequestItems: { [table]: pending.map((entry) => toRequest(entry.item)) } };
  const output = await send(input).catch((error: unknown) => {
    retrying.limit?.replied(ticket, true); // the loop classifies the error; a throttle or a failure, it wrote nothing
    throw error;
  });
  const left = output.UnprocessedItems?.[table] ?? [];
  const refused = leftoverEntries(pending, left, keys, (entry) => toRequest(entry.item));
  context.tally.written += pending.length - refused.length;
  retrying.limit?.replied(ticket, refused.length > TABLE_FULL_SHARE * pending.length);
  return refused;
}
