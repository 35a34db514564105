import { describe, expect, it } from 'vitest';
import { createBucket, createTable, getText, listKeys, putText } from '../harness.js';
import { fillTable, itemsBy, runMirror } from './mirror-harness.js';

const item = (id: string, name = `old-${id}`) => ({ id: { S: id }, name: { S: name } });
const csv = (ids: string[]) => `id,name\n${ids.map((id) => `${id},new-${id}`).join('\n')}\n`;
const range = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

async function setUp(before: string[], file: string[]) {
  const bucket = await createBucket();
  const table = await createTable(['id', 'S']);
  await fillTable(
    table,
    before.map((id) => item(id)),
  );
  await putText(bucket, 'in/rows.csv', csv(file));
  return { bucket, table, key: 'in/rows.csv' };
}

describe('mirror: the table ends as the file, nothing more', () => {
  it('deletes every item whose key the file dropped, and keeps and updates the rest, item by item', async () => {
    // 100 items; the file keeps k0..k94 (drops 5: 5% of the 105 in scope after the 5 new ones land) and adds k100..k104.
    const file = [...range(95), ...range(5).map((_, i) => `k${100 + i}`)];
    const { bucket, table, key } = await setUp(range(100), file);
    const { summary, events } = await runMirror({ bucket, key, table });
    // Every kept row's name changed (old- to new-): 95 changed, 5 added, none unchanged, all 100 written.
    expect(summary).toMatchObject({ rows: 100, written: 100, deleted: 5, rejected: 0 });
    expect(summary).toMatchObject({ added: 5, changed: 95, unchanged: 0 });
    // Progress told each phase: 4 Scan segments (105 keys in scope), 16 parts compared (5 dropped), 16 deleted.
    const last = (step: string) => events.filter((e) => e.type === 'mirror' && e.step === step).at(-1);
    expect(last('scanning table')).toMatchObject({ done: 4, total: 4, keys: 105 });
    expect(last('comparing')).toMatchObject({ done: 16, total: 16, keys: 5 });
    expect(last('deleting')).toMatchObject({ done: 16, total: 16, keys: 5 });
    expect(summary.mirror).toMatchObject({ inScope: 105, notInFile: 5, deleted: 5, maxDeletePercent: 10, scope: null });
    const items = await itemsBy(table, 'id');
    expect([...items.keys()].sort()).toEqual([...file].sort());
    for (const id of file) expect(items.get(id)).toEqual(item(id, `new-${id}`));
  });

  it('writes nothing for the rows the table already holds: all unchanged, only the dropped keys deleted', async () => {
    // The table holds k0..k99 as the file's rows make them; the file keeps k0..k96: 3 deletes (3%), no put.
    const { bucket, table, key } = await setUp([], range(97));
    await fillTable(
      table,
      range(100).map((id) => item(id, `new-${id}`)),
    );
    const { summary } = await runMirror({ bucket, key, table });
    expect(summary).toMatchObject({ rows: 97, written: 0, added: 0, changed: 0, unchanged: 97, deleted: 3 });
    const items = await itemsBy(table, 'id');
    expect([...items.keys()].sort()).toEqual(range(97).sort());
    for (const id of range(97)) expect(items.get(id)).toEqual(item(id, `new-${id}`));
  });

  it('deletes only inside the scope: items whose partition key begins with the prefix', async () => {
    // A#0..A#49 and B#0..B#49; the file holds A#0..A#46: A#47..A#49 go (3 of 50 = 6%), every B# stays.
    const before = [...range(50, 'A#'), ...range(50, 'B#')];
    const { bucket, table, key } = await setUp(before, range(47, 'A#'));
    const { summary } = await runMirror({ bucket, key, table, scope: { partitionKeyPrefix: 'A#' } });
    expect(summary).toMatchObject({ written: 47, deleted: 3, added: 0, changed: 47, unchanged: 0 });
    expect(summary.mirror).toMatchObject({ inScope: 50, notInFile: 3, scope: { partitionKeyPrefix: 'A#' } });
    const items = await itemsBy(table, 'id');
    expect([...items.keys()].sort()).toEqual([...range(47, 'A#'), ...range(50, 'B#')].sort());
    for (const id of range(50, 'B#')) expect(items.get(id)).toEqual(item(id));
  });

  it('fails when more than maxDeletePercent would go: the count named, nothing deleted', async () => {
    // The file keeps 80 of 100: 20 to delete is 20%, over the default 10.
    const { bucket, table, key } = await setUp(range(100), range(80));
    const failure = await runMirror({ bucket, key, table }).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'MirrorDeleteLimitError' });
    expect((failure as Error).message).toContain('mirror would delete 20 of the 100 items in scope (20%)');
    const items = await itemsBy(table, 'id');
    expect(items.size).toBe(100);
    for (const id of range(100).slice(80)) expect(items.get(id)).toEqual(item(id));
  });

  it('takes a higher maxDeletePercent', async () => {
    const { bucket, table, key } = await setUp(range(100), range(80));
    const { summary } = await runMirror({ bucket, key, table, maxDeletePercent: 20 });
    expect(summary).toMatchObject({ deleted: 20 });
    expect((await itemsBy(table, 'id')).size).toBe(80);
  });

  it('a dry run writes and deletes nothing, and its diff lists exactly the changes and the keys it would delete', async () => {
    const { bucket, table, key } = await setUp(range(100), range(95));
    const { summary } = await runMirror({ bucket, key, table, dryRun: true });
    expect(summary).toMatchObject({ dryRun: true, written: 0, deleted: 0 });
    // The sync half counts what it would write (95 changed names) and writes none of it.
    expect(summary).toMatchObject({ changed: 95, added: 0, unchanged: 0 });
    expect(summary.mirror).toMatchObject({ inScope: 100, notInFile: 5, deleted: 0, refusal: null });
    // One diff folder holds the sync's lines (one change per kept key: its name) and the mirror's deletes.
    const diffKeys = await listKeys(bucket, summary.mirror!.deletesKey);
    const lines = (await Promise.all(diffKeys.map((k) => getText(bucket, k)))).join('').split('\n').filter(Boolean);
    const line = (op: string, id: string, attributes: string[]) => ({ op, key: { id: { S: id } }, attributes });
    const expected = [
      ...range(95).map((id) => line('change', id, ['name'])),
      ...range(100)
        .slice(95)
        .map((id) => line('delete', id, [])),
    ];
    const order = (a: (typeof expected)[number], b: (typeof expected)[number]) =>
      `${a.op}/${a.key.id.S}`.localeCompare(`${b.op}/${b.key.id.S}`);
    expect(lines.map((text) => JSON.parse(text) as (typeof expected)[number]).sort(order)).toEqual(
      expected.sort(order),
    );
    const items = await itemsBy(table, 'id');
    expect(items.size).toBe(100);
    for (const id of range(100)) expect(items.get(id)).toEqual(item(id));
  });

  it('fails when mirror is asked without mode sync, naming the field', async () => {
    const { bucket, table, key } = await setUp([], range(3));
    const failure = await runMirror({ bucket, key, table, mode: 'put' }).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'InvalidRequestError' });
    expect((failure as Error).message).toContain('mirror: only with "mode": "sync", got mode "put"');
  });

  it('fails without point-in-time recovery unless allowWithoutBackup, as delete does, before any write', async () => {
    const { bucket, table, key } = await setUp(range(10), range(10));
    const failure = await runMirror({ bucket, key, table, allowWithoutBackup: false }).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'BackupRequiredError' });
    const items = await itemsBy(table, 'id');
    for (const id of range(10)) expect(items.get(id)).toEqual(item(id));
  });
});
