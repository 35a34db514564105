import { Token } from 'aws-cdk-lib';
import * as kms from 'aws-cdk-lib/aws-kms';
import * as s3 from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import type { ImportSource } from './import-source.js';

/**
 * A bucket the deployable app's imports may read besides its own, named as cdk.json's `sources` context names it: the
 * construct's {@link ImportSource} by name and ARN rather than by construct.
 *
 * @example
 * // cdk.json: "sources": [{ "bucketName": "partner-exports", "expectedOwner": "222222222222" }]
 * new S3DdbImportStack(app, 'S3DdbImport', { tableNames: ['ngrams'], sources: [{ bucketName: 'partner-exports' }] });
 */
export interface StackSource {
  readonly bucketName: string;
  /** The account that must own it: every S3 call on it sends `ExpectedBucketOwner`. @default - no owner check */
  readonly expectedOwner?: string;
  /** ARN of the KMS key its objects are encrypted with (SSE-KMS): readers get `kms:Decrypt` on it. @default - none */
  readonly kmsKeyArn?: string;
}

/** The sources as the construct takes them: `Source<i>` buckets (and `Source<i>Key` keys) imported by name. */
export function importSources(scope: Construct, sources: readonly StackSource[] | undefined): ImportSource[] {
  return (sources ?? []).map(({ bucketName, expectedOwner, kmsKeyArn }, index) => {
    if (kmsKeyArn === undefined) {
      return { bucket: s3.Bucket.fromBucketName(scope, `Source${index}`, bucketName), expectedOwner };
    }
    checkKeyArn(`sources[${index}].kmsKeyArn`, kmsKeyArn);
    const key = kms.Key.fromKeyArn(scope, `Source${index}Key`, kmsKeyArn);
    return { bucket: s3.Bucket.fromBucketName(scope, `Source${index}`, bucketName), key, expectedOwner };
  });
}

/**
 * An IAM policy names a KMS key by its key ARN only: "You cannot use a key id, alias name, or alias ARN to
 * identify a KMS key in an IAM policy statement"
 * (https://docs.aws.amazon.com/kms/latest/developerguide/cmks-in-iam-policies.html).
 */
const KMS_KEY_ARN = /^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/;

/** Fails at synth, naming the prop, on a key named by anything but its key ARN. */
export function checkKeyArn(prop: string, arn: string): void {
  if (Token.isUnresolved(arn) || KMS_KEY_ARN.test(arn)) return;
  throw new Error(
    `${prop} must be a KMS key ARN like arn:aws:kms:us-east-1:111122223333:key/1234abcd-..., got '${arn}' ` +
      '(an alias or key id cannot name a key in an IAM policy)',
  );
}
