import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { itemSize } from '../../../lambdas/formats/attribute-size.js';
import type { IndexCapacity } from './table-capacity.js';
import { unitsOfOneWrite, WRITE_UNIT_BYTES } from '../../../lambdas/write/write-units.js';

/** One write unit is one write of up to 1 KB (the one definition: lambdas/write/write-units.ts). */
export { WRITE_UNIT_BYTES };

/** The write units one write of `bytes` takes: ceil(bytes / 1 KB), at least 1. */
export function writeUnitsOf(bytes: number): number {
  return unitsOfOneWrite(bytes);
}

/** What an index needs to know of an item: which attributes make its entry. */
export type IndexShape = Pick<IndexCapacity, 'name' | 'keyNames' | 'projection'>;

/**
 * The write units one new item costs in a global secondary index, on top of the table's own: writing an item puts
 * an entry into each GSI whose key attributes it has
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html#GSI.ThroughputConsiderations.Writes),
 * and "the total provisioned throughput cost for a write, consists of the sum of write capacity units consumed by
 * writing to the table and those consumed by updating the global secondary indexes"
 * (https://docs.aws.amazon.com/whitepapers/latest/comparing-dynamodb-and-hbase-for-nosql/global-secondary-index-considerations.html).
 * The entry holds the table's key, the index's key and the projected attributes (all of them for ALL, none more
 * for KEYS_ONLY, the NonKeyAttributes for INCLUDE), rounded up to 1 KB like any write. An item lacking an index key
 * attribute is not in that index (a sparse index): 0.
 */
export function indexWriteUnits(
  item: Record<string, AttributeValue>,
  tableKeyNames: readonly string[],
  index: IndexShape,
): number {
  const bytes = indexEntryBytes(item, tableKeyNames, index);
  return bytes === null ? 0 : writeUnitsOf(bytes);
}

/** The bytes of the item's entry in the index (see indexWriteUnits), or null when the item is not in it. */
export function indexEntryBytes(
  item: Record<string, AttributeValue>,
  tableKeyNames: readonly string[],
  index: IndexShape,
): number | null {
  if (!index.keyNames.every((name) => item[name] !== undefined)) return null;
  if (index.projection.type === 'ALL') return itemSize(item);
  const projected = index.projection.type === 'INCLUDE' ? index.projection.nonKeyAttributes : [];
  const names = new Set([...tableKeyNames, ...index.keyNames, ...projected]);
  return itemSize(Object.fromEntries(Object.entries(item).filter(([name]) => names.has(name))));
}
