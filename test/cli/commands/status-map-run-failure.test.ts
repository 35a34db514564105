import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseStatusCommand, runStatusCommand } from '../../../cli/commands/status.js';
import { MAP_RUN_THRESHOLD_ERROR } from '../../../lambdas/map-run/first-failed-chunk.js';
import { startStandIn, type StandIn } from '../../e2e/admission/stand-in.js';
import { CHILD, EXECUTION, MAP_RUN, MACHINE, RUNNING_EXECUTION, T0 } from '../../fixtures/cloud/recorded-execution.js';
import { capture, cloudClients } from '../../support/cloud-clients.js';

// An execution that failed with AWS's Map Run threshold error: one whose FindFailedChunk could not name the chunk, or
// that ran a workflow from before it. The CLI reads the first failed chunk itself (a stand-in answers the Step
// Functions reads as AWS documents them and records the exact requests).
const SFN = (operation: string) => `AWSStepFunctions.${operation}`;
const THRESHOLD_CAUSE = 'The specified tolerated failure threshold was exceeded';
const CHUNK_CAUSE = JSON.stringify({ errorType: 'RecordTooLongError', errorMessage: 'line 812 is over 400 KB' });

let standIn: StandIn;
beforeAll(async () => (standIn = await startStandIn()));
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.requests.splice(0);
  standIn.answers = {
    [SFN('DescribeExecution')]: (body) =>
      body.executionArn === EXECUTION
        ? {
            ...RUNNING_EXECUTION,
            status: 'FAILED',
            stopDate: T0 + 50,
            error: MAP_RUN_THRESHOLD_ERROR,
            cause: THRESHOLD_CAUSE,
          }
        : {
            executionArn: CHILD(2),
            stateMachineArn: MACHINE,
            status: 'FAILED',
            startDate: T0,
            error: 'RecordTooLongError',
            cause: CHUNK_CAUSE,
          },
    [SFN('ListMapRuns')]: () => ({
      mapRuns: [{ executionArn: EXECUTION, mapRunArn: MAP_RUN, stateMachineArn: MACHINE, startDate: T0 + 5 }],
    }),
    [SFN('ListExecutions')]: () => ({
      executions: [
        { executionArn: CHILD(2), stateMachineArn: MACHINE, name: 'chunk-2', status: 'FAILED', startDate: T0 },
      ],
    }),
  };
});

const status = (args: string[], shown: ReturnType<typeof capture>) =>
  runStatusCommand(parseStatusCommand(args), cloudClients(standIn), shown.output, () => (T0 + 60) * 1000);

describe('s3-ddb-import status <execution failed with States.ExceedToleratedFailureThreshold>', () => {
  it("names the first failed chunk's error and cause in --json and exits 1", async () => {
    const shown = capture();
    expect(await status([EXECUTION, '--json'], shown)).toBe(1);
    expect(JSON.parse(shown.out.at(-1)!)).toEqual({
      status: 'FAILED',
      error: 'RecordTooLongError',
      message: CHUNK_CAUSE,
      durationMs: 50_000,
      executionArn: EXECUTION,
    });
    expect(standIn.requests.map((r) => [r.target, r.body])).toEqual([
      [SFN('DescribeExecution'), { executionArn: EXECUTION }],
      [SFN('ListMapRuns'), { executionArn: EXECUTION }],
      [SFN('ListExecutions'), { mapRunArn: MAP_RUN, statusFilter: 'FAILED', maxResults: 1000 }],
      [SFN('DescribeExecution'), { executionArn: CHILD(2) }],
    ]);
  });

  it('shows the threshold error when the Map Run cannot be read', async () => {
    standIn.answers[SFN('ListMapRuns')] = () => ({
      json: { __type: 'AccessDeniedException', message: 'no' },
      status: 400,
    });
    const shown = capture();
    expect(await status([EXECUTION, '--json'], shown)).toBe(1);
    expect(JSON.parse(shown.out.at(-1)!)).toMatchObject({ error: MAP_RUN_THRESHOLD_ERROR, message: THRESHOLD_CAUSE });
  });
});
