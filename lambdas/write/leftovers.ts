import type { BatchWriteItemCommandInput, BatchWriteItemCommandOutput, WriteRequest } from '@aws-sdk/client-dynamodb';
import type { WindowEntry } from './partition-window.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';

/** One BatchWriteItem call (dynamodb-transport/write-transport.ts batchWriteItem). */
export type SendBatchWrite = (input: BatchWriteItemCommandInput) => Promise<BatchWriteItemCommandOutput>;

/** A write request's key attribute values as text: the same for the request sent and its copy in UnprocessedItems. */
function wireKey(request: WriteRequest, keys: readonly KeyAttribute[]): string {
  const item = request.PutRequest?.Item ?? request.DeleteRequest?.Key ?? {};
  return keys.map(({ name }) => JSON.stringify(item[name])).join('\u0000');
}

/**
 * The rows of `sent` that a reply's UnprocessedItems hands back, found by key (a batch names each key once, and
 * DynamoDB returns the refused requests as they were sent). Throws when a leftover names no row of the batch: the
 * reply is not about this request, and writing on would lose or duplicate rows.
 */
export function leftoverEntries(
  sent: readonly WindowEntry[],
  leftovers: readonly WriteRequest[],
  keys: readonly KeyAttribute[],
  toRequest: (entry: WindowEntry) => WriteRequest,
): WindowEntry[] {
  if (leftovers.length === 0) return [];
  const byKey = new Map(sent.map((entry) => [wireKey(toRequest(entry), keys), entry]));
  return leftovers.map((request) => {
    const entry = byKey.get(wireKey(request, keys));
    if (!entry) throw new Error(`UnprocessedItems names a key this request did not send: ${wireKey(request, keys)}`);
    return entry;
  });
}
