import { SFNClient } from '@aws-sdk/client-sfn';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  MAP_RUN_THRESHOLD_ERROR,
  chunkErrorOf,
  firstFailedChunk,
} from '../../../lambdas/map-run/first-failed-chunk.js';
import { startStandIn, type StandIn } from '../../e2e/admission/stand-in.js';

// Step Functions has no local server that reproduces AWS's Map Run failure: a stand-in answers as AWS documents
// (API_ListMapRuns, API_ListExecutions, API_DescribeExecution) and records the exact requests the real client sends.
const SFN = (operation: string) => `AWSStepFunctions.${operation}`;
const EXECUTION = 'arn:aws:states:us-east-1:123456789012:execution:ImportMachine:ngrams-1';
const MAP_RUN = 'arn:aws:states:us-east-1:123456789012:mapRun:ImportMachine/ImportChunks:0f9a';
const CHILD = (id: string) => `arn:aws:states:us-east-1:123456789012:execution:ImportMachine/ImportChunks:${id}`;
const T0 = 1_767_225_600; // 2026-01-01T00:00:00Z, in the epoch seconds Step Functions' JSON protocol sends
const THRESHOLD = { Error: MAP_RUN_THRESHOLD_ERROR, Cause: 'The specified tolerated failure threshold was exceeded' };
const CAUSE = JSON.stringify({ errorType: 'BatchWriteFailedError', errorMessage: 'table ngrams kept throttling' });

let standIn: StandIn;
let sfn: SFNClient;
beforeAll(async () => {
  standIn = await startStandIn();
  sfn = new SFNClient({
    endpoint: standIn.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'stand-in', secretAccessKey: 'stand-in' },
  });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.requests.splice(0);
  standIn.answers = {
    [SFN('ListMapRuns')]: () => ({
      mapRuns: [
        { executionArn: EXECUTION, mapRunArn: MAP_RUN, stateMachineArn: 'sm', startDate: T0, stopDate: T0 + 60 },
      ],
    }),
    // Newest first, as ListExecutions sorts: chunk "b" stopped last, "a" first; a page of 1,000 said there is more.
    [SFN('ListExecutions')]: (body) =>
      body.nextToken === undefined
        ? { executions: [child('b', T0 + 50)], nextToken: 'page-2' }
        : { executions: [child('a', T0 + 30)] },
    [SFN('DescribeExecution')]: (body) => ({
      executionArn: body.executionArn,
      stateMachineArn: 'sm',
      status: 'FAILED',
      startDate: T0,
      error: body.executionArn === CHILD('a') ? 'BatchWriteFailedError' : 'SourceObjectChangedError',
      cause: CAUSE,
    }),
  };
});

function child(id: string, stop: number) {
  return { executionArn: CHILD(id), stateMachineArn: 'sm', name: id, status: 'FAILED', startDate: T0, stopDate: stop };
}

describe('firstFailedChunk', () => {
  it("reads the execution's Map Run, its FAILED children over every page, and describes the one that stopped first", async () => {
    expect(await firstFailedChunk(sfn, EXECUTION)).toEqual({
      executionArn: CHILD('a'),
      error: 'BatchWriteFailedError',
      cause: CAUSE,
    });
    expect(standIn.requests.map((r) => [r.target, r.body])).toEqual([
      [SFN('ListMapRuns'), { executionArn: EXECUTION }],
      [SFN('ListExecutions'), { mapRunArn: MAP_RUN, statusFilter: 'FAILED', maxResults: 1000 }],
      [SFN('ListExecutions'), { mapRunArn: MAP_RUN, statusFilter: 'FAILED', maxResults: 1000, nextToken: 'page-2' }],
      [SFN('DescribeExecution'), { executionArn: CHILD('a') }],
    ]);
  });

  it('is null when the execution started no Map Run', async () => {
    standIn.answers[SFN('ListMapRuns')] = () => ({ mapRuns: [] });
    expect(await firstFailedChunk(sfn, EXECUTION)).toBeNull();
    expect(standIn.requests.map((r) => r.target)).toEqual([SFN('ListMapRuns')]);
  });

  it('is null when no failed child is listed yet (ListExecutions is eventually consistent)', async () => {
    standIn.answers[SFN('ListExecutions')] = () => ({ executions: [] });
    expect(await firstFailedChunk(sfn, EXECUTION)).toBeNull();
  });
});

describe('chunkErrorOf', () => {
  it("puts the first failed chunk's error and cause in place of AWS's threshold error", async () => {
    expect(await chunkErrorOf(sfn, EXECUTION, THRESHOLD)).toEqual({ Error: 'BatchWriteFailedError', Cause: CAUSE });
  });

  it("passes a chunk's own error through without a request (the in-process interpreter's shape)", async () => {
    const own = { Error: 'CorruptSourceError', Cause: 'gzip: invalid header' };
    expect(await chunkErrorOf(sfn, EXECUTION, own)).toBe(own);
    expect(standIn.requests).toEqual([]);
  });

  it('keeps the threshold error when no failed child can be found', async () => {
    standIn.answers[SFN('ListExecutions')] = () => ({ executions: [] });
    expect(await chunkErrorOf(sfn, EXECUTION, THRESHOLD)).toBe(THRESHOLD);
  });
});
