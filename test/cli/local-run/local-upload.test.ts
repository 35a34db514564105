import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planUpload, uploadPlanned } from '../../../cli/local-run/local-upload.js';
import { createBucket } from '../../e2e/harness.js';

const MIB = 1024 * 1024;

/** A client of the local engine that records the command and key of every request it sends. */
function recordingS3() {
  const s3 = new S3Client({ forcePathStyle: true });
  const sent: string[] = [];
  const record =
    (next: (args: { input: { Key?: string } }) => Promise<unknown>, context: { commandName?: string }) =>
    (args: { input: { Key?: string } }) => {
      sent.push(`${context.commandName} ${args.input.Key}`);
      return next(args);
    };
  s3.middlewareStack.add(record as never, { step: 'initialize', name: 'record-commands' } as never);
  return { s3, sent };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
async function storedHash(s3: S3Client, bucket: string, key: string): Promise<string> {
  const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return sha256(await Body!.transformToByteArray());
}

/**
 * `local` puts its source into the local S3 as S3 itself would take it. The engine takes a single PutObject of any
 * size; S3 takes at most 5 GB in one PUT (https://docs.aws.amazon.com/AmazonS3/latest/userguide/upload-objects.html),
 * so a file over one part (16 MiB) goes up as a multipart upload: the requests sent are the proof, not the engine.
 */
describe("local's upload", () => {
  it('sends a file of up to one part as one PutObject, byte for byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'upload-'));
    const path = join(dir, 'small.tsv');
    await writeFile(path, 'ngram\tyear\nthe\t1999\n');
    const bucket = await createBucket();
    const { s3, sent } = recordingS3();

    await uploadPlanned(s3, bucket, await planUpload(path));

    expect(sent).toEqual(['PutObjectCommand imports/small.tsv']);
    expect(await storedHash(s3, bucket, 'imports/small.tsv')).toBe(sha256(await readFile(path)));
  });

  it('sends a file over one part as a multipart upload of 16 MiB parts, never one PutObject, byte for byte', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'upload-'));
    const path = join(dir, 'big.tsv');
    const bytes = Buffer.alloc(33 * MIB);
    for (let i = 0; i < bytes.length; i += 4096) bytes.writeUInt32LE((i * 2654435761) >>> 0, i); // not all zeros
    await writeFile(path, bytes);
    const bucket = await createBucket();
    const { s3, sent } = recordingS3();

    await uploadPlanned(s3, bucket, await planUpload(path));

    expect(sent.filter((line) => line.startsWith('PutObjectCommand'))).toEqual([]);
    expect([...sent].sort()).toEqual([
      'CompleteMultipartUploadCommand imports/big.tsv',
      'CreateMultipartUploadCommand imports/big.tsv',
      'UploadPartCommand imports/big.tsv',
      'UploadPartCommand imports/big.tsv',
      'UploadPartCommand imports/big.tsv',
    ]);
    expect(await storedHash(s3, bucket, 'imports/big.tsv')).toBe(sha256(bytes));
  });

  it('sends each file of a folder under its relative path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'upload-'));
    await mkdir(join(dir, 'part', 'b'), { recursive: true });
    await writeFile(join(dir, 'part', 'a.tsv'), 'x\n1\n');
    await writeFile(join(dir, 'part', 'b', 'c.tsv'), 'x\n2\n');
    const bucket = await createBucket();
    const { s3, sent } = recordingS3();
    const plan = await planUpload(join(dir, 'part'));

    await uploadPlanned(s3, bucket, plan);

    const prefix = (plan.location as { prefix: string }).prefix;
    expect([...sent].sort()).toEqual([`PutObjectCommand ${prefix}a.tsv`, `PutObjectCommand ${prefix}b/c.tsv`]);
    expect(await storedHash(s3, bucket, `${prefix}b/c.tsv`)).toBe(sha256(Buffer.from('x\n2\n')));
  });
});
