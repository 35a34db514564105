import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { MAX_CONTAINER_DEPTH, setMember } from './attribute-rules.js';
import { decodeBase64 } from '../base64.js';
import { checkDynamoNumber } from '../dynamo-number.js';

/** A typed value that DynamoDB would refuse; the message names the attribute by its document path. */
export class TypedValueError extends Error {
  constructor(path: string, problem: string) {
    super(`attribute ${JSON.stringify(path)}: ${problem}`);
    this.name = 'TypedValueError';
  }
}

const TYPES = new Set(['S', 'N', 'B', 'BOOL', 'NULL', 'M', 'L', 'SS', 'NS', 'BS']);
const show = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 80);
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One value in DynamoDB's marshalled JSON (`{"S": "x"}`, `{"N": "1.5"}`, `{"B": "<base64>"}`, ...), checked
 * as DynamoDB checks it and turned into the SDK's AttributeValue: numbers are strings in this format, so
 * they stay exact, and each goes through the same number rules as CSV's N; binaries are decoded from
 * base64; sets must be non-empty and hold each value once ("Each value within a set must be unique ...
 * DynamoDB does not support empty sets", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html).
 * `depth` is the value's nesting level (1 for an attribute). Throws TypedValueError.
 */
export function typedValue(typed: unknown, path: string, depth: number): AttributeValue {
  const types = isPlainObject(typed) ? Object.keys(typed) : [];
  if (types.length !== 1 || !TYPES.has(types[0])) {
    throw new TypedValueError(path, `expected one typed value such as {"S": "..."} or {"N": "..."}, got ${show(typed)}`);
  }
  const type = types[0];
  const value = (typed as Record<string, unknown>)[type];
  const fail = (problem: string): never => {
    throw new TypedValueError(path, `${type} ${problem}`);
  };
  const got = `, got ${show(value)}`;
  switch (type) {
    case 'S':
      return typeof value === 'string' ? { S: value } : fail(`must be a string${got}`);
    case 'N':
      return { N: numberText(value, fail, got) };
    case 'B':
      return { B: (typeof value === 'string' && decodeBase64(value)) || fail(`must be a base64 string${got}`) };
    case 'BOOL':
      return typeof value === 'boolean' ? { BOOL: value } : fail(`must be true or false${got}`);
    case 'NULL':
      return value === true ? { NULL: true } : fail(`must be true${got}`);
    case 'M':
      return { M: typedMap(isPlainObject(value) ? value : fail(`must be an object of typed values${got}`), path, depth) };
    case 'L':
      if (!Array.isArray(value)) return fail(`must be an array of typed values${got}`);
      if (depth > MAX_CONTAINER_DEPTH) throw new TypedValueError(path, `nested deeper than DynamoDB's ${MAX_CONTAINER_DEPTH} levels`);
      return { L: value.map((element, i) => typedValue(element, `${path}[${i}]`, depth + 1)) };
    default:
      return typedSet(type, value, fail, got);
  }
}

/** The members of an M value (or of an item, at depth 0), each a typed value one level deeper. */
export function typedMap(members: Record<string, unknown>, path: string, depth: number): Record<string, AttributeValue> {
  if (depth > MAX_CONTAINER_DEPTH) throw new TypedValueError(path, `nested deeper than DynamoDB's ${MAX_CONTAINER_DEPTH} levels`);
  const map: Record<string, AttributeValue> = {};
  for (const [name, member] of Object.entries(members)) {
    const memberPath = path === '' ? name : `${path}.${name}`;
    if (name === '') throw new TypedValueError(memberPath, 'an attribute name is empty; DynamoDB refuses empty attribute names');
    setMember(map, name, typedValue(member, memberPath, depth + 1));
  }
  return map;
}

function numberText(value: unknown, fail: (problem: string) => never, got: string): string {
  if (typeof value !== 'string') return fail(`must be a string holding a number${got}`);
  const check = checkDynamoNumber(value);
  return check.ok ? value : fail(check.reason);
}

/** SS, NS, BS: a non-empty array of distinct values (numbers distinct by value, binaries by bytes). */
function typedSet(type: string, value: unknown, fail: (problem: string) => never, got: string): AttributeValue {
  if (!Array.isArray(value) || value.length === 0) return fail(`must be a non-empty array${got}`);
  const seen = new Set<string>();
  const members = value.map((member: unknown) => {
    let identity: string;
    let converted: string | Buffer;
    if (type === 'SS') {
      if (typeof member !== 'string') return fail(`members must be strings; ${show(member)} is not`);
      identity = converted = member;
    } else if (type === 'NS') {
      const check = typeof member === 'string' ? checkDynamoNumber(member) : undefined;
      if (!check?.ok) return fail(`members must be strings holding numbers DynamoDB stores; ${show(member)} is not`);
      identity = check.canonical;
      converted = member as string;
    } else {
      const bytes = typeof member === 'string' ? decodeBase64(member) : null;
      if (!bytes) return fail(`members must be base64 strings; ${show(member)} is not`);
      identity = bytes.toString('base64');
      converted = bytes;
    }
    if (seen.has(identity)) return fail(`holds ${show(member)} twice; a set holds each value once`);
    seen.add(identity);
    return converted;
  });
  if (type === 'SS') return { SS: members as string[] };
  if (type === 'NS') return { NS: members as string[] };
  return { BS: members as Buffer[] };
}
