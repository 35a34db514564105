import { Annotations, Stack, Token } from 'aws-cdk-lib';
import type * as kms from 'aws-cdk-lib/aws-kms';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { SourceBucket } from '../lambdas/environment/source-buckets.js';

/**
 * A bucket imports may read besides the pipeline's own `bucket`: in this account or another, in the stack's Region.
 * The functions get read grants on it only (`s3:GetObject` on its objects, `s3:ListBucket` on it, `kms:Decrypt` on
 * its key); rejects, reports and staged pieces still go to the pipeline's own bucket.
 *
 * @example
 * const partner = s3.Bucket.fromBucketName(this, 'Partner', 'partner-exports');
 * new ImportPipeline(this, 'Pipeline', { bucket, tables, sources: [{ bucket: partner, expectedOwner: '111122223333' }] });
 */
export interface ImportSource {
  /** The bucket. It must be in the stack's Region (checked at synth when both Regions are known). */
  readonly bucket: s3.IBucket;
  /**
   * The KMS key its objects are encrypted with (SSE-KMS): readers get `kms:Decrypt` on it. Give the key's ARN
   * (`kms.Key.fromKeyArn`), not an alias.
   * @default - the bucket's own `encryptionKey`, if any (none: SSE-S3)
   */
  readonly key?: kms.IKey;
  /**
   * The 12-digit account that must own the bucket: every S3 call the functions make on it sends
   * `ExpectedBucketOwner`, so S3 refuses it (403) should the bucket name come to belong to another account
   * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-owner-condition.html). When it differs from the
   * stack's account, synth adds an info note with the bucket-policy statement that account must add.
   * @default - no owner check
   */
  readonly expectedOwner?: string;
}

/** A source with its key resolved (`key`, else the bucket's `encryptionKey`). */
export interface ResolvedSource {
  readonly bucket: s3.IBucket;
  readonly key?: kms.IKey;
  readonly expectedOwner?: string;
}

const ACCOUNT_ID = /^\d{12}$/;

/**
 * Checks the sources at synth, in lower case with the bad value shown, and resolves their keys: an owner that is not
 * an account id, and a bucket whose Region is known and is not the stack's (checkSameRegion).
 */
export function resolveSources(scope: Construct, sources: readonly ImportSource[] | undefined): ResolvedSource[] {
  return (sources ?? []).map((source, index) => {
    const { bucket, expectedOwner } = source;
    if (expectedOwner !== undefined && !Token.isUnresolved(expectedOwner) && !ACCOUNT_ID.test(expectedOwner)) {
      throw new Error(`sources[${index}].expectedOwner must be a 12-digit account id, got '${expectedOwner}'`);
    }
    checkSameRegion(scope, `sources[${index}].bucket`, bucket.env.region);
    const key = source.key ?? bucket.encryptionKey;
    if (key) checkSameRegion(scope, `sources[${index}].key`, key.env.region);
    return { bucket, key, expectedOwner };
  });
}

/**
 * The functions read with one S3 client for the stack's Region, and S3 answers a request sent to another Region's
 * endpoint with 301 PermanentRedirect, which the SDK does not follow
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html#ErrorCodeList); a KMS key for SSE-KMS must be
 * in the bucket's Region (https://docs.aws.amazon.com/AmazonS3/latest/userguide/UsingKMSEncryption.html). Reading
 * across Regions would also pay inter-Region transfer on every ranged GET of every lane: copy the objects (S3
 * Replication) into a bucket of the stack's Region instead. Only Regions both known at synth are compared; at run
 * time, a 301 fails with SourceBucketRegionError naming the bucket's Region.
 */
export function checkSameRegion(scope: Construct, what: string, region: string): void {
  const stackRegion = Stack.of(scope).region;
  if (Token.isUnresolved(region) || Token.isUnresolved(stackRegion) || region === stackRegion) return;
  throw new Error(
    `${what} is in ${region}, the stack in ${stackRegion}: the functions read S3 in their own Region only ` +
      '(S3 answers another Region 301 PermanentRedirect); replicate the objects into a bucket in ' +
      `${stackRegion}, or deploy the pipeline in ${region}`,
  );
}

/**
 * The `sourceBuckets` setting the functions read (lambdas/environment/settings.ts, `SOURCE_BUCKETS` as JSON
 * `[{"bucket": name, "expectedOwner": account | null}]`), tokens resolved at deploy.
 */
export function sourceBucketsSetting(sources: readonly ResolvedSource[]): SourceBucket[] {
  return sources.map((s) => ({ bucket: s.bucket.bucketName, expectedOwner: s.expectedOwner ?? null }));
}

/** The id of the note below, to find it in `cdk synth`'s output. */
export const CROSS_ACCOUNT_SOURCE_NOTE = 's3-ddb-import:crossAccountSource';

/**
 * A bucket of another account is read only when its owner's bucket policy (and its key's policy) also allows it: in
 * AWS's walkthrough the bucket owner grants the other account (`Principal: {"AWS": "arn:aws:iam::<account>:root"}`),
 * and that account's IAM policies delegate to its roles, here the grants on the functions' roles
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/example-walkthroughs-managing-access-example2.html; the key:
 * https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-modifying-external-accounts.html). Synth notes the
 * statements for the owner to add (an info annotation: `cdk synth` prints it).
 */
export function noteCrossAccountPolicy(scope: Construct, source: ResolvedSource): void {
  const stack = Stack.of(scope);
  const owner = source.expectedOwner;
  if (owner === undefined || Token.isUnresolved(owner) || owner === stack.account) return;
  annotateCrossAccount(scope, source, crossAccountStatements(stack, source));
}

/** The bucket-policy and key-policy statements a bucket's owner adds for this stack's account. */
export function crossAccountStatements(stack: Stack, source: ResolvedSource) {
  const known = (value: string, placeholder: string) => (Token.isUnresolved(value) ? placeholder : value);
  const account = known(stack.account, '<this stack account>');
  const partition = known(stack.partition, 'aws');
  const principal = { AWS: `arn:${partition}:iam::${account}:root` };
  const bucketArn = `arn:${partition}:s3:::${known(source.bucket.bucketName, '<bucket>')}`;
  const bucketPolicy = [
    { Effect: 'Allow', Principal: principal, Action: 's3:GetObject', Resource: `${bucketArn}/*` },
    { Effect: 'Allow', Principal: principal, Action: 's3:ListBucket', Resource: bucketArn },
  ];
  const keyPolicy = source.key ? [{ Effect: 'Allow', Principal: principal, Action: 'kms:Decrypt', Resource: '*' }] : [];
  return { bucketPolicy, keyPolicy };
}

function annotateCrossAccount(
  scope: Construct,
  source: ResolvedSource,
  { bucketPolicy, keyPolicy }: ReturnType<typeof crossAccountStatements>,
): void {
  const key = keyPolicy.length > 0 ? ` and to its KMS key's policy ${JSON.stringify({ Statement: keyPolicy })}` : '';
  Annotations.of(scope).addInfo(
    `${CROSS_ACCOUNT_SOURCE_NOTE}: account ${source.expectedOwner} must let this stack's account read bucket ` +
      `${source.bucket.bucketName}: add to its bucket policy ${JSON.stringify({ Statement: bucketPolicy })}${key}`,
  );
}
