import {
  GetObjectCommand,
  HeadObjectCommand,
  S3ServiceException,
  type GetObjectCommandInput,
} from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  FIRST_GET_BYTES,
  MAX_GET_BYTES,
  readRange,
  type SendGetObject,
} from '../../../lambdas/source/s3-range-reader.js';
import { createBucket, putText, s3 } from '../../e2e/harness.js';

const MIB = 1024 * 1024;
/** 20 MiB + 5 bytes of a pattern whose every byte says where it is (mod 251). */
const SIZE = 20 * MIB + 5;
const body = Buffer.from(Array.from({ length: SIZE }, (_, i) => i % 251));

/** The real GetObject, recording each request's Range. */
function recordingSend() {
  const ranges: string[] = [];
  const send: SendGetObject = (input: GetObjectCommandInput) => {
    ranges.push(input.Range!);
    return s3.send(new GetObjectCommand(input));
  };
  return { send, ranges };
}

async function readAll(stream: AsyncIterable<Buffer>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part);
  return Buffer.concat(parts);
}

describe('readRange against the local S3', () => {
  let source: { bucket: string; key: string; etag: string };
  beforeAll(async () => {
    const bucket = await createBucket();
    await putText(bucket, 'big.bin', body);
    const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: 'big.bin' }));
    source = { bucket, key: 'big.bin', etag: head.ETag! };
  });

  it('reads a large range in GETs that start small and double up to 8 MiB, every byte once, in order', async () => {
    const { send, ranges } = recordingSend();
    const bytes = await readAll(readRange(send, source, 3, SIZE));
    expect(bytes.equals(body.subarray(3))).toBe(true);
    // 256 KiB, 512 KiB, 1, 2, 4 and 8 MiB (15.75 MiB from byte 3), then what is left: 4.25 MiB + 2 bytes.
    const KIB = 1024;
    const lengths = [256 * KIB, 512 * KIB, MIB, 2 * MIB, 4 * MIB, 8 * MIB, SIZE - 3 - 15.75 * MIB];
    let at = 3;
    const expected = lengths.map((length) => `bytes=${at}-${(at += length) - 1}`);
    expect(ranges).toEqual(expected);
    expect(FIRST_GET_BYTES).toBe(256 * KIB);
    expect(MAX_GET_BYTES).toBe(8 * MIB);
  });

  it('asks for no more than its first GET when the reader stops early (a header read to the end of the object)', async () => {
    const { send, ranges } = recordingSend();
    for await (const piece of readRange(send, source, 0, SIZE)) {
      expect(piece[0]).toBe(0);
      break;
    }
    expect(ranges).toEqual([`bytes=0-${FIRST_GET_BYTES - 1}`]);
  });

  it('reads a range shorter than the first GET in one request to its end', async () => {
    const { send, ranges } = recordingSend();
    const bytes = await readAll(readRange(send, source, 1000, 2000));
    expect(bytes.equals(body.subarray(1000, 2000))).toBe(true);
    expect(ranges).toEqual(['bytes=1000-1999']);
  });

  it('sends IfMatch with every GET: an object replaced between two GETs fails by name', async () => {
    const { send } = recordingSend();
    let replaced = false;
    const replacing: SendGetObject = async (input) => {
      if (input.Range !== `bytes=0-${FIRST_GET_BYTES - 1}` && !replaced) {
        replaced = true;
        await putText(source.bucket, source.key, body.subarray(0, SIZE - 1));
      }
      return send(input);
    };
    await expect(readAll(readRange(replacing, source, 0, SIZE))).rejects.toMatchObject({
      name: 'SourceObjectChangedError',
    });
    expect(replaced).toBe(true);
    await putText(source.bucket, source.key, body);
    const head = await s3.send(new HeadObjectCommand({ Bucket: source.bucket, Key: source.key }));
    source = { ...source, etag: head.ETag! };
  });

  /** The real GetObject, failing its first request with S3's reply `name` and `status` (the engine sends neither). */
  function failingOnce(name: string, status: number) {
    const { send, ranges } = recordingSend();
    let failed = false;
    const failing: SendGetObject = async (input) => {
      if (failed) return send(input);
      failed = true;
      ranges.push(input.Range!);
      const fault = status >= 500 ? 'server' : 'client';
      throw new S3ServiceException({ name, $fault: fault, $metadata: { httpStatusCode: status }, message: name });
    };
    return { send: failing, ranges };
  }

  // S3 asks callers to slow down with 503 SlowDown: the SDK's classifiers call it a throttle, so the read goes on.
  it('resumes after a throttle (503 SlowDown), every byte once', async () => {
    const { send, ranges } = failingOnce('SlowDown', 503);
    const bytes = await readAll(readRange(send, source, 0, 1000));
    expect(bytes.equals(body.subarray(0, 1000))).toBe(true);
    expect(ranges).toEqual(['bytes=0-999', 'bytes=0-999']);
  });

  // A reply the SDK would not retry (403 AccessDenied): asking again cannot help, the read fails at once, as it is.
  it('fails when S3 denies the GET, after one request, with its own error', async () => {
    const { send, ranges } = failingOnce('AccessDenied', 403);
    await expect(readAll(readRange(send, source, 0, 1000))).rejects.toMatchObject({ name: 'AccessDenied' });
    expect(ranges).toEqual(['bytes=0-999']);
  });
});
