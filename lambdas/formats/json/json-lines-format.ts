import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { decodeBase64 } from '../base64.js';
import { JsonSyntaxError, JsonValueError, parseJsonAttribute } from './exact-json.js';
import { createItemTransform, type ItemTransform } from './computed-item.js';
import { finishItem } from './item-keys.js';
import { LINE_DIALECT, lineText, readLinesStart, type LineItem } from './json-lines.js';
import type { MappedRecord, RawRecord, RecordFormat } from '../record-format.js';
import type { KeyAttribute } from '../../contract/workflow-payloads.js';

/** The line's object is the item, level 0; its attributes are level 1, as CSV columns are. */
const ITEM_DEPTH = 0;

/**
 * JSON Lines: one JSON object per line, its top-level fields the item's attributes, typed as the CSV
 * `JSON` type types values (object M, array L, string S, number N exactly as written, boolean BOOL,
 * null NULL). Key attributes must have the table's type; a B key is written as a base64 string, since
 * JSON has no binary. Blank lines are skipped (by the importer, as for CSV).
 */
export function jsonLinesFormat(): RecordFormat {
  return {
    dialect: LINE_DIALECT,
    readStart: (read, size, keys) => readLinesStart(read, size, keys, (record) => jsonLineItem(record, keys)),
    createMapper(schema) {
      const transform = createItemTransform(schema) ?? undefined;
      // A computed key replaces the record's field of its name: that field is not decoded as a key.
      const inRecord = schema.keys.filter((key) => !Object.hasOwn(schema.attributes ?? {}, key.name));
      return (records) => records.map((record) => mapJsonLine(record, schema.keys, transform, inRecord));
    },
  };
}

/**
 * One line to an item, or the reason it is rejected. `recordKeys`: the key attributes the line itself holds (B ones
 * are decoded from base64), all of `keys` but those computed by `transform`.
 */
export function mapJsonLine(
  record: RawRecord,
  keys: readonly KeyAttribute[],
  transform?: ItemTransform,
  recordKeys = keys,
): MappedRecord {
  const line = jsonLineItem(record, recordKeys);
  const ready = transform && 'item' in line ? transform(line.item) : line;
  return 'item' in ready ? finishItem(ready.item, keys) : ready;
}

/** The line's object as an item (B keys decoded from base64), before the key and size checks. */
function jsonLineItem(record: RawRecord, keys: readonly KeyAttribute[]): LineItem {
  const line = lineText(record);
  if (!('text' in line)) return line;
  let value: AttributeValue;
  try {
    value = parseJsonAttribute(line.text, ITEM_DEPTH);
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, reason: `invalid JSON: ${error.message}` };
    if (error instanceof JsonValueError)
      return { ok: false, reason: `JSON that DynamoDB cannot store: ${error.message}` };
    throw error;
  }
  if (value.M === undefined)
    return { ok: false, reason: `not a JSON object: the line holds ${describeAttribute(value)}` };
  const item = value.M;
  for (const key of keys) {
    const keyValue = Object.hasOwn(item, key.name) ? item[key.name] : undefined;
    if (key.type !== 'B' || keyValue?.S === undefined) continue;
    const bytes = decodeBase64(keyValue.S);
    if (!bytes)
      return {
        ok: false,
        reason: `key attribute ${JSON.stringify(key.name)}: not base64 for a binary key: ${JSON.stringify(keyValue.S)}`,
      };
    item[key.name] = { B: bytes };
  }
  return { item };
}

function describeAttribute(value: AttributeValue): string {
  if (value.L) return 'an array';
  if (value.S !== undefined) return 'a string';
  if (value.N !== undefined) return 'a number';
  if (value.BOOL !== undefined) return 'a boolean';
  return 'null';
}
