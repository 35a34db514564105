import { afterEach, describe, expect, it } from 'vitest';
import type { Chunk } from '../../../lambdas/request/workflow-payloads.js';
import { runLocalImport, type RunnerEvent } from '../../../local/runner.js';
import { chunkAt, expectTableMatches, ngramImport, putKey, runWithEvents, throttleError, validationError } from './fixture.js';
import { faultBatchWrites, faultWiring, removeFaults } from './inject.js';

describe('a table that keeps failing', () => {
  afterEach(removeFaults);

  it('fails when every BatchWriteItem is throttled, with BatchWriteFailedError in bounded time', async () => {
    // 2,000 rows (~64 KB): one chunk. Throttles sit inside the SDK's retry, as a real reply would.
    const { table, request } = await ngramImport(2000, 1);
    let calls = 0;
    faultBatchWrites(table, 'finalizeRequest', async () => {
      calls++;
      throw throttleError();
    });

    const started = Date.now();
    const error = await runLocalImport(request, { maxConcurrency: 2, wiring: faultWiring() }).catch((e: Error) => e);
    const elapsedMs = Date.now() - started;

    expect(error).toMatchObject({ name: 'BatchWriteFailedError' });
    expect((error as Error).message).toContain(table);
    // Each batch got the default 12 tries, each tried up to 3 times by the SDK until its retry quota ran out.
    expect(calls).toBeGreaterThan(12);
    // Measured ~25 s on 2 loaded cores: full-jitter waits of at most ~26 s per batch plus the SDK's own.
    expect(elapsedMs).toBeLessThan(60_000); // a hang guard, not a speed claim
  }, 120_000);

  it('completes when the same import runs again after a failed one, and the table matches the file', async () => {
    // 8,000 rows (~260 KB) in 0.05 MiB chunks: 5 chunks. In the first run DynamoDB refuses every
    // request for chunk 2 (a non-retryable error), so that chunk fails at once and the execution with it.
    const { table, request, rows, offsetOf } = await ngramImport(8000, 0.05);
    let chunks: Chunk[] = [];
    let refused = 0;
    faultBatchWrites(table, 'initialize', async (input, send) => {
      const first = input.RequestItems![table][0];
      if (chunkAt(chunks, offsetOf.get(putKey(first))!) !== 2) return send(input);
      refused++;
      throw validationError('One or more parameter values were invalid');
    });

    const onEvent = (e: RunnerEvent) => {
      if (e.type === 'preflight') chunks = e.chunkList;
    };
    const failed = await runWithEvents(request, { maxConcurrency: 2, onEvent }).catch((e: Error) => e);
    expect(failed).toMatchObject({ name: 'BatchWriteFailedError' });
    expect(chunks.length).toBeGreaterThan(2);
    expect(refused).toBeGreaterThan(0);

    removeFaults();
    const { summary } = await runWithEvents(request, { maxConcurrency: 2 });

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  });
});
