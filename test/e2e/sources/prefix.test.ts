import { HeadObjectCommand, type GetObjectCommandInput } from '@aws-sdk/client-s3';
import { afterEach, describe, expect, it } from 'vitest';
import { outOfTimeAfter, type RunnerEvent } from '../../../cli/local-run/runner.js';
import { runWithEvents, expectTableMatches } from '../faults/fixture.js';
import { faultGetObjects, removeFaults } from '../faults/inject.js';
import { createBucket, createTable, getText, listKeys, putText, s3, scanAll } from '../harness.js';
import { parseRejectsFiles } from '../hostile/rejects-file.js';
import { LETTERS, NGRAM_HEADER, NGRAM_TYPES, letterFile } from './letters.js';

afterEach(removeFaults);

/** The most chunk imports running at once, from the runner's events. */
function mostAtOnce(events: readonly RunnerEvent[]): number {
  const running = new Set<number>();
  let most = 0;
  for (const event of events) {
    if (event.type === 'chunk-start') running.add(event.chunkIndex);
    if (event.type === 'chunk-progress') running.delete(event.chunkIndex);
    most = Math.max(most, running.size);
  }
  return most;
}

describe('a prefix of many objects', () => {
  it('imports a folder of 26 letter files in parallel, item by item, skipping markers, every GET with its ETag', async () => {
    const bucket = await createBucket();
    const files = LETTERS.map((letter) => ({ key: `letters/1gram-${letter}.tsv`, ...letterFile(letter, 300) }));
    // One bad row in the m file: its reject must name that file.
    const m = files.find((f) => f.key.endsWith('-m.tsv'))!;
    m.text = m.text.replace(/\n/, '\nm_bad\t1999\tlots\t1\n');
    await Promise.all(files.map((f) => putText(bucket, f.key, f.text)));
    // What Spark and the S3 console leave next to the data: none of it is imported.
    await Promise.all(
      ['letters/', 'letters/_SUCCESS', 'letters/.1gram-a.tsv.crc'].map((key) => putText(bucket, key, Buffer.alloc(0))),
    );
    await putText(bucket, 'letters/.1gram-a.tsv.crc', 'crc bytes');
    const etags = new Map(
      await Promise.all(
        files.map(
          async (f) => [f.key, (await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: f.key }))).ETag!] as const,
        ),
      ),
    );
    const gets: GetObjectCommandInput[] = [];
    faultGetObjects(bucket, 'initialize', async (input, send) => {
      gets.push(input);
      return send(input);
    });
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const { summary, events } = await runWithEvents(
      { bucket, prefix: 'letters/', table, types: NGRAM_TYPES },
      { maxConcurrency: 8, executionName: 'letters-1' },
    );

    const rows = files.flatMap((f) => f.rows);
    expect(summary).toMatchObject({
      status: 'SUCCEEDED_WITH_REJECTS',
      rows: rows.length + 1,
      written: rows.length,
      rejected: 1,
      key: 'letters/',
      prefix: 'letters/',
      objects: 26,
      chunks: 26,
    });
    await expectTableMatches(table, rows);
    // The Map drew its chunks from all 26 objects and ran several at once.
    const chunks = events.filter((e) => e.type === 'preflight').at(-1)!.chunkList;
    expect(new Set(chunks.map((c) => c.object))).toEqual(new Set(LETTERS.map((_, i) => i)));
    expect(mostAtOnce(events)).toBeGreaterThan(1);
    // Every GET of a source object names that object's ETag.
    const sourceGets = gets.filter((g) => g.Key!.startsWith('letters/'));
    expect(new Set(sourceGets.map((g) => g.Key))).toEqual(new Set(files.map((f) => f.key)));
    for (const get of sourceGets) expect(get.IfMatch).toBe(etags.get(get.Key!));

    // The reject names its object, in the rejects file (named by object index and offset) and in the report.
    const mIndex = LETTERS.indexOf('m');
    const keys = await listKeys(bucket, summary.rejectsKey!);
    const start = Buffer.byteLength(`${NGRAM_HEADER}\n`);
    expect(keys).toEqual([
      `s3-ddb-import/rejects/letters-1/${mIndex}-${start}.csv`,
      's3-ddb-import/rejects/letters-1/report.json',
    ]);
    const rejectsFile = Buffer.from(await getText(bucket, keys[0]));
    expect(rejectsFile.toString().split('\n')[1]).toBe(
      `2,${start},"column ""match_count"": not a number: ""lots""","m_bad\t1999\tlots\t1","letters/1gram-m.tsv"`,
    );
    expect(parseRejectsFiles([rejectsFile])).toHaveLength(1);
    const report = JSON.parse(await getText(bucket, keys[1]));
    expect(report.objects).toHaveLength(26);
    expect(report.objects[mIndex]).toEqual({
      key: 'letters/1gram-m.tsv',
      chunks: 1,
      rows: 301,
      written: 300,
      rejected: 1,
      skipped: 0,
      deleted: 0,
      writeUnits: 0,
      added: 0, // sync's counts (issue 36): 0 in put mode
      changed: 0,
      unchanged: 0,
    });
    expect(report.objects[0]).toEqual({
      key: 'letters/1gram-a.tsv',
      chunks: 1,
      rows: 300,
      written: 300,
      rejected: 0,
      skipped: 0,
      deleted: 0,
      writeUnits: 0,
      added: 0, // sync's counts (issue 36): 0 in put mode
      changed: 0,
      unchanged: 0,
    });
  });

  it('cuts big objects into several chunks and small ones into one, with a preflight checkpoint between objects', async () => {
    const bucket = await createBucket();
    const big = letterFile('b', 20_000);
    const small = letterFile('s', 50);
    await putText(bucket, 'mix/part-00000.tsv', big.text);
    await putText(bucket, 'mix/part-00001.tsv', small.text);
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const { summary, events } = await runWithEvents(
      { bucket, prefix: 'mix/', table, types: NGRAM_TYPES, chunkMiB: 0.1 },
      // Preflight is out of time from its first check on (cli/local-run/lambda-clock.ts): it returns a checkpoint
      // between objects, on any machine (a plain object's ranges come from its size, in the same call).
      { maxConcurrency: 4, clocks: { Preflight: outOfTimeAfter(1) } },
    );

    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 20_050, written: 20_050, objects: 2 });
    await expectTableMatches(table, [...big.rows, ...small.rows]);
    const preflights = events.filter((e) => e.type === 'preflight');
    expect(preflights).toHaveLength(2);
    const chunks = preflights.at(-1)!.chunkList;
    const header = Buffer.byteLength(`${NGRAM_HEADER}\n`);
    // Each object's chunks tile its data exactly, from past its own header to its end.
    for (const [object, text] of [
      [0, big.text],
      [1, small.text],
    ] as const) {
      const own = chunks.filter((c) => c.object === object);
      expect(own[0].start).toBe(header);
      expect(own.at(-1)!.end).toBe(Buffer.byteLength(text));
      own.slice(1).forEach((c, i) => expect(c.start).toBe(own[i].end));
    }
    expect(chunks.filter((c) => c.object === 0).length).toBeGreaterThanOrEqual(5); // ~540 KB in 0.1 MiB chunks
    expect(chunks.filter((c) => c.object === 1)).toHaveLength(1);
  });

  it("fails when the files' headers disagree, naming the files, before any write", async () => {
    const bucket = await createBucket();
    await putText(bucket, 'parts/part-0.csv', 'ngram,year,count\nx,1,2\n');
    await putText(bucket, 'parts/part-1.csv', 'ngram,year,count\ny,1,2\n');
    await putText(bucket, 'parts/part-2.csv', 'ngram,year,volumes\nz,1,2\n');
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const failure = await runWithEvents({ bucket, prefix: 'parts/', table }).then(
      () => null,
      (e: Error) => e,
    );

    expect(failure).toMatchObject({
      name: 'InvalidRequestError',
      message:
        "invalid request: header: the objects' headers disagree: parts/part-0.csv, parts/part-1.csv have [ngram, year, count]; " +
        'parts/part-2.csv has [ngram, year, volumes]',
    });
    expect(await scanAll(table)).toEqual([]);
  });

  it.each([
    [
      'holds only markers',
      ['empty/', 'empty/_SUCCESS'],
      'no objects to import under s3://BUCKET/empty/ (skipped: 1 folder marker, 1 marker or hidden file)',
    ],
    ['lists no keys', [], 'no objects to import under s3://BUCKET/empty/ (the prefix lists no keys)'],
  ])('fails when the prefix %s, with a named error, before any write', async (_, keys, message) => {
    const bucket = await createBucket();
    await Promise.all(keys.map((key) => putText(bucket, key, Buffer.alloc(0))));
    const table = await createTable(['ngram', 'S'], ['year', 'N']);

    const failure = await runWithEvents({ bucket, prefix: 'empty/', table }).then(
      () => null,
      (e: Error) => e,
    );

    expect(failure).toMatchObject({ name: 'NoSourceObjectsError', message: message.replace('BUCKET', bucket) });
    expect(await scanAll(table)).toEqual([]);
  });
});
