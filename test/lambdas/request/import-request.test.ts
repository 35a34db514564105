import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../lambdas/runtime/errors.js';
import { resolveImportRequest } from '../../../lambdas/request/import-request.js';

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
      format: { delimiter: ',', header: true, quote: '"' },
      types: {},
      chunkMiB: 64,
      maxWriteRate: 0,
      spread: false,
    });
  });

  it('defaults the delimiter to a tab for .tsv and .tab keys, whatever their case', () => {
    for (const key of ['x.tsv', 'x.TSV', 'y.tab']) {
      expect(resolveImportRequest({ ...MINIMAL, key }).format.delimiter).toBe('\t');
    }
    expect(resolveImportRequest({ ...MINIMAL, key: 'x.tsv.gz' }).format.delimiter).toBe(',');
  });

  it('takes a prefix instead of a key, the format defaults following the object named by formatKey', () => {
    const request = { bucket: 'b', prefix: 'imports/parts/', table: 't' };
    expect(resolveImportRequest(request)).toEqual({ ...request, format: { delimiter: ',', header: true, quote: '"' }, types: {}, chunkMiB: 64, maxWriteRate: 0, spread: false });
    expect(resolveImportRequest(request, 'imports/parts/part-0.tsv').format.delimiter).toBe('\t');
  });

  it('keeps what the request sets', () => {
    const request = {
      ...MINIMAL,
      format: { delimiter: ';', header: false, columns: ['a', 'b'], quote: '' },
      types: { a: 'N', b: 'JSON' },
      chunkMiB: 0.5,
      maxWriteRate: 1000,
      spread: true,
    };
    expect(resolveImportRequest(request)).toEqual(request);
  });
});

describe.each([
  { problem: 'bucket is missing', input: { key: 'k.csv', table: 't' }, field: 'bucket: required' },
  { problem: 'key is missing', input: { bucket: 'b', table: 't' }, field: 'key: required, a non-empty string (or prefix' },
  {
    problem: 'both key and prefix are given',
    input: { ...MINIMAL, prefix: 'data/' },
    field: 'key, prefix: give one of them, not both (key: one object; prefix: every object under it)',
  },
  { problem: 'the prefix is empty', input: { bucket: 'b', prefix: '', table: 't' }, field: 'prefix: must be a non-empty key prefix' },
  { problem: 'the prefix is not a string', input: { bucket: 'b', prefix: 7, table: 't' }, field: 'prefix: must be a non-empty key prefix such as "imports/parts/", got 7' },
  { problem: 'table is missing', input: { bucket: 'b', key: 'k.csv' }, field: 'table: required' },
  { problem: 'table is empty', input: { ...MINIMAL, table: '' }, field: 'table: required' },
  { problem: 'a type name is unknown', input: { ...MINIMAL, types: { year: 'INT' } }, field: 'types.year: unknown type "INT"' },
  { problem: 'the delimiter has two characters', input: { ...MINIMAL, format: { delimiter: '||' } }, field: 'format.delimiter' },
  { problem: 'the delimiter is a newline', input: { ...MINIMAL, format: { delimiter: '\n' } }, field: 'format.delimiter' },
  { problem: 'the quote is the delimiter', input: { ...MINIMAL, format: { quote: ',' } }, field: 'format.quote' },
  {
    problem: 'header is false without columns',
    input: { ...MINIMAL, format: { header: false } },
    field: 'format.columns: required when format.header is false',
  },
  { problem: 'a field is unknown', input: { ...MINIMAL, chunkSize: 64 }, field: 'chunkSize: unknown field' },
  { problem: 'a format field is unknown', input: { ...MINIMAL, format: { escape: '\\' } }, field: 'format.escape: unknown field' },
  {
    problem: 'columns repeat a name',
    input: { ...MINIMAL, format: { columns: ['a', 'b', 'a'] } },
    field: 'format.columns[2]: duplicate column name "a"',
  },
  { problem: 'a column name is blank', input: { ...MINIMAL, format: { columns: ['a', ' '] } }, field: 'format.columns[1]' },
  { problem: 'chunkMiB is negative', input: { ...MINIMAL, chunkMiB: -1 }, field: 'chunkMiB: must be a number above 0, got -1' },
  { problem: 'chunkMiB is zero', input: { ...MINIMAL, chunkMiB: 0 }, field: 'chunkMiB' },
  { problem: 'maxWriteRate is a string', input: { ...MINIMAL, maxWriteRate: '100' }, field: 'maxWriteRate' },
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
      'types.a: unknown type "X" (known: S, N, BOOL, JSON)',
      'chunkMiB: must be a number above 0, got -1',
    ]);
  });
});
