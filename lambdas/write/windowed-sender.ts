import type { WriteRequest } from '@aws-sdk/client-dynamodb';
import { fullJitterDelay, sleep as realSleep } from '../retry/backoff.js';
import { BATCH_SIZE } from '../retry/batch-retry.js';
import type { CombineRows } from './combine-rows.js';
import type { Item } from './item-sink.js';
import { PartitionWindow, type WindowEntry } from './partition-window.js';
import { lookAhead, RowsPerKey } from './look-ahead.js';
import type { RequestSlots } from './request-slots.js';
import { sendWithRetries, type AttemptReply, type RetryContext, type RetryCounts } from '../retry/retry-loop.js';
import { leftoverEntries, type SendBatchWrite } from './leftovers.js';
import { WakeUp } from './wake-up.js';
import { batchRetriesSpent, batchWriteFailed } from './batch-errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/**
 * A reply that refused more than this share of its rows counts as pushed back for the adaptive limit. A request
 * spread over 25 partition keys that loses most of them met a table full nearly everywhere (fewer requests in flight
 * help); one hot partition refuses only its own rows, a few of 25 (fewer requests would only idle the others).
 */
export const TABLE_FULL_SHARE = 0.5;

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
}

/**
 * The BatchWriter's path when it knows the table's partition key (every put and delete import does): rows wait in a
 * PartitionWindow sized to how many rows share a partition key (look-ahead.ts), a batch takes one row of each key in
 * turn, and rows a reply refused go back to the window, their key waiting a partition's refill, while the freed
 * slot carries other keys. A reply that wrote nothing keeps its batch on the retry ladder (see `attempt`).
 *
 * @example
 * ```ts
 * // Through the BatchWriter: given the table's keys, it sends by this path.
 * const writer = new BatchWriter({ table: 'ngrams', send, keys: [{ name: 'ngram', type: 'S', role: 'HASH' }] });
 * ```
 */
export class WindowedSender {
  failure: Error | undefined;
  private readonly window: PartitionWindow;
  private readonly rowsPerKey = new RowsPerKey();
  private readonly hashKey: string;
  private readonly now: () => number;
  /** Signalled when a request settles. */
  private readonly replied = new WakeUp();

  constructor(private readonly options: WindowedSenderOptions) {
    this.window = new PartitionWindow(options.combine);
    this.hashKey = options.keys.find((key) => key.role === 'HASH')!.name;
    this.now = options.now ?? (() => performance.now());
  }

  /** Holds a row; returns a promise when the window is full (the caller waits while batches go out). */
  add(item: Item, key: string): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    const value = item[this.hashKey];
    const partitionKey = value?.S ?? value?.N ?? JSON.stringify(value);
    this.rowsPerKey.saw(partitionKey);
    this.window.add({ key, partitionKey, item });
    this.options.tally.replaced = this.window.combined;
    return this.window.size >= this.target() ? this.pump(false) : undefined;
  }

  /** Sends every held row and waits until each is written (or the writer failed). */
  async flush(): Promise<void> {
    await this.pump(true);
    if (this.failure) throw this.failure;
  }

  /** Sends batches while the window is full (flushing: until it and the requests in flight are empty). */
  private async pump(flushing: boolean): Promise<void> {
    const { slots } = this.options;
    const busy = () => (flushing ? this.window.size > 0 || slots.inFlight.size > 0 : this.window.size >= this.target());
    while (!this.failure && busy()) {
      if (slots.inFlight.size >= slots.limit.value) {
        await this.replied.wait();
        continue;
      }
      const batch = this.window.take(BATCH_SIZE, this.now());
      // A short batch (the other keys back off or are in flight) waits for a reply while one may come.
      if (batch.length === BATCH_SIZE || (batch.length > 0 && (flushing || slots.inFlight.size === 0))) {
        this.sendBatch(batch);
        continue;
      }
      this.window.restore(batch);
      await this.changeOrReady();
    }
    if (this.failure) throw this.failure;
  }

  private target(): number {
    return lookAhead(this.rowsPerKey.value);
  }

  /** Waits for a reply, or for the first backing-off key to be ready. */
  private changeOrReady(): Promise<void> {
    const readyIn = this.window.nextReadyAt(this.now()) - this.now();
    if (!Number.isFinite(readyIn)) return this.replied.wait();
    return Promise.race([this.replied.wait(), (this.options.retrying.sleep ?? realSleep)(Math.max(1, readyIn))]);
  }

  private sendBatch(batch: WindowEntry[]): void {
    const sent = this.attempt(batch);
    this.options.slots.track(
      sent,
      (error) => void (this.failure ??= error),
      () => this.replied.signal(),
    );
  }

  /**
   * One batch through the writers' one retry loop (retry/retry-loop.ts): a reply that wrote nothing (a throttle, an
   * error worth retrying, every row refused) is a stall, and the slot sends the same batch again after the ladder's
   * wait, failing after `maxAttempts` stalls in a row, as every batch did; a reply that wrote some rows hands the
   * rest back to the window, their keys backing off a partition's refill, and frees the slot for other keys.
   */
  private async attempt(batch: WindowEntry[]): Promise<void> {
    const { table, send, toRequest, retrying, retries, keys } = this.options;
    let pending: readonly WindowEntry[] = batch;
    const attempt = async (): Promise<AttemptReply> => {
      const ticket = retrying.limit?.started() ?? 0;
      const input = { RequestItems: { [table]: pending.map((entry) => toRequest(entry.item)) } };
      const output = await send(input).catch((error: unknown) => {
        retrying.limit?.replied(ticket, true); // the loop classifies the error; a throttle or a failure, it wrote nothing
        throw error;
      });
      const left = output.UnprocessedItems?.[table] ?? [];
      const refused = leftoverEntries(pending, left, keys, (entry) => toRequest(entry.item));
      this.options.tally.written += pending.length - refused.length;
      retrying.limit?.replied(ticket, refused.length > TABLE_FULL_SHARE * pending.length);
      if (refused.length === pending.length) return { pushedBack: true, progressed: false };
      if (refused.length > 0) {
        retries.forLeftovers++;
        retrying.onThrottle?.();
      }
      this.window.settled(pending, refused, this.now(), this.delay);
      this.options.tally.replaced = this.window.combined;
      pending = [];
      return { pushedBack: false, progressed: true };
    };
    const failed = (error: unknown) => batchWriteFailed(table, error);
    const exhausted = (attempts: number, lastError: unknown) =>
      batchRetriesSpent(table, pending.length, attempts, lastError);
    // The limit is told of each reply here, whose share of refused rows it judges, not by the loop.
    const context = { ...retrying, limit: undefined };
    await sendWithRetries({ pending: () => pending.length, attempt, failed, exhausted }, context, retries).catch(
      (error: unknown) => {
        this.window.restore(pending);
        throw error;
      },
    );
  }

  private readonly delay = (rung: number) =>
    fullJitterDelay(this.options.retrying.retry, rung, this.options.retrying.random);
}
