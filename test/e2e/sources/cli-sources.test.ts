import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { allTypesItems, fillTable, scanTable, writeExport, type Item } from '../../fixtures/dynamodb-export.js';
import { createBucket, createTable, dynamodb, s3, uniqueName } from '../harness.js';
import { letterFile } from './letters.js';
import { expectTableMatches } from '../faults/fixture.js';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { NGRAM_TABLE_ARGS, runCli, lastJsonLine } from '../cli-process.js';

const cli = (args: string[], cwd: string) => runCli(args, { cwd });

describe('s3-ddb-import local with a folder, a .gz file, a DynamoDB export', () => {
  it('imports a folder of part files (sub-folders kept, markers skipped) as a prefix, and exits 0', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    const files = ['a', 'b', 'c'].map((letter) => letterFile(letter, 400));
    await mkdir(join(cwd, 'parts', 'year=2026'), { recursive: true });
    await writeFile(join(cwd, 'parts', 'part-0.tsv'), files[0].text);
    await writeFile(join(cwd, 'parts', 'year=2026', 'part-1.tsv'), files[1].text);
    await writeFile(join(cwd, 'parts', 'year=2026', 'part-2.tsv.gz'), gzipSync(files[2].text));
    await writeFile(join(cwd, 'parts', '_SUCCESS'), '');
    const table = uniqueName('cli');

    const run = await cli(['local', 'parts', '--table', table, ...NGRAM_TABLE_ARGS], cwd);

    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toMatchObject({
      status: 'SUCCEEDED',
      rows: 1200,
      written: 1200,
      rejected: 0,
      chunks: 3,
    });
    await expectTableMatches(
      table,
      files.flatMap((f) => f.rows),
    );
  });

  it('imports a .tsv.gz file like a plain one', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    const file = letterFile('z', 900);
    await writeFile(join(cwd, '1gram-z.tsv.gz'), gzipSync(file.text));
    const table = uniqueName('cli');

    const run = await cli(['local', '1gram-z.tsv.gz', '--table', table, ...NGRAM_TABLE_ARGS], cwd);

    expect(run.code, run.stderr).toBe(0);
    expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'SUCCEEDED', rows: 900, written: 900 });
    await expectTableMatches(table, file.rows);
  });

  it('imports a DynamoDB export folder, or its manifest-summary.json, into an existing table', async () => {
    const source = await createTable(['pk', 'S'], ['sk', 'N']);
    await fillTable(dynamodb, source, allTypesItems(60));
    const items = await scanTable(dynamodb, source);
    // Written to S3 in the documented layout, then copied down as the user's folder.
    const bucket = await createBucket();
    const folder = 'exp/AWSDynamoDB/01767225600000-a1b2c3d4/';
    await writeExport(s3, bucket, items, { folder, files: 2 });
    const cwd = await mkdtemp(join(tmpdir(), 'cli-'));
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: folder }));
    for (const { Key } of listed.Contents ?? []) {
      const path = join(cwd, 'export', Key!.slice(folder.length));
      await mkdir(join(path, '..'), { recursive: true });
      const body = await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key }))).Body!.transformToByteArray();
      await writeFile(path, body);
    }
    for (const path of ['export', join('export', 'manifest-summary.json')]) {
      const target = await createTable(['pk', 'S'], ['sk', 'N']);
      const run = await cli(['local', path, '--table', target, '--json'], cwd);
      expect(run.code, run.stderr).toBe(0);
      const byKey = (list: Item[]) => new Map(list.map((item) => [`${item.pk.S}|${item.sk.N}`, item]));
      expect(byKey(await scanTable(dynamodb, target))).toEqual(byKey(items));
    }
  });
});
