import type { BatchGetItemCommandInput, BatchGetItemCommandOutput } from '@aws-sdk/client-dynamodb';
import { BatchReadFailedError } from '../contract/errors.js';
import { sendWithRetries, type AttemptReply, type RetryContext, type RetryCounts } from '../retry/retry-loop.js';
import type { Item } from './item-sink.js';

/**
 * BatchGetItem reads at most 100 items per request
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchGetItem.html).
 */
export const MAX_KEYS_PER_READ = 100;

export type SendBatchGet = (input: BatchGetItemCommandInput) => Promise<BatchGetItemCommandOutput>;

/** How sync reads: the table, the call, the read's consistency, and the writers' retry loop context and counts. */
export interface SyncReadOptions {
  readonly table: string;
  readonly send: SendBatchGet;
  /**
   * Strongly consistent reads (`consistentRead: true` in the request): twice the read units of eventually
   * consistent ones, and they see every write acknowledged before them.
   */
  readonly consistentRead: boolean;
  readonly retrying: RetryContext;
  readonly counts: RetryCounts;
}

/**
 * Reads the items of `keys` (at most MAX_KEYS_PER_READ) in BatchGetItems: the items found, in no particular order (a
 * key without an item returns none). UnprocessedKeys and throttles go again through the writers' one retry loop
 * (retry/retry-loop.ts), classified and paced as writes are (its `beforeSend` is the write-rate governor); a read that
 * still fails throws BatchReadFailedError.
 */
export async function readItems(keys: readonly Item[], options: SyncReadOptions): Promise<Item[]> {
  const { table, send, consistentRead } = options;
  let pending: Item[] = [...keys];
  const found: Item[] = [];
  const attempt = async (): Promise<AttemptReply> => {
    const before = pending.length;
    const output = await send({ RequestItems: { [table]: { Keys: pending, ConsistentRead: consistentRead } } });
    found.push(...((output.Responses?.[table] ?? []) as Item[]));
    pending = (output.UnprocessedKeys?.[table]?.Keys ?? []) as Item[];
    return { pushedBack: pending.length > 0, progressed: pending.length < before };
  };
  const failed = (error: unknown) =>
    new BatchReadFailedError(`BatchGetItem on ${table} failed: ${(error as Error).message}`, { cause: error });
  const exhausted = (attempts: number, lastError: unknown) => {
    const why = lastError ? `last error: ${(lastError as Error).name}` : 'still unprocessed';
    return new BatchReadFailedError(
      `${pending.length} keys not read from ${table} after ${attempts} attempts (${why})`,
      {
        cause: lastError,
      },
    );
  };
  await sendWithRetries(
    { pending: () => pending.length, attempt, failed, exhausted },
    options.retrying,
    options.counts,
  );
  return found;
}
