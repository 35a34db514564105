import { BatchWriteItemCommand, type DynamoDBClient, type WriteRequest } from '@aws-sdk/client-dynamodb';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import type { NgramRow } from '../test/fixtures/ngrams.js';

const BATCH = 25;

/** 1-gram rows as ready-made 25-item PutRequest batches (built before the clock starts). */
export function prebuiltBatches(rows: readonly NgramRow[]): WriteRequest[][] {
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    batches.push(
      rows.slice(i, i + BATCH).map((r) => ({
        PutRequest: {
          Item: {
            ngram: { S: r.ngram },
            year: { N: String(r.year) },
            match_count: { N: String(r.match_count) },
            volume_count: { N: String(r.volume_count) },
          },
        },
      })),
    );
  }
  return batches;
}

/** Sends one batch, re-sending UnprocessedItems until none are left (the local engine never returns any). */
async function sendBatch(client: DynamoDBClient, table: string, batch: WriteRequest[]): Promise<void> {
  let pending = batch;
  while (pending.length > 0) {
    const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
    pending = out.UnprocessedItems?.[table] ?? [];
  }
}

/** The ceiling: pre-built batches, `inFlight` requests at a time, nothing else. Returns items/s. */
export async function ceilingLoop(
  client: DynamoDBClient,
  table: string,
  batches: WriteRequest[][],
  inFlight: number,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < batches.length) await sendBatch(client, table, batches[next++]);
    }),
  );
  const items = batches.reduce((sum, b) => sum + b.length, 0);
  return items / ((performance.now() - started) / 1000);
}

/**
 * The classic throw-away script users come from: read the file line by line, and every 25 lines send
 * one BatchWriteItem and wait for it. Returns items/s over the first `limit` rows.
 */
export async function naiveScript(client: DynamoDBClient, table: string, file: string, limit: number): Promise<number> {
  const started = performance.now();
  let batch: WriteRequest[] = [];
  let count = 0;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of lines) {
    if (count === 0 && line.startsWith('ngram\t')) {
      count = -1; // header
      continue;
    }
    const [ngram, year, match, volumes] = line.split('\t');
    batch.push({
      PutRequest: {
        Item: { ngram: { S: ngram }, year: { N: year }, match_count: { N: match }, volume_count: { N: volumes } },
      },
    });
    if (batch.length === BATCH) {
      await sendBatch(client, table, batch);
      batch = [];
    }
    if (++count >= limit) break;
  }
  if (batch.length > 0) await sendBatch(client, table, batch);
  lines.close();
  return Math.max(count, 0) / ((performance.now() - started) / 1000);
}
