import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { checkDynamoNumber } from '../../../lambdas/attribute-values/dynamo-number.js';

type Item = Record<string, AttributeValue>;

/** A number by value: DynamoDB gives back 1500 for -1.5E+3 as written, 0.25 for .250. */
const canonical = (n: string) => {
  const check = checkDynamoNumber(n);
  return check.ok ? check.canonical : `not a number: ${n}`;
};
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/**
 * An attribute in a form two sources of the same data agree on: numbers by value, binaries as base64
 * (the SDK returns Uint8Array, the fixtures hold Buffers), sets sorted (DynamoDB keeps no set order).
 */
export function normalizeValue(value: AttributeValue): unknown {
  if (value.N !== undefined) return { N: canonical(value.N) };
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.SS !== undefined) return { SS: [...value.SS].sort() };
  if (value.NS !== undefined) return { NS: value.NS.map(canonical).sort() };
  if (value.BS !== undefined) return { BS: value.BS.map(base64).sort() };
  if (value.L !== undefined) return { L: value.L.map(normalizeValue) };
  if (value.M !== undefined) return { M: normalizeItem(value.M) };
  return value;
}

export function normalizeItem(item: Item): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).map(([name, value]) => [name, normalizeValue(value)]));
}

/** Items normalized and sorted by their key attributes' values, so two lists compare item by item. */
export function comparable(items: readonly Item[], keys: readonly string[]): Array<Record<string, unknown>> {
  const keyOf = (item: Record<string, unknown>) => JSON.stringify(keys.map((k) => item[k]));
  return items.map(normalizeItem).sort((a, b) => (keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0));
}
