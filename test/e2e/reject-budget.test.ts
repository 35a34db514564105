import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLocalCommand } from '../../cli/commands/local.js';
import { runLocalCommand } from '../../cli/local-run/local-command.js';
import { capture } from '../support/cloud-clients.js';
import { resolveImportRequest } from '../../lambdas/request/resolve-request.js';
import { createBucket, createTable, getText, listKeys, putText, runImport, scanAll } from './harness.js';

/** `name,score` rows: row i (from 1) has score `i`, or the text `bad<i>` where `bad(i)` says so. */
function rows(count: number, bad: (i: number) => boolean): string {
  const lines = ['id,score'];
  for (let i = 1; i <= count; i++) lines.push(`${i},${bad(i) ? `bad${i}` : i}`);
  return `${lines.join('\n')}\n`;
}

/** An import going nowhere stops, by name, having written what it wrote and kept its rejects. */
describe('the reject budget', () => {
  it('fails when the first 1,000 rows are all rejected (no maxRejects): nothing written, rejects kept', async () => {
    const bucket = await createBucket();
    // 5,000 rows, every one with text where --types says N: the whole object would be read for nothing.
    await putText(
      bucket,
      'in/all-bad.csv',
      rows(5_000, () => true),
    );
    const table = await createTable(['id', 'S']);
    const outcome = await runImport(
      { bucket, key: 'in/all-bad.csv', table, types: { score: 'N' } },
      { executionName: 'budget-1' },
    ).catch((error: Error) => error);
    expect(outcome).toMatchObject({ name: 'TooManyRejectsError' });
    expect((outcome as Error).message).toBe(
      `s3://${bucket}/in/all-bad.csv: its first 1000 rows were all rejected (without maxRejects an import stops ` +
        'there); first reasons: column "score": not a number: "bad1" | column "score": not a number: "bad2" | ' +
        'column "score": not a number: "bad3". Rows written before it stay written; rejects in ' +
        `s3://${bucket}/s3-ddb-import/rejects/budget-1/relative/0-9.csv`,
    );
    expect(await scanAll(table)).toEqual([]);
    const [rejectsFile] = await listKeys(bucket, 's3-ddb-import/rejects/budget-1/');
    const rejected = (await getText(bucket, rejectsFile)).trim().split('\n').slice(1);
    // It stopped at its next checkpoint past the 1,000th row, long before the 5,000th.
    expect(rejected.length).toBeGreaterThanOrEqual(1_000);
    expect(rejected.length).toBeLessThan(5_000);
    // Lines count from the lane's first record (relative/): Summarize, which makes them absolute, does not run for a
    // failed import. The byte offset is the file's: 9, past the header.
    expect(rejected[0]).toMatch(/^1,9,"column ""score"": not a number: ""bad1""","1,bad1"/);
  });

  it('fails past maxRejects, the rows before written item by item, and stays quiet within it', async () => {
    const bucket = await createBucket();
    // 300 rows, every 20th bad: 15 rejects.
    await putText(
      bucket,
      'in/some-bad.csv',
      rows(300, (i) => i % 20 === 0),
    );
    const within = await createTable(['id', 'S']);
    const { summary } = await runImport(
      { bucket, key: 'in/some-bad.csv', table: within, types: { score: 'N' }, maxRejects: 15 },
      { executionName: 'budget-2' },
    );
    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', rows: 300, written: 285, rejected: 15 });

    const past = await createTable(['id', 'S']);
    const outcome = await runImport(
      { bucket, key: 'in/some-bad.csv', table: past, types: { score: 'N' }, maxRejects: 14 },
      { executionName: 'budget-3' },
    ).catch((error: Error) => error);
    expect(outcome).toMatchObject({ name: 'TooManyRejectsError' });
    expect((outcome as Error).message).toContain('15 rows rejected, more than maxRejects 14');
    // Whatever landed is exactly the file's good rows (each with its own score), none of the bad.
    const items = await scanAll(past);
    for (const item of items) expect(item.score).toEqual({ N: item.id.S });
    expect(items.length).toBeLessThanOrEqual(285);
  });

  it.each([-1, 1.5, '10'])('fails when maxRejects is %j: a whole number, 0 or more', (maxRejects) => {
    expect(() => resolveImportRequest({ bucket: 'b', key: 'x.csv', table: 't', maxRejects })).toThrow(
      `maxRejects: must be a whole number, 0 or more, got ${JSON.stringify(maxRejects)}`,
    );
  });

  it('resolves maxRejects 0 as given, and no maxRejects as absent (the default rule)', () => {
    expect(resolveImportRequest({ bucket: 'b', key: 'x.csv', table: 't', maxRejects: 0 }).maxRejects).toBe(0);
    expect(resolveImportRequest({ bucket: 'b', key: 'x.csv', table: 't' })).not.toHaveProperty('maxRejects');
  });
});

describe('local shows the reasons on the terminal', () => {
  it('prints the first rejected rows of distinct kinds under the rejects line, and --max-rejects fails by name', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'reasons-'));
    const file = join(dir, 'scores.csv');
    // Three kinds of mistakes, the first twice: the second "not a number" is not shown again.
    await writeFile(file, 'id,score\n1,10\n2,x\n3,y\n4,5,5\n5,\n');
    const table = await createTable(['id', 'S']);
    const shown = capture();
    const cwd = process.cwd();
    process.chdir(dir); // the rejects are copied under the working directory
    try {
      const code = await runLocalCommand(
        parseLocalCommand([file, '--table', table, '--types', 'score=N']),
        shown.output,
      );
      expect(code).toBe(2);
      const at = shown.err.findIndex((line) => line.startsWith('3 rejected rows: '));
      expect(shown.err.slice(at + 1, at + 3)).toEqual([
        expect.stringMatching(/^ {2}imports\/[^ ]*scores\.csv line 3: column "score": not a number: "x"$/),
        expect.stringMatching(/^ {2}imports\/[^ ]*scores\.csv line 5: expected 2 fields, got 3$/),
      ]);
      const failed = capture();
      const args = [file, '--table', table, '--types', 'score=N', '--max-rejects', '1', '--json'];
      expect(await runLocalCommand(parseLocalCommand(args), failed.output)).toBe(1);
      expect(JSON.parse(failed.out.at(-1)!)).toMatchObject({ status: 'FAILED', error: 'TooManyRejectsError' });
    } finally {
      process.chdir(cwd);
    }
  });
});
