import { describe, expect, it } from 'vitest';
import type { WriteMode } from '../../../lambdas/contract/import-request.js';
import { createWiring, type Wiring } from '../../../lambdas/wiring/wiring.js';
import { WRITE_MODE_TABLE } from '../../../lambdas/write/write-modes.js';
import { createBucket, createTable, putText, runImport, scanAll } from '../harness.js';
import { STAMP, stamp } from './toy-mode.js';

/** The registration: the toy mode's file (toy-mode.ts) and this one line. */
const writeModes = { ...WRITE_MODE_TABLE, stamp };

/**
 * 80 rows over 60 keys: keys 0 to 19 come twice in a row (the second with a new name), so both rows of a key meet in
 * one batch, where the mode's rule keeps the later; the 25th key (k24) fills the first batch after both rows of k19.
 */
const ROWS = Array.from({ length: 60 }, (_, i) => {
  const row = { id: `k${i}`, name: `name-${i}` };
  return i < 20 ? [row, { ...row, name: `name-${i}-again` }] : [row];
}).flat();
const CSV = `id,name\n${ROWS.map((row) => `${row.id},${row.name}`).join('\n')}\n`;

async function importThroughStamp(wiring: Wiring = { ...createWiring(), writeModes }) {
  const bucket = await createBucket();
  await putText(bucket, 'in/rows.csv', CSV);
  const table = await createTable(['id', 'S']);
  try {
    const run = await runImport({ bucket, key: 'in/rows.csv', table, mode: 'stamp' as WriteMode }, { wiring });
    return { run, table };
  } finally {
    wiring.writeTransport.destroy();
  }
}

describe('a write mode added as its own file and one line in the table', () => {
  it('imports a file end to end through the toy mode: every item as the mode writes it, counted by its rule', async () => {
    const { run, table } = await importThroughStamp();
    // 60 keys written; the 20 earlier rows of a repeated key were replaced (skipped), each row counted once.
    expect(run.summary).toMatchObject({ mode: 'stamp', rows: 80, written: 60, skipped: 20, deleted: 0, rejected: 0 });
    const expected = new Map(ROWS.map((row) => [row.id, { id: { S: row.id }, name: { S: row.name }, ...STAMP }]));
    const items = new Map((await scanAll(table)).map((item) => [item.id.S!, item]));
    expect(items.size).toBe(60);
    for (const [id, item] of expected) expect(items.get(id)).toEqual(item);
  });

  it('fails when the wiring does not hold the mode: the request validator reads the names from the table', async () => {
    const failure = await importThroughStamp(createWiring()).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'InvalidRequestError' });
    expect((failure as Error).message).toContain('mode: must be one of put, insert, update, delete, sync, got "stamp"');
  });
});
