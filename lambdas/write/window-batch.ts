import type { WriteRequest } from '@aws-sdk/client-dynamodb';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { CombineRows } from './combine-rows.js';
import type { Item } from './item-sink.js';
import type { RequestSlots } from './request-slots.js';
import { sendWithRetries, type AttemptReply, type RetryContext, type RetryCounts } from '../retry/retry-loop.js';
import { batchRetriesSpent, batchWriteFailed } from './batch-errors.js';
import { leftoverEntries, type SendBatchWrite } from './leftovers.js';
import type { PartitionWindow, WindowEntry } from './partition-window.js';
import type { TablePace } from './table-pace.js';

/**
 * A reply that refused more than this share of its rows counts as pushed back for the adaptive limit. Locally and in
 * AWS a reply comes back in milliseconds, so requests in flight set the rate offered: 16 x 25 rows every few ms is many
 * times a table at its capacity, and every row it refuses costs a seat in a later request. One hot partition refuses
 * only its own rows, a few of 25 (4% each): those alone do not cut. At 0.5 the limit hardly moved and random keys cost
 * 0.08-0.09 requests per item at P = 8 (2x the floor); at 0.1, 0.044-0.055 at the same share of capacity on a
 * loaded machine, where the client was slower than the table. On a quiet one it was 0.12-0.14 until the lane's rate
 * (table-pace.ts) paced the offer (docs/performance.md, what was tried).
 */
export const TABLE_FULL_SHARE = 0.1;

/** What the BatchWriter hands its windowed path. */
export interface WindowedSenderOptions {
  readonly table: string;
  readonly send: SendBatchWrite;
  readonly toRequest: (item: Item) => WriteRequest;
  readonly combine: CombineRows;
  /** The table's key attributes: the partition key groups the window, the full key matches UnprocessedItems. */
  readonly keys: readonly KeyAttribute[];
  readonly slots: RequestSlots;
  readonly retrying: RetryContext;
  readonly retries: RetryCounts;
  /** The writer's counts, kept up to date here. */
  readonly tally: { written: number; replaced: number };
  /** The clock of the back-offs in ms. @default performance.now */
  readonly now?: () => number;
  /** True once the lane must stop sending (WriterOptions.halt: a pause, a lost lease). @default - never */
  readonly halt?: () => boolean;
  /** Aborted at the invocation's deadline: the lane sends held rows for DEADLINE_DRAIN_MS more, then halts. */
  readonly stopping?: AbortSignal;
}

/** What one batch of the window is sent with: the sender's options, its window, clock, back-off and halt. */
export interface WindowBatchContext extends WindowedSenderOptions {
  readonly window: PartitionWindow;
  readonly now: () => number;
  /** A partition's back-off on the retry ladder's rung. */
  readonly delay: (rung: number) => number;
  /** Told of every reply that wrote some of its rows: the lane's rate follows the table's (table-pace.ts). */
  readonly pace?: TablePace;
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
    context.pace?.replied(pending.length, refused.length, context.now());
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
