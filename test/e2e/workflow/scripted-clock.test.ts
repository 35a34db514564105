import { afterEach, describe, expect, it, vi } from 'vitest';
import { deadlineCheck, fitStopMargin, stopDeadline } from '../../../lambdas/environment/lambda-context.js';
import {
  SCRIPTED_TIME_LEFT_MS,
  invocationContext,
  outOfTimeAfter,
  scriptedLambdaContext,
} from '../../../cli/local-run/lambda-clock.js';
import { chunkInvocations, expectChunksResumed, lineLayout } from '../chunk-invocations.js';
import { expectTableMatches, ngramImport, runWithEvents } from '../faults/fixture.js';
import { faultBatchWrites, removeFaults } from '../faults/inject.js';

const HOUR_MS = 60 * 60 * 1000;
/** The import's stop margin under the default write policy (write/stop-margin.ts): what fitStopMargin is asked for. */
const IMPORT_MARGIN_MS = 35_550;

describe('a scripted clock (cli/local-run/lambda-clock.ts)', () => {
  afterEach(() => void vi.useRealTimers());

  it('answers a day until its script runs out, then 0, counting the reads of each context from 0', () => {
    const script = outOfTimeAfter(2);
    const [first, second] = [scriptedLambdaContext(script), scriptedLambdaContext(script)];
    expect([1, 2, 3].map(() => first.getRemainingTimeInMillis())).toEqual([
      SCRIPTED_TIME_LEFT_MS,
      SCRIPTED_TIME_LEFT_MS,
      0,
    ]);
    // Each invocation gets a fresh context: its budget starts again.
    expect(second.getRemainingTimeInMillis()).toBe(SCRIPTED_TIME_LEFT_MS);
  });

  it("stops the import's deadline at the scripted read, however much real time passes, its timer never firing", () => {
    vi.useFakeTimers();
    const context = scriptedLambdaContext(outOfTimeAfter(4));
    // As the import handler does: read 0 fits the margin, read 1 arms the timer for "remaining less margin".
    const { marginMs, fits } = fitStopMargin(IMPORT_MARGIN_MS, context.getRemainingTimeInMillis());
    expect({ marginMs, fits }).toEqual({ marginMs: IMPORT_MARGIN_MS, fits: true });
    const deadline = stopDeadline(context, marginMs);
    // A machine so slow that 12 hours pass between checks: the timer (armed ~24 h out) has not fired...
    vi.advanceTimersByTime(12 * HOUR_MS);
    expect(deadline.signal.aborted).toBe(false);
    expect([deadline.reached(), deadline.reached()]).toEqual([false, false]); // reads 2 and 3
    // ...and the check on read 4 is the one that stops, aborting the writer's signal with it.
    expect(deadline.reached()).toBe(true);
    expect(deadline.signal.aborted).toBe(true);
    deadline.dispose();
  });

  it("stops preflight's check at the scripted read: its margin comes from the day it first reads", () => {
    const shouldStop = deadlineCheck(scriptedLambdaContext(outOfTimeAfter(1))); // read 0: a 30 s margin
    expect([shouldStop(), shouldStop()]).toEqual([true, true]);
  });

  it('is the real clock when no script is given', () => {
    vi.useFakeTimers();
    const context = invocationContext(5000);
    vi.advanceTimersByTime(2000);
    expect(context.getRemainingTimeInMillis()).toBe(3000);
  });

  it.each([0, -1, 1.5, Number.NaN])('fails when the budget is %s reads', (reads) => {
    expect(() => outOfTimeAfter(reads)).toThrow(`reads must be a whole number of at least 1, got ${reads}`);
  });
});

describe('an import on a scripted clock', () => {
  afterEach(removeFaults);

  it('stops at the same checkpoints whether DynamoDB answers at once or every write is held back', async () => {
    // 6,000 rows (~190 KB) in 0.1 MiB chunks: 2 chunks (~3,300 and ~2,700 rows), both at once. Each invocation
    // stops at its check after 42 clock reads (two set its margin and timer, then one every 25 records): ~1,000
    // rows in, so each chunk takes three or four.
    const clocks = { ImportChunk: outOfTimeAfter(42) };
    const fast = await ngramImport(6000, 0.1);
    const fastRun = await runWithEvents(fast.request, { clocks, maxConcurrency: 2 });
    const slow = await ngramImport(6000, 0.1); // the same file, into a table of its own
    expect(slow.text).toBe(fast.text);
    faultBatchWrites(slow.table, 'initialize', async (input, send) => {
      await new Promise((resolve) => setTimeout(resolve, 25)); // every write held back: many times slower
      return send(input);
    });
    const slowRun = await runWithEvents(slow.request, { clocks, maxConcurrency: 2 });

    const trail = (run: typeof fastRun) => {
      const chunks = run.events.filter((e) => e.type === 'preflight').at(-1)!.chunkList;
      expect(expectChunksResumed(run.events, chunks, lineLayout(fast.text, { header: true }))).toSatisfy(
        (invocations: number[]) => invocations.every((n) => n >= 2),
      );
      return [...chunkInvocations(run.events)].sort(([a], [b]) => a - b);
    };
    expect(trail(slowRun)).toEqual(trail(fastRun));
    await expectTableMatches(fast.table, fast.rows);
    await expectTableMatches(slow.table, slow.rows);
  });
});
