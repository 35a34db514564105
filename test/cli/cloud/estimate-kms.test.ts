import { describe, expect, it } from 'vitest';
import { kmsEstimate, kmsLine } from '../../../cli/cloud/estimate/estimate-kms.js';

const GiB = 2 ** 30;

describe('the KMS requests an SSE-KMS import without an S3 Bucket Key implies (issue 38, risk 8)', () => {
  it.each([
    // 100 GiB in 1,600 chunks over 10 min: 1,600 first GETs + 12,800 of 8 MiB = 14,400 GETs, 24/s
    [100 * GiB, 1600, 600, { getRequests: 14_400, perSecond: 24 }, 'kms: ~24 requests/s (~14,400 ranged GETs)'],
    // 1 TiB in 16,384 chunks over 5 min (hundreds of lanes): 16,384 + 131,072 = 147,456 GETs, ~492/s
    [1024 * GiB, 16_384, 300, { getRequests: 147_456, perSecond: 491.52 }, 'kms: ~492 requests/s (~147,456 ranged'],
    // 1 MB in one chunk over 2 s: 2 GETs, 1/s
    [1e6, 1, 2, { getRequests: 2, perSecond: 1 }, 'kms: ~1 requests/s (~2 ranged GETs)'],
  ])('%d bytes in %d chunks over %d s', (bytes, chunks, seconds, expected, line) => {
    const estimate = kmsEstimate(bytes, chunks, seconds);
    expect(estimate).toEqual(expected);
    expect(kmsLine(estimate)).toContain(line);
  });
});
