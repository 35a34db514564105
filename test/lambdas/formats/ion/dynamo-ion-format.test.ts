import { describe, expect, it } from 'vitest';
import { dynamoIonFormat } from '../../../../lambdas/formats/ion/dynamo-ion-format.js';
import type { RawRecord, RecordSchema } from '../../../../lambdas/formats/record-format.js';
import type { KeyAttribute } from '../../../../lambdas/contract/workflow-payloads.js';
import type { Item } from '../../../../lambdas/write/item-sink.js';

const PK: KeyAttribute = { name: 'pk', type: 'S', role: 'HASH' };
const SK: KeyAttribute = { name: 'sk', type: 'N', role: 'RANGE' };
const map = dynamoIonFormat().createMapper({ columns: [], types: {}, keys: [PK, SK] });
const record = (line: string): RawRecord => ({ raw: Buffer.from(`${line}\n`), offset: 0, line: 1 });
const mapOne = (line: string) => map([record(line)])[0];
/** A line as an Ion export writes it: the version marker, then the item's attributes inside {Item:...}. */
const exported = (attributes: string) => `$ion_1_0 {Item:{pk:"a",sk:1.${attributes ? `,${attributes}` : ''}}}`;
const KEYS = { pk: { S: 'a' }, sk: { N: '1' } };
const bytes = (...values: number[]) => Buffer.from(values);

describe.each<{ name: string; line: string; item: Item; key?: string }>([
  // The item of AWS's own example, on one line as the export writes it
  // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/S3DataExport.Output.html#S3DataExport.Output_Data_ION):
  // 103. is the decimal 103, 6d2 is 6 x 10^2 and 2d3 2 x 10^3 (kept in E notation, which DynamoDB reads as 600, 2000).
  {
    name: "AWS's example item",
    line:
      '$ion_1_0 {Item:{Authors:$dynamodb_SS::["Author1","Author2"],Dimensions:"8.5 x 11.0 x 1.5",' +
      'ISBN:"333-3333333333",Id:103.,InPublication:false,PageCount:6d2,Price:2d3,ProductCategory:"Book",' +
      'Title:"Book 103 Title",pk:"a",sk:1.}}',
    item: {
      Authors: { SS: ['Author1', 'Author2'] },
      Dimensions: { S: '8.5 x 11.0 x 1.5' },
      ISBN: { S: '333-3333333333' },
      Id: { N: '103' },
      InPublication: { BOOL: false },
      PageCount: { N: '6E2' },
      Price: { N: '2E3' },
      ProductCategory: { S: 'Book' },
      Title: { S: 'Book 103 Title' },
      ...KEYS,
    },
  },
  // Every type of the mapping: blob B ({{base64}} in Ion text), null NULL, list L, struct M, the three sets.
  {
    name: 'every attribute type',
    line: exported(
      's:"x",n:-1.5d3,b:{{AQID}},t:true,z:null,m:{in:["y",2.,{}]},ss:$dynamodb_SS::["a","b",""],' +
        'ns:$dynamodb_NS::[1.,2.5],bs:$dynamodb_BS::[{{AQ==}},{{Ag==}}]',
    ),
    item: {
      ...KEYS,
      s: { S: 'x' },
      n: { N: '-15E2' },
      b: { B: bytes(1, 2, 3) },
      t: { BOOL: true },
      z: { NULL: true },
      m: { M: { in: { L: [{ S: 'y' }, { N: '2' }, { M: {} }] } } },
      ss: { SS: ['a', 'b', ''] },
      ns: { NS: ['1', '2.5'] },
      bs: { BS: [bytes(1), bytes(2)] },
    },
  },
  // Decimals keep every digit: trailing zeros (1.50), 38 digits, small magnitudes in E notation past 6 zeros.
  {
    name: 'exact decimals',
    line: exported(
      'a:1.50,b:0.12345678901234567890123456789012345678,c:-0.000123,d:1d-130,e:-0.,f:12345678901234567890123456789012345678.',
    ),
    item: {
      ...KEYS,
      a: { N: '1.50' },
      b: { N: '0.12345678901234567890123456789012345678' },
      c: { N: '-0.000123' },
      d: { N: '1E-130' },
      e: { N: '0' },
      f: { N: '12345678901234567890123456789012345678' },
    },
  },
  // Beyond the export's own types: an Ion int is N exactly (past 2^53 too), a float N by its shortest text,
  // a typed null NULL.
  {
    name: 'ints, floats and typed nulls',
    line: exported('i:9007199254740993,h:0x10,f:1.5e0,g:1e21,z:null.string'),
    item: {
      ...KEYS,
      i: { N: '9007199254740993' },
      h: { N: '16' },
      f: { N: '1.5' },
      g: { N: '1e+21' },
      z: { NULL: true },
    },
  },
  // Ion's other spellings of the same values: quoted field names, long strings, escapes, comments, CRLF.
  {
    name: 'quoted names, long strings and escapes',
    line: `${exported(`'odd name':'''a''' '''b''',"q":"l\\u00e9\\n\\"x\\"" /* c */`)}\r`,
    item: { ...KEYS, 'odd name': { S: 'ab' }, q: { S: 'lé\n"x"' } },
  },
  // A key of type N written as 1.0 and as 1. is one key: the key text is canonical.
  {
    name: 'a key spelled with a trailing zero',
    line: '$ion_1_0 {Item:{pk:"a",sk:1.0}}',
    item: { pk: { S: 'a' }, sk: { N: '1.0' } },
  },
  // The version marker is optional: a line without it is the same Ion.
  { name: 'a line without the version marker', line: '{Item:{pk:"a",sk:1.}}', item: KEYS },
])('DynamoDB Ion maps $name', ({ line, item, key = 'a\u00001e0' }) => {
  it('to the item the line holds', () => {
    expect(mapOne(line)).toEqual({ ok: true, item, key });
  });
});

describe.each([
  // Not Ion, or not the export's {Item:{...}} shape: the line is rejected whole.
  { name: 'a line is cut short', line: '$ion_1_0 {Item:{pk:"a",sk:1.,', reason: 'invalid Ion: ' },
  {
    name: 'a line holds a list',
    line: '$ion_1_0 [1,2]',
    reason: 'the line holds an Ion list; expected one {Item:{...}}',
  },
  { name: 'a line holds only the marker', line: '$ion_1_0', reason: 'no Ion value on the line' },
  { name: 'a line is a bare item', line: '$ion_1_0 {pk:"a",sk:1.}', reason: 'the struct has no Item field' },
  { name: 'Item is not a struct', line: '$ion_1_0 {Item:"x"}', reason: 'Item holds an Ion string, not a struct' },
  { name: 'the struct holds more', line: '$ion_1_0 {Item:{pk:"a",sk:1.},x:1}', reason: 'more than its Item field' },
  {
    name: 'a line holds two items',
    line: '$ion_1_0 {Item:{pk:"a",sk:1.}} {Item:{pk:"b",sk:1.}}',
    reason: 'the line holds more than one Ion value',
  },
  // Ion types DynamoDB has no type for, and annotations it never writes: refused, naming the attribute's path.
  { name: 'a value is a timestamp', line: exported('t:2024-05-06T'), reason: 'attribute "t": an Ion timestamp has no' },
  { name: 'a value is a symbol', line: exported('s:Book'), reason: 'attribute "s": an Ion symbol has no' },
  { name: 'a value is an s-expression', line: exported('s:(a b)'), reason: 'attribute "s": an Ion sexp has no' },
  { name: 'a value is a clob', line: exported('c:{{"x"}}'), reason: 'attribute "c": an Ion clob has no' },
  {
    name: 'a nested list element is wrong',
    line: exported('m:{l:["ok",2024T]}'),
    reason: 'attribute "m.l[1]": an Ion timestamp',
  },
  {
    name: 'a string is annotated',
    line: exported('s:x::"a"'),
    reason: 'attribute "s": the annotation x:: on an Ion string',
  },
  {
    name: 'a set annotation is on a struct',
    line: exported('s:$dynamodb_SS::{a:"x"}'),
    reason: 'the annotation $dynamodb_SS:: on an Ion struct',
  },
  // Numbers DynamoDB cannot store exactly.
  { name: 'a decimal has 39 digits', line: exported(`n:${'1'.repeat(39)}.`), reason: 'has 39 significant digits' },
  { name: 'a decimal is out of range', line: exported('n:1d126'), reason: "is outside DynamoDB's number range" },
  { name: 'a float is NaN', line: exported('n:nan'), reason: 'attribute "n": Ion float NaN is not a number' },
  { name: 'a float is infinite', line: exported('n:+inf'), reason: 'Ion float Infinity is not a number' },
  // Sets: non-empty, members of the set's type, each value once (NS by value, BS by bytes).
  { name: 'a set is empty', line: exported('ss:$dynamodb_SS::[]'), reason: 'attribute "ss": SS is empty' },
  { name: 'an SS repeats a value', line: exported('ss:$dynamodb_SS::["a","a"]'), reason: 'SS holds "a" twice' },
  {
    name: 'an NS repeats a value spelled twice',
    line: exported('ns:$dynamodb_NS::[1.,1.0]'),
    reason: 'NS holds "1.0" twice',
  },
  {
    name: 'a BS repeats a value',
    line: exported('bs:$dynamodb_BS::[{{AQ==}},{{AQ==}}]'),
    reason: 'BS holds "AQ==" twice',
  },
  {
    name: 'an SS holds a number',
    line: exported('ss:$dynamodb_SS::["a",1.]'),
    reason: 'SS members must be strings; an Ion decimal is not',
  },
  {
    name: 'an NS holds a null',
    line: exported('ns:$dynamodb_NS::[null]'),
    reason: 'NS members must be decimals; an Ion null is not',
  },
  // Names: an item holds one attribute of a name, and no empty one.
  { name: 'a name appears twice', line: exported('a:1.,a:2.'), reason: 'attribute "a": the name appears twice' },
  { name: 'an attribute name is empty', line: exported('"":"x"'), reason: 'an attribute name is empty' },
  // ion-js refuses a lone surrogate escape (DynamoDB stores UTF-8, which cannot encode one).
  {
    name: 'a string holds a lone surrogate',
    line: exported('s:"\\udc00"'),
    reason: 'invalid Ion: unexpected low surrogate',
  },
  // Key attributes are checked against the table's key schema, as for every format.
  {
    name: 'the sort key is missing',
    line: '$ion_1_0 {Item:{pk:"a"}}',
    reason: 'key attribute "sk" (RANGE, N) is missing',
  },
  {
    name: 'an N key holds a string',
    line: '$ion_1_0 {Item:{pk:"a",sk:"1"}}',
    reason: 'key attribute "sk" must be of type N',
  },
])('DynamoDB Ion', ({ name, line, reason }) => {
  it(`fails when ${name}`, () => {
    const mapped = mapOne(line);
    expect(mapped.ok).toBe(false);
    expect(mapped.ok ? '' : mapped.reason).toContain(reason);
  });
});

describe('DynamoDB Ion', () => {
  it('maps each record of a block to a result at its index, good ones around a bad one', () => {
    const lines = [exported('v:1.'), '$ion_1_0 {Item:{pk:"a"', exported('v:3.')];
    const results = map(lines.map((line, i) => ({ raw: Buffer.from(`${line}\n`), offset: i * 40, line: i + 1 })));
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
  });

  it('fails when a line is not UTF-8, naming the byte', () => {
    const raw = Buffer.concat([Buffer.from('$ion_1_0 {Item:{pk:"'), bytes(0xff), Buffer.from('",sk:1.}}\n')]);
    expect(map([{ raw, offset: 100, line: 3 }])[0]).toEqual({ ok: false, reason: 'invalid UTF-8 at byte 120' });
  });

  it('fails when lists nest deeper than DynamoDB stores', () => {
    const deep = `${'['.repeat(32)}1${']'.repeat(32)}`;
    expect(mapOne(exported(`l:${deep}`))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("deeper than DynamoDB's 31 levels"),
    });
    const fits = `${'['.repeat(31)}1${']'.repeat(31)}`;
    expect(mapOne(exported(`l:${fits}`))).toMatchObject({ ok: true });
  });
});

describe('DynamoDB Ion with computed attributes', () => {
  // The steps DynamoDB JSON's items go through (formats/json/computed-item.ts): attributes rendered from the item's
  // S and N attributes (N as its exact text, 1.50 stays 1.50), exclude, TTL types.
  const schema: RecordSchema = {
    columns: [],
    keys: [
      { name: 'PK', type: 'S', role: 'HASH' },
      { name: 'SK', type: 'S', role: 'RANGE' },
    ],
    types: { expires: 'TTL' },
    attributes: { PK: 'USER#{user_id}', SK: 'ORDER#{order_id}#{amount}' },
    exclude: ['user_id', 'order_id'],
  };

  it('renders keys from the Ion item, excludes, converts a TTL', () => {
    const line = '$ion_1_0 {Item:{user_id:42.,order_id:"991",amount:1.50,expires:"2030-01-02T03:04:05Z"}}';
    expect(dynamoIonFormat().createMapper(schema)([record(line)])[0]).toEqual({
      ok: true,
      item: {
        PK: { S: 'USER#42' },
        SK: { S: 'ORDER#991#1.50' },
        amount: { N: '1.50' },
        expires: { N: '1893553445' },
      },
      key: 'USER#42\u0000ORDER#991#1.50',
    });
  });
});
