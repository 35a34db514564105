import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient, paginateScan, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { SFNClient } from '@aws-sdk/client-sfn';
import { ensureTable } from '../../cli/local-run/local-stack.js';
import { STACK } from './tier-stack.js';

// Workers inherit AWS_ENDPOINT_URL, the root keys and NODE_EXTRA_CA_CERTS from the global setup.
export const dynamodb = new DynamoDBClient({});
export const s3 = new S3Client({ forcePathStyle: true });
export const sfn = new SFNClient({});
const cloudformation = new CloudFormationClient({});

export type Item = Record<string, AttributeValue>;

/** The deployed stack's outputs (public contract): StateMachineArn, BucketName, WatchedPrefixes, ... */
export async function stackOutputs(): Promise<Record<string, string>> {
  const { Stacks } = await cloudformation.send(new DescribeStacksCommand({ StackName: STACK }));
  return Object.fromEntries((Stacks?.[0]?.Outputs ?? []).map((o) => [o.OutputKey as string, o.OutputValue as string]));
}

/** Creates a 1-gram table (ngram, year:N) on demand, as a user would before importing; one that exists is kept. */
export async function ensureNgramTable(name: string): Promise<void> {
  await ensureTable(dynamodb, name, { name: 'ngram', type: 'S' }, { name: 'year', type: 'N' });
}

/** Every item of the table, ordered by key, for an item-by-item comparison. */
export async function scanSorted(table: string): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of paginateScan({ client: dynamodb }, { TableName: table, ConsistentRead: true })) {
    items.push(...(page.Items ?? []));
  }
  return sortItems(items);
}

/** Items in (ngram, year) order: the order {@link scanSorted} returns. */
export const sortItems = (items: Item[]) => [...items].sort((a, b) => ngramKey(a).localeCompare(ngramKey(b)));

const ngramKey = (item: Item) => `${item.ngram?.S}\u0000${item.year?.N?.padStart(6, '0')}`;

export async function getText(bucket: string, key: string): Promise<string> {
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return (await object.Body?.transformToString()) ?? '';
}

export async function listKeys(bucket: string, prefix: string): Promise<string[]> {
  const { Contents } = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (Contents ?? []).map((object) => object.Key as string).sort();
}
