import { InvalidRequestError } from '../contract/errors.js';

/**
 * What one deployment's roles may touch: the stack's bucket (BUCKET_NAME) and tables (ALLOWED_TABLES). Null (or
 * absent) means unchecked, as in local runs, which have no such grants.
 */
export interface DeploymentScope {
  readonly bucketName?: string | null;
  /** The other buckets it reads (SOURCE_BUCKETS). @default none */
  readonly sourceBuckets?: readonly { readonly bucket: string }[];
  readonly allowedTables?: readonly string[] | null;
}

/**
 * Where an import's rejects, report and staged pieces go: the stack's bucket, which the functions may write, also for
 * a request that reads one of the other `sources` (read only); the request's own bucket where there is no stack
 * (local runs).
 */
export function outputBucketOf(scope: Pick<DeploymentScope, 'bucketName'>, requestBucket: string): string {
  return scope.bucketName || requestBucket;
}

/**
 * Fails a request for a bucket or table this deployment holds no grant on, naming the field and what the deployment
 * does hold, before any AWS call: S3 would otherwise answer preflight's first HeadObject or listing with a bare 403
 * AccessDenied, and an upload would land where no import can read it. Preflight and `start` both call it.
 *
 * @example
 * checkDeploymentScope({ bucket: 'other', table: 'ngrams' }, { bucketName: 'imports-bucket' });
 * // InvalidRequestError: invalid request: bucket: "other" is not the bucket this deployment reads (imports-bucket)
 */
export function checkDeploymentScope(
  request: { readonly bucket: string; readonly table: string },
  scope: DeploymentScope,
): void {
  const problems: string[] = [];
  const { bucketName, allowedTables } = scope;
  const others = (scope.sourceBuckets ?? []).map((s) => s.bucket);
  if (bucketName && request.bucket !== bucketName && !others.includes(request.bucket)) {
    const what = others.length === 0 ? 'the bucket' : 'a bucket';
    const readable = [bucketName, ...others].join(', ');
    problems.push(`bucket: ${JSON.stringify(request.bucket)} is not ${what} this deployment reads (${readable})`);
  }
  if (allowedTables && !allowedTables.includes(request.table)) {
    problems.push(
      `table: ${JSON.stringify(request.table)} is not one this deployment may write (${allowedTables.join(', ')})`,
    );
  }
  if (problems.length > 0) throw new InvalidRequestError(problems);
}
