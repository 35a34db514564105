import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { acknowledge, wildcardResourceFinding } from './nag-acknowledgments.js';

/**
 * The bucket and key grants of the pipeline functions: exactly the actions their S3 calls need, which
 * test/e2e/iam/grants-cover-calls.test.ts checks against every call the handlers make. Not `grantRead` /
 * `grantPut`: those add `s3:GetObject*`, `s3:GetBucket*`, `s3:List*`, legal-hold, retention and tagging puts
 * and `s3:Abort*`, none of which the handlers call.
 *
 * What each S3 call needs (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html):
 * - GetObject (ranged, IfMatch) and HeadObject: `s3:GetObject` on the object
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadObject.html).
 * - A missing key answers 404 only with `s3:ListBucket` on the bucket, 403 AccessDenied without it (same page);
 *   the handlers turn the 404 into SourceObjectNotFoundError, so readers hold `s3:ListBucket` on the bucket ARN.
 * - PutObject without ACL, tagging or object-lock headers: `s3:PutObject` on the object.
 * - DeleteObject without a version id: `s3:DeleteObject` on the object.
 * - ListObjectsV2 (a prefix's objects, an export's folder): `s3:ListBucket` on the bucket, the grant readers hold;
 *   the prefix a request names is known only at run time, so no `s3:prefix` condition can narrow it.
 * - SSE-KMS: S3 uses the key with the caller's permissions, `kms:Decrypt` to return an object and
 *   `kms:GenerateDataKey` to store one (https://docs.aws.amazon.com/AmazonS3/latest/userguide/UsingKMSEncryption.html,
 *   https://repost.aws/knowledge-center/s3-bucket-access-default-encryption); writers need `kms:Decrypt` too
 *   for multipart uploads (https://repost.aws/knowledge-center/s3-large-file-encryption-kms-key): a rejects file
 *   past one part (lambdas/wiring/s3-stream-upload.ts), written by import and Summarize.
 * - CreateMultipartUpload, UploadPart, CompleteMultipartUpload: `s3:PutObject`; AbortMultipartUpload:
 *   `s3:AbortMultipartUpload` (https://docs.aws.amazon.com/AmazonS3/latest/userguide/mpuoverview.html#mpuAndPermissions).
 */

/** `s3:ListBucket`, on the bucket ARN only: a bucket action, it means nothing on object ARNs. */
function grantListBucket(bucket: s3.IBucket, fn: NodejsFunction): void {
  iam.Grant.addToPrincipalOrResource({
    grantee: fn,
    actions: ['s3:ListBucket'],
    resourceArns: [bucket.bucketArn],
    resource: bucket,
  });
}

/** Lets `fn` read any object of `bucket` (its import source), learn that a key is missing, and decrypt. */
export function grantSourceRead(bucket: s3.IBucket, key: kms.IKey | undefined, fn: NodejsFunction): void {
  s3.BucketGrants.fromBucket(bucket).actionsOnObjectKeys(fn, '*', 's3:GetObject');
  grantListBucket(bucket, fn);
  key?.grant(fn, 'kms:Decrypt');
  acknowledge(
    fn.role!,
    wildcardResourceFinding(fn, `${bucket.bucketArn}/*`),
    'an import reads whichever object of this bucket its request or watch names, so any key may be read ' +
      '(s3:GetObject only)',
  );
}

/**
 * Lets `fn` put objects under `objectsKeyPattern` of `bucket`, encrypted with `key` when there is one. With
 * `multipart`, as multipart uploads too: `s3:AbortMultipartUpload` for one whose invocation fails (else S3 keeps and
 * bills its parts until a lifecycle rule removes them). Such a writer needs `kms:Decrypt` on the key for the parts:
 * the import and Summarize hold it to read (grantSourceRead, grantRejectsRewrite).
 */
export function grantObjectPut(
  bucket: s3.IBucket,
  key: kms.IKey | undefined,
  fn: NodejsFunction,
  objectsKeyPattern: string,
  { what, multipart }: { what: string; multipart: boolean },
): void {
  const actions = multipart ? ['s3:PutObject', 's3:AbortMultipartUpload'] : ['s3:PutObject'];
  s3.BucketGrants.fromBucket(bucket).actionsOnObjectKeys(fn, objectsKeyPattern, ...actions);
  key?.grant(fn, 'kms:GenerateDataKey');
  acknowledge(
    fn.role!,
    wildcardResourceFinding(fn, `${bucket.bucketArn}/${objectsKeyPattern}`),
    `${what}, keys known only at run time; nothing outside it (${actions.join(', ')} only)`,
  );
}

/** Lets `fn` delete objects under `objectsKeyPattern` of `bucket` (the staged pieces it has imported). */
export function grantObjectDelete(bucket: s3.IBucket, fn: NodejsFunction, objectsKeyPattern: string): void {
  s3.BucketGrants.fromBucket(bucket).actionsOnObjectKeys(fn, objectsKeyPattern, 's3:DeleteObject');
  acknowledge(
    fn.role!,
    wildcardResourceFinding(fn, `${bucket.bucketArn}/${objectsKeyPattern}`),
    'an import deletes each staged piece under <stagingPrefix>/<execution>/ once its chunk is imported; keys known ' +
      'only at run time; nothing outside it (s3:DeleteObject only)',
  );
}

/**
 * Lets Summarize list, read and delete the relative rejects files under `objectsKeyPattern` (the rejects prefix)
 * that it rewrites with absolute lines: `s3:ListBucket` on the bucket (no `s3:prefix` condition: the grants
 * checker and the readers' grant take none), `s3:GetObject` and `s3:DeleteObject` on the rejects keys only, and
 * `kms:Decrypt` to read what the import stored encrypted.
 */
export function grantRejectsRewrite(
  bucket: s3.IBucket,
  key: kms.IKey | undefined,
  fn: NodejsFunction,
  objectsKeyPattern: string,
): void {
  s3.BucketGrants.fromBucket(bucket).actionsOnObjectKeys(fn, objectsKeyPattern, 's3:GetObject', 's3:DeleteObject');
  grantListBucket(bucket, fn);
  key?.grant(fn, 'kms:Decrypt');
  acknowledge(
    fn.role!,
    wildcardResourceFinding(fn, `${bucket.bucketArn}/${objectsKeyPattern}`),
    'Summarize rewrites the rejects files of <rejectsPrefix>/<execution>/relative/ with absolute lines and deletes ' +
      'them; keys known only at run time; nothing outside the rejects prefix (s3:GetObject, s3:DeleteObject only)',
  );
}
