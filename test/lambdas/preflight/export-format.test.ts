import { describe, expect, it } from 'vitest';
import { withExportFormat } from '../../../lambdas/preflight/export-format.js';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';

const REQUEST: ImportRequest = { bucket: 'b', prefix: 'exp/', table: 't' };

describe('withExportFormat', () => {
  it.each([
    // The manifest names the format: it is the request's, whatever the data files' names would say.
    ['ION', {}, { type: 'dynamodb-ion' }],
    ['DYNAMODB_JSON', {}, { type: 'dynamodb-json' }],
    // A request naming the same type, or only a compression, keeps what it says.
    ['ION', { type: 'dynamodb-ion' }, { type: 'dynamodb-ion' }],
    ['ION', { compression: 'gzip' }, { type: 'dynamodb-ion', compression: 'gzip' }],
  ] as const)('reads an export in %s with %j as %j', (exportFormat, format, expected) => {
    expect(withExportFormat({ ...REQUEST, format }, exportFormat).format).toEqual(expected);
  });

  it('leaves a request for other sources as it is', () => {
    const request = { ...REQUEST, format: { type: 'csv' as const } };
    expect(withExportFormat(request, undefined)).toBe(request);
  });

  it('fails when the request names another format than the manifest', () => {
    expect(() => withExportFormat({ ...REQUEST, format: { type: 'dynamodb-json' } }, 'ION')).toThrow(
      expect.objectContaining({
        name: 'InvalidRequestError',
        message: expect.stringContaining(
          `format.type: "dynamodb-json", but the export's manifest-summary.json says outputFormat ION`,
        ),
      }),
    );
  });
});
