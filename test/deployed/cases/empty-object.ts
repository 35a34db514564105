import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureNgramTable, scanSorted } from '../aws.js';
import { jsonOut, startFollowed, workDir } from '../cli.js';

/**
 * Runs first: the ledger is as a fresh deployment leaves it, with no pool item (nothing was admitted yet). An
 * empty object has no chunks, so it is never admitted; docs/guides/rerun-after-a-failure.md promises it succeeds with 0 rows. On a fresh stack
 * Summarize's release used to create the pool item with PutItem, which its role does not hold (issue 26, break 1):
 * the execution failed with AccessDenied after the report was written. The engine enforces the Lambda roles, so
 * this case shows it as AWS would.
 */
describe('an empty object on a freshly deployed stack', () => {
  it('succeeds with 0 rows: start --follow exits 0 and the table stays empty', async () => {
    const table = 'empty';
    await ensureNgramTable(table);
    const dir = workDir();
    writeFileSync(join(dir, 'empty.tsv'), '');

    const run = await startFollowed(join(dir, 'empty.tsv'), table);

    expect(run.stderr).not.toContain('AccessDenied');
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOut(run)).toMatchObject({ status: 'SUCCEEDED', rows: 0, written: 0, rejected: 0, chunks: 0, table });
    expect(await scanSorted(table)).toEqual([]);
  });
});
