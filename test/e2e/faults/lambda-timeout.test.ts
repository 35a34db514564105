import { afterEach, describe, expect, it } from 'vitest';
import type { Chunk } from '../../../lambdas/contract/workflow-payloads.js';
import type { RunnerEvent, StateEvent } from '../../../cli/local-run/runner.js';
import { chunkAt, expectTableMatches, gate, ngramImport, putKey, runWithEvents } from './fixture.js';
import { faultBatchWrites, removeFaults } from './inject.js';

/**
 * ImportChunk's timeout: the write path's 33.55 s stop margin is clipped to half of it, so an invocation
 * stops at a checkpoint ~0.75 s in; one that never returns is failed by the runner as Lambda.Unknown at 6.5 s.
 */
const IMPORT_TIMEOUT_MS = 1500;

describe('a Lambda timeout in the middle of a chunk', () => {
  const release = gate();
  afterEach(() => {
    release.open(); // the abandoned invocation's request fails now, and writes nothing more
    removeFaults();
  });

  it('re-runs the chunk from its last checkpoint: the table matches the file, rows counted once', async () => {
    // 30,000 rows (~1 MB) in 0.35 MiB chunks: 3 chunks of ~11k rows, 2 at once; each takes a few
    // 1.5 s invocations at DynamoDB Local's rate, so every chunk passes through checkpoints.
    const { table, request, rows, offsetOf } = await ngramImport(30_000, 0.35);
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
    expect(events.some((e) => e.type === 'chunk-progress' && e.chunkIndex === hung!.chunk && e.done)).toBe(true);
    expect(summary).toMatchObject({ status: 'SUCCEEDED', rows: rows.length, written: rows.length, rejected: 0 });
    await expectTableMatches(table, rows);
  }, 240_000);
});
