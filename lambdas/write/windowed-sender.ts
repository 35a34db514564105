import type { WriteRequest } from '@aws-sdk/client-dynamodb';
import { fullJitterDelay, sleep as realSleep } from '../retry/backoff.js';
import { BATCH_SIZE, isRetryable } from '../retry/batch-retry.js';
import type { CombineRows } from './combine-rows.js';
import type { Item } from './item-sink.js';
import { PartitionWindow, type WindowEntry } from './partition-window.js';
import { lookAhead, RowsPerKey } from './look-ahead.js';
import type { RequestSlots } from './request-slots.js';
import type { RetryContext, RetryCounts } from '../retry/retry-loop.js';
import { leftoverEntries, type SendBatchWrite } from './leftovers.js';
import { BatchWriteFailedError } from '../contract/errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

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
 * PartitionWindow that grows with how many rows share a partition key (look-ahead.ts), batches take one row of each
 * key in turn, and what the table refuses goes back to the window, its key backing off on the retry ladder, while
 * the freed request slot carries other keys. A request is one attempt; the adaptive limit is cut only by replies
 * that wrote nothing, since a partly refused reply means one partition is full, not the table. A partition key
 * refused `maxAttempts` times in a row with nothing of it written between fails the writer (BatchWriteFailedError).
 */
export class WindowedSender {
  failure: Error | undefined;
  private readonly window: PartitionWindow;
  private readonly rowsPerKey = new RowsPerKey();
  private readonly hashKey: string;
  private readonly now: () => number;
  private changed: Promise<void>;
  private notify = () => {};

  constructor(private readonly options: WindowedSenderOptions) {
    this.window = new PartitionWindow(options.combine);
    this.hashKey = options.keys.find((key) => key.role === 'HASH')!.name;
    this.now = options.now ?? (() => performance.now());
    this.changed = this.nextChange();
  }

  /** Holds a row; returns a promise when the window is full (the caller waits while batches go out). */
  add(item: Item, key: string): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    const value = item[this.hashKey];
    const partitionKey = value?.S ?? value?.N ?? JSON.stringify(value);
    this.rowsPerKey.saw(partitionKey);
    this.window.add({ key, partitionKey, item });
    this.options.tally.replaced = this.window.combined;
    return this.window.size >= lookAhead(this.rowsPerKey.value) ? this.pump(false) : undefined;
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
        await this.changed;
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
    if (!Number.isFinite(readyIn)) return this.changed;
    return Promise.race([this.changed, (this.options.retrying.sleep ?? realSleep)(Math.max(1, readyIn))]);
  }

  private nextChange(): Promise<void> {
    return new Promise((resolve) => (this.notify = resolve));
  }

  private sendBatch(batch: WindowEntry[]): void {
    const sent = this.attempt(batch);
    this.options.slots.track(
      sent,
      (error) => void (this.failure ??= error),
      () => {
        const notify = this.notify;
        this.changed = this.nextChange();
        notify();
      },
    );
  }

  /** One request: what it wrote is counted, what it left goes back to the window. */
  private async attempt(batch: WindowEntry[]): Promise<void> {
    const { table, send, toRequest, retrying, retries } = this.options;
    await retrying.beforeSend?.(batch.length);
    const ticket = retrying.limit?.started() ?? 0;
    let refused: readonly WindowEntry[];
    let lastError: unknown;
    try {
      const output = await send({ RequestItems: { [table]: batch.map((entry) => toRequest(entry.item)) } });
      const leftovers = output.UnprocessedItems?.[table] ?? [];
      refused = leftoverEntries(batch, leftovers, this.options.keys, (entry) => toRequest(entry.item));
      if (refused.length > 0) retries.forLeftovers++;
    } catch (error) {
      if (!isRetryable(error)) {
        this.window.restore(batch);
        throw new BatchWriteFailedError(`BatchWriteItem on ${table} failed: ${(error as Error).message}`, {
          cause: error,
        });
      }
      [refused, lastError] = [batch, error];
      retries.afterError++;
    }
    this.options.tally.written += batch.length - refused.length;
    retrying.limit?.replied(ticket, refused.length === batch.length);
    if (refused.length > 0) retrying.onThrottle?.();
    const delay = (rung: number) => fullJitterDelay(retrying.retry, rung, retrying.random);
    const rung = this.window.settled(batch, refused, this.now(), delay);
    this.options.tally.replaced = this.window.combined;
    if (rung >= retrying.retry.maxAttempts) throw this.exhausted(rung, lastError);
  }

  private exhausted(attempts: number, lastError: unknown): Error {
    const why = lastError ? `last error: ${(lastError as Error).name}` : 'still unprocessed';
    const message = `${this.window.size} items not written to ${this.options.table} after ${attempts} attempts (${why})`;
    return new BatchWriteFailedError(message, { cause: lastError });
  }
}
