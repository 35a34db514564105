// The raw Node peer: what a careful user writes by hand. Streams the TSV line by line, builds 25-item
// PutRequest batches, keeps IN_FLIGHT BatchWriteItem requests going, re-sends UnprocessedItems.
// Plain JavaScript (no transpiling at start) so its whole-process time compares fairly with the others.
// Usage: node raw-loop.mjs FILE TABLE IN_FLIGHT   (endpoint and keys from AWS_* env)
import { BatchWriteItemCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const [file, table, inFlightArg] = process.argv.slice(2);
const inFlight = Number(inFlightArg ?? 16);
const client = new DynamoDBClient({});
const running = new Set();

async function send(batch) {
  let pending = batch;
  while (pending.length > 0) {
    const out = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: pending } }));
    pending = out.UnprocessedItems?.[table] ?? [];
  }
}

let batch = [];
let header = true;
for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
  if (header) {
    header = false;
    continue;
  }
  if (line === '') continue;
  const [ngram, year, match, volumes] = line.split('\t');
  batch.push({
    PutRequest: {
      Item: { ngram: { S: ngram }, year: { N: year }, match_count: { N: match }, volume_count: { N: volumes } },
    },
  });
  if (batch.length === 25) {
    const p = send(batch).finally(() => running.delete(p));
    running.add(p);
    batch = [];
    if (running.size >= inFlight) await Promise.race(running);
  }
}
if (batch.length > 0) running.add(send(batch));
await Promise.all(running);
