import { type AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { createWiring } from '../../lambdas/wiring/wiring.js';
import { createBucket, createTable, putText, runImport, scanAll } from './harness.js';
import { fillTable } from './mirror/mirror-harness.js';

/**
 * 600 rows `id,name,price` over several chunks (chunkMiB 0.004: about 4 KB, ~170 rows each). Before the first run the
 * table holds row i equal (i % 3 === 0, price "<i>" where the file says "<i>.0"), with another name (i % 3 === 1) or
 * not at all (i % 3 === 2).
 */
const ROWS = 600;
const ids = Array.from({ length: ROWS }, (_, i) => i);
const key = (i: number) => `k${String(i).padStart(4, '0')}`;
const csv = `id,name,price\n${ids.map((i) => `${key(i)},name-${i},${i}.0`).join('\n')}\n`;
const itemOf = (i: number, name = `name-${i}`): Record<string, AttributeValue> => ({
  id: { S: key(i) },
  name: { S: name },
  price: { N: String(i) },
});
const before = ids.filter((i) => i % 3 !== 2).map((i) => (i % 3 === 0 ? itemOf(i) : itemOf(i, `old-${i}`)));

type Args = { input: { RequestItems?: Record<string, { Keys: Record<string, AttributeValue>[] }> } };

/**
 * A wiring whose read of the last row's key fails with an error not worth retrying: the last chunk fails mid-way,
 * after the chunks before it landed. The last, because the local runner goes on with the Map's queued chunks after
 * one fails (the execution has failed; on AWS a failed Distributed Map stops its child executions): a failure in an
 * earlier chunk would leave later chunks landing while the test looks at the table.
 */
function failingLastRead() {
  const wiring = createWiring();
  const last = key(ROWS - 1);
  wiring.writeTransport.middlewareStack.add(
    ((next: (args: Args) => Promise<unknown>, context: { commandName: string }) => async (args: Args) => {
      const keys = Object.values(args.input.RequestItems ?? {}).flatMap((read) => read.Keys);
      if (context.commandName === 'BatchGetItemCommand' && keys.some((k) => k.id.S === last))
        throw Object.assign(new Error('injected'), { name: 'ValidationException', $metadata: { httpStatusCode: 400 } });
      return next(args);
    }) as never,
    { step: 'initialize', name: 'fail-third-read', priority: 'low' } as never,
  );
  return wiring;
}

/** The keys whose item in the table is the file's row's item. */
async function keysEqualToFile(table: string): Promise<Set<string>> {
  const items = await scanAll(table);
  return new Set(items.filter((item) => expectEqual(item)).map((item) => item.id.S!));
}
/** Whether `item` is its row's item: the same attributes with the same values (a Scan gives them in any order). */
function expectEqual(item: Record<string, AttributeValue>): boolean {
  const want = itemOf(Number(item.id.S!.slice(1)));
  const sorted = (of: Record<string, AttributeValue>) =>
    JSON.stringify(Object.entries(of).sort(([a], [b]) => a.localeCompare(b)));
  return sorted(item) === sorted(want);
}

describe('a sync resumed after a failure', () => {
  it('fails on a read in its last chunk, then a rerun writes exactly what still differs: the table is the file', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'in/rows.csv', csv);
    const table = await createTable(['id', 'S']);
    await fillTable(table, before);
    const request = { bucket, key: 'in/rows.csv', table, types: { price: 'N' as const }, mode: 'sync' as const };

    const wiring = failingLastRead();
    const failure = await runImport({ ...request, chunkMiB: 0.004 }, { wiring, maxConcurrency: 1 }).catch(
      (error: Error) => error,
    );
    wiring.writeTransport.destroy();
    expect(failure).toMatchObject({ name: 'BatchReadFailedError' });
    // Some chunks landed before the failure, not all: what equals the file now is more than before, less than all.
    const equal = await keysEqualToFile(table);
    expect(equal.size).toBeGreaterThan(ROWS / 3);
    expect(equal.size).toBeLessThan(ROWS);

    const { summary } = await runImport({ ...request, chunkMiB: 0.004 });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: ROWS, rejected: 0 });
    // The rerun finds unchanged exactly what already equals the file, and writes every other row once.
    expect(summary).toMatchObject({ unchanged: equal.size, written: ROWS - equal.size });
    expect(summary.added + summary.changed).toBe(ROWS - equal.size);
    const items = new Map((await scanAll(table)).map((item) => [item.id.S!, item]));
    expect(items.size).toBe(ROWS);
    for (const i of ids) expect(items.get(key(i))).toEqual(itemOf(i));
  });
});
