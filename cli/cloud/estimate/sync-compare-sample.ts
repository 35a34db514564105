import { differingAttributes } from '../../../lambdas/attribute-values/attribute-equality.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import { itemSize } from '../../../lambdas/formats/attribute-size.js';
import type { Item } from '../../../lambdas/write/item-sink.js';
import { keyText } from '../../../lambdas/write/sync-key-text.js';
import { itemWriteUnits } from '../../../lambdas/write/write-units.js';
import { indexEntryBytes, type IndexShape } from '../table/index-writes.js';

/**
 * DynamoDB's read unit: one strongly consistent read of an item up to 4 KB, half a unit eventually consistent; a
 * bigger item takes one more step per 4 KB begun, and BatchGetItem rounds each item on its own
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html). A key with no item
 * is priced as the smallest read: the developer guide says a read of a missing item still consumes read capacity
 * (cited from memory: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/provisioned-capacity-mode.html).
 */
export const READ_UNIT_BYTES = 4096;

/** What the table holds for the sample's keys, compared with the sample's items as sync compares them. */
export interface SyncSample {
  /** The keys read: the sample's items, one per key (its last row), at most SYNC_SAMPLE_KEYS. */
  readonly sampledKeys: number;
  /** Keys with no item in the table (sync puts them), with a different item (sync replaces it), with an equal one. */
  readonly added: number;
  readonly changed: number;
  readonly unchanged: number;
  /** The read units sync's reads of these keys consume: READ_UNIT_BYTES rounding per item, halved eventually consistent. */
  readonly readUnits: number;
  /** The write units of sync's puts (the added and changed items only), the table's and the GSIs' (see below). */
  readonly writeUnits: number;
  /** The write units put would consume on the same keys: every item written. */
  readonly putWriteUnits: number;
  /** Items found in the table over READ_UNIT_BYTES: each of their reads costs more than half a unit. */
  readonly itemsOver4KB: number;
}

/** How the sample is compared: the table's key, the reads' consistency, the table's GSIs. */
export interface CompareOptions {
  readonly keys: readonly KeyAttribute[];
  readonly consistentRead: boolean;
  readonly indexes: readonly IndexShape[];
}

/**
 * Compares each of `items` (one per key) with the item `found` under its key, by sync's equality
 * (lambdas/attribute-values/attribute-equality.ts `differingAttributes`, the one SyncWriter uses: numbers by value,
 * sets unordered), and prices both ways. A put that replaces an item consumes the write units of the larger of the
 * two (the page above, PutItem; BatchWriteItem puts each item as a PutItem), so a changed item is priced by the larger,
 * put's too; each GSI entry by the new item's entry (a lower bound when an index key changes: delete and put).
 *
 * @example
 * // 2 keys, eventually consistent: one equal 100-byte item (0.5 read units), one missing (0.5, then 1 write unit).
 * compareSample([a, b], [a], options); // { sampledKeys: 2, added: 1, changed: 0, unchanged: 1, readUnits: 1, writeUnits: 1, putWriteUnits: 2, ... }
 */
export function compareSample(items: readonly Item[], found: readonly Item[], options: CompareOptions): SyncSample {
  const { keys, consistentRead, indexes } = options;
  const held = new Map(found.map((item) => [keyText(item, keys), item]));
  const keyNames = keys.map((key) => key.name);
  const perRead = consistentRead ? 1 : 0.5;
  const counts = { added: 0, changed: 0, unchanged: 0, readUnits: 0, writeUnits: 0, putWriteUnits: 0, over: 0 };
  for (const item of items) {
    const before = held.get(keyText(item, keys));
    const beforeBytes = before === undefined ? 0 : itemSize(before);
    counts.readUnits += perRead * Math.max(1, Math.ceil(beforeBytes / READ_UNIT_BYTES));
    if (beforeBytes > READ_UNIT_BYTES) counts.over++;
    const entries = indexes.flatMap((index) => indexEntryBytes(item, keyNames, index) ?? []);
    const units = itemWriteUnits(Math.max(itemSize(item), beforeBytes), entries);
    counts.putWriteUnits += units;
    const outcome =
      before === undefined ? 'added' : differingAttributes(item, before).length > 0 ? 'changed' : 'unchanged';
    counts[outcome]++;
    if (outcome !== 'unchanged') counts.writeUnits += units;
  }
  const { over, ...figures } = counts;
  return { sampledKeys: items.length, ...figures, itemsOver4KB: over };
}
