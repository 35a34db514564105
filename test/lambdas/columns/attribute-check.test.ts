import { describe, expect, it } from 'vitest';
import { checkComputedAttributes, knownNames } from '../../../lambdas/columns/attribute-check.js';
import { InvalidRequestError } from '../../../lambdas/contract/errors.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';

const KEYS: KeyAttribute[] = [
  { name: 'PK', type: 'S', role: 'HASH' },
  { name: 'SK', type: 'S', role: 'RANGE' },
];
const COLUMNS = ['user_id', 'date', 'order_id'];
const request = (fields: Record<string, unknown>, key = 'orders.csv') =>
  resolveImportRequest({ bucket: 'b', key, table: 't', ...fields });

function problems(fields: Record<string, unknown>, columns = COLUMNS, keys = KEYS): string[] {
  const resolved = request(fields);
  try {
    checkComputedAttributes(resolved, knownNames(resolved, columns, []), keys);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidRequestError);
    return (error as InvalidRequestError).problems;
  }
}

describe('checkComputedAttributes', () => {
  it('accepts templates and exclude that name columns', () => {
    const fields = { attributes: { PK: 'USER#{user_id}', SK: 'ORDER#{date}#{order_id}' }, exclude: ['user_id'] };
    expect(problems(fields)).toEqual([]);
  });

  it('fails when a template or exclude names no column, listing every problem', () => {
    const fields = { attributes: { PK: 'USER#{userid}', SK: '{date}#{id}#{id}' }, exclude: ['order', 'date'] };
    expect(problems(fields)).toEqual([
      'attributes.PK: {userid} is not among the columns [user_id, date, order_id]',
      'attributes.SK: {id} is not among the columns [user_id, date, order_id]',
      'exclude: "order" is not among the columns [user_id, date, order_id]',
    ]);
  });

  it('fails when a key attribute is excluded and not computed', () => {
    expect(problems({ exclude: ['PK'] }, ['PK', 'SK'])).toEqual([
      'exclude: "PK" is the table\'s HASH key; an item needs it',
    ]);
  });

  it("fails when a computed key is declared with another type than the table's", () => {
    expect(problems({ attributes: { PK: '{user_id}', SK: '{date}' }, types: { PK: 'N' } })).toEqual([
      "types.PK: declared N but the table's key is S",
    ]);
  });

  it("checks JSON records against the first records' fields, all objects' together", () => {
    const resolved = request({ attributes: { PK: '{a}#{b}#{c}' }, exclude: ['d'] }, 'x.jsonl');
    const known = knownNames(resolved, [], [{ fields: ['a'] }, {}, { fields: ['b', 'a'] }]);
    expect(known).toEqual({ names: ['a', 'b'], what: "the first record's fields" });
    expect(() => checkComputedAttributes(resolved, known, KEYS.slice(0, 1))).toThrow(
      /attributes.PK: \{c\} is not among the first record's fields \[a, b\].*exclude: "d" is not among/s,
    );
  });

  it('skips the name checks when no record could be read (an empty object)', () => {
    const resolved = request({ attributes: { PK: '{a}' } }, 'x.jsonl');
    expect(knownNames(resolved, [], [{}])).toBeNull();
    expect(() => checkComputedAttributes(resolved, null, KEYS.slice(0, 1))).not.toThrow();
  });
});
