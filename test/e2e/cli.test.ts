import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scanAll, uniqueName } from './harness.js';
import { NGRAM_TABLE_ARGS, runCli, lastJsonLine } from './cli-process.js';

const SAMPLE = fileURLToPath(new URL('../../sample/googlebooks-1gram-sample.tsv', import.meta.url));

const cli = (args: string[], cwd: string) => runCli(args, { cwd });

describe('s3-ddb-import local', () => {
  it('imports the bundled sample, prints the --json summary last and exits 0', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    const table = uniqueName('cli');
    const run = await cli(['local', SAMPLE, '--table', table, ...NGRAM_TABLE_ARGS], cwd);

    expect(run.code).toBe(0);
    const summary = lastJsonLine(run.stdout);
    expect(summary).toMatchObject({
      status: 'SUCCEEDED',
      rows: 1200,
      written: 1200,
      rejected: 0,
      chunks: 1,
      rejectsKey: null,
    });
    expect(summary.durationMs).toBeGreaterThan(0);
    // The servers' start is timed apart from the import (external servers here: ready at once).
    expect(summary.servicesReadyMs).toBeGreaterThanOrEqual(0);
    // The execution is named on stderr first, with the commands that change it while it runs.
    expect(run.stderr).toMatch(
      /^execution ([0-9a-f-]{36}) \(change it while it runs: s3-ddb-import rate\|pause\|resume \1 --local\)$/m,
    );
    const items = await scanAll(table);
    expect(items).toHaveLength(1200);
    expect(items.find((i) => i.ngram.S === 'café' && i.year.N === '1990')?.match_count.N).toMatch(/^\d+$/);
  });

  it('exits 2 when rows are rejected and copies the rejects file into ./s3-ddb-import-rejects', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    await writeFile(join(cwd, 'some-bad.csv'), 'id,score\na,1\nb,lots\nc,3\n');
    const run = await cli(
      [
        'local',
        'some-bad.csv',
        '--table',
        uniqueName('cli'),
        '--pk',
        'id',
        '--create-table',
        '--types',
        'score=N',
        '--json',
      ],
      cwd,
    );

    expect(run.code).toBe(2);
    const summary = lastJsonLine(run.stdout);
    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', rows: 3, written: 2, rejected: 1 });
    // One rejects file per chunk invocation, named by its start offset: the data starts past "id,score\n".
    expect((await readdir(summary.rejectsDir)).sort()).toEqual(['9.csv', 'report.json']);
    expect(await readFile(join(summary.rejectsDir, '9.csv'), 'utf8')).toBe(
      'line,byte_offset,reason,record,object\n3,13,"column ""score"": not a number: ""lots""","b,lots","imports/some-bad.csv"\n',
    );
  });

  it('exits 1 with the error name when the request is invalid, before any write', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    await writeFile(join(cwd, 'x.csv'), 'a,b\n1,2\n');
    const run = await cli(
      ['local', 'x.csv', '--table', uniqueName('cli'), '--pk', 'id', '--create-table', '--json'],
      cwd,
    );

    expect(run.code).toBe(1);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'InvalidRequestError' });
    expect(run.stderr).toContain('key attribute "id" (HASH, S) is not among the columns [a, b]');
  });

  it('exits 1 with one line and a pointer at the help when a flag is wrong', async () => {
    const run = await cli(['local', SAMPLE, '--table', 't', '--types', 'year=INT'], tmpdir());
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'error: --types: expected col=S|N|BOOL|JSON|TTL, got "year=INT"\nsee: s3-ddb-import local --help\n',
    );
  });

  it('fails when the file does not exist: names the path and what to give, before any server starts', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    // No servers to reach: a run that tried to start or use them would fail otherwise, or take longer.
    const env = { AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:9', AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9' };
    const run = await runCli(['local', 'nofile.csv', '--table', 't', '--json'], { cwd, env });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'import failed: LocalSourceNotFoundError: no file or folder at nofile.csv: give the path',
    );
    expect(run.stderr).not.toContain('ENOENT');
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'LocalSourceNotFoundError' });
  });
});
