import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import { generateNgrams } from '../../fixtures/ngrams.js';
import { expectTableMatches, gate, runWithEvents } from '../faults/fixture.js';
import { faultBatchWrites, removeFaultsFrom } from '../faults/inject.js';
import { createBucket, createTable, putText } from '../harness.js';

/** Preflight waits 1 s, then 2 s, ... between asks here, instead of 5 s, 10 s, ... */
const wiring = createWiring({
  config: { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, queueFirstWaitSeconds: 1 },
});
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

describe('two imports into one table at once', () => {
  afterEach(() => removeFaultsFrom(wiring));

  it('run one after the other: the later waits in the Wait loop until the earlier has finished', async () => {
    const bucket = await createBucket();
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    const first = taggedNgrams(6000, 'first-');
    const second = taggedNgrams(6000, 'second-');
    await putText(bucket, 'first.tsv', first.text);
    await putText(bucket, 'second.tsv', second.text);
    const log: RunLog = [];

    // Event-driven, no sleeps: the second starts once the first's preflight has returned (the first is registered
    // by then, with the earlier start time, however long loading the bundles took), and the first's writes are
    // held until the second has been told to wait (or has ended), so the first cannot finish before the second asks.
    const firstScanned = gate();
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
        executionName: 'first',
        maxConcurrency: 2,
        onEvent: recorder('first', log, (e) => e.type === 'preflight' && firstScanned.open()),
      },
    );
    await Promise.race([firstScanned.opened, firstRun]);
    const secondRun = runWithEvents(
      { bucket, key: 'second.tsv', table, types: TYPES, chunkMiB: 0.05 },
      {
        wiring,
        executionName: 'second',
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
      queue: { behind: expect.stringMatching(/:execution:s3-ddb-import-local:first$/) },
    });
    // Not one chunk of the second import started before the first import's last one had finished.
    const at = (run: string, type: RunnerEvent['type']) =>
      log.flatMap((e, i) => (e.run === run && e.event.type === type ? [i] : []));
    expect(Math.min(...at('second', 'chunk-start'))).toBeGreaterThan(Math.max(...at('first', 'chunk-progress')));
    await expectTableMatches(table, [...first.rows, ...second.rows]);
  }, 180_000);

  it('into different tables run side by side: neither waits', async () => {
    const bucket = await createBucket();
    const [tableA, tableB] = [
      await createTable(['ngram', 'S'], ['year', 'N']),
      await createTable(['ngram', 'S'], ['year', 'N']),
    ];
    const rows = generateNgrams(2000);
    await putText(bucket, 'same.tsv', rows.text);
    const log: RunLog = [];
    await Promise.all([
      runWithEvents({ bucket, key: 'same.tsv', table: tableA, types: TYPES }, { wiring, onEvent: recorder('a', log) }),
      runWithEvents({ bucket, key: 'same.tsv', table: tableB, types: TYPES }, { wiring, onEvent: recorder('b', log) }),
    ]);
    expect(log.filter((e) => e.event.type === 'preflight' && e.event.queue.waiting)).toEqual([]);
    await expectTableMatches(tableA, rows.rows);
    await expectTableMatches(tableB, rows.rows);
  }, 180_000);
});
