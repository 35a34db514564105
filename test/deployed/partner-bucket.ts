import { CreateBucketCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from './aws.js';
import { PARTNER_BUCKET } from './tier-stack.js';

/**
 * Puts an object into the tier's partner bucket (cdk.json's `sources`), creating the bucket first as its owner would
 * (with the root keys: it is not the stack's, and the stack's roles may only read it). A bucket already there is kept.
 */
export async function putPartnerObject(key: string, body: string | Uint8Array): Promise<void> {
  await s3.send(new CreateBucketCommand({ Bucket: PARTNER_BUCKET })).catch((error: Error) => {
    if (error.name !== 'BucketAlreadyOwnedByYou') throw error;
  });
  await s3.send(new PutObjectCommand({ Bucket: PARTNER_BUCKET, Key: key, Body: body }));
}
