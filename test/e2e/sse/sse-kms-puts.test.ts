import { gzipSync } from 'node:zlib';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { putObject } from '../../../lambdas/wiring/aws-io.js';
import { createWiring, type Wiring } from '../../../lambdas/wiring/wiring.js';
import { createBucket, createTable, putText, runImport, s3 } from '../harness.js';
import { NGRAM_TYPES, letterFile } from '../sources/letters.js';
import { createKmsKey } from './kms-key.js';
import { recordSseHeaders, stopRecordingSse } from './record-sse-headers.js';

/** A key that exists in the engine's KMS: on AWS, S3 refuses a PUT under a key it cannot use. */
let KEY_ARN = '';
/** What S3 reads as "encrypt with SSE-KMS under this key" (PutObject's request headers). */
const sseKmsHeaders = () => ({
  'x-amz-server-side-encryption': 'aws:kms',
  'x-amz-server-side-encryption-aws-kms-key-id': KEY_ARN,
  // An S3 Bucket Key: far fewer KMS requests (issue 38, risk 8; https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-key.html).
  'x-amz-server-side-encryption-bucket-key-enabled': 'true',
});
beforeAll(async () => {
  KEY_ARN = await createKmsKey('s3-ddb-import sse-kms-puts test');
});

/** How the engine stored an object: its server-side encryption and key, as HeadObject reports them. */
async function storedEncryption(bucket: string, key: string) {
  const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
  return { sse: head.ServerSideEncryption, key: head.SSEKMSKeyId };
}

/** The functions' wiring as the construct configures it for an SSE-KMS bucket (BUCKET_KMS_KEY_ARN), or without. */
function wiringWith(bucketKmsKeyArn: string | null): Wiring {
  return createWiring({ config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, bucketKmsKeyArn } });
}

let wiring: Wiring | undefined;
afterEach(() => {
  if (wiring) stopRecordingSse(wiring.s3);
  wiring = undefined;
});

describe('an SSE-KMS bucket: every PUT the functions make names the bucket key', () => {
  it('staged pieces, rejects and the report all ask for SSE-KMS with the key; no read carries an SSE header', async () => {
    const bucket = await createBucket();
    const file = letterFile('k', 12_000); // ~330 KB of TSV: its ~90 KB .gz is expected to hold 4 x that, over 128 KiB
    const bad = 'bad-1\tnot-a-year\t1\t1\nbad-2\tnot-a-year\t2\t2\n'; // year is the table's N key: rejected
    await putText(bucket, 'kms/1gram-k.tsv.gz', gzipSync(file.text + bad));
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    wiring = wiringWith(KEY_ARN);
    const recorded = recordSseHeaders(wiring.s3);

    const { summary } = await runImport(
      { bucket, key: 'kms/1gram-k.tsv.gz', table, types: NGRAM_TYPES, chunkMiB: 0.125 },
      { wiring, maxConcurrency: 4, executionName: 'sse-kms-1' },
    );

    expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', rows: 12_002, written: 12_000, rejected: 2 });
    const puts = recorded.filter((r) => r.command === 'PutObjectCommand');
    const keys = puts.map((p) => p.key);
    // Each kind of PUT happened: the staged pieces, the chunk's rejects file, the report.
    expect(keys.filter((k) => k.startsWith('s3-ddb-import/staging/sse-kms-1/')).length).toBeGreaterThan(1);
    expect(keys.filter((k) => /^s3-ddb-import\/rejects\/sse-kms-1\/.+\.csv$/.test(k))).toHaveLength(1);
    expect(keys).toContain('s3-ddb-import/rejects/sse-kms-1/report.json');
    for (const put of puts) expect(put, put.key).toMatchObject({ method: 'PUT', sse: sseKmsHeaders() });
    // Reads, listings and deletes send none: S3 refuses SSE headers on a GET of an SSE-KMS object with 400
    // (https://docs.aws.amazon.com/AmazonS3/latest/userguide/specifying-kms-encryption.html). The engine accepts
    // them, so only this record proves it.
    expect(recorded.filter((r) => r.command !== 'PutObjectCommand' && Object.keys(r.sse).length > 0)).toEqual([]);
    expect(await storedEncryption(bucket, 's3-ddb-import/rejects/sse-kms-1/report.json')).toEqual({
      sse: 'aws:kms',
      key: KEY_ARN,
    });
  });

  it('reach the server as SSE-KMS: the object is stored under the key', async () => {
    const bucket = await createBucket();
    wiring = wiringWith(KEY_ARN);
    const recorded = recordSseHeaders(wiring.s3);

    await putObject(wiring.s3, bucket, 'k.json', '{}', 'application/json', KEY_ARN);

    expect(recorded).toEqual([{ command: 'PutObjectCommand', key: 'k.json', method: 'PUT', sse: sseKmsHeaders() }]);
    expect(await storedEncryption(bucket, 'k.json')).toEqual({ sse: 'aws:kms', key: KEY_ARN });
  });

  it('sends no SSE header without a key (SSE-S3 buckets, local runs): the bucket default applies', async () => {
    const bucket = await createBucket();
    wiring = wiringWith(null);
    const recorded = recordSseHeaders(wiring.s3);

    await putObject(wiring.s3, bucket, 'k.json', '{}', 'application/json', wiring.config.bucketKmsKeyArn);
    expect(recorded).toEqual([{ command: 'PutObjectCommand', key: 'k.json', method: 'PUT', sse: {} }]);
    expect((await storedEncryption(bucket, 'k.json')).sse).not.toBe('aws:kms');
  });
});
