import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ImportRequest } from '../../../lambdas/contract/import-request.js';
import type { PreflightEvent } from '../../../lambdas/contract/workflow-payloads.js';
import { DEFAULT_REJECTS_PREFIX, resolveLambdaConfig } from '../../../lambdas/environment/config.js';
import { WRITE_MODE_TABLE } from '../../../lambdas/write/write-modes.js';
import { CHUNK_LAYOUTS } from '../../../lambdas/chunk-layouts/chunk-layouts.js';
import { SOURCE_FORMATS } from '../../../lambdas/formats/record-formats.js';
import { preflightIo } from '../../../lambdas/preflight/preflight-io.js';
import { runPreflight, type PreflightIo } from '../../../lambdas/preflight/preflight.js';
import { createBucket, createTable, dynamodb, putText, s3 } from '../../e2e/harness.js';

const CSV = 'id,name\na,alpha\nb,beta\n';

/** preflightIo on the real engine, recording where each read of an object starts (its key and offset). */
function recordingIo(): { io: PreflightIo; reads: { key: string; offset: number }[] } {
  const io = preflightIo(s3, dynamodb);
  const reads: { key: string; offset: number }[] = [];
  const readFrom: PreflightIo['readFrom'] = (source, size) => {
    const read = io.readFrom(source, size);
    return (offset) => (reads.push({ key: source.key, offset }), read(offset));
  };
  return { io: { ...io, readFrom }, reads };
}

function firstInvocation(input: ImportRequest, io: PreflightIo) {
  const event: PreflightEvent = {
    input,
    executionName: 'preflight-test',
    execution: { id: 'x', startTime: new Date().toISOString(), stateMachineArn: 'arn' },
    maxConcurrency: 4,
  };
  return runPreflight(event, io, {
    ...resolveLambdaConfig({ rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null }),
    shouldStop: () => false,
    writeModes: WRITE_MODE_TABLE,
    formats: SOURCE_FORMATS,
    layouts: CHUNK_LAYOUTS,
    control: { importConcurrency: async () => null },
    // The reads are under test: a ledger that always has lanes.
    ledger: { admit: async () => ({ granted: 4, reason: '4 lanes' }) },
  });
}

describe("preflight's first invocation", () => {
  let bucket: string;
  let table: string;

  beforeAll(async () => {
    bucket = await createBucket();
    table = await createTable(['id', 'S']);
    await putText(bucket, 'in/a.csv', CSV);
    await putText(bucket, 'in/b.csv', CSV);
    // Small enough to be imported whole by one lane (not staged): its data starts past the decompressed header.
    await putText(bucket, 'in/c.csv.gz', gzipSync(CSV));
  });

  it('reads the start of each object once, for the columns and the chunks both', async () => {
    const { io, reads } = recordingIo();

    const state = await firstInvocation({ bucket, prefix: 'in/', table }, io);

    expect(state.scanComplete).toBe(true);
    expect(state.columns).toEqual(['id', 'name']);
    // One chunk per object, each from its data start (past the 8-byte header "id,name\n"), line 2.
    expect(state.chunks.map(({ object, start, line }) => ({ object, start, line }))).toEqual([
      { object: 0, start: 8, line: undefined },
      { object: 1, start: 8, line: undefined },
      { object: 2, start: 8, line: 2 },
    ]);
    // The header reads run a few at a time, in any order.
    expect(
      reads
        .filter((r) => r.offset === 0)
        .map((r) => r.key)
        .sort(),
    ).toEqual(['in/a.csv', 'in/b.csv', 'in/c.csv.gz']);
  });
});
