import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import { generateNgrams } from '../../fixtures/ngrams.js';
import { expectTableMatches, gate, runWithEvents, withOwnLedger } from '../faults/fixture.js';
import { faultBatchWrites, removeFaultsFrom } from '../faults/inject.js';
import { createBucket, createTable, putText, uniqueName } from '../harness.js';

/** Preflight waits 1 s, then 2 s, ... between asks here, instead of 5 s, 10 s, ...; a ledger of its own. */
const wiring = withOwnLedger(
  createWiring({ config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, queueFirstWaitSeconds: 1 } }),
);
const TYPES = { match_count: 'N', volume_count: 'N' } as const;

/** A 1-gram file whose ngrams all start with `tag`, so two of them share no key. */
function taggedNgrams(count: number, tag: string) {
  const rows = generateNgrams(count).rows.map((row) => ({ ...row, ngram: `${tag}${row.ngram}` }));
  const lines = rows.map((r) => `${r.ngram}\t${r.year}\t${r.match_count}\t${r.volume_count}\n`);
  return { rows, text: `ngram\tyear\tmatch_count\tvolume_count\n${lines.join('')}` };
}

/** What the runs did, in the order the runner reported it (one process: the log's order is the order of events). */
type RunLog = { run: string; event: RunnerEvent }[];

function recorder(name: string, log: RunLog, then?: (event: RunnerEvent) => void) {
  return (event: RunnerEvent) => {
    log.push({ run: name, event });
    then?.(event);
  };
}

/** The most ImportChunk invocations that ran at once across the runs, from the log's starts and ends. */
function mostAtOnce(log: RunLog): number {
  let now = 0;
  let most = 0;
  for (const { event } of log) {
    if (event.type === 'chunk-start') most = Math.max(most, ++now);
    if (event.type === 'chunk-progress') now--;
  }
  return most;
}

describe('two imports into one table at once', () => {
  afterEach(() => removeFaultsFrom(wiring));

  it('when the first holds all the table’s lanes, the second waits in WaitForLanes until the first has finished', async () => {
    const bucket = await createBucket();
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    const first = taggedNgrams(6000, 'first-');
    const second = taggedNgrams(6000, 'second-');
    await putText(bucket, 'first.tsv', first.text);
    await putText(bucket, 'second.tsv', second.text);
    const log: RunLog = [];

    // Event-driven, no sleeps: the second starts once the first holds its lanes (its last preflight returned), and
    // the first's writes are held until the second has been told to wait (or has ended), so the first cannot
    // finish before the second asks.
    const firstAdmitted = gate();
    const secondQueued = gate();
    const holdUntilSecondQueued = async <I, O>(input: I, send: (input: I) => Promise<O>) => {
      await secondQueued.opened;
      return send(input);
    };
    faultBatchWrites(table, 'initialize', holdUntilSecondQueued, wiring);
    const firstRun = runWithEvents(
      { bucket, key: 'first.tsv', table, types: TYPES, chunkMiB: 0.05 },
      {
        wiring,
        executionName: uniqueName('first'),
        maxConcurrency: 2,
        onEvent: recorder('first', log, (e) => e.type === 'preflight' && e.lanes.granted > 0 && firstAdmitted.open()),
      },
    );
    await Promise.race([firstAdmitted.opened, firstRun]);
    const secondRun = runWithEvents(
      { bucket, key: 'second.tsv', table, types: TYPES, chunkMiB: 0.05 },
      {
        wiring,
        executionName: uniqueName('second'),
        maxConcurrency: 2,
        onEvent: recorder('second', log, (e) => e.type === 'preflight' && e.queue.waiting && secondQueued.open()),
      },
    ).finally(secondQueued.open);
    const [a, b] = await Promise.all([firstRun, secondRun]);

    expect(a.summary).toMatchObject({ status: 'SUCCEEDED', written: first.rows.length });
    expect(b.summary).toMatchObject({ status: 'SUCCEEDED', written: second.rows.length });
    const waits = log.filter((e) => e.run === 'second' && e.event.type === 'preflight' && e.event.queue.waiting);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0].event).toMatchObject({
      queue: { reason: `waiting: ${table}'s 2 lanes are held by 1 running import(s)` },
    });
    // Not one chunk of the second import started before the first import's last one had finished.
    const at = (run: string, type: RunnerEvent['type']) =>
      log.flatMap((e, i) => (e.run === run && e.event.type === type ? [i] : []));
    expect(Math.min(...at('second', 'chunk-start'))).toBeGreaterThan(Math.max(...at('first', 'chunk-progress')));
    await expectTableMatches(table, [...first.rows, ...second.rows]);
  }, 180_000);

  it('small imports share the table’s lanes and run side by side: neither waits', async () => {
    const bucket = await createBucket();
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    // One chunk each: each wants one of the table's 4 lanes.
    const files = ['a-', 'b-'].map((tag) => taggedNgrams(500, tag));
    await Promise.all(files.map((f, i) => putText(bucket, `${i}.tsv`, f.text)));
    const log: RunLog = [];
    const runs = files.map((_, i) =>
      runWithEvents(
        { bucket, key: `${i}.tsv`, table, types: TYPES },
        { wiring, maxConcurrency: 4, executionName: uniqueName(`small${i}`), onEvent: recorder(`${i}`, log) },
      ),
    );
    await Promise.all(runs);
    expect(log.filter((e) => e.event.type === 'preflight' && e.event.queue.waiting)).toEqual([]);
    await expectTableMatches(
      table,
      files.flatMap((f) => f.rows),
    );
  }, 180_000);

  it('an import with a maxWriteRate waits until it has the table to itself', async () => {
    const bucket = await createBucket();
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    const [uncapped, capped] = ['u-', 'c-'].map((tag) => taggedNgrams(2000, tag));
    await putText(bucket, 'u.tsv', uncapped.text);
    await putText(bucket, 'c.tsv', capped.text);
    const log: RunLog = [];
    const started = gate();
    const cappedQueued = gate();
    faultBatchWrites(table, 'initialize', async (input, send) => (await cappedQueued.opened, send(input)), wiring);
    const first = runWithEvents(
      { bucket, key: 'u.tsv', table, types: TYPES },
      {
        wiring,
        executionName: uniqueName('u'),
        onEvent: recorder('u', log, (e) => e.type === 'chunk-start' && started.open()),
      },
    );
    await Promise.race([started.opened, first]);
    const second = runWithEvents(
      { bucket, key: 'c.tsv', table, types: TYPES, maxWriteRate: 100_000 },
      {
        wiring,
        executionName: uniqueName('c'),
        onEvent: recorder('c', log, (e) => e.type === 'preflight' && e.queue.waiting && cappedQueued.open()),
      },
    ).finally(cappedQueued.open);
    await Promise.all([first, second]);
    const waits = log.filter((e) => e.run === 'c' && e.event.type === 'preflight' && e.event.queue.waiting);
    expect(waits[0]?.event).toMatchObject({
      queue: { reason: expect.stringMatching(/has a maxWriteRate and 1 other/) },
    });
    await expectTableMatches(table, [...uncapped.rows, ...capped.rows]);
  }, 180_000);
});

describe('imports into two tables at once', () => {
  it('hold at most the Lambda concurrency that exists (a stand-in quota of 3) between them', async () => {
    const bucket = await createBucket();
    const tables = [await createTable(['ngram', 'S'], ['year', 'N']), await createTable(['ngram', 'S'], ['year', 'N'])];
    // ~20 chunks each: enough to fill 40 lanes each if they were granted.
    const rows = generateNgrams(30_000);
    await putText(bucket, 'same.tsv', rows.text);
    const quota = { importConcurrency: async () => ({ reserved: 3, unreserved: null }) };
    const own = withOwnLedger();
    const log: RunLog = [];
    const summaries = await Promise.all(
      tables.map((table, i) =>
        runWithEvents(
          { bucket, key: 'same.tsv', table, types: TYPES, chunkMiB: 0.05 },
          { wiring: own, concurrency: quota, maxConcurrency: 40, onEvent: recorder(`${i}`, log) },
        ),
      ),
    );
    const granted = log.flatMap((e) =>
      e.event.type === 'preflight' && e.event.lanes.granted > 0 ? [e.event.lanes.granted] : [],
    );
    expect(granted.reduce((sum, lanes) => sum + lanes, 0)).toBeLessThanOrEqual(3 + 3); // the second after the first ended, at most
    expect(mostAtOnce(log)).toBeLessThanOrEqual(3);
    for (const { summary } of summaries)
      expect(summary).toMatchObject({ status: 'SUCCEEDED', written: rows.rows.length });
    for (const table of tables) await expectTableMatches(table, rows.rows);
  }, 180_000);
});
