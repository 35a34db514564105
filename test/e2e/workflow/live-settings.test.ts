import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import { expectTableMatches, gate, ngramImport, runWithEvents, withOwnLedger } from '../faults/fixture.js';
import { faultBatchWrites, removeFaultsFrom } from '../faults/inject.js';
import { uniqueName } from '../harness.js';

/** Lanes read the ledger every 100 ms here (5 s deployed), and a paused chunk asks again at once. */
const wiring = withOwnLedger(
  createWiring({ config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, liveSettingsIntervalMs: 100 } }),
);

/** Every BatchWriteItem request as the writer sends it (after the rate governor let it go): when, and how many items. */
function recordWrites(table: string) {
  const writes: { at: number; items: number }[] = [];
  faultBatchWrites(
    table,
    'initialize',
    async (input, send) => {
      writes.push({ at: performance.now(), items: input.RequestItems![table].length });
      return send(input);
    },
    wiring,
  );
  return writes;
}

/** Items per second over the writes sent at or after `from` (ms). */
function rateSince(writes: readonly { at: number; items: number }[], from: number): number {
  const window = writes.filter((w) => w.at >= from);
  const items = window.slice(1).reduce((sum, w) => sum + w.items, 0); // items sent after the first one's moment
  return items / ((window.at(-1)!.at - window[0].at) / 1000);
}

describe('changing a running import', () => {
  afterEach(() => removeFaultsFrom(wiring));

  it('follows a new rate within 10% once its lanes have read it (s3-ddb-import rate)', async () => {
    // One chunk, one lane: 2,100 rows at 150 items/s (a first second's burst of 150, then ~3 s), raised to 450 once
    // 600 are sent (then ~3 s more). Rates any machine keeps, loaded or not (18 requests a second at most): what is
    // measured is the governor, not the machine's speed.
    const { table, request, rows } = await ngramImport(2100, 10);
    const writes = recordWrites(table);
    const execution = uniqueName('rate');
    let changedAt = Infinity;
    const sent = () => writes.reduce((sum, w) => sum + w.items, 0);
    const raise = setInterval(() => {
      if (changedAt === Infinity && sent() >= 600) {
        changedAt = performance.now();
        void wiring.ledger.setRate(execution, 450);
      }
    }, 20);
    const run = await runWithEvents({ ...request, maxWriteRate: 150 }, { wiring, executionName: execution }).finally(
      () => clearInterval(raise),
    );

    expect(run.summary).toMatchObject({ status: 'SUCCEEDED', written: rows.length });
    expect(changedAt).toBeLessThan(Infinity);
    // Before: the first second's burst (one second's worth) aside, 150 items/s.
    const before = writes.filter((w) => w.at < changedAt);
    expect(rateSince(before, before[0].at + 1100)).toBeGreaterThan(150 * 0.9);
    expect(rateSince(before, before[0].at + 1100)).toBeLessThan(150 * 1.1);
    // After: read within 100 ms, then 450 items/s from a second on (the new second's worth of burst spent).
    const after = rateSince(writes, changedAt + 1200);
    expect(after).toBeGreaterThan(450 * 0.9);
    expect(after).toBeLessThan(450 * 1.1);
    await expectTableMatches(table, rows);
  }, 120_000);

  it('writes nothing while paused, holding each chunk’s checkpoint, and finishes once resumed', async () => {
    // 6,000 rows in ~0.05 MiB chunks, 2 at once.
    const { table, request, rows } = await ngramImport(6000, 0.05);
    const writes = recordWrites(table);
    const execution = uniqueName('pause');
    const paused = gate();
    const pausedLoops: RunnerEvent[] = [];
    let sentAtPause = -1;
    const sent = () => writes.reduce((sum, w) => sum + w.items, 0);
    const pause = setInterval(() => {
      if (sent() >= 1000 && sentAtPause < 0) {
        sentAtPause = 0; // asked once
        void wiring.ledger.setPaused(execution, true).then(() => paused.open());
      }
    }, 10);
    // The lanes importing now, and those that have come back paused: a lane in the middle of an invocation writes
    // until its next look at the settings, so "nothing written" holds from the moment every running lane has looped.
    const running = new Set<number>();
    const pausedLanes = new Set<number>();
    let loopsAtPause = -1;
    const onEvent = (e: RunnerEvent) => {
      if (e.type === 'chunk-start') running.add(e.chunkIndex);
      if (e.type === 'chunk-progress' && e.done) running.delete(e.chunkIndex);
      if (e.type !== 'chunk-progress' || !('pausedWaitSeconds' in e)) return;
      pausedLoops.push(e);
      pausedLanes.add(e.chunkIndex);
      if (loopsAtPause < 0 && [...running].every((chunk) => pausedLanes.has(chunk))) {
        sentAtPause = sent();
        loopsAtPause = pausedLoops.length;
      }
      // Once every lane has looped paused a few times more, nothing may have been written since they all had.
      if (loopsAtPause > 0 && pausedLoops.length === loopsAtPause + 7) {
        expect(sent()).toBe(sentAtPause);
        void wiring.ledger.setPaused(execution, false);
      }
    };
    const run = await runWithEvents(request, {
      wiring,
      executionName: execution,
      maxConcurrency: 2,
      onEvent,
      waitOverridesMs: { PausedWait: 20 },
    }).finally(() => clearInterval(pause));
    await paused.opened;

    expect(pausedLoops.length).toBeGreaterThanOrEqual(8);
    // A paused chunk's checkpoint is a record start it had reached: every loop returns the same place until resumed.
    for (const loop of pausedLoops) expect(loop.type === 'chunk-progress' && loop.next).toBeTruthy();
    expect(run.summary).toMatchObject({ status: 'SUCCEEDED', written: rows.length, rows: rows.length });
    await expectTableMatches(table, rows);
  }, 120_000);
});
