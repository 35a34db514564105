import { describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../lambdas/environment/config.js';
import { createWiring } from '../../lambdas/wiring/wiring.js';
import { createBucket, createTable, listKeys, putText, runImport, scanAll, uniqueName } from './harness.js';
import { recordSseHeaders, stopRecordingSse } from './sse/record-sse-headers.js';

/**
 * A deployed preflight knows its stack's bucket (BUCKET_NAME) and holds grants on it only: a request for another
 * bucket fails at once, naming both, before any S3 call (in AWS, S3 would answer with a bare 403 AccessDenied).
 * Here the other bucket exists and holds a good file, so only the check can stop the import.
 */
describe("a request for a bucket other than the deployment's", () => {
  it('fails in preflight with InvalidRequestError naming the stack bucket, before any S3 call', async () => {
    const [stackBucket, otherBucket] = [await createBucket(), await createBucket()];
    await putText(otherBucket, 'in/good.csv', 'id,n\na,1\n');
    const table = await createTable(['id', 'S']);
    const wiring = createWiring({
      config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, bucketName: stackBucket },
    });
    const s3Requests = recordSseHeaders(wiring.s3); // records every request the handlers send

    const outcome = await runImport(
      { bucket: otherBucket, key: 'in/good.csv', table },
      { wiring, executionName: uniqueName('other-bucket') },
    ).catch((error: Error) => error);
    stopRecordingSse(wiring.s3);

    expect(outcome).toMatchObject({
      name: 'InvalidRequestError',
      message: expect.stringContaining(
        `bucket: "${otherBucket}" is not the bucket this deployment reads (${stackBucket})`,
      ),
    });
    expect(s3Requests).toEqual([]);
    expect(await scanAll(table)).toEqual([]);
    expect(await listKeys(otherBucket, 's3-ddb-import/')).toEqual([]);
  });

  it("imports from the deployment's own bucket as before", async () => {
    const bucket = await createBucket();
    await putText(bucket, 'in/good.csv', 'id,n\na,1\n');
    const table = await createTable(['id', 'S']);
    const wiring = createWiring({
      config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, bucketName: bucket },
    });

    const { summary } = await runImport({ bucket, key: 'in/good.csv', table }, { wiring });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 1, written: 1 });
  });
});
