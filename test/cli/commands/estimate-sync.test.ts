import { DescribeTableCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { PRICES } from '../../../cli/cloud/estimate/estimate-model.js';
import { parseEstimateCommand, runEstimateCommand } from '../../../cli/commands/estimate.js';
import type { StandIn } from '../../e2e/admission/stand-in.js';
import { createBucket, createTable, dynamodb, putText } from '../../e2e/harness.js';
import { fillTable } from '../../e2e/mirror/mirror-harness.js';
import { capture, cloudClients } from '../../support/cloud-clients.js';

/**
 * 200 rows `id,name,price` (price typed N, written "<i>.0" in the file): the whole file is the sample, so every
 * figure is exact. Each item is small (under 1 KB, under 4 KB): one write unit, half a read unit eventually consistent.
 */
const ROWS = 200;
const ids = Array.from({ length: ROWS }, (_, i) => i);
const id = (i: number) => `id-${String(i).padStart(4, '0')}`;
const csv = `id,name,price\n${ids.map((i) => `${id(i)},name-${i},${i}.0`).join('\n')}\n`;
/** The item the import makes of row i: the number by value ("7.0" is 7). */
const itemOf = (i: number): Record<string, AttributeValue> => ({
  id: { S: id(i) },
  name: { S: `name-${i}` },
  price: { N: String(i) },
});

/** No stand-in: estimate calls only S3 and DynamoDB, both the local engine. */
const clients = () => cloudClients({ endpoint: 'http://127.0.0.1:9' } as StandIn);

/**
 * A bucket with the file and a table (keyed by `id`, or by `keyName`) holding `items`; `estimate --mode sync` of it,
 * as `--json` and as lines.
 */
async function estimateSync(items: Record<string, AttributeValue>[], more: string[] = [], keyName = 'id') {
  const bucket = await createBucket();
  await putText(bucket, 'in/rows.csv', csv);
  const table = await createTable([keyName, 'S']);
  await fillTable(table, items);
  const args = [`s3://${bucket}/in/rows.csv`, '--table', table, '--types', 'price=N', '--mode', 'sync', ...more];
  const run = async (json: string[]) => {
    const shown = capture();
    expect(await runEstimateCommand(parseEstimateCommand([...args, ...json]), clients(), shown.output)).toBe(0);
    return shown.out;
  };
  return { table, json: JSON.parse((await run(['--json'])).at(-1)!), lines: await run([]) };
}

describe('estimate --mode sync: reads the table for the sample keys and measures what changed', () => {
  it('finds nothing changed in a table holding the file (numbers equal by value): reads only, no writes', async () => {
    const { json, lines } = await estimateSync(ids.map(itemOf));
    // 200 keys read, all equal ("7.0" in the file, 7 in the table): 200 x 0.5 read units, no write.
    expect(json.sync).toMatchObject({
      sampledKeys: ROWS,
      changedFraction: 0,
      addedFraction: 0,
      unchangedFraction: 1,
      consistentRead: false,
      readUnits: 100,
      writeUnits: 0,
      putWriteUnits: ROWS,
      advice: null,
      mirror: null,
    });
    expect(json.sync.costUsd.total).toBeCloseTo((100 / 1e6) * PRICES.onDemandReadPerMillion, 12);
    // The table of modes prices sync's writes as measured: none.
    expect(json.modes.sync.writeUnits).toBe(0);
    expect(lines).toContain(
      "sync: the table's items for 200 of the sample's keys, read and compared: 0.0% changed, 0.0% added, 100.0% unchanged",
    );
  });

  it('finds exactly the changed and added rows, item by item, and prices writes for them only', async () => {
    // i % 4 === 0: another name (changed); i % 4 === 1: an attribute the file lacks (changed: it goes);
    // i % 10 === 3: no item (added, 10 of them i % 4 === 1). 50 + 40 changed, 20 added, 90 unchanged.
    const added = (i: number) => i % 10 === 3;
    const changed = (i: number) => (i % 4 === 0 || i % 4 === 1) && !added(i);
    const table = ids
      .filter((i) => !added(i))
      .map((i) => {
        if (i % 4 === 0) return { ...itemOf(i), name: { S: `old-${i}` } };
        return i % 4 === 1 ? { ...itemOf(i), gone: { S: 'x' } } : itemOf(i);
      });
    const { json } = await estimateSync(table, ['--consistent-read']);
    const count = (test: (i: number) => boolean) => ids.filter(test).length;
    expect([count(changed), count(added)]).toEqual([90, 20]);
    expect(json.sync).toMatchObject({
      sampledKeys: ROWS,
      changedFraction: 90 / ROWS,
      addedFraction: 20 / ROWS,
      unchangedFraction: 90 / ROWS,
      consistentRead: true,
      readUnits: ROWS, // strongly consistent: 1 unit a key, found or not
      writeUnits: 110,
      putWriteUnits: ROWS,
      advice: null,
    });
    expect(json.modes.sync.writeUnits).toBe(110);
  });

  it('builds each item as the import does: a computed key and an excluded column compared as they would land', async () => {
    // Keyed by pk = "ITEM#<id>", name excluded: the table holds exactly those items, so nothing changed.
    const items = ids.map((i) => ({ pk: { S: `ITEM#${id(i)}` }, id: { S: id(i) }, price: { N: String(i) } }));
    const { json } = await estimateSync(items, ['--attr', 'pk=ITEM#{id}', '--exclude', 'name'], 'pk');
    expect(json.sync).toMatchObject({ sampledKeys: ROWS, unchangedFraction: 1, writeUnits: 0 });
  });

  it('advises put when sync costs more: every row changed', async () => {
    // 200 reads (0.5 each) + 200 writes against 200 writes: sync costs more by its reads.
    const { json, lines } = await estimateSync(ids.map((i) => ({ ...itemOf(i), name: { S: 'old' } })));
    expect(json.sync).toMatchObject({ changedFraction: 1, readUnits: 100, writeUnits: ROWS, putWriteUnits: ROWS });
    expect(json.sync.advice).toMatch(/^sync costs more than put here .*: 100% of the sampled rows are changed or new/);
    expect(lines).toContain(`advice: ${json.sync.advice}`);
  });

  it('with --mirror: the Scan of the table and the deletes the sample implies, and whether the guard refuses', async () => {
    // The table holds the file's 200 items and 30 more: 30 deletes of 230 in scope (13%), over the default 10%.
    const extra = Array.from({ length: 30 }, (_, i) => ({ id: { S: `gone-${i}` }, name: { S: 'x' } }));
    const { json, table, lines } = await estimateSync([...ids.map(itemOf), ...extra], ['--mirror']);
    const { Table } = await dynamodb.send(new DescribeTableCommand({ TableName: table }));
    expect(Table?.ItemCount).toBe(230); // what the estimate starts from (AWS updates it about every 6 hours)
    expect(json.sync.mirror).toMatchObject({
      tableItems: 230,
      tableBytes: Table?.TableSizeBytes,
      scanReadUnits: Math.ceil(Table!.TableSizeBytes! / 4096) / 2,
      deletes: 30,
      deleteWriteUnits: 30,
      maxDeletePercent: 10,
      guardWouldRefuse: true,
    });
    expect(json.sync.mirror.deletePercent).toBeCloseTo((30 / 230) * 100, 9);
    const said = lines.find((line) => line.startsWith('mirror: '));
    expect(said).toContain('~30 deletes');
    expect(said).toContain(
      '13.0% of the items in scope: over maxDeletePercent 10, the mirror would refuse and delete nothing',
    );
  });
});
