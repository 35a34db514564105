import {
  ListObjectsV2Command,
  type ListObjectsV2CommandInput,
  type ListObjectsV2CommandOutput,
  type S3Client,
} from '@aws-sdk/client-s3';
import { sdkPages } from '../async/sdk-pages.js';
import type { ListedObject } from './source-set.js';

/** The pages of one listing of `prefix`, in key order: the SDK's paginator follows the continuation tokens. */
export type ListPages = (bucket: string, prefix: string) => AsyncIterable<ListObjectsV2CommandOutput>;

/** ListObjectsV2's continuation and page-size fields (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html). */
const LIST_OBJECTS_TOKENS = { input: 'ContinuationToken', output: 'NextContinuationToken', pageSize: 'MaxKeys' };

/**
 * ListObjectsV2's pages through the SDK's paginator (async/sdk-pages.ts). `pageSize` is MaxKeys (at most 1,000 keys a
 * page); tests ask for small pages to see several. @default - S3's own page size, 1,000
 */
export function listPages(client: S3Client, pageSize?: number): ListPages {
  return (bucket, prefix) =>
    sdkPages<ListObjectsV2CommandInput, ListObjectsV2CommandOutput>(
      client,
      ListObjectsV2Command,
      LIST_OBJECTS_TOKENS,
      { Bucket: bucket, Prefix: prefix },
      pageSize,
    );
}

/**
 * Why a listed object is not imported, or null when it is. Relative to the prefix (a folder the user named
 * may itself start with `_`):
 * - a key ending in `/`: a folder marker (the console's "Create folder" writes a 0-byte one);
 * - a name, or a folder under the prefix, starting with `_` or `.`: the markers and scratch space of the tools
 *   that write folders of part files (Spark/Hadoop `_SUCCESS`, `_committed_*`, `_temporary/`, the `.part-0.crc`
 *   checksum files; a DynamoDB export's `_started`), and hidden files such as `.DS_Store`;
 * - an empty object: nothing to import;
 * - a key under one of `ownPrefixes`: the pipeline's own rejects, reports and staged pieces.
 */
export function skipReason(key: string, size: number, prefix: string, ownPrefixes: readonly string[]): string | null {
  if (key.endsWith('/')) return 'folder marker';
  const relative = key.slice(prefix.lastIndexOf('/') + 1);
  if (relative.split('/').some((part) => part.startsWith('_') || part.startsWith('.'))) return 'marker or hidden file';
  if (size === 0) return 'empty object';
  if (ownPrefixes.some((own) => key.startsWith(`${own.replace(/\/+$/, '')}/`))) return "the pipeline's own output";
  return null;
}

export interface ListingResult {
  /** The objects to import, in key order (ListObjectsV2 lists keys in UTF-8 binary order). */
  readonly objects: ListedObject[];
  /** How many listed keys were skipped, by reason. */
  readonly skipped: Record<string, number>;
  /** True when listing stopped after finding more than `max` objects. */
  readonly overMax: boolean;
}

/**
 * Lists every object under `prefix`, page by page (1,000 keys a page), keeping those `skipReason` lets
 * through. Stops as soon as more than `max` are found, so a prefix far too big fails fast.
 */
export async function listSourceObjects(
  pages: ListPages,
  bucket: string,
  prefix: string,
  options: { readonly max: number; readonly ownPrefixes: readonly string[] },
): Promise<ListingResult> {
  const objects: ListedObject[] = [];
  const skipped: Record<string, number> = {};
  // Returning mid-way ends the paginator: no page past the one that went over `max` is asked for.
  for await (const page of pages(bucket, prefix)) {
    for (const item of page.Contents ?? []) {
      const key = item.Key ?? '';
      const size = item.Size ?? 0;
      const reason = skipReason(key, size, prefix, options.ownPrefixes);
      if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
      else objects.push({ key, size, etag: item.ETag ?? '' });
      if (objects.length > options.max) return { objects, skipped, overMax: true };
    }
  }
  return { objects, skipped, overMax: false };
}
