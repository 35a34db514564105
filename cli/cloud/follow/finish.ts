import type { DescribeExecutionCommandOutput } from '@aws-sdk/client-sfn';
import type { ImportSummary } from '../../../lambdas/contract/workflow-payloads.js';
import { MAP_RUN_THRESHOLD_ERROR, chunkErrorOf } from '../../../lambdas/map-run/first-failed-chunk.js';
import { exitCodeOf, printSummary, type Output } from '../../output/summary.js';
import { printFailure } from '../../output/failure.js';
import { keepOutputs } from '../../output/diff-copy.js';
import type { CloudClients } from '../aws/clients.js';

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
    const { name, message } = await failureOf(clients, described);
    return printFailure({ name, message }, { what: 'import', json, durationMs, executionArn }, output);
  }
  const summary = JSON.parse(described.output ?? '{}') as ImportSummary;
  const kept = await keepOutputs(clients.s3, summary, output);
  printSummary(summary, { json, durationMs, ...kept, executionArn }, output);
  return exitCodeOf(summary);
}

/**
 * DescribeExecution's error and cause name what failed (InvalidRequestError, States.Timeout, ...); an execution
 * stopped by hand has neither. Where the workflow could not name its failed chunk (FindFailedChunk failed, or the
 * execution ran a workflow from before it), AWS's threshold error is replaced here by the first failed chunk's own
 * error and cause, read with the operator's credentials; if that fails too, the threshold error is shown.
 */
async function failureOf(
  clients: CloudClients,
  described: DescribeExecutionCommandOutput,
): Promise<{ name: string; message: string }> {
  const executionArn = described.executionArn ?? '';
  const name = described.error ?? `Execution${capitalized(described.status ?? 'FAILED')}`;
  const message =
    described.cause ??
    `the execution ended ${described.status}: aws stepfunctions describe-execution --execution-arn ${executionArn}`;
  if (name !== MAP_RUN_THRESHOLD_ERROR) return { name, message };
  const chunk = await chunkErrorOf(clients.sfn, executionArn, { Error: name, Cause: message }).catch(() => null);
  return chunk ? { name: chunk.Error, message: chunk.Cause } : { name, message };
}

/** TIMED_OUT -> TimedOut, ABORTED -> Aborted. */
function capitalized(status: string): string {
  return status
    .toLowerCase()
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}
