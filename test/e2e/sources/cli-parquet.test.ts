import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastJsonLine, runCli } from '../cli-process.js';
import { scanAll, uniqueName } from '../harness.js';
import { readFileSync } from 'node:fs';

/** The ids of the items the fixture script says a file holds (the items themselves are compared in parquet.test.ts). */
const expectedIds = (name: string) =>
  (JSON.parse(readFileSync(join(FIXTURES, `${name}.expect.json`), 'utf8')) as { items: { id: { S: string } }[] }).items
    .map((item) => item.id.S)
    .sort();
const landedIds = async (table: string) => (await scanAll(table)).map((item) => item.id.S!).sort();

const FIXTURES = join(import.meta.dirname, '../../fixtures/parquet');

describe('s3-ddb-import local with Parquet', () => {
  it('imports a .parquet file, its types from the schema', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    await cp(join(FIXTURES, 'codec-zstd.parquet'), join(cwd, 'orders.parquet'));
    const table = uniqueName('cli');

    const run = await runCli(['local', 'orders.parquet', '--table', table, '--pk', 'id', '--create-table', '--json'], {
      cwd,
    });

    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'SUCCEEDED', rows: 60, written: 60, rejected: 0 });
    expect(await landedIds(table)).toEqual(expectedIds('codec'));
  });

  it('imports a Spark folder of part files as a prefix, _SUCCESS and .crc files skipped', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    await cp(join(FIXTURES, 'spark'), join(cwd, 'orders'), { recursive: true });
    const table = uniqueName('cli');

    const run = await runCli(['local', 'orders', '--table', table, '--pk', 'id', '--create-table', '--json'], { cwd });

    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'SUCCEEDED', rows: 90, written: 90, chunks: 3 });
    expect(await landedIds(table)).toEqual(expectedIds('spark'));
  });
});
