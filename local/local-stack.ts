import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, waitUntilTableExists } from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, GetObjectCommand, HeadBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import { mkdir, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { KeyType } from './cli-args.js';

/** The bucket local mode uploads into; MinIO starts empty each run unless AWS_ENDPOINT_URL_S3 is set. */
export const LOCAL_BUCKET = 's3-ddb-import-local';

export async function ensureBucket(s3: S3Client, bucket: string): Promise<void> {
  try {
    await s3.send(new HeadBucketCommand({ Bucket: bucket }));
    return;
  } catch (error) {
    if ((error as Error).name !== 'NotFound') throw error;
  }
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    // Two `local` runs started together both see no bucket and both create it; the loser is fine.
    if ((error as Error).name !== 'BucketAlreadyOwnedByYou') throw error;
  }
}

/** The key a local file is uploaded to: imports/<name>. */
export const uploadKey = (file: string): string => `imports/${basename(file)}`;

/** Streams a local file into the bucket under imports/<name>; returns the key. */
export async function uploadFile(s3: S3Client, bucket: string, file: string): Promise<string> {
  const key = uploadKey(file);
  const { size } = await stat(file);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(file), ContentLength: size }));
  return key;
}

/** Creates an on-demand table with the given key unless it exists; returns whether it was created. */
export async function ensureTable(
  dynamodb: DynamoDBClient,
  table: string,
  partitionKey: { name: string; type: KeyType },
  sortKey?: { name: string; type: KeyType },
): Promise<boolean> {
  try {
    await dynamodb.send(new DescribeTableCommand({ TableName: table }));
    return false;
  } catch (error) {
    if ((error as Error).name !== 'ResourceNotFoundException') throw error;
  }
  const keys = sortKey ? [partitionKey, sortKey] : [partitionKey];
  await dynamodb.send(
    new CreateTableCommand({
      TableName: table,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: keys.map((k, i) => ({ AttributeName: k.name, KeyType: i === 0 ? 'HASH' : 'RANGE' })),
      AttributeDefinitions: keys.map((k) => ({ AttributeName: k.name, AttributeType: k.type })),
    }),
  );
  await waitUntilTableExists({ client: dynamodb, maxWaitTime: 60 }, { TableName: table });
  return true;
}

/** Copies every object under `prefix` into `dir` (local S3 stops with the command; a deployed bucket's rejects come home). */
export async function downloadPrefix(s3: S3Client, bucket: string, prefix: string, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  let token: string | undefined;
  do {
    // A deployed import of 1,000 chunks can leave more rejects files than one page of 1,000 keys.
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
    for (const object of listed.Contents ?? []) {
      const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: object.Key }));
      const target = join(dir, basename(object.Key ?? 'object'));
      await writeFile(target, await response.Body!.transformToByteArray());
      files.push(target);
    }
    token = listed.NextContinuationToken;
  } while (token);
  return files;
}
