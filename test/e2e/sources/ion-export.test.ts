import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { allTypesItems, fillTable, scanTable, writeExport, type Item } from '../../fixtures/dynamodb-export.js';
import { lastJsonLine, runCli } from '../cli-process.js';
import { createBucket, createTable, dynamodb, getText, listKeys, putText, runImport, s3 } from '../harness.js';

const EXPORT_ID = '01767225600000-10n10n10';
const byKey = (list: Item[]) => new Map(list.map((item) => [`${item.pk.S}|${item.sk.N}`, item]));

/**
 * AWS's example item of an Ion export, on one line as the export writes it ("Each line begins with an Ion version
 * marker, followed by an item in Ion format"; the docs spread it over lines for reading):
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html#S3DataExport.Output_Data_ION
 */
const DOCS_ITEM =
  '$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 1.5",ISBN:"333-3333333333",' +
  'Id:103.,InPublication:false,PageCount:6d2,Price:2d3,ProductCategory:"Book",Title:"Book 103 Title"}}';

describe('a DynamoDB export in Ion', () => {
  let bucket: string;
  let items: Item[];
  const folder = `ion/AWSDynamoDB/${EXPORT_ID}/`;

  beforeAll(async () => {
    bucket = await createBucket();
    const source = await createTable(['pk', 'S'], ['sk', 'N']);
    await fillTable(dynamodb, source, allTypesItems(120));
    items = await scanTable(dynamodb, source); // as DynamoDB holds them: what the export writes
    await writeExport(s3, bucket, items, { folder, files: 3, outputFormat: 'ION' });
  });

  it("imports AWS's example item, written by hand as the docs show it, with the documented types", async () => {
    const table = await createTable(['Id', 'N']);
    await putText(bucket, 'hand/books.ion', `${DOCS_ITEM}\n${DOCS_ITEM.replace('Id:103.', 'Id:104.')}\n`);

    const { summary } = await runImport({ bucket, key: 'hand/books.ion', table });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 2, written: 2, rejected: 0 });
    const landed = byId(await scanTable(dynamodb, table));
    // Ion's 6d2 is 6 x 10^2 and 2d3 2 x 10^3: DynamoDB stores the numbers 600 and 2000, as the docs' JSON twin says.
    expect(landed.get('103')).toEqual({
      Authors: { SS: ['Author1', 'Author2'] },
      Dimensions: { S: '8.5 x 11.0 x 1.5' },
      ISBN: { S: '333-3333333333' },
      Id: { N: '103' },
      InPublication: { BOOL: false },
      PageCount: { N: '600' },
      Price: { N: '2000' },
      ProductCategory: { S: 'Book' },
      Title: { S: 'Book 103 Title' },
    });
    expect(landed.get('104')?.Id).toEqual({ N: '104' });
  });

  it('imports into a second table, item by item, every attribute type', async () => {
    const target = await createTable(['pk', 'S'], ['sk', 'N']);

    const { summary } = await runImport({ bucket, key: `${folder}manifest-summary.json`, table: target });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: items.length, written: items.length, objects: 4 });
    expect(byKey(await scanTable(dynamodb, target))).toEqual(byKey(items));
  });

  it('reads the data files in the format the manifest names, whatever their names say', async () => {
    // AWS's docs name an export's data files *.json.gz whichever the format: the manifest's outputFormat decides.
    const named = `named/AWSDynamoDB/${EXPORT_ID}/`;
    const some = items.slice(0, 30);
    await writeExport(s3, bucket, some, { folder: named, files: 2, outputFormat: 'ION', dataSuffix: '.json.gz' });
    const target = await createTable(['pk', 'S'], ['sk', 'N']);

    const { summary } = await runImport({ bucket, prefix: named, table: target });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: some.length, written: some.length });
    expect(byKey(await scanTable(dynamodb, target))).toEqual(byKey(some));
  });

  it('imports through `local`, named by its folder or its manifest-summary.json', async () => {
    // The export as a user downloads it (aws s3 sync): the folder's files, in its layout.
    const cwd = await mkdtemp(join(tmpdir(), 'cli-ion-'));
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: folder }));
    for (const { Key } of listed.Contents ?? []) {
      const path = join(cwd, 'export', Key!.slice(folder.length));
      await mkdir(join(path, '..'), { recursive: true });
      await writeFile(path, await bodyOf(bucket, Key!));
    }
    for (const path of ['export', join('export', 'manifest-summary.json')]) {
      const target = await createTable(['pk', 'S'], ['sk', 'N']);

      const run = await runCli(['local', path, '--table', target, '--json'], { cwd });

      expect(run.code, run.stderr).toBe(0);
      expect(lastJsonLine(run.stdout)).toMatchObject({ status: 'SUCCEEDED', rows: items.length, rejected: 0 });
      expect(byKey(await scanTable(dynamodb, target))).toEqual(byKey(items));
    }
  });

  it('imports with computed keys and exclude, as every format does', async () => {
    const target = await createTable(['PK', 'S'], ['SK', 'N']);

    const { summary } = await runImport({
      bucket,
      key: `${folder}manifest-summary.json`,
      table: target,
      attributes: { PK: 'ITEM#{pk}', SK: '{sk}' },
      exclude: ['pk', 'sk'],
    });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: items.length, written: items.length });
    const expected = items.map(({ pk, sk, ...rest }) => ({ ...rest, PK: { S: `ITEM#${pk.S}` }, SK: sk }));
    const landed = await scanTable(dynamodb, target);
    const byComputedKey = (list: Item[]) => new Map(list.map((item) => [`${item.PK.S}|${item.SK.N}`, item]));
    expect(byComputedKey(landed)).toEqual(byComputedKey(expected));
  });

  it('rejects a malformed Ion record with its line, byte offset and object, and the good records land', async () => {
    const broken = `broken/AWSDynamoDB/${EXPORT_ID}/`;
    const [dataKey] = await writeExport(s3, bucket, items.slice(0, 20), {
      folder: broken,
      files: 1,
      outputFormat: 'ION',
    });
    const lines = gunzipSync(await bodyOf(bucket, dataKey))
      .toString('utf8')
      .split('\n');
    const cut = lines[2].slice(0, lines[2].length - 5); // line 3 loses its last characters: not Ion any more
    await putText(bucket, dataKey, gzipSync([...lines.slice(0, 2), cut, ...lines.slice(3)].join('\n')));
    const target = await createTable(['pk', 'S'], ['sk', 'N']);

    const { summary } = await runImport({ bucket, prefix: broken, table: target });

    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', rows: 20, written: 19, rejected: 1 });
    const good = items.slice(0, 20).filter((_, i) => i !== 2);
    expect(byKey(await scanTable(dynamodb, target))).toEqual(byKey(good));
    const [rejectsFile] = (await listKeys(bucket, summary.rejectsKey!)).filter((key) => key.endsWith('.csv'));
    const offset = Buffer.byteLength(`${lines[0]}\n${lines[1]}\n`);
    const [header, row] = (await getText(bucket, rejectsFile)).split('\n');
    expect(header).toBe('line,byte_offset,reason,record,object');
    expect(row).toMatch(new RegExp(`^3,${offset},"invalid Ion: [^"]+",".+","${dataKey}"$`));
  });
});

function byId(list: Item[]): Map<string, Item> {
  return new Map(list.map((item) => [item.Id.N!, item]));
}

async function bodyOf(bucket: string, key: string): Promise<Buffer> {
  const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await response.Body!.transformToByteArray());
}
