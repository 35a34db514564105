import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { checkDynamoNumber } from './dynamo-number.js';

/** An item as DynamoDB holds it: attribute names to values (a file's item, or one a read returned). */
export type AttributeMap = Record<string, AttributeValue>;

/** The attribute value types, in the order a value is checked for them (each value holds exactly one). */
const TYPES = ['S', 'N', 'B', 'BOOL', 'NULL', 'SS', 'NS', 'BS', 'L', 'M'] as const;
type ValueType = (typeof TYPES)[number];

/** The one type a value holds, or undefined for a value that holds none. */
function typeOf(value: AttributeValue): ValueType | undefined {
  return TYPES.find((type) => held(value, type) !== undefined);
}

/** What a value holds under a type's name. */
const held = (value: AttributeValue, type: ValueType): unknown => (value as Record<ValueType, unknown>)[type];

/** A number's value as text: equal values give equal text (`1.0`, `1` and `10e-1` all give `1e0`). */
export function numberValue(text: string): string {
  const check = checkDynamoNumber(text);
  return check.ok ? check.canonical : text; // a number DynamoDB would refuse never reached the table: compare as is
}

/**
 * Binary bytes as base64 text: an item read through the JSON protocol carries them as base64 text already
 * (dynamodb-transport/write-transport.ts leaves them so); a file's item as bytes.
 */
export function binaryText(value: Uint8Array | string): string {
  return typeof value === 'string'
    ? value
    : Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
}

/** Two sets, as the texts of their members, hold the same members (DynamoDB sets are unordered and without repeats). */
function sameMembers(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((member) => right.has(member));
}

/**
 * Whether two attribute values are equal as DynamoDB compares them: strings by their text, numbers by value, binary
 * by bytes, sets unordered, lists in order and maps by name, each member compared the same way, at any depth.
 *
 * @example
 * sameValue({ N: '1.0' }, { N: '1' }); // true
 * sameValue({ SS: ['a', 'b'] }, { SS: ['b', 'a'] }); // true
 * sameValue({ L: [{ S: 'a' }, { S: 'b' }] }, { L: [{ S: 'b' }, { S: 'a' }] }); // false: a list keeps its order
 */
export function sameValue(a: AttributeValue, b: AttributeValue): boolean {
  const type = typeOf(a);
  if (type === undefined || type !== typeOf(b)) return false;
  switch (type) {
    case 'N':
      return numberValue(a.N!) === numberValue(b.N!);
    case 'B':
      return binaryText(a.B!) === binaryText(b.B!);
    case 'NS':
      return sameMembers(a.NS!.map(numberValue), b.NS!.map(numberValue));
    case 'BS':
      return sameMembers(a.BS!.map(binaryText), b.BS!.map(binaryText));
    case 'SS':
      return sameMembers(a.SS!, b.SS!);
    case 'L':
      return a.L!.length === b.L!.length && a.L!.every((member, i) => sameValue(member, b.L![i]));
    case 'M':
      return differingAttributes(a.M!, b.M!).length === 0;
    default: // S, BOOL, NULL: scalars JavaScript compares as DynamoDB does
      return held(a, type) === held(b, type);
  }
}

/**
 * The names of the attributes two items do not share with equal values: held by one item only, or by both with values
 * that differ (sameValue), sorted. Empty when the items are equal.
 *
 * @example
 * differingAttributes({ id: { S: 'a' }, n: { N: '1.0' } }, { id: { S: 'a' }, n: { N: '1' }, old: { S: 'x' } });
 * // ['old']: n is equal by value; old is gone from the first item
 */
export function differingAttributes(a: AttributeMap, b: AttributeMap): string[] {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  const differ = (name: string) => !Object.hasOwn(a, name) || !Object.hasOwn(b, name) || !sameValue(a[name], b[name]);
  return [...names].filter(differ).sort();
}
