import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expectTableMatches } from './faults/fixture.js';
import { uniqueName } from './harness.js';
import { NGRAM_TABLE_ARGS, runCli, lastJsonLine } from './cli-process.js';

const SAMPLE = fileURLToPath(new URL('../../sample/googlebooks-1gram-sample.tsv', import.meta.url));

/** The sample's 1,200 rows as [header, rows]. */
async function sampleRows(): Promise<[string, string[]]> {
  const [header, ...rows] = (await readFile(SAMPLE, 'utf8')).split('\n').filter(Boolean);
  return [header, rows];
}

const asRow = (line: string) => {
  const [ngram, year, match, volume] = line.split('\t');
  return { ngram, year: Number(year), match_count: Number(match), volume_count: Number(volume) };
};

describe('s3-ddb-import local --mode sync --mirror on a folder, and estimate --mode sync --mirror before it', () => {
  it('syncs a folder of two files, then mirrors an edited snapshot: one change, 50 dropped keys deleted', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-sync-folder-'));
    const table = uniqueName('cli-sync-folder');
    const [header, rows] = await sampleRows();
    const write = (name: string, lines: string[]) =>
      writeFile(join(cwd, 'snap', name), [header, ...lines, ''].join('\n'));
    await mkdir(join(cwd, 'snap'));
    await write('a.tsv', rows.slice(0, 600));
    await write('b.tsv', rows.slice(600));
    const local = (...more: string[]) =>
      runCli(['local', 'snap/', '--table', table, ...NGRAM_TABLE_ARGS, '--mode', 'sync', ...more], { cwd });

    const first = await local();
    expect(first.code).toBe(0);
    expect(lastJsonLine(first.stdout)).toMatchObject({ rows: 1200, added: 1200, changed: 0, unchanged: 0 });

    // Tomorrow's snapshot: a.tsv's first row has one more volume, b.tsv lost its last 50 rows.
    const edited = [...rows.slice(0, 1150)];
    const fields = edited[0].split('\t');
    fields[3] = String(Number(fields[3]) + 1);
    edited[0] = fields.join('\t');
    await write('a.tsv', edited.slice(0, 600));
    await write('b.tsv', edited.slice(600));

    // The estimate reads the first object's rows (all 600) against the table: exactly one changed.
    const types = ['--types', 'match_count=N,volume_count=N'];
    const estimate = await runCli(
      ['estimate', 'snap/', '--table', table, ...types, '--mode', 'sync', '--mirror', '--json'],
      {
        cwd,
      },
    );
    expect(estimate.code).toBe(0);
    const { sync } = lastJsonLine(estimate.stdout);
    expect(sync).toMatchObject({
      sampledKeys: 600,
      changedFraction: 1 / 600,
      addedFraction: 0,
      writeUnits: expect.any(Number),
    });
    expect(sync.mirror).toMatchObject({ tableItems: 1200, guardWouldRefuse: false });
    // The table's 1,200 less the folder's rows as estimated from a.tsv's bytes per row (1,198, not 1,150: b.tsv's rows
    // are longer): 2, where the mirror deletes 50. The row estimate's error bounds what a delete estimate can tell.
    expect(sync.mirror.deletes).toBe(2);

    const mirror = await local('--mirror', '--allow-without-backup');
    expect(mirror.code).toBe(0);
    expect(lastJsonLine(mirror.stdout)).toMatchObject({
      rows: 1150,
      added: 0,
      changed: 1,
      unchanged: 1149,
      written: 1,
      deleted: 50,
      mirror: { inScope: 1200, notInFile: 50, deleted: 50 },
    });
    await expectTableMatches(table, edited.map(asRow));
  });
});
