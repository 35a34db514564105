import { describe, expect, it } from 'vitest';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import { generateNgrams } from '../../fixtures/ngrams.js';
import { expectTableMatches, runWithEvents } from '../faults/fixture.js';
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

/** What one run did, in the order the runner reported it, with when. */
function recorder(name: string, log: { run: string; event: RunnerEvent; at: number }[]) {
  return (event: RunnerEvent) => log.push({ run: name, event, at: Date.now() });
}

describe('two imports into one table at once', () => {
  it('run one after the other: the later waits in the Wait loop until the earlier has finished', async () => {
    const bucket = await createBucket();
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    const first = taggedNgrams(6000, 'first-');
    const second = taggedNgrams(6000, 'second-');
    await putText(bucket, 'first.tsv', first.text);
    await putText(bucket, 'second.tsv', second.text);
    const log: { run: string; event: RunnerEvent; at: number }[] = [];

    const firstRun = runWithEvents(
      { bucket, key: 'first.tsv', table, types: TYPES, chunkMiB: 0.05 },
      { wiring, executionName: 'first', maxConcurrency: 2, onEvent: recorder('first', log) },
    );
    await new Promise((resolve) => setTimeout(resolve, 50)); // started strictly later
    const secondRun = runWithEvents(
      { bucket, key: 'second.tsv', table, types: TYPES, chunkMiB: 0.05 },
      { wiring, executionName: 'second', maxConcurrency: 2, onEvent: recorder('second', log) },
    );
    const [a, b] = await Promise.all([firstRun, secondRun]);

    expect(a.summary).toMatchObject({ status: 'SUCCEEDED', written: first.rows.length });
    expect(b.summary).toMatchObject({ status: 'SUCCEEDED', written: second.rows.length });
    const waits = log.filter((e) => e.run === 'second' && e.event.type === 'preflight' && e.event.queue.waiting);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0].event).toMatchObject({
      queue: { behind: expect.stringMatching(/:execution:s3-ddb-import-local:first$/) },
    });
    // Not one chunk of the second import was written before the first import's last one.
    const lastOfFirst = Math.max(
      ...log.filter((e) => e.run === 'first' && e.event.type === 'chunk-progress').map((e) => e.at),
    );
    const firstOfSecond = Math.min(
      ...log.filter((e) => e.run === 'second' && e.event.type === 'chunk-progress').map((e) => e.at),
    );
    expect(firstOfSecond).toBeGreaterThan(lastOfFirst);
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
    const log: { run: string; event: RunnerEvent; at: number }[] = [];
    await Promise.all([
      runWithEvents({ bucket, key: 'same.tsv', table: tableA, types: TYPES }, { wiring, onEvent: recorder('a', log) }),
      runWithEvents({ bucket, key: 'same.tsv', table: tableB, types: TYPES }, { wiring, onEvent: recorder('b', log) }),
    ]);
    expect(log.filter((e) => e.event.type === 'preflight' && e.event.queue.waiting)).toEqual([]);
    await expectTableMatches(tableA, rows.rows);
    await expectTableMatches(tableB, rows.rows);
  }, 180_000);
});
