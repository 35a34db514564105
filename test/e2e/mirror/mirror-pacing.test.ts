import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { executionOutputPrefix } from '../../../lambdas/contract/workflow-payloads.js';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import type { StateEvent } from '../../../cli/local-run/run-options.js';
import { runWithEvents, withOwnLedger } from '../faults/fixture.js';
import { faultBatchWrites, faultGetObjects, removeFaultsFrom } from '../faults/inject.js';
import { createBucket, createTable, listKeys, putText, scanAll, uniqueName } from '../harness.js';
import { fillTable } from './mirror-harness.js';

/**
 * A mirror's reads and deletes go through the chunks' governor and ledger: `pause` holds its deletes, `maxWriteRate`
 * paces them, and its key parts are gone once compared. Lanes read the ledger every 100 ms here (5 s deployed), and a
 * paused step asks again at once (its first PausedWait 0 s).
 */
const wiring = withOwnLedger(
  createWiring({
    config: {
      rejectsPrefix: DEFAULT_REJECTS_PREFIX,
      allowedTables: null,
      liveSettingsIntervalMs: 100,
      pausedFirstWaitSeconds: 0,
    },
  }),
);

const item = (i: number) => ({ id: { S: `k${String(i).padStart(5, '0')}` }, v: { S: `value-${i}` } });
const csvOf = (ids: number[]) => `id,v\n${ids.map((i) => `${item(i).id.S},value-${i}`).join('\n')}\n`;

/** A table of `n` items and a file that keeps those `kept` says: the mirror should delete the rest. */
async function setUp(n: number, kept: (i: number) => boolean) {
  const bucket = await createBucket();
  const table = await createTable(['id', 'S']);
  const ids = Array.from({ length: n }, (_, i) => i);
  await fillTable(table, ids.map(item));
  await putText(bucket, 'in/rows.csv', csvOf(ids.filter(kept)));
  const request: ImportRequest = { bucket, key: 'in/rows.csv', table, mode: 'sync', mirror: true };
  return { bucket, table, ids, request: { ...request, allowWithoutBackup: true, chunkMiB: 0.005 } };
}

/** Every delete request the writer sends into `table` (after the governor let it go): when, and how many keys. */
function recordDeletes(table: string) {
  const deletes: { at: number; keys: number }[] = [];
  faultBatchWrites(
    table,
    'initialize',
    async (input, send) => {
      const requests = input.RequestItems![table];
      const keys = requests.filter((r) => r.DeleteRequest).length;
      if (keys > 0) deletes.push({ at: performance.now(), keys });
      return send(input);
    },
    wiring,
  );
  return deletes;
}

/** The items by id, each compared whole. */
const byId = (items: Record<string, AttributeValue>[]) => new Map(items.map((i) => [i.id.S!, i]));

describe('a mirror paced and paused by the ledger, its key parts cleaned up', () => {
  afterEach(() => removeFaultsFrom(wiring));

  it('deletes nothing while paused, then finishes once resumed: the table ends as the file, item by item', async () => {
    // 400 items; the file drops every 20th: 20 deletes (5%).
    const { bucket, table, ids, request } = await setUp(400, (i) => i % 20 !== 3);
    const deletes = recordDeletes(table);
    const executionName = uniqueName('mirror-pause');
    // Paused at the compare's first read of a key part: before MirrorDeletePart's first invocation reads the ledger.
    let paused = false;
    faultGetObjects(
      bucket,
      'initialize',
      async (input, send) => {
        if (!paused && input.Key?.includes('/mirror/table-keys/')) {
          paused = true;
          await wiring.ledger.setPaused(executionName, true);
        }
        return send(input);
      },
      wiring,
    );
    // Once the parts have looped paused 40 times, the table is read whole, then the import resumed.
    let pausedLoops = 0;
    let whilePaused: { deletes: number; items: Map<string, Record<string, AttributeValue>> } | undefined;
    const onStateEvent = (event: StateEvent) => {
      if (event.type !== 'StateEntered' || event.state?.name !== 'PartPausedWait' || ++pausedLoops !== 40) return;
      void scanAll(table).then(async (items) => {
        whilePaused = { deletes: deletes.length, items: byId(items) };
        await wiring.ledger.setPaused(executionName, false);
      });
    };
    const { summary } = await runWithEvents(request, { wiring, executionName, maxConcurrency: 4, onStateEvent });

    expect(whilePaused?.deletes).toBe(0);
    expect(whilePaused?.items.size).toBe(400);
    for (const i of ids) expect(whilePaused?.items.get(item(i).id.S)).toEqual(item(i));
    expect(summary).toMatchObject({ status: 'SUCCEEDED', deleted: 20, rejected: 0 });
    const after = byId(await scanAll(table));
    expect(after.size).toBe(380);
    for (const i of ids) expect(after.get(item(i).id.S)).toEqual(i % 20 === 3 ? undefined : item(i));
    // The key parts went once compared; the delete lists (the diff) stay.
    const output = executionOutputPrefix(DEFAULT_REJECTS_PREFIX, executionName);
    expect(await listKeys(bucket, `${output}/mirror/`)).toEqual([]);
    expect((await listKeys(bucket, `${output}/diff/mirror-deletes-`)).length).toBeGreaterThan(0);
  }, 180_000);

  it('sends its deletes at maxWriteRate at most: no second holds more than its burst and its rate', async () => {
    // 1,000 items; the file keeps 600: 400 deletes, at 100 items/s shared by the parts running at once.
    const { table, ids, request } = await setUp(1000, (i) => i % 5 < 3);
    const deletes = recordDeletes(table);
    const rate = 100;
    const run = { ...request, maxWriteRate: rate, maxDeletePercent: 50 };
    const { summary } = await runWithEvents(run, {
      wiring,
      executionName: uniqueName('mirror-rate'),
      maxConcurrency: 4,
    });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', deleted: 400 });
    expect(deletes.reduce((sum, d) => sum + d.keys, 0)).toBe(400);
    // Each part's limiter starts empty and holds at most one second's share (together: one second of the rate), so any
    // window of one second holds at most 2 x rate keys, however slow or fast the machine (a slow one sends fewer);
    // unpaced, the 16 requests of 25 go out in about one second.
    for (const { at } of deletes) {
      const inWindow = deletes.filter((d) => d.at >= at && d.at < at + 1000).reduce((sum, d) => sum + d.keys, 0);
      expect(inWindow).toBeLessThanOrEqual(2 * rate);
    }
    const after = byId(await scanAll(table));
    expect(after.size).toBe(600);
    for (const i of ids) expect(after.get(item(i).id.S)).toEqual(i % 5 < 3 ? item(i) : undefined);
  }, 180_000);

  it('drops its key parts when the guard stops it: nothing deleted, nothing left under mirror/', async () => {
    const { bucket, table, ids, request } = await setUp(100, (i) => i < 80); // 20% to go, over the default 10
    const executionName = uniqueName('mirror-guard');
    const failure = await runWithEvents(request, { wiring, executionName }).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'MirrorDeleteLimitError' });
    const items = byId(await scanAll(table));
    for (const i of ids) expect(items.get(item(i).id.S)).toEqual(item(i));
    const output = executionOutputPrefix(DEFAULT_REJECTS_PREFIX, executionName);
    expect(await listKeys(bucket, `${output}/mirror/`)).toEqual([]);
  }, 120_000);
});
