import { describe, expect, it } from 'vitest';
import { createBucket, createTable, putText, runImport, scanAll } from './harness.js';

/** A watched prefix builds the request from an S3 event, whose object keys arrive URL-encoded. */
describe('an object key as S3 events spell it', () => {
  it('finds "imports/my file (1).csv" from the encoded "imports/my+file+%281%29.csv"', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'imports/my file (1).csv', 'id,n\na,1\nb,2\n');
    const table = await createTable(['id', 'S']);

    const { summary } = await runImport({ bucket, key: 'imports/my+file+%281%29.csv', table, types: { n: 'N' } });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', key: 'imports/my file (1).csv', rows: 2, written: 2 });
    expect((await scanAll(table)).map((i) => i.id.S).sort()).toEqual(['a', 'b']);
  });

  it('takes a key that really holds "+" as it is', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'c++/x.csv', 'id\nz\n');
    const table = await createTable(['id', 'S']);
    const { summary } = await runImport({ bucket, key: 'c++/x.csv', table });
    expect(summary).toMatchObject({ key: 'c++/x.csv', rows: 1, written: 1 });
  });

  it('fails when neither the key nor its decoded form exists, naming the key as sent', async () => {
    const bucket = await createBucket();
    const table = await createTable(['id', 'S']);
    await expect(runImport({ bucket, key: 'no+such%20file.csv', table })).rejects.toMatchObject({
      name: 'SourceObjectNotFoundError',
      message: expect.stringContaining(`s3://${bucket}/no+such%20file.csv`),
    });
  });
});
