import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { plainIntegerDigits } from '../attribute-values/dynamo-number.js';

/** DynamoDB's item size limit: 400 KB, counted in bytes of names plus values. */
export const MAX_ITEM_BYTES = 400 * 1024;

/**
 * The size DynamoDB counts for an item: UTF-8 bytes of each attribute name plus its value; numbers about
 * one byte per two significant digits plus one; lists and maps 3 bytes plus 1 per element
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html). Those
 * rules name no overhead for sets: a set counts as the sum of its members.
 */
export function itemSize(item: Record<string, AttributeValue>): number {
  let size = 0;
  for (const [name, value] of Object.entries(item)) size += Buffer.byteLength(name, 'utf8') + attributeValueSize(value);
  return size;
}

/** About one byte per two digits, leading zeros not counted, plus one; a plain integer skips the regexes. */
function numberSize(n: string): number {
  const digits = plainIntegerDigits(n) || n.replace(/[^0-9]/g, '').replace(/^0+/, '').length;
  return Math.ceil(digits / 2) + 1;
}

/** The size DynamoDB counts for one attribute value (without its name). */
export function attributeValueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S, 'utf8');
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.length;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.L !== undefined) return 3 + value.L.reduce((sum, v) => sum + 1 + attributeValueSize(v), 0);
  if (value.M !== undefined) return 3 + itemSize(value.M) + Object.keys(value.M).length;
  if (value.SS !== undefined) return value.SS.reduce((sum, s) => sum + Buffer.byteLength(s, 'utf8'), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, n) => sum + numberSize(n), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, b) => sum + b.length, 0);
  return 0;
}
