import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, JsonValueError, parseJsonAttribute } from '../../../../lambdas/formats/json/exact-json.js';
import { seededRandom } from '../../../fixtures/random.js';

describe.each<{ name: string; text: string; value: AttributeValue }>([
  // Every JSON type: object M, array L, string S, number N, booleans BOOL, null NULL.
  {
    name: 'every type',
    text: '{"m":{"a":1},"l":[true,false,null],"s":"x","n":-2.5}',
    value: {
      M: {
        m: { M: { a: { N: '1' } } },
        l: { L: [{ BOOL: true }, { BOOL: false }, { NULL: true }] },
        s: { S: 'x' },
        n: { N: '-2.5' },
      },
    },
  },
  // 38 digits, the most DynamoDB keeps: a double would give 12345678901234567000000000000000000000.
  {
    name: 'a 38-digit integer',
    text: '12345678901234567890123456789012345678',
    value: { N: '12345678901234567890123456789012345678' },
  },
  // A fraction a double cannot hold (0.1 is 0.1000000000000000055511151231257827... as a double).
  {
    name: 'a 38-digit fraction',
    text: '0.12345678901234567890123456789012345678',
    value: { N: '0.12345678901234567890123456789012345678' },
  },
  // The number's own spelling is kept, exponent and all: DynamoDB normalises it, not us.
  {
    name: 'an exponent',
    text: '[1E+125, 1e-130, -0, 0.50]',
    value: { L: [{ N: '1E+125' }, { N: '1e-130' }, { N: '-0' }, { N: '0.50' }] },
  },
  // Escapes, a \u escape, a surrogate pair spelled as two escapes, and raw UTF-8.
  {
    name: 'escapes',
    text: '"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00é😀"',
    value: { S: 'a"b\\c/d\b\f\n\r\té😀é😀' },
  },
  // Whitespace around tokens is allowed; an empty object and array stay empty.
  { name: 'whitespace', text: ' \t{ "a" : [ ] ,\r\n "b" : { } } ', value: { M: { a: { L: [] }, b: { M: {} } } } },
  // A repeated member keeps the last value, as JSON.parse does.
  { name: 'a repeated member', text: '{"a":1,"a":2}', value: { M: { a: { N: '2' } } } },
])('parseJsonAttribute reads $name', ({ text, value }) => {
  it('to the attribute it holds', () => {
    expect(parseJsonAttribute(text)).toEqual(value);
  });
});

describe('parseJsonAttribute', () => {
  it('keeps a member named __proto__ as an attribute, without touching the prototype', () => {
    const value = parseJsonAttribute('{"__proto__":{"x":1}}');
    expect(Object.keys(value.M!)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value.M)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value.M, '__proto__')?.value).toEqual({ M: { x: { N: '1' } } });
  });

  it('agrees with JSON.parse on 2,000 random documents whose numbers a double holds exactly', () => {
    const random = seededRandom(9);
    const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
    const randomValue = (depth: number): unknown => {
      const kind = depth > 3 ? pick(['s', 'n', 'b', 'z']) : pick(['s', 'n', 'b', 'z', 'a', 'o']);
      if (kind === 's') return pick(['', 'x', 'é "q" \\ \n\t', '😀', '\u0001', 'a/b']);
      if (kind === 'n') return pick([0, -1, 42, 3.5, -0.25, 1e21, 1.5e-7, 123456789]);
      if (kind === 'b') return random() < 0.5;
      if (kind === 'z') return null;
      if (kind === 'a') return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(depth + 1));
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}`, randomValue(depth + 1)]),
      );
    };
    // The attribute JSON.parse's value should become; String(n) is exact for these numbers.
    const reference = (value: unknown): AttributeValue => {
      if (value === null) return { NULL: true };
      if (typeof value === 'boolean') return { BOOL: value };
      if (typeof value === 'number') return { N: String(value) };
      if (typeof value === 'string') return { S: value };
      if (Array.isArray(value)) return { L: value.map(reference) };
      return { M: Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, reference(v)])) };
    };
    for (let i = 0; i < 2000; i++) {
      const text = JSON.stringify(randomValue(0), null, i % 2 === 0 ? undefined : 1);
      expect(parseJsonAttribute(text)).toEqual(reference(JSON.parse(text)));
    }
  });
});

describe.each([
  // Each of these JSON.parse refuses too (checked below): the grammar is RFC 8259's, no more, no less.
  { text: '{x:1}', message: 'expected a string key "x" at column 2' },
  { text: '{"a":1,}', message: 'expected a string key "}" at column 8' },
  { text: '[1,2', message: "expected ',' or ']' at column 5, where the text ends" },
  { text: '01', message: 'unexpected text after the JSON value "1" at column 2' },
  { text: '1.', message: 'a number needs a digit after the point' },
  { text: '+1', message: 'unexpected character "+" at column 1' },
  { text: '.5', message: 'unexpected character "."' },
  { text: '1e', message: 'a number needs a digit in its exponent' },
  { text: 'NaN', message: 'unexpected character "N"' },
  { text: "'a'", message: 'unexpected character "\'"' },
  { text: '"tab\there"', message: 'a control character in a string must be escaped "\\t" at column 5' },
  { text: '"open', message: 'a string is not closed' },
  { text: '"\\x"', message: 'unknown escape in a string' },
  { text: '"\\u12"', message: '\\u needs four hex digits' },
  { text: 'nul', message: 'unexpected character "n"' },
  { text: '', message: 'the text ends where a value should be' },
  { text: '{"a" 1}', message: "expected ':'" },
  // Valid JSON after a storability problem: the syntax error is what is reported.
  { text: '[1e400, x]', message: 'unexpected character "x"' },
])('parseJsonAttribute($text)', ({ text, message }) => {
  it('fails when the text is not JSON, saying what and where', () => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => parseJsonAttribute(text)).toThrow(JsonSyntaxError);
    expect(() => parseJsonAttribute(text)).toThrow(message);
  });
});

/** Nested arrays `levels` deep. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe.each([
  // Out of DynamoDB's range: JSON.parse gives Infinity and 0, and 0 was silently stored before.
  {
    name: 'a number is too large',
    text: '[1e400]',
    message: "number 1e400 is outside DynamoDB's range (1E-130 to 9.99E+125)",
  },
  { name: 'a number is too small', text: '{"v":1e-400}', message: 'number 1e-400 is outside' },
  {
    name: 'a number has 39 digits',
    text: '123456789012345678901234567890123456789',
    message: 'has 39 significant digits; DynamoDB keeps 38',
  },
  // Long fractions are checked too (more than 38 characters without an exponent).
  { name: 'a fraction has 39 digits', text: `0.${'1'.repeat(39)}`, message: 'has 39 significant digits' },
  {
    name: 'an object key is empty',
    text: '{"":1}',
    message: 'an object key is empty; DynamoDB refuses empty attribute names',
  },
  { name: 'a string holds a lone surrogate', text: '"\\ud800x"', message: 'lone UTF-16 surrogate (\\ud800)' },
  { name: 'a low surrogate comes first', text: '"\\udc00\\ud800"', message: 'lone UTF-16 surrogate (\\udc00)' },
  // 32 levels of lists in one attribute: DynamoDB nests 32 levels counting the item.
  { name: 'lists nest 32 levels', text: nested(32), message: "nested deeper than DynamoDB's 31 levels" },
])('parseJsonAttribute', ({ name, text, message }) => {
  it(`fails when ${name}, though the text is JSON`, () => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(() => parseJsonAttribute(text)).toThrow(JsonValueError);
    expect(() => parseJsonAttribute(text)).toThrow(message);
  });
});

describe('parseJsonAttribute depth', () => {
  it('counts from the level it is given: an item (level 0) holds 31 levels below it, an attribute 30 more', () => {
    expect(parseJsonAttribute(nested(31))).toBeDefined();
    expect(() => parseJsonAttribute(`{"a":${nested(31)}}`)).toThrow(JsonValueError);
    expect(parseJsonAttribute(`{"a":${nested(31)}}`, 0)).toBeDefined();
  });
});
