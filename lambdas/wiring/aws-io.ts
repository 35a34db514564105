import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import type { SendGetObject } from '../source/s3-range-reader.js';

/** The AWS calls the handlers make, bound to SDK clients; pure modules only see these functions. */
export function sendGetObject(s3: S3Client): SendGetObject {
  return (input) => s3.send(new GetObjectCommand(input));
}

export async function putObject(
  s3: S3Client,
  bucket: string,
  key: string,
  body: Buffer | string,
  contentType: string,
): Promise<void> {
  await s3.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType }));
}

/** Deletes one object (a staged piece, once its chunk is imported). */
export async function deleteObject(s3: S3Client, bucket: string, key: string): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
}
