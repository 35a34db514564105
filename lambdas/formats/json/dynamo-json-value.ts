import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { MAX_CONTAINER_DEPTH, setMember } from './attribute-rules.js';
import { decodeBase64 } from '../base64.js';
import { checkDynamoNumber } from '../../attribute-values/dynamo-number.js';
import { show as showValue } from '../../request/field-values.js';

/**
 * A typed value that DynamoDB would refuse. The attribute's document path (`m.list[2]`) is gathered on the
 * way out, so values that are fine cost no path strings.
 */
export class TypedValueError extends Error {
  /** Member names and list indexes from the item down to the bad value. */
  readonly path: Array<string | number> = [];

  constructor(readonly problem: string) {
    super(problem);
    this.name = 'TypedValueError';
  }

  /** `attribute "m.list[2]": <problem>`. */
  get reason(): string {
    const path = this.path
      .map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`))
      .join('');
    return `attribute ${JSON.stringify(path)}: ${this.problem}`;
  }
}

const show = (value: unknown) => showValue(value).slice(0, 80);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** A value of the named type that is not one; no closure per value, since nearly every value is fine. */
const wrong = (type: string, problem: string, value: unknown): never => {
  throw new TypedValueError(`${type} ${problem}, got ${show(value)}`);
};
const tooDeep = () => new TypedValueError(`nested deeper than DynamoDB's ${MAX_CONTAINER_DEPTH} levels`);

/**
 * One value in DynamoDB's marshalled JSON (`{"S": "x"}`, `{"N": "1.5"}`, `{"B": "<base64>"}`, ...), checked
 * as DynamoDB checks it and turned into the SDK's AttributeValue: numbers are strings in this format, so
 * they stay exact, and each goes through the same number rules as CSV's N; binaries are decoded from
 * base64; sets must be non-empty and hold each value once ("Each value within a set must be unique ...
 * DynamoDB does not support empty sets", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html).
 * `depth` is the value's nesting level (1 for an attribute). Throws TypedValueError.
 */
export function typedValue(typed: unknown, depth: number): AttributeValue {
  const types = isPlainObject(typed) ? Object.keys(typed) : [];
  const type = types.length === 1 ? types[0] : '';
  const value = type === '' ? undefined : (typed as Record<string, unknown>)[type];
  switch (type) {
    case 'S':
      return typeof value === 'string' ? { S: value } : wrong(type, 'must be a string', value);
    case 'N':
      return { N: numberText(value) };
    case 'B':
      return { B: (typeof value === 'string' && decodeBase64(value)) || wrong(type, 'must be a base64 string', value) };
    case 'BOOL':
      return typeof value === 'boolean' ? { BOOL: value } : wrong(type, 'must be true or false', value);
    case 'NULL':
      return value === true ? { NULL: true } : wrong(type, 'must be true', value);
    case 'M':
      return {
        M: typedMap(isPlainObject(value) ? value : wrong(type, 'must be an object of typed values', value), depth),
      };
    case 'L':
      return {
        L: typedList(Array.isArray(value) ? value : wrong(type, 'must be an array of typed values', value), depth),
      };
    case 'SS':
    case 'NS':
    case 'BS':
      return typedSet(type, value);
    default:
      throw new TypedValueError(`expected one typed value such as {"S": "..."} or {"N": "..."}, got ${show(typed)}`);
  }
}

/** The members of an M value (or of an item, at depth 0), each a typed value one level deeper. */
export function typedMap(members: Record<string, unknown>, depth: number): Record<string, AttributeValue> {
  if (depth > MAX_CONTAINER_DEPTH) throw tooDeep();
  const map: Record<string, AttributeValue> = {};
  for (const name of Object.keys(members)) {
    try {
      if (name === '') throw new TypedValueError('an attribute name is empty; DynamoDB refuses empty attribute names');
      setMember(map, name, typedValue(members[name], depth + 1));
    } catch (error) {
      if (error instanceof TypedValueError) error.path.unshift(name);
      throw error;
    }
  }
  return map;
}

function typedList(elements: unknown[], depth: number): AttributeValue[] {
  if (depth > MAX_CONTAINER_DEPTH) throw tooDeep();
  return elements.map((element, i) => {
    try {
      return typedValue(element, depth + 1);
    } catch (error) {
      if (error instanceof TypedValueError) error.path.unshift(i);
      throw error;
    }
  });
}

function numberText(value: unknown): string {
  if (typeof value !== 'string') throw new TypedValueError(`N must be a string holding a number, got ${show(value)}`);
  const check = checkDynamoNumber(value);
  if (!check.ok) throw new TypedValueError(`N ${check.reason}`);
  return value;
}

/** SS, NS, BS: a non-empty array of distinct values (numbers distinct by value, binaries by bytes). */
function typedSet(type: 'SS' | 'NS' | 'BS', value: unknown): AttributeValue {
  if (!Array.isArray(value) || value.length === 0)
    throw new TypedValueError(`${type} must be a non-empty array, got ${show(value)}`);
  const seen = new Set<string>();
  const members = value.map((member: unknown) => {
    const [identity, converted] = setEntry(type, member);
    if (seen.has(identity))
      throw new TypedValueError(`${type} holds ${show(member)} twice; a set holds each value once`);
    seen.add(identity);
    return converted;
  });
  if (type === 'SS') return { SS: members as string[] };
  if (type === 'NS') return { NS: members as string[] };
  return { BS: members as Buffer[] };
}

/** A set member's identity (what makes two members the same) and its value for the SDK. */
function setEntry(type: 'SS' | 'NS' | 'BS', member: unknown): [string, string | Buffer] {
  if (type === 'SS') {
    if (typeof member !== 'string') throw new TypedValueError(`SS members must be strings; ${show(member)} is not`);
    return [member, member];
  }
  if (type === 'NS') {
    const check = typeof member === 'string' ? checkDynamoNumber(member) : undefined;
    if (!check?.ok)
      throw new TypedValueError(`NS members must be strings holding numbers DynamoDB stores; ${show(member)} is not`);
    return [check.canonical, member as string];
  }
  const bytes = typeof member === 'string' ? decodeBase64(member) : null;
  if (!bytes) throw new TypedValueError(`BS members must be base64 strings; ${show(member)} is not`);
  return [bytes.toString('base64'), bytes];
}
