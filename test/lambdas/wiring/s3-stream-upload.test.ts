import { GetObjectCommand, ListMultipartUploadsCommand, S3Client } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { MIN_PART_BYTES, startStreamUpload } from '../../../lambdas/wiring/s3-stream-upload.js';
import { createBucket, listKeys, s3 } from '../../e2e/harness.js';
import { recordSseHeaders } from '../../e2e/sse/record-sse-headers.js';

const KEY_ARN = 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
/** 64 KiB of a byte that differs per piece, so a part out of order or repeated shows. */
const piece = (i: number) => Buffer.alloc(64 * 1024, i % 251);

async function writePieces(upload: ReturnType<typeof startStreamUpload>, count: number): Promise<Buffer> {
  const pieces = Array.from({ length: count }, (_, i) => piece(i));
  for (const p of pieces) await upload.write(p);
  return Buffer.concat(pieces);
}

describe('startStreamUpload', () => {
  it('sends one PutObject for what fits in a part', async () => {
    const bucket = await createBucket();
    const client = new S3Client({ forcePathStyle: true });
    const sent = recordSseHeaders(client);
    const upload = startStreamUpload(client, { bucket, key: 'small.csv', contentType: 'text/csv', kmsKeyArn: null });
    const body = await writePieces(upload, 3);
    await upload.end();
    expect(sent.map((s) => s.command)).toEqual(['PutObjectCommand']);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'small.csv' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
    expect(got.ContentType).toBe('text/csv');
  });

  // 13 MiB in 5 MiB parts: 3 parts; SSE-KMS headers on CreateMultipartUpload only (the parts inherit them).
  it('sends 5 MiB parts in order for more, asking for SSE-KMS once', async () => {
    const bucket = await createBucket();
    const client = new S3Client({ forcePathStyle: true });
    const sent = recordSseHeaders(client);
    const target = { bucket, key: 'big.csv', contentType: 'text/csv', kmsKeyArn: KEY_ARN, partBytes: MIN_PART_BYTES };
    const upload = startStreamUpload(client, target);
    const body = await writePieces(upload, 13 * 16);
    await upload.end();
    expect(sent.map((s) => s.command)).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    expect(sent[0].sse).toMatchObject({ 'x-amz-server-side-encryption': 'aws:kms' });
    expect(sent.slice(1).every((s) => Object.keys(s.sse).length === 0)).toBe(true);
    const got = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: 'big.csv' }));
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
  });

  it('aborts a multipart upload it gives up on: no object, no upload left open', async () => {
    const bucket = await createBucket();
    const client = new S3Client({ forcePathStyle: true });
    const sent = recordSseHeaders(client);
    const upload = startStreamUpload(client, { bucket, key: 'gone.csv', contentType: 'text/csv', kmsKeyArn: null });
    await writePieces(upload, 12 * 16); // 12 MiB: parts 1 (8 MiB) sent, the rest waiting for more
    await upload.abort();
    expect(sent.map((s) => s.command)).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'AbortMultipartUploadCommand',
    ]);
    expect(await listKeys(bucket, '')).toEqual([]);
    expect((await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads ?? []).toEqual([]);
  });

  it('fails when asked for parts under 5 MiB, which S3 refuses', () => {
    const client = new S3Client({ forcePathStyle: true });
    const target = { bucket: 'b', key: 'k', contentType: 'text/csv', kmsKeyArn: null, partBytes: MIN_PART_BYTES - 1 };
    expect(() => startStreamUpload(client, target)).toThrow(/EntityTooSmall|5MB/);
  });
});
