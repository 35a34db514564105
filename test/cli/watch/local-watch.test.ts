import { afterEach, describe, expect, it } from 'vitest';
import { createWiring } from '../../../lambdas/wiring/wiring.js';
import { startLocalWatch, type LocalWatch, type WatchEvent } from '../../../cli/watch/start-local-watch.js';
import { generateNgrams } from '../../fixtures/ngrams.js';
import { expectTableMatches } from '../../e2e/faults/fixture.js';
import { createBucket, createTable, putText, scanAll } from '../../e2e/harness.js';

/** Faster than the CLI's second: the tests wait for each import anyway. */
const POLL_MS = 100;
const TYPES = { year: 'N', match_count: 'N', volume_count: 'N' } as const;

/** A watch on a fresh bucket and table (the test run's local engine), recording what it reports. */
async function watching() {
  const bucket = await createBucket();
  const table = await createTable(['ngram', 'S'], ['year', 'N']);
  const events: WatchEvent[] = [];
  const waiters: { key: string; resolve: (e: WatchEvent) => void }[] = [];
  const watch = await startLocalWatch({
    watches: [{ prefix: 'imports/ngrams/', table, types: { ...TYPES } }],
    bucket,
    region: 'us-east-1',
    wiring: createWiring(),
    pollIntervalMs: POLL_MS,
    onEvent: (event) => {
      events.push(event);
      if (event.type !== 'done' && event.type !== 'failed') return;
      for (const waiter of waiters.filter((w) => w.key === event.key)) waiter.resolve(event);
    },
  });
  /** Resolves with the `done` or `failed` event of the import of `key`. */
  const finished = (key: string) => new Promise<WatchEvent>((resolve) => waiters.push({ key, resolve }));
  return { bucket, table, events, watch, finished };
}

describe('local watch on the local engine', () => {
  let watch: LocalWatch | undefined;
  afterEach(async () => watch?.stop());

  it('imports an upload under the watched prefix item by item, and nothing uploaded elsewhere', async () => {
    const w = await watching();
    watch = w.watch;
    const { text, rows } = generateNgrams(1000);
    // Keys the watched file does not have: had it been imported, the table would hold more than the file's rows.
    const elsewhere = 'ngram\tyear\tmatch_count\tvolume_count\nelsewhere\t1900\t1\t1\n';
    // First an upload outside the prefix, an empty "folder" inside it, then the file. A listing hands over
    // everything new at once, so by the time the file's import ends, the folder was seen too (and skipped).
    await putText(w.bucket, 'other/1gram.tsv', elsewhere);
    await putText(w.bucket, 'imports/ngrams/empty/', Buffer.alloc(0));
    const finished = w.finished('imports/ngrams/1gram.tsv');
    await putText(w.bucket, 'imports/ngrams/1gram.tsv', text);

    expect(await finished).toMatchObject({
      type: 'done',
      summary: { status: 'SUCCEEDED', rows: 1000, written: 1000, rejected: 0 },
    });
    await expectTableMatches(w.table, rows);
    expect(w.events.filter((e) => e.type === 'upload').map((e) => e.key)).toEqual(['imports/ngrams/1gram.tsv']);
    // The request is the watch's, with the bucket and key of the upload: what the EventBridge rule would send.
    expect(w.events.find((e) => e.type === 'upload')).toMatchObject({
      request: { bucket: w.bucket, key: 'imports/ngrams/1gram.tsv', table: w.table, types: TYPES },
    });
    expect(w.events.some((e) => e.type === 'progress' && e.event.type === 'chunk-progress' && e.event.done)).toBe(true);
  });

  it('imports every later upload, a replaced object again, and reports a bad one as failed without stopping', async () => {
    const w = await watching();
    watch = w.watch;
    const first = generateNgrams(400, { seed: 2 });
    const firstDone = w.finished('imports/ngrams/a.tsv');
    await putText(w.bucket, 'imports/ngrams/a.tsv', first.text);
    expect(await firstDone).toMatchObject({ type: 'done', summary: { written: 400 } });

    // No column "year" in this file: the table's sort key is missing, so preflight refuses it.
    const badDone = w.finished('imports/ngrams/bad.csv');
    await putText(w.bucket, 'imports/ngrams/bad.csv', 'ngram,count\nx,1\n');
    expect(await badDone).toMatchObject({ type: 'failed', error: { name: 'InvalidRequestError' } });

    const second = generateNgrams(600, { seed: 3 });
    const againDone = w.finished('imports/ngrams/a.tsv');
    await putText(w.bucket, 'imports/ngrams/a.tsv', second.text);
    expect(await againDone).toMatchObject({ type: 'done', summary: { written: 600 } });
    // Both versions' rows landed (puts by key; the two seeds share their first keys, the second wins those).
    const items = await scanAll(w.table);
    const byKey = new Map(items.map((i) => [`${i.ngram.S}|${i.year.N}`, i.match_count.N]));
    for (const row of second.rows) expect(byKey.get(`${row.ngram}|${row.year}`)).toBe(String(row.match_count));
    expect(items).toHaveLength(new Set([...first.rows, ...second.rows].map((r) => `${r.ngram}|${r.year}`)).size);
  });

  it('does not import what the bucket held before it started', async () => {
    const bucket = await createBucket();
    const table = await createTable(['ngram', 'S'], ['year', 'N']);
    await putText(bucket, 'imports/ngrams/old.tsv', generateNgrams(10).text);
    const events: WatchEvent[] = [];
    watch = await startLocalWatch({
      watches: [{ prefix: 'imports/ngrams/', table, types: { ...TYPES } }],
      bucket,
      region: 'us-east-1',
      wiring: createWiring(),
      pollIntervalMs: POLL_MS,
      onEvent: (e) => events.push(e),
    });
    // A later upload is imported; the old object never is.
    const done = new Promise<void>((resolve) => {
      const poll = setInterval(() => events.some((e) => e.type === 'done') && (clearInterval(poll), resolve()), 50);
    });
    await putText(bucket, 'imports/ngrams/new.tsv', generateNgrams(10, { seed: 4 }).text);
    await done;
    expect(events.filter((e) => e.type === 'upload').map((e) => e.key)).toEqual(['imports/ngrams/new.tsv']);
  });
});
