import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Item } from '../../write/item-sink.js';
import { MAX_ITEM_BYTES, itemSize } from '../attribute-size.js';
import { checkDynamoNumber } from '../dynamo-number.js';
import type { MappedRecord } from '../record-format.js';
import type { ColumnType } from '../../request/import-request.js';
import type { KeyAttribute } from '../../request/workflow-payloads.js';

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
  const plan = columns.map((name) => ({ name, type: typeOf(name), isKey: keyTypes.has(name) }));
  const keyIndexes = keys.map((k) => columns.indexOf(k.name));

  return (fields) => {
    if (fields.length !== plan.length) {
      return { ok: false, reason: `expected ${plan.length} fields, got ${fields.length}` };
    }
    const item: Item = {};
    const keyParts: string[] = [];
    for (let i = 0; i < plan.length; i++) {
      const { name, type, isKey } = plan[i];
      const text = fields[i];
      if (text === '') {
        if (isKey) return { ok: false, reason: `key attribute ${JSON.stringify(name)} is empty` };
        continue;
      }
      const converted = convert(text, type);
      if (!converted.ok) return { ok: false, reason: `column ${JSON.stringify(name)}: ${converted.reason}` };
      item[name] = converted.value;
      if (isKey) keyParts[keyIndexes.indexOf(i)] = converted.canonical;
    }
    const size = itemSize(item);
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
  }
}

/** Only the spellings of true and false; "yes", "1" or "maybe" are rejected rather than guessed. */
function convertBoolean(text: string): Converted {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'false') return { ok: true, value: { BOOL: lower === 'true' }, canonical: lower };
  return { ok: false, reason: `not a boolean (true or false): ${JSON.stringify(text)}` };
}

function convertJson(text: string): Converted {
  try {
    return { ok: true, value: toAttributeValue(JSON.parse(text)), canonical: text };
  } catch (error) {
    const what = error instanceof SyntaxError ? 'invalid JSON' : 'JSON that DynamoDB cannot store';
    return { ok: false, reason: `${what}: ${(error as Error).message}` };
  }
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Binary key attributes are written in the file as base64. */
function convertBinary(text: string): Converted {
  if (!BASE64.test(text)) return { ok: false, reason: `not base64 for a binary key: ${JSON.stringify(text)}` };
  return { ok: true, value: { B: Buffer.from(text, 'base64') }, canonical: text };
}

/** DynamoDB nests 32 levels, the item being the first: an attribute holds at most 31 levels of lists and maps. */
const MAX_CONTAINER_DEPTH = 31;

/**
 * A parsed JSON value as a DynamoDB attribute: objects become maps, arrays lists. Throws on what DynamoDB
 * would refuse (a number out of its range, an empty map key, nesting too deep), since one such item makes
 * BatchWriteItem fail the whole batch; the row is rejected instead.
 */
export function toAttributeValue(value: unknown, depth = 1): AttributeValue {
  if (value === null) return { NULL: true };
  if (typeof value === 'boolean') return { BOOL: value };
  if (typeof value === 'number') return jsonNumber(value);
  if (typeof value === 'string') return { S: value };
  if (depth > MAX_CONTAINER_DEPTH) throw new RangeError(`nested deeper than DynamoDB's ${MAX_CONTAINER_DEPTH} levels`);
  if (Array.isArray(value)) return { L: value.map((v) => toAttributeValue(v, depth + 1)) };
  const map: Record<string, AttributeValue> = {};
  for (const [k, v] of Object.entries(value as object)) {
    if (k === '') throw new RangeError('an object key is empty; DynamoDB refuses empty attribute names');
    map[k] = toAttributeValue(v, depth + 1);
  }
  return { M: map };
}

/** JSON.parse reads 1e400 as Infinity and keeps 1e-200; a double has at most 17 digits, so only range fails. */
function jsonNumber(value: number): AttributeValue {
  const text = String(value);
  if (!checkDynamoNumber(text).ok) {
    throw new RangeError(`number ${text} is outside DynamoDB's range (1E-130 to 9.99E+125)`);
  }
  return { N: text };
}
