import { describe, expect, it } from 'vitest';
import { FORMAT_TRAITS, type FormatTraits } from '../../../lambdas/contract/format-traits.js';
import { WRITE_MODES } from '../../../lambdas/contract/import-request.js';
import {
  BUILT_IN_CHOICES,
  resolveImportRequest,
  type RequestChoices,
} from '../../../lambdas/request/resolve-request.js';

const REQUEST = { bucket: 'b', key: 'in/rows.txt', table: 't' };
const TEXT: FormatTraits = {
  title: 'Toy',
  layout: 'records',
  typedRecords: false,
  textColumns: false,
  compressedInside: false,
  headerColumns: false,
};

/** The built-in modes, and the built-in formats with one more whose traits a case sets. */
const withToy = (traits: Partial<FormatTraits> = {}): RequestChoices => ({
  modeNames: WRITE_MODES,
  formats: { ...FORMAT_TRAITS, toy: { ...TEXT, ...traits } },
});

/** Every problem of a request that must fail, as its error message lists them. */
function problemsOf(request: Record<string, unknown>, choices: RequestChoices): string {
  try {
    resolveImportRequest(request, undefined, choices);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the request resolved');
}

describe("resolveImportRequest with the wiring's table of source formats", () => {
  it('accepts a format.type the table holds, keeping its compression and typing its columns like CSV', () => {
    const request = { ...REQUEST, format: { type: 'toy', compression: 'gzip' }, types: { n: 'N' } };
    expect(resolveImportRequest(request, undefined, withToy())).toMatchObject({
      format: { type: 'toy', compression: 'gzip' },
      types: { n: 'N' },
    });
  });

  it("fails when format.type is not in the table, listing the table's types in its order", () => {
    expect(problemsOf({ ...REQUEST, format: { type: 'toy' } }, BUILT_IN_CHOICES)).toContain(
      'format.type: must be one of csv, jsonl, dynamodb-json, dynamodb-ion, parquet, got "toy"',
    );
    // A name every object has through its prototype is no type of the table.
    expect(problemsOf({ ...REQUEST, format: { type: 'toString' } }, withToy())).toContain(
      'format.type: must be one of csv, jsonl, dynamodb-json, dynamodb-ion, parquet, toy, got "toString"',
    );
  });

  it("fails when types name a column of a format whose records carry their types (the table's traits)", () => {
    const request = { ...REQUEST, format: { type: 'toy' }, types: { n: 'N' } };
    expect(problemsOf(request, withToy({ typedRecords: true }))).toContain(
      'types.n: toy records carry their own types; types may only name computed attributes (attributes) or give TTL',
    );
  });

  it("fails when a format compressed inside the file is given a compression (the table's traits)", () => {
    const request = { ...REQUEST, format: { type: 'toy', compression: 'gzip' } };
    expect(problemsOf(request, withToy({ compressedInside: true }))).toContain(
      'format.compression: Toy files compress their pages inside the file; give none',
    );
  });

  it('fails when a CSV field is given to a format of the table that is not CSV', () => {
    expect(problemsOf({ ...REQUEST, format: { type: 'toy', delimiter: ';' } }, withToy())).toContain(
      'format.delimiter: only for CSV; toy records need none (format.type is "toy")',
    );
  });
});
