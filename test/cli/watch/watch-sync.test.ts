import { type AttributeValue } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalWatch, type LocalWatch, type WatchEvent } from '../../../cli/watch/start-local-watch.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { createBucket, createTable, putText, scanAll } from '../../e2e/harness.js';
import { fillTable } from '../../e2e/mirror/mirror-harness.js';

/** Faster than the CLI's second: the test waits for the import anyway. */
const POLL_MS = 100;

/**
 * 60 rows `id,name,price`. The table holds before the upload: rows 0-19 equal (price "<i>" where the file says
 * "<i>.0": equal by value), rows 20-39 another name (changed), rows 40-59 nothing (added), and `keep`, which the file
 * lacks (a sync without mirror leaves it).
 */
const ROWS = 60;
const ids = Array.from({ length: ROWS }, (_, i) => i);
const csv = `id,name,price\n${ids.map((i) => `k${i},name-${i},${i}.0`).join('\n')}\n`;
const itemOf = (i: number, name = `name-${i}`): Record<string, AttributeValue> => ({
  id: { S: `k${i}` },
  name: { S: name },
  price: { N: String(i) },
});
const before = [
  ...ids.slice(0, 20).map((i) => itemOf(i)),
  ...ids.slice(20, 40).map((i) => itemOf(i, `old-${i}`)),
  { id: { S: 'keep' }, name: { S: 'not in the file' } },
];

/** A wiring whose transport counts the BatchWriteItem requests and the items they carry, on the wire. */
function countingWiring() {
  const wiring = createWiring();
  const sent = { requests: 0, items: [] as string[] };
  wiring.writeTransport.middlewareStack.add(
    ((next: (args: unknown) => Promise<unknown>, context: { commandName: string }) =>
      (args: {
        input: { RequestItems?: Record<string, { PutRequest?: { Item: Record<string, AttributeValue> } }[]> };
      }) => {
        if (context.commandName === 'BatchWriteItemCommand') {
          sent.requests++;
          for (const request of Object.values(args.input.RequestItems ?? {}).flat())
            sent.items.push(request.PutRequest!.Item.id.S!);
        }
        return next(args);
      }) as never,
    { step: 'initialize', name: 'count-writes' } as never,
  );
  return { wiring, sent };
}

describe('local watch with mode sync', () => {
  let watch: LocalWatch | undefined;
  afterEach(async () => watch?.stop());

  it('leaves unchanged items unwritten and puts the changed and added ones, item by item', async () => {
    const bucket = await createBucket();
    const table = await createTable(['id', 'S']);
    await fillTable(table, before);
    const { wiring, sent } = countingWiring();
    let resolveDone: (event: WatchEvent) => void = () => {};
    const done = new Promise<WatchEvent>((resolve) => (resolveDone = resolve));
    // The watch's config names the mode, as a watch of cdk.json's context.watches or of the construct's props does.
    // Point-in-time recovery is off: a sync into a table holding items warns (in the log) and goes on.
    const config = { prefix: 'in/', table, types: { price: 'N' as const }, mode: 'sync' as const };
    watch = await startLocalWatch({
      watches: [config],
      bucket,
      region: 'us-east-1',
      wiring,
      pollIntervalMs: POLL_MS,
      onEvent: (event) => (event.type === 'done' || event.type === 'failed') && resolveDone(event),
    });
    await putText(bucket, 'in/rows.csv', csv);

    const event = await done;
    expect(event).toMatchObject({ type: 'done', summary: { status: 'SUCCEEDED', mode: 'sync', rows: ROWS } });
    expect(event).toMatchObject({ summary: { unchanged: 20, changed: 20, added: 20, written: 40, rejected: 0 } });
    // On the wire: only rows 20-59 were put (40 items: 2 requests of 25 at most), never rows 0-19.
    expect(sent.items.sort()).toEqual(
      ids
        .slice(20)
        .map((i) => `k${i}`)
        .sort(),
    );
    expect(sent.requests).toBeLessThanOrEqual(2);
    const items = new Map((await scanAll(table)).map((item) => [item.id.S!, item]));
    expect(items.size).toBe(ROWS + 1);
    for (const i of ids.slice(0, 20)) expect(items.get(`k${i}`)).toEqual(itemOf(i)); // the table's own, untouched
    for (const i of ids.slice(20)) expect(items.get(`k${i}`)).toEqual(itemOf(i));
    expect(items.get('keep')).toEqual(before.at(-1));
    wiring.writeTransport.destroy();
  });
});
