import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { importKey } from '../../../lambdas/admission/ledger-items.js';
import type { Chunk, ChunkProgress } from '../../../lambdas/contract/workflow-payloads.js';
import type { RunnerEvent, StateEvent } from '../../../cli/local-run/runner.js';
import {
  chunkAt,
  expectTableMatches,
  gate,
  ngramImport,
  putKey,
  runWithEvents,
  validationError,
  withOwnLedger,
} from '../faults/fixture.js';
import { faultBatchWrites, removeFaults } from '../faults/inject.js';
import { redriveChunks } from './redriven-chunks.js';

const EXECUTION = 'redrive-after-catch';
const FAILING_CHUNK = 2;
/** 8,000 rows (~260 KB) in 0.05 MiB chunks: 5 chunks, all running at once (MaxConcurrency 5). */
const LANES = 5;

/** The input ImportChunk last entered with, per Map iteration, and the iterations that succeeded. */
function childInputs() {
  const inputs = new Map<number, unknown>();
  const succeeded = new Set<number>();
  const onStateEvent = (event: StateEvent) => {
    const { input } = (event.state ?? {}) as { input?: unknown };
    if (event.type === 'StateEntered' && event.state?.name === 'ImportChunk') inputs.set(event.index!, input);
    if (event.type === 'MapIterationSucceeded') succeeded.add(event.index!);
  };
  const unsuccessful = () => [...inputs].filter(([index]) => !succeeded.has(index)).map(([, input]) => input);
  return { onStateEvent, succeeded, unsuccessful };
}

describe('a redrive after the Catch gave the lanes back (issue 38, risk 3)', () => {
  afterEach(removeFaults);

  it('re-admits before any write: the redriven chunk waits while the lanes are taken, then lands the file exactly', async () => {
    const { table, request, rows, offsetOf } = await ngramImport(8000, 0.05);
    const wiring = withOwnLedger();
    const { ledger } = wiring;
    let chunks: Chunk[] = [];
    const onEvent = (e: RunnerEvent) => void (e.type === 'preflight' && (chunks = e.chunkList));
    // Chunk 2 is refused (a non-retryable error) once the other four succeeded, so nothing runs on after the failure.
    const children = childInputs();
    const othersDone = gate();
    faultBatchWrites(table, 'initialize', async (input, send) => {
      if (chunkAt(chunks, offsetOf.get(putKey(input.RequestItems![table][0]))!) !== FAILING_CHUNK) return send(input);
      await othersDone.opened;
      throw validationError('One or more parameter values were invalid');
    });
    const watchOthers = (event: StateEvent) => {
      children.onStateEvent(event);
      if (children.succeeded.size === LANES - 1) othersDone.open();
    };
    const options = { wiring, maxConcurrency: LANES, executionName: EXECUTION, onEvent, onStateEvent: watchOthers };
    const failure = await runWithEvents(request, options).catch((error: Error) => error);
    expect(failure).toMatchObject({ name: 'BatchWriteFailedError' });
    expect(chunks).toHaveLength(LANES);
    // The Catch's ReleaseLanes gave the lanes back; a redrive would now re-run chunk 2 alone.
    expect(await ledger.read(EXECUTION)).toBeNull();
    const redriven = children.unsuccessful();
    expect(redriven).toEqual([expect.objectContaining({ chunkIndex: FAILING_CHUNK })]);

    // Another import into the table holds all its lanes meanwhile.
    const other = { table, want: LANES, capped: false, poolLanes: null, tableLanes: LANES, maxWriteRate: 0 };
    expect(await ledger.admit({ ...other, execution: 'other-import' })).toMatchObject({ granted: LANES });
    // Every BatchWriteItem is checked against the ledger, read strongly consistent, just before it is sent.
    removeFaults();
    const writes = { sent: 0, withoutLanes: 0 };
    faultBatchWrites(table, 'initialize', async (input, send) => {
      const get = new GetItemCommand({ TableName: ledger.tableName, Key: importKey(EXECUTION), ConsistentRead: true });
      const { Item } = await wiring.dynamodb.send(get);
      writes.sent++;
      if (!Item?.lanes) writes.withoutLanes++;
      return send(input);
    });
    const waited = gate();
    let pausedAnswers = 0;
    const reports = {
      ImportChunk: {
        after: (_: unknown, output: ChunkProgress) => {
          if (output.pausedWaitSeconds !== undefined && ++pausedAnswers === 3) waited.open();
        },
      },
    };
    const redrive = redriveChunks(redriven, { wiring, waitOverridesMs: { PausedWait: 50 } }, reports);

    // Three invocations found no lanes free (or, unfixed, the chunk ran to its end without asking).
    await Promise.race([waited.opened, redrive]);
    expect(writes.sent).toBe(0);
    await ledger.release('other-import');
    const results = await redrive;

    // The chunk's counts (contract CHUNK_RESULT_FIELDS): [chunk, rows, written, rejected, ...].
    const [[chunk, chunkRows, written, rejected]] = results as number[][];
    expect({ chunk, written, rejected }).toEqual({ chunk: FAILING_CHUNK, written: chunkRows, rejected: 0 });
    expect(writes.sent).toBeGreaterThan(0);
    expect(writes.withoutLanes).toBe(0);
    await expectTableMatches(table, rows);
    // The import holds its lanes again, all of them, until its Summarize (which the redrive runs next) gives them back.
    expect(await ledger.holders()).toEqual({ [EXECUTION]: { table, lanes: LANES, capped: false } });
    await ledger.release(EXECUTION);
  }, 180_000);
});
