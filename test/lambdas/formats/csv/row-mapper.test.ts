import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { MAX_ITEM_BYTES, itemSize } from '../../../../lambdas/formats/attribute-size.js';
import { checkDynamoNumber } from '../../../../lambdas/attribute-values/dynamo-number.js';
import { createRowMapper } from '../../../../lambdas/formats/csv/row-mapper.js';
import type { Item } from '../../../../lambdas/write/item-sink.js';
import { seededRandom } from '../../../fixtures/random.js';
import type { KeyAttribute } from '../../../../lambdas/contract/workflow-payloads.js';

describe.each([
  // Integers, signs, fractions without a leading digit and exponents are all plain DynamoDB numbers.
  { text: '42', canonical: '42e0' },
  { text: '-0.5', canonical: '-5e-1' },
  { text: '1e10', canonical: '1e10' },
  { text: '.5', canonical: '5e-1' },
  { text: '+7', canonical: '7e0' },
  // The smallest magnitude DynamoDB stores: leading digit at 10^-130.
  { text: '1E-130', canonical: '1e-130' },
  // The largest: 38 nines with the leading one at 10^125; the last nine is at 10^(125-37) = 10^88.
  { text: '9.9999999999999999999999999999999999999E+125', canonical: '99999999999999999999999999999999999999e88' },
  // 38 significant digits is the most DynamoDB keeps.
  { text: '12345678901234567890123456789012345678', canonical: '12345678901234567890123456789012345678e0' },
  // Trailing zeros are not significant: 1 followed by 40 zeros is one digit at 10^40.
  { text: `1${'0'.repeat(40)}`, canonical: '1e40' },
  // Every zero is the same zero.
  { text: '-0.000', canonical: '0' },
  // Plain integers (the fast path): trailing zeros become the exponent.
  { text: '1810', canonical: '181e1' },
  { text: '-1000', canonical: '-1e3' },
  { text: `9${'0'.repeat(37)}`, canonical: '9e37' },
])('checkDynamoNumber accepts $text', ({ text, canonical }) => {
  it(`with canonical form ${canonical}`, () => {
    expect(checkDynamoNumber(text)).toEqual({ ok: true, canonical });
  });
});

describe('checkDynamoNumber on plain integers', () => {
  it('gives the canonical form of the same number written with a fraction or an exponent', () => {
    // "N", "N.0" and "Ne0" are one number: the first takes the plain-integer path, the others the general one.
    const pick = seededRandom(3);
    for (let i = 0; i < 2000; i++) {
      const length = 1 + Math.floor(pick() * 38);
      const digits = Array.from({ length }, (_, d) =>
        String(Math.floor(pick() * (d === 0 ? 9 : 10)) + (d === 0 ? 1 : 0)),
      );
      const zeros = Math.floor(pick() * Math.min(4, length)); // some end in zeros
      const text = `${pick() < 0.3 ? '-' : ''}${digits.slice(0, length - zeros).join('')}${'0'.repeat(zeros)}`;
      const plain = checkDynamoNumber(text);
      expect(plain.ok, text).toBe(true);
      expect(checkDynamoNumber(`${text}.0`), text).toEqual(plain);
      expect(checkDynamoNumber(`${text}e0`), text).toEqual(plain);
    }
  });
});

describe.each([
  // 1e400 has its leading digit at 10^400 > 10^125.
  { text: '1e400', reason: '"1e400" is outside DynamoDB\'s number range (1E-130 to 9.99E+125)' },
  // One decade below the smallest magnitude.
  { text: '1E-131', reason: '"1E-131" is outside DynamoDB\'s number range (1E-130 to 9.99E+125)' },
  // 39 significant digits: DynamoDB would round, so the row is rejected rather than changed.
  { text: '123456789012345678901234567890123456789', reason: 'has 39 significant digits; DynamoDB keeps 38' },
  // Not numbers at all: trailing text, spaces (nothing is trimmed), empty, hex, NaN, thousands separators.
  { text: '12abc', reason: 'not a number: "12abc"' },
  { text: ' 42 ', reason: 'not a number: " 42 "' },
  { text: '', reason: 'not a number: ""' },
  { text: '0x10', reason: 'not a number: "0x10"' },
  { text: 'NaN', reason: 'not a number: "NaN"' },
  { text: 'Infinity', reason: 'not a number: "Infinity"' },
  { text: '1,000', reason: 'not a number: "1,000"' },
  // Signs, points or exponents without digits.
  { text: '.', reason: 'not a number: "."' },
  { text: '-', reason: 'not a number: "-"' },
  { text: '1e', reason: 'not a number: "1e"' },
])('checkDynamoNumber rejects $text', ({ text, reason }) => {
  it('fails when the text is not a number DynamoDB stores exactly, saying why', () => {
    const check = checkDynamoNumber(text);
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.reason).toContain(reason);
  });
});

describe('checkDynamoNumber canonical form', () => {
  it('is the same for every spelling of one number, and differs between numbers', () => {
    const canonical = (text: string) => (checkDynamoNumber(text) as { canonical: string }).canonical;
    for (const one of ['1', '1.0', '10e-1', '0.1e1', '+1.000', '001']) expect(canonical(one)).toBe('1e0');
    expect(canonical('100')).toBe(canonical('1e2'));
    expect(canonical('-1')).not.toBe(canonical('1'));
    expect(canonical('1.01')).not.toBe(canonical('1.1'));
  });
});

const PK: KeyAttribute = { name: 'pk', type: 'S', role: 'HASH' };
const SK: KeyAttribute = { name: 'sk', type: 'N', role: 'RANGE' };
// `sk` is declared S here but the table types it N: the table wins.
const mapRow = createRowMapper({
  columns: ['pk', 'sk', 'name', 'qty', 'flag', 'doc'],
  types: { sk: 'S', qty: 'N', flag: 'BOOL', doc: 'JSON' },
  keys: [PK, SK],
});
const KEYS = { pk: { S: 'a' }, sk: { N: '1' } };
/** JSON arrays nested `levels` deep, and the attribute they should become. */
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const nestedL = (levels: number): AttributeValue => (levels === 1 ? { L: [] } : { L: [nestedL(levels - 1)] });

describe.each<{ name: string; fields: string[]; item: Item }>([
  // Every type applied; JSON objects become M, arrays L, null NULL; BOOL ignores case.
  {
    name: 'every type',
    fields: ['a', '1', 'Ann', '3.5', 'TRUE', '{"x":[1,"y",null,false],"z":{}}'],
    item: {
      ...KEYS,
      name: { S: 'Ann' },
      qty: { N: '3.5' },
      flag: { BOOL: true },
      doc: { M: { x: { L: [{ N: '1' }, { S: 'y' }, { NULL: true }, { BOOL: false }] }, z: { M: {} } } },
    },
  },
  // A JSON scalar at the top is that scalar's attribute.
  {
    name: 'JSON null',
    fields: ['a', '1', '', '', 'false', 'null'],
    item: { ...KEYS, flag: { BOOL: false }, doc: { NULL: true } },
  },
  // Empty non-key fields are left out of the item, not written as empty strings.
  { name: 'empty non-key fields', fields: ['a', '1', '', '', '', ''], item: KEYS },
  // Text is kept exactly: no trimming, and a number-looking S stays S. N keeps the file's spelling.
  {
    name: 'text as is',
    fields: ['a', '1.0', ' 007 ', '1e3', '', '"s"'],
    item: { pk: { S: 'a' }, sk: { N: '1.0' }, name: { S: ' 007 ' }, qty: { N: '1e3' }, doc: { S: 's' } },
  },
  // 31 levels of arrays is as deep as DynamoDB nests inside an item (32 counting the item: "DynamoDB supports nested
  // attributes up to 32 levels deep", https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).
  { name: 'JSON 31 levels deep', fields: ['a', '1', '', '', '', nested(31)], item: { ...KEYS, doc: nestedL(31) } },
  // JSON numbers keep their text: 38 digits would round through a double to 12345678901234567000...
  {
    name: 'JSON numbers exactly as written',
    fields: [
      'a',
      '1',
      '',
      '',
      '',
      '{"big":12345678901234567890123456789012345678,"f":0.1000000000000000055511151231257827,"e":-1.5E+3}',
    ],
    item: {
      ...KEYS,
      doc: {
        M: {
          big: { N: '12345678901234567890123456789012345678' },
          f: { N: '0.1000000000000000055511151231257827' },
          e: { N: '-1.5E+3' },
        },
      },
    },
  },
])('createRowMapper maps $name', ({ fields, item }) => {
  it('to the expected item', () => {
    expect(mapRow(fields)).toEqual({ ok: true, item, key: 'a\u00001e0' });
  });
});

describe.each([
  // Only true and false are booleans; nothing is guessed.
  {
    name: 'a BOOL is "maybe"',
    fields: ['a', '1', '', '', 'maybe', ''],
    reason: 'column "flag": not a boolean (true or false): "maybe"',
  },
  // A key attribute cannot be left out.
  { name: 'the partition key is empty', fields: ['', '1', 'x', '', '', ''], reason: 'key attribute "pk" is empty' },
  { name: 'the sort key is empty', fields: ['a', '', 'x', '', '', ''], reason: 'key attribute "sk" is empty' },
  // The table types sk as N, whatever `types` says; text there is rejected, not stored as S.
  {
    name: 'a key typed N by the table holds text',
    fields: ['a', 'one', '', '', '', ''],
    reason: 'column "sk": not a number: "one"',
  },
  {
    name: 'an N field holds 1,000',
    fields: ['a', '1', '', '1,000', '', ''],
    reason: 'column "qty": not a number: "1,000"',
  },
  // Seven fields for six columns.
  { name: 'there are too many fields', fields: ['a', '1', '', '', '', '', 'x'], reason: 'expected 6 fields, got 7' },
  { name: 'the JSON does not parse', fields: ['a', '1', '', '', '', '{x:1}'], reason: 'column "doc": invalid JSON: ' },
  // DynamoDB would refuse these with the whole 25-item batch, so the row alone is rejected.
  {
    name: 'a JSON number is out of range',
    fields: ['a', '1', '', '', '', '[1e400]'],
    reason: 'column "doc": JSON that DynamoDB cannot store: number 1e400 is outside',
  },
  {
    name: 'a JSON number is too small',
    fields: ['a', '1', '', '', '', '{"v":1e-200}'],
    reason: 'number 1e-200 is outside',
  },
  // JSON.parse read 1e-400 as 0 and stored a zero; read exactly it is out of range.
  {
    name: 'a JSON number underflows a double',
    fields: ['a', '1', '', '', '', '[1e-400]'],
    reason: 'number 1e-400 is outside',
  },
  // 39 significant digits: DynamoDB would round it.
  {
    name: 'a JSON number has 39 digits',
    fields: ['a', '1', '', '', '', '[123456789012345678901234567890123456789]'],
    reason: 'has 39 significant digits',
  },
  {
    name: 'a JSON object has an empty key',
    fields: ['a', '1', '', '', '', '{"":1}'],
    reason: 'an object key is empty',
  },
  // One level more than the deepest accepted above.
  {
    name: 'JSON nests 32 levels',
    fields: ['a', '1', '', '', '', nested(32)],
    reason: "nested deeper than DynamoDB's 31 levels",
  },
])('createRowMapper', ({ name, fields, reason }) => {
  it(`fails when ${name}`, () => {
    const mapped = mapRow(fields);
    expect(mapped.ok).toBe(false);
    expect(mapped.ok ? '' : mapped.reason).toContain(reason);
  });
});

describe('createRowMapper', () => {
  it('fails when a row has the wrong number of fields, giving both counts', () => {
    const map = createRowMapper({ columns: ['pk', 'a', 'b', 'c'], types: {}, keys: [PK] });
    expect(map(['k', '1', '2', '3', '4'])).toEqual({ ok: false, reason: 'expected 4 fields, got 5' });
    expect(map(['k', '1', '2'])).toEqual({ ok: false, reason: 'expected 4 fields, got 3' });
  });

  it('fails when the item is over 400 KB, and takes one of exactly 400 KB', () => {
    // Sizes: "pk"+"a" = 3, "sk"+N "1" = 2 + (1 digit / 2 rounded up + 1) = 4, "name" = 4: 11 bytes besides
    // the name's value, so a value of 409600 - 11 = 409589 bytes makes exactly 400 KB.
    const row = (bytes: number) => ['a', '1', 'x'.repeat(bytes), '', '', ''];
    expect(mapRow(row(409_589)).ok).toBe(true);
    const reason = "item is 409601 bytes, over DynamoDB's 409600-byte (400 KB) limit";
    expect(mapRow(row(409_590))).toEqual({ ok: false, reason });
  });

  it('sizes an item as itemSize does, whichever way each value was read', () => {
    // Strings are sized inline; numbers (plain integers by their digit count), booleans and JSON by their value.
    const columns = ['pk', 'n', 'é', 'flag', 'doc', 'pk'];
    const types = { n: 'N', é: 'N', flag: 'BOOL', doc: 'JSON' } as const;
    const map = createRowMapper({ columns: columns.slice(0, 5), types, keys: [PK] });
    const repeated = createRowMapper({ columns, types, keys: [PK] }); // "pk" twice: the last one is the item's
    const rows = [
      ['ключ', '12345678901234567890123456789012345678', '-7', 'true', '{"a":[1,"ü"]}'],
      ['k', `1${'0'.repeat(40)}`, '-0.000', 'false', '[]'],
      ['k', '0012', '3.25e5', '', '"s"'],
    ];
    for (const row of rows) {
      // The padded field is the item's "pk": the first column, or the last one when "pk" repeats.
      const cases: [typeof map, string[], number][] = [
        [map, row, 0],
        [repeated, [...row, 'last'], row.length],
      ];
      for (const [mapper, fields, at] of cases) {
        const mapped = mapper(fields);
        const size = itemSize(mapped.ok ? mapped.item : {});
        const padded = (bytes: number) => fields.map((f, i) => (i === at ? f + 'x'.repeat(bytes) : f));
        expect(mapper(padded(MAX_ITEM_BYTES - size)).ok, JSON.stringify(fields)).toBe(true);
        expect(mapper(padded(MAX_ITEM_BYTES - size + 1)), JSON.stringify(fields)).toEqual({
          ok: false,
          reason: `item is ${MAX_ITEM_BYTES + 1} bytes, over DynamoDB's ${MAX_ITEM_BYTES}-byte (400 KB) limit`,
        });
      }
    }
  });

  it('gives one key string to spellings of the same N key, and distinct ones otherwise', () => {
    const keyOf = (sk: string) => {
      const mapped = mapRow(['a', sk, '', '', '', '']);
      return mapped.ok ? mapped.key : mapped.reason;
    };
    expect(keyOf('1.0')).toBe(keyOf('1'));
    expect(keyOf('10e-1')).toBe(keyOf('1'));
    expect(keyOf('2')).not.toBe(keyOf('1'));
    // On an S key, '1' and '1.0' are different items.
    const byS = createRowMapper({ columns: ['pk'], types: {}, keys: [PK] });
    expect(byS(['1'])).not.toEqual(byS(['1.0']));
  });

  it('builds the key in the table key order, whatever the column order', () => {
    const map = createRowMapper({ columns: ['sk', 'v', 'pk'], types: {}, keys: [PK, SK] });
    const item = { sk: { N: '5' }, v: { S: 'x' }, pk: { S: 'b' } };
    expect(map(['5', 'x', 'b'])).toEqual({ ok: true, item, key: 'b\u00005e0' });
  });

  it('reads a B key from base64', () => {
    const map = createRowMapper({ columns: ['bin', 'v'], types: {}, keys: [{ name: 'bin', type: 'B', role: 'HASH' }] });
    const item = { bin: { B: Buffer.from([1, 2, 3]) }, v: { S: 'x' } };
    expect(map(['AQID', 'x'])).toEqual({ ok: true, item, key: 'AQID' });
    expect(map(['AQI', 'x'])).toEqual({ ok: false, reason: 'column "bin": not base64 for a binary key: "AQI"' });
  });

  it('treats columns named like Object.prototype members as plain strings', () => {
    const map = createRowMapper({ columns: ['pk', 'constructor', 'toString'], types: {}, keys: [PK] });
    expect(map(['a', 'Ferrari', 'x'])).toEqual({
      ok: true,
      item: { pk: { S: 'a' }, constructor: { S: 'Ferrari' }, toString: { S: 'x' } },
      key: 'a',
    });
  });
});
