import { GetObjectCommand } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../lambdas/environment/config.js';
import { createWiring, type Wiring } from '../../lambdas/wiring/wiring.js';
import { MIN_PART_BYTES } from '../../lambdas/wiring/s3-stream-upload.js';
import { createBucket, createTable, listKeys, putText, runImport, s3, scanAll } from './harness.js';
import { parseRejectsFiles } from './hostile/rejects-file.js';

/** One request a handler sent: its command, the object key, and for a part its number and size. */
interface Sent {
  readonly command: string;
  readonly key?: string;
  readonly part?: number;
  readonly bytes?: number;
}

/** Records every S3 and BatchWriteItem request of `wiring`, in the order sent (the real servers answer them). */
function recordRequests(wiring: Wiring): Sent[] {
  const sent: Sent[] = [];
  const record =
    (next: (args: { input: never }) => Promise<unknown>, context: { commandName?: string }) =>
    async (args: { input: never }) => {
      const input = args.input as { Key?: string; PartNumber?: number; Body?: unknown };
      const bytes = Buffer.isBuffer(input.Body) || input.Body instanceof Uint8Array ? input.Body.length : undefined;
      sent.push({ command: context.commandName!, key: input.Key, part: input.PartNumber, bytes });
      return next(args);
    };
  const at = { step: 'initialize', name: 'record-requests' } as never;
  wiring.s3.middlewareStack.add(record as never, at);
  wiring.writeTransport.middlewareStack.add(record as never, at);
  return sent;
}

/**
 * Rows of `id,n,text`: three of every four have `n` that is not a number and a 300-byte text (the bad rows make up
 * most of the bytes), the fourth a number and a short text. 52,000 rows hold about 12.4 MiB.
 */
function rowsOf(count: number): { body: Buffer; bad: { line: number; offset: number; record: string }[] } {
  const header = 'id,n,text\n';
  const parts = [header];
  const bad: { line: number; offset: number; record: string }[] = [];
  let offset = header.length;
  for (let i = 0; i < count; i++) {
    const record = i % 4 === 0 ? `id-${i},${i},short` : `id-${i},x${i},${'pad '.repeat(75)}${i}`;
    if (i % 4 !== 0) bad.push({ line: i + 2, offset, record });
    parts.push(`${record}\n`);
    offset += record.length + 1;
  }
  return { body: Buffer.from(parts.join('')), bad };
}

describe('rejects at scale', () => {
  const { body, bad } = rowsOf(52_000);
  let wiring: Wiring;
  let sent: Sent[];

  beforeAll(() => {
    // Parts of 5 MiB, the least S3 takes (all parts but the last), so megabytes of rejects make several parts.
    const config = { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, rejectsPartBytes: MIN_PART_BYTES };
    wiring = createWiring({ config });
    sent = recordRequests(wiring);
  });

  it('streams each rejects file in parts while the import runs, and every bad row lands once at its line', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'in/big.csv', body);
    const table = await createTable(['id', 'S']);
    const request = { bucket, key: 'in/big.csv', table, types: { n: 'N' as const }, chunkMiB: 6.5 };

    const { summary, chunks } = await runImport(request, {
      executionName: 'rejects-at-scale',
      wiring,
      maxConcurrency: 1,
    });

    // Two byte ranges, each lane finding its own first record: both write relative lines, which Summarize rewrites.
    expect(chunks.map((c) => c.line ?? null)).toEqual([null, null]);
    expect(summary).toMatchObject({ rows: 52_000, written: 13_000, rejected: bad.length });
    expect(await scanAll(table)).toHaveLength(13_000);
    const folder = summary.rejectsKey!;
    const keys = (await listKeys(bucket, folder)).filter((k) => k.endsWith('.csv'));
    expect(keys.some((k) => k.includes('/relative/'))).toBe(false);
    const files = await Promise.all(keys.map(getBytes(bucket)));
    // Line by line: each bad row once, in file order, with its absolute line, byte offset, reason and bytes.
    const rows = parseRejectsFiles(files);
    expect(rows.length).toBe(bad.length);
    rows.forEach((row, i) => {
      expect([row.line, row.byteOffset, row.record.toString()]).toEqual([bad[i].line, bad[i].offset, bad[i].record]);
      expect(row.reason).toContain('not a number');
    });
    expectPartsOf(files, keys, sent);
  }, 300_000);
});

function getBytes(bucket: string) {
  return async (Key: string) => {
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  };
}

/**
 * Every rejects file (Summarize's rewrites) went up as a multipart upload of 5 MiB parts, never one PutObject: no
 * request held more than a part. The relative files the lanes wrote went the same way, and each lane flushed while it
 * ran: its items were still being written after its file's first part.
 */
function expectPartsOf(files: readonly Buffer[], keys: readonly string[], sent: readonly Sent[]): void {
  const partsOf = (key: string) => sent.filter((s) => s.key === key && s.command === 'UploadPartCommand');
  keys.forEach((key, i) => {
    const expected = Math.ceil(files[i].length / MIN_PART_BYTES); // e.g. 6.9 MiB: 2 parts
    expect(expected).toBeGreaterThanOrEqual(2);
    expect(partsOf(key).map((p) => p.part)).toEqual(Array.from({ length: expected }, (_, p) => p + 1));
    expect(
      partsOf(key)
        .slice(0, -1)
        .every((p) => p.bytes === MIN_PART_BYTES),
    ).toBe(true);
    expect(sent.filter((s) => s.key === key && s.command === 'PutObjectCommand')).toEqual([]);
    expect(sent.filter((s) => s.key === key && s.command === 'CompleteMultipartUploadCommand')).toHaveLength(1);
  });
  const relative = [...new Set(sent.filter((s) => s.key?.includes('/relative/')).map((s) => s.key!))];
  expect(relative).toHaveLength(2);
  // The chunks ran one at a time (maxConcurrency 1): a write between a file's first part and its completion is
  // that chunk's import going on after its rejects began to go out.
  for (const key of relative) {
    expect(partsOf(key).length).toBeGreaterThanOrEqual(2);
    const first = sent.findIndex((s) => s.key === key && s.command === 'UploadPartCommand');
    const done = sent.findIndex((s) => s.key === key && s.command === 'CompleteMultipartUploadCommand');
    expect(
      sent.slice(first, done).some((s) => s.command === 'BatchWriteItemCommand'),
      key,
    ).toBe(true);
  }
}
