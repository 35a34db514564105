import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseLocalCommand } from '../../../cli/commands/local.js';
import { LOCAL_BUCKET, ensureBucket } from '../../../cli/local-run/local-stack.js';
import { runLocalCommand } from '../../../cli/local-run/local-command.js';
import { listKeys, s3, uniqueName } from '../../e2e/harness.js';
import { capture } from '../../support/cloud-clients.js';

/**
 * `local` resolves the request once, before any server starts or any byte is uploaded: with the key the upload
 * will have (a folder's fresh prefix too), so the same resolution serves the table, the safety notice and the run.
 */
describe('local resolves its request before it uploads anything', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'local-command-'));
    await ensureBucket(s3, LOCAL_BUCKET); // the test run's engine, which `local` uses (AWS_ENDPOINT_URL_*)
  });

  it.each([
    // a template that does not parse: only the request's validator sees it
    ['--attr PK=USER#{id', 'attributes.PK: a lone "{"'],
    // a computed attribute excluded as a column: a conflict only the validator sees
    ['--attr id=x --exclude id', 'exclude: "id" is also computed'],
  ])('fails when %s, naming the field, with nothing uploaded (exit 1)', async (flags, problem) => {
    const name = `${uniqueName('bad')}.csv`;
    const file = join(dir, name);
    await writeFile(file, 'id,name\n1,a\n');
    const shown = capture();
    const code = await runLocalCommand(
      parseLocalCommand([file, '--table', 't', ...flags.split(' '), '--json']),
      shown.output,
    );
    expect(code).toBe(1);
    expect(JSON.parse(shown.out.at(-1)!)).toMatchObject({ status: 'FAILED', error: 'InvalidRequestError' });
    expect(JSON.parse(shown.out.at(-1)!).message).toContain(problem);
    expect(await listKeys(LOCAL_BUCKET, `imports/${name}`)).toEqual([]);
  });
});

describe('local stops at a missing table before it uploads anything', () => {
  it('fails when the table does not exist: the error, then the flags that create it; nothing uploaded (exit 1)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-missing-'));
    const name = `${uniqueName('missing')}.csv`;
    const file = join(dir, name);
    await writeFile(file, 'id,name\n1,a\n');
    const shown = capture();
    const code = await runLocalCommand(parseLocalCommand([file, '--table', 'no-such-table']), shown.output);
    expect(code).toBe(1);
    expect(shown.err.filter((line) => !line.startsWith('note: Node'))).toEqual([
      'import failed: TableNotFoundError: table "no-such-table" does not exist',
      'give --create-table --pk NAME[:S|N|B] (and --sk NAME[:S|N|B] for a composite key) to create it, on demand',
    ]);
    expect(await listKeys(LOCAL_BUCKET, `imports/${name}`)).toEqual([]);
  });
});

describe('a folder whose objects do not share a format', () => {
  it('fails naming the object that does not read as the folder format, before any write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'local-mixed-'));
    await writeFile(join(dir, 'a.csv'), 'id,name\n1,a\n');
    await copyFile(join(process.cwd(), 'test/fixtures/parquet/float-digits.parquet'), join(dir, 'b.parquet'));
    const table = uniqueName('mixed');
    const shown = capture();
    const args = [dir, '--table', table, '--create-table', '--pk', 'id', '--json'];
    expect(await runLocalCommand(parseLocalCommand(args), shown.output)).toBe(1);
    const failed = JSON.parse(shown.out.at(-1)!) as { error: string; message: string };
    expect(failed.error).toBe('InvalidRequestError');
    // The folder's format comes from its first file (a.csv); b.parquet's bytes are not a CSV header.
    expect(failed.message).toMatch(/^invalid request: imports\/[^/]+\/b\.parquet: header: invalid UTF-8 at byte \d+$/);
  });
});
