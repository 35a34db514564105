import { describe, expect, it } from 'vitest';
import { scriptedLambdaContext } from '../../../cli/local-run/lambda-clock.js';
import type { KeyAttribute } from '../../../lambdas/contract/workflow-payloads.js';
import type { MirrorJob, MirrorPartsEvent } from '../../../lambdas/contract/mirror-payloads.js';
import { mirrorPaths } from '../../../lambdas/mirror/key-parts.js';
import type { MirrorPartsIo } from '../../../lambdas/mirror-parts/mirror-parts-io.js';
import { runMirrorParts, type MirrorPartsOptions } from '../../../lambdas/mirror-parts/mirror-parts-steps.js';
import { DEFAULT_WRITE_RETRY } from '../../../lambdas/retry/backoff.js';

const KEYS: KeyAttribute[] = [{ name: 'id', type: 'S', role: 'HASH' }];
const request = { bucket: 'source-bucket', table: 't', mirror: true, maxDeletePercent: 100 } as MirrorJob['request'];
/** One part on each side, so every key falls in part 0. */
const job: MirrorJob = {
  request,
  executionName: 'exec-1',
  keys: KEYS,
  parts: 1,
  fileParts: 1,
  totalSegments: 1,
  maxConcurrency: 1,
} as MirrorJob;

/** A scripted S3: objects in a Map by `bucket/key`, every call recorded; BatchWriteItem is never expected here. */
function scriptedIo(objects: Record<string, string>) {
  const store = new Map(Object.entries(objects));
  const calls: string[] = [];
  const io: MirrorPartsIo = {
    async listKeys(bucket, prefix) {
      calls.push(`list ${bucket}/${prefix}`);
      return [...store.keys()]
        .filter((k) => k.startsWith(`${bucket}/${prefix}`))
        .map((k) => k.slice(bucket.length + 1));
    },
    firstKeys: () => Promise.reject(new Error('not expected')),
    deleteKeys: () => Promise.reject(new Error('not expected')),
    getText: async (bucket, key) => store.get(`${bucket}/${key}`) ?? '',
    startUpload(bucket, key) {
      let body = '';
      return {
        write: async (bytes) => void (body += bytes.toString()),
        end: async () => void store.set(`${bucket}/${key}`, body),
        abort: async () => undefined,
      };
    },
    putText: async (bucket, key, body) => void store.set(`${bucket}/${key}`, body),
    writeCalls: {} as MirrorPartsIo['writeCalls'],
  };
  return { io, store, calls };
}

const options = (bucketName: string | null): MirrorPartsOptions => ({
  rejectsPrefix: 'rejects/',
  bucketName,
  retry: DEFAULT_WRITE_RETRY,
  pacing: { ledger: { renew: async () => null }, intervalMs: 1_000, pausedFirstWaitSeconds: 1 },
  context: scriptedLambdaContext(() => false), // never out of time,
});

/** The file holds key a; the table holds a and b: b is the part's one delete. */
function partObjects(bucket: string) {
  const paths = mirrorPaths('rejects/exec-1');
  return {
    [`${bucket}/${paths.fileKeys(0)}0.keys`]: '["a"]\n',
    [`${bucket}/${paths.tableKeys(0)}0.keys`]: '{"id":{"S":"a"}}\n{"id":{"S":"b"}}\n',
  };
}

describe('runMirrorParts: the MirrorParts steps, told apart by `step`, with a scripted io', () => {
  it('compare: reads the key parts under the execution prefix in the stack bucket and writes the delete list there', async () => {
    const { io, store } = scriptedIo(partObjects('stack-bucket'));
    const event: MirrorPartsEvent = { step: 'compare', job, part: 0 };
    expect(await runMirrorParts(event, io, options('stack-bucket'))).toEqual({ part: 0, notInFile: 1 });
    const deletes = store.get(`stack-bucket/${mirrorPaths('rejects/exec-1').deletes(0)}`);
    expect(deletes).toBe('{"op":"delete","key":{"id":{"S":"b"}},"attributes":[]}\n');
  });

  it("compare: without a stack bucket (a local run), the request's bucket holds the parts", async () => {
    const { io, calls } = scriptedIo(partObjects('source-bucket'));
    const event: MirrorPartsEvent = { step: 'compare', job, part: 0 };
    expect(await runMirrorParts(event, io, options(null))).toEqual({ part: 0, notInFile: 1 });
    expect(calls.every((call) => call.startsWith('list source-bucket/rejects/exec-1/'))).toBe(true);
  });

  it('guard: decides from the event alone, with no call to the io', async () => {
    const { io, calls } = scriptedIo({});
    const guard = { request, mirror: { scanned: [[0, 10]], compared: [{ part: 0, notInFile: 1 }] }, chunkResults: [] };
    const event = { step: 'guard', ...guard } as unknown as MirrorPartsEvent;
    expect(await runMirrorParts(event, io, options(null))).toEqual({
      inScope: 10,
      notInFile: 1,
      percent: 10,
      refusal: null,
    });
    expect(calls).toEqual([]);
  });
});
