import {
  DescribeExecutionCommand,
  ListExecutionsCommand,
  ListMapRunsCommand,
  paginateGetExecutionHistory,
} from '@aws-sdk/client-sfn';
import { setTimeout as sleep } from 'node:timers/promises';
import { sfn, stackOutputs } from './aws.js';

/** How often to look again while waiting for the engine; a wait ends on its condition, never on elapsed time. */
const POLL_MS = 500;
/** A bound on a wait whose condition never comes: the case then fails with what it saw. */
const GIVE_UP_MS = 120_000;

/** Polls `look` until it returns a value (not undefined), or fails naming `what` after {@link GIVE_UP_MS}. */
export async function waitFor<T>(what: string, look: () => Promise<T | undefined>): Promise<T> {
  for (const until = Date.now() + GIVE_UP_MS; Date.now() < until; await sleep(POLL_MS)) {
    const value = await look();
    if (value !== undefined) return value;
  }
  throw new Error(`gave up waiting for ${what}`);
}

/** The executions of the deployed state machine whose input names `key`. */
export async function executionsOf(
  key: string,
): Promise<Array<{ arn: string; status: string; input: { key?: string } }>> {
  const { StateMachineArn } = await stackOutputs();
  const { executions = [] } = await sfn.send(new ListExecutionsCommand({ stateMachineArn: StateMachineArn }));
  const described = await Promise.all(
    executions.map((e) => sfn.send(new DescribeExecutionCommand({ executionArn: e.executionArn }))),
  );
  return described
    .map((d) => ({ arn: d.executionArn as string, status: d.status as string, input: JSON.parse(d.input ?? '{}') }))
    .filter((e) => e.input.key === key);
}

/** The failed child executions of the execution's Distributed Map runs: where a chunk's own error stays on AWS. */
export async function failedChildren(executionArn: string): Promise<Array<{ error?: string; cause?: string }>> {
  const { mapRuns = [] } = await sfn.send(new ListMapRunsCommand({ executionArn }));
  const children = await Promise.all(
    mapRuns.map((run) => sfn.send(new ListExecutionsCommand({ mapRunArn: run.mapRunArn, statusFilter: 'FAILED' }))),
  );
  const described = await Promise.all(
    children
      .flatMap((list) => list.executions ?? [])
      .map((e) => sfn.send(new DescribeExecutionCommand({ executionArn: e.executionArn }))),
  );
  return described.map((d) => ({ error: d.error, cause: d.cause }));
}

/** The causes of the execution's failed Task attempts (TaskFailed events), in the order they happened. */
export async function failedTaskCauses(executionArn: string): Promise<string[]> {
  const causes: string[] = [];
  for await (const page of paginateGetExecutionHistory({ client: sfn }, { executionArn })) {
    for (const event of page.events ?? []) {
      const cause = event.taskFailedEventDetails?.cause ?? event.lambdaFunctionFailedEventDetails?.cause;
      if (cause !== undefined) causes.push(cause);
    }
  }
  return causes;
}
