import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import { startStandIn, standInConcurrencySource, type StandIn } from '../admission/stand-in.js';
import { expectTableMatches, ngramImport, runWithEvents, withOwnLedger } from '../faults/fixture.js';
import { createBucket, createTable, putText, scanAll } from '../harness.js';

let standIn: StandIn;
beforeAll(async () => {
  standIn = await startStandIn({
    // The import function has no reservation; the account has 6 unreserved.
    'GET /2019-09-30/functions/import-fn/concurrency': () => ({}),
    'GET /2016-08-19/account-settings': () => ({ AccountLimit: { UnreservedConcurrentExecutions: 6 } }),
  });
});
afterAll(() => standIn.close());

/** The most ImportChunk invocations that ran at once, from the runner's start and end of each. */
function mostAtOnce(events: RunnerEvent[]): number {
  let now = 0;
  let most = 0;
  for (const e of events) {
    if (e.type === 'chunk-start') most = Math.max(most, ++now);
    if (e.type === 'chunk-progress') now--;
  }
  return most;
}

describe('lanes fitted to the account', () => {
  it('lowers 40 configured lanes to half of 6 unreserved, says so, and runs no more chunks at once', async () => {
    // 30,000 rows (~1 MB) in 0.05 MiB chunks: ~20 chunks, enough to fill 40 lanes if they were granted.
    const { table, request, rows } = await ngramImport(30_000, 0.05);
    const { summary, events } = await runWithEvents(request, {
      maxConcurrency: 40,
      concurrency: standInConcurrencySource(standIn, 'import-fn'),
      wiring: withOwnLedger(),
    });

    const last = events.filter((e) => e.type === 'preflight').at(-1)!;
    expect(last.type === 'preflight' && last.lanes).toMatchObject({ configured: 40, granted: 3 });
    expect(last.type === 'preflight' && last.lanes.reason).toMatch(/3 of 3 Lambda lanes free.*half the account's 6/);
    expect(summary.chunks).toBeGreaterThan(10);
    expect(mostAtOnce(events)).toBe(3);
    // Who runs is the ledger's to say: no Step Functions call at all.
    expect(standIn.requests.filter((r) => r.target?.startsWith('AWSStepFunctions'))).toEqual([]);
    await expectTableMatches(table, rows);
  }, 180_000);
});

describe('a header too wide for the workflow state', () => {
  const header = (columns: number) => [
    'id',
    ...Array.from({ length: columns - 1 }, (_, i) => `attribute_${String(i).padStart(5, '0')}`),
  ];

  it('fails before any write with InvalidRequestError naming the sizes', async () => {
    // 6,000 columns of ~17 bytes in JSON ("attribute_00001",) is ~100 KiB of column names: over 64 KiB.
    const bucket = await createBucket();
    const table = await createTable(['id', 'S']);
    const names = header(6000);
    await putText(bucket, 'wide.csv', `${names.join(',')}\n${names.map((_, i) => `v${i}`).join(',')}\n`);
    const error = await runWithEvents({ bucket, key: 'wide.csv', table }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error).toMatchObject({ name: 'InvalidRequestError' });
    expect(error!.message).toMatch(
      /header: 6000 columns .* make the workflow state \d+\.\d KiB, over the 64\.0 KiB .* 256\.0 KiB state limit/,
    );
    expect(await scanAll(table)).toEqual([]);
  });

  it('imports a header of 2,000 columns (~35 KiB of names), every attribute landing', async () => {
    const bucket = await createBucket();
    const table = await createTable(['id', 'S']);
    const names = header(2000);
    await putText(bucket, 'wide.csv', `${names.join(',')}\n${names.map((_, i) => `v${i}`).join(',')}\n`);
    const { summary } = await runWithEvents({ bucket, key: 'wide.csv', table });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 1, written: 1 });
    expect(await scanAll(table)).toEqual([Object.fromEntries(names.map((name, i) => [name, { S: `v${i}` }]))]);
  });
});
