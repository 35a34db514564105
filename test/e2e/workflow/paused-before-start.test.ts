import { describe, expect, it } from 'vitest';
import { ImportLedger, type LiveSettings } from '../../../lambdas/admission/ledger.js';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import { expectTableMatches, ngramImport, runWithEvents } from '../faults/fixture.js';
import { uniqueName } from '../harness.js';

/** The ledger, pausing the import at the first renewal of any lane: no lane has read a byte of its chunk yet. */
class PausedFromTheStart extends ImportLedger {
  private pausedOnce = false;

  override async renew(execution: string): Promise<LiveSettings | null> {
    if (!this.pausedOnce) {
      this.pausedOnce = true;
      await this.setPaused(execution, true);
    }
    return super.renew(execution);
  }
}

describe('an import paused before its lanes read a byte', () => {
  // A byte range that has not found its first record holds its start, mid-record in general: once resumed it
  // must look for its first record again, not import the tail of its neighbour's last one (chunk-plan.ts).
  it('imports every row once after resuming, each byte range from its first record', async () => {
    const base = createWiring({
      config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, liveSettingsIntervalMs: 100 },
    });
    const ledger = new PausedFromTheStart(base.dynamodb, uniqueName('ledger'));
    const wiring = { ...base, ledger };
    // 3,000 rows (~90 KB) in ~0.02 MiB chunks: four byte ranges at once, all but the first starting mid-record.
    const { table, request, rows } = await ngramImport(3000, 0.02);
    const execution = uniqueName('paused-start');
    const pausedStarts = new Map<number, unknown>();
    const onEvent = (e: RunnerEvent) => {
      if (e.type !== 'chunk-progress' || !('pausedWaitSeconds' in e)) return;
      if (!pausedStarts.has(e.chunkIndex)) pausedStarts.set(e.chunkIndex, e.next);
      if (pausedStarts.size === 4) void ledger.setPaused(execution, false);
    };
    const run = await runWithEvents(request, {
      wiring,
      executionName: execution,
      maxConcurrency: 4,
      onEvent,
      waitOverridesMs: { PausedWait: 20 },
    });

    // Every lane came back paused from its first invocation, holding its chunk's start.
    const planned = run.events.flatMap((e) => (e.type === 'preflight' ? [e.chunkList] : [])).at(-1)!;
    expect([...pausedStarts.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const [index, next] of pausedStarts) expect(next).toMatchObject({ offset: planned[index].start });
    expect(planned.slice(1, 4).every((c) => c.line === undefined)).toBe(true);
    expect(run.summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  }, 120_000);
});
