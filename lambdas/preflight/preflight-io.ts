import {
  DescribeTableCommand,
  UpdateTableCommand,
  type DynamoDBClient,
  type UpdateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { SourceObjectAccessDeniedError, SourceObjectNotFoundError, TableNotFoundError } from '../contract/errors.js';
import type { KeyAttribute } from '../contract/workflow-payloads.js';
import { listPages } from '../source/s3-listing.js';
import { readRange } from '../source/s3-range-reader.js';
import { putObject, sendGetObject } from '../wiring/aws-io.js';
import type { PreflightIo } from './preflight.js';
import type { WarmThroughputPlan } from './warm-throughput.js';
import { tableSafetyIo } from '../table-checks/table-safety-io.js';

const OCTETS = 'application/octet-stream';

/**
 * Preflight's AWS calls, bound to SDK clients: HeadObject, DescribeTable, UpdateTable (the pre-warm),
 * DescribeContinuousBackups and a Scan of one item (the safety check: table-safety-io.ts), range GETs, listing and
 * staging PUTs
 * (encrypted with the bucket's KMS key when `kmsKeyArn` names one: aws-io.ts `sseKmsFields`). Staged pieces go to
 * `stagingBucket` (the stack's) when given, also for a request that reads another of the stack's sources.
 */
export function preflightIo(
  s3: S3Client,
  dynamodb: DynamoDBClient,
  kmsKeyArn: string | null = null,
  stagingBucket: string | null = null,
): PreflightIo {
  const getObject = sendGetObject(s3);
  return {
    ...tableSafetyIo(dynamodb),
    async headObject(bucket, key) {
      try {
        const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: head.ContentLength ?? 0, etag: head.ETag ?? '' };
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status === 404 || (error as Error).name === 'NotFound' || (error as Error).name === 'NoSuchBucket') {
          throw new SourceObjectNotFoundError(bucket, key, { cause: error });
        }
        if (status === 403) throw new SourceObjectAccessDeniedError(bucket, key, { cause: error });
        throw error;
      }
    },
    async describeTable(table) {
      try {
        const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: table }));
        return {
          keys: keyAttributes(Table?.KeySchema ?? [], Table?.AttributeDefinitions ?? []),
          onDemand: Table?.BillingModeSummary?.BillingMode === 'PAY_PER_REQUEST',
          warmWriteUnitsPerSecond: Table?.WarmThroughput?.WriteUnitsPerSecond ?? null,
          indexes: [...(Table?.GlobalSecondaryIndexes ?? []), ...(Table?.LocalSecondaryIndexes ?? [])].map((index) =>
            (index.KeySchema ?? []).map((k) => k.AttributeName ?? ''),
          ),
          globalIndexes: (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
            name: index.IndexName ?? '',
            warmWriteUnitsPerSecond: index.WarmThroughput?.WriteUnitsPerSecond ?? null,
          })),
        };
      } catch (error) {
        if ((error as Error).name === 'ResourceNotFoundException')
          throw new TableNotFoundError(table, { cause: error });
        throw error;
      }
    },
    async raiseWarmThroughput(table, plan) {
      const update = new UpdateTableCommand(warmThroughputUpdate(table, plan));
      try {
        await dynamodb.send(update);
        return 'raised';
      } catch (error) {
        // The table is being updated already (an index built, capacity changed): the import goes on at the
        // table's current warm throughput rather than fail for a speed-up.
        if ((error as Error).name === 'ResourceInUseException') return 'busy';
        throw error;
      }
    },
    readFrom: (source, size) => (offset) => readRange(getObject, source, offset, size),
    listPages: listPages(s3),
    putObject: (bucket, key, body) => putObject(s3, stagingBucket ?? bucket, key, body, OCTETS, kmsKeyArn),
  };
}

function keyAttributes(
  schema: { AttributeName?: string; KeyType?: string }[],
  definitions: { AttributeName?: string; AttributeType?: string }[],
): KeyAttribute[] {
  return schema.map((k) => ({
    name: k.AttributeName ?? '',
    role: k.KeyType === 'RANGE' ? 'RANGE' : 'HASH',
    type: (definitions.find((d) => d.AttributeName === k.AttributeName)?.AttributeType ?? 'S') as KeyAttribute['type'],
  }));
}

/** UpdateTable's input for a pre-warm: the table's WarmThroughput and an Update per index (warm-throughput.ts). */
function warmThroughputUpdate(table: string, plan: WarmThroughputPlan): UpdateTableCommandInput {
  const warm = (writeUnitsPerSecond: number) => ({ WriteUnitsPerSecond: writeUnitsPerSecond });
  return {
    TableName: table,
    ...(plan.table !== null ? { WarmThroughput: warm(plan.table) } : {}),
    ...(plan.indexes.length > 0
      ? {
          GlobalSecondaryIndexUpdates: plan.indexes.map(({ name, writeUnitsPerSecond }) => ({
            Update: { IndexName: name, WarmThroughput: warm(writeUnitsPerSecond) },
          })),
        }
      : {}),
  };
}
