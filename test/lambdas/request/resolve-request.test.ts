import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../lambdas/contract/errors.js';
import { resolveImportRequest } from '../../../lambdas/request/resolve-request.js';

const MINIMAL = { bucket: 'b', key: 'data/words.csv', table: 't' };

/** Resolves `input` expecting it to throw; returns the error for its name and message to be checked. */
function problemWith(input: unknown): Error {
  try {
    resolveImportRequest(input);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
}

describe('resolveImportRequest', () => {
  it('fails when spread is not a boolean', () => {
    const error = problemWith({ ...MINIMAL, spread: 'yes' });
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toContain('spread: must be true or false, got "yes"');
  });

  it('applies every default to a CSV request', () => {
    expect(resolveImportRequest(MINIMAL)).toEqual({
      ...MINIMAL,
      format: { type: 'csv', delimiter: ',', header: true, quote: '"' },
      types: {},
      chunkMiB: 64,
      maxWriteRate: 0,
      spread: false,
      mode: 'put',
      dryRun: false,
    });
  });

  it('defaults the delimiter to a tab for .tsv and .tab keys, whatever their case and compression', () => {
    for (const key of ['x.tsv', 'x.TSV', 'y.tab', 'x.tsv.gz']) {
      expect(resolveImportRequest({ ...MINIMAL, key }).format.delimiter).toBe('\t');
    }
    expect(resolveImportRequest({ ...MINIMAL, key: 'x.tsv.bak' }).format.delimiter).toBe(',');
  });

  it('takes a prefix instead of a key, the format defaults following the object named by formatKey', () => {
    const request = { bucket: 'b', prefix: 'imports/parts/', table: 't' };
    expect(resolveImportRequest(request)).toEqual({
      ...request,
      format: { type: 'csv', delimiter: ',', header: true, quote: '"' },
      types: {},
      chunkMiB: 64,
      maxWriteRate: 0,
      spread: false,
      mode: 'put',
      dryRun: false,
    });
    expect(resolveImportRequest(request, { formatKey: 'imports/parts/part-0.tsv' }).format.delimiter).toBe('\t');
  });

  it('keeps what the request sets', () => {
    const request = {
      ...MINIMAL,
      format: { type: 'csv', delimiter: ';', header: false, columns: ['a', 'b'], quote: '', compression: 'gzip' },
      types: { a: 'N', b: 'JSON' },
      chunkMiB: 0.5,
      maxWriteRate: 1000,
      spread: true,
      warmThroughput: 12_000,
      attributes: { PK: 'USER#{a}', entity: 'User' },
      exclude: ['b'],
      mode: 'update',
      dryRun: true,
      allowWithoutBackup: true,
    };
    expect(resolveImportRequest(request)).toEqual(request);
  });

  it('lists every template problem in one error, with the other problems of the request', () => {
    const error = problemWith({ ...MINIMAL, chunkMiB: 0, attributes: { PK: '{', SK: '}', ok: '{a}' } });
    expect((error as InvalidRequestError).problems).toEqual([
      'attributes.PK: a lone "{" (write "{{" for a literal brace, "{column}" for a placeholder) at character 1 of "{"',
      'attributes.SK: a lone "}" (write "}}" for a literal brace) at character 1 of "}"',
      'chunkMiB: must be a number above 0, got 0',
    ]);
  });

  it('lets types of JSON records name computed attributes and TTLs only', () => {
    const request = {
      ...MINIMAL,
      key: 'x.jsonl',
      attributes: { GSI1SK: '{amount}' },
      types: { GSI1SK: 'N', expires: 'TTL' },
    };
    expect(resolveImportRequest(request).types).toEqual({ GSI1SK: 'N', expires: 'TTL' });
  });
});

describe.each([
  { problem: 'bucket is missing', input: { key: 'k.csv', table: 't' }, field: 'bucket: required' },
  {
    problem: 'key is missing',
    input: { bucket: 'b', table: 't' },
    field: 'key: required, a non-empty string (or prefix',
  },
  {
    problem: 'both key and prefix are given',
    input: { ...MINIMAL, prefix: 'data/' },
    field: 'key, prefix: give one of them, not both (key: one object; prefix: every object under it)',
  },
  {
    problem: 'the prefix is empty',
    input: { bucket: 'b', prefix: '', table: 't' },
    field: 'prefix: must be a non-empty key prefix',
  },
  {
    problem: 'the prefix is not a string',
    input: { bucket: 'b', prefix: 7, table: 't' },
    field: 'prefix: must be a non-empty key prefix such as "imports/parts/", got 7',
  },
  { problem: 'table is missing', input: { bucket: 'b', key: 'k.csv' }, field: 'table: required' },
  { problem: 'table is empty', input: { ...MINIMAL, table: '' }, field: 'table: required' },
  {
    problem: 'a type name is unknown',
    input: { ...MINIMAL, types: { year: 'INT' } },
    field: 'types.year: unknown type "INT"',
  },
  {
    problem: 'the delimiter has two characters',
    input: { ...MINIMAL, format: { delimiter: '||' } },
    field: 'format.delimiter',
  },
  {
    problem: 'the delimiter is a newline',
    input: { ...MINIMAL, format: { delimiter: '\n' } },
    field: 'format.delimiter',
  },
  { problem: 'the quote is the delimiter', input: { ...MINIMAL, format: { quote: ',' } }, field: 'format.quote' },
  {
    problem: 'header is false without columns',
    input: { ...MINIMAL, format: { header: false } },
    field: 'format.columns: required when format.header is false',
  },
  { problem: 'a field is unknown', input: { ...MINIMAL, chunkSize: 64 }, field: 'chunkSize: unknown field' },
  {
    problem: 'a format field is unknown',
    input: { ...MINIMAL, format: { escape: '\\' } },
    field: 'format.escape: unknown field',
  },
  {
    problem: 'columns repeat a name',
    input: { ...MINIMAL, format: { columns: ['a', 'b', 'a'] } },
    field: 'format.columns[2]: duplicate column name "a"',
  },
  {
    problem: 'a column name is blank',
    input: { ...MINIMAL, format: { columns: ['a', ' '] } },
    field: 'format.columns[1]',
  },
  {
    problem: 'chunkMiB is negative',
    input: { ...MINIMAL, chunkMiB: -1 },
    field: 'chunkMiB: must be a number above 0, got -1',
  },
  { problem: 'chunkMiB is zero', input: { ...MINIMAL, chunkMiB: 0 }, field: 'chunkMiB' },
  { problem: 'maxWriteRate is a string', input: { ...MINIMAL, maxWriteRate: '100' }, field: 'maxWriteRate' },
  // UpdateTable's WarmThroughput.WriteUnitsPerSecond is a whole number of write units per second.
  {
    problem: 'warmThroughput is not a whole number',
    input: { ...MINIMAL, warmThroughput: 1500.5 },
    field: 'warmThroughput: must be a whole number of write units/s above 0, got 1500.5',
  },
  // 0 would be "no pre-warm": leave the field out for that.
  { problem: 'warmThroughput is zero', input: { ...MINIMAL, warmThroughput: 0 }, field: 'warmThroughput: must be' },
  { problem: 'warmThroughput is a string', input: { ...MINIMAL, warmThroughput: '9000' }, field: 'warmThroughput' },
  { problem: 'the request is not an object', input: ['b', 'k', 't'], field: 'request: must be a JSON object' },
])('resolveImportRequest', ({ problem, input, field }) => {
  it(`fails when ${problem}`, () => {
    const error = problemWith(input);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toContain(field);
  });
});

describe('resolveImportRequest', () => {
  it('fails when several fields are wrong, naming each of them in one error', () => {
    const error = problemWith({ key: 'k.csv', table: 't', chunkMiB: -1, types: { a: 'X' } });
    expect(error.name).toBe('InvalidRequestError');
    expect((error as InvalidRequestError).problems).toEqual([
      'bucket: required, a non-empty string',
      'types.a: unknown type "X" (known: S, N, BOOL, JSON, TTL)',
      'chunkMiB: must be a number above 0, got -1',
    ]);
  });
});

describe('resolveImportRequest format.type', () => {
  it('detects the format from the key, and the request overrides it', () => {
    expect(resolveImportRequest({ ...MINIMAL, key: 'in/events.jsonl' }).format).toEqual({ type: 'jsonl' });
    expect(resolveImportRequest({ ...MINIMAL, key: 'exp/data/x.json.gz' }).format).toEqual({ type: 'dynamodb-json' });
    expect(resolveImportRequest({ ...MINIMAL, key: 'in/part-0.json', format: { type: 'jsonl' } }).format).toEqual({
      type: 'jsonl',
    });
    // A .tsv read as CSV by request keeps the tab the extension implies.
    expect(resolveImportRequest({ ...MINIMAL, key: 'x.tsv', format: { type: 'csv' } }).format).toMatchObject({
      type: 'csv',
      delimiter: '\t',
    });
  });

  it('reads a .parquet key as Parquet, and lets types give a column S or TTL', () => {
    const request = resolveImportRequest({
      ...MINIMAL,
      key: 'lake/part-0.snappy.parquet',
      types: { a: 'S', t: 'TTL' },
    });
    expect(request.format).toEqual({ type: 'parquet' });
    expect(request.types).toEqual({ a: 'S', t: 'TTL' });
  });

  it('keeps a compression the request names, for JSON formats too', () => {
    expect(resolveImportRequest({ ...MINIMAL, key: 'x.jsonl', format: { compression: 'zstd' } }).format).toEqual({
      type: 'jsonl',
      compression: 'zstd',
    });
  });
});

describe.each([
  {
    problem: 'the type is unknown',
    input: { ...MINIMAL, format: { type: 'orc' } },
    field: 'format.type: must be one of csv, jsonl, dynamodb-json, dynamodb-ion, parquet, got "orc"',
  },
  {
    problem: 'the compression is unknown',
    input: { ...MINIMAL, format: { compression: 'bz2' } },
    field: 'format.compression: must be one of none, gzip, zstd, got "bz2"',
  },
  // CSV's dialect means nothing to a JSON format: said, not silently ignored.
  {
    problem: 'a JSON format has a delimiter',
    input: { ...MINIMAL, key: 'x.jsonl', format: { delimiter: ',' } },
    field: 'format.delimiter: only for CSV; jsonl records need none (format.type is "jsonl")',
  },
  {
    problem: 'a JSON format has columns',
    input: { ...MINIMAL, format: { type: 'dynamodb-json', columns: ['a'] } },
    field: 'format.columns: only for CSV',
  },
  {
    problem: 'a JSON format has header false',
    input: { ...MINIMAL, format: { type: 'jsonl', header: false } },
    field: 'format.header: only for CSV',
  },
  {
    problem: 'a JSON format has a quote',
    input: { ...MINIMAL, format: { type: 'jsonl', quote: '' } },
    field: 'format.quote: only for CSV',
  },
  {
    problem: 'a JSON format has types',
    input: { ...MINIMAL, key: 'x.json', types: { a: 'N' } },
    field: 'types.a: dynamodb-json records carry their own types; types may only name computed attributes',
  },
  // Parquet compresses its pages inside the file, and its schema types the columns.
  {
    problem: 'a Parquet request names a compression',
    input: { ...MINIMAL, key: 'x.parquet', format: { compression: 'gzip' } },
    field: 'format.compression: Parquet files compress their pages inside the file; give none',
  },
  {
    problem: 'a Parquet request types a column N',
    input: { ...MINIMAL, key: 'x.parquet', types: { a: 'N' } },
    field:
      'types.a: parquet records carry their own types; types may only name computed attributes (attributes) or give TTL or S',
  },
  {
    problem: 'a Parquet request has a delimiter',
    input: { ...MINIMAL, format: { type: 'parquet', delimiter: ',' } },
    field: 'format.delimiter: only for CSV; parquet records need none',
  },
  {
    problem: 'the mode is not one of the table',
    input: { ...MINIMAL, mode: 'upsert' },
    field: 'mode: must be one of put, insert, update, delete, sync, got "upsert"',
  },
  {
    problem: 'dryRun is not a boolean',
    input: { ...MINIMAL, dryRun: 'yes' },
    field: 'dryRun: must be true or false, got "yes"',
  },
  {
    problem: 'allowWithoutBackup is not a boolean',
    input: { ...MINIMAL, allowWithoutBackup: 1 },
    field: 'allowWithoutBackup: must be true or false, got 1',
  },
  {
    problem: 'an attribute template is not a string',
    input: { ...MINIMAL, attributes: { PK: 7 } },
    field: 'attributes.PK: must be a template string',
  },
  {
    problem: 'exclude is not a list of names',
    input: { ...MINIMAL, exclude: 'a,b' },
    field: 'exclude: must be an array of column names, got "a,b"',
  },
  {
    problem: 'a template has a lone brace',
    input: { ...MINIMAL, attributes: { PK: 'USER#{user_id' } },
    field: 'attributes.PK: a lone "{" (write "{{" for a literal brace, "{column}" for a placeholder) at character 6',
  },
  {
    problem: 'a template has an empty placeholder',
    input: { ...MINIMAL, attributes: { SK: 'ORDER#{}' } },
    field: 'attributes.SK: an empty placeholder "{}"',
  },
  {
    problem: 'a template is empty',
    input: { ...MINIMAL, attributes: { entity: '' } },
    field: 'attributes.entity: an empty template',
  },
  {
    problem: 'exclude names a computed attribute',
    input: { ...MINIMAL, attributes: { PK: 'USER#{a}' }, exclude: ['PK'] },
    field: 'exclude: "PK" is also computed (attributes.PK); exclude names columns not stored',
  },
])('resolveImportRequest', ({ problem, input, field }) => {
  it(`fails when ${problem}`, () => {
    const error = problemWith(input);
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error.message).toContain(field);
  });
});
