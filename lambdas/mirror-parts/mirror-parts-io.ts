import { DeleteObjectsCommand, GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { listPages } from '../source/s3-listing.js';
import { putObject } from '../wiring/aws-io.js';
import { startStreamUpload, type StreamUpload } from '../wiring/s3-stream-upload.js';
import type { WriteCalls } from '../write/write-mode.js';

/** The AWS calls of MirrorComparePart and MirrorDeletePart. */
export interface MirrorPartsIo {
  /** Every key under `prefix`, in key order. */
  listKeys(bucket: string, prefix: string): Promise<string[]>;
  /** The first keys under `prefix`, one listing page (at most 1,000). */
  firstKeys(bucket: string, prefix: string): Promise<string[]>;
  /** Deletes `keys` (at most 1,000: one DeleteObjects); throws when S3 reports any key it could not delete. */
  deleteKeys(bucket: string, keys: readonly string[]): Promise<void>;
  /** One object's text (a key-part object or a delete list: bounded by one part). */
  getText(bucket: string, key: string): Promise<string>;
  /** A delete list, streamed in bounded memory (its size is the part's deletes, not known ahead). */
  startUpload(bucket: string, key: string): StreamUpload;
  putText(bucket: string, key: string, body: string): Promise<void>;
  /** The deletes' BatchWriteItem, on the lean transport the import's writers use. */
  readonly writeCalls: WriteCalls;
}

/** The calls bound to SDK clients; objects encrypted with the bucket's KMS key when there is one. */
export function mirrorPartsIo(s3: S3Client, writeCalls: WriteCalls, kmsKeyArn: string | null): MirrorPartsIo {
  const pages = listPages(s3); // the SDK's paginator (async/sdk-pages.ts), not a loop of our own
  return {
    async listKeys(bucket, prefix) {
      const keys: string[] = [];
      for await (const page of pages(bucket, prefix)) {
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
      }
      return keys;
    },
    async firstKeys(bucket, prefix) {
      const page = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
    },
    async deleteKeys(bucket, keys) {
      const Objects = keys.map((Key) => ({ Key }));
      const reply = await s3.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects, Quiet: true } }));
      const failed = reply.Errors ?? [];
      if (failed.length > 0)
        throw new Error(`DeleteObjects left ${failed.length} keys, first ${failed[0].Key}: ${failed[0].Code}`);
    },
    async getText(bucket, key) {
      const response = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
      return (await response.Body?.transformToString('utf8')) ?? '';
    },
    startUpload: (bucket, key) =>
      startStreamUpload(s3, { bucket, key, contentType: 'application/x-ndjson', kmsKeyArn }),
    putText: (bucket, key, body) => putObject(s3, bucket, key, body, 'application/x-ndjson', kmsKeyArn),
    writeCalls,
  };
}

/** The lines of a text, without the empty one after the last LF. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
