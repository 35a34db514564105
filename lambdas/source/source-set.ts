import type { SourceEntry, SourceSet } from '../contract/workflow-payloads.js';
import type { SourceObject } from './source-object.js';

/** An object as found in S3: its full key, size and ETag. */
export interface ListedObject {
  readonly key: string;
  readonly size: number;
  readonly etag: string;
}

/** The longest folder ("a/b/") every key starts with; "" when they share none. */
export function commonFolder(keys: readonly string[]): string {
  if (keys.length === 0) return '';
  let folder = keys[0].slice(0, keys[0].lastIndexOf('/') + 1);
  for (const key of keys) {
    while (!key.startsWith(folder)) folder = folder.slice(0, folder.lastIndexOf('/', folder.length - 2) + 1);
  }
  return folder;
}

/** The objects of an import, their keys stored once relative to their common folder. */
export function sourceSet(objects: readonly ListedObject[], exportManifest: string | null = null): SourceSet {
  const folder = commonFolder(objects.map((o) => o.key));
  const entries: SourceEntry[] = objects.map((o) => ({ key: o.key.slice(folder.length), size: o.size, etag: o.etag }));
  return { folder, objects: entries, staging: null, exportManifest };
}

/** The full key of object `index`. */
export function objectKey(sources: SourceSet, index: number): string {
  return sources.folder + sources.objects[index].key;
}

/** Object `index` as the range reader takes it: every GET sends its ETag. */
export function sourceObject(bucket: string, sources: SourceSet, index: number): SourceObject {
  return { bucket, key: objectKey(sources, index), etag: sources.objects[index].etag };
}

/** `s3://bucket/key`, as errors and logs name an object. */
export function s3Url(bucket: string, key: string): string {
  return `s3://${bucket}/${key}`;
}
