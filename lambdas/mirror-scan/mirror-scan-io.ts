import { ScanCommand, type AttributeValue, type DynamoDBClient, type ScanCommandInput } from '@aws-sdk/client-dynamodb';
import type { S3Client } from '@aws-sdk/client-s3';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import type { MirrorScope } from '../contract/import-request.js';
import type { TableKey } from '../mirror/key-parts.js';
import { putObject } from '../wiring/aws-io.js';

/** One page of a segment's Scan: the keys in scope, and where the next page starts (absent at the end). */
export interface KeyPage {
  readonly keys: TableKey[];
  readonly lastKey?: TableKey;
}

/** What one page asks for. */
export interface KeyPageRequest {
  readonly table: string;
  readonly keys: readonly KeyAttribute[];
  readonly segment: number;
  readonly totalSegments: number;
  readonly scope: MirrorScope | undefined;
  readonly startKey: TableKey | undefined;
}

/** MirrorScanSegment's AWS calls. */
export interface MirrorScanIo {
  scanKeys(request: KeyPageRequest): Promise<KeyPage>;
  putText(bucket: string, key: string, body: string): Promise<void>;
}

/**
 * The calls bound to SDK clients. The Scan reads only the key attributes (ProjectionExpression) and, with a scope,
 * keeps the items whose partition key `begins_with` its prefix (FilterExpression; a filter still reads, and is billed
 * for, every item of the page: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Scan.html#Scan.FilterExpression).
 * Eventually consistent: an item the sync wrote a moment ago and the Scan misses is kept, never deleted.
 */
export function mirrorScanIo(dynamodb: DynamoDBClient, s3: S3Client, kmsKeyArn: string | null): MirrorScanIo {
  return {
    async scanKeys(request) {
      const page = await dynamodb.send(new ScanCommand(scanInput(request)));
      return { keys: page.Items ?? [], ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey } : {}) };
    },
    putText: (bucket, key, body) => putObject(s3, bucket, key, body, 'text/plain', kmsKeyArn),
  };
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
  };
}
