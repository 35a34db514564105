import { describe, expect, it } from 'vitest';
import { CHUNK_LAYOUTS } from '../../../lambdas/chunk-layouts/chunk-layouts.js';
import type { FormatType } from '../../../lambdas/contract/import-request.js';
import { SOURCE_FORMATS } from '../../../lambdas/formats/record-formats.js';
import { createWiring, type Wiring } from '../../../lambdas/wiring/wiring.js';
import { outOfTimeAfter } from '../../../cli/local-run/runner.js';
import { expectChunksResumed, lineLayout } from '../chunk-invocations.js';
import { createBucket, createTable, getText, listKeys, putText, runImport, scanAll } from '../harness.js';
import { expectRejects, parseRejectsFiles } from '../hostile/rejects-file.js';
import { FIXED_WIDTH_LAYOUT, RECORD_BYTES, TOY_FIXED_FORMAT } from './toy-layout.js';

/** The registration: the toy layout's file (toy-layout.ts) and this one line. */
const chunkLayouts = { ...CHUNK_LAYOUTS, 'fixed-width': FIXED_WIDTH_LAYOUT };
/** A request reaches a layout through a format that names it: the toy format, from the same file. */
const sourceFormats = { ...SOURCE_FORMATS, 'toy-fixed': TOY_FIXED_FORMAT };

const ROWS = 400;
const field = (value: string, width: number) => value.padEnd(width);
const recordOf = (i: number) =>
  `${field(`k${i}`, 10)}${field(String(i * 7), 10)}${field(`row ${'x'.repeat(i % 7)}`, 11)}`;
/** Line 151 holds no number in `n` (rejected): 401 records of 32 bytes, 400 items. */
const LINES = Array.from({ length: ROWS }, (_, i) => recordOf(i));
LINES.splice(150, 0, `${field('bad', 10)}${field('many', 10)}${field('', 11)}`);
const BODY = `${LINES.join('\n')}\n`;
/** 2 KiB chunks hold 64 records (2048 / 32): 401 records make 7 chunks, the last of 17 records. */
const CHUNK_BYTES = 2048;

/**
 * Imports the toy file through the real local run (Preflight plans it with the toy planner, the Map's ImportChunk
 * lanes read it with the toy importer, the handlers built from the esbuild bundles with `wiring`) in chunks of
 * 2 KiB. Each ImportChunk invocation stops at its first deadline check (a scripted clock: 25 records in), so every
 * chunk of 64 records resumes twice from the checkpoints the toy importer returns.
 */
async function importToyFile(wiring: Wiring = { ...createWiring(), sourceFormats, chunkLayouts }) {
  const bucket = await createBucket();
  await putText(bucket, 'in/rows.fw', BODY);
  const table = await createTable(['pk', 'S']);
  const format = { type: 'toy-fixed' as FormatType };
  const request = { bucket, key: 'in/rows.fw', table, types: { n: 'N' as const }, format, chunkMiB: 2 / 1024 };
  try {
    const clocks = { ImportChunk: outOfTimeAfter(2) };
    const run = await runImport(request, { wiring, executionName: 'toy-layout-1', clocks });
    return { run, bucket, table };
  } finally {
    wiring.writeTransport.destroy();
  }
}

describe('a chunk layout added as its own file and one line in the table', () => {
  it('imports a file end to end through the toy layout: its chunks, every item, the bad line rejected', async () => {
    const { run, bucket, table } = await importToyFile();
    // The toy planner's chunks: whole runs of 64 records, each knowing its first line.
    const size = (ROWS + 1) * RECORD_BYTES;
    const expected = Array.from({ length: Math.ceil(size / CHUNK_BYTES) }, (_, i) => ({
      object: 0,
      start: i * CHUNK_BYTES,
      end: Math.min(size, (i + 1) * CHUNK_BYTES),
      line: (i * CHUNK_BYTES) / RECORD_BYTES + 1,
    }));
    expect(run.chunks).toEqual(expected);
    expect(run.chunks).toHaveLength(7);
    // Each invocation resumed at the record where the one before stopped, rows counted once: 25 + 25 + 14 a chunk.
    const invocations = expectChunksResumed(run.events, run.chunks, lineLayout(BODY, { header: false }));
    expect(invocations).toEqual([3, 3, 3, 3, 3, 3, 1]);
    expect(run.summary).toMatchObject({
      status: 'SUCCEEDED_WITH_REJECTS',
      rows: ROWS + 1,
      written: ROWS,
      rejected: 1,
      rejectsKey: 's3-ddb-import/rejects/toy-layout-1/',
    });
    const landed = new Map((await scanAll(table)).map((item) => [item.pk.S!, item]));
    expect(landed.size).toBe(ROWS);
    for (let i = 0; i < ROWS; i++) {
      const item = { pk: { S: `k${i}` }, n: { N: String(i * 7) }, note: { S: `row ${'x'.repeat(i % 7)}`.trimEnd() } };
      expect(landed.get(`k${i}`)).toEqual(item);
    }
    const rejectKeys = (await listKeys(bucket, run.summary.rejectsKey!)).filter((key) => key.endsWith('.csv'));
    const files = await Promise.all(rejectKeys.map(async (key) => Buffer.from(await getText(bucket, key))));
    expectRejects(Buffer.from(BODY), parseRejectsFiles(files), [{ line: 151, reason: 'n: not a number' }]);
  });

  it('fails when the wiring holds the format but not its layout: one line naming both', async () => {
    const failure = await importToyFile({ ...createWiring(), sourceFormats }).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'InvalidRequestError' });
    expect((failure as Error).message).toContain(
      'format.type: toy fixed-width objects are cut by chunk layout "fixed-width", which is not one of records, row-groups',
    );
  });
});
