import { GetObjectCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createBucket, createTable, listKeys, putText, runImport, s3, scanAll } from './harness.js';
import { parseRejectsFiles } from './hostile/rejects-file.js';

/**
 * 400 records of a quoted CSV whose text fields hold newlines, cut into 2 KiB ranges (6 lanes, most finding
 * their own first record): every 13th record has a `seq` that is not a number. The rejects the user fetches must
 * give each bad record's exact line and byte offset in the object, although the lanes only knew their lines
 * relative to their own first record (Summarize makes them absolute).
 */
describe('rejects of lanes that found their own first record', () => {
  it('carry the physical line and byte offset of the record in the object', async () => {
    const records: string[] = [];
    const bad: number[] = [];
    for (let i = 0; i < 400; i++) {
      const text = i % 3 === 0 ? `"two\nlines, ""quoted"" ${i}"` : `plain ${i}`;
      if (i % 13 === 5) bad.push(i);
      records.push(`id-${i},${i % 13 === 5 ? 'x' : i},${text}${i % 2 ? '\r\n' : '\n'}`);
    }
    const header = 'id,seq,text\n';
    const body = Buffer.from(header + records.join(''));
    const bucket = await createBucket();
    await putText(bucket, 'in/quoted.csv', body);
    const table = await createTable(['id', 'S']);

    const { summary, chunks } = await runImport(
      { bucket, key: 'in/quoted.csv', table, types: { seq: 'N' }, chunkMiB: 2 / 1024 },
      { executionName: 'lane-rejects', maxConcurrency: 4 },
    );

    expect(chunks.length).toBeGreaterThan(4);
    expect(summary).toMatchObject({ rows: 400, written: 400 - bad.length, rejected: bad.length });
    expect(await scanAll(table)).toHaveLength(400 - bad.length);
    const keys = (await listKeys(bucket, summary.rejectsKey!)).filter((k) => k.endsWith('.csv'));
    expect(keys.some((k) => k.includes('/relative/'))).toBe(false); // rewritten, then deleted
    const files = await Promise.all(
      keys.map(async (Key) => {
        const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
        return Buffer.from(await got.Body!.transformToByteArray());
      }),
    );
    const rows = parseRejectsFiles(files);
    const offsetOf = (i: number) => Buffer.byteLength(header + records.slice(0, i).join(''));
    const lineOf = (i: number) => 1 + (body.subarray(0, offsetOf(i)).toString().match(/\n/g)?.length ?? 0);
    expect(rows.map((r) => [r.line, r.byteOffset])).toEqual(bad.map((i) => [lineOf(i), offsetOf(i)]));
    expect(rows.map((r) => r.record.toString())).toEqual(bad.map((i) => records[i].replace(/\r?\n$/, '')));
  }, 180_000);
});
