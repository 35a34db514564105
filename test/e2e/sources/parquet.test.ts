import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { outOfTimeAfter } from '../../../cli/local-run/runner.js';
import { readLambdaConfig } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { chunkInvocations } from '../chunk-invocations.js';
import { comparable } from '../formats/normalize-item.js';
import { createBucket, createTable, listKeys, putText, runImport, s3, scanAll } from '../harness.js';
import { parseRejectsFiles } from '../hostile/rejects-file.js';
import { GetObjectCommand } from '@aws-sdk/client-s3';

/** Written by test/fixtures/parquet/make-fixtures.py with pyarrow; the expected items by the same script. */
const FIXTURES = join(import.meta.dirname, '../../fixtures/parquet');
type Item = Record<string, AttributeValue>;
interface Expected {
  readonly items: Item[];
  readonly rejects: { row: number; reason: string }[];
}

const fixture = (name: string) => readFileSync(join(FIXTURES, name));
/** DynamoDB JSON as the script wrote it: B values are base64 text; the SDK's items hold bytes. */
function expected(name: string): Expected {
  const parsed = JSON.parse(fixture(`${name}.expect.json`).toString('utf8')) as Expected;
  const bytes = (value: AttributeValue): AttributeValue => {
    if (value.B !== undefined) return { B: Buffer.from(value.B as unknown as string, 'base64') };
    if (value.L) return { L: value.L.map(bytes) };
    if (value.M) return { M: Object.fromEntries(Object.entries(value.M).map(([k, v]) => [k, bytes(v)])) };
    return value;
  };
  const items = parsed.items.map((item) => Object.fromEntries(Object.entries(item).map(([k, v]) => [k, bytes(v)])));
  return { items, rejects: parsed.rejects };
}

async function rejectRows(bucket: string, prefix: string) {
  const keys = (await listKeys(bucket, prefix)).filter((k) => k.endsWith('.csv'));
  const files = await Promise.all(
    keys.map(async (key) => {
      const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return Buffer.from(await response.Body!.transformToByteArray());
    }),
  );
  return parseRejectsFiles(files).sort((a, b) => a.line - b.line);
}

describe('Parquet sources', () => {
  it('imports every type of the mapping table item by item; NaN and Infinity reject their rows', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'lake/types.parquet', fixture('types.parquet'));
    const table = await createTable(['id', 'S'], ['seq', 'N']);
    const want = expected('types');

    const { summary } = await runImport({ bucket, key: 'lake/types.parquet', table });

    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', rows: 5, written: 3, rejected: 2 });
    expect(comparable(await scanAll(table), ['id', 'seq'])).toEqual(comparable(want.items, ['id', 'seq']));
    const rejects = await rejectRows(bucket, summary.rejectsKey!);
    expect(rejects.map((r) => r.line)).toEqual(want.rejects.map((r) => r.row));
    rejects.forEach((reject, i) => expect(reject.reason).toContain(want.rejects[i].reason));
    // The record column holds the row as JSON, so a user sees what was rejected.
    expect(JSON.parse(rejects[0].record.toString('utf8'))).toMatchObject({ id: 'nan', seq: '4' });
  });

  it('imports DECIMALs stored as INT32 and INT64 exactly', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'd.parquet', fixture('decimal-ints.parquet'));
    const table = await createTable(['id', 'S']);
    const { summary } = await runImport({ bucket, key: 'd.parquet', table });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 3, written: 3 });
    expect(comparable(await scanAll(table), ['id'])).toEqual(comparable(expected('decimal-ints').items, ['id']));
  });

  // pyarrow writes both columns BYTE_STREAM_SPLIT; 10.1908455 and -10.2437105 need all 9 digits of a float32.
  it('stores a FLOAT as the shortest text that reads back as the same float32, up to 9 digits', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'f.parquet', fixture('float-digits.parquet'));
    const table = await createTable(['id', 'S']);
    const { summary } = await runImport({ bucket, key: 'f.parquet', table });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 8, written: 8 });
    expect(comparable(await scanAll(table), ['id'])).toEqual(comparable(expected('float-digits').items, ['id']));
  });

  // parquet-mr's shapes (written by parquetjs): each legacy list the spec's backward-compatibility rules name.
  it('reads the list shapes of older writers as the Parquet spec says: L, one M per repeated group', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'legacy.parquet', fixture('legacy-lists.parquet'));
    const table = await createTable(['id', 'S']);
    const { summary } = await runImport({ bucket, key: 'legacy.parquet', table });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 4, written: 4 });
    expect(comparable(await scanAll(table), ['id'])).toEqual(comparable(expected('legacy-lists').items, ['id']));
  });

  it.each(['snappy', 'gzip', 'zstd', 'none'])('reads a %s-compressed file', async (codec) => {
    const bucket = await createBucket();
    await putText(bucket, `c/${codec}.parquet`, fixture(`codec-${codec}.parquet`));
    const table = await createTable(['id', 'S']);
    const { summary } = await runImport({ bucket, key: `c/${codec}.parquet`, table });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 60, written: 60 });
    expect(comparable(await scanAll(table), ['id'])).toEqual(comparable(expected('codec').items, ['id']));
  });

  it('detects Parquet from the PAR1 magic when the key names no format', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'exports/blob-0001', fixture('codec-none.parquet'));
    const table = await createTable(['id', 'S']);
    const { summary } = await runImport({ bucket, key: 'exports/blob-0001', table });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 60, written: 60 });
  });

  it('splits 30 row groups over several lanes and resumes inside a row group from a checkpoint', async () => {
    const bucket = await createBucket();
    const file = fixture('row-groups.parquet');
    await putText(bucket, 'rg.parquet', file);
    const table = await createTable(['id', 'S']);
    // ~3 KB chunks: about 3 row groups of ~1 KB each (30 in the file). Each ImportChunk invocation is out of
    // time at its first deadline check (every 25 rows): a 40-row group is left at row 25 and resumed there.
    const run = await runImport(
      { bucket, key: 'rg.parquet', table, chunkMiB: 3 / 1024 },
      { clocks: { ImportChunk: outOfTimeAfter(2) }, maxConcurrency: 4 },
    );

    expect(run.summary).toMatchObject({ status: 'SUCCEEDED', rows: 1200, written: 1200, rejected: 0 });
    expect(run.chunks.length).toBeGreaterThan(3);
    // Chunks tile the row groups: each starts at the row after the last one's rows.
    const lines = run.chunks.map((c) => c.line!); // a Parquet chunk always knows its first row
    expect(lines[0]).toBe(1);
    expect(lines.every((line) => (line - 1) % 40 === 0)).toBe(true);
    const resumedInside = [...chunkInvocations(run.events).values()]
      .flat()
      .filter((i) => i.next && (i.next.line - 1) % 40 !== 0);
    expect(resumedInside.length).toBeGreaterThan(0);
    expect(comparable(await scanAll(table), ['id'])).toEqual(comparable(expected('row-groups').items, ['id']));
  });

  it('imports a Spark folder of part files, skipping _SUCCESS and .crc files', async () => {
    const bucket = await createBucket();
    const folder = join(FIXTURES, 'spark');
    await Promise.all(
      readdirSync(folder).map((name) => putText(bucket, `orders/${name}`, readFileSync(join(folder, name)))),
    );
    const table = await createTable(['id', 'S']);
    const { summary } = await runImport({ bucket, prefix: 'orders/', table, chunkMiB: 1 / 1024 });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', objects: 3, rows: 90, written: 90 });
    expect(comparable(await scanAll(table), ['id'])).toEqual(comparable(expected('spark').items, ['id']));
  });

  it('computes attributes from Parquet columns and leaves excluded ones out, as for CSV and JSON', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'c/orders.parquet', fixture('codec-snappy.parquet'));
    const table = await createTable(['PK', 'S'], ['SK', 'N']);
    const { summary } = await runImport({
      bucket,
      key: 'c/orders.parquet',
      table,
      attributes: { PK: 'ORDER#{id}', SK: '{n}' },
      exclude: ['note'],
    });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 60, written: 60 });
    // The computed key from the S and N columns (N as its exact text), typed by the table; note not stored.
    const want = expected('codec').items.map(({ id, n }) => ({ PK: { S: `ORDER#${id.S!}` }, SK: n, id, n }));
    expect(comparable(await scanAll(table), ['PK', 'SK'])).toEqual(comparable(want, ['PK', 'SK']));
  });

  it('fails when the footer does not parse, naming the object', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'bad/corrupt.parquet', fixture('corrupt-footer.parquet'));
    const table = await createTable(['id', 'S']);
    await expect(runImport({ bucket, key: 'bad/corrupt.parquet', table })).rejects.toMatchObject({
      name: 'CorruptSourceError',
      message: expect.stringMatching(/bad\/corrupt\.parquet is not a readable Parquet file: its footer does not parse/),
    });
    expect(await scanAll(table)).toEqual([]);
  });

  it('fails when the file is cut short, naming the object', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'bad/truncated.parquet', fixture('truncated.parquet'));
    const table = await createTable(['id', 'S']);
    await expect(runImport({ bucket, key: 'bad/truncated.parquet', table })).rejects.toMatchObject({
      name: 'CorruptSourceError',
      message: expect.stringContaining(
        'bad/truncated.parquet is not a readable Parquet file: it does not end with PAR1',
      ),
    });
  });

  it('fails when a row group is too big for the import function memory, naming the row group', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'big.parquet', fixture('codec-none.parquet'));
    const table = await createTable(['id', 'S']);
    const wiring = createWiring({ config: { ...readLambdaConfig({}), importMemoryMb: 200 } });
    await expect(runImport({ bucket, key: 'big.parquet', table }, { wiring })).rejects.toMatchObject({
      name: 'SourceTooLargeError',
      message: expect.stringMatching(/big\.parquet: row group 0 is 0\.0 MiB compressed; .* import function's 200 MB/),
    });
  });

  it('fails when a key column holds another type than the table key', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'k.parquet', fixture('codec-snappy.parquet'));
    const table = await createTable(['n', 'S']);
    await expect(runImport({ bucket, key: 'k.parquet', table })).rejects.toMatchObject({
      name: 'InvalidRequestError',
      message: expect.stringContaining('key attribute "n" is S in the table, but the Parquet column holds N values'),
    });
    // ...unless types turns the column into text.
    const { summary } = await runImport({ bucket, key: 'k.parquet', table, types: { n: 'S' } });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 60, written: 60 });
  });
});
