import { BatchGetItemCommand, DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { ResolvedRequest } from '../../../lambdas/contract/import-request.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { isBlankRecord } from '../../../lambdas/formats/csv/csv-records.js';
import type { Item } from '../../../lambdas/write/item-sink.js';
import { keyOf } from '../../../lambdas/write/item-requests.js';
import { retryContext } from '../../../lambdas/write/request-writer.js';
import { MAX_KEYS_PER_READ, readItems } from '../../../lambdas/write/sync-reads.js';
import { keyText } from '../../../lambdas/write/sync-key-text.js';
import { sampleRecords } from '../source/sample.js';
import type { IndexShape } from '../table/index-writes.js';
import { compareSample, type SyncSample } from './sync-compare-sample.js';

/**
 * The most keys of the sample whose items estimate reads: 20 BatchGetItems of 100 keys, at most 1,000 read units
 * eventually consistent for items up to 4 KB (2,000 strongly consistent), a few seconds. A fraction measured over
 * 2,000 rows is within about ±2% (1.96 x sqrt(0.25 / 2000) = 0.022) of the fraction over the whole first MiB.
 */
export const SYNC_SAMPLE_KEYS = 2000;

/** What measuring a sync's changed share needs: the sample, the request, the table's key and indexes. */
export interface SyncSampleInputs {
  readonly sample: Buffer;
  readonly whole: boolean;
  readonly request: ResolvedRequest;
  readonly keys: KeyAttribute[];
  readonly indexes: readonly IndexShape[];
}

/**
 * `estimate --mode sync`: maps the sample's rows to items exactly as the import does (the format's own mapper:
 * types, computed attributes, exclude, TTL), keeps the last row of a key as sync does, reads the table's item for
 * each of the first SYNC_SAMPLE_KEYS keys (BatchGetItem, the request's consistency, the writers' retry loop) and
 * compares them with sync's equality (sync-compare-sample.ts).
 */
export async function measureSyncSample(inputs: SyncSampleInputs, dynamodb: DynamoDBClient): Promise<SyncSample> {
  const { request, keys } = inputs;
  const items = lastRowOfEachKey(await sampleItems(inputs), keys).slice(0, SYNC_SAMPLE_KEYS);
  const consistentRead = request.consistentRead === true;
  const send = (input: ConstructorParameters<typeof BatchGetItemCommand>[0]) =>
    dynamodb.send(new BatchGetItemCommand(input));
  const found: Item[] = [];
  for (let i = 0; i < items.length; i += MAX_KEYS_PER_READ) {
    const batch = items.slice(i, i + MAX_KEYS_PER_READ).map((item) => keyOf(item, keys));
    const counts = { afterError: 0, forLeftovers: 0 };
    const retrying = retryContext({ table: request.table });
    found.push(...(await readItems(batch, { table: request.table, send, consistentRead, retrying, counts })));
  }
  return compareSample(items, found, { keys, consistentRead, indexes: inputs.indexes });
}

/** The sample's rows that become items, in file order (rejected rows are left out, as the import leaves them). */
async function sampleItems({ sample, whole, request, keys }: SyncSampleInputs): Promise<Item[]> {
  const { format, columns, records } = await sampleRecords(sample, whole, request, keys);
  const { types, attributes, exclude } = request;
  const rows = records.filter((record) => !isBlankRecord(record.raw));
  const items: Item[] = [];
  for (const mapped of format.createMapper({ columns, types, keys, attributes, exclude })(rows))
    if (mapped.ok) items.push(mapped.item);
  return items;
}

/** One item per key, the last row's, at that key's first place: sync compares a key once, with its last row. */
function lastRowOfEachKey(items: readonly Item[], keys: readonly KeyAttribute[]): Item[] {
  const byKey = new Map<string, Item>();
  for (const item of items) byKey.set(keyText(item, keys), item);
  return [...byKey.values()];
}

/**
 * DescribeTable's ItemCount and TableSizeBytes, what a mirror's estimate starts from; DynamoDB updates both about every
 * six hours (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TableDescription.html).
 */
export async function readTableSize(dynamodb: DynamoDBClient, table: string) {
  const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: table }));
  return { tableItems: Table?.ItemCount ?? 0, tableBytes: Table?.TableSizeBytes ?? 0 };
}
