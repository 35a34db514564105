import { describe, expect, it } from 'vitest';
import { generateNgrams } from '../fixtures/ngrams.js';
import { createBucket, createTable, putText, runImport, scanAll } from './harness.js';

/**
 * maxWriteRate and spread change when and in what order items are written, never what lands: the
 * table must equal the file. (How well the cap holds is measured by `npm run bench`, not asserted.)
 */
describe('a capped, spread import of a file sorted by partition key', () => {
  it('lands every row, and the last row of a repeated key wins', async () => {
    const { text, rows } = generateNgrams(20_000); // sorted by ngram: 200 years of one ngram in a row
    // The last key again at the end of the file, 1 row after its first: with spread on, last wins must hold.
    const repeat = rows[rows.length - 1];
    const lastText = `${text}${repeat.ngram}\t${repeat.year}\t42\t1\n`;
    const bucket = await createBucket();
    await putText(bucket, 'sorted.tsv', lastText);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const { summary } = await runImport(
      {
        bucket,
        key: 'sorted.tsv',
        table,
        types: { match_count: 'N', volume_count: 'N' },
        maxWriteRate: 5000,
        spread: true,
      },
      { maxConcurrency: 2 },
    );

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 20_001, rejected: 0, chunks: 1 });
    const items = await scanAll(table);
    expect(items).toHaveLength(20_000);
    const byKey = new Map(items.map((i) => [`${i.ngram.S}|${i.year.N}`, i]));
    for (const row of rows.slice(0, -1)) {
      expect(byKey.get(`${row.ngram}|${row.year}`)?.match_count).toEqual({ N: String(row.match_count) });
    }
    expect(byKey.get(`${repeat.ngram}|${repeat.year}`)?.match_count).toEqual({ N: '42' });
  });
});
