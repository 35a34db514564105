import { afterEach, describe, expect, it } from 'vitest';
import type { Chunk } from '../../../lambdas/contract/workflow-payloads.js';
import { outOfTimeAfter, type RunnerEvent, type StateEvent } from '../../../cli/local-run/runner.js';
import { chunkInvocations, expectChunksResumed, lineLayout } from '../chunk-invocations.js';
import { chunkAt, expectTableMatches, gate, ngramImport, putKey, runWithEvents } from './fixture.js';
import { faultBatchWrites, removeFaults } from './inject.js';

/**
 * Where each ImportChunk invocation stops, on a scripted clock (cli/local-run/lambda-clock.ts): at its check after
 * 42 clock reads (two set its margin and timer, then one every 25 records), ~1,000 rows in, on any machine.
 */
const IMPORT_READS = 42;
/**
 * ImportChunk's timeout, on the real clock: an invocation that never returns is failed by the runner as
 * Lambda.Unknown at 5 + 5 s of grace. The others write ~1,000 rows and return (~0.1 s at the local engine's
 * 10-17k items/s), so this is some 50 times what they need: only the hung one reaches it, however loaded the
 * machine.
 */
const IMPORT_TIMEOUT_MS = 5000;

describe('a Lambda timeout in the middle of a chunk', () => {
  const release = gate();
  afterEach(() => {
    release.open(); // the abandoned invocation's request fails now, and writes nothing more
    removeFaults();
  });

  it('re-runs the chunk from its last checkpoint: the table matches the file, rows counted once', async () => {
    // 30,000 rows (~1 MB) in 0.35 MiB chunks: 3 chunks of ~11k rows, 2 at once; each takes ~11 invocations
    // of ~1,000 rows, so every chunk passes through checkpoints.
    const { table, request, rows, text, offsetOf } = await ngramImport(30_000, 0.35);
    let chunks: Chunk[] = [];
    const looped = new Set<number>();
    const onEvent = (e: RunnerEvent) => {
      if (e.type === 'preflight') chunks = e.chunkList;
      else if (e.type === 'chunk-progress' && !e.done) looped.add(e.chunkIndex);
    };
    // The first request for a chunk that has checkpointed already hangs until the test ends, so that
    // invocation never returns: the runner fails it as Lambda would, and the ASL retries the chunk.
    let hung: { chunk: number; keys: string[] } | undefined;
    const sentAfterHang = new Set<string>();
    faultBatchWrites(table, 'initialize', async (input, send) => {
      const keys = input.RequestItems![table].map(putKey);
      const chunk = chunkAt(chunks, offsetOf.get(keys[0])!);
      if (!hung && looped.has(chunk)) {
        hung = { chunk, keys };
        await release.opened;
        throw Object.assign(new Error('released after the test'), { name: 'AbandonedInvocation' });
      }
      const output = await send(input);
      if (hung) for (const key of keys) sentAfterHang.add(key);
      return output;
    });

    const retried: StateEvent[] = [];
    const onStateEvent = (e: StateEvent) => void (e.type === 'StateRetried' && retried.push(e));
    const { summary, events } = await runWithEvents(request, {
      taskTimeoutsMs: { ImportChunk: IMPORT_TIMEOUT_MS },
      clocks: { ImportChunk: outOfTimeAfter(IMPORT_READS) },
      maxConcurrency: 2,
      onEvent,
      onStateEvent,
    });

    expect(hung).toBeDefined();
    // The timeout reached the workflow as Lambda.Unknown, as Step Functions reports it, and its retrier re-ran the chunk.
    expect(retried.map((e) => [e.state?.name, e.retry?.retrier.ErrorEquals])).toEqual([
      ['ImportChunk', ['Lambda.Unknown', 'States.Timeout', 'Sandbox.Timedout']],
    ]);
    expect(chunks).toHaveLength(3);
    // The retry wrote the hung request's rows again, and the hung chunk finished after it.
    expect(hung!.keys.filter((key) => !sentAfterHang.has(key))).toEqual([]);
    // Every chunk resumed at record starts, and the hung chunk's retry started where the hung invocation had (its
    // last checkpoint, not the chunk's start): the invocation that timed out is the one that never reported back.
    expectChunksResumed(events, chunks, lineLayout(text, { header: true }));
    const hungChunk = chunkInvocations(events).get(hung!.chunk)!;
    const timedOut = hungChunk.findIndex((invocation) => invocation.next === undefined);
    expect(timedOut).toBeGreaterThan(0);
    expect(hungChunk[timedOut + 1].from).toEqual(hungChunk[timedOut].from);
    expect(hungChunk.filter((invocation) => invocation.next === undefined)).toHaveLength(1);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  }, 240_000);
});
