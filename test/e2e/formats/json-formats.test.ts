import { GetObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { generateDynamoJson, generateJsonLines, type JsonFixture } from '../../fixtures/json-lines.js';
import { createBucket, createTable, listKeys, putText, runImport, s3, scanAll } from '../harness.js';
import { expectRejects, parseRejectsFiles } from '../hostile/rejects-file.js';
import { comparable } from './normalize-item.js';
import { outOfTimeAfter } from '../../../cli/local-run/runner.js';
import { expectChunksResumed, lineLayout } from '../chunk-invocations.js';

async function getBytes(bucket: string, key: string): Promise<Buffer> {
  const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await response.Body!.transformToByteArray());
}

/**
 * Runs a generated file through the whole local workflow in 16 KiB chunks with scripted clocks
 * (cli/local-run/lambda-clock.ts): Preflight is out of time at every check, so chunks are cut over many
 * invocations; each ImportChunk invocation stops at its first deadline check (its first two clock reads set its
 * margin and timer; checks come every 25 records and after each block), so every 16 KiB chunk (40 to 75 lines
 * of 220 to 400 bytes) loops through checkpoints on any machine. Then compares the table with the items the
 * file holds, item by item, and the rejects files with the lines that had to be rejected.
 */
async function importFixture(
  fixture: JsonFixture,
  key: string,
  hash: [string, 'S'],
  range: [string, 'N'],
  format?: { type: 'jsonl' | 'dynamodb-json' },
) {
  const bucket = await createBucket();
  await putText(bucket, key, fixture.text);
  const table = await createTable(hash, range);
  const run = await runImport(
    { bucket, key, table, chunkMiB: 16 / 1024, ...(format ? { format } : {}) },
    { clocks: { Preflight: outOfTimeAfter(1), ImportChunk: outOfTimeAfter(2) }, maxConcurrency: 8 },
  );
  expect(run.summary).toMatchObject({
    status: 'SUCCEEDED_WITH_REJECTS',
    rows: fixture.rows,
    written: fixture.items.length,
    rejected: fixture.rejects.length,
  });
  expect(run.chunks.length).toBeGreaterThan(10);
  expect(run.preflightCalls).toHaveLength(1); // byte ranges from the size: no scan to loop over
  // Each invocation resumed at the line (a record start) where the one before stopped, rows counted once.
  const invocations = expectChunksResumed(run.events, run.chunks, lineLayout(fixture.text, { header: false }));
  expect(Math.min(...invocations.slice(0, -1))).toBeGreaterThanOrEqual(2); // the last chunk may be short
  const keyNames = [hash[0], range[0]];
  expect(comparable(await scanAll(table), keyNames)).toEqual(comparable(fixture.items, keyNames));
  const rejectKeys = (await listKeys(bucket, run.summary.rejectsKey!)).filter((k) => k.endsWith('.csv'));
  const rejectFiles = await Promise.all(rejectKeys.map((k) => getBytes(bucket, k)));
  // Each bad line: its line number, the byte offset where it starts, the reason and its bytes as written.
  expectRejects(Buffer.from(fixture.text), parseRejectsFiles(rejectFiles), fixture.rejects);
}

describe('JSON formats through the whole workflow', () => {
  it('imports JSON Lines item by item, 38-digit numbers exact, bad lines rejected with their line', async () => {
    const fixture = generateJsonLines(1500);
    expect(fixture.rejects.length).toBeGreaterThanOrEqual(4);
    await importFixture(fixture, 'in/events.jsonl', ['id', 'S'], ['seq', 'N']);
  }, 180_000);

  it('imports DynamoDB JSON with every attribute type item by item, bad lines rejected with their line', async () => {
    const fixture = generateDynamoJson(1200);
    expect(fixture.rejects.length).toBeGreaterThanOrEqual(4);
    // Named like an export's data file; the format is detected from `.json`.
    await importFixture(fixture, 'exp/AWSDynamoDB/01234567890123-abcdefgh/data/part.json', ['pk', 'S'], ['sk', 'N']);
  }, 180_000);

  it('reads a .json file of plain JSON Lines when the request says format.type jsonl', async () => {
    const fixture = generateJsonLines(300, { every: 1000 });
    const bucket = await createBucket();
    await putText(bucket, 'spark/part-00000.json', fixture.text);
    const table = await createTable(['id', 'S'], ['seq', 'N']);
    const { summary } = await runImport({ bucket, key: 'spark/part-00000.json', table, format: { type: 'jsonl' } });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 300, written: 300, rejected: 0 });
    expect(comparable(await scanAll(table), ['id', 'seq'])).toEqual(comparable(fixture.items, ['id', 'seq']));
  });
});
