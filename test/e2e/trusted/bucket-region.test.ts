import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nameRegionRedirects } from '../../../lambdas/wiring/bucket-owner.js';
import { preflightIo } from '../../../lambdas/preflight/preflight-io.js';
import { dynamodb } from '../harness.js';

/**
 * A stand-in for S3 where the engine has none: it answers every request as S3 answers one sent to the wrong Region's
 * endpoint, 301 PermanentRedirect with `x-amz-bucket-region` (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html); a HEAD's answer has no body. It keeps what
 * it was asked.
 */
const asked: { method: string; url: string }[] = [];
let server: Server;
let s3: S3Client;

function answerRedirect(request: IncomingMessage, response: import('node:http').ServerResponse) {
  asked.push({ method: request.method ?? '', url: request.url ?? '' });
  const headers = { 'x-amz-bucket-region': 'us-west-2', 'content-type': 'application/xml' };
  const body =
    '<?xml version="1.0" encoding="UTF-8"?><Error><Code>PermanentRedirect</Code><Message>The bucket you are ' +
    'attempting to access must be addressed using the specified endpoint.</Message></Error>';
  response.writeHead(301, headers).end(request.method === 'HEAD' ? undefined : body);
}

beforeAll(async () => {
  server = createServer(answerRedirect);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  s3 = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: 'eu-west-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  nameRegionRedirects(s3);
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const named = (bucket: string) => ({
  name: 'SourceBucketRegionError',
  message: expect.stringMatching(new RegExp(`^bucket ${bucket} is in us-west-2, not in eu-west-1 `)),
});

describe('a bucket in another Region (issue 38, risk 7)', () => {
  it("fails preflight's HeadObject naming the bucket's Region, not as an unnamed 301", async () => {
    const failure = await preflightIo(s3, dynamodb)
      .headObject('far-bucket', 'data.csv')
      .catch((error: Error) => error);
    expect(failure).toMatchObject(named('far-bucket'));
    expect(asked.at(-1)).toEqual({ method: 'HEAD', url: '/far-bucket/data.csv' });
  });

  it.each([
    ['GetObject', () => new GetObjectCommand({ Bucket: 'far-bucket', Key: 'data.csv', Range: 'bytes=0-9' })],
    ['ListObjectsV2', () => new ListObjectsV2Command({ Bucket: 'far-bucket', Prefix: 'in/' })],
  ])('fails a %s the same way', async (_, command) => {
    const failure = await s3.send(command() as never).catch((error: Error) => error);
    expect(failure).toMatchObject(named('far-bucket'));
  });
});
