import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanAll, uniqueName } from '../harness.js';
import { loadCorpus, type HostileCase } from './corpus.js';
import { expectItems } from './expect-items.js';
import { expectRejects, parseRejectsFiles } from './rejects-file.js';
import { runCli } from '../cli-process.js';

/**
 * The corpus cases marked `"cli": true` run through the real CLI binary, as users run it, against the
 * test run's servers (AWS_ENDPOINT_URL_* are set, so it starts none): its exit code, its --json summary,
 * the table and the rejects it copies into ./s3-ddb-import-rejects must all match the expectation.
 */
const cases = (await loadCorpus()).filter((c) => c.cli);

const cli = (args: string[], cwd: string) => runCli(args, { cwd });

/** The command line for a case's request; a request field the CLI has no flag for fails the test. */
function argsFor(c: HostileCase, file: string, table: string): string[] {
  const { format = {}, types, chunkMiB, ...rest } = c.request ?? {};
  const { delimiter, header, columns, ...restFormat } = format;
  expect({ ...rest, ...restFormat }, `request fields without a CLI flag in ${c.name}`).toEqual({});
  const key = (k: [string, string]) => `${k[0]}:${k[1]}`;
  return [
    'local',
    file,
    '--table',
    table,
    '--create-table',
    '--pk',
    key(c.table.hash),
    ...(c.table.range ? ['--sk', key(c.table.range)] : []),
    ...(types
      ? [
          '--types',
          Object.entries(types)
            .map(([col, type]) => `${col}=${type}`)
            .join(','),
        ]
      : []),
    ...(delimiter !== undefined ? ['--delimiter', delimiter === '\t' ? 'tab' : delimiter] : []),
    ...(header === false ? ['--no-header'] : []),
    ...(columns ? ['--columns', columns.join(',')] : []),
    ...(chunkMiB !== undefined ? ['--chunk-mib', String(chunkMiB)] : []),
    '--json',
  ];
}

describe('hostile inputs through the CLI', () => {
  it('has cases marked for the CLI, one for each exit code', () => {
    expect(new Set(cases.map((c) => c.expect.exitCode))).toEqual(new Set([0, 1, 2]));
  });

  it.each(cases)('$name', async (c) => {
    const cwd = await mkdtemp(join(tmpdir(), 'hostile-cli-'));
    const body = await c.body();
    // A unique file name: the CLI uploads to imports/<name> in one shared local bucket.
    const file = `${uniqueName(c.name)}${extname(c.objectKey)}`;
    await writeFile(join(cwd, file), body);
    const table = uniqueName('cli');

    const run = await cli(argsFor(c, file, table), cwd);

    expect(run.code, run.stderr).toBe(c.expect.exitCode);
    const output = JSON.parse(run.stdout.trim().split('\n').at(-1)!);
    if (c.expect.error) {
      expect(output).toMatchObject({ status: 'FAILED', error: c.expect.error.name });
      for (const fragment of c.expect.error.message) expect(output.message).toContain(fragment);
      expect(await scanAll(table)).toEqual([]);
      return;
    }
    expect(output).toMatchObject(c.expect.summary!);
    expectItems(c, await scanAll(table));
    const files = output.rejectsDir ? (await readdir(output.rejectsDir)).filter((f: string) => f.endsWith('.csv')) : [];
    const contents = await Promise.all(files.map((f: string) => readFile(join(output.rejectsDir, f))));
    expectRejects(body, parseRejectsFiles(contents), c.expect.rejects ?? []);
  });
});
