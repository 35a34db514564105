/**
 * A bucket imports may read besides the stack's own (the construct's `sources`), and the account that must own it:
 * every S3 call on it then sends `ExpectedBucketOwner` (wiring/bucket-owner.ts).
 */
export interface SourceBucket {
  readonly bucket: string;
  /** The 12-digit account that must own the bucket, or null: no owner check. */
  readonly expectedOwner: string | null;
}

/**
 * SOURCE_BUCKETS as the construct writes it (lib/import-source.ts): JSON `[{"bucket": …, "expectedOwner": … | null}]`.
 * Text that is not such a list fails the container's start, naming the variable: a deployment that silently read
 * no owner would send none.
 *
 * @example
 * parseSourceBuckets('[{"bucket":"partner","expectedOwner":"222222222222"}]');
 * // [{ bucket: 'partner', expectedOwner: '222222222222' }]
 */
export function parseSourceBuckets(text: string | null): SourceBucket[] {
  if (!text) return [];
  const value: unknown = JSON.parse(text);
  const valid = (s: unknown): s is SourceBucket =>
    typeof s === 'object' &&
    s !== null &&
    typeof (s as SourceBucket).bucket === 'string' &&
    ((s as SourceBucket).expectedOwner === null || typeof (s as SourceBucket).expectedOwner === 'string');
  if (!Array.isArray(value) || !value.every(valid)) throw new Error(`SOURCE_BUCKETS is not a list of buckets: ${text}`);
  return value.map(({ bucket, expectedOwner }) => ({ bucket, expectedOwner }));
}
