import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../write/item-sink.js';
import { MAX_ITEM_BYTES, attributeValueSize, itemSize } from '../attribute-size.js';
import { decodeBase64 } from '../base64.js';
import { checkDynamoNumber } from '../../attribute-values/dynamo-number.js';
import { readTtl } from '../ttl.js';
import { JsonSyntaxError, JsonValueError, parseJsonAttribute } from '../json/exact-json.js';
import type { MappedRecord } from '../record-format.js';
import type { ColumnType } from '../../contract/import-request.js';
import type { KeyAttribute } from '../../contract/workflow-payloads.js';

/** A row became an item (with its key as a string, for de-duplication), or was rejected with a reason. */
export type MappedRow = MappedRecord;

type ValueType = ColumnType | 'B';
type Converted = { ok: true; value: AttributeValue; canonical: string } | { ok: false; reason: string };

export interface RowMapperOptions {
  readonly columns: readonly string[];
  readonly types: Readonly<Record<string, ColumnType>>;
  readonly keys: readonly KeyAttribute[];
}

/**
 * Builds the function that turns a parsed record into a DynamoDB item: types applied, empty fields
 * omitted, key attributes required, values validated (a bad value rejects the row; nothing is coerced).
 * Key types come from the table, whatever `types` says (preflight rejects a contradiction).
 */
export function createRowMapper({ columns, types, keys }: RowMapperOptions): (fields: string[]) => MappedRow {
  const keyTypes = new Map<string, ValueType>(keys.map((k) => [k.name, k.type]));
  // Object.hasOwn: a column named "constructor" or "toString" must not find Object.prototype's function.
  const typeOf = (name: string): ValueType => keyTypes.get(name) ?? (Object.hasOwn(types, name) ? types[name] : 'S');
  const plan = columns.map((name) => ({
    name,
    type: typeOf(name),
    /** Where this column's canonical value goes in the key string, or -1 for a non-key column. */
    keyPart: keys.findIndex((k) => k.name === name),
    nameBytes: Buffer.byteLength(name, 'utf8'),
  }));
  // The item's size is added up column by column; a repeated column name (the last one wins) is measured whole.
  const namesRepeat = new Set(columns).size !== columns.length;

  return (fields) => {
    if (fields.length !== plan.length) {
      return { ok: false, reason: `expected ${plan.length} fields, got ${fields.length}` };
    }
    const item: Item = {};
    const keyParts: string[] = [];
    let size = 0;
    for (let i = 0; i < plan.length; i++) {
      const { name, type, keyPart, nameBytes } = plan[i];
      const text = fields[i];
      if (text === '') {
        if (keyPart >= 0) return { ok: false, reason: `key attribute ${JSON.stringify(name)} is empty` };
        continue;
      }
      if (type === 'S') {
        // Most columns: inline, without convert's result object per field.
        item[name] = { S: text };
        size += nameBytes + Buffer.byteLength(text, 'utf8');
        if (keyPart >= 0) keyParts[keyPart] = text;
        continue;
      }
      const converted = convert(text, type);
      if (!converted.ok) return { ok: false, reason: `column ${JSON.stringify(name)}: ${converted.reason}` };
      item[name] = converted.value;
      size += nameBytes + attributeValueSize(converted.value);
      if (keyPart >= 0) keyParts[keyPart] = converted.canonical;
    }
    if (namesRepeat) size = itemSize(item);
    if (size > MAX_ITEM_BYTES) {
      return { ok: false, reason: `item is ${size} bytes, over DynamoDB's ${MAX_ITEM_BYTES}-byte (400 KB) limit` };
    }
    return { ok: true, item, key: keyParts.join('\u0000') };
  };
}

function convert(text: string, type: ValueType): Converted {
  switch (type) {
    case 'S':
      return { ok: true, value: { S: text }, canonical: text };
    case 'N': {
      const check = checkDynamoNumber(text);
      return check.ok ? { ok: true, value: { N: text }, canonical: check.canonical } : check;
    }
    case 'BOOL':
      return convertBoolean(text);
    case 'JSON':
      return convertJson(text);
    case 'B':
      return convertBinary(text);
    case 'TTL': {
      const ttl = readTtl(text);
      return ttl.ok ? { ok: true, value: { N: ttl.epochSeconds }, canonical: ttl.epochSeconds } : ttl;
    }
  }
}

/** Only the spellings of true and false; "yes", "1" or "maybe" are rejected rather than guessed. */
function convertBoolean(text: string): Converted {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false') return { ok: true, value: { BOOL: lower === 'true' }, canonical: lower };
  return { ok: false, reason: `not a boolean (true or false): ${JSON.stringify(text)}` };
}

/** JSON text read exactly (numbers keep their digits: formats/json/exact-json.ts). */
function convertJson(text: string): Converted {
  try {
    return { ok: true, value: parseJsonAttribute(text), canonical: text };
  } catch (error) {
    if (error instanceof JsonSyntaxError) return { ok: false, reason: `invalid JSON: ${error.message}` };
    if (error instanceof JsonValueError)
      return { ok: false, reason: `JSON that DynamoDB cannot store: ${error.message}` };
    throw error;
  }
}

/** Binary key attributes are written in the file as base64. */
function convertBinary(text: string): Converted {
  const bytes = decodeBase64(text);
  if (!bytes) return { ok: false, reason: `not base64 for a binary key: ${JSON.stringify(text)}` };
  return { ok: true, value: { B: bytes }, canonical: text };
}
