import { afterAll, describe, expect, it } from 'vitest';
import type { RetryPolicy } from '../../../lambdas/retry/backoff.js';
import { readLambdaConfig } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { importStopMarginMs } from '../../../lambdas/write/stop-margin.js';
import { outOfTimeAfter, type StateEvent } from '../../../cli/local-run/runner.js';
import { expectChunksResumed, lineLayout } from '../chunk-invocations.js';
import { expectTableMatches, ngramImport, putKey, runWithEvents, throttleError } from './fixture.js';
import { faultBatchWrites, removeFaultsFrom } from './inject.js';

/**
 * A short ladder so the test takes seconds: stalled waits of at most 20, 40, 80, 160, 320, 320, 320 ms
 * (levels 0..6 of 8 attempts) = 1,260, plus 24 partial replies x 20 = 480: 1,740 ms; with a 3 s request
 * timeout (a loaded 2-core machine does take over 1 s for a request now and then), the 2 s window drain and the 1 s finish
 * reserve, the import keeps 7,740 ms in hand.
 */
const RETRY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 20, maxDelayMs: 320 };
const REQUEST_TIMEOUT_MS = 3000;
/**
 * The invocation's timeout, which the runner enforces on the real clock (failing a late invocation as
 * Lambda.Unknown at 12 + 5 s of grace). The margin is the derived 7,740 ms, unclipped, as it would be in 12 s
 * (under half of it): on the scripted clock below the import sees a day left.
 */
const IMPORT_TIMEOUT_MS = 12_000;
/**
 * Where each invocation's deadline comes, on a scripted clock (cli/local-run/lambda-clock.ts): at its check after
 * 26 clock reads (two set its margin and timer, then one every 25 records), ~600 rows in, the same on any
 * machine. At the ~230 items/s this throttling allows, that is ~2.6 s of work and at most 0.3 s of backoff per
 * batch to drain: far inside the 17 s after which the runner would fail the invocation.
 */
const IMPORT_READS = 26;
/** Every batch is refused this many times in a row before it goes through: 4 of its 8 attempts. */
const THROTTLES_PER_BATCH = 4;

const wiring = createWiring({
  config: { ...readLambdaConfig(), write: { retry: RETRY, requestTimeoutMs: REQUEST_TIMEOUT_MS } },
});
afterAll(() => {
  removeFaultsFrom(wiring);
  wiring.dynamodb.destroy();
  wiring.writeTransport.destroy();
  wiring.s3.destroy();
});

describe('a chunk under sustained throttling with a short Lambda timeout', () => {
  it('stops at checkpoints when its deadline comes mid-throttle instead of being killed, and the table matches the file', async () => {
    expect(
      importStopMarginMs({ retry: RETRY, requestTimeoutMs: REQUEST_TIMEOUT_MS, maxInFlight: 16, writeRate: 0 }),
    ).toBe(7740);
    // 3,000 rows (~100 KB): one chunk. Each batch spends up to 20 + 40 + 80 + 160 = 300 ms asleep and the writer
    // runs at a few requests in flight (4 of 5 replies pushed back: measured ~230 items/s); the deadline comes
    // every ~600 rows, always mid-throttle, so the chunk takes about five invocations.
    const { table, request, rows, text } = await ngramImport(3000, 1);
    const refusals = new Map<string, number>(); // by the first key of a batch (a throttled retry resends it whole)
    faultBatchWrites(
      table,
      'finalizeRequest',
      async (input, send) => {
        const first = putKey(input.RequestItems![table][0]);
        const refused = refusals.get(first) ?? 0;
        if (refused >= THROTTLES_PER_BATCH) return send(input);
        refusals.set(first, refused + 1);
        throw throttleError();
      },
      wiring,
    );
    const retried: StateEvent[] = [];
    const onStateEvent = (e: StateEvent) => void (e.type === 'StateRetried' && retried.push(e));

    const { summary, events } = await runWithEvents(request, {
      wiring,
      taskTimeoutsMs: { ImportChunk: IMPORT_TIMEOUT_MS },
      clocks: { ImportChunk: outOfTimeAfter(IMPORT_READS) },
      onStateEvent,
    });

    // The chunk took several invocations, each stopping mid-throttle at a record start and the next resuming there...
    const chunks = events.filter((e) => e.type === 'preflight').at(-1)!.chunkList;
    const [invocations] = expectChunksResumed(events, chunks, lineLayout(text, { header: true }));
    expect(invocations).toBeGreaterThanOrEqual(2);
    // ...and every one returned its checkpoint in time: one failed as timed out would have reached the workflow
    // as Lambda.Unknown and been retried.
    expect(retried).toEqual([]);
    // The throttling was sustained: every batch was refused 4 times before it was written.
    expect([...refusals.values()].every((n) => n === THROTTLES_PER_BATCH)).toBe(true);
    expect(refusals.size).toBeGreaterThanOrEqual(rows.length / 25);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  }, 180_000);
});
