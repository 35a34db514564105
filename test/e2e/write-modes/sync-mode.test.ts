import { BatchWriteItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import { createWiring, type Wiring } from '../../../lambdas/wiring/wiring.js';
import { parseDiffLines } from '../../../lambdas/sync-compare/diff-lines.js';
import { createBucket, createTable, dynamodb, getText, listKeys, putText, runImport, scanAll } from '../harness.js';

type Item = Record<string, AttributeValue>;

const s = (S: string) => ({ S });
const n = (N: string) => ({ N });
const bytes = (text: string) => ({ B: new Uint8Array(Buffer.from(text)) });

/**
 * What the table holds before the sync: same1-same3 equal the file's items as DynamoDB compares them (a number
 * written `1` in the table and `1.0` in the file, a string set in another order, a nested map, a list, bytes);
 * gone1 holds an attribute the file lacks, num1 another number, set1 another set; old1 is not in the file at all.
 */
const EXISTING: Item[] = [
  { id: s('same1'), price: n('1'), tags: { SS: ['a', 'b', 'c'] } },
  { id: s('same2'), spec: { M: { size: n('10'), colours: { L: [s('red'), s('blue')] } } } },
  { id: s('same3'), blob: bytes('raw'), nums: { NS: ['2', '1.5'] } },
  { id: s('gone1'), price: n('5'), note: s('dropped by the file') },
  { id: s('num1'), price: n('1') },
  { id: s('set1'), tags: { SS: ['a', 'b'] } },
  { id: s('old1'), price: n('9') },
];

/** The file (DynamoDB JSON): every EXISTING key but old1, two new keys, and new2 twice (the second row wins). */
const FILE_ITEMS: Item[] = [
  { id: s('same1'), price: n('1.0'), tags: { SS: ['c', 'a', 'b'] } },
  { id: s('same2'), spec: { M: { colours: { L: [s('red'), s('blue')] }, size: n('1e1') } } },
  { id: s('same3'), blob: { B: Buffer.from('raw') }, nums: { NS: ['1.50', '2'] } },
  { id: s('gone1'), price: n('5') },
  { id: s('num1'), price: n('1.5') },
  { id: s('set1'), tags: { SS: ['a', 'b', 'd'] } },
  { id: s('new1'), price: n('3') },
  { id: s('new2'), price: n('4') },
  { id: s('new2'), price: n('4.5') },
];

/** An item as a line of DynamoDB JSON (binary as base64). */
function dynamoJsonLine(item: Item): string {
  const json = JSON.stringify({ Item: item }, (_, value: unknown) =>
    value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer'
      ? Buffer.from((value as { data: number[] }).data).toString('base64')
      : value,
  );
  return `${json}\n`;
}

let wirings: Wiring[] = [];
afterEach(() => {
  for (const wiring of wirings) wiring.writeTransport.destroy();
  wirings = [];
});

/** A wiring whose transport counts the requests of each call and the items BatchWriteItem carries, on the wire. */
function countingWiring() {
  const wiring = createWiring();
  wirings.push(wiring);
  const sent = { BatchGetItemCommand: 0, BatchWriteItemCommand: 0, itemsWritten: 0 };
  wiring.writeTransport.middlewareStack.add(
    ((next: (args: { input: unknown }) => Promise<unknown>, context: { commandName: keyof typeof sent }) =>
      (args: { input: { RequestItems?: Record<string, unknown[]> } }) => {
        sent[context.commandName]++;
        if (context.commandName === 'BatchWriteItemCommand')
          sent.itemsWritten += Object.values(args.input.RequestItems ?? {}).flat().length;
        return next(args);
      }) as never,
    { step: 'initialize', name: 'count-requests' } as never,
  );
  return { wiring, sent };
}

async function seededSync(extra: Partial<ImportRequest> = {}) {
  const bucket = await createBucket();
  await putText(bucket, 'in/items.json', FILE_ITEMS.map(dynamoJsonLine).join(''));
  const table = await createTable(['id', 'S']);
  const requests = EXISTING.map((Item) => ({ PutRequest: { Item } }));
  await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: requests } }));
  const request: ImportRequest = { bucket, key: 'in/items.json', table, mode: 'sync', ...extra };
  return { bucket, table, request };
}

async function syncOnce(request: ImportRequest) {
  const { wiring, sent } = countingWiring();
  const run = await runImport(request, { wiring });
  return { summary: run.summary, sent };
}

const itemsOf = async (table: string) => new Map((await scanAll(table)).map((item) => [item.id.S!, item]));

describe('sync: writes only the items that differ from the table', () => {
  it('leaves equal items, puts new and different ones whole, and counts each row once', async () => {
    const { table, request } = await seededSync();
    const { summary, sent } = await syncOnce(request);

    // 9 rows: new2's first row replaced by its second (skipped); 3 equal; gone1, num1, set1 changed; new1, new2 added.
    expect(summary).toMatchObject({ mode: 'sync', status: 'SUCCEEDED', rows: 9, rejected: 0 });
    expect(summary).toMatchObject({ added: 2, changed: 3, unchanged: 3, skipped: 1, written: 5, deleted: 0 });
    // On the wire: one read of the 8 keys, one write of the 5 items that differ.
    expect(sent).toEqual({ BatchGetItemCommand: 1, BatchWriteItemCommand: 1, itemsWritten: 5 });

    const items = await itemsOf(table);
    expect(items.size).toBe(9);
    // Unchanged items are the table's own, untouched (its `1`, its set order).
    for (const existing of EXISTING.slice(0, 3)) expect(items.get(existing.id.S!)).toEqual(existing);
    expect(items.get('gone1')).toEqual({ id: s('gone1'), price: n('5') }); // `note` is gone: the file's item, whole
    expect(items.get('num1')).toEqual({ id: s('num1'), price: n('1.5') });
    expect(items.get('set1')?.tags.SS?.sort()).toEqual(['a', 'b', 'd']);
    expect(items.get('new1')).toEqual({ id: s('new1'), price: n('3') });
    expect(items.get('new2')).toEqual({ id: s('new2'), price: n('4.5') });
    expect(items.get('old1')).toEqual(EXISTING[6]); // not in the file: sync leaves it (mirror would delete it)
  });

  it('finds everything unchanged when run again on the same file, and sends no write', async () => {
    const { table, request } = await seededSync();
    await syncOnce(request);
    const before = await itemsOf(table);
    const { summary, sent } = await syncOnce(request);

    expect(summary).toMatchObject({ added: 0, changed: 0, unchanged: 8, skipped: 1, written: 0, rows: 9 });
    expect(sent).toEqual({ BatchGetItemCommand: 1, BatchWriteItemCommand: 0, itemsWritten: 0 });
    expect(await itemsOf(table)).toEqual(before);
  });

  it('reads strongly consistent when the request says consistentRead', async () => {
    const { request } = await seededSync({ consistentRead: true });
    const { wiring } = countingWiring();
    const reads: unknown[] = [];
    wiring.writeTransport.middlewareStack.add(
      ((next: (args: { input: unknown }) => Promise<unknown>, context: { commandName: string }) =>
        (args: { input: { RequestItems: Record<string, { ConsistentRead?: boolean }> } }) => {
          if (context.commandName === 'BatchGetItemCommand') reads.push(Object.values(args.input.RequestItems)[0]);
          return next(args);
        }) as never,
      { step: 'initialize', name: 'see-reads' } as never,
    );
    await runImport(request, { wiring });
    expect(reads).toEqual([expect.objectContaining({ ConsistentRead: true })]);
  });
});

describe('sync dry run', () => {
  it('writes nothing, counts what it would do, and lists each difference in a diff file beside the rejects', async () => {
    const { bucket, table, request } = await seededSync({ dryRun: true });
    const before = await itemsOf(table);
    const { summary, sent } = await syncOnce(request);

    expect(summary).toMatchObject({ dryRun: true, added: 2, changed: 3, unchanged: 3, skipped: 1, written: 0 });
    expect(summary.writeUnits).toBe(5); // five small items, one unit each
    expect(sent).toEqual({ BatchGetItemCommand: 1, BatchWriteItemCommand: 0, itemsWritten: 0 });
    expect(await itemsOf(table)).toEqual(before);

    expect(summary.diffKey).toBe(summary.reportKey.replace(/report\.json$/, 'diff/'));
    const files = await listKeys(bucket, summary.diffKey!);
    expect(files).toHaveLength(1);
    const lines = parseDiffLines(await getText(bucket, files[0]));
    expect(lines).toEqual([
      { op: 'change', key: { id: s('gone1') }, attributes: ['note'] },
      { op: 'change', key: { id: s('num1') }, attributes: ['price'] },
      { op: 'change', key: { id: s('set1') }, attributes: ['tags'] },
      { op: 'add', key: { id: s('new1') }, attributes: ['id', 'price'] },
      { op: 'add', key: { id: s('new2') }, attributes: ['id', 'price'] },
    ]);
  });

  it('writes no diff file when the table already holds the file', async () => {
    const { request } = await seededSync();
    await syncOnce(request);
    const { summary } = await syncOnce({ ...request, dryRun: true });
    expect(summary).toMatchObject({ added: 0, changed: 0, unchanged: 8 });
    expect(summary.diffKey).toBeUndefined();
  });
});

describe('sync after a failed import', () => {
  it('picks up where the failure left off: what landed is unchanged, the rest added, the table is the file', async () => {
    const bucket = await createBucket();
    const rows = Array.from({ length: 100 }, (_, i) => ({
      id: s(`k${String(i).padStart(3, '0')}`),
      price: n(`${i}.0`),
    }));
    await putText(bucket, 'in/items.json', rows.map(dynamoJsonLine).join(''));
    const table = await createTable(['id', 'S']);
    const request: ImportRequest = { bucket, key: 'in/items.json', table, mode: 'sync' };

    // The second BatchWriteItem fails with an error not worth retrying: the first 25 items landed, the import fails.
    const { wiring, sent } = countingWiring();
    wiring.writeTransport.middlewareStack.add(
      ((next: (args: unknown) => Promise<unknown>, context: { commandName: string }) => async (args: unknown) => {
        if (context.commandName === 'BatchWriteItemCommand' && sent.BatchWriteItemCommand === 2)
          throw Object.assign(new Error('injected'), {
            name: 'ValidationException',
            $metadata: { httpStatusCode: 400 },
          });
        return next(args);
      }) as never,
      { step: 'initialize', name: 'fail-second-write', priority: 'low' } as never,
    );
    const failure = await runImport(request, { wiring }).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'BatchWriteFailedError' });
    const landed = (await scanAll(table)).length;
    expect(landed).toBeGreaterThan(0);
    expect(landed).toBeLessThan(100);

    const { summary } = await syncOnce(request);
    expect(summary).toMatchObject({
      rows: 100,
      unchanged: landed,
      added: 100 - landed,
      changed: 0,
      written: 100 - landed,
    });
    const items = await itemsOf(table);
    expect(items.size).toBe(100);
    for (const row of rows) expect(items.get(row.id.S)).toEqual({ id: row.id, price: n(String(Number(row.price.N))) });
  });
});
