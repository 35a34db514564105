import { describe, expect, it } from 'vitest';
import { jsonLinesFormat } from '../../../../lambdas/formats/json/json-lines-format.js';
import { InvalidRequestError } from '../../../../lambdas/contract/errors.js';
import type { RawRecord } from '../../../../lambdas/formats/record-format.js';
import type { KeyAttribute } from '../../../../lambdas/contract/workflow-payloads.js';
import type { Item } from '../../../../lambdas/write/item-sink.js';

const PK: KeyAttribute = { name: 'pk', type: 'S', role: 'HASH' };
const SK: KeyAttribute = { name: 'sk', type: 'N', role: 'RANGE' };
const map = jsonLinesFormat().createMapper({ columns: [], types: {}, keys: [PK, SK] });

/** One line as the scanner hands it over: its bytes with the LF, at byte 100 of the object, on line 7. */
const record = (line: string | Buffer): RawRecord => ({
  raw: Buffer.isBuffer(line) ? line : Buffer.from(`${line}\n`),
  offset: 100,
  line: 7,
});
const mapOne = (line: string | Buffer) => map([record(line)])[0];

describe.each<{ name: string; line: string; item: Item; key?: string }>([
  // Every JSON type becomes the attribute the CSV JSON type makes of it.
  {
    name: 'every attribute type',
    line: '{"pk":"a","sk":1,"s":"x","n":-2.5,"t":true,"f":false,"z":null,"l":[1,"two",[]],"m":{"in":{"deep":null}}}',
    item: {
      pk: { S: 'a' },
      sk: { N: '1' },
      s: { S: 'x' },
      n: { N: '-2.5' },
      t: { BOOL: true },
      f: { BOOL: false },
      z: { NULL: true },
      l: { L: [{ N: '1' }, { S: 'two' }, { L: [] }] },
      m: { M: { in: { M: { deep: { NULL: true } } } } },
    },
  },
  // 38 digits land as written, in a key and in a value: JSON.parse would round both.
  {
    name: 'a 38-digit number',
    line: '{"pk":"a","sk":12345678901234567890123456789012345678,"v":0.12345678901234567890123456789012345678}',
    item: {
      pk: { S: 'a' },
      sk: { N: '12345678901234567890123456789012345678' },
      v: { N: '0.12345678901234567890123456789012345678' },
    },
    key: 'a\u000012345678901234567890123456789012345678e0',
  },
  // An empty string is a value (DynamoDB stores empty non-key strings), unlike an empty CSV field.
  { name: 'an empty string', line: '{"pk":"a","sk":1,"e":""}', item: { pk: { S: 'a' }, sk: { N: '1' }, e: { S: '' } } },
  // CRLF line endings and spaces around the object are whitespace to JSON.
  { name: 'a CRLF line', line: '  {"pk":"a","sk":1}  \r', item: { pk: { S: 'a' }, sk: { N: '1' } } },
  // Two spellings of one N key give one dedupe key, so last-wins holds inside a batch.
  {
    name: 'an N key spelled 1.0',
    line: '{"pk":"a","sk":1.0}',
    item: { pk: { S: 'a' }, sk: { N: '1.0' } },
    key: 'a\u00001e0',
  },
])('JSON Lines maps $name', ({ line, item, key = 'a\u00001e0' }) => {
  it('to the item the line holds', () => {
    expect(mapOne(line)).toEqual({ ok: true, item, key });
  });
});

describe.each([
  // Not JSON: the reason says what and at which column; the importer adds line and byte offset.
  {
    name: 'a line is not JSON',
    line: '{"pk":"a",sk:1}',
    reason: 'invalid JSON: expected a string key "s" at column 11',
  },
  // Column 18: past the line's LF, which is whitespace to JSON.
  {
    name: 'a line is cut short',
    line: '{"pk":"a","sk":1',
    reason: "invalid JSON: expected ',' or '}' at column 18, where the text ends",
  },
  // Valid JSON that is not an object has no attributes to write.
  { name: 'a line holds an array', line: '[1,2]', reason: 'not a JSON object: the line holds an array' },
  { name: 'a line holds a number', line: '42', reason: 'not a JSON object: the line holds a number' },
  { name: 'a line holds a string', line: '"pk"', reason: 'not a JSON object: the line holds a string' },
  { name: 'a line holds null', line: 'null', reason: 'not a JSON object: the line holds null' },
  // A line of spaces is not blank to the importer (only LF and CRLF are), and it is not JSON.
  { name: 'a line holds only spaces', line: '   ', reason: 'invalid JSON: the text ends where a value should be' },
  // Key attributes: present, of the table's type (S from a string, N from a number), not empty.
  { name: 'the sort key is missing', line: '{"pk":"a"}', reason: 'key attribute "sk" (RANGE, N) is missing' },
  {
    name: 'an N key holds a string',
    line: '{"pk":"a","sk":"1"}',
    reason: 'key attribute "sk" must be of type N, as the table defines it; got S',
  },
  {
    name: 'an S key holds a number',
    line: '{"pk":7,"sk":1}',
    reason: 'key attribute "pk" must be of type S, as the table defines it; got N',
  },
  { name: 'the partition key is empty', line: '{"pk":"","sk":1}', reason: 'key attribute "pk" is empty' },
  {
    name: 'the partition key is null',
    line: '{"pk":null,"sk":1}',
    reason: 'key attribute "pk" must be of type S, as the table defines it; got NULL',
  },
  // Numbers DynamoDB cannot store exactly reject the line, never a rounded or zeroed value.
  {
    name: 'a number has 39 digits',
    line: '{"pk":"a","sk":1,"v":123456789012345678901234567890123456789}',
    reason: 'has 39 significant digits',
  },
  {
    name: 'a number is out of range',
    line: '{"pk":"a","sk":1e126}',
    reason: 'JSON that DynamoDB cannot store: number 1e126 is outside',
  },
  { name: 'an attribute name is empty', line: '{"pk":"a","sk":1,"":2}', reason: 'an object key is empty' },
])('JSON Lines', ({ name, line, reason }) => {
  it(`fails when ${name}`, () => {
    const mapped = mapOne(line);
    expect(mapped.ok).toBe(false);
    expect(mapped.ok ? '' : mapped.reason).toContain(reason);
  });
});

describe('JSON Lines', () => {
  it('fails when a line is not UTF-8, naming the byte in the object', () => {
    // 0xff at index 7 of a record at byte 100.
    expect(mapOne(Buffer.from([...Buffer.from('{"pk":"'), 0xff, ...Buffer.from('"}\n')]))).toEqual({
      ok: false,
      reason: 'invalid UTF-8 at byte 107',
    });
  });

  it('reads a B key from a base64 string, and fails when it is not base64', () => {
    const byBinary = jsonLinesFormat().createMapper({
      columns: [],
      types: {},
      keys: [{ name: 'id', type: 'B', role: 'HASH' }],
    });
    expect(byBinary([record('{"id":"AQID","note":"AQID"}')])[0]).toEqual({
      ok: true,
      item: { id: { B: Buffer.from([1, 2, 3]) }, note: { S: 'AQID' } },
      key: 'AQID',
    });
    expect(byBinary([record('{"id":"AQI"}')])[0]).toEqual({
      ok: false,
      reason: 'key attribute "id": not base64 for a binary key: "AQI"',
    });
  });

  it('fails when the item is over 400 KB, and takes one of exactly 400 KB', () => {
    // Names and values: "pk" + "a" = 3, "sk" + N 1 = 2 + 2 = 4, "v" = 1: 8 bytes, so a value of 409592 makes 400 KB.
    const line = (bytes: number) => `{"pk":"a","sk":1,"v":"${'x'.repeat(bytes)}"}`;
    expect(mapOne(line(409_592)).ok).toBe(true);
    expect(mapOne(line(409_593))).toEqual({
      ok: false,
      reason: "item is 409601 bytes, over DynamoDB's 409600-byte (400 KB) limit",
    });
  });

  it('maps a block to one result per record, in order', () => {
    const results = map(['{"pk":"a","sk":1}', 'oops', '{"pk":"b","sk":2}'].map(record));
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
  });

  it('finds record ends at every LF, quotes or not', () => {
    expect(jsonLinesFormat().dialect.quote).toBeUndefined();
  });
});

/** The object as a stream of buffers of `size` bytes, as a range GET gives it. */
const readOf = (text: string, size = 7) => {
  const bytes = Buffer.from(text);
  return async function* () {
    for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
  };
};
const start = (text: string) => jsonLinesFormat().readStart(readOf(text), Buffer.byteLength(text), [PK, SK]);

describe.each([
  // The data starts past a BOM; blank lines before the first record are skipped by the key check.
  // `fields`: the first record's top-level names, which templates and exclude are checked against.
  { name: 'a BOM', text: '\ufeff{"pk":"a","sk":1}\n', dataStart: 3, fields: ['pk', 'sk'] },
  {
    name: 'blank lines first',
    text: '\n\r\n{"pk":"a","sk":1,"v":2}\n{"x":1}\n',
    dataStart: 0,
    fields: ['pk', 'sk', 'v'],
  },
  { name: 'one line without LF', text: '{"pk":"a","sk":1}', dataStart: 0, fields: ['pk', 'sk'] },
  // A first line that is bad in another way than its key is left to the import, which rejects it; no fields known.
  { name: 'a first line that is not JSON', text: '{"pk":\n{"pk":"a","sk":1}\n', dataStart: 0 },
  { name: 'a first line with an empty key', text: '{"pk":"","sk":1}\n', dataStart: 0, fields: ['pk', 'sk'] },
  { name: 'an empty object', text: '', dataStart: 0 },
])('JSON Lines readStart with $name', ({ text, dataStart, fields }) => {
  it(`starts the data at byte ${dataStart}`, async () => {
    expect(await start(text)).toEqual({ header: null, dataStart, dataLine: 1, ...(fields ? { fields } : {}) });
  });
});

describe.each([
  // A file written for another table: fails before any write, as a CSV header without the key column does.
  {
    name: 'the first record lacks a key attribute',
    text: '{"id":"a","sk":1}\n',
    message: 'line 1: key attribute "pk" (HASH, S) is missing',
  },
  {
    name: 'the first record holds a key of another type',
    text: '\n{"pk":"a","sk":"1"}\n',
    message: 'line 2: key attribute "sk" must be of type N',
  },
])('JSON Lines readStart', ({ name, text, message }) => {
  it(`fails when ${name}`, async () => {
    await expect(start(text)).rejects.toThrow(InvalidRequestError);
    await expect(start(text)).rejects.toThrow(message);
  });
});
