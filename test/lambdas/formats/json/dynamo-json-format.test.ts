import { describe, expect, it } from 'vitest';
import { dynamoJsonFormat } from '../../../../lambdas/formats/json/dynamo-json-format.js';
import type { RawRecord } from '../../../../lambdas/formats/record-format.js';
import type { KeyAttribute } from '../../../../lambdas/contract/workflow-payloads.js';
import type { Item } from '../../../../lambdas/write/item-sink.js';

const PK: KeyAttribute = { name: 'pk', type: 'S', role: 'HASH' };
const SK: KeyAttribute = { name: 'sk', type: 'N', role: 'RANGE' };
const map = dynamoJsonFormat().createMapper({ columns: [], types: {}, keys: [PK, SK] });
const record = (line: string): RawRecord => ({ raw: Buffer.from(`${line}\n`), offset: 0, line: 1 });
const mapOne = (line: string) => map([record(line)])[0];
/** A line as an export writes it: the item's typed attributes inside {"Item": ...}, keys first. */
const exported = (attributes: string) =>
  `{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}${attributes ? `,${attributes}` : ''}}}`;
const KEYS = { pk: { S: 'a' }, sk: { N: '1' } };
const bytes = (...values: number[]) => Buffer.from(values);

describe.each<{ name: string; line: string; item: Item; key?: string }>([
  // Every attribute type DynamoDB has, each as an export writes it; B and BS are base64 in the file.
  {
    name: 'every attribute type',
    line: exported(
      '"s":{"S":"x"},"n":{"N":"-1.5E+3"},"b":{"B":"AQID"},"t":{"BOOL":true},"z":{"NULL":true},' +
        '"m":{"M":{"in":{"L":[{"S":"y"},{"N":"2"},{"M":{}}]}}},"ss":{"SS":["a","b",""]},"ns":{"NS":["1","2.5"]},"bs":{"BS":["AQ==","Ag=="]}',
    ),
    item: {
      ...KEYS,
      s: { S: 'x' },
      n: { N: '-1.5E+3' },
      b: { B: bytes(1, 2, 3) },
      t: { BOOL: true },
      z: { NULL: true },
      m: { M: { in: { L: [{ S: 'y' }, { N: '2' }, { M: {} }] } } },
      ss: { SS: ['a', 'b', ''] },
      ns: { NS: ['1', '2.5'] },
      bs: { BS: [bytes(1), bytes(2)] },
    },
  },
  // 38 digits in a key, a value and a set: strings in this format, so nothing passes through a double.
  {
    name: 'a 38-digit number',
    line: '{"Item":{"pk":{"S":"a"},"sk":{"N":"12345678901234567890123456789012345678"},"ns":{"NS":["0.12345678901234567890123456789012345678"]}}}',
    item: {
      pk: { S: 'a' },
      sk: { N: '12345678901234567890123456789012345678' },
      ns: { NS: ['0.12345678901234567890123456789012345678'] },
    },
    key: 'a\u000012345678901234567890123456789012345678e0',
  },
  // A bare item (no Item wrapper), as `aws dynamodb scan | jq -c '.Items[]'` writes it.
  { name: 'a bare item', line: '{"pk":{"S":"a"},"sk":{"N":"1"},"v":{"S":"x"}}', item: { ...KEYS, v: { S: 'x' } } },
  // A bare item holding an attribute named Item besides others is read as an item, not a wrapper.
  {
    name: 'an attribute named Item',
    line: '{"pk":{"S":"a"},"sk":{"N":"1"},"Item":{"S":"x"}}',
    item: { ...KEYS, Item: { S: 'x' } },
  },
  // Empty strings and binaries are values (DynamoDB stores them outside keys).
  {
    name: 'empty S and B',
    line: exported('"e":{"S":""},"eb":{"B":""}'),
    item: { ...KEYS, e: { S: '' }, eb: { B: bytes() } },
  },
])('DynamoDB JSON maps $name', ({ line, item, key = 'a\u00001e0' }) => {
  it('to the item the line holds', () => {
    expect(mapOne(line)).toEqual({ ok: true, item, key });
  });
});

describe.each([
  // Not JSON, or not an object: rejected whole.
  { name: 'a line is not JSON', line: '{"Item":{"pk":{"S":"a"}', reason: 'invalid JSON: ' },
  { name: 'a line holds an array', line: '[{"S":"a"}]', reason: 'not a JSON object: the line holds an array' },
  // A malformed typed value rejects the line and names the attribute, nested ones by their path.
  {
    name: 'an N holds a JSON number',
    line: exported('"n":{"N":5}'),
    reason: 'attribute "n": N must be a string holding a number, got 5',
  },
  { name: 'an N holds text', line: exported('"n":{"N":"five"}'), reason: 'attribute "n": N not a number: "five"' },
  {
    name: 'an N has 39 digits',
    line: exported(`"n":{"N":"${'1'.repeat(39)}"}`),
    reason: 'attribute "n": N "111111111111111111111111111111111111111" has 39 significant digits',
  },
  {
    name: 'an N is out of range',
    line: exported('"n":{"N":"1e126"}'),
    reason: 'attribute "n": N "1e126" is outside DynamoDB\'s number range',
  },
  {
    name: 'a B is not base64',
    line: exported('"b":{"B":"AQI"}'),
    reason: 'attribute "b": B must be a base64 string, got "AQI"',
  },
  {
    name: 'a BOOL is a string',
    line: exported('"t":{"BOOL":"true"}'),
    reason: 'attribute "t": BOOL must be true or false, got "true"',
  },
  {
    name: 'a NULL is false',
    line: exported('"z":{"NULL":false}'),
    reason: 'attribute "z": NULL must be true, got false',
  },
  {
    name: 'a value names two types',
    line: exported('"v":{"S":"x","N":"1"}'),
    reason: 'attribute "v": expected one typed value',
  },
  {
    name: 'a type is unknown',
    line: exported('"v":{"STRING":"x"}'),
    reason: 'attribute "v": expected one typed value',
  },
  {
    name: 'a nested list element is wrong',
    line: exported('"m":{"M":{"l":{"L":[{"S":"ok"},{"N":1}]}}}'),
    reason: 'attribute "m.l[1]": N must be a string',
  },
  {
    name: 'an M holds an array',
    line: exported('"m":{"M":[]}'),
    reason: 'attribute "m": M must be an object of typed values, got []',
  },
  // Sets: non-empty, one kind of member, each value once (NS by value, BS by bytes).
  {
    name: 'a set is empty',
    line: exported('"ss":{"SS":[]}'),
    reason: 'attribute "ss": SS must be a non-empty array, got []',
  },
  {
    name: 'an SS repeats a value',
    line: exported('"ss":{"SS":["a","a"]}'),
    reason: 'attribute "ss": SS holds "a" twice',
  },
  {
    name: 'an NS repeats a value spelled twice',
    line: exported('"ns":{"NS":["1","1.0"]}'),
    reason: 'attribute "ns": NS holds "1.0" twice',
  },
  {
    name: 'an NS holds a non-number',
    line: exported('"ns":{"NS":["1","x"]}'),
    reason: 'NS members must be strings holding numbers DynamoDB stores; "x" is not',
  },
  {
    name: 'a BS holds a non-base64 member',
    line: exported('"bs":{"BS":["AQ==","%%"]}'),
    reason: 'BS members must be base64 strings; "%%" is not',
  },
  {
    name: 'an SS holds a number',
    line: exported('"ss":{"SS":["a",1]}'),
    reason: 'SS members must be strings; 1 is not',
  },
  // Plain JSON Lines read as DynamoDB JSON (a *.json file): the reason says how to read them.
  {
    name: 'the line is plain JSON',
    line: '{"pk":"a","sk":1}',
    reason: 'got "a" (plain JSON Lines? set format.type to "jsonl")',
  },
  // Key attributes are checked against the table's key schema.
  {
    name: 'the sort key is missing',
    line: '{"Item":{"pk":{"S":"a"}}}',
    reason: 'key attribute "sk" (RANGE, N) is missing',
  },
  {
    name: 'an N key holds S',
    line: '{"Item":{"pk":{"S":"a"},"sk":{"S":"1"}}}',
    reason: 'key attribute "sk" must be of type N, as the table defines it; got S',
  },
  {
    name: 'the partition key is empty',
    line: '{"Item":{"pk":{"S":""},"sk":{"N":"1"}}}',
    reason: 'key attribute "pk" is empty',
  },
  { name: 'an attribute name is empty', line: exported('"":{"S":"x"}'), reason: 'an attribute name is empty' },
  { name: 'a string holds a lone surrogate', line: exported('"s":{"S":"\\ud800"}'), reason: 'lone UTF-16 surrogate' },
])('DynamoDB JSON', ({ name, line, reason }) => {
  it(`fails when ${name}`, () => {
    const mapped = mapOne(line);
    expect(mapped.ok).toBe(false);
    expect(mapped.ok ? '' : mapped.reason).toContain(reason);
  });
});

describe('DynamoDB JSON', () => {
  it('accepts a surrogate pair spelled as escapes', () => {
    expect(mapOne(exported('"s":{"S":"\\ud83d\\ude00"}'))).toMatchObject({ ok: true, item: { s: { S: '😀' } } });
  });

  it('reads a B key from base64 and keys it by its bytes', () => {
    const byBinary = dynamoJsonFormat().createMapper({
      columns: [],
      types: {},
      keys: [{ name: 'id', type: 'B', role: 'HASH' }],
    });
    expect(byBinary([record('{"Item":{"id":{"B":"AQID"}}}')])[0]).toEqual({
      ok: true,
      item: { id: { B: bytes(1, 2, 3) } },
      key: 'AQID',
    });
    expect(byBinary([record('{"Item":{"id":{"B":""}}}')])[0]).toEqual({
      ok: false,
      reason: 'key attribute "id" is empty',
    });
  });

  it('counts sets in the item size: fails over 400 KB', () => {
    // Names 4 ("pk" + "sk") + values 1 + 2 (N 1) + "ss" 2 = 9 bytes besides the set, whose members count their bytes.
    const line = (bytes: number) => exported(`"ss":{"SS":["${'x'.repeat(bytes - 1)}","y"]}`);
    expect(mapOne(line(409_600 - 9)).ok).toBe(true);
    expect(mapOne(line(409_601 - 9))).toEqual({
      ok: false,
      reason: "item is 409601 bytes, over DynamoDB's 409600-byte (400 KB) limit",
    });
  });

  it('fails when lists nest deeper than 31 levels inside an attribute', () => {
    const nested = (levels: number): string => (levels === 0 ? '{"S":"x"}' : `{"L":[${nested(levels - 1)}]}`);
    expect(mapOne(exported(`"l":${nested(31)}`)).ok).toBe(true);
    expect(mapOne(exported(`"l":${nested(32)}`))).toMatchObject({
      ok: false,
      reason: expect.stringContaining("nested deeper than DynamoDB's 31 levels"),
    });
  });

  it("fails before any write when the first item lacks the table's key, and starts past a BOM otherwise", async () => {
    const read = (text: string) =>
      async function* () {
        yield Buffer.from(text);
      };
    const start = (text: string) => dynamoJsonFormat().readStart(read(text), Buffer.byteLength(text), [PK, SK]);
    await expect(start('{"Item":{"id":{"S":"a"}}}\n')).rejects.toThrow(
      'line 1: key attribute "pk" (HASH, S) is missing',
    );
    expect(await start('\ufeff{"Item":{"pk":{"S":"a"},"sk":{"N":"1"}}}\n')).toEqual({
      header: null,
      dataStart: 3,
      dataLine: 1,
      fields: ['pk', 'sk'],
    });
  });
});
