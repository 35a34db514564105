import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { randomUUID } from 'node:crypto';
import type { ImportRequest } from '../../lambdas/contract/import-request.js';
import { ensureTable } from '../../cli/local-run/local-stack.js';
import type { ImportSummary } from '../../lambdas/contract/workflow-payloads.js';
import { runLocalImport, type LocalRunOptions, type RunnerEvent } from '../../cli/local-run/runner.js';

/** Clients for the local engine that test/global-setup.ts started (endpoints from the env). */
export const dynamodb = new DynamoDBClient({});
export const s3 = new S3Client({ forcePathStyle: true });

export const uniqueName = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

export async function createBucket(): Promise<string> {
  const bucket = uniqueName('e2e');
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  return bucket;
}

export async function putText(bucket: string, key: string, body: string | Buffer): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body }));
}

export async function getText(bucket: string, key: string): Promise<string> {
  const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return response.Body!.transformToString('utf8');
}

export async function listKeys(bucket: string, prefix: string): Promise<string[]> {
  const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
  return (listed.Contents ?? []).map((o) => o.Key!).sort();
}

/** Creates an on-demand table keyed by `hash` (and `range`), each given as [name, 'S' | 'N' | 'B']. */
export async function createTable(hash: [string, 'S' | 'N' | 'B'], range?: [string, 'S' | 'N' | 'B']): Promise<string> {
  const table = uniqueName('e2e');
  const key = ([name, type]: [string, 'S' | 'N' | 'B']) => ({ name, type });
  await ensureTable(dynamodb, table, key(hash), range && key(range));
  return table;
}

/** Every item of the table, read with a 4-segment parallel Scan. */
export async function scanAll(table: string): Promise<Record<string, AttributeValue>[]> {
  const segments = 4;
  const parts = await Promise.all(
    Array.from({ length: segments }, async (_, segment) => {
      const items: Record<string, AttributeValue>[] = [];
      let start: Record<string, AttributeValue> | undefined;
      do {
        const page = await dynamodb.send(
          new ScanCommand({ TableName: table, Segment: segment, TotalSegments: segments, ExclusiveStartKey: start }),
        );
        items.push(...(page.Items ?? []));
        start = page.LastEvaluatedKey;
      } while (start);
      return items;
    }),
  );
  return parts.flat();
}

/** Runs the real workflow file through the local runner and records what the runner reported. */
export async function runImport(request: ImportRequest, options: Omit<LocalRunOptions, 'onEvent'> = {}) {
  const events: RunnerEvent[] = [];
  const summary: ImportSummary = await runLocalImport(request, { ...options, onEvent: (e) => events.push(e) });
  const preflightCalls = events.filter((e) => e.type === 'preflight');
  const importCalls = events.filter((e) => e.type === 'chunk-progress');
  return { summary, events, preflightCalls, importCalls, chunks: preflightCalls.at(-1)?.chunkList ?? [] };
}
