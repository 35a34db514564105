import { afterEach, describe, expect, it } from 'vitest';
import type { Chunk } from '../../../lambdas/contract/workflow-payloads.js';
import { runLocalImport, type RunnerEvent } from '../../../cli/local-run/runner.js';
import {
  chunkAt,
  expectTableMatches,
  ngramImport,
  putKey,
  runWithEvents,
  throttleError,
  validationError,
} from './fixture.js';
import { faultBatchWrites, faultWiring, removeFaults } from './inject.js';

describe('a table that keeps failing', () => {
  afterEach(removeFaults);

  it('fails when every BatchWriteItem is throttled, with BatchWriteFailedError after a bounded number of tries', async () => {
    // 2,000 rows (~64 KB): one chunk. Throttles sit where a real reply would (finalizeRequest); the SDK does
    // not retry BatchWriteItem, so the BatchWriter sees each one.
    const { table, request } = await ngramImport(2000, 1);
    const tries = new Map<string, number>(); // by the first key of a batch (a throttled retry resends it whole)
    faultBatchWrites(table, 'finalizeRequest', async (input) => {
      const first = putKey(input.RequestItems![table][0]);
      tries.set(first, (tries.get(first) ?? 0) + 1);
      throw throttleError();
    });

    const error = await runLocalImport(request, { maxConcurrency: 2, wiring: faultWiring() }).catch((e: Error) => e);

    expect(error).toMatchObject({ name: 'BatchWriteFailedError' });
    expect((error as Error).message).toContain(table);
    // Bounded by count, not by the clock: each batch got at most the default 12 tries, one call each (no SDK
    // retries underneath), and the one that failed the chunk got all 12. (Its full-jitter waits add up to at
    // most 26.35 s: retry/batch-retry.ts; the test's own timeout is the hang guard.)
    expect(Math.max(...tries.values())).toBe(12);
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
