import type { DescribeExecutionCommandOutput } from '@aws-sdk/client-sfn';
import type { ImportSummary } from '../../lambdas/contract/workflow-payloads.js';
import { exitCodeOf, printFailure, printSummary, type Output } from '../output/summary.js';
import { keepRejects } from '../output/rejects-copy.js';
import type { CloudClients } from './clients.js';

/**
 * Prints a finished execution exactly as `local` prints its import: the summary line or --json object, the
 * rejects copied home (from s3://<bucket>/<rejectsKey>) and the exit code, 0, 2 or 1. The summary is the
 * execution output (the Summarize state's); the duration is the execution's, start to stop.
 */
export async function finishExecution(
  clients: CloudClients,
  described: DescribeExecutionCommandOutput,
  json: boolean,
  output: Output,
): Promise<number> {
  const executionArn = described.executionArn ?? '';
  const durationMs = (described.stopDate?.getTime() ?? Date.now()) - (described.startDate?.getTime() ?? Date.now());
  if (described.status !== 'SUCCEEDED') {
    // DescribeExecution's error and cause name what failed (InvalidRequestError, States.Timeout, ...);
    // an execution stopped by hand has neither.
    const name = described.error ?? `Execution${capitalized(described.status ?? 'FAILED')}`;
    const message =
      described.cause ??
      `the execution ended ${described.status}: aws stepfunctions describe-execution --execution-arn ${executionArn}`;
    return printFailure({ name, message }, { json, durationMs, executionArn }, output);
  }
  const summary = JSON.parse(described.output ?? '{}') as ImportSummary;
  const rejectsDir = summary.rejectsKey ? await keepRejects(clients.s3, summary, output) : null;
  printSummary(summary, { json, durationMs, rejectsDir, executionArn }, output);
  return exitCodeOf(summary);
}

/** TIMED_OUT -> TimedOut, ABORTED -> Aborted. */
function capitalized(status: string): string {
  return status
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
