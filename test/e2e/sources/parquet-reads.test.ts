import { HeadObjectCommand, type GetObjectCommandInput } from '@aws-sdk/client-s3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readParquetFooter } from '../../../lambdas/formats/parquet/parquet-footer.js';
import { runWithEvents } from '../faults/fixture.js';
import { faultGetObjects, removeFaults } from '../faults/inject.js';
import { createBucket, createTable, putText, runImport, s3 } from '../harness.js';

afterEach(removeFaults);

const FIXTURES = join(import.meta.dirname, '../../fixtures/parquet');
/** footer reads take the last 64 KiB (formats/parquet/parquet-footer.ts). */
const TAIL_BYTES = 64 * 1024;

describe('how Parquet objects are read', () => {
  it('reads the footer from the end and each row group with one range GET of its own bytes, all pinned to the ETag', async () => {
    const bucket = await createBucket();
    const file = readFileSync(join(FIXTURES, 'row-groups.parquet'));
    await putText(bucket, 'rg.parquet', file);
    const etag = (await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'rg.parquet' }))).ETag!;
    const { rowGroups } = await readParquetFooter(async (s, e) => file.subarray(s, e), file.length, 'rg.parquet');
    const gets: GetObjectCommandInput[] = [];
    faultGetObjects(bucket, 'initialize', async (input, send) => (gets.push(input), send(input)));
    const table = await createTable(['id', 'S']);

    const { summary } = await runWithEvents(
      { bucket, key: 'rg.parquet', table, chunkMiB: 4 / 1024 },
      { maxConcurrency: 4 },
    );

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 1200, written: 1200 });
    const tail = `bytes=${Math.max(0, file.length - TAIL_BYTES)}-${file.length - 1}`;
    const groupRanges = rowGroups.map((g) => `bytes=${g.start}-${g.end - 1}`);
    for (const get of gets) {
      expect(get.IfMatch).toBe(etag);
      expect([tail, ...groupRanges]).toContain(get.Range);
    }
    // Every row group read exactly once: no lane read another's, none read the whole object.
    const groupReads = gets.map((g) => g.Range).filter((range) => range !== tail);
    expect(groupReads.sort()).toEqual([...groupRanges].sort());
  });

  it('fails when the files of a prefix do not share one schema, naming them', async () => {
    const bucket = await createBucket();
    const spark = join(FIXTURES, 'spark');
    const part = readdirSync(spark).find((name) => name.startsWith('part-'))!;
    await putText(bucket, 'mixed/part-0.parquet', readFileSync(join(spark, part)));
    await putText(bucket, 'mixed/part-1.parquet', readFileSync(join(FIXTURES, 'types.parquet')));
    const table = await createTable(['id', 'S']);
    await expect(runImport({ bucket, prefix: 'mixed/', table })).rejects.toMatchObject({
      name: 'InvalidRequestError',
      message: expect.stringContaining('schema: mixed/part-1.parquet has another schema than mixed/part-0.parquet'),
    });
  });
});
