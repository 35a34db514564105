import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lastJsonLine, runCli } from '../../e2e/cli-process.js';

/** `count` rows whose score is text where --types says N: every one is rejected. */
const allBad = (count: number) =>
  `id,score\n${Array.from({ length: count }, (_, i) => `${i + 1},bad${i + 1}`).join('\n')}\n`;

describe('local keeps the rejects when the import fails', () => {
  it('fails when the first 1,000 rows are all rejected, and the rejects are copied home, the failure naming where', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'failed-rejects-'));
    await writeFile(join(cwd, 'scores.csv'), allBad(3_000));
    const table = `failed-rejects-${Date.now()}`;
    const args = ['local', 'scores.csv', '--table', table, '--create-table', '--pk', 'id', '--types', 'score=N'];
    const run = await runCli([...args, '--json'], { cwd });
    expect(run.code, run.stderr).toBe(1);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'FAILED', error: 'TooManyRejectsError' });
    const lines = run.stderr.trim().split('\n');
    const failed = lines.findIndex((line) => line.startsWith('import failed: TooManyRejectsError: '));
    expect(failed).toBeGreaterThan(-1);
    // The line after the failure says where the rejects are, on this machine (the engine's bucket is gone).
    const where = /^rejected rows before the failure \(line, byte offset, reason, record\): (\S+) \(lines count/.exec(
      lines[failed + 1] ?? '',
    );
    expect(where?.[1]).toMatch(new RegExp(`^${cwd}/s3-ddb-import-rejects/[0-9a-f-]{36}$`));
    // The first reason is on the terminal before it.
    expect(lines.slice(0, failed)).toContainEqual(
      expect.stringMatching(/line 1: column "score": not a number: "bad1"$/),
    );
    // Every copied row is a row of the file, rejected for its text score, in file order and byte offset.
    const files = await readdir(where![1]);
    expect(files).toHaveLength(1);
    const [header, ...rows] = (await readFile(join(where![1], files[0]), 'utf8')).trim().split('\n');
    expect(header).toMatch(/^line,/);
    expect(rows.length).toBeGreaterThanOrEqual(1_000);
    expect(rows.length).toBeLessThan(3_000);
    let offset = 'id,score\n'.length;
    rows.forEach((row, i) => {
      const record = `${i + 1},bad${i + 1}`;
      const reason = `"column ""score"": not a number: ""bad${i + 1}"""`;
      expect(row).toMatch(new RegExp(`^${i + 1},${offset},${reason},"${record}","imports/[^"]*scores\\.csv"$`));
      offset += record.length + 1;
    });
  });
});
