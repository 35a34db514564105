import type { DescribeTableCommandInput, DescribeTableCommandOutput } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { canonicalKey, PART_KEYS, partOf } from '../../../lambdas/mirror/key-parts.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { runWithEvents, withOwnLedger } from '../faults/fixture.js';
import { createBucket, createTable, putText, scanAll } from '../harness.js';
import { fillTable } from './mirror-harness.js';

const wiring = withOwnLedger(createWiring({ config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null } }));
const KEYS = [{ name: 'id', type: 'S' as const, role: 'HASH' as const }];
const id = (i: number) => `k${String(i).padStart(5, '0')}`;

/**
 * DescribeTable answers for `table` with `itemCount` (the table's own reply otherwise): a stand-in for the size
 * DynamoDB reports, which a test cannot reach with real items. Returns the tables it was asked about.
 */
function reportItemCount(table: string, itemCount: number): string[] {
  const asked: string[] = [];
  type Next = (args: { input: DescribeTableCommandInput }) => Promise<{ output: DescribeTableCommandOutput }>;
  const mw = (next: Next, context: { commandName?: string }) => async (args: { input: DescribeTableCommandInput }) => {
    const result = await next(args);
    if (context.commandName !== 'DescribeTableCommand' || args.input.TableName !== table) return result;
    asked.push(args.input.TableName);
    return { ...result, output: { ...result.output, Table: { ...result.output.Table, ItemCount: itemCount } } };
  };
  wiring.dynamodb.middlewareStack.add(mw as never, { step: 'initialize', name: 'item-count' } as never);
  return asked;
}

describe('a mirror whose table is bigger than its file: parts grow with ItemCount', () => {
  it('compares each part against the file-side part that holds its keys, and deletes exactly the dropped keys', async () => {
    const bucket = await createBucket();
    const table = await createTable(['id', 'S']);
    const ids = Array.from({ length: 2000 }, (_, i) => i);
    await fillTable(
      table,
      ids.map((i) => ({ id: { S: id(i) }, v: { S: `v${i}` } })),
    );
    const dropped = (i: number) => i % 20 === 7; // 100 deletes, 5%
    const kept = ids.filter((i) => !dropped(i));
    await putText(bucket, 'in/rows.csv', `id,v\n${kept.map((i) => `${id(i)},v${i}`).join('\n')}\n`);
    // 1M items reported: 20 parts of PART_KEYS wanted, so 16 file-side parts x 2 = 32.
    const asked = reportItemCount(table, 20 * PART_KEYS);
    // What the test stands on: keys of one file-side part land in both of its plan parts (p and p + 16).
    const parts = new Set(ids.map((i) => partOf(canonicalKey({ id: { S: id(i) } }, KEYS), 32)));
    expect(parts.size).toBe(32);
    try {
      const request = { bucket, key: 'in/rows.csv', table, mode: 'sync' as const, mirror: true };
      const { summary, events } = await runWithEvents(
        { ...request, allowWithoutBackup: true, chunkMiB: 0.005 },
        { wiring, maxConcurrency: 4 },
      );
      expect(asked).toContain(table); // preflight's DescribeTable, and MirrorPlan's
      const last = (step: string) => events.filter((e) => e.type === 'mirror' && e.step === step).at(-1);
      expect(last('comparing')).toMatchObject({ done: 32, total: 32, keys: 100 });
      expect(summary).toMatchObject({ status: 'SUCCEEDED', deleted: 100, rejected: 0 });
      const items = new Map((await scanAll(table)).map((item) => [item.id.S!, item]));
      expect(items.size).toBe(1900);
      for (const i of ids) {
        expect(items.get(id(i))).toEqual(dropped(i) ? undefined : { id: { S: id(i) }, v: { S: `v${i}` } });
      }
    } finally {
      wiring.dynamodb.middlewareStack.remove('item-count');
    }
  }, 180_000);
});
