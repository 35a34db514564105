import { BatchWriteItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import type { ImportRequest, WriteMode } from '../../../lambdas/contract/import-request.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { WRITE_MODE_TABLE } from '../../../lambdas/write/write-modes.js';
import { put } from '../../../lambdas/write/modes/put.js';
import { dynamodb, runImport, scanAll } from '../harness.js';

/**
 * `sync` as a stand-in until the sync mode lands on main: it writes as `put` does. The mirror records the keys the
 * chunks hand their sink, whatever the mode writes, so what these tests prove holds for the real `sync`.
 */
export const SYNC = 'sync' as WriteMode;
const writeModes = { ...WRITE_MODE_TABLE, [SYNC]: put };

/** Puts `items` into `table` in batches of 25 (what the table held before the file came). */
export async function fillTable(table: string, items: Record<string, AttributeValue>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    const reply = await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: batch } }));
    if (Object.keys(reply.UnprocessedItems ?? {}).length > 0) throw new Error('unprocessed items while filling');
  }
}

/** Runs a mirror through the real workflow file with the stand-in sync mode registered. */
export async function runMirror(request: Omit<ImportRequest, 'mode'> & { mode?: WriteMode }, options = {}) {
  const wiring = { ...createWiring(), writeModes };
  try {
    return await runImport({ mode: SYNC, mirror: true, allowWithoutBackup: true, ...request }, { ...options, wiring });
  } finally {
    wiring.writeTransport.destroy();
  }
}

/** The table's items by `name`'s string value. */
export async function itemsBy(table: string, name: string): Promise<Map<string, Record<string, AttributeValue>>> {
  return new Map((await scanAll(table)).map((item) => [item[name].S ?? item[name].N!, item]));
}
