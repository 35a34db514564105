import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createReadStream } from 'node:fs';
import { sseKmsFields } from '../../../lambdas/wiring/aws-io.js';
import type { LocalFile } from './source.js';

/** S3's smallest multipart part (all but the last): 5 MiB (https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html). */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** S3 allows at most 10,000 parts per upload (same page); parts grow past the asked size for huge files. */
export const MAX_PARTS = 10_000;
/** Default part size: 16 MiB keeps a 150 GiB file under 10,000 parts and 4 parts in flight under 64 MiB of memory. */
export const DEFAULT_PART_BYTES = 16 * 1024 * 1024;
/** Parts in flight at once (lib-storage's `queueSize`; it buffers queueSize x partSize bytes). */
export const DEFAULT_PARTS_IN_FLIGHT = 4;

export interface UploadOptions {
  /** @default DEFAULT_PART_BYTES */
  readonly partBytes?: number;
  /** @default DEFAULT_PARTS_IN_FLIGHT */
  readonly partsInFlight?: number;
  /** Bytes sent so far of all files, after each part. */
  readonly onProgress?: (loaded: number, total: number) => void;
  /**
   * The bucket's KMS key (the stack's BucketKmsKeyArn output): each file is uploaded with SSE-KMS headers naming it,
   * as the functions put (lambdas/wiring/aws-io.ts `sseKmsFields`), so a bucket policy that denies uploads without
   * them lets it through. Needs kms:GenerateDataKey on the key, and kms:Decrypt too for a multipart upload.
   * @default null - no encryption headers: the bucket's default encryption applies
   */
  readonly kmsKeyArn?: string | null;
}

/**
 * Uploads local files under `keyPrefix`, one after the other ({@link uploadFile}); each one's parts go in parallel.
 * Returns the keys.
 */
export async function uploadFiles(
  s3: S3Client,
  bucket: string,
  keyPrefix: string,
  files: readonly LocalFile[],
  options: UploadOptions = {},
): Promise<string[]> {
  const total = files.reduce((sum, f) => sum + f.size, 0);
  let before = 0;
  const keys: string[] = [];
  for (const file of files) {
    const key = `${keyPrefix}${file.name}`;
    const done = before;
    await uploadFile(s3, bucket, key, file, {
      ...options,
      onProgress: (loaded) => options.onProgress?.(done + loaded, total),
    });
    before += file.size;
    keys.push(key);
  }
  options.onProgress?.(total, total);
  return keys;
}

/**
 * Uploads one local file to `key` with @aws-sdk/lib-storage's Upload: a multipart upload with parts in parallel for
 * anything over one part, a single PutObject below (https://www.npmjs.com/package/@aws-sdk/lib-storage), so no
 * single PUT ever carries more than one part: S3 takes at most 5 GB in one PUT
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/upload-objects.html). A failed upload aborts its multipart
 * upload (leavePartsOnError false), so no orphan parts are billed. `onProgress` gets this file's bytes sent so far.
 */
export async function uploadFile(
  s3: S3Client,
  bucket: string,
  key: string,
  file: Pick<LocalFile, 'path' | 'size'>,
  options: UploadOptions = {},
): Promise<void> {
  const upload = new Upload({
    client: s3,
    // lib-storage sends these params with the single PutObject or with CreateMultipartUpload, whose encryption
    // the parts inherit (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateMultipartUpload.html).
    params: {
      Bucket: bucket,
      Key: key,
      Body: createReadStream(file.path),
      ContentLength: file.size,
      ...sseKmsFields(options.kmsKeyArn),
    },
    partSize: partBytesFor(file.size, options.partBytes ?? DEFAULT_PART_BYTES),
    queueSize: options.partsInFlight ?? DEFAULT_PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  upload.on('httpUploadProgress', (progress) => options.onProgress?.(progress.loaded ?? 0, file.size));
  await upload.done();
}

/** The asked part size, at least S3's minimum, and grown so the file fits in MAX_PARTS parts. */
export function partBytesFor(size: number, asked: number): number {
  return Math.max(MIN_PART_BYTES, asked, Math.ceil(size / MAX_PARTS));
}
