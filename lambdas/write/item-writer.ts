import type {
  PutItemCommandInput,
  PutItemCommandOutput,
  UpdateItemCommandInput,
  UpdateItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import { RequestWriter } from './request-writer.js';
import { isRetryable, retryDelayMs } from './batch-retry.js';
import { insertRequest, updateRequests } from './item-requests.js';
import type { Item, ItemSink } from './item-sink.js';
import type { WriterOptions } from './writer-options.js';
import { sleep } from '../async/backoff.js';
import { ItemWriteFailedError } from '../contract/errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/**
 * Single-item requests in flight at most, as a sink of its own. A BatchWriter keeps 16 requests of 25 items in flight
 * (400 items); one item per request needs more requests to keep the table as busy: when this writer carried the
 * `insert` and `update` modes, the modes bench (20,000 rows, a loaded 2-core box) gave 0.21x and 0.09x put's items/s
 * at 64 and 0.78x and 0.82x at 128. The adaptive limit halves it under push-back as for batches.
 */
export const DEFAULT_MAX_ITEMS_IN_FLIGHT = 128;

/** The single-item calls of the `insert` and `update` modes (dynamodb-transport/batch-write-client.ts). */
export interface ItemWriteCalls {
  putItem(input: PutItemCommandInput): Promise<PutItemCommandOutput>;
  updateItem(input: UpdateItemCommandInput): Promise<UpdateItemCommandOutput>;
}

export interface ItemWriterOptions extends WriterOptions {
  /** `insert`: conditional PutItem, existing keys skipped; `update`: UpdateItem SET, merging. */
  readonly mode: 'insert' | 'update';
  readonly keys: readonly KeyAttribute[];
  readonly calls: ItemWriteCalls;
}

/**
 * Writes items one request each, many in flight, for the modes BatchWriteItem cannot serve (it takes no
 * condition and no update expression). The import sends those modes as PartiQL statements in batches
 * (write/statement-writer.ts), which hands this writer the items that cannot be statements (`writeNow`). Rows of
 * one key go in file order: a key's request waits for the earlier one still in flight, so `insert` keeps the first
 * row of a key (the later ones fail their condition) and `update` applies them in order (the last value of an
 * attribute wins). A failed condition is `insert`'s expected outcome,
 * counted as skipped, never retried; throttles and transient errors are retried with the BatchWriter's ladder and
 * adaptive limit (write/batch-retry.ts).
 */
export class ItemWriter extends RequestWriter implements ItemSink {
  /** Items written (insert: created; update: applied). */
  written = 0;
  /** `insert` rows whose key already had an item. */
  skipped = 0;
  /** Requests sent again after a throttle or another retryable error (the ThrottledRetries metric). */
  throttledRetries = 0;
  /** Always 0: single-item writes leave nothing unprocessed (kept for the metrics' shape). */
  readonly unprocessedRetries = 0;

  constructor(private readonly options: ItemWriterOptions) {
    super(options, DEFAULT_MAX_ITEMS_IN_FLIGHT);
  }

  /** Starts the item's request; returns a promise only when the caller must wait for a free slot first. */
  add(item: Item, key: string): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    if (this.slots.free) {
      this.start(item, key);
      return undefined;
    }
    return this.slots.wait().then(() => {
      if (this.failure) throw this.failure;
      this.start(item, key);
    });
  }

  async flush(): Promise<void> {
    await this.slots.drain();
    if (this.failure) throw this.failure;
  }

  private start(item: Item, key: string): void {
    this.order.send([key], () => this.writeNow(item));
  }

  /**
   * Writes one item now, with retries, outside the slots and the key order: for a caller that keeps both itself (the
   * StatementWriter's items that cannot be statements). Counted as written or skipped here.
   */
  async writeNow(item: Item): Promise<void> {
    const { table, keys, calls } = this.options;
    if (this.options.mode === 'insert') {
      const written = await this.sendWithRetry('PutItem', () => calls.putItem(insertRequest(table, item, keys)));
      if (written) this.written++;
      else this.skipped++;
      return;
    }
    for (const request of updateRequests(table, item, keys)) {
      await this.sendWithRetry('UpdateItem', () => calls.updateItem(request));
    }
    this.written++;
  }

  /** Sends until written (true) or its condition failed (false); throws ItemWriteFailedError otherwise. */
  private async sendWithRetry(operation: string, send: () => Promise<unknown>): Promise<boolean> {
    for (let attempt = 1; ; attempt++) {
      await this.options.beforeSend?.(1);
      const ticket = this.limit.started();
      try {
        await send();
        this.limit.replied(ticket, false);
        return true;
      } catch (error) {
        if ((error as Error).name === 'ConditionalCheckFailedException') {
          this.limit.replied(ticket, false); // the table answered: not a push-back
          return false;
        }
        const { table } = this.options;
        if (!isRetryable(error)) {
          throw new ItemWriteFailedError(`${operation} on ${table} failed: ${(error as Error).message}`, {
            cause: error,
          });
        }
        this.limit.replied(ticket, true);
        this.options.onThrottle?.();
        if (attempt >= this.retry.maxAttempts) {
          const why = `last error: ${(error as Error).name}`;
          throw new ItemWriteFailedError(`${operation} on ${table} failed after ${attempt} attempts (${why})`, {
            cause: error,
          });
        }
        this.throttledRetries++;
        await (this.options.sleep ?? sleep)(retryDelayMs(this.retry, attempt, false, this.options.random));
      }
    }
  }
}
