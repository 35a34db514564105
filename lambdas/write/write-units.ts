/**
 * DynamoDB's write unit: one write of an item up to 1 KB; a bigger item takes one more unit per KB begun
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html): a 1,500-byte
 * item takes 2.
 */
export const WRITE_UNIT_BYTES = 1024;

/** The write units one write of `bytes` takes: ceil(bytes / 1 KB), at least 1. */
export function unitsOfOneWrite(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));
}

/**
 * The write units one record's write consumes in the table and in each secondary index it lands in (every mode's
 * `writeUnits` in write/modes/).
 * `indexesItLandsIn` is either how many indexes the item lands in (each entry counted at the item's size: an upper
 * bound, what the dry run knows) or the bytes of its entry in each (exact for the projection: `estimate` computes
 * them, cli/cloud/table/index-writes.ts), each rounded up to 1 KB like any write.
 * - put, insert: the item's size in 1 KB steps. A failed insert condition consumes the same units (DynamoDB
 *   charges a failed conditional write as a write: the page above, "failed conditional writes"), so a skipped row
 *   costs like a written one.
 * - update: the larger of the item before and after; the file tells only the row, so its size (a lower bound).
 * - delete: the deleted item's size, which the file does not tell: the row's size stands for it (exact for a file
 *   of the items, as an export is; 1 unit for a file of keys, the floor).
 */
export function itemWriteUnits(itemBytes: number, indexesItLandsIn: number | readonly number[]): number {
  const units = unitsOfOneWrite(itemBytes);
  if (typeof indexesItLandsIn === 'number') return units * (1 + indexesItLandsIn);
  return units + indexesItLandsIn.reduce((sum, bytes) => sum + unitsOfOneWrite(bytes), 0);
}

/** How many of the indexes (each its key attribute names) an item lands in: those whose keys it holds. */
export function indexesHolding(item: Record<string, unknown>, indexes: readonly (readonly string[])[]): number {
  let count = 0;
  for (const keys of indexes) if (keys.every((name) => Object.hasOwn(item, name))) count++;
  return count;
}
