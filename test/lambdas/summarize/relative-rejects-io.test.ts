import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PassThrough, type Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { relativeRejectsKey } from '../../../lambdas/contract/relative-rejects.js';
import type { SummarizeEvent } from '../../../lambdas/contract/workflow-payloads.js';
import { formatRejects, type RejectedRow } from '../../../lambdas/chunk-layouts/rejects.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import { makeRejectsAbsolute } from '../../../lambdas/summarize/relative-rejects-io.js';
import { MIN_PART_BYTES } from '../../../lambdas/wiring/s3-stream-upload.js';
import { chunkResultArray } from '../../support/chunk-results.js';
import { createBucket, listKeys, s3 as plainS3 } from '../../e2e/harness.js';

const ETAG = '"0123456789abcdef0123456789abcdef"';
const FOLDER = 'rejects/exec-big';

/** An S3 client whose requests are logged, and whose GetObject bodies count the bytes read from them so far. */
function countingClient() {
  const s3 = new S3Client({ forcePathStyle: true });
  const log: { command: string; key: string; part?: number; bytesRead: number }[] = [];
  let bytesRead = 0;
  const counted = (body: Readable) => {
    const out = new PassThrough();
    body.on('data', (piece: Buffer) => (bytesRead += piece.length));
    return body.pipe(out);
  };
  s3.middlewareStack.add(
    ((next: (a: { input: never }) => Promise<{ output: { Body?: Readable } }>, context: { commandName: string }) =>
      async (args: { input: never }) => {
        const input = args.input as { Key: string; PartNumber?: number };
        log.push({ command: context.commandName, key: input.Key, part: input.PartNumber, bytesRead });
        const result = await next(args);
        if (context.commandName === 'GetObjectCommand') result.output.Body = counted(result.output.Body!);
        return result;
      }) as never,
    { step: 'initialize', name: 'count-reads' } as never,
  );
  return { s3, log };
}

/** 30,000 rejected rows of ~440 bytes (12.5 MiB), lines counted from the lane's first record. */
function bigRelativeFile(): { body: Buffer; rows: RejectedRow[] } {
  const rows: RejectedRow[] = Array.from({ length: 30_000 }, (_, i) => {
    const raw = Buffer.from(`id-${i},x${i},"${'pad "" '.repeat(40)}"`);
    return { line: 2 * i + 1, offset: 1000 + 400 * i, reason: 'column "n": not a number', raw, length: raw.length };
  });
  return { body: formatRejects(rows, 'in/big.csv'), rows };
}

function summarizeEvent(bucket: string): SummarizeEvent {
  const event: SummarizeEvent = {
    request: resolveImportRequest({ bucket, table: 'table', key: 'in/big.csv' }),
    executionName: 'exec-big',
    object: { size: 20_000_000, etag: ETAG },
    // Chunk 1 found its own first record; chunk 0 holds 500 LFs, so chunk 1's first record is on line 2 + 500.
    chunks: [
      { object: 0, start: 10, end: 1000, line: 2 },
      { object: 0, start: 1000, end: 20_000_000 },
    ],
    chunkResults: [
      {
        chunk: 0,
        rows: 500,
        written: 500,
        rejected: 0,
        skipped: 0,
        deleted: 0,
        writeUnits: 0,
        added: 0,
        changed: 0,
        unchanged: 0,
        lines: 500,
      },
      {
        chunk: 1,
        rows: 60_000,
        written: 30_000,
        rejected: 30_000,
        skipped: 0,
        deleted: 0,
        writeUnits: 0,
        added: 0,
        changed: 0,
        unchanged: 0,
      },
    ].map(chunkResultArray),
    sources: {
      folder: 'in/',
      objects: [{ key: 'big.csv', size: 20_000_000, etag: ETAG }],
      staging: null,
      exportManifest: null,
    },
    dataLine: 2,
  };
  return event;
}

describe('makeRejectsAbsolute', () => {
  it('streams a big relative file into 5 MiB parts: the first part goes out before the GET is read through', async () => {
    const bucket = await createBucket();
    const { body, rows } = bigRelativeFile();
    const relative = relativeRejectsKey(FOLDER, 1, '1000');
    const { s3, log } = countingClient();
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key: relative, Body: body }));

    await makeRejectsAbsolute(s3, summarizeEvent(bucket), FOLDER, { kmsKeyArn: null, partBytes: MIN_PART_BYTES });

    expect(await listKeys(bucket, FOLDER)).toEqual([`${FOLDER}/1000.csv`]); // the relative file is gone
    const got = await plainS3.send(new GetObjectCommand({ Bucket: bucket, Key: `${FOLDER}/1000.csv` }));
    const rewritten = Buffer.from(await got.Body!.transformToByteArray());
    // Line by line: the same rows, each line moved by the 501 lines before chunk 1's first record.
    expect(
      rewritten.equals(
        formatRejects(
          rows.map((r) => ({ ...r, line: r.line + 501 })),
          'in/big.csv',
        ),
      ),
    ).toBe(true);
    const parts = log.filter((l) => l.command === 'UploadPartCommand');
    expect(Math.ceil(rewritten.length / MIN_PART_BYTES)).toBe(3);
    expect(parts.map((p) => p.part)).toEqual([1, 2, 3]); // ceil(12.5 MiB / 5 MiB)
    expect(log.filter((l) => l.command === 'PutObjectCommand').map((l) => l.key)).toEqual([relative]); // the setup's
    // Bounded memory, shown without a clock: when part 1 was sent, most of the file was still unread.
    expect(parts[0].bytesRead).toBeLessThan(MIN_PART_BYTES + 1024 * 1024);
    expect(log.at(-1)).toMatchObject({ command: 'DeleteObjectCommand', key: relative });
  }, 120_000);
});
