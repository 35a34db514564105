import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import {
  BucketAlreadyOwnedByYou,
  CreateBucketCommand,
  HeadBucketCommand,
  NotFound,
  S3Client,
} from '@aws-sdk/client-s3';
import { LEDGER_KEY_ATTRIBUTE } from '../../lambdas/admission/ledger-items.js';
import type { KeyFlag } from '../flags/values.js';

/** The bucket local mode uploads into; the engine starts empty each run unless AWS_ENDPOINT_URL_S3 is set. */
export const LOCAL_BUCKET = 's3-ddb-import-local';

export async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    return;
  } catch (error) {
    if (!(error instanceof NotFound)) throw error;
  }
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    // Two `local` runs started together both see no bucket and both create it; the loser is fine.
    if (!(error instanceof BucketAlreadyOwnedByYou)) throw error;
  }
}

/** Creates an on-demand table with the given key unless it exists; returns whether it was created. */
export async function ensureTable(
  dynamodb: DynamoDBClient,
  table: string,
  partitionKey: KeyFlag,
  sortKey?: KeyFlag,
): Promise<boolean> {
  try {
    await dynamodb.send(new DescribeTableCommand({ TableName: table }));
    return false;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  const keys = sortKey ? [partitionKey, sortKey] : [partitionKey];
  const created = await dynamodb
    .send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        KeySchema: keys.map((k, i) => ({ AttributeName: k.name, KeyType: i === 0 ? 'HASH' : 'RANGE' })),
        AttributeDefinitions: keys.map((k) => ({ AttributeName: k.name, AttributeType: k.type })),
      }),
    )
    .then(
      () => true,
      (error: Error) => {
        if (error instanceof ResourceInUseException) return false; // another local run made it first
        throw error;
      },
    );
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60 }, { TableName: table });
  return created;
}

/** Ledger tables found or made through each client: each run would otherwise describe its table again. */
const ledgersFound = new WeakMap<DynamoDBClient, Set<string>>();

/** The ledger of running imports in the local DynamoDB (the stack makes the same table in AWS). */
export async function ensureLedgerTable(dynamodb: DynamoDBClient, table: string): Promise<void> {
  const found = ledgersFound.get(dynamodb) ?? new Set<string>();
  if (found.has(table)) return;
  await ensureTable(dynamodb, table, { name: LEDGER_KEY_ATTRIBUTE, type: 'S' });
  ledgersFound.set(dynamodb, found.add(table));
}
