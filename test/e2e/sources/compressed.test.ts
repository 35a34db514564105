import * as zlib from 'node:zlib';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { outOfTimeAfter } from '../../../cli/local-run/runner.js';
import { expectChunksResumed, lineLayout } from '../chunk-invocations.js';
import { runWithEvents, expectTableMatches } from '../faults/fixture.js';
import { removeFaults } from '../faults/inject.js';
import { createBucket, createTable, getText, listKeys, putText, scanAll } from '../harness.js';
import { NGRAM_TYPES, letterFile } from './letters.js';

afterEach(removeFaults);

const hasZstd = typeof (zlib as unknown as Record<string, unknown>).createZstdDecompress === 'function';

/** gzip members compressed one by one and concatenated, as pigz and bgzip write them. */
function multiMemberGzip(text: string, members: number): Buffer {
  const data = Buffer.from(text);
  const size = Math.ceil(data.length / members);
  return Buffer.concat(Array.from({ length: members }, (_, i) => gzipSync(data.subarray(i * size, (i + 1) * size))));
}

describe('compressed objects imported whole, one lane each', () => {
  it('imports a multi-member .tsv.gz item by item, resuming by decompressing again and skipping', async () => {
    const bucket = await createBucket();
    const file = letterFile('g', 20_000);
    const gz = multiMemberGzip(file.text, 5);
    await putText(bucket, 'gz/1gram-g.tsv.gz', gz);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    // Each ImportChunk invocation stops at the deadline check after its 200th clock read (two reads set its margin
    // and timer, then one every 25 records): ~5,000 of the 20,000 rows, so the one lane takes about 4 invocations
    // on any machine, each decompressing again from the start and skipping to its checkpoint.
    const { summary, events } = await runWithEvents(
      { bucket, key: 'gz/1gram-g.tsv.gz', table, types: NGRAM_TYPES },
      { clocks: { ImportChunk: outOfTimeAfter(200) } },
    );

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 20_000, written: 20_000, rejected: 0, chunks: 1 });
    await expectTableMatches(table, file.rows);
    // One whole chunk: from past the header (decompressed offsets) over the compressed size.
    const [chunk] = events.filter((e) => e.type === 'preflight').at(-1)!.chunkList;
    const header = file.text.indexOf('\n') + 1;
    expect(chunk).toEqual({ object: 0, start: header, end: header + gz.length, line: 2 });
    // Imported over several invocations, each resuming at the record (decompressed offset and line) where the
    // one before stopped, with the rows before it counted once.
    const [invocations] = expectChunksResumed(events, [chunk], lineLayout(file.text, { header: true }));
    expect(invocations).toBeGreaterThanOrEqual(2);
  });

  it('fails on a truncated .gz with CorruptSourceError naming the object and where; the rows before it landed', async () => {
    const bucket = await createBucket();
    const file = letterFile('t', 5_000);
    const gz = gzipSync(file.text);
    await putText(bucket, 'gz/1gram-t.tsv.gz', gz.subarray(0, Math.floor(gz.length * 0.6)));
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const failure = await runWithEvents(
      { bucket, key: 'gz/1gram-t.tsv.gz', table, types: NGRAM_TYPES },
      { executionName: 'cut-1' },
    ).then(
      () => null,
      (e: Error) => e,
    );

    expect(failure?.name).toBe('CorruptSourceError');
    const match =
      /^s3:\/\/[^ ]+\/gz\/1gram-t\.tsv\.gz is truncated or corrupt \(gzip: unexpected end of file\) at about decompressed byte (\d+), line (\d+); the (\d+) rows before it were read and (\d+) of them written \(0 rejected\); rejects in s3:\/\/[^ ]+\/s3-ddb-import\/rejects\/cut-1\/\d+\.csv$/.exec(
        failure!.message,
      );
    expect(match, failure!.message).not.toBeNull();
    const [offset, line, read, written] = match!.slice(1).map(Number);
    // Exactly the whole lines before the cut landed, and nothing after it.
    const bytes = Buffer.from(file.text);
    const landed = bytes.subarray(0, offset).toString().split('\n').length - 2; // less the header and the empty tail
    expect(bytes[offset - 1]).toBe(0x0a);
    expect([read, written, line]).toEqual([landed, landed, landed + 2]);
    expect(landed).toBeGreaterThan(1000);
    await expectTableMatches(table, file.rows.slice(0, landed));
    // The rejects file says so too, with the object and the decompressed offset.
    const [rejects] = await listKeys(bucket, 's3-ddb-import/rejects/cut-1/');
    const lines = (await getText(bucket, rejects)).split('\n');
    expect(lines[1]).toBe(
      `${line},${offset},"gzip data truncated or corrupt here (unexpected end of file): the rest of the object ` +
        'was not read","","gz/1gram-t.tsv.gz"',
    );
  });

  it.runIf(!hasZstd)(
    'fails on a .zst object when this Node has no zstd, naming the version needed, before any write',
    async () => {
      const bucket = await createBucket();
      await putText(bucket, 'z/data.csv.zst', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0, 0, 0]));
      const table = await createTable(['ngram', 'S'], ['year', 'N']);

      const failure = await runWithEvents({ bucket, key: 'z/data.csv.zst', table }).then(
        () => null,
        (e: Error) => e,
      );

      expect(failure).toMatchObject({
        name: 'UnsupportedCompressionError',
        message: expect.stringMatching(
          /z\/data\.csv\.zst is zstd-compressed: decompressing it needs Node\.js 22\.15\.0 or later \(zlib\.createZstdDecompress\), and this runtime is Node\.js 20\./,
        ),
      });
      expect(await scanAll(table)).toEqual([]);
    },
  );

  it.runIf(hasZstd)('imports a .tsv.zst item by item', async () => {
    const bucket = await createBucket();
    const file = letterFile('z', 3_000);
    const compress = (zlib as unknown as Record<string, (b: Buffer) => Buffer>).zstdCompressSync;
    await putText(bucket, 'z/1gram-z.tsv.zst', compress(Buffer.from(file.text)));
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const { summary } = await runWithEvents({ bucket, key: 'z/1gram-z.tsv.zst', table, types: NGRAM_TYPES });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 3_000, written: 3_000 });
    await expectTableMatches(table, file.rows);
  });
});
