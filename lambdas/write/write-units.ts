import type { WriteMode } from '../contract/import-request.js';

/**
 * One write unit is one write of up to 1 KB; a write is rounded up to the next 1 KB, at least 1
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html#write-operation-consumption):
 * a 1,500-byte item takes 2.
 */
export const WRITE_UNIT_BYTES = 1024;

/** The write units one write of `bytes` takes: ceil(bytes / 1 KB), at least 1. */
export function unitsOfOneWrite(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));
}

/**
 * The write units one item of the file costs in `mode`: the table's write, 1 KB rounding of `itemBytes`, plus one
 * write per global secondary index the item lands in (`indexesItLandsIn`: the bytes of its entry in each GSI whose
 * key attributes it has; cli/cloud/index-writes.ts computes them), each rounded the same way. Pure: the dry run
 * counts with it, `estimate` prices with it. Per mode, from the page above:
 * - `put`: the item written (replacing a bigger item costs the bigger one's size: the file cannot tell, so not here).
 * - `insert`: as `put`. A conditional write whose condition fails still consumes write units (the existing item's
 *   size, at least 1), so skipped items are not free; pricing each as a put is the bound the file gives.
 * - `update`: the larger of the item before and after; the file gives the after (what it sets), so as `put`.
 * - `delete`: the size of the deleted item, which is the one in the table, not the row. The caller passes the
 *   row's item size as its proxy (exact when the file holds the items, as an export does; a keys-only file gives
 *   the floor) and the GSI entries the deleted item had.
 */
export function writeUnitsOf(itemBytes: number, mode: WriteMode, indexesItLandsIn: readonly number[]): number {
  const table = unitsOfOneWrite(itemBytes);
  const indexes = indexesItLandsIn.reduce((sum, bytes) => sum + unitsOfOneWrite(bytes), 0);
  switch (mode) {
    case 'put':
    case 'insert':
    case 'update':
    case 'delete':
      return table + indexes;
  }
}
