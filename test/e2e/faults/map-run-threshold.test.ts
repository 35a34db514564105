import { SFNClient } from '@aws-sdk/client-sfn';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runLocalImport, type RunnerEvent } from '../../../cli/local-run/runner.js';
import { MAP_RUN_THRESHOLD_ERROR } from '../../../lambdas/map-run/first-failed-chunk.js';
import { startStandIn, type StandIn } from '../admission/stand-in.js';
import { ngramImport } from './fixture.js';
import { faultGetObjects, faultWiring, removeFaults } from './inject.js';

// On AWS a Map Run over its failure threshold fails the Map with States.ExceedToleratedFailureThreshold and a generic
// cause; the chunk's error stays in its child execution (step-functions/latest/dg/maprun-fail-threshold.html). The
// in-process interpreter passes the child's own error through, so these tests give the Map AWS's shape: the chunk
// fails with the threshold's name, and a stand-in answers the Step Functions reads as AWS would (no local server
// runs Map Runs as AWS does), recording the exact requests FindFailedChunk sends.
const SFN = (operation: string) => `AWSStepFunctions.${operation}`;
const MAP_RUN = 'arn:aws:states:us-east-1:000000000000:mapRun:s3-ddb-import-local/ImportChunks:run-1';
const CHILD = 'arn:aws:states:us-east-1:000000000000:execution:s3-ddb-import-local/ImportChunks:child-3';
const CHUNK_CAUSE = 'table ngrams kept throttling past the retry budget';

let standIn: StandIn;
let sfn: SFNClient;
beforeAll(async () => {
  standIn = await startStandIn();
  const credentials = { accessKeyId: 'stand-in', secretAccessKey: 'stand-in' };
  sfn = new SFNClient({ endpoint: standIn.endpoint, region: 'us-east-1', credentials });
});
afterAll(() => standIn.close());
afterEach(removeFaults);
beforeEach(() => {
  standIn.requests.splice(0);
  standIn.answers = {
    [SFN('ListMapRuns')]: (body) => ({
      mapRuns: [{ executionArn: body.executionArn, mapRunArn: MAP_RUN, stateMachineArn: 'sm', startDate: 1 }],
    }),
    [SFN('ListExecutions')]: () => ({
      executions: [{ executionArn: CHILD, stateMachineArn: 'sm', name: 'child-3', status: 'FAILED', startDate: 1 }],
    }),
    [SFN('DescribeExecution')]: () => ({
      executionArn: CHILD,
      stateMachineArn: 'sm',
      status: 'FAILED',
      startDate: 1,
      error: 'BatchWriteFailedError',
      cause: CHUNK_CAUSE,
    }),
  };
});

/**
 * Every GetObject of the import's chunks fails with `name` and `status` once preflight has cut the chunks: a 4xx the
 * range reader does not name passes through as it is (source/s3-range-reader.ts), so the chunk fails under `name`.
 */
function failChunkReads(bucket: string, name: string, status = 400) {
  const phase = { importing: false };
  faultGetObjects(bucket, 'initialize', async (input, send) => {
    if (!phase.importing) return send(input);
    throw Object.assign(new Error('the Map Run failed'), { name, $metadata: { httpStatusCode: status } });
  });
  return (e: RunnerEvent) => {
    if (e.type === 'preflight' && e.scanComplete) phase.importing = true;
  };
}

describe('a failed Map Run, as AWS reports it', () => {
  it("fails the execution under the first failed chunk's error and cause, read from the Map Run", async () => {
    const { bucket, request } = await ngramImport(2000, 1);
    const onEvent = failChunkReads(bucket, MAP_RUN_THRESHOLD_ERROR);
    const executionName = `threshold-${Date.now()}`;
    const options = { maxConcurrency: 2, wiring: faultWiring(), sfn, onEvent, executionName };

    const error = await runLocalImport(request, options).catch((e: Error) => e);

    expect(error).toMatchObject({ name: 'BatchWriteFailedError', message: CHUNK_CAUSE });
    const execution = `arn:aws:states:us-east-1:000000000000:execution:s3-ddb-import-local:${executionName}`;
    expect(standIn.requests.map((r) => [r.target, r.body])).toEqual([
      [SFN('ListMapRuns'), { executionArn: execution }],
      [SFN('ListExecutions'), { mapRunArn: MAP_RUN, statusFilter: 'FAILED', maxResults: 1000 }],
      [SFN('DescribeExecution'), { executionArn: CHILD }],
    ]);
  }, 60_000);

  it("passes a chunk's own error through, as the in-process interpreter reports it, with no Step Functions read", async () => {
    const { bucket, request } = await ngramImport(2000, 1);
    const onEvent = failChunkReads(bucket, 'PreconditionFailed', 412); // the object changed: SourceObjectChangedError

    const error = await runLocalImport(request, { maxConcurrency: 2, wiring: faultWiring(), sfn, onEvent }).catch(
      (e: Error) => e,
    );

    expect(error).toMatchObject({ name: 'SourceObjectChangedError' });
    expect(standIn.requests).toEqual([]);
  }, 60_000);
});
