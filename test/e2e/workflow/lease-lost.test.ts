import { describe, expect, it } from 'vitest';
import { ImportLedger, type LiveSettings } from '../../../lambdas/admission/ledger.js';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { ngramImport, runWithEvents } from '../faults/fixture.js';
import { scanAll, uniqueName } from '../harness.js';

/**
 * The ledger, giving the import's lanes back at the third renewal of any lane, as ReleaseLanes does once a failed
 * chunk has failed the Map (or the next admission does once a stopped execution's lease ran out): the other lanes'
 * invocations are still running, since stopping an execution does not stop a Lambda invocation it started.
 */
class ReleasedWhileRunning extends ImportLedger {
  private renewals = 0;

  override async renew(execution: string): Promise<LiveSettings | null> {
    if (++this.renewals === 3) await this.release(execution);
    return super.renew(execution);
  }
}

describe('a lane whose lanes were given back (issue 38, risk 2)', () => {
  it('fails when its lease is gone: it stops at its next record boundary, named, and writes no row after', async () => {
    const base = createWiring({
      config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, liveSettingsIntervalMs: 100 },
    });
    const ledger = new ReleasedWhileRunning(base.dynamodb, uniqueName('ledger'));
    // 30,000 rows at 1,000 items/s: ~30 s of writing in 2 lanes, so the lanes run well past the release (~0.2 s in).
    // A lane still writes what it read before it saw the release (its partition window: up to a few thousand rows
    // here, write/partition-window.ts), so the file is many windows long.
    const { table, request, rows } = await ngramImport(30_000, 0.05);
    const capped = { ...request, maxWriteRate: 1000 };

    const failure = await runWithEvents(capped, { wiring: { ...base, ledger }, maxConcurrency: 2 }).catch(
      (error: Error) => error,
    );

    expect(failure).toMatchObject({
      name: 'LaneLeaseLostError',
      message: expect.stringMatching(/stopped at offset \d+/),
    });
    // Every row that landed is the file's row, and the lanes stopped long before the file's end.
    const items = await scanAll(table);
    const byKey = new Map(rows.map((row) => [`${row.ngram}|${row.year}`, row]));
    expect(items.length).toBeLessThan(rows.length / 2);
    for (const item of items) {
      const row = byKey.get(`${item.ngram.S}|${item.year.N}`)!;
      expect(item).toEqual({
        ngram: { S: row.ngram },
        year: { N: String(row.year) },
        match_count: { N: String(row.match_count) },
        volume_count: { N: String(row.volume_count) },
      });
    }
  }, 120_000);
});
