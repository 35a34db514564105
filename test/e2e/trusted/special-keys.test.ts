import { describe, expect, it } from 'vitest';
import { expectTableMatches } from '../faults/fixture.js';
import { createBucket, createTable, putText, runImport } from '../harness.js';
import { letterFile, NGRAM_TYPES } from '../sources/letters.js';

/**
 * Keys S3 encodes in its SNS/SQS/Lambda notifications (a space as `+`, `%XX` escapes:
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/notification-content-structure.html). A request names the key
 * as stored, never encoded: the SDK encodes it on the wire, once.
 */
const KEYS = ['in/a b.tsv', 'in/a+b.tsv', 'in/100%.tsv', 'in/année été/ü.tsv', 'in/a%20b+c é.tsv'];

describe('keys with a space, +, % and non-ASCII (issue 38, risk 6)', () => {
  it.each(KEYS)('imports %j item by item, named as stored', async (key) => {
    const bucket = await createBucket();
    const file = letterFile('k', 300);
    await putText(bucket, key, file.text);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const { summary } = await runImport({ bucket, key, table, types: NGRAM_TYPES });

    expect(summary).toMatchObject({ key, written: 300, rejected: 0 });
    await expectTableMatches(table, file.rows);
  });

  it('imports every such key under a prefix that holds them too', async () => {
    const bucket = await createBucket();
    const files = KEYS.map((key, i) => ({ key: `drop zone+%/${key}`, file: letterFile('abcde'[i], 100) }));
    for (const { key, file } of files) await putText(bucket, key, file.text);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const { summary } = await runImport({ bucket, prefix: 'drop zone+%/', table, types: NGRAM_TYPES });

    expect(summary).toMatchObject({ objects: KEYS.length, written: 500, rejected: 0 });
    await expectTableMatches(
      table,
      files.flatMap(({ file }) => file.rows),
    );
  });
});
