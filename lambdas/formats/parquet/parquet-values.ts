import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { SchemaElement, SchemaTree } from 'hyparquet';
import { checkDynamoNumber } from '../../attribute-values/dynamo-number.js';

/**
 * A value of a Parquet column as DynamoDB stores it, or why the row cannot be stored. The table it follows
 * (README, "Formats"): integers N exact (INT64 past 2^53 keeps every digit: the reader gives BigInt), DECIMAL N
 * exact with its scale, FLOAT/DOUBLE N as the shortest text that round-trips (NaN and ±Infinity reject the row),
 * BOOLEAN BOOL, text types S (DATE and TIMESTAMP as ISO 8601 UTC: parquet-parsers.ts), other bytes B, LIST L, MAP and STRUCT M, a
 * null inside them NULL. A top-level null is left to the caller (the attribute is omitted).
 */
export type MappedValue = { readonly ok: true; readonly value: AttributeValue } | { ok: false; reason: string };

const utf8 = new TextDecoder();

export const isDecimal = (e: SchemaElement) => e.converted_type === 'DECIMAL' || e.logical_type?.type === 'DECIMAL';
const isEnum = (e: SchemaElement) => e.converted_type === 'ENUM' || e.logical_type?.type === 'ENUM';
export const isList = (e: SchemaElement) => e.converted_type === 'LIST' || e.logical_type?.type === 'LIST';
export const isMap = (e: SchemaElement) =>
  e.converted_type === 'MAP' || e.converted_type === 'MAP_KEY_VALUE' || e.logical_type?.type === 'MAP';

/** A two's complement big-endian integer (a DECIMAL's BYTE_ARRAY or FIXED_LEN_BYTE_ARRAY) as a BigInt. */
function signedBigEndian(bytes: Uint8Array): bigint {
  let value = 0n;
  for (const byte of bytes) value = (value << 8n) | BigInt(byte);
  return bytes.length > 0 && bytes[0] >= 0x80 ? value - (1n << BigInt(bytes.length * 8)) : value;
}

/** The unscaled integer `raw` x 10^-scale as plain decimal text without trailing zeros: 1250, 2 -> "12.5". */
export function decimalText(raw: number | bigint | Uint8Array, scale: number): string {
  const unscaled = raw instanceof Uint8Array ? signedBigEndian(raw) : BigInt(raw);
  const negative = unscaled < 0n;
  const digits = (negative ? -unscaled : unscaled).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  const text = fraction ? `${whole}.${fraction}` : whole;
  return negative && text !== '0' ? `-${text}` : text;
}

/**
 * Significant digits that always read back as the same float32 (FLT_DECIMAL_DIG, IEEE 754's 9 for binary32); some
 * floats need all 9, e.g. 16777215 x 2^-24 (0.99999994) or 1.00000012 (the float after 1).
 */
const FLOAT32_DIGITS = 9;

/** A FLOAT (32-bit) as the fewest digits that read back as the same float: 0.1f is "0.1", not 0.10000000149. */
export function float32Text(value: number): string {
  for (let precision = 1; precision < FLOAT32_DIGITS; precision++) {
    const text = value.toPrecision(precision);
    if (Math.fround(Number(text)) === value) return String(Number(text));
  }
  return String(Number(value.toPrecision(FLOAT32_DIGITS)));
}

function numberValue(text: string): MappedValue {
  const check = checkDynamoNumber(text);
  return check.ok ? { ok: true, value: { N: text } } : { ok: false, reason: check.reason };
}

function floatValue(value: number, element: SchemaElement): MappedValue {
  if (Number.isNaN(value)) return { ok: false, reason: 'NaN: DynamoDB numbers have no NaN' };
  if (!Number.isFinite(value)) return { ok: false, reason: `${value}: DynamoDB numbers have no Infinity` };
  return numberValue(element.type === 'FLOAT' ? float32Text(value) : String(value));
}

/** One leaf (primitive column) value, not null, as the reader gives it for `element`. */
export function leafValue(value: unknown, element: SchemaElement): MappedValue {
  if (isDecimal(element)) {
    // Writers set the scale on the element (converted type) and on the logical type; newer ones may set only the latter.
    const logical = element.logical_type?.type === 'DECIMAL' ? element.logical_type.scale : undefined;
    return numberValue(decimalText(value as number | bigint | Uint8Array, element.scale ?? logical ?? 0));
  }
  switch (typeof value) {
    case 'string':
      return { ok: true, value: { S: value } };
    case 'boolean':
      return { ok: true, value: { BOOL: value } };
    case 'bigint':
      return numberValue(value.toString());
    case 'number':
      return element.type === 'FLOAT' || element.type === 'DOUBLE' || element.logical_type?.type === 'FLOAT16'
        ? floatValue(value, element)
        : numberValue(String(value));
  }
  if (value instanceof Uint8Array) {
    return isEnum(element) ? { ok: true, value: { S: utf8.decode(value) } } : { ok: true, value: { B: value } };
  }
  return { ok: false, reason: `column ${element.name}: a value of an unsupported Parquet type` };
}

const NULL: MappedValue = { ok: true, value: { NULL: true } };

/** The element node of a LIST group: `<list> repeated group list { element }` or a legacy 2-level list. */
function listElement(node: SchemaTree): SchemaTree {
  const repeated = node.children[0];
  return repeated.children.length === 1 ? repeated.children[0] : repeated;
}

/** Maps the items of an array or object, failing on the first that cannot be stored. */
function mapEach(values: unknown[], node: SchemaTree): MappedValue {
  const list: AttributeValue[] = [];
  for (const value of values) {
    const mapped = nestedValue(value, node);
    if (!mapped.ok) return mapped;
    list.push(mapped.value);
  }
  return { ok: true, value: { L: list } };
}

function mapFields(entries: [string, unknown, SchemaTree][]): MappedValue {
  const map: Record<string, AttributeValue> = {};
  for (const [name, value, node] of entries) {
    const mapped = nestedValue(value, node);
    if (!mapped.ok) return mapped;
    map[name] = mapped.value;
  }
  return { ok: true, value: { M: map } };
}

/** A value of `node` inside a LIST, MAP or STRUCT: null (or absent) is NULL there. */
function nestedValue(value: unknown, node: SchemaTree): MappedValue {
  return value === null || value === undefined ? NULL : columnValue(value, node);
}

/** A column's value, not null, through its schema node: groups become L or M, leaves as leafValue says. */
export function columnValue(value: unknown, node: SchemaTree): MappedValue {
  const { element, children } = node;
  if (isList(element)) return mapEach(value as unknown[], listElement(node));
  if (isMap(element)) {
    const valueNode = node.children[0].children[1];
    return mapFields(Object.entries(value as object).map(([k, v]) => [k, v, valueNode]));
  }
  if (children.length > 0) {
    const fields = value as Record<string, unknown>;
    return mapFields(children.map((child) => [child.element.name, fields[child.element.name], child]));
  }
  // A repeated primitive without a LIST annotation (legacy writers): a list of its values.
  if (element.repetition_type === 'REPEATED' && Array.isArray(value)) return mapEach(value, { ...node, children: [] });
  return leafValue(value, element);
}
