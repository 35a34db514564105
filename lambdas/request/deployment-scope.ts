import { InvalidRequestError } from '../contract/errors.js';

/**
 * What one deployment's roles may touch: the stack's bucket (BUCKET_NAME) and tables (ALLOWED_TABLES). Null (or
 * absent) means unchecked, as in local runs, which have no such grants.
 */
export interface DeploymentScope {
  readonly bucketName?: string | null;
  readonly allowedTables?: readonly string[] | null;
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
  if (bucketName && request.bucket !== bucketName) {
    problems.push(`bucket: ${JSON.stringify(request.bucket)} is not the bucket this deployment reads (${bucketName})`);
  }
  if (allowedTables && !allowedTables.includes(request.table)) {
    problems.push(
      `table: ${JSON.stringify(request.table)} is not one this deployment may write (${allowedTables.join(', ')})`,
    );
  }
  if (problems.length > 0) throw new InvalidRequestError(problems);
}
