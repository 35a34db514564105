import { describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { expectTableMatches, ngramImport, runWithEvents, withOwnLedger } from '../faults/fixture.js';

/** Lanes renew their lease every 100 ms here (5 s deployed), each renewal carrying the rows handled since the last. */
const wiring = withOwnLedger(
  createWiring({ config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, liveSettingsIntervalMs: 100 } }),
);

describe("the import's live row count", () => {
  it('moves in the ledger while its one chunk runs, per import, from the lanes themselves', async () => {
    // One chunk, one lane: 1,000 rows at 100 items/s, about 9 s; the chunk reports its rows only at its end.
    const fixture = await ngramImport(1_000, 64);
    const execution = `live-rows-${Date.now()}`;
    const seen: number[] = [];
    let chunkEnded = false;
    const look = setInterval(() => {
      if (chunkEnded) return;
      // The ledger table is made at the first admission: a look before it fails, and is simply not counted.
      wiring.ledger.read(execution).then(
        (live) => live?.rows !== undefined && seen.push(live.rows),
        () => undefined,
      );
    }, 200);
    try {
      const { summary } = await runWithEvents(
        { ...fixture.request, maxWriteRate: 100 },
        {
          wiring,
          executionName: execution,
          onEvent: (event) => {
            if (event.type === 'chunk-progress' && event.done) chunkEnded = true;
          },
        },
      );
      expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 1_000, written: 1_000 });
    } finally {
      clearInterval(look);
    }
    await expectTableMatches(fixture.table, fixture.rows);
    // Several distinct counts before the chunk's end, rising, none past the file's rows.
    expect(new Set(seen).size).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(Math.max(...seen)).toBeLessThanOrEqual(1_000);
    expect(Math.min(...seen)).toBeGreaterThan(0);
  });
});
