import type { WriteRequest } from '@aws-sdk/client-dynamodb';
import { RequestWriter } from './request-writer.js';
import { BATCH_SIZE } from '../retry/batch-retry.js';
import { keepLater, type CombineRows } from './combine-rows.js';
import { sendWithRetries, type AttemptReply } from '../retry/retry-loop.js';
import { batchRetriesSpent, batchWriteFailed } from './batch-errors.js';
import type { Item, ItemSink, RowMark } from './item-sink.js';
import type { WriterOptions } from './writer-options.js';
import type { SendBatchWrite } from './leftovers.js';
import { WindowedSender } from './windowed-sender.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

export { BATCH_SIZE } from '../retry/batch-retry.js';
/**
 * Requests in flight per lane. The local engine (one Python process on 2 cores) moves more with the machine's load
 * than with 8, 16 or 32 in flight (docs/performance.md, `ceiling`); the cloud takes more per Lambda, not much.
 */
export const DEFAULT_MAX_IN_FLIGHT = 16;

export type { SendBatchWrite } from './leftovers.js';

export interface BatchWriterOptions extends WriterOptions {
  readonly send: SendBatchWrite;
  /** The request each item becomes. @default - a PutRequest of the item (`delete` sends a DeleteRequest of its key) */
  readonly toRequest?: (item: Item) => WriteRequest;
  /** How a later row of a key already in the batch combines with the held one. @default keepLater */
  readonly combine?: CombineRows;
  /**
   * The table's key attributes (a mode's writer options carry them). With them, rows wait in a window by partition
   * key and what the table refuses goes back there while other keys are sent (write/windowed-sender.ts); without
   * them, 25-item batches go out in arrival order, each retried in its request slot. @default - none
   */
  readonly keys?: readonly KeyAttribute[];
  /**
   * Send through the partition window when the keys are known (off, rows go out in arrival order as without keys).
   * A lane that halts stops sending at once and resumes from its first unwritten row (ItemSink.heldFrom).
   * @default true
   */
  readonly partitionWindow?: boolean;
}

const putRequest = (item: Item): WriteRequest => ({ PutRequest: { Item: item } });

/**
 * Writes items in 25-item BatchWriteItem requests with several in flight (the `put` and `delete` modes). Within a
 * batch a repeated key is combined by `combine` (the last row by default); a key repeated in a later batch waits for
 * the earlier batch to finish, so the table ends with the last row of the file for each key. Throttles and
 * UnprocessedItems are retried with bounded backoff; a batch that still fails makes `add` and `flush` throw
 * BatchWriteFailedError.
 *
 * @example
 * ```ts
 * const transport = new DynamoDbWriteTransport(dynamodb, 5_000);
 * const writer = new BatchWriter({ table: 'ngrams', send: (input) => transport.batchWriteItem(input) });
 * for (const item of items) {
 *   const queued = writer.add(item, item.ngram.S!); // the key's canonical text
 *   if (queued) await queued; // only the item that completes a batch waits, for a free request slot
 * }
 * await writer.flush(); // sends the last batch and waits for every request in flight
 * console.log(writer.written, writer.replaced);
 * ```
 */
export class BatchWriter extends RequestWriter implements ItemSink {
  /** Items acknowledged by DynamoDB. */
  written = 0;
  /** Rows combined inside a batch with another row of their key (`combine`), so not sent on their own. */
  replaced = 0;
  private batch = new Map<string, Item>();
  private readonly combine: CombineRows;
  private readonly windowed: WindowedSender | undefined;
  /** With the table's keys the window spreads the rows over the partitions (write/windowed-sender.ts). */
  readonly spreadsItself: boolean;

  constructor(private readonly options: BatchWriterOptions) {
    super(options, DEFAULT_MAX_IN_FLIGHT);
    this.combine = options.combine ?? keepLater;
    const { keys, table, send } = options;
    this.spreadsItself = options.partitionWindow !== false && keys?.some((key) => key.role === 'HASH') === true;
    if (keys && this.spreadsItself) {
      const toRequest = options.toRequest ?? putRequest;
      const { slots, retrying, retries, combine } = this;
      this.windowed = new WindowedSender({
        table,
        send,
        toRequest,
        combine,
        keys,
        slots,
        retrying,
        retries,
        tally: this,
        ...(options.halt ? { halt: options.halt } : {}),
        ...(options.stopping ? { stopping: options.stopping } : {}),
      });
    }
  }

  /** The first row not written when a flush stopped early (ItemSink.heldFrom); only the windowed path stops so. */
  get heldFrom(): RowMark | undefined {
    return this.windowed?.heldFrom;
  }

  /** Requests sent again after a throttle or another retryable error (the ThrottledRetries metric). */
  get throttledRetries(): number {
    return this.retries.afterError;
  }

  /**
   * Queues one item. Only the item that completes a batch gets a promise back, which settles once that
   * batch is sent (after a wait while the requests in flight are at the limit); the other 24 of 25 are
   * queued without the promise and microtask an `await` of each would cost.
   */
  add(item: Item, key: string, at?: RowMark): Promise<void> | undefined {
    if (this.windowed) return this.windowed.add(item, key, at);
    if (this.failure) return Promise.reject(this.failure);
    const held = this.batch.get(key);
    if (held !== undefined) {
      this.batch.delete(key); // set again below: the key moves to its latest row's place
      this.replaced++;
      item = this.combine(held, item);
    }
    this.batch.set(key, item);
    return this.batch.size >= BATCH_SIZE ? this.dispatch() : undefined;
  }

  /** Sends what is queued and waits for every request in flight. */
  async flush(): Promise<void> {
    if (this.windowed) return this.windowed.flush();
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
   * Throttles and leftovers go again through the one retry loop (retry/retry-loop.ts) under the batch's
   * BatchRetryBudget: it fails after `maxAttempts` replies in a row that wrote nothing, while a reply that wrote some
   * items starts the ladder again, so a batch making progress under scattered throttles is not failed. Its waits are
   * bounded by longestBackoffMs.
   */
  private sendWithRetry(requests: WriteRequest[]): Promise<void> {
    const { table, send } = this.options;
    let pending = requests;
    const attempt = async (): Promise<AttemptReply> => {
      const before = pending.length;
      const output = await send({ RequestItems: { [table]: pending } });
      const unprocessed = output.UnprocessedItems?.[table] ?? [];
      this.written += before - unprocessed.length;
      pending = unprocessed;
      return { pushedBack: unprocessed.length > 0, progressed: unprocessed.length < before };
    };
    const failed = (error: unknown) => batchWriteFailed(table, error);
    const exhausted = (attempts: number, lastError: unknown) =>
      batchRetriesSpent(table, pending.length, attempts, lastError);
    return sendWithRetries({ pending: () => pending.length, attempt, failed, exhausted }, this.retrying, this.retries);
  }
}
