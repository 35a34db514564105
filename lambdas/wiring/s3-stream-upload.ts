import type { S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { DEFAULT_PART_BYTES } from '../environment/config.js';
import { sseKmsFields } from './aws-io.js';

/**
 * The least part S3 takes in a multipart upload (all parts but the last): 5 MiB
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html). lib-storage refuses a smaller `partSize`.
 */
export const MIN_PART_BYTES = 5 * 1024 * 1024;
/** Bytes the pipe between the writer and the upload holds before `write` waits for the upload to take them. */
const PIPE_BYTES = 64 * 1024;

/** Where a streamed object goes and how it is stored. */
export interface StreamUploadTarget {
  readonly bucket: string;
  readonly key: string;
  readonly contentType: string;
  readonly kmsKeyArn: string | null;
  /**
   * At least MIN_PART_BYTES. Rejects files pass the resolved setting (environment/config.ts rejectsPartBytes).
   * @default DEFAULT_PART_BYTES, for uploads no setting sizes
   */
  readonly partBytes?: number;
}

/** An object written a piece at a time in bounded memory. */
export interface StreamUpload {
  /** Hands on bytes; resolves once the pipe has room again (the upload took earlier bytes). */
  write(bytes: Buffer): Promise<void>;
  /** Ends the object and waits until it is stored. */
  end(): Promise<void>;
  /** Gives up: a multipart upload already started is aborted, nothing is stored. */
  abort(): Promise<void>;
}

/**
 * Streams an object to S3 with lib-storage's Upload, one part at a time (`queueSize: 1`): a single PutObject when
 * it all fits in one part, otherwise CreateMultipartUpload, UploadPart per `partBytes` and CompleteMultipartUpload
 * (aborted on failure). It holds at most one part, the one being sent, plus the pipe (PIPE_BYTES): memory stays
 * bounded whatever the object's size. SSE-KMS fields go with the PutObject or the CreateMultipartUpload, whose
 * encryption the parts inherit (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateMultipartUpload.html).
 */
export function startStreamUpload(s3: S3Client, target: StreamUploadTarget): StreamUpload {
  const pipe = new PassThrough({ highWaterMark: PIPE_BYTES });
  const upload = new Upload({
    client: s3,
    queueSize: 1,
    partSize: target.partBytes ?? DEFAULT_PART_BYTES,
    params: {
      Bucket: target.bucket,
      Key: target.key,
      Body: pipe,
      ContentType: target.contentType,
      ...sseKmsFields(target.kmsKeyArn),
    },
  });
  const done = upload.done();
  // A failed upload stops taking bytes: a writer waiting for room learns it here instead of waiting forever.
  const failed = done.then(
    () => Promise.reject(new Error('the upload ended before its body did')),
    (error: unknown) => Promise.reject(error),
  );
  failed.catch(() => {}); // read by write() and end(); never left unhandled
  return {
    async write(bytes) {
      if (pipe.write(bytes)) return;
      await Promise.race([once(pipe, 'drain'), failed]);
    },
    async end() {
      pipe.end();
      await done;
    },
    async abort() {
      // A broken body (rather than upload.abort(), whose promise settles before the abort request is sent) makes
      // lib-storage send AbortMultipartUpload, when it started one, before `done` settles.
      pipe.destroy(new Error('upload abandoned'));
      await done.catch(() => {});
    },
  };
}
