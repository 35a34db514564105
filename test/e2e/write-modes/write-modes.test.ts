import { BatchWriteItemCommand, CreateTableCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import type { ImportRequest, WriteMode } from '../../../lambdas/contract/import-request.js';
import { createBucket, createTable, dynamodb, putText, runImport, scanAll, uniqueName } from '../harness.js';

type Item = Record<string, AttributeValue>;

/** What the table holds before each mode's import: a1 and a2 are in the file, a3 is not. */
const EXISTING: Item[] = [
  { id: { S: 'a1' }, name: { S: 'old-a1' }, keep: { S: 'kept-a1' } },
  { id: { S: 'a2' }, name: { S: 'old-a2' }, keep: { S: 'kept-a2' } },
  { id: { S: 'a3' }, name: { S: 'old-a3' }, keep: { S: 'kept-a3' } },
];

/**
 * a1 and a2 exist; b1 is new and comes twice (first `fresh`, then `fresh-2`); a2's name is empty, so its row holds
 * only id and score. Four rows in one chunk, one batch.
 */
const CSV = 'id,name,score\na1,new-a1,1\nb1,fresh,2\nb1,fresh-2,3\na2,,4\n';

async function tableWithExistingItems(): Promise<string> {
  const table = await createTable(['id', 'S']);
  await dynamodb.send(
    new BatchWriteItemCommand({ RequestItems: { [table]: EXISTING.map((Item) => ({ PutRequest: { Item } })) } }),
  );
  return table;
}

async function importInMode(mode: WriteMode, extra: Partial<ImportRequest> = {}) {
  const bucket = await createBucket();
  await putText(bucket, 'in/rows.csv', CSV);
  const table = await tableWithExistingItems();
  const request = { bucket, key: 'in/rows.csv', table, types: { score: 'N' as const }, mode, ...extra };
  const run = await runImport(request);
  const items = new Map((await scanAll(table)).map((item) => [item.id.S, item]));
  return { run, items, table };
}

const s = (S: string) => ({ S });
const n = (N: string) => ({ N });

describe('write modes over a table that already holds items', () => {
  it('put replaces whole items, the last row of a key wins, and counts the replaced row as skipped', async () => {
    const { run, items } = await importInMode('put');
    expect(run.summary).toMatchObject({ mode: 'put', rows: 4, written: 3, skipped: 1, deleted: 0, rejected: 0 });
    expect(items.get('a1')).toEqual({ id: s('a1'), name: s('new-a1'), score: n('1') }); // `keep` is gone
    expect(items.get('b1')).toEqual({ id: s('b1'), name: s('fresh-2'), score: n('3') });
    expect(items.get('a2')).toEqual({ id: s('a2'), score: n('4') });
    expect(items.get('a3')).toEqual(EXISTING[2]);
    expect(items.size).toBe(4);
  });

  it('insert writes only new keys, the first row of a key wins, and existing items stay untouched', async () => {
    const { run, items } = await importInMode('insert');
    // a1 and a2 exist; b1's second row finds the first one's item.
    expect(run.summary).toMatchObject({ mode: 'insert', rows: 4, written: 1, skipped: 3, deleted: 0, rejected: 0 });
    expect(run.summary.status).toBe('SUCCEEDED');
    expect(items.get('a1')).toEqual(EXISTING[0]);
    expect(items.get('a2')).toEqual(EXISTING[1]);
    expect(items.get('b1')).toEqual({ id: s('b1'), name: s('fresh'), score: n('2') });
    expect(items.get('a3')).toEqual(EXISTING[2]);
    expect(items.size).toBe(4);
  });

  it('update merges the row into the item, leaves its other attributes, and applies rows in file order', async () => {
    const { run, items } = await importInMode('update');
    expect(run.summary).toMatchObject({ mode: 'update', rows: 4, written: 4, skipped: 0, deleted: 0, rejected: 0 });
    expect(items.get('a1')).toEqual({ id: s('a1'), name: s('new-a1'), keep: s('kept-a1'), score: n('1') });
    // An empty field sets nothing: a2 keeps its name.
    expect(items.get('a2')).toEqual({ id: s('a2'), name: s('old-a2'), keep: s('kept-a2'), score: n('4') });
    expect(items.get('b1')).toEqual({ id: s('b1'), name: s('fresh-2'), score: n('3') });
    expect(items.get('a3')).toEqual(EXISTING[2]);
  });

  it('delete removes the items the rows name, counts a key with no item too, and leaves the others', async () => {
    const { run, items } = await importInMode('delete', { allowWithoutBackup: true });
    expect(run.summary).toMatchObject({ mode: 'delete', rows: 4, written: 0, skipped: 0, deleted: 4, rejected: 0 });
    expect([...items.keys()]).toEqual(['a3']);
    expect(items.get('a3')).toEqual(EXISTING[2]);
  });

  it('a dry run leaves the table exactly as it was and counts what it would send', async () => {
    for (const mode of ['put', 'delete'] as const) {
      const { run, items } = await importInMode(mode, { dryRun: true, allowWithoutBackup: true });
      expect(run.summary).toMatchObject({ mode, dryRun: true, rows: 4, written: 0, skipped: 0, deleted: 0 });
      expect([...items.values()].sort((a, b) => a.id.S!.localeCompare(b.id.S!))).toEqual(EXISTING);
    }
  });
});

describe('write modes with the spread window', () => {
  it.each<[WriteMode, Item | undefined]>([
    ['put', { id: s('b1'), name: s('fresh-2'), score: n('3') }],
    ['insert', { id: s('b1'), name: s('fresh'), score: n('2') }],
    ['update', { id: s('b1'), name: s('fresh-2'), score: n('3') }],
    ['delete', undefined],
  ])('%s keeps its rule for a key repeated inside the window', async (mode, b1) => {
    const { run, items } = await importInMode(mode, { spread: true, allowWithoutBackup: true });
    const { rows, written, skipped, deleted, rejected } = run.summary;
    expect(rows).toBe(written + skipped + deleted + rejected);
    expect(items.get('b1')).toEqual(b1);
    if (mode === 'update') expect(items.get('a2')).toMatchObject({ name: s('old-a2'), score: n('4') });
  });
});

describe('a dry run counts write units', () => {
  it('by 1 KB per item, and as much again in each index whose keys the item holds', async () => {
    const table = uniqueName('e2e');
    await dynamodb.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'id', AttributeType: 'S' },
          { AttributeName: 'email', AttributeType: 'S' },
        ],
        KeySchema: [{ AttributeName: 'id', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [
          {
            IndexName: 'by-email',
            KeySchema: [{ AttributeName: 'email', KeyType: 'HASH' }],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    // u1: ~30 bytes, in the index (1 + 1); u2: no email, not in it (1); u3: 2,000-byte bio, 2 KB, in it (2 + 2).
    const bio = 'x'.repeat(2000);
    const csv = `id,email,bio\nu1,a@example.com,short\nu2,,short\nu3,c@example.com,${bio}\n`;
    const bucket = await createBucket();
    await putText(bucket, 'in/users.csv', csv);
    const run = await runImport({ bucket, key: 'in/users.csv', table, mode: 'insert', dryRun: true });
    expect(run.summary).toMatchObject({ dryRun: true, rows: 3, written: 0, writeUnits: 2 + 1 + 4 });
    expect(await scanAll(table)).toEqual([]);
  });
});
