import type { WriteMode } from '../contract/import-request.js';

/**
 * DynamoDB's write unit: one write of an item up to 1 KB; a bigger item takes one more unit per KB begun
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html).
 */
export const WRITE_UNIT_BYTES = 1024;

/**
 * The write units one record's write consumes, by the mode, in the table and in each secondary index it lands in
 * (an index write costs by the size of the index entry, at most the item's: counted as the item's, an upper bound):
 * - put, insert: the item's size in 1 KB steps. A failed insert condition consumes the same units (DynamoDB
 *   charges a failed conditional write as a write: the page above, "failed conditional writes"), so a skipped row
 *   costs like a written one.
 * - update: the larger of the item before and after; the file tells only the row, so its size (a lower bound).
 * - delete: the deleted item's size, which the file does not tell: the row's size stands for it.
 */
export function writeUnitsOf(itemBytes: number, _mode: WriteMode, indexesItLandsIn: number): number {
  const units = Math.max(1, Math.ceil(itemBytes / WRITE_UNIT_BYTES));
  return units * (1 + indexesItLandsIn);
}

/** How many of the indexes (each its key attribute names) an item lands in: those whose keys it holds. */
export function indexesHolding(item: Record<string, unknown>, indexes: readonly (readonly string[])[]): number {
  let count = 0;
  for (const keys of indexes) if (keys.every((name) => Object.hasOwn(item, name))) count++;
  return count;
}
