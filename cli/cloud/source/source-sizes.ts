import { HeadObjectCommand, NoSuchKey, NotFound, paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';
import { CloudCommandError } from '../aws/clients.js';
import type { Source } from './source.js';

/** The objects a source names, with their sizes, in listing order; the first one is the one sampled. */
export interface SizedObject {
  /** An S3 key, or a local path. */
  readonly name: string;
  readonly size: number;
}

/**
 * Sizes without reading data: HeadObject's ContentLength for one object, ListObjectsV2's Size for a folder
 * (page by page, skipping the 0-byte "folder" objects the console makes), the file system for local files.
 */
export async function sourceSizes(s3: S3Client, source: Source): Promise<SizedObject[]> {
  if (source.kind === 'local') return source.files.map((f) => ({ name: f.path, size: f.size }));
  if (source.kind === 's3-object') {
    const head = await s3
      .send(new HeadObjectCommand({ Bucket: source.bucket, Key: source.key }))
      .catch((error: Error) => {
        if (!(error instanceof NotFound) && !(error instanceof NoSuchKey)) throw error;
        throw new CloudCommandError(`s3://${source.bucket}/${source.key}: no such object (a folder ends with "/")`);
      });
    return [{ name: source.key, size: head.ContentLength ?? 0 }];
  }
  const objects: SizedObject[] = [];
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: source.bucket, Prefix: source.prefix })) {
    for (const o of page.Contents ?? [])
      if (o.Key && (o.Size ?? 0) > 0) objects.push({ name: o.Key, size: o.Size ?? 0 });
  }
  if (objects.length === 0)
    throw new CloudCommandError(`s3://${source.bucket}/${source.prefix}: no objects under this prefix`);
  return objects;
}
