import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { SendGetObject } from '../source/s3-range-reader.js';

/** The AWS calls the handlers make, bound to SDK clients; pure modules only see these functions. */
export function sendGetObject(s3: S3Client): SendGetObject {
  return (input) => s3.send(new GetObjectCommand(input));
}

/**
 * The PutObject (or CreateMultipartUpload) fields that ask S3 to encrypt an object with the bucket's KMS key:
 * `x-amz-server-side-encryption: aws:kms` and `x-amz-server-side-encryption-aws-kms-key-id: <key ARN>`
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/specifying-kms-encryption.html). A bucket policy that
 * denies PutObject unless `s3:x-amz-server-side-encryption` is `aws:kms` (or unless the key id is this key) is
 * common (https://docs.aws.amazon.com/AmazonS3/latest/userguide/amazon-s3-policy-keys.html); without the headers
 * every PUT of the functions (staged pieces, rejects, the report) and the CLI's upload would be denied. Without a
 * key, nothing is sent and the bucket's default encryption applies.
 *
 * `x-amz-server-side-encryption-bucket-key-enabled: true` stores the object under an S3 Bucket Key: S3 then asks KMS
 * for a bucket-level key now and then instead of a data key per object, and reads (every lane's ranged GETs) decrypt
 * without a KMS call per request, "reducing ... request traffic from Amazon S3 to AWS KMS" by up to 99%
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-key.html). Without it, hundreds of lanes can meet
 * the account's per-Region KMS request quota
 * (https://docs.aws.amazon.com/kms/latest/developerguide/requests-per-second.html). A PUT may ask for it whatever
 * the bucket's default (same page, "Configuring an S3 Bucket Key at the object level").
 */
export function sseKmsFields(kmsKeyArn: string | null | undefined) {
  return kmsKeyArn ? { ServerSideEncryption: 'aws:kms' as const, SSEKMSKeyId: kmsKeyArn, BucketKeyEnabled: true } : {};
}

/** Puts one object, encrypted with the bucket's KMS key when there is one (`sseKmsFields`). */
export async function putObject(
  s3: S3Client,
  bucket: string,
  key: string,
  body: Buffer | string,
  contentType: string,
  kmsKeyArn: string | null = null,
): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: key,
      Body: body,
      ContentType: contentType,
      ...sseKmsFields(kmsKeyArn),
    }),
  );
}

/** Deletes one object (a staged piece, once its chunk is imported). */
export async function deleteObject(s3: S3Client, bucket: string, key: string): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
}
