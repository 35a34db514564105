import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { outOfTimeAfter } from '../../../cli/local-run/runner.js';
import { runWithEvents, expectTableMatches } from '../faults/fixture.js';
import { createBucket, createTable, listKeys, putText } from '../harness.js';
import { NGRAM_TYPES, letterFile } from './letters.js';

describe('one big compressed object, staged through the bucket', () => {
  // Its time limit is a hang guard, not a speed claim: 15-25 s on an idle 2-core machine, 68 s beside two CPU burners.
  it('is decompressed once into record-aligned plain pieces, imported in parallel, item by item, and the pieces deleted', async () => {
    const bucket = await createBucket();
    const file = letterFile('s', 60_000); // ~1.6 MB of TSV, ~0.4 MB of gzip
    const gz = gzipSync(file.text);
    await putText(bucket, 'big/1gram-s.tsv.gz', gz);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    const chunkMiB = 0.125; // 128 KiB: the .gz is expected to hold 4 x its size, far over one chunk, so it is staged

    // Preflight is out of time from its first check on (cli/local-run/lambda-clock.ts), so each invocation stages
    // one piece, on any machine: staging runs over many checkpoint loops, each decompressing again from the start
    // and skipping to where the last one stopped.
    const { summary, events } = await runWithEvents(
      { bucket, key: 'big/1gram-s.tsv.gz', table, types: NGRAM_TYPES, chunkMiB },
      { maxConcurrency: 4, clocks: { Preflight: outOfTimeAfter(1) }, executionName: 'staged-1' },
    );

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 60_000, written: 60_000, rejected: 0 });
    await expectTableMatches(table, file.rows);
    const preflights = events.filter((e) => e.type === 'preflight');
    const chunks = preflights.at(-1)!.chunkList;
    // The pieces tile the decompressed data from past the header to its end, each at least a chunk long.
    const size = Buffer.byteLength(file.text);
    expect(chunks.length).toBeGreaterThan(8);
    expect(chunks[0].start).toBe(file.text.indexOf('\n') + 1);
    expect(chunks.at(-1)!.end).toBe(size);
    chunks.slice(1).forEach((c, i) => expect(c.start).toBe(chunks[i].end));
    chunks.slice(0, -1).forEach((c) => expect(c.end - c.start).toBeGreaterThanOrEqual(chunkMiB * 1024 * 1024));
    expect(preflights.filter((e) => !e.scanComplete && !e.queue.waiting).length).toBeGreaterThanOrEqual(
      chunks.length - 1,
    );
    // Every staged piece was deleted by the import of its chunk.
    expect(await listKeys(bucket, 's3-ddb-import/staging/')).toEqual([]);
  }, 300_000);
});
