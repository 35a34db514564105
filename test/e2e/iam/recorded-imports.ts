import { DeleteTableCommand, waitUntilTableNotExists } from '@aws-sdk/client-dynamodb';
import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { expect } from 'vitest';
import type { Wiring } from '../../../lambdas/wiring/wiring.js';
import { ImportLedger } from '../../../lambdas/admission/ledger.js';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import type { SFNClient } from '@aws-sdk/client-sfn';
import { MAP_RUN_THRESHOLD_ERROR } from '../../../lambdas/map-run/first-failed-chunk.js';
import { generateNgrams } from '../../fixtures/ngrams.js';
import { expectTableMatches, runWithEvents, throttleError } from '../faults/fixture.js';
import { faultBatchWrites, faultGetObjects, removeFaults } from '../faults/inject.js';
import { dynamodb, listKeys, putText, s3 } from '../harness.js';
import { gzipSync } from 'node:zlib';
import { MAX_STATEMENT_BYTES } from '../../../lambdas/write/partiql-statements.js';
import { letterFile, NGRAM_TYPES as LETTER_TYPES } from '../sources/letters.js';
import { redrivenChunkReadmits } from './recorded-redrive.js';

/** Where the recorded imports run: one bucket and the tables the stack under test is configured with. */
export interface ImportTargets {
  /** What the handlers are built with: the clients the faults and the recorder sit on, the stack's config. */
  readonly wiring: Wiring;
  readonly bucket: string;
  /** Keyed (ngram S, year N). */
  readonly ngramsTable: string;
  /** Keyed (ngram S, year N); takes the file with bad rows, then is deleted and imported into again. */
  readonly rejectsTable: string;
  /** Keyed (ngram S, year N); takes the prefix with a staged .gz. */
  readonly partsTable: string;
  /** FindFailedChunk's client (Step Functions has no local server: a stand-in answers it, see failedMapRun). */
  readonly sfn: SFNClient;
}

const NGRAM_TYPES = { match_count: 'N', volume_count: 'N' } as const;

/** True from the moment preflight has cut every chunk: later GETs are the import's range reads. */
function importPhase() {
  const phase = {
    started: false,
    onEvent: (e: RunnerEvent) => void (phase.started ||= e.type === 'preflight' && e.scanComplete),
  };
  return phase;
}

/** 4,000 rows (~130 KB) in 0.05 MiB chunks: 3 chunks, 2 at once; every third write throttled once, then retried. */
async function cleanImportWithThrottles(t: ImportTargets): Promise<void> {
  const { text, rows } = generateNgrams(4000);
  await putText(t.bucket, 'imports/ngrams.tsv', text);
  let writes = 0;
  // Inside the SDK's retry (finalizeRequest), where DynamoDB's own throttle reply would arrive.
  faultBatchWrites(t.ngramsTable, 'finalizeRequest', async (input, send) => {
    if (writes++ % 3 === 0) throw throttleError();
    return send(input);
  });
  const request = {
    bucket: t.bucket,
    key: 'imports/ngrams.tsv',
    table: t.ngramsTable,
    types: NGRAM_TYPES,
    chunkMiB: 0.05,
  };
  const { summary } = await runWithEvents(request, {
    wiring: t.wiring,
    concurrency: t.wiring.control,
    maxConcurrency: 2,
  }).finally(removeFaults);
  expect(summary).toMatchObject({
    status: 'SUCCEEDED',
    rows: rows.length,
    written: rows.length,
    rejected: 0,
    chunks: 3,
  });
  await expectTableMatches(t.ngramsTable, rows);
}

/**
 * A prefix (ListObjectsV2) of a plain file and a big .gz that preflight stages as plain pieces (PutObject under the
 * staging prefix); each chunk's import reads its piece and deletes it (DeleteObject). Into its own table.
 */
async function stagedPrefixImport(t: ImportTargets): Promise<void> {
  const plain = letterFile('p', 500);
  const big = letterFile('q', 30_000);
  await putText(t.bucket, 'parts/part-0.tsv', plain.text);
  await putText(t.bucket, 'parts/part-1.tsv.gz', gzipSync(big.text));
  const request = { bucket: t.bucket, prefix: 'parts/', table: t.partsTable, types: LETTER_TYPES, chunkMiB: 0.125 };
  const { summary } = await runWithEvents(request, {
    wiring: t.wiring,
    concurrency: t.wiring.control,
    maxConcurrency: 4,
  });
  expect(summary).toMatchObject({ status: 'SUCCEEDED', written: 30_500, objects: 2 });
  expect(summary.chunks).toBeGreaterThan(3);
  await expectTableMatches(t.partsTable, [...plain.rows, ...big.rows]);
  expect(await listKeys(t.bucket, 's3-ddb-import/staging/')).toEqual([]);
}

/**
 * Two good rows and two bad ones, in 16-byte ranges: `badnum` in the first chunk, `short` in the second, which
 * found its own first record and numbered its lines from it, so Summarize lists, reads, rewrites and deletes its
 * relative rejects file. Two rejects files and a report.
 */
async function importWithRejects(t: ImportTargets): Promise<void> {
  const text = 'ngram\tyear\tmatch_count\ngood\t2001\t10\nbadnum\t2002\t12abc\nshort\t2003\ngood\t2005\t11\n';
  await putText(t.bucket, 'imports/bad.tsv', text);
  const request = {
    bucket: t.bucket,
    key: 'imports/bad.tsv',
    table: t.rejectsTable,
    types: { match_count: 'N' as const },
    chunkMiB: 16 / (1024 * 1024),
  };
  const { summary } = await runWithEvents(request, {
    wiring: t.wiring,
    concurrency: t.wiring.control,
    executionName: 'grants-rejects',
  });
  expect(summary).toMatchObject({ status: 'SUCCEEDED_WITH_REJECTS', rows: 4, written: 2, rejected: 2 });
  expect(await listKeys(t.bucket, summary.rejectsKey!)).toHaveLength(3); // two rejects files and the report
}

async function expectFailure(run: Promise<unknown>, name: string, fragment: string): Promise<void> {
  const error = await run.then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error).toMatchObject({ name });
  expect((error as Error).message).toContain(fragment);
}

/** Preflight's HeadObject of a key nobody uploaded answers 404. */
async function missingObject(t: ImportTargets): Promise<void> {
  const request = { bucket: t.bucket, key: 'imports/never-uploaded.tsv', table: t.ngramsTable };
  await expectFailure(
    runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control }),
    'SourceObjectNotFoundError',
    'imports/never-uploaded.tsv',
  );
}

/** The object disappears between preflight and the import's first range GET, which answers 404. */
async function objectDeletedAfterPreflight(t: ImportTargets): Promise<void> {
  const key = 'imports/deleted.tsv';
  await putText(t.bucket, key, generateNgrams(600).text);
  const phase = importPhase();
  let deleted = false;
  faultGetObjects(t.bucket, 'initialize', async (input, send) => {
    if (phase.started && !deleted) {
      deleted = true;
      await s3.send(new DeleteObjectCommand({ Bucket: t.bucket, Key: key }));
    }
    return send(input);
  });
  const request = { bucket: t.bucket, key, table: t.ngramsTable, types: NGRAM_TYPES };
  await expectFailure(
    runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control, onEvent: phase.onEvent }).finally(
      removeFaults,
    ),
    'SourceObjectNotFoundError',
    key,
  );
  expect(deleted).toBe(true);
}

/**
 * A chunk fails as AWS's Map reports it (States.ExceedToleratedFailureThreshold: a 4xx the range reader passes through
 * under that name), so FindFailedChunk reads the Map Run from the stand-in (ListMapRuns, ListExecutions, DescribeExecution)
 * and the import fails under the child's error.
 */
async function failedMapRun(t: ImportTargets): Promise<void> {
  const key = 'imports/failed-map-run.tsv';
  await putText(t.bucket, key, generateNgrams(600).text);
  const phase = importPhase();
  faultGetObjects(t.bucket, 'initialize', async (input, send) => {
    if (!phase.started) return send(input);
    throw Object.assign(new Error('the Map Run failed'), {
      name: MAP_RUN_THRESHOLD_ERROR,
      $metadata: { httpStatusCode: 400 },
    });
  });
  const request = { bucket: t.bucket, key, table: t.ngramsTable, types: NGRAM_TYPES };
  const options = { wiring: t.wiring, concurrency: t.wiring.control, onEvent: phase.onEvent, sfn: t.sfn };
  await expectFailure(runWithEvents(request, options).finally(removeFaults), 'BatchWriteFailedError', 'first failed');
}

/** A configured table deleted since the last import: DescribeTable answers ResourceNotFoundException. */
async function tableDeleted(t: ImportTargets): Promise<void> {
  await dynamodb.send(new DeleteTableCommand({ TableName: t.rejectsTable }));
  await waitUntilTableNotExists({ client: dynamodb, maxWaitTime: 60 }, { TableName: t.rejectsTable });
  const request = { bucket: t.bucket, key: 'imports/bad.tsv', table: t.rejectsTable };
  await expectFailure(
    runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control }),
    'TableNotFoundError',
    t.rejectsTable,
  );
}

/**
 * An import whose table's lanes are all held by one that ended without giving them back (its lease ran out long
 * ago): preflight reads the holders (Scan), takes the lanes back from the stale one (Delete + Update) and takes them.
 */
async function staleLeaseReclaimed(t: ImportTargets): Promise<void> {
  const { text, rows } = generateNgrams(300, { seed: 9 });
  await putText(t.bucket, 'imports/after-ghost.tsv', text);
  // The ghost is the test's doing, on a client of its own: only the handlers' calls are recorded.
  const longAgo = new ImportLedger(dynamodb, t.wiring.ledger.tableName, () => 0);
  const ghost = { table: t.ngramsTable, want: 40, capped: false, poolLanes: null, tableLanes: 40, maxWriteRate: 0 };
  expect((await longAgo.admit({ ...ghost, execution: 'ghost' })).granted).toBe(40);
  const request = { bucket: t.bucket, key: 'imports/after-ghost.tsv', table: t.ngramsTable, types: NGRAM_TYPES };
  const { summary } = await runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control });
  expect(summary).toMatchObject({ status: 'SUCCEEDED', written: rows.length });
  expect(await longAgo.read('ghost')).toBeNull();
}

/**
 * A request with a warmThroughput above the table's: preflight pre-warms it (UpdateTable); its rows land beside
 * the earlier imports' (their own assertions are behind them). The local engine reports no
 * real warm throughput, so, as in test/e2e/warm-throughput.test.ts, DescribeTable's answer gains AWS's 4,000 write
 * units/s and UpdateTable is answered in its place after the recorder (initialize) has seen it.
 */
async function warmedImport(t: ImportTargets, table: string): Promise<void> {
  const { text, rows } = generateNgrams(200, { seed: 11 });
  await putText(t.bucket, 'imports/warm.tsv', text);
  const stack = t.wiring.dynamodb.middlewareStack;
  stack.add(
    ((next: (a: unknown) => Promise<{ output: { Table?: object } }>, context: { commandName?: string }) =>
      async (args: unknown) => {
        const result = await next(args);
        if (context.commandName === 'DescribeTableCommand' && result.output.Table)
          Object.assign(result.output.Table, { WarmThroughput: { WriteUnitsPerSecond: 4000, Status: 'ACTIVE' } });
        return result;
      }) as never,
    { step: 'initialize', name: 'warmDescribe', priority: 'low' } as never,
  );
  stack.add(
    ((next: (a: unknown) => Promise<unknown>, context: { commandName?: string }) => async (args: unknown) =>
      context.commandName === 'UpdateTableCommand'
        ? { output: { TableDescription: { TableName: table }, $metadata: {} }, response: {} }
        : next(args)) as never,
    { step: 'build', name: 'warmUpdate', priority: 'low' } as never,
  );
  try {
    const request = { bucket: t.bucket, key: 'imports/warm.tsv', table, types: NGRAM_TYPES };
    const { summary } = await runWithEvents(
      { ...request, warmThroughput: 12_000 },
      { wiring: t.wiring, concurrency: t.wiring.control },
    );
    expect(summary).toMatchObject({ status: 'SUCCEEDED', written: rows.length });
  } finally {
    stack.remove('warmDescribe');
    stack.remove('warmUpdate');
  }
}

/** A table this deployment is not configured for: refused before any call, so never DescribeTable'd. */
async function tableNotAllowed(t: ImportTargets): Promise<void> {
  const request = { bucket: t.bucket, key: 'imports/bad.tsv', table: 'some-other-table' };
  await expectFailure(
    runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control }),
    'InvalidRequestError',
    'some-other-table',
  );
}

/**
 * The imports whose calls are checked against the grants: a clean multi-chunk import through throttled writes,
 * a prefix with a staged .gz, one with rejects, and the fault paths that reach AWS differently (missing object, object deleted mid-import,
 * table deleted, table not configured). Each asserts its own outcome, so the calls recorded are those of a run that did what it should.
 */
/**
 * `insert` and `update` go as PartiQL statements in batches (BatchExecuteStatement: PartiQLInsert, PartiQLUpdate),
 * and an item whose attribute names make a statement longer than 8192 bytes as a conditional PutItem or an
 * UpdateItem. Each configured table takes all four (each is granted them); the rows exist already after the
 * put-mode imports above, or not.
 */
async function singleItemModes(t: ImportTargets, table: string): Promise<void> {
  const { text, rows } = generateNgrams(60, { seed: 21 });
  await putText(t.bucket, 'imports/modes.tsv', text);
  const longName = 'n'.repeat(MAX_STATEMENT_BYTES);
  const records = [
    { ngram: 'short names', year: 2001, note: 'a statement' },
    { ngram: 'long names', year: 2002, [longName]: 'a single-item request' },
  ];
  await putText(t.bucket, 'imports/long-names.jsonl', records.map((record) => JSON.stringify(record)).join('\n'));
  for (const mode of ['insert', 'update'] as const) {
    for (const [file, count] of [
      [{ key: 'imports/modes.tsv', types: NGRAM_TYPES }, rows.length],
      [{ key: 'imports/long-names.jsonl' }, records.length],
    ] as const) {
      const request = { bucket: t.bucket, ...file, table, mode };
      const { summary } = await runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control });
      expect(summary).toMatchObject({ status: 'SUCCEEDED', mode, rows: count, rejected: 0 });
      expect(summary.written + summary.skipped).toBe(count);
    }
  }
  // `sync` reads each key first (BatchGetItem, granted on each table) and puts only what differs (BatchWriteItem).
  for (const [file, count] of [
    [{ key: 'imports/modes.tsv', types: NGRAM_TYPES }, rows.length],
    [{ key: 'imports/long-names.jsonl' }, records.length],
  ] as const) {
    const request = { bucket: t.bucket, ...file, table, mode: 'sync' as const };
    const { summary } = await runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control });
    expect(summary).toMatchObject({ status: 'SUCCEEDED', mode: 'sync', rows: count, rejected: 0 });
    expect(summary.added + summary.changed + summary.unchanged).toBe(count);
  }
}

/**
 * A 0-byte object on a ledger no import has used yet: no chunk, so no admission; Summarize still releases, and
 * must do so with the calls it is granted (issue 26, break 1: release once made the ledger's pool item with a PutItem).
 * First of all, so that the ledger is fresh.
 */
async function emptyImportOnFreshLedger(t: ImportTargets): Promise<void> {
  await putText(t.bucket, 'imports/empty.tsv', '');
  const request = { bucket: t.bucket, key: 'imports/empty.tsv', table: t.ngramsTable };
  const { summary } = await runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control });
  expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: 0, written: 0, chunks: 0 });
}

/**
 * A sync with `mirror` on each configured table: MirrorScan scans its keys (Scan) into key parts, MirrorParts compares
 * the parts and deletes what the file dropped (BatchWriteItem DeleteRequest), both reading and writing the parts in
 * the bucket. The file holds the table's first 40 keys of modes.tsv, so its other 20 go (the guard raised to allow it).
 */
async function mirrorImport(t: ImportTargets, table: string): Promise<void> {
  const { text } = generateNgrams(60, { seed: 21 });
  const kept = text.split('\n').slice(0, 41).join('\n');
  await putText(t.bucket, 'imports/mirror.tsv', kept);
  const request = {
    ...{ bucket: t.bucket, key: 'imports/mirror.tsv', table, types: NGRAM_TYPES },
    ...{ mode: 'sync' as const, mirror: true, maxDeletePercent: 100, allowWithoutBackup: true },
  };
  const { summary } = await runWithEvents(request, { wiring: t.wiring, concurrency: t.wiring.control });
  expect(summary).toMatchObject({ status: 'SUCCEEDED', mode: 'sync', rows: 40, rejected: 0 });
  expect(summary.deleted).toBeGreaterThan(0);
}

export async function runRecordedImports(t: ImportTargets): Promise<void> {
  await emptyImportOnFreshLedger(t);
  await cleanImportWithThrottles(t);
  await stagedPrefixImport(t);
  await importWithRejects(t);
  // Each configured table is granted UpdateTable: each is pre-warmed once (before rejectsTable is deleted below).
  for (const table of [t.ngramsTable, t.partsTable, t.rejectsTable]) await warmedImport(t, table);
  for (const table of [t.ngramsTable, t.partsTable, t.rejectsTable]) await singleItemModes(t, table);
  for (const table of [t.ngramsTable, t.partsTable, t.rejectsTable]) await mirrorImport(t, table);
  await missingObject(t);
  await objectDeletedAfterPreflight(t);
  await failedMapRun(t);
  await tableDeleted(t);
  await tableNotAllowed(t);
  await staleLeaseReclaimed(t);
  await redrivenChunkReadmits(t);
}
