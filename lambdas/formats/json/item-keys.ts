import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { MAX_ITEM_BYTES, itemSize } from '../attribute-size.js';
import { checkDynamoNumber } from '../../attribute-values/dynamo-number.js';
import type { MappedRecord } from '../record-format.js';
import type { KeyAttribute } from '../../contract/workflow-payloads.js';
import type { Item } from '../../write/item-sink.js';

/** The one type an attribute value holds: its only key (S, N, M, ...). */
export const typeOf = (value: AttributeValue): string => Object.keys(value)[0] ?? 'nothing';

/**
 * Why the item cannot be one of the table's: a key attribute missing, or of another type than the table's.
 * Preflight asks this of the first record, so a file meant for another table fails before any write.
 */
export function keyMismatch(item: Item, keys: readonly KeyAttribute[]): string | undefined {
  for (const key of keys) {
    const value = Object.hasOwn(item, key.name) ? item[key.name] : undefined;
    const name = JSON.stringify(key.name);
    if (value === undefined) return `key attribute ${name} (${key.role}, ${key.type}) is missing`;
    if (keyText(value, key.type) === undefined) {
      return `key attribute ${name} must be of type ${key.type}, as the table defines it; got ${typeOf(value)}`;
    }
  }
  return undefined;
}

/**
 * Finishes an item read from a record that names its own attributes: every key attribute present, of the
 * table's type and not empty (DynamoDB refuses empty key values), the item within 400 KB. The key text is
 * canonical (numbers by value, binaries as base64), so two spellings of one key are one key.
 */
export function finishItem(item: Item, keys: readonly KeyAttribute[]): MappedRecord {
  const mismatch = keyMismatch(item, keys);
  if (mismatch) return { ok: false, reason: mismatch };
  const parts: string[] = [];
  for (const key of keys) {
    const part = keyText(item[key.name], key.type)!;
    if (part === '') return { ok: false, reason: `key attribute ${JSON.stringify(key.name)} is empty` };
    parts.push(part);
  }
  const size = itemSize(item);
  if (size > MAX_ITEM_BYTES) {
    return { ok: false, reason: `item is ${size} bytes, over DynamoDB's ${MAX_ITEM_BYTES}-byte (400 KB) limit` };
  }
  return { ok: true, item, key: parts.join('\u0000') };
}

/** The key value as canonical text, '' when empty, undefined when it is not of the key's type. */
function keyText(value: AttributeValue, type: KeyAttribute['type']): string | undefined {
  if (type === 'S') return value.S;
  if (type === 'B') return value.B && Buffer.from(value.B).toString('base64');
  if (value.N === undefined) return undefined;
  const check = checkDynamoNumber(value.N);
  return check.ok ? check.canonical : undefined; // the mappers check every N before an item reaches here
}
