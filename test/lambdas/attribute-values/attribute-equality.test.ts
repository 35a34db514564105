import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { differingAttributes, sameValue } from '../../../lambdas/attribute-values/attribute-equality.js';

const bytes = (text: string) => new Uint8Array(Buffer.from(text));
const base64 = (text: string) => Buffer.from(text).toString('base64');

describe('sameValue: DynamoDB equality', () => {
  describe.each<[string, AttributeValue, AttributeValue, boolean]>([
    // Numbers compare by value, whatever the spelling.
    ['1.0 and 1 are one number', { N: '1.0' }, { N: '1' }, true],
    ['1e1 and 10 are one number', { N: '1e1' }, { N: '10' }, true],
    ['-0 and 0 are one number', { N: '-0' }, { N: '0' }, true],
    ['0.10 and .1 are one number', { N: '0.10' }, { N: '.1' }, true],
    ['1.5 and 1 differ', { N: '1.5' }, { N: '1' }, false],
    // 38 significant digits: no rounding through a double (these two are one double).
    [
      'numbers that differ in the 38th digit',
      { N: '1234567890123456789012345678901234567.1' },
      { N: '1234567890123456789012345678901234567.2' },
      false,
    ],
    // Strings compare by their text, exactly.
    ['equal strings', { S: 'a' }, { S: 'a' }, true],
    ['strings that differ in case', { S: 'a' }, { S: 'A' }, false],
    // A number and its text are different types.
    ['a number and a string of its digits', { N: '1' }, { S: '1' }, false],
    // Binary by bytes: a file's bytes against the base64 text a read returns.
    ['bytes and their base64 text', { B: bytes('raw') }, { B: base64('raw') as never }, true],
    ['different bytes', { B: bytes('raw') }, { B: bytes('rae') }, false],
    // Sets are unordered; members compare as their type does.
    ['a string set in another order', { SS: ['a', 'b', 'c'] }, { SS: ['c', 'a', 'b'] }, true],
    ['a string set with one more member', { SS: ['a', 'b'] }, { SS: ['a', 'b', 'c'] }, false],
    ['a number set of other spellings', { NS: ['1.0', '2'] }, { NS: ['2', '1'] }, true],
    [
      'a binary set in another order',
      { BS: [bytes('x'), bytes('y')] },
      { BS: [base64('y'), base64('x')] as never },
      true,
    ],
    // Lists keep their order; maps compare by name, deep.
    ['a list in another order', { L: [{ S: 'a' }, { S: 'b' }] }, { L: [{ S: 'b' }, { S: 'a' }] }, false],
    ['lists equal member by member', { L: [{ N: '1.0' }, { S: 'b' }] }, { L: [{ N: '1' }, { S: 'b' }] }, true],
    [
      'maps equal deep, names in any order',
      { M: { a: { N: '1' }, b: { M: { c: { SS: ['x', 'y'] } } } } },
      { M: { b: { M: { c: { SS: ['y', 'x'] } } }, a: { N: '1.0' } } },
      true,
    ],
    ['a map with one more attribute', { M: { a: { N: '1' } } }, { M: { a: { N: '1' }, b: { NULL: true } } }, false],
    ['booleans', { BOOL: true }, { BOOL: false }, false],
    ['nulls', { NULL: true }, { NULL: true }, true],
  ])('%s', (_case, a, b, equal) => {
    it(`is ${equal ? 'equal' : 'different'} both ways`, () => {
      expect(sameValue(a, b)).toBe(equal);
      expect(sameValue(b, a)).toBe(equal);
    });
  });
});

describe('differingAttributes', () => {
  it('names the attributes added, gone or different, sorted; none for equal items', () => {
    const table = { id: { S: 'k' }, price: { N: '1' }, note: { S: 'old' }, tags: { SS: ['a', 'b'] } };
    const file = { id: { S: 'k' }, price: { N: '1.00' }, tags: { SS: ['b', 'a', 'c'] }, colour: { S: 'red' } };
    expect(differingAttributes(file, table)).toEqual(['colour', 'note', 'tags']);
    expect(differingAttributes(table, { ...table, price: { N: '1.0' } })).toEqual([]);
  });
});
