/** Where an import reads and writes: what preflight finds the objects and checks the deployment's grants with. */
export interface ImportTarget {
  readonly bucket: string;
  /** Exactly one of `key` and `prefix`. */
  readonly key?: string;
  readonly prefix?: string;
  readonly table: string;
  /** The request names its `format.type`: the objects' bytes need not say it (preflight/format-sniff.ts). */
  readonly formatNamed: boolean;
}

/**
 * The request's bucket, table and key or prefix, read before the request is resolved so that the objects can be
 * found first and the request resolved once with what they say (resolve-request.ts `FoundSource`). Null when they
 * are not usable as sent (a field missing or not a non-empty string, both key and prefix): then there is nothing
 * to find, and resolveImportRequest names every problem of the request.
 */
export function requestTarget(input: unknown): ImportTarget | null {
  if (typeof input !== 'object' || input === null) return null;
  const { bucket, key, prefix, table, format } = input as Record<string, unknown>;
  const text = (value: unknown): value is string => typeof value === 'string' && value.length > 0;
  if (!text(bucket) || !text(table)) return null;
  const formatNamed = typeof format === 'object' && format !== null && 'type' in format;
  if (text(key) && prefix === undefined) return { bucket, key, table, formatNamed };
  if (text(prefix) && key === undefined) return { bucket, prefix, table, formatNamed };
  return null;
}
