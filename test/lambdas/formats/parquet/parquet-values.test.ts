import type { SchemaElement, SchemaTree } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { columnValue, decimalText, leafValue } from '../../../../lambdas/formats/parquet/parquet-values.js';
import { PARQUET_PARSERS } from '../../../../lambdas/formats/parquet/parquet-parsers.js';
import { createParquetRowMapper } from '../../../../lambdas/formats/parquet/parquet-row-mapper.js';
import { planRowGroupChunks } from '../../../../lambdas/chunk-layouts/parquet-chunks.js';

const leaf = (element: Partial<SchemaElement>): SchemaElement => ({
  name: 'c',
  repetition_type: 'OPTIONAL',
  ...element,
});
const node = (element: Partial<SchemaElement>, children: SchemaTree[] = []): SchemaTree => ({
  element: leaf(element),
  children,
  count: 1,
  path: [element.name ?? 'c'],
});

describe('Parquet leaf values (what the reader hands over, after PARQUET_PARSERS)', () => {
  describe.each([
    // INT32 as a JS number: its digits.
    ['INT32', leaf({ type: 'INT32' }), -2147483648, { N: '-2147483648' }],
    // INT64 past 2^53 comes as a BigInt: every digit kept (2^53 + 1 would round to 2^53 as a double).
    ['INT64 past 2^53', leaf({ type: 'INT64' }), 9007199254740993n, { N: '9007199254740993' }],
    // UINT_64's top value (the library reinterprets the bits as unsigned).
    [
      'UINT_64',
      leaf({ type: 'INT64', converted_type: 'UINT_64' }),
      18446744073709551615n,
      { N: '18446744073709551615' },
    ],
    // DECIMAL(10,2) on INT32: unscaled 1250 is 12.50, stored as the number 12.5.
    [
      'DECIMAL on INT32',
      leaf({ type: 'INT32', converted_type: 'DECIMAL', scale: 2, precision: 10 }),
      1250,
      { N: '12.5' },
    ],
    // DECIMAL on INT64, negative, a scale longer than the digits: -5 x 10^-3.
    ['DECIMAL on INT64', leaf({ type: 'INT64', converted_type: 'DECIMAL', scale: 3 }), -5n, { N: '-0.005' }],
    // DECIMAL on FIXED_LEN_BYTE_ARRAY: two's complement 0xFF..FF is -1, x 10^-2.
    [
      'DECIMAL on bytes',
      leaf({ type: 'FIXED_LEN_BYTE_ARRAY', logical_type: { type: 'DECIMAL', scale: 2, precision: 5 } }),
      new Uint8Array([0xff, 0xff, 0xff]),
      { N: '-0.01' },
    ],
    // A zero DECIMAL with a scale is plain 0, not "0.00".
    ['DECIMAL zero', leaf({ type: 'INT32', converted_type: 'DECIMAL', scale: 2 }), 0, { N: '0' }],
    // FLOAT 0.1 is 0.100000001490116...: the fewest digits that read back as the same float32 are "0.1".
    ['FLOAT', leaf({ type: 'FLOAT' }), Math.fround(0.1), { N: '0.1' }],
    // float32(10.1908455) is 10.190845489501953 as a double; 8 digits (10.190845) read back as another float: 9 needed.
    ['FLOAT needing 9 digits', leaf({ type: 'FLOAT' }), Math.fround(10.1908455), { N: '10.1908455' }],
    // The largest float32: 8 digits do (3.4028235e+38), not the double's 3.4028234663852886e+38.
    ['FLOAT at its largest', leaf({ type: 'FLOAT' }), Math.fround(3.4028235e38), { N: '3.4028235e+38' }],
    // DOUBLE: JavaScript's shortest round-trip text.
    ['DOUBLE', leaf({ type: 'DOUBLE' }), 1e21, { N: '1e+21' }],
    ['BOOLEAN', leaf({ type: 'BOOLEAN' }), false, { BOOL: false }],
    // STRING, JSON, UUID, DATE and TIMESTAMP arrive as text (the library's decoding and PARQUET_PARSERS).
    ['STRING', leaf({ type: 'BYTE_ARRAY', converted_type: 'UTF8' }), 'héllo', { S: 'héllo' }],
    // ENUM is not decoded by the library when utf8 is off: its bytes are text.
    ['ENUM', leaf({ type: 'BYTE_ARRAY', converted_type: 'ENUM' }), new Uint8Array([0x41, 0x42]), { S: 'AB' }],
    // Bytes without a logical type are binary.
    ['BYTE_ARRAY', leaf({ type: 'BYTE_ARRAY' }), new Uint8Array([0, 255]), { B: new Uint8Array([0, 255]) }],
  ])('%s', (_name, element, value, want) => {
    it('maps to its DynamoDB value', () => expect(leafValue(value, element)).toEqual({ ok: true, value: want }));
  });

  it.each([
    ['NaN', leaf({ type: 'DOUBLE' }), Number.NaN, 'NaN'],
    ['Infinity', leaf({ type: 'DOUBLE' }), Number.POSITIVE_INFINITY, 'Infinity'],
    ['-Infinity', leaf({ type: 'FLOAT' }), Number.NEGATIVE_INFINITY, 'Infinity'],
    // DynamoDB numbers stop at 1E-130.
    ['a double below DynamoDB range', leaf({ type: 'DOUBLE' }), 5e-324, 'outside'],
  ])('rejects %s', (_name, element, value, reason) => {
    const mapped = leafValue(value, element);
    expect(mapped.ok).toBe(false);
    expect(!mapped.ok && mapped.reason).toContain(reason);
  });
});

describe('PARQUET_PARSERS keep each unit of time', () => {
  it.each([
    ['millis', PARQUET_PARSERS.timestampFromMilliseconds!(1714979289123n), '2024-05-06T07:08:09.123Z'],
    ['micros', PARQUET_PARSERS.timestampFromMicroseconds!(1714979289123456n), '2024-05-06T07:08:09.123456Z'],
    ['nanos', PARQUET_PARSERS.timestampFromNanoseconds!(1714979289123456789n), '2024-05-06T07:08:09.123456789Z'],
    // One microsecond before 1970: the second below, fraction counted up from it.
    ['micros before 1970', PARQUET_PARSERS.timestampFromMicroseconds!(-1n), '1969-12-31T23:59:59.999999Z'],
    ['a date', PARQUET_PARSERS.dateFromDays!(19849), '2024-05-06'],
    ['JSON stays text', PARQUET_PARSERS.jsonFromBytes!(new TextEncoder().encode('{"a": 1.50}')), '{"a": 1.50}'],
  ])('%s', (_name, actual, want) => expect(actual).toBe(want));
});

describe('nested values', () => {
  const int64 = node({ name: 'element', type: 'INT64' });
  const list = node({ name: 'l', converted_type: 'LIST' }, [
    node({ name: 'list', repetition_type: 'REPEATED' }, [int64]),
  ]);
  const map = node({ name: 'm', converted_type: 'MAP' }, [
    node({ name: 'key_value', repetition_type: 'REPEATED' }, [
      node({ name: 'key', type: 'BYTE_ARRAY', converted_type: 'UTF8' }),
      node({ name: 'value', type: 'INT32' }),
    ]),
  ]);
  const struct = node({ name: 's' }, [node({ name: 'a', type: 'INT32' }), list]);

  it('maps a LIST to L, a null element to NULL', () => {
    expect(columnValue([1n, null], list)).toEqual({ ok: true, value: { L: [{ N: '1' }, { NULL: true }] } });
  });
  it('maps a MAP to M, a null value to NULL', () => {
    expect(columnValue({ k: 2, z: null }, map)).toEqual({
      ok: true,
      value: { M: { k: { N: '2' }, z: { NULL: true } } },
    });
  });
  it('maps a STRUCT to M, an absent field to NULL', () => {
    expect(columnValue({ a: 1, l: undefined }, struct)).toEqual({
      ok: true,
      value: { M: { a: { N: '1' }, l: { NULL: true } } },
    });
  });
  it('rejects a row whose nested double is NaN', () => {
    const doubles = node({ name: 'l', converted_type: 'LIST' }, [
      node({ name: 'list', repetition_type: 'REPEATED' }, [node({ name: 'element', type: 'DOUBLE' })]),
    ]);
    expect(columnValue([1.5, Number.NaN], doubles)).toMatchObject({ ok: false });
  });
});

describe('the row mapper', () => {
  const schema = node({ name: 'schema' }, [
    node({ name: 'id', type: 'BYTE_ARRAY', converted_type: 'UTF8' }),
    node({ name: 'n', type: 'INT64' }),
    node({ name: 'at', type: 'INT64', converted_type: 'TIMESTAMP_MILLIS' }),
  ]);
  const keys = [{ name: 'id', type: 'S' as const, role: 'HASH' as const }];

  it('omits a top-level null, as an empty CSV field is', () => {
    const map = createParquetRowMapper({ schema, types: {}, keys });
    expect(map({ id: 'a', n: null, at: undefined })).toEqual({ ok: true, item: { id: { S: 'a' } }, key: 'a' });
  });
  it('gives a column S or TTL when types says so', () => {
    const map = createParquetRowMapper({ schema, types: { n: 'S', at: 'TTL' }, keys });
    const row = { id: 'a', n: 7n, at: '2030-01-02T03:04:05.678Z' };
    expect(map(row)).toMatchObject({ ok: true, item: { n: { S: '7' }, at: { N: '1893553445' } } });
  });
  it('rejects a row without its key', () => {
    const map = createParquetRowMapper({ schema, types: {}, keys });
    expect(map({ id: null, n: 1n })).toMatchObject({ ok: false, reason: expect.stringContaining('"id"') });
  });
});

describe('decimalText', () => {
  it.each([
    [123n, 0, '123'],
    [123n, 5, '0.00123'],
    [-100n, 2, '-1'],
    [10n ** 37n, 2, `1${'0'.repeat(35)}`],
  ])('%s x 10^-%s is %s', (raw, scale, want) => expect(decimalText(raw, scale)).toBe(want));
});

describe('planRowGroupChunks', () => {
  const groups = [0, 1, 2, 3, 4].map((index) => ({
    index,
    start: 4 + index * 100,
    end: 4 + (index + 1) * 100,
    rows: 10,
    firstRow: index * 10,
    uncompressedBytes: 300,
  }));
  it('closes a chunk once it holds the chunk size: 250 bytes -> groups 0-2, 3-4', () => {
    // 100 + 100 = 200 < 250, + 100 = 300 >= 250: the chunk closes after the third group.
    expect(planRowGroupChunks(groups, 250)).toEqual([
      { start: 4, end: 304, line: 1 },
      { start: 304, end: 504, line: 31 },
    ]);
  });
  it('gives each row group its own chunk when the chunk size is smaller than one', () => {
    expect(planRowGroupChunks(groups, 1).map((c) => c.line)).toEqual([1, 11, 21, 31, 41]);
  });
});
