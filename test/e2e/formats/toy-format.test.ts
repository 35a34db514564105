import { describe, expect, it } from 'vitest';
import type { FormatType } from '../../../lambdas/contract/import-request.js';
import { SOURCE_FORMATS } from '../../../lambdas/formats/record-formats.js';
import { createWiring, type Wiring } from '../../../lambdas/wiring/wiring.js';
import { outOfTimeAfter } from '../../../cli/local-run/runner.js';
import { expectChunksResumed, lineLayout } from '../chunk-invocations.js';
import { createBucket, createTable, getText, listKeys, putText, runImport, scanAll } from '../harness.js';
import { expectRejects, parseRejectsFiles } from '../hostile/rejects-file.js';
import { TOY_KV_FORMAT } from './toy-kv-format.js';

/** The registration: the toy format's file (toy-kv-format.ts) and this one line. */
const sourceFormats = { ...SOURCE_FORMATS, 'toy-kv': TOY_KV_FORMAT };

const ROWS = 400;
const lineOf = (i: number) => `pk=k${i};n=${i * 7};note=row ${'x'.repeat(i % 13)}`;
/** Line 151 is not a pair (rejected), line 152 is blank (skipped): 401 rows, 400 items. */
const LINES = Array.from({ length: ROWS }, (_, i) => lineOf(i));
LINES.splice(150, 0, 'not a pair', '');
const BODY = `${LINES.join('\n')}\n`;

/**
 * Imports the toy file through the real local run (Preflight plans it, the Map's ImportChunk lanes read it, the
 * handlers built from the esbuild bundles with `wiring`) in chunks of 2 KiB: over ~15 KB, most chunks start inside a
 * record, so each lane finds its first record and finishes its last by the toy format's dialect. Each ImportChunk
 * invocation stops at its first deadline check (a scripted clock: cli/local-run/lambda-clock.ts), so every chunk of
 * ~50 lines resumes from checkpoints the toy format's records end at.
 */
async function importToyFile(wiring: Wiring = { ...createWiring(), sourceFormats }) {
  const bucket = await createBucket();
  await putText(bucket, 'in/rows.kv', BODY);
  const table = await createTable(['pk', 'S']);
  const format = { type: 'toy-kv' as FormatType };
  const request = { bucket, key: 'in/rows.kv', table, types: { n: 'N' as const }, format, chunkMiB: 2 / 1024 };
  try {
    const clocks = { ImportChunk: outOfTimeAfter(2) };
    const run = await runImport(request, { wiring, executionName: 'toy-1', clocks });
    return { run, bucket, table };
  } finally {
    wiring.writeTransport.destroy();
  }
}

describe('a source format added as its own file and one line in the table', () => {
  it('imports a file end to end through the toy format: every item as the file holds it, the bad line rejected', async () => {
    const { run, bucket, table } = await importToyFile();
    expect(run.chunks.length).toBeGreaterThan(5);
    // Each invocation resumed at the line where the one before stopped, rows counted once.
    const invocations = expectChunksResumed(run.events, run.chunks, lineLayout(BODY, { header: false }));
    expect(Math.min(...invocations.slice(0, -1))).toBeGreaterThanOrEqual(2); // the last chunk may be short
    expect(run.summary).toMatchObject({
      status: 'SUCCEEDED_WITH_REJECTS',
      rows: ROWS + 1,
      written: ROWS,
      rejected: 1,
      rejectsKey: 's3-ddb-import/rejects/toy-1/',
    });
    const landed = new Map((await scanAll(table)).map((item) => [item.pk.S!, item]));
    expect(landed.size).toBe(ROWS);
    for (let i = 0; i < ROWS; i++) {
      const item = { pk: { S: `k${i}` }, n: { N: String(i * 7) }, note: { S: `row ${'x'.repeat(i % 13)}` } };
      expect(landed.get(`k${i}`)).toEqual(item);
    }
    const rejectKeys = (await listKeys(bucket, run.summary.rejectsKey!)).filter((key) => key.endsWith('.csv'));
    const files = await Promise.all(rejectKeys.map(async (key) => Buffer.from(await getText(bucket, key))));
    const rows = parseRejectsFiles(files);
    // Its line in the object (the lanes count lines from their range's start; Summarize numbers them), its offset.
    expectRejects(Buffer.from(BODY), rows, [{ line: 151, reason: 'not a name=value pair: "not a pair"' }]);
  });

  it('fails when the wiring does not hold the format: the request check reads the types from the table', async () => {
    const failure = await importToyFile(createWiring()).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'InvalidRequestError' });
    expect((failure as Error).message).toContain(
      'format.type: must be one of csv, jsonl, dynamodb-json, dynamodb-ion, parquet, got "toy-kv"',
    );
  });
});
