import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateNgrams } from '../fixtures/ngrams.js';
import { expectTableMatches } from './faults/fixture.js';
import { createBucket, putText, scanAll, uniqueName } from './harness.js';
import { CLI, runCli, lastJsonLine } from './cli-process.js';

const cli = (args: string[], cwd: string) => runCli(args, { cwd });

describe('s3-ddb-import local --request', () => {
  it('runs the StartExecution payload as written, with the bucket and key of the uploaded file', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-request-'));
    const table = uniqueName('cli-request');
    const { text, rows } = generateNgrams(600);
    await writeFile(join(cwd, '1gram.tsv'), text);
    // The payload a user would send to the deployed state machine: its bucket and key name the cloud object.
    await writeFile(
      join(cwd, 'req.json'),
      JSON.stringify({
        bucket: 'prod-bucket',
        key: 'imports/ngrams/1gram.tsv',
        table,
        format: { delimiter: '\t' },
        types: { year: 'N', match_count: 'N', volume_count: 'N' },
        chunkMiB: 0.005,
      }),
    );
    const run = await cli(
      ['local', '1gram.tsv', '--request', 'req.json', '--create-table', '--pk', 'ngram', '--sk', 'year:N', '--json'],
      cwd,
    );

    expect(run.code).toBe(0);
    // chunkMiB 0.005 (~5 KiB) of a ~20 KB file: the payload's own fields are used, not the CLI's defaults.
    expect(lastJsonLine(run.stdout)).toMatchObject({
      status: 'SUCCEEDED',
      rows: 600,
      written: 600,
      rejected: 0,
      table,
    });
    expect(lastJsonLine(run.stdout).chunks).toBeGreaterThan(1);
    await expectTableMatches(table, rows);
  });

  it('fails before starting anything when the payload is invalid, naming each field', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-request-'));
    await writeFile(join(cwd, 'x.csv'), 'id\na\n');
    await writeFile(join(cwd, 'req.json'), JSON.stringify({ table: 't', types: { n: 'INT' }, chunkMiB: -1, nope: 1 }));
    const run = await cli(['local', 'x.csv', '--request', 'req.json', '--json'], cwd);

    expect(run.code).toBe(1);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'InvalidRequestError' });
    for (const problem of [
      'nope: unknown field',
      'types.n: unknown type "INT"',
      'chunkMiB: must be a number above 0',
    ]) {
      expect(run.stderr).toContain(problem);
    }
  });

  it('fails when the payload file is not JSON, naming the file', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-request-'));
    await writeFile(join(cwd, 'req.json'), '{ table: t }');
    const run = await cli(['local', 'x.csv', '--request', 'req.json'], cwd);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('RequestFileError: --request req.json is not JSON');
  });
});

describe('s3-ddb-import local watch', () => {
  it('imports an upload under the watched prefix, ignores one elsewhere, and stops cleanly on Ctrl-C', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-watch-'));
    const bucket = await createBucket();
    const table = uniqueName('cli-watch');
    const child = spawn(
      process.execPath,
      [
        CLI,
        'local',
        'watch',
        '--prefix',
        'in/',
        '--table',
        table,
        '--bucket',
        bucket,
        '--types',
        'year=N,match_count=N,volume_count=N',
        '--create-table',
        '--pk',
        'ngram',
        '--sk',
        'year:N',
        '--json',
      ],
      { cwd, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    const exited = once(child, 'exit');
    const seen = (pattern: RegExp, stream: () => string) =>
      new Promise<void>((resolve, reject) => {
        const check = () => (pattern.test(stream()) ? resolve() : undefined);
        child.stdout.on('data', check);
        child.stderr.on('data', check);
        void exited.then(() => reject(new Error(`exited before ${pattern}:\n${stderr}`)));
      });
    child.stderr.on('data', (d) => (stderr += d));
    try {
      await seen(/watching s3:\/\/\S+\/in\/ -> /, () => stderr);
      const { text, rows } = generateNgrams(800);
      await putText(bucket, 'elsewhere/1gram.tsv', 'ngram\tyear\tmatch_count\tvolume_count\nelsewhere\t1900\t1\t1\n');
      await putText(bucket, 'in/1gram.tsv', text);
      await seen(/"key":"in\/1gram.tsv"/, () => stdout);

      expect(lastJsonLine(stdout)).toMatchObject({
        key: 'in/1gram.tsv',
        status: 'SUCCEEDED',
        rows: 800,
        written: 800,
        table,
      });
      await expectTableMatches(table, rows);
      expect(stderr).not.toContain('elsewhere/');
    } finally {
      child.kill('SIGINT');
    }
    const [code] = await exited;
    expect(code).toBe(0);
    expect(stdout.trim().split('\n')).toHaveLength(1);
    expect((await scanAll(table)).some((i) => i.ngram.S === 'elsewhere')).toBe(false);
  });

  it('exits 1 pointing at its help when there is no watch to run', async () => {
    const run = await cli(
      ['local', 'watch', '--cdk-json', 'missing.json'],
      await mkdtemp(join(tmpdir(), 'cli-watch-')),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('no watch: give --prefix P --table T, or run where missing.json exists');
    expect(run.stderr).toContain('see: s3-ddb-import local watch --help');
    expect(run.stderr).not.toContain('usage:');
  });
});
