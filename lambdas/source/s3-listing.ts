import type { ListObjectsV2CommandInput, ListObjectsV2CommandOutput } from '@aws-sdk/client-s3';
import type { ListedObject } from './source-set.js';

export type SendListObjects = (input: ListObjectsV2CommandInput) => Promise<ListObjectsV2CommandOutput>;

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
  send: SendListObjects,
  bucket: string,
  prefix: string,
  options: { readonly max: number; readonly ownPrefixes: readonly string[] },
): Promise<ListingResult> {
  const objects: ListedObject[] = [];
  const skipped: Record<string, number> = {};
  let token: string | undefined;
  do {
    const page = await send({ Bucket: bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) });
    for (const item of page.Contents ?? []) {
      const key = item.Key ?? '';
      const size = item.Size ?? 0;
      const reason = skipReason(key, size, prefix, options.ownPrefixes);
      if (reason) skipped[reason] = (skipped[reason] ?? 0) + 1;
      else objects.push({ key, size, etag: item.ETag ?? '' });
      if (objects.length > options.max) return { objects, skipped, overMax: true };
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return { objects, skipped, overMax: false };
}
