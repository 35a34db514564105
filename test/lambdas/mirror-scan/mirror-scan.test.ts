import { ListObjectsV2Command, GetObjectCommand } from '@aws-sdk/client-s3';
import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { outOfTimeAfter, scriptedLambdaContext } from '../../../cli/local-run/lambda-clock.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import type { MirrorJob, SegmentProgress } from '../../../lambdas/contract/mirror-payloads.js';
import { runScanSegment } from '../../../lambdas/mirror-scan/mirror-scan.js';
import { mirrorScanIo, scanInput, type MirrorScanIo } from '../../../lambdas/mirror-scan/mirror-scan-io.js';
import { DEFAULT_WRITE_RETRY } from '../../../lambdas/retry/backoff.js';
import { canonicalKey, mirrorPaths, partOf } from '../../../lambdas/mirror/key-parts.js';
import { createBucket, createTable, dynamodb, s3 } from '../../e2e/harness.js';
import { fillTable } from '../../e2e/mirror/mirror-harness.js';

const KEYS: KeyAttribute[] = [{ name: 'id', type: 'S', role: 'HASH' }];
const PARTS = 16;
const JOB = { executionName: 'x', keys: KEYS, parts: PARTS, fileParts: PARTS, totalSegments: 1, maxConcurrency: 1 };
/** An invocation outside the ledger (the import holds no lanes): it runs on its request's settings. */
const NO_LANES = { renew: async () => null };

/** The engine's own calls, with pages of 7 items (Limit) so a small table takes many pages. */
function smallPages(io: MirrorScanIo): MirrorScanIo {
  return {
    ...io,
    async scanKeys(request) {
      const page = await dynamodb.send(new ScanCommand({ ...scanInput(request), Limit: 7 }));
      return { keys: page.Items ?? [], ...(page.LastEvaluatedKey ? { lastKey: page.LastEvaluatedKey } : {}) };
    },
  };
}

async function keysStored(bucket: string, outputPrefix: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  for (let part = 0; part < PARTS; part++) {
    const prefix = mirrorPaths(outputPrefix).tableKeys(part);
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
    for (const { Key } of listed.Contents ?? []) {
      const body = await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key }))).Body!.transformToString();
      for (const line of body.split('\n').filter(Boolean)) {
        const id = JSON.parse(line).id.S as string;
        expect(partOf(canonicalKey({ id: { S: id } }, KEYS), PARTS)).toBe(part); // each key in its own part
        found.set(id, (found.get(id) ?? 0) + 1);
      }
    }
  }
  return found;
}

describe('MirrorScanSegment against the engine', () => {
  it('resumes from its checkpoint until the segment is done: every key in scope stored once, in its part', async () => {
    const bucket = await createBucket();
    const table = await createTable(['id', 'S']);
    const ids = Array.from({ length: 60 }, (_, i) => `${i % 3 === 0 ? 'B' : 'A'}#${i}`);
    await fillTable(
      table,
      ids.map((id) => ({ id: { S: id }, other: { S: 'not read' } })),
    );
    const request = { bucket, table, scope: { partitionKeyPrefix: 'A#' }, maxWriteRate: 0 } as MirrorJob['request'];
    const job: MirrorJob = { ...JOB, request };
    const io = smallPages(mirrorScanIo(dynamodb, s3, null, DEFAULT_WRITE_RETRY));
    const outputPrefix = 'out/exec';
    let progress: SegmentProgress | undefined;
    let invocations = 0;
    do {
      // Each invocation reads 2 pages (its stop check passes once, then says out of time).
      const context = scriptedLambdaContext(outOfTimeAfter(2));
      progress = await runScanSegment({ job, segment: 0, progress }, io, {
        outputPrefix,
        bucket,
        context,
        ledger: NO_LANES,
        intervalMs: 5_000,
        pausedFirstWaitSeconds: 10,
      });
      invocations++;
    } while (progress.next);
    expect(invocations).toBeGreaterThan(2);
    const inScope = ids.filter((id) => id.startsWith('A#'));
    expect(progress.scanned).toBe(inScope.length);
    const stored = await keysStored(bucket, outputPrefix);
    expect([...stored.keys()].sort()).toEqual([...inScope].sort());
    expect([...stored.values()].every((count) => count === 1)).toBe(true);
  });
});
