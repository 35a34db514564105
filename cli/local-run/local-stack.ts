import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { CreateBucketCommand, HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { mapAtMost } from '../../lambdas/async/map-at-most.js';
import { MANIFEST_SUMMARY } from '../../lambdas/source/dynamodb-export.js';
import { LEDGER_KEY_ATTRIBUTE } from '../../lambdas/admission/ledger-items.js';
import type { KeyType } from '../flags/cli-args.js';

/** The bucket local mode uploads into; the engine starts empty each run unless AWS_ENDPOINT_URL_S3 is set. */
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
export async function uploadFile(s3: S3Client, bucket: string, file: string, key = uploadKey(file)): Promise<string> {
  const { size } = await stat(file);
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: createReadStream(file), ContentLength: size }));
  return key;
}

/** Files uploaded at once from a folder. */
const UPLOADS_AT_ONCE = 8;

/** Every file under `dir`, as paths relative to it, in a stable order. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)))
    .sort();
}

/**
 * Uploads a folder under `imports/<name>-<8 hex>/`, keeping relative paths (a fresh prefix for each run, so that
 * the files of an earlier upload of a folder of that name, on servers kept between runs, are never imported too).
 */
export async function uploadFolder(s3: S3Client, bucket: string, dir: string): Promise<string> {
  const prefix = `imports/${basename(dir)}-${randomUUID().slice(0, 8)}/`;
  const files = await filesUnder(dir);
  await mapAtMost(files, UPLOADS_AT_ONCE, (file) =>
    uploadFile(s3, bucket, join(dir, file), prefix + file.split(sep).join('/')),
  );
  return prefix;
}

/** The file or folder `local` was given does not exist: said before any server starts. */
export class LocalSourceNotFoundError extends Error {
  override readonly name = 'LocalSourceNotFoundError';
  constructor(path: string) {
    super(
      `no file or folder at ${path}: give the path of the file to import (CSV/TSV, JSON Lines, DynamoDB JSON, ` +
        'plain, .gz or .zst; or Parquet), a folder of such files, or a DynamoDB export folder',
    );
  }
}

/** Throws LocalSourceNotFoundError unless `path` names a file or folder. */
export async function checkLocalSource(path: string): Promise<void> {
  try {
    await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new LocalSourceNotFoundError(path);
    throw error;
  }
}

/**
 * What `local` imports, uploaded to the local S3: a file as one key (a `.gz` or `.zst` one too), a folder as a
 * prefix (a DynamoDB export's folder is one), and an export's manifest-summary.json as its folder, named by the
 * manifest. Returns the request's `key` or `prefix`.
 */
export async function uploadSource(
  s3: S3Client,
  bucket: string,
  path: string,
): Promise<{ key: string } | { prefix: string }> {
  if ((await stat(path)).isDirectory()) return { prefix: await uploadFolder(s3, bucket, path) };
  if (basename(path) === MANIFEST_SUMMARY)
    return { key: `${await uploadFolder(s3, bucket, dirname(path))}${MANIFEST_SUMMARY}` };
  return { key: await uploadFile(s3, bucket, path) };
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
        if (error.name === 'ResourceInUseException') return false; // another local run made it first
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
