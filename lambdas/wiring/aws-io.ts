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
 */
export function sseKmsFields(kmsKeyArn: string | null | undefined) {
  return kmsKeyArn ? { ServerSideEncryption: 'aws:kms' as const, SSEKMSKeyId: kmsKeyArn } : {};
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
