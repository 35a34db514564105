import { describe, expect, it } from 'vitest';
import { generateNgrams } from '../fixtures/ngrams.js';
import { createBucket, createTable, putText, runImport, scanAll } from './harness.js';

/**
 * The 1-gram TSV of issue 2 through the real workflow file: 200,000 rows, chunks of 0.5 MiB (the file
 * is ~6.5 MB, so 13 chunks). Preflight gets a 100 ms timeout: its 100 ms safety margin means it is
 * past its deadline at once and returns a checkpoint after each buffer that completes a chunk. Import
 * gets 5 s: it stops ~3.75 s in (1.25 s margin), while a 0.5 MiB chunk (~16,000 rows) takes well over
 * that to write at DynamoDB Local's rate with 4 chunks at once: checkpoint loops in both, every run.
 */
describe('importing a 200,000-row Google Books 1-gram TSV', () => {
  const ROWS = 200_000;

  it('lands every row, item by item, across checkpoint loops in preflight and import', async () => {
    const { text, rows } = generateNgrams(ROWS);
    const bucket = await createBucket();
    await putText(bucket, 'imports/ngrams/1gram.tsv', text);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const run = await runImport(
      { bucket, key: 'imports/ngrams/1gram.tsv', table, types: { match_count: 'N', volume_count: 'N' }, chunkMiB: 0.5 },
      { taskTimeoutsMs: { Preflight: 100, ImportChunk: 5000 }, maxConcurrency: 4 },
    );

    expect(run.summary).toMatchObject({
      status: 'SUCCEEDED',
      rows: ROWS,
      written: ROWS,
      rejected: 0,
      rejectsKey: null,
    });
    expect(run.summary.chunks).toBeGreaterThanOrEqual(8);
    expect(run.preflightCalls.length).toBeGreaterThan(1);
    expect(run.importCalls.some((call) => !call.done)).toBe(true);
    // The chunks tile the data exactly: from just past the header to the end of the object.
    const size = Buffer.byteLength(text);
    expect(run.chunks[0].start).toBe(text.indexOf('\n') + 1);
    expect(run.chunks.at(-1)!.end).toBe(size);
    run.chunks.slice(1).forEach((chunk, i) => expect(chunk.start).toBe(run.chunks[i].end));

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
  }, 300_000);
});
