import { describe, expect, it } from 'vitest';
import { resolveImportRequest, type FoundSource } from '../../../lambdas/request/resolve-request.js';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';

const REQUEST: ImportRequest = { bucket: 'b', prefix: 'exp/', table: 't' };
/** An export's data files are named `<id>.json.gz` whatever their format. */
const FORMAT_KEY = 'exp/AWSDynamoDB/01/data/x.json.gz';
const TYPES = { ION: 'dynamodb-ion', DYNAMODB_JSON: 'dynamodb-json' } as const;
const exported = (outputFormat: keyof typeof TYPES): FoundSource => ({
  formatKey: FORMAT_KEY,
  export: { outputFormat, type: TYPES[outputFormat] },
});

describe('resolveImportRequest of a DynamoDB export', () => {
  it.each([
    // The manifest names the format: it is the request's, whatever the data files' names would say.
    ['ION', {}, { type: 'dynamodb-ion' }],
    ['DYNAMODB_JSON', {}, { type: 'dynamodb-json' }],
    // A request naming the same type, or only a compression, keeps what it says.
    ['ION', { type: 'dynamodb-ion' }, { type: 'dynamodb-ion' }],
    ['ION', { compression: 'gzip' }, { type: 'dynamodb-ion', compression: 'gzip' }],
  ] as const)('reads an export in %s with %j as %j', (exportFormat, format, expected) => {
    expect(resolveImportRequest({ ...REQUEST, format }, exported(exportFormat)).format).toEqual(expected);
  });

  it('leaves a request for other sources as it is', () => {
    const request = { ...REQUEST, format: { type: 'csv' as const } };
    expect(resolveImportRequest(request, { formatKey: FORMAT_KEY }).format.type).toBe('csv');
  });

  it('fails when the request names another format than the manifest', () => {
    const request = { ...REQUEST, format: { type: 'dynamodb-json' as const } };
    expect(() => resolveImportRequest(request, exported('ION'))).toThrow(
      expect.objectContaining({
        name: 'InvalidRequestError',
        message: expect.stringContaining(
          `format.type: "dynamodb-json", but the export's manifest-summary.json says outputFormat ION`,
        ),
      }),
    );
  });
});
