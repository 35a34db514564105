import { S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { createDynamoDbClient } from '../../../lambdas/wiring/sdk-clients.js';
import { preflightIo } from '../../../lambdas/preflight/preflight-io.js';
import { createBucket, putText } from '../../e2e/harness.js';

type Next = (args: unknown) => Promise<unknown>;

/**
 * An S3 client whose HeadObject answers as S3 does when the role may not read the object: 403 with no body (a HEAD's
 * reply has none), a fault the local engine cannot produce with its IAM off. Every other request reaches the engine.
 */
function forbiddenHeads(): S3Client {
  const s3 = new S3Client({ forcePathStyle: true });
  const forbid = (next: Next, context: { commandName?: string }) => async (args: unknown) => {
    if (context.commandName !== 'HeadObjectCommand') return next(args);
    return { response: { statusCode: 403, headers: {}, body: undefined } };
  };
  s3.middlewareStack.add(forbid as never, { step: 'deserialize', name: 'forbidHead', priority: 'low' } as never);
  return s3;
}

describe("preflight's HeadObject", () => {
  it('fails naming the grant when S3 answers 403 (the SDK alone says only UnknownError)', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'in/rows.csv', 'id\n1\n');
    const io = preflightIo(forbiddenHeads(), createDynamoDbClient());

    const error = await io.headObject(bucket, 'in/rows.csv').catch((e: Error) => e);

    expect(error).toMatchObject({
      name: 'SourceObjectAccessDeniedError',
      message: expect.stringContaining(`s3://${bucket}/in/rows.csv cannot be read (403 Forbidden)`),
    });
    expect((error as Error).message).toContain("the function's role needs s3:GetObject on it");
  });

  it('still reads size and ETag of an object it may read', async () => {
    const bucket = await createBucket();
    await putText(bucket, 'in/rows.csv', 'id\n1\n');
    const io = preflightIo(new S3Client({ forcePathStyle: true }), createDynamoDbClient());
    expect(await io.headObject(bucket, 'in/rows.csv')).toMatchObject({ size: 5, etag: expect.stringMatching(/^"/) });
  });
});
