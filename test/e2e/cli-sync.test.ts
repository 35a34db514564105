import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseDiffLines } from '../../lambdas/sync-compare/diff-lines.js';
import { scanAll, uniqueName } from './harness.js';
import { NGRAM_TABLE_ARGS, runCli, lastJsonLine } from './cli-process.js';

const SAMPLE = fileURLToPath(new URL('../../sample/googlebooks-1gram-sample.tsv', import.meta.url));

const cli = (args: string[], cwd: string) => runCli(args, { cwd });

describe('s3-ddb-import local --mode sync', () => {
  it('syncs the sample: all added, then all unchanged; a dry run of an edited file copies its diff home', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-sync-'));
    const table = uniqueName('cli-sync');
    const sync = (file: string, ...more: string[]) =>
      cli(['local', file, '--table', table, ...NGRAM_TABLE_ARGS, '--mode', 'sync', '--json', ...more], cwd);

    const first = await sync(SAMPLE);
    expect(first.code).toBe(0);
    expect(lastJsonLine(first.stdout)).toMatchObject({
      mode: 'sync',
      rows: 1200,
      added: 1200,
      changed: 0,
      unchanged: 0,
    });
    const again = await sync(SAMPLE, '--consistent-read');
    expect(again.code).toBe(0);
    expect(lastJsonLine(again.stdout)).toMatchObject({ rows: 1200, added: 0, changed: 0, unchanged: 1200, written: 0 });

    // The sample with its first data row's match_count raised by one: one change, seen by a dry run only.
    const [header, firstRow, ...rest] = (await readFile(SAMPLE, 'utf8')).split('\n');
    const fields = firstRow.split('\t');
    fields[2] = String(Number(fields[2]) + 1);
    await writeFile(join(cwd, 'edited.tsv'), [header, fields.join('\t'), ...rest].join('\n'));
    const before = await scanAll(table);
    const dry = await sync('edited.tsv', '--dry-run');
    expect(dry.code).toBe(0);
    const summary = lastJsonLine(dry.stdout);
    expect(summary).toMatchObject({ dryRun: true, added: 0, changed: 1, unchanged: 1199 });
    expect(await scanAll(table)).toEqual(expect.arrayContaining(before));

    const dir = summary.diffDir as string;
    expect(dir).toContain(join(cwd, 's3-ddb-import-diff'));
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    const lines = parseDiffLines(await readFile(join(dir, files[0]), 'utf8'));
    expect(lines).toEqual([
      { op: 'change', key: { ngram: { S: fields[0] }, year: { N: fields[1] } }, attributes: ['match_count'] },
    ]);
  });
});
