import type { BatchWriteItemCommandInput, BatchWriteItemCommandOutput, WriteRequest } from '@aws-sdk/client-dynamodb';
import { RequestWriter } from './request-writer.js';
import { BATCH_SIZE, BatchRetryBudget, isRetryable } from './batch-retry.js';
import { sleep } from '../async/backoff.js';
import { BatchWriteFailedError } from '../contract/errors.js';
import type { Item } from './item-sink.js';
import type { WriterOptions } from './writer-options.js';

export { BATCH_SIZE } from './batch-retry.js';
/**
 * Requests in flight per lane. The local engine (one Python process on 2 cores) moves more with the machine's load
 * than with 8, 16 or 32 in flight (docs/performance.md, `ceiling`); the cloud takes more per Lambda, not much.
 */
export const DEFAULT_MAX_IN_FLIGHT = 16;

export type SendBatchWrite = (input: BatchWriteItemCommandInput) => Promise<BatchWriteItemCommandOutput>;

export interface BatchWriterOptions extends WriterOptions {
  readonly send: SendBatchWrite;
  /** The request each item becomes. @default - a PutRequest of the item (`delete` sends a DeleteRequest of its key) */
  readonly toRequest?: (item: Item) => WriteRequest;
}

const putRequest = (item: Item): WriteRequest => ({ PutRequest: { Item: item } });

/**
 * Writes items in 25-item BatchWriteItem requests with several in flight. Within a batch a repeated key
 * keeps the last item; a key repeated in a later batch waits for the earlier batch to finish, so the
 * table ends with the last row of the file for each key. Throttles and UnprocessedItems are retried with
 * bounded backoff; a batch that still fails makes `add` and `flush` throw BatchWriteFailedError.
 */
export class BatchWriter extends RequestWriter {
  /** Items acknowledged by DynamoDB. */
  written = 0;
  /** Items replaced inside a batch by a later row with the same key. */
  replaced = 0;
  /** Requests sent again after a throttle or another retryable error (the ThrottledRetries metric). */
  throttledRetries = 0;
  /** Requests sent again for the items a reply left unprocessed (the UnprocessedRetries metric). */
  unprocessedRetries = 0;
  private batch = new Map<string, Item>();

  constructor(private readonly options: BatchWriterOptions) {
    super(options, DEFAULT_MAX_IN_FLIGHT);
  }

  /**
   * Queues one item. Only the item that completes a batch gets a promise back, which settles once that
   * batch is sent (after a wait while the requests in flight are at the limit); the other 24 of 25 are
   * queued without the promise and microtask an `await` of each would cost.
   */
  add(item: Item, key: string): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.batch.has(key)) {
      this.batch.delete(key);
      this.replaced++;
    }
    this.batch.set(key, item);
    return this.batch.size >= BATCH_SIZE ? this.dispatch() : undefined;
  }

  /** Sends what is queued and waits for every request in flight. */
  async flush(): Promise<void> {
    if (this.batch.size > 0) await this.dispatch();
    await this.slots.drain();
    this.throwIfFailed();
  }

  private async dispatch(): Promise<void> {
    await this.slots.wait();
    this.throwIfFailed();
    const batch = this.batch;
    this.batch = new Map();
    const toRequest = this.options.toRequest ?? putRequest;
    const requests = [...batch.values()].map(toRequest);
    // A key in flight in an earlier batch: this one goes after it, so the last row wins.
    this.order.send([...batch.keys()], () => this.sendWithRetry(requests));
  }

  /**
   * Throttles and leftovers go again under the batch's BatchRetryBudget (write/batch-retry.ts): it fails after
   * `maxAttempts` replies in a row that wrote nothing, while a reply that wrote some items starts the ladder
   * again, so a batch making progress under scattered throttles is not failed. Its waits are bounded by
   * longestBackoffMs.
   */
  private async sendWithRetry(requests: WriteRequest[]): Promise<void> {
    const { table, send } = this.options;
    const budget = new BatchRetryBudget(this.retry, this.options.random);
    let pending = requests;
    for (let attempt = 1; ; attempt++) {
      let lastError: unknown;
      const before = pending.length;
      await this.options.beforeSend?.(pending.length);
      const ticket = this.limit.started();
      try {
        const output = await send({ RequestItems: { [table]: pending } });
        const unprocessed = output.UnprocessedItems?.[table] ?? [];
        this.written += pending.length - unprocessed.length;
        pending = unprocessed;
      } catch (error) {
        if (!isRetryable(error))
          throw new BatchWriteFailedError(`BatchWriteItem on ${table} failed: ${(error as Error).message}`, {
            cause: error,
          });
        lastError = error;
      }
      this.limit.replied(ticket, pending.length > 0);
      if (pending.length === 0) return;
      this.options.onThrottle?.();
      const wait = budget.next(pending.length < before);
      if (wait === undefined) {
        const why = lastError ? `last error: ${(lastError as Error).name}` : 'still unprocessed';
        throw new BatchWriteFailedError(
          `${pending.length} items not written to ${table} after ${attempt} attempts (${why})`,
          { cause: lastError },
        );
      }
      if (lastError) this.throttledRetries++;
      else this.unprocessedRetries++;
      await (this.options.sleep ?? sleep)(wait);
    }
  }
}
