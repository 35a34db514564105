import { setTimeout as sleep } from 'node:timers/promises';
import { paginateListObjectsV2, type S3Client } from '@aws-sdk/client-s3';

/**
 * How `local watch` learns of uploads: it lists the watched prefixes every second and reports each object that
 * is new or changed (another ETag or LastModified) since the previous listing.
 *
 * Why listing rather than the engine's bucket events: S3 has no API that streams a bucket's events to a client; they go
 * to EventBridge, SQS, SNS or Lambda, which a DynamoDB and S3 of the user's own (AWS_ENDPOINT_URL_S3) need not have.
 * Listing works on any S3 endpoint and costs one ListObjectsV2 per prefix per second. The deployed tier
 * (test/deployed/) proves the real rule on the engine's EventBridge.
 */

/** A second between listings: an upload starts its import within about a second. */
export const POLL_INTERVAL_MS = 1000;

/** An object as a listing shows it. */
export interface ListedObject {
  readonly key: string;
  readonly size: number;
  /** Without the quotes S3 puts around it. */
  readonly etag: string;
  readonly lastModified: Date;
}

export interface PollOptions {
  readonly s3: S3Client;
  readonly bucket: string;
  readonly prefixes: readonly string[];
  readonly onObject: (object: ListedObject) => void;
  readonly signal: AbortSignal;
  /** @default POLL_INTERVAL_MS */
  readonly intervalMs?: number;
}

async function listAll(s3: S3Client, bucket: string, prefix: string): Promise<ListedObject[]> {
  const objects: ListedObject[] = [];
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: prefix })) {
    for (const o of page.Contents ?? []) {
      objects.push({
        key: o.Key!,
        size: o.Size ?? 0,
        etag: (o.ETag ?? '').replace(/"/g, ''),
        lastModified: o.LastModified ?? new Date(0),
      });
    }
  }
  return objects;
}

/**
 * Takes a first listing (what is there already is not new: S3 sends events for uploads only), then calls
 * `onObject` for every object created or replaced afterwards. Resolves once the first listing is taken, with
 * `done`, which settles when `signal` aborts (or rejects when a listing fails).
 */
export async function pollNewObjects(options: PollOptions): Promise<{ readonly done: Promise<void> }> {
  const { s3, bucket, signal } = options;
  const prefixes = [...new Set(options.prefixes)];
  const seen = new Map<string, string>();
  const version = (o: ListedObject) => `${o.etag}@${o.lastModified.toISOString()}`;
  const listing = async () => (await Promise.all(prefixes.map((prefix) => listAll(s3, bucket, prefix)))).flat();
  for (const object of await listing()) seen.set(object.key, version(object));

  const done = (async () => {
    while (!signal.aborted) {
      await sleep(options.intervalMs ?? POLL_INTERVAL_MS, undefined, { signal }).catch(() => undefined);
      if (signal.aborted) return;
      for (const object of await listing()) {
        if (seen.get(object.key) === version(object)) continue;
        seen.set(object.key, version(object));
        options.onObject(object);
      }
    }
  })();
  return { done };
}
