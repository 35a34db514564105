import type {
  PutItemCommandInput,
  PutItemCommandOutput,
  UpdateItemCommandInput,
  UpdateItemCommandOutput,
} from '@aws-sdk/client-dynamodb';
import type { Item } from './item-sink.js';
import { retryContext } from './request-writer.js';
import { sendWithRetries, type AttemptReply, type RetryContext, type RetryCounts } from '../retry/retry-loop.js';
import type { SingleRequests, StatementMode } from './statement-mode.js';
import type { WriterOptions } from './writer-options.js';
import { StatementWriteFailedError } from '../contract/errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/** The single-item calls of the statement modes (dynamodb-transport/write-transport.ts). */
export interface ItemWriteCalls {
  putItem(input: PutItemCommandInput): Promise<PutItemCommandOutput>;
  updateItem(input: UpdateItemCommandInput): Promise<UpdateItemCommandOutput>;
}

export interface ItemWriterOptions extends WriterOptions {
  /** What the item's requests are (write/modes/insert.ts: a conditional PutItem; update.ts: UpdateItems). */
  readonly mode: StatementMode;
  readonly keys: readonly KeyAttribute[];
  readonly calls: ItemWriteCalls;
}

/**
 * The error a PutItem whose condition failed comes back with. Compared by name, not `instanceof`: in a local run the
 * transport (and so its error classes) comes from the caller's copy of the SDK, the writer from the handler bundle's.
 */
const CONDITION_FAILED = 'ConditionalCheckFailedException';

/**
 * Writes the items of a statement mode that cannot be statements (write/statement-writer.ts hands them over with
 * `writeNow`), each as the single-item requests its mode names. A failed condition is `insert`'s expected outcome,
 * counted as skipped, never retried; throttles and transient errors go through the writers' one retry loop
 * (retry/retry-loop.ts). The caller keeps the key order and the requests in flight.
 */
export class ItemWriter implements SingleRequests {
  /** Items written (insert: created; update: applied). */
  written = 0;
  /** `insert` rows whose key already had an item. */
  skipped = 0;
  readonly table: string;
  readonly keys: readonly KeyAttribute[];
  private readonly retrying: RetryContext;
  private readonly retries: RetryCounts = { afterError: 0, forLeftovers: 0 };

  constructor(private readonly options: ItemWriterOptions) {
    this.table = options.table;
    this.keys = options.keys;
    this.retrying = retryContext(options);
  }

  /** Requests sent again after a throttle or another retryable error (the ThrottledRetries metric). */
  get throttledRetries(): number {
    return this.retries.afterError;
  }

  /** Writes one item now, with retries; counted as written or skipped here. */
  async writeNow(item: Item): Promise<void> {
    if (await this.options.mode.alone(item, this)) this.written++;
    else this.skipped++;
  }

  put(input: PutItemCommandInput): Promise<boolean> {
    return this.send('PutItem', () => this.options.calls.putItem(input));
  }

  async update(input: UpdateItemCommandInput): Promise<void> {
    await this.send('UpdateItem', () => this.options.calls.updateItem(input));
  }

  /** Sends until written (true) or its condition failed (false); throws StatementWriteFailedError otherwise. */
  private async send(operation: string, call: () => Promise<unknown>): Promise<boolean> {
    const { table } = this.options;
    let left = 1;
    let written = true;
    const attempt = async (): Promise<AttemptReply> => {
      try {
        await call();
      } catch (error) {
        if ((error as Error).name !== CONDITION_FAILED) throw error;
        written = false; // the table answered: not a push-back
      }
      left = 0;
      return { pushedBack: false, progressed: true };
    };
    const failed = (error: unknown) =>
      new StatementWriteFailedError(`${operation} on ${table} failed: ${(error as Error).message}`, { cause: error });
    const exhausted = (attempts: number, lastError: unknown) => {
      const why = `last error: ${(lastError as Error).name}`;
      return new StatementWriteFailedError(`${operation} on ${table} failed after ${attempts} attempts (${why})`, {
        cause: lastError,
      });
    };
    await sendWithRetries({ pending: () => left, attempt, failed, exhausted }, this.retrying, this.retries);
    return written;
  }
}
