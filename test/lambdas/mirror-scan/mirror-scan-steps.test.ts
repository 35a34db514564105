import { describe, expect, it } from 'vitest';
import { scriptedLambdaContext } from '../../../cli/local-run/lambda-clock.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import type { MirrorJob } from '../../../lambdas/contract/mirror-payloads.js';
import { mirrorPaths } from '../../../lambdas/mirror/key-parts.js';
import type { MirrorScanIo } from '../../../lambdas/mirror-scan/mirror-scan-io.js';
import { runMirrorScan, type MirrorScanStepOptions } from '../../../lambdas/mirror-scan/mirror-scan-steps.js';

const KEYS: KeyAttribute[] = [{ name: 'id', type: 'S', role: 'HASH' }];
const request = { bucket: 'source-bucket', table: 't', maxWriteRate: 0 } as MirrorJob['request'];

/** A scripted io: one Scan page of two keys, a table of 1,000 items in 1 MB; every call recorded. */
function scriptedIo() {
  const calls: string[] = [];
  const io: MirrorScanIo = {
    async scanKeys(page) {
      calls.push(`scan ${page.table} segment ${page.segment}/${page.totalSegments}`);
      return { keys: [{ id: { S: 'a' } }, { id: { S: 'b' } }] };
    },
    putText: async (bucket, key) => void calls.push(`put ${bucket}/${key}`),
    async describeTable(table) {
      calls.push(`describe ${table}`);
      return { itemCount: 1_000, sizeBytes: 1_000_000 };
    },
  };
  return { io, calls };
}

const options = (bucketName: string | null): MirrorScanStepOptions => ({
  rejectsPrefix: 'rejects',
  bucketName,
  pacing: { ledger: { renew: async () => null }, intervalMs: 1_000, pausedFirstWaitSeconds: 1 },
  context: scriptedLambdaContext(() => false), // never out of time,
});

describe('runMirrorScan: MirrorPlan or MirrorScanSegment, told apart by `segment`, with a scripted io', () => {
  it('plans from DescribeTable alone: one part and one segment for a small table and file', async () => {
    const { io, calls } = scriptedIo();
    const plan = await runMirrorScan(
      { request, executionName: 'exec-1', keys: KEYS, dataBytes: 1_000 },
      io,
      options(null),
    );
    expect(plan).toMatchObject({ segments: expect.any(Array), partList: expect.any(Array) });
    expect(calls).toEqual(['describe t']);
  });

  it('scans a segment to its end and stores its keys under the execution prefix in the stack bucket', async () => {
    const { io, calls } = scriptedIo();
    const job = { request, executionName: 'exec-1', keys: KEYS, parts: 1, fileParts: 1, totalSegments: 1 } as MirrorJob;
    expect(await runMirrorScan({ job, segment: 0 }, io, options('stack-bucket'))).toMatchObject({ next: null });
    expect(calls[0]).toBe('scan t segment 0/1');
    const stored = calls.filter((call) => call.startsWith('put '));
    expect(stored.length).toBeGreaterThan(0);
    const prefix = `put stack-bucket/${mirrorPaths('rejects/exec-1').tableKeys(0)}`;
    expect(stored.every((call) => call.startsWith(prefix))).toBe(true);
  });
});
