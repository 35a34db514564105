import { MAX_GET_BYTES } from '../../../lambdas/source/s3-range-reader.js';

/**
 * The KMS requests an import implies when its objects are SSE-KMS without an S3 Bucket Key: S3 asks KMS to decrypt
 * for every GET of such an object (https://docs.aws.amazon.com/AmazonS3/latest/userguide/UsingKMSEncryption.html),
 * and the lanes read in ranged GETs of at most MAX_GET_BYTES (8 MiB), plus the first, smaller GET of each chunk. With
 * a Bucket Key, S3 asks KMS only now and then for a bucket-level key
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-key.html). The rate meets the account's per-Region
 * KMS quota for cryptographic operations (https://docs.aws.amazon.com/kms/latest/developerguide/requests-per-second.html).
 *
 * @example
 * kmsEstimate(100 * 2 ** 30, 1600, 600); // 100 GiB in 1,600 chunks over 10 min: { getRequests: 14400, perSecond: 24 }
 */
export function kmsEstimate(bytes: number, chunks: number, seconds: number) {
  const getRequests = chunks + Math.ceil(bytes / MAX_GET_BYTES);
  return { getRequests, perSecond: seconds > 0 ? getRequests / seconds : getRequests };
}

/** The estimate's KMS line. */
export function kmsLine({ getRequests, perSecond }: ReturnType<typeof kmsEstimate>): string {
  const rate = perSecond < 1 ? 'under 1 request/s' : `~${Math.round(perSecond).toLocaleString('en-US')} requests/s`;
  return (
    `kms: ${rate} (~${getRequests.toLocaleString('en-US')} ranged GETs) if the objects are SSE-KMS without an S3 ` +
    'Bucket Key; with one, almost none'
  );
}
