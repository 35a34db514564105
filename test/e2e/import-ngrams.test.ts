import { describe, expect, it } from 'vitest';
import { outOfTimeAfter } from '../../cli/local-run/runner.js';
import { generateNgrams } from '../fixtures/ngrams.js';
import { expectChunksResumed, lineLayout } from './chunk-invocations.js';
import { createBucket, createTable, putText, runImport, scanAll } from './harness.js';

/**
 * The 1-gram TSV of issue 2 through the real workflow file: 200,000 rows, chunks of 0.5 MiB (the file
 * is ~6.5 MB, so 13 chunks). Both tasks run on scripted clocks (cli/local-run/lambda-clock.ts), so they loop
 * through checkpoints on every run, however fast the machine: Preflight is out of time from its first check on,
 * so it returns a checkpoint after each buffer that completes a chunk; each ImportChunk invocation stops at the
 * check after its 400th clock read (two set its margin and timer, then one every 25 records): ~10,000 rows,
 * so each ~16,000-row chunk takes two invocations.
 */
describe('importing a 200,000-row Google Books 1-gram TSV', () => {
  const ROWS = 200_000;

  // Its time limit is a hang guard, not a speed claim: ~50 s on an idle 2-core machine, 205 s beside two CPU burners.
  it('lands every row, item by item, with byte-range chunks from one preflight call and checkpoint loops in import', async () => {
    const { text, rows } = generateNgrams(ROWS);
    const bucket = await createBucket();
    await putText(bucket, 'imports/ngrams/1gram.tsv', text);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const run = await runImport(
      { bucket, key: 'imports/ngrams/1gram.tsv', table, types: { match_count: 'N', volume_count: 'N' }, chunkMiB: 0.5 },
      { clocks: { Preflight: outOfTimeAfter(1), ImportChunk: outOfTimeAfter(400) }, maxConcurrency: 4 },
    );

    expect(run.summary).toMatchObject({
      status: 'SUCCEEDED',
      rows: ROWS,
      written: ROWS,
      rejected: 0,
      rejectsKey: null,
    });
    expect(run.summary.chunks).toBeGreaterThanOrEqual(8);
    // Out of time from its first check, preflight still ends in one call: it cuts ranges from the size, reads no data.
    expect(run.preflightCalls).toHaveLength(1);
    // The chunks tile the data exactly: from just past the header to the end of the object.
    const size = Buffer.byteLength(text);
    expect(run.chunks[0].start).toBe(text.indexOf('\n') + 1);
    expect(run.chunks.at(-1)!.end).toBe(size);
    run.chunks.slice(1).forEach((chunk, i) => expect(chunk.start).toBe(run.chunks[i].end));
    // Each invocation resumed at the record where the one before stopped, and every full chunk took several
    // (the last holds the ~64 KB left over: ~2,000 rows, one invocation).
    const invocations = expectChunksResumed(run.events, run.chunks, lineLayout(text, { header: true }));
    expect(Math.min(...invocations.slice(0, -1))).toBeGreaterThanOrEqual(2);

    const items = await scanAll(table);
    expect(items).toHaveLength(ROWS);
    const byKey = new Map(items.map((item) => [`${item.ngram.S}|${item.year.N}`, item]));
    for (const row of rows) {
      expect(byKey.get(`${row.ngram}|${row.year}`)).toEqual({
        ngram: { S: row.ngram },
        year: { N: String(row.year) },
        match_count: { N: String(row.match_count) },
        volume_count: { N: String(row.volume_count) },
      });
    }
  }, 600_000);
});
