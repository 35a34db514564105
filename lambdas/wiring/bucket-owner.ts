import type { S3Client } from '@aws-sdk/client-s3';
import { SourceBucketRegionError } from '../contract/errors.js';
import type { SourceBucket } from '../environment/source-buckets.js';

type Args = { input: { Bucket?: string; ExpectedBucketOwner?: string } };
type Next = (args: Args) => Promise<unknown>;
/** The step every command passes first and leaves last: it sees the input before serializing, the final error after retries. */
const OUTERMOST = { step: 'initialize', priority: 'high' } as const;

/**
 * Adds `ExpectedBucketOwner` to every command of `s3` on a bucket whose owner is known, whatever the call (HeadObject,
 * GetObject, ListObjectsV2, PutObject, ...), so no code path can forget it: S3 then answers 403 if another account
 * owns the bucket (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-owner-condition.html).
 *
 * @example
 * expectBucketOwners(s3, [{ bucket: 'partner-exports', expectedOwner: '222222222222' }]);
 */
export function expectBucketOwners(s3: S3Client, buckets: readonly SourceBucket[]): void {
  const owners = new Map(buckets.flatMap((b) => (b.expectedOwner ? [[b.bucket, b.expectedOwner] as const] : [])));
  if (owners.size === 0) return;
  const middleware = (next: Next) => (args: Args) => {
    const owner = args.input.Bucket === undefined ? undefined : owners.get(args.input.Bucket);
    if (owner === undefined || args.input.ExpectedBucketOwner !== undefined) return next(args);
    return next({ ...args, input: { ...args.input, ExpectedBucketOwner: owner } });
  };
  s3.middlewareStack.add(middleware as never, { ...OUTERMOST, name: 'expected-bucket-owner' } as never);
}

interface RedirectError {
  readonly $metadata?: { readonly httpStatusCode?: number };
  readonly $response?: { readonly headers?: Record<string, string | undefined> };
}

/**
 * Turns S3's 301 PermanentRedirect (a bucket of another Region: the SDK does not follow it) into
 * SourceBucketRegionError naming the bucket's Region from `x-amz-bucket-region`, for every command of `s3`.
 */
export function nameRegionRedirects(s3: S3Client): void {
  const middleware = (next: Next) => async (args: Args) => {
    try {
      return await next(args);
    } catch (error) {
      const { $metadata, $response } = error as RedirectError;
      if ($metadata?.httpStatusCode !== 301 || args.input.Bucket === undefined) throw error;
      const here = await s3.config.region().catch(() => undefined);
      throw new SourceBucketRegionError(args.input.Bucket, $response?.headers?.['x-amz-bucket-region'], here, {
        cause: error,
      });
    }
  };
  s3.middlewareStack.add(middleware as never, { ...OUTERMOST, name: 'name-region-redirects' } as never);
}
