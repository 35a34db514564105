import { randomUUID } from 'node:crypto';
import type { ListedObject } from './bucket-poller.js';

/** The account local mode pretends to be (as the local runner's ARNs do). */
const LOCAL_ACCOUNT = '000000000000';

/**
 * The "Object Created" event S3 would send EventBridge for `object`, in the shape of AWS's sample event
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ev-events.html): what the rules read (`detail.bucket.name`,
 * `detail.object.key`, `detail.object.size`) as S3 fills it, the rest (ids, requester) made up locally. A listing
 * cannot tell a PutObject from a CompleteMultipartUpload (S3 documents ETags as opaque), so `reason` is always
 * PutObject; no rule reads it. The key is the object's own: S3's events may spell it URL-encoded, and preflight
 * finds the object from either spelling (test/e2e/event-key.test.ts).
 */
export function objectCreatedEvent(bucket: string, object: ListedObject, region: string): Record<string, unknown> {
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Object Created',
    source: 'aws.s3',
    account: LOCAL_ACCOUNT,
    time: object.lastModified.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    region: region,
    resources: [`arn:aws:s3:::${bucket}`],
    detail: {
      version: '0',
      bucket: { name: bucket },
      object: { key: object.key, size: object.size, etag: object.etag },
      'request-id': randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase(),
      requester: LOCAL_ACCOUNT,
      'source-ip-address': '127.0.0.1',
      reason: 'PutObject',
    },
  };
}
