import { ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateJsonLines } from '../../fixtures/json-lines.js';
import { scanAll, uniqueName } from '../harness.js';
import { comparable } from './normalize-item.js';
import { runCli, lastJsonLine } from '../cli-process.js';

const cli = (args: string[], cwd: string) => runCli(args, { cwd });

describe('s3-ddb-import local --format', () => {
  it('reads a .json file as JSON Lines when told --format jsonl (detection alone says DynamoDB JSON)', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-format-'));
    const fixture = generateJsonLines(200, { every: 1000 });
    // A unique name: the CLI uploads to imports/<name> in one shared local bucket.
    const file = `${uniqueName('part')}.json`;
    await writeFile(join(cwd, file), fixture.text);
    const table = uniqueName('cli');
    const run = await cli(
      ['local', file, '--format', 'jsonl', '--table', table, '--pk', 'id', '--sk', 'seq:N', '--create-table', '--json'],
      cwd,
    );

    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'SUCCEEDED', rows: 200, written: 200, rejected: 0 });
    expect(comparable(await scanAll(table), ['id', 'seq'])).toEqual(comparable(fixture.items, ['id', 'seq']));
  });

  it('exits 1 pointing at its help when --format names no format', async () => {
    const run = await cli(['local', 'x.csv', '--table', 't', '--format', 'orc'], tmpdir());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--format: expected csv|jsonl|dynamodb-json|dynamodb-ion|parquet, got "orc"');
    expect(run.stderr).toContain('see: s3-ddb-import local --help');
    expect(run.stderr).not.toContain('usage:');
  });

  it('exits 1 before any write when a CSV flag comes with a JSON format', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-format-'));
    const file = `${uniqueName('x')}.jsonl`;
    await writeFile(join(cwd, file), '{"id":"a"}\n');
    const table = uniqueName('cli');
    const run = await cli(
      ['local', file, '--delimiter', ';', '--table', table, '--pk', 'id', '--create-table', '--json'],
      cwd,
    );
    expect(run.code).toBe(1);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'InvalidRequestError' });
    expect(run.stderr).toContain('format.delimiter: only for CSV; jsonl records need none');
    // Resolved before any server work: nothing written, the table not even made.
    await expect(scanAll(table)).rejects.toThrow(ResourceNotFoundException);
  });
});
