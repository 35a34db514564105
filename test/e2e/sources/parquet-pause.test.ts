import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunnerEvent } from '../../../cli/local-run/runner.js';
import type { Checkpoint } from '../../../lambdas/contract/workflow-payloads.js';
import { DEFAULT_REJECTS_PREFIX } from '../../../lambdas/environment/config.js';
import { readParquetFooter } from '../../../lambdas/formats/parquet/parquet-footer.js';
import { createWiring, type Wiring } from '../../../lambdas/wiring/wiring.js';
import { DEFAULT_MAX_IN_FLIGHT } from '../../../lambdas/write/batch-writer.js';
import { gate, runWithEvents, withOwnLedger } from '../faults/fixture.js';
import { faultBatchWrites, removeFaultsFrom } from '../faults/inject.js';
import { comparable } from '../formats/normalize-item.js';
import { createBucket, createTable, putText, scanAll, uniqueName } from '../harness.js';

type Item = Record<string, AttributeValue>;

const FIXTURES = join(import.meta.dirname, '../../fixtures/parquet');
/** 1,200 rows in 30 row groups of 40, keyed `id` (all distinct), with S and N values only. */
const FILE = readFileSync(join(FIXTURES, 'row-groups.parquet'));
/** The file's items in file order (make-fixtures.py writes them so): row r (1-based) is ROWS[r - 1]. */
const ROWS = (JSON.parse(readFileSync(join(FIXTURES, 'row-groups.expect.json'), 'utf8')) as { items: Item[] }).items;

/** Lanes read the ledger every 20 ms here (5 s deployed), and a paused chunk asks again after 20 ms. */
function pauseWiring(): Wiring {
  const config = { rejectsPrefix: DEFAULT_REJECTS_PREFIX, allowedTables: null, liveSettingsIntervalMs: 20 };
  return withOwnLedger(createWiring({ config }));
}

/** Opens `seen` once a lane has read its import paused, after the lane's own handling of that read has run. */
function noticePause(wiring: Wiring, seen: () => void): void {
  const { ledger } = wiring;
  const renew = ledger.renew.bind(ledger);
  ledger.renew = async (execution, rows) => {
    const settings = await renew(execution, rows);
    // A macrotask later: the follower's continuations (microtasks) have turned the lane's `paused` on by then.
    if (settings?.paused) setImmediate(seen);
    return settings;
  };
}

/** The first chunk-progress event a paused invocation returned, and the table as it stood then. */
interface PausedStop {
  readonly next: Checkpoint;
  readonly rows: number;
  readonly written: number;
  /** BatchWriteItem requests sent until it returned. */
  readonly requests: number;
  readonly table: Item[];
}

describe('a Parquet lane paused in the middle of its chunk', () => {
  let wiring: Wiring;
  afterEach(() => removeFaultsFrom(wiring));

  it('stops sending at once, resumes from its first unwritten row, and ends with the file item by item', async () => {
    wiring = pauseWiring();
    const bucket = await createBucket();
    await putText(bucket, 'rg.parquet', FILE);
    const table = await createTable(['id', 'S']);
    const execution = uniqueName('parquet-pause');
    const lanesSawPause = gate();
    noticePause(wiring, lanesSawPause.open);
    // The import is paused as its second request arrives, and every request from then on waits until the lane has
    // read the pause: what it writes before it halts is at most the requests it has in flight, whatever the speed.
    let requests = 0;
    const hold = async () => {
      if (++requests === 2) await wiring.ledger.setPaused(execution, true);
      if (requests >= 2) await lanesSawPause.opened;
    };
    faultBatchWrites(table, 'initialize', async (input, send) => (await hold(), send(input)), wiring);
    const starts: Checkpoint[] = [];
    let stopped: Promise<PausedStop> | undefined;
    const onEvent = (e: RunnerEvent) => {
      if (e.type === 'chunk-start') starts.push(e.from!);
      if (e.type !== 'chunk-progress' || !('pausedWaitSeconds' in e) || stopped) return;
      // The halted invocation: read the table while the lane holds its checkpoint, then resume.
      const halted = { next: e.next!, rows: e.rows, written: e.written, requests };
      stopped = scanAll(table).then(async (items) => {
        await wiring.ledger.setPaused(execution, false);
        return { ...halted, table: items };
      });
    };

    const run = await runWithEvents(
      { bucket, key: 'rg.parquet', table },
      { wiring, executionName: execution, maxConcurrency: 1, onEvent, waitOverridesMs: { PausedWait: 20 } },
    );
    expect(stopped, 'an invocation returned paused').toBeDefined();
    const stop = await stopped!;

    // One chunk (the whole file). The lane's first request goes at 25 rows, its second once its window holds 800
    // rows (write/look-ahead.ts MIN_LOOK_AHEAD): 825 or more read. Halting at once, it sent request 1 and at most the
    // 16 it had in flight (1 + 16 = 17 requests, 425 rows); draining what it had read instead, 825 / 25 = 33 or more.
    expect(run.events.find((e) => e.type === 'preflight')).toMatchObject({ chunks: 1 });
    expect(stop.requests).toBeLessThanOrEqual(1 + DEFAULT_MAX_IN_FLIGHT);
    expect(stop.next.line).toBeGreaterThan(25); // request 1's rows were written: the checkpoint moved on
    // The checkpoint is its first unwritten row, at its row group's offset; every row before it written as in the file.
    const { line } = stop.next;
    const { rowGroups } = await readParquetFooter(async (s, e) => FILE.subarray(s, e), FILE.length, 'rg.parquet');
    const groupOf = rowGroups.find((g) => g.firstRow < line && line <= g.firstRow + g.rows)!;
    expect(stop.next).toEqual({ offset: groupOf.start, line });
    const byId = new Map(ROWS.map((item) => [item.id.S!, item]));
    const landed = new Map(stop.table.map((item) => [item.id.S!, item]));
    for (let row = 1; row < line; row++) expect(landed.get(ROWS[row - 1].id.S!), `row ${row}`).toEqual(ROWS[row - 1]);
    expect(landed.has(ROWS[line - 1].id.S!), `row ${line}`).toBe(false);
    for (const item of stop.table) expect(item).toEqual(byId.get(item.id.S!)); // rows past it sent before the halt
    // Counted once: the rows before it, all written; the rows from it on are the next invocation's to count.
    expect({ rows: stop.rows, written: stop.written }).toEqual({ rows: line - 1, written: line - 1 });
    // The first invocation started at the chunk's start; every later one (paused loops, then the resumed one) there.
    expect(starts[0]).toEqual({ offset: rowGroups[0].start, line: 1 });
    expect(starts.length).toBeGreaterThan(1);
    for (const from of starts.slice(1)) expect(from).toEqual(stop.next);
    expect(run.summary).toMatchObject({ status: 'SUCCEEDED', rows: ROWS.length, written: ROWS.length, rejected: 0 });
    expect(comparable(await scanAll(table), ['id'])).toEqual(comparable(ROWS, ['id']));
  });
});
