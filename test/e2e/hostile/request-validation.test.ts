import { describe, expect, it } from 'vitest';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import { createBucket, createTable, listKeys, putText, runImport, scanAll, uniqueName } from '../harness.js';

/**
 * A bad request fails the whole workflow in Preflight, before any write: the error's name is what a
 * Step Functions Catch matches, and its message names the field and the problem.
 */
const GOOD_CSV = 'id,name,score\na,alpha,1\nb,beta,2\n';
/** Everything the workflow writes to S3 lives under this prefix (rejects and report.json). */
const OUTPUT_PREFIX = 's3-ddb-import/';

/** A bucket holding a good file, a table keyed by `id`: what a request needs to go wrong in one place only. */
async function setUp() {
  const bucket = await createBucket();
  await putText(bucket, 'in/good.csv', GOOD_CSV);
  const table = await createTable(['id', 'S']);
  return { bucket, key: 'in/good.csv', table };
}

/** Runs the request and returns the error it failed with; fails the test if it succeeded. */
async function failure(request: unknown): Promise<Error> {
  const outcome = await runImport(request as ImportRequest, { executionName: uniqueName('invalid') }).then(
    (r) => r.summary,
    (error: Error) => error,
  );
  expect(outcome, 'the execution must fail').toBeInstanceOf(Error);
  return outcome as Error;
}

async function expectNothingWritten(bucket: string, table: string | null): Promise<void> {
  if (table) expect(await scanAll(table)).toEqual([]);
  expect(await listKeys(bucket, OUTPUT_PREFIX)).toEqual([]);
}

type Place = Awaited<ReturnType<typeof setUp>>;

describe('request validation through the whole workflow', () => {
  it.each([
    // A required field left out.
    {
      problem: 'a required field (table) is missing',
      request: ({ bucket, key }: Place) => ({ bucket, key }),
      message: 'table: required, a non-empty string',
    },
    // Only S, N, BOOL and JSON exist.
    {
      problem: 'a type name is unknown',
      request: (p: Place) => ({ ...p, types: { score: 'INT' } }),
      message: 'types.score: unknown type "INT" (known: S, N, BOOL, JSON, TTL)',
    },
    // csv-parse takes longer delimiters, the scanner and the design do not.
    {
      problem: 'the delimiter has more than one character',
      request: (p: Place) => ({ ...p, format: { delimiter: ';;' } }),
      message: 'format.delimiter: must be one character other than a newline, got ";;"',
    },
    // Without a header the names must come from the request.
    {
      problem: 'header is false and no columns are given',
      request: (p: Place) => ({ ...p, format: { header: false } }),
      message: 'format.columns: required when format.header is false',
    },
  ])('fails when $problem', async ({ request, message }) => {
    const place = await setUp();
    const error = await failure(request(place));
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toContain(message);
    await expectNothingWritten(place.bucket, place.table);
  });

  it('fails when the table does not exist', async () => {
    const { bucket, key } = await setUp();
    const missing = uniqueName('no-such-table');
    const error = await failure({ bucket, key, table: missing });
    expect(error.name).toBe('TableNotFoundError');
    expect(error.message).toBe(`table "${missing}" does not exist`);
    await expectNothingWritten(bucket, null);
  });

  it('fails when the object does not exist', async () => {
    const { bucket, table } = await setUp();
    const error = await failure({ bucket, key: 'in/missing.csv', table });
    expect(error.name).toBe('SourceObjectNotFoundError');
    expect(error.message).toBe(`source object s3://${bucket}/in/missing.csv does not exist`);
    await expectNothingWritten(bucket, table);
  });

  it('fails when a key attribute of the table is not among the columns', async () => {
    const { bucket, key } = await setUp();
    const table = await createTable(['id', 'S'], ['year', 'N']);
    const error = await failure({ bucket, key, table });
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toContain(
      'columns: key attribute "year" (RANGE, N) is not among the columns [id, name, score]',
    );
    await expectNothingWritten(bucket, table);
  });
});
