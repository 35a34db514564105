import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureNgramTable, scanSorted, sortItems, stackOutputs } from '../aws.js';
import { jsonOut, startFollowed, workDir } from '../cli.js';
import { ngramFileWithBadRows } from '../ngram-file.js';
import { rejectedRows } from '../rejected-rows.js';

/** Enough rows for a few chunks of the smallest size, each looping at the tier's short import timeout. */
const ROWS = 3_000;

describe('start --follow of a file with bad rows, through the deployed stack', () => {
  it('writes every good row as its item, rejects the bad ones to S3 with their lines, and exits 2', async () => {
    const table = 'bad-rows';
    await ensureNgramTable(table);
    const file = ngramFileWithBadRows(ROWS);
    const dir = workDir();
    writeFileSync(join(dir, 'bad-rows.tsv'), file.text);

    const run = await startFollowed(join(dir, 'bad-rows.tsv'), table, '--chunk-mib', '1');

    expect(run.code, run.stderr).toBe(2);
    const summary = jsonOut(run);
    expect(summary).toMatchObject({
      status: 'SUCCEEDED_WITH_REJECTS',
      written: ROWS,
      rejected: file.rejects.length,
      table,
    });
    expect(await scanSorted(table)).toEqual(sortItems(file.items));
    const { BucketName } = await stackOutputs();
    const rejects = await rejectedRows(BucketName, summary.rejectsKey);
    expect(rejects.map(({ line, record }) => ({ line: Number(line), record: record.replace(/\n$/, '') }))).toEqual(
      file.rejects,
    );
  });
});
