import { describe, expect, it } from 'vitest';
import type { StateError } from '../../../lambdas/contract/task-payloads.js';
import { runFindFailedChunk, type FindFailedChunkIo } from '../../../lambdas/failed-chunk/find-failed-chunk.js';
import { createContainerLogger } from '../../../lambdas/observability/logger.js';

const EXECUTION = 'arn:aws:states:us-east-1:123456789012:execution:ImportMachine:ngrams-1';
const THRESHOLD: StateError = { Error: 'States.ExceedToleratedFailureThreshold', Cause: 'threshold exceeded' };
const CHUNK_ERROR: StateError = { Error: 'BatchWriteFailedError', Cause: '{"errorMessage":"kept throttling"}' };

/** A scripted I/O: answers `answer` and records what it was asked. */
function scriptedIo(answer: (error: StateError) => StateError | Error) {
  const asked: [string, StateError][] = [];
  const io: FindFailedChunkIo = {
    chunkErrorOf: async (executionArn, error) => {
      asked.push([executionArn, error]);
      const named = answer(error);
      if (named instanceof Error) throw named;
      return named;
    },
  };
  return { io, asked };
}

const OPTIONS = { logger: createContainerLogger(), context: {} };

describe('runFindFailedChunk', () => {
  it("returns the first failed chunk's error for the Map's threshold error, asking once for this execution", async () => {
    const { io, asked } = scriptedIo(() => CHUNK_ERROR);
    expect(await runFindFailedChunk({ error: THRESHOLD, executionArn: EXECUTION }, io, OPTIONS)).toEqual(CHUNK_ERROR);
    expect(asked).toEqual([[EXECUTION, THRESHOLD]]);
  });

  it('returns the error as the Map run tells it when no failed chunk is found', async () => {
    const { io } = scriptedIo((error) => error);
    expect(await runFindFailedChunk({ error: THRESHOLD, executionArn: EXECUTION }, io, OPTIONS)).toEqual(THRESHOLD);
  });

  it('fails when reading the Map Run fails: the error reaches the workflow named by the handler', async () => {
    const throttled = Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
    const { io } = scriptedIo(() => throttled);
    await expect(runFindFailedChunk({ error: THRESHOLD, executionArn: EXECUTION }, io, OPTIONS)).rejects.toBe(
      throttled,
    );
  });
});
