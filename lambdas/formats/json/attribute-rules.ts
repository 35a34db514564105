import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { checkDynamoNumber } from '../../attribute-values/dynamo-number.js';

/**
 * DynamoDB nests 32 levels, the item being the first: an attribute holds at most 31 levels of lists and
 * maps ("DynamoDB supports nested attributes up to 32 levels deep":
 * https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).
 */
export const MAX_CONTAINER_DEPTH = 31;

/**
 * Why DynamoDB cannot store a JSON number exactly, or undefined when it can. Worded as the CSV `JSON` type
 * always said it: "number 1e400 is outside DynamoDB's range ...".
 */
export function jsonNumberProblem(text: string): string | undefined {
  const check = checkDynamoNumber(text);
  if (check.ok) return undefined;
  if (check.reason.includes('significant digits')) return `number ${check.reason.replace(JSON.stringify(text), text)}`;
  return `number ${text} is outside DynamoDB's range (1E-130 to 9.99E+125)`;
}

/**
 * Sets a map member as JSON.parse does (a repeated name keeps the last value). `__proto__` is defined as an
 * own property: assigning it would set the map's prototype and lose the attribute.
 */
export function setMember(map: Record<string, AttributeValue>, name: string, value: AttributeValue): void {
  if (name === '__proto__')
    Object.defineProperty(map, name, { value, enumerable: true, writable: true, configurable: true });
  else map[name] = value;
}
