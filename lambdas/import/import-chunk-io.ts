import type { S3Client } from '@aws-sdk/client-s3';
import type { SendGetObject } from '../source/s3-range-reader.js';
import { deleteObject, putObject, sendGetObject } from '../wiring/aws-io.js';
import { startStreamUpload, type StreamUpload } from '../wiring/s3-stream-upload.js';
import type { WriteCalls } from '../write/write-mode.js';

/** ImportChunk's AWS calls: the reads of its source, the writes of its items, its rejects file and staged piece. */
export interface ImportChunkIo {
  readonly getObject: SendGetObject;
  readonly writeCalls: WriteCalls;
  /** Starts the streamed upload of a rejects file (rejects-file.ts opens it at the first rejected row). */
  startRejectsUpload(bucket: string, key: string): StreamUpload;
  /** Starts the streamed upload of a sync dry run's diff file (sync-compare/diff-file.ts opens it at its first line). */
  startDiffUpload(bucket: string, key: string): StreamUpload;
  /** Deletes a staged piece once its chunk is imported. */
  deleteObject(bucket: string, key: string): Promise<void>;
  /** Stores a small text object: a mirror's keys of one invocation, one per part (lambdas/mirror/file-keys.ts). */
  putText(bucket: string, key: string, body: string): Promise<void>;
}

/** How the rejects files are stored: the bucket's KMS key (aws-io.ts `sseKmsFields`) and the upload's part size. */
export interface RejectsStorage {
  readonly kmsKeyArn: string | null;
  /** The resolved setting (environment/config.ts rejectsPartBytes). */
  readonly partBytes: number;
}

/**
 * ImportChunk's calls bound to SDK clients: GETs on the S3 client, the write calls of every mode on the lean DynamoDB
 * transport (dynamodb-transport/write-transport.ts), rejects as streamed multipart uploads.
 */
export function importChunkIo(s3: S3Client, writeCalls: WriteCalls, rejects: RejectsStorage): ImportChunkIo {
  const target = { contentType: 'text/csv', kmsKeyArn: rejects.kmsKeyArn, partBytes: rejects.partBytes };
  return {
    getObject: sendGetObject(s3),
    writeCalls,
    startRejectsUpload: (bucket, key) => startStreamUpload(s3, { ...target, bucket, key }),
    startDiffUpload: (bucket, key) =>
      startStreamUpload(s3, { ...target, contentType: 'application/x-ndjson', bucket, key }),
    deleteObject: (bucket, key) => deleteObject(s3, bucket, key),
    putText: (bucket, key, body) => putObject(s3, bucket, key, body, 'text/plain', target.kmsKeyArn),
  };
}
