import { BatchWriteItemCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import { dynamodb, runImport, scanAll } from '../harness.js';

/** Puts `items` into `table` in batches of 25 (what the table held before the file came). */
export async function fillTable(table: string, items: Record<string, AttributeValue>[]): Promise<void> {
  for (let i = 0; i < items.length; i += 25) {
    const batch = items.slice(i, i + 25).map((Item) => ({ PutRequest: { Item } }));
    const reply = await dynamodb.send(new BatchWriteItemCommand({ RequestItems: { [table]: batch } }));
    if (Object.keys(reply.UnprocessedItems ?? {}).length > 0) throw new Error('unprocessed items while filling');
  }
}

/**
 * Runs a `mode: "sync"` import with `mirror: true` (the request may override either, to test the refusals) through
 * the real workflow file and the built-in sync writer: the rows are read, compared and written as a user's are.
 */
export async function runMirror(
  request: Omit<ImportRequest, 'mode'> & Partial<Pick<ImportRequest, 'mode'>>,
  options: Parameters<typeof runImport>[1] = {},
) {
  return runImport({ mode: 'sync', mirror: true, allowWithoutBackup: true, ...request }, options);
}

/** The table's items by `name`'s string value. */
export async function itemsBy(table: string, name: string): Promise<Map<string, Record<string, AttributeValue>>> {
  return new Map((await scanAll(table)).map((item) => [item[name].S ?? item[name].N!, item]));
}
