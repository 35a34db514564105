import {
  DescribeTableCommand,
  ScanCommand,
  type AttributeValue,
  type DynamoDBClient,
  type ScanCommandInput,
} from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import { BatchReadFailedError } from '../contract/errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { MirrorScope } from '../contract/import-request.js';
import type { TableKey, TableSize } from '../mirror/key-parts.js';
import type { RetryPolicy } from '../retry/backoff.js';
import { sendWithRetries } from '../retry/retry-loop.js';
import { putObject } from '../wiring/aws-io.js';

/**
 * How long one Scan page may take before it is sent again. A page reads up to 1 MB
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.Pagination), far more than a
 * BatchWriteItem's body: the client's 5 s write timeout failed a page at 400k items locally, and 30 s failed every
 * attempt at 1M items under load, since the local engine (ministack 1.5.33 services/dynamodb.py `_scan`) sorts the
 * whole table and hashes every item's key for its segment on every page, and a timed-out page still runs there, so
 * each retry added to the load. On AWS a page returns far sooner: 120 s only bounds a connection that hangs.
 */
export const SCAN_REQUEST_TIMEOUT_MS = 120_000;

/** One page of a segment's Scan: the keys in scope, and where the next page starts (absent at the end). */
export interface KeyPage {
  readonly keys: TableKey[];
  readonly lastKey?: TableKey;
  /** Items the page read before the scope's filter (ScannedCount): what it cost the table. */
  readonly scanned?: number;
}

/** What one page asks for. */
export interface KeyPageRequest {
  readonly table: string;
  readonly keys: readonly KeyAttribute[];
  readonly segment: number;
  readonly totalSegments: number;
  readonly scope: MirrorScope | undefined;
  readonly startKey: TableKey | undefined;
  /** Items the page reads at most (Scan `Limit`), so a paced Scan reads one second's share a page. @default - 1 MB */
  readonly limit?: number;
}

/** MirrorPlan's and MirrorScanSegment's AWS calls. */
export interface MirrorScanIo {
  scanKeys(request: KeyPageRequest): Promise<KeyPage>;
  putText(bucket: string, key: string, body: string): Promise<void>;
  /** DescribeTable's ItemCount and TableSizeBytes (updated about every six hours: an estimate, as sizing needs). */
  describeTable(table: string): Promise<TableSize>;
}

/**
 * The calls bound to SDK clients. The Scan reads only the key attributes (ProjectionExpression) and, with a scope,
 * keeps the items whose partition key `begins_with` its prefix (FilterExpression; a filter still reads, and is billed
 * for, every item of the page: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.FilterExpression).
 * Eventually consistent: an item the sync wrote a moment ago and the Scan misses is kept, never deleted. A page that
 * times out or is throttled goes again through the writers' one retry loop (retry/retry-loop.ts) with `retry`.
 */
export function mirrorScanIo(
  dynamodb: DynamoDBClient,
  s3: S3Client,
  kmsKeyArn: string | null,
  retry: RetryPolicy,
): MirrorScanIo {
  return {
    scanKeys: (request) => scanPage(dynamodb, request, retry),
    putText: (bucket, key, body) => putObject(s3, bucket, key, body, 'text/plain', kmsKeyArn),
    async describeTable(table) {
      const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: table }));
      return { itemCount: Table?.ItemCount ?? 0, sizeBytes: Table?.TableSizeBytes ?? 0 };
    },
  };
}

/** One page, retried: the SDK's own retries first, then the retry loop's ladder, each try with its own timeout. */
async function scanPage(dynamodb: DynamoDBClient, request: KeyPageRequest, retry: RetryPolicy): Promise<KeyPage> {
  let page: KeyPage | undefined;
  const attempt = async () => {
    const output = await dynamodb.send(new ScanCommand(scanInput(request)), {
      requestTimeout: SCAN_REQUEST_TIMEOUT_MS,
    });
    const lastKey = output.LastEvaluatedKey ? { lastKey: output.LastEvaluatedKey } : {};
    page = { keys: output.Items ?? [], scanned: output.ScannedCount ?? 0, ...lastKey };
    return { pushedBack: false, progressed: true };
  };
  const what = `Scan of ${request.table} segment ${request.segment}`;
  const failed = (error: unknown) =>
    new BatchReadFailedError(`${what} failed: ${(error as Error).message}`, { cause: error });
  const exhausted = (attempts: number, lastError: unknown) =>
    new BatchReadFailedError(
      `${what} failed after ${attempts} attempts (last error: ${(lastError as Error | undefined)?.name})`,
      {
        cause: lastError,
      },
    );
  const pending = () => (page ? 0 : 1);
  await sendWithRetries({ pending, attempt, failed, exhausted }, { retry }, { afterError: 0, forLeftovers: 0 });
  return page!;
}

/** The Scan of one page: names through placeholders, so any attribute name is taken as written. */
export function scanInput(request: KeyPageRequest): ScanCommandInput {
  const names = Object.fromEntries(request.keys.map(({ name }, i) => [`#k${i}`, name]));
  const partition = request.keys.findIndex((key) => key.role === 'HASH');
  const prefix = request.scope?.partitionKeyPrefix;
  const value: AttributeValue =
    request.keys[partition]?.type === 'B' ? { B: Buffer.from(prefix ?? '', 'base64') } : { S: prefix ?? '' };
  return {
    TableName: request.table,
    Segment: request.segment,
    TotalSegments: request.totalSegments,
    ProjectionExpression: Object.keys(names).join(', '),
    ExpressionAttributeNames: names,
    ...(prefix === undefined
      ? {}
      : { FilterExpression: `begins_with(#k${partition}, :prefix)`, ExpressionAttributeValues: { ':prefix': value } }),
    ...(request.startKey ? { ExclusiveStartKey: request.startKey } : {}),
    ...(request.limit ? { Limit: request.limit } : {}),
  };
}
